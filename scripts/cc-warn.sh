#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cc-warn.sh COMPILER ARGS...: run the kernel's compiler and keep the warnings
# of each object in OBJECT.warn next to it, so that an incremental build still
# knows every object's warnings (build-kernel.sh collects them). Used as the
# first word of CC=; all output still reaches the terminal.
set -u
out=
prev=
compile=
for a in "$@"; do
	[ "$prev" = -o ] && out=$a
	[ "$a" = -c ] && compile=1
	prev=$a
done
case $out in
*.o) [ -n "$compile" ] || out= ;;
*) out= ;;
esac
[ -n "$out" ] || exec "$@"
"$@" 2> "$out.warn.tmp"
rc=$?
cat "$out.warn.tmp" >&2
if [ -s "$out.warn.tmp" ]; then mv -f "$out.warn.tmp" "$out.warn"; else rm -f "$out.warn.tmp" "$out.warn"; fi
exit "$rc"
