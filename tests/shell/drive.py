#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Drive the shell guest through its serial console (a QEMU pipe chardev:
PIPE.in is what the guest reads, PIPE.out what it writes), as a user
would type: the real busybox tools against the series' knobs.
Usage: drive.py PIPE LOG.  Prints PASS/FAIL lines; the caller counts them.
"""
import os
import re
import select
import sys
import time

pipe, logpath = sys.argv[1], sys.argv[2]
log = open(logpath, "w")
wfd = os.open(pipe + ".in", os.O_WRONLY)
rfd = os.open(pipe + ".out", os.O_RDONLY | os.O_NONBLOCK)
buf = ""
passed = failed = 0
n = 0


def read_until(pattern, timeout=60):
    """Console output up to and including the first match of pattern."""
    global buf
    end = time.time() + timeout
    while True:
        m = re.search(pattern, buf)
        if m:
            out, buf = buf[:m.end()], buf[m.end():]
            return out, m
        left = end - time.time()
        if left <= 0:
            return None, None
        r, _, _ = select.select([rfd], [], [], left)
        if r:
            try:
                data = os.read(rfd, 4096)
            except BlockingIOError:
                continue
            if not data:
                time.sleep(0.05)
                continue
            text = data.decode("utf-8", "replace").replace("\r", "")
            log.write(text)
            log.flush()
            buf += text


def give_up(why):
    """A guest that stopped answering fails once, and the rest is not
    run: each of its checks would only wait out its own timeout."""
    check(False, "guest-answers", why + "; the remaining checks not run")
    print("drive: %d passed, %d failed" % (passed, failed))
    sys.exit(0)


# how long a command may take, in s (hackbench's get 240 s); a test of
# this driver sets it shorter
TIMEOUT = int(os.environ.get("DRIVE_TIMEOUT_S", "60"))


def run(cmd, timeout=None):
    """Type cmd; its output and exit status."""
    global n
    n += 1
    timeout = timeout or TIMEOUT
    os.write(wfd, ("%s; echo __RC%d=$?__\n" % (cmd, n)).encode())
    out, m = read_until(r"__RC%d=(\d+)__\n" % n, timeout)
    if out is None:
        give_up("no answer to %r in %d s" % (cmd, timeout))
    # drop the echoed command line and the marker
    lines = out.split("\n")
    body = [l for l in lines if "__RC%d" % n not in l]
    return "\n".join(body).strip(), int(m.group(1))


def check(ok, name, why=""):
    global passed, failed
    if ok:
        print("PASS shell/%s" % name)
        passed += 1
    else:
        print("FAIL shell/%s: %s" % (name, why))
        failed += 1


def value(key):
    """The knob's number. A kernel message can land on the console after
    it ("Your time source seems to be instable ..." on a slow host), so
    the last all-digit line, else the last line."""
    out, rc = run("cat /proc/sys/kernel/%s" % key)
    if rc != 0:
        return None
    lines = [l.strip() for l in out.split("\n")]
    nums = [l for l in lines if l.isdigit()]
    return nums[-1] if nums else lines[-1]


# a kernel panic before the banner ends the wait: tests/shell.sh retries
# the boot if it was one of the timing checks a loaded host fails
banner, m = read_until(r"poweroff, exit or Ctrl-D|Kernel panic - not syncing[^\n]*\n", 120)
check(banner is not None and "panic" not in m.group(0), "banner",
      "no banner in 120 s" if banner is None else m.group(0).strip())
if banner is None or "panic" in m.group(0):
    sys.exit(0)
os.write(wfd, b"\n")
read_until(r"# $|# \n", 10)
boot = value("cache_hot_time")
check(boot is not None and boot.isdigit(), "cat-knob", "cat gave %r" % boot)
out, rc = run("sysctl -a 2>/dev/null | grep cache_hot_time")
check(rc == 0 and ("kernel.cache_hot_time = %s" % boot) in (out or ""),
      "sysctl-a-lists-knob", "sysctl -a: %r, the file: %s" % (out, boot))
out, rc = run("sysctl -n kernel.cache_hot_time")
check(rc == 0 and out.split("\n")[-1] == boot, "sysctl-n", "%r" % out)
# integers of us, as 2.6.9's int sysctls take them (base 0: 0x10 is 16)
for val, us in (("7500", "7500"), ("0x10", "16"), ("12000", "12000"),
                ("1000000", "1000000"), ("5000", "5000")):
    out, rc = run("sysctl -w kernel.cache_hot_time=%s" % val)
    got = value("cache_hot_time")
    check(rc == 0 and got == us, "sysctl-w-%s" % val,
          "rc %s, file reads %s, want %s" % (rc, got, us))
out, rc = run("sysctl -w kernel.cache_hot_time=10ms")
got = value("cache_hot_time")
check(rc != 0 and got == "5000", "sysctl-w-bad-value-refused-kept",
      "rc %s (%r), file reads %s, want 5000" % (rc, out, got))
# a file with a refused line between two good ones
run("printf 'kernel.cache_hot_time = 3000\\n# a comment\\n"
    "kernel.cache_hot_time = 10ms\\nkernel.cache_hot_time = 30000\\n' > /tmp/p.conf")
out, rc = run("sysctl -p /tmp/p.conf")
got = value("cache_hot_time")
# busybox 1.35 applies the lines before a refused one, says "write error"
# without the key, stops there and exits 1 (what the docs tell users)
check(got == "3000" and rc == 1 and
      "sysctl: write error: Invalid argument" in (out or ""),
      "sysctl-p-stops-at-a-refused-line",
      "cache_hot_time reads %s (3000, then 10ms, then 30000), exit status %s, "
      "said %r" % (got, rc, out))
out, rc = run("sysctl -p /etc/sysctl.conf")
check(rc == 0 and value("cache_hot_time") == "3000", "sysctl-p-example-file",
      "exit status %s, said %r" % (rc, out))
# what was read can be written back: the boot value again
out, rc = run("sysctl -w kernel.cache_hot_time=%s" % boot)
got = value("cache_hot_time")
check(rc == 0 and got == boot, "sysctl-w-boot-value-back",
      "file reads %s, want %s" % (got, boot))
out, rc = run("su nobody -s /bin/sh -c 'sysctl -w kernel.cache_hot_time=9000'")
got = value("cache_hot_time")
check(rc != 0 and got == boot, "sysctl-w-non-root-refused",
      "rc %s (%r), file reads %s" % (rc, out, got))
# every CPU's SMP domains use it: the third field of each domain line
# of /proc/schedstat (version 100: the name, the cpumask, then
# cache_hot_time in ns) is cache_hot_time in ns;
# both shell kernels have CONFIG_SCHED_SMT, so domain0 is the SMT level
# and domain1 the SMP level
out, rc = run("sysctl -w kernel.cache_hot_time=4000 >/dev/null; "
              "grep '^domain1 ' /proc/schedstat | awk '{print $3}' | sort -u")
check(rc == 0 and out.split("\n")[-1] == "4000000", "schedstat-agrees-with-sysctl",
      "SMP domains' values in ns: %r" % out)
out, rc = run("taskset -c 1 cat /proc/self/stat | cut -d' ' -f39")
check(rc == 0 and out.split("\n")[-1] == "1", "taskset", "%r" % out)
# LTP's hackbench (-pipe: no CONFIG_NET) at 0, 10 ms and 4 s while another
# task rewrites the knob and reads /proc/schedstat in a loop
run("(while :; do for v in 1000 0 %s; do sysctl -w "
    "kernel.cache_hot_time=$v >/dev/null; cat /proc/schedstat "
    ">/dev/null; done; done) & echo $! > /tmp/rewriter" % boot)
for val in ("0", "10000", "4000000"):
    run("sysctl -w kernel.cache_hot_time=%s >/dev/null" % val)
    out, rc = run("hackbench -pipe 2 process 20", 240)
    check(rc == 0 and out is not None and re.search(r"Time: [0-9.]+", out),
          "hackbench-at-%s" % val, "exit status %s, printed %r" % (rc, out))
run("kill $(cat /tmp/rewriter)")

# cachehot-sweep around LTP's hackbench: the table with its
# intervals, the line to paste (or "not resolved") last, and the value as
# it was before
run("sysctl -w kernel.cache_hot_time=7000 >/dev/null")
out, rc = run("cachehot-sweep --count --points 5ms,10ms --reps 2 --run 3s "
              "--warm 0 --settle 0 -- hackbench -pipe 2 process 20 2>/dev/null",
              240)
lines = (out or "").split("\n")
check(rc == 0 and re.search(r"^10 ms +2 ", out or "", re.M) and "+-" in (out or "")
      and re.match(r"cache_hot_time=[0-9]+(ms|us)(,[0-9]+(ms|us))?$|not resolved: ",
                   lines[-1]),
      "sweep-table-and-paste-line", "exit %s, printed %r" % (rc, out))
check(value("cache_hot_time") == "7000", "sweep-restores-value",
      "reads %s after the sweep, was 7000" % value("cache_hot_time"))
# refusals, each leaving the value alone: a bad point, not root, a
# workload that prints no number
for name, cmd in (
        ("bad-point", "cachehot-sweep --points 5s -- true"),
        ("non-root", "su nobody -s /bin/sh -c 'cachehot-sweep --points 5ms -- true'"),
        ("no-number", "cachehot-sweep --points 5ms --reps 2 --run 1s --warm 0 "
         "-- sh -c 'while :; do echo x; sleep 1; done'")):
    out, rc = run(cmd + " 2>&1", 60)
    check(rc != 0 and value("cache_hot_time") == "7000",
          "sweep-refuses-%s" % name, "exit %s, value %s, said %r" %
          (rc, value("cache_hot_time"), out))
# killed in the middle: the value comes back
out, rc = run("(cachehot-sweep --count --points 250ms --reps 2 --run 3s "
              "--warm 0 --settle 0 -- hackbench -pipe 2 process 20 >/dev/null 2>&1 & p=$!; sleep 5; "
              "kill -TERM $p; wait $p); echo status $?", 60)
check("status 143" in (out or "") and value("cache_hot_time") == "7000",
      "sweep-killed-restores", "said %r, value %s" % (out, value("cache_hot_time")))
os.write(wfd, b"poweroff\n")
down, _ = read_until(r"Power down|System halted", 30)
check(down is not None, "poweroff", "no 'Power down' in 30 s")
print("drive: %d passed, %d failed" % (passed, failed))
