#!/bin/sh
# bench-initramfs.sh ARCH: compile bench/oltp.c (the benchmark's /init,
# static musl: glibc static binaries do not run on 2.6.9) and pack it as
# /init of a newc cpio. A separate archive from make-initramfs.sh's, so that
# the test guest and the benchmark guest never overwrite each other.
# Prints the cpio path last: build/bench-initramfs-ARCH.cpio.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

[ $# = 1 ] || die "usage: $0 x86_64|i386"
arch=$1
case $arch in
x86_64) need_cmd musl-gcc musl-tools; cc=musl-gcc ;;
i386) need_cmd i386-linux-musl-gcc "musl-dev:i386 (after: dpkg --add-architecture i386 && apt-get update)"
	cc=i386-linux-musl-gcc ;;
*) die "no benchmark initramfs for $arch (only x86_64 and i386 boot under QEMU)" ;;
esac
need_cmd cpio cpio

src=$ROOT/bench/oltp.c
dir=$BUILD/bench-initramfs-$arch
out=$BUILD/bench-initramfs-$arch.cpio
mkdir -p "$dir/root/proc" "$dir/root/dev"
# Rebuild only when the source or this script is newer than the archive.
if [ -f "$out" ] && [ -z "$(find "$src" "$0" -newer "$out")" ]; then
	echo "$out"; exit 0
fi
msg "bench initramfs: compiling bench/oltp.c for $arch with $cc -static"
# -O2 but no vectorising tricks matter here: the walk is one dependent load
# per step, which is the point.
$cc -static -O2 -Wall -Wextra -Wno-sign-compare -o "$dir/root/init" "$src" ||
	die "bench/oltp.c does not compile"
(cd "$dir/root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) > "$out.tmp"
mv "$out.tmp" "$out"
echo "$out"
