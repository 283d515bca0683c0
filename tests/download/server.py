#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Loopback HTTP server of tests/download.sh (python3's http.server).

server.py DIR PORTFILE LIFETIME: serve DIR on 127.0.0.1 at a free port,
written to PORTFILE once listening; stop by itself after LIFETIME seconds
(the test also kills it on exit). GET /cut/NAME is an interrupted download:
the response announces NAME's full length, sends half of it and closes the
connection. Every request is logged to stderr.
"""
import functools
import http.server
import os
import sys
import threading

root, portfile, lifetime = sys.argv[1], sys.argv[2], float(sys.argv[3])


class Handler(http.server.SimpleHTTPRequestHandler):
    def do_GET(self):
        if not self.path.startswith("/cut/"):
            return super().do_GET()
        path = os.path.join(root, os.path.basename(self.path))
        size = os.path.getsize(path)
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(size))
        self.end_headers()
        with open(path, "rb") as f:
            self.wfile.write(f.read(size // 2))
        self.wfile.flush()
        self.close_connection = True


httpd = http.server.ThreadingHTTPServer(
    ("127.0.0.1", 0), functools.partial(Handler, directory=root))
with open(portfile + ".tmp", "w") as f:
    f.write("%d\n" % httpd.server_address[1])
os.rename(portfile + ".tmp", portfile)
threading.Timer(lifetime, httpd.shutdown).start()
httpd.serve_forever()
