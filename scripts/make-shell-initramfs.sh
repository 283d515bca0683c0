#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make-shell-initramfs.sh ARCH: the shell guest of `make shell`: a
# static busybox (scripts/build-busybox.sh) with every applet linked, /proc
# and /sys mounted, LTP's hackbench (scripts/get-hackbench.sh),
# cachehot-sweep (scripts/build-sweep.sh), a one-screen
# banner on what to try, and a shell on the serial console; leaving the
# shell (exit, poweroff, Ctrl-D) powers off.
# Prints the cpio path: build/initramfs-shell-ARCH.cpio.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

[ $# = 1 ] || die "usage: $0 x86_64|i386"
arch=$1
need_cmd cpio
# hackbench.c first: a missing one stops the build before busybox's
hb=$(last_line "$ROOT/scripts/get-hackbench.sh")
bb=$(last_line "$ROOT/scripts/build-busybox.sh" "$arch")
sweep=$(last_line "$ROOT/scripts/build-sweep.sh" "$arch")
case $arch in x86_64) cc=musl-gcc ;; i386) cc=i386-linux-musl-gcc ;; *) die "no shell guest for $arch" ;; esac
dir=$BUILD/initramfs-shell-$arch
out=$dir.cpio
rm -rf "$dir"
mkdir -p "$dir/root/bin" "$dir/root/proc" "$dir/root/sys" "$dir/root/dev" \
	"$dir/root/etc" "$dir/root/tmp"
cp "$bb" "$dir/root/bin/busybox"
cp "$sweep" "$dir/root/bin/cachehot-sweep"
$cc -static -O2 -pthread -w -o "$dir/root/bin/hackbench" "$hb" ||
	die "LTP's hackbench does not build with $cc"
cp "$ROOT/tests/shell/init" "$dir/root/init"
chmod 755 "$dir/root/init"
cp "$ROOT/tests/shell/sysctl.conf" "$dir/root/etc/sysctl.conf"
printf 'root:x:0:0:root:/:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' > "$dir/root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$dir/root/etc/group"
(cd "$dir/root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) > "$out.tmp"
mv "$out.tmp" "$out"
echo "$out"
