#!/bin/sh
# make-initramfs.sh ARCH: compile tests/guest/*.c into one static musl program
# and pack it as /init of a newc cpio (what 2.6.9 unpacks from qemu -initrd).
# glibc static binaries refuse to run on 2.6.9, musl ones work.
# Prints the cpio path: build/initramfs-ARCH.cpio.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

[ $# = 1 ] || die "usage: $0 x86_64|i386"
arch=$1
case $arch in
x86_64) need_cmd musl-gcc musl-tools; cc=musl-gcc ;;
i386) need_cmd musl-gcc musl-tools
	need_cmd i386-linux-musl-gcc "musl-dev:i386 (after: dpkg --add-architecture i386 && apt-get update)"
	cc=i386-linux-musl-gcc ;;
*) die "no initramfs for $arch (only x86_64 and i386 boot under QEMU)" ;;
esac
need_cmd cpio cpio

dir=$BUILD/initramfs-$arch
out=$BUILD/initramfs-$arch.cpio
mkdir -p "$dir/root/proc" "$dir/root/dev"
# Rebuild only when a source is newer than the archive.
if [ -f "$out" ] && [ -z "$(find "$ROOT/tests/guest" -newer "$out" -name '*.[ch]')" ] &&
	[ -z "$(find "$0" -newer "$out")" ]; then
	echo "$out"; exit 0
fi
msg "initramfs: compiling tests/guest/*.c for $arch with $cc -static"
# shellcheck disable=SC2046 # one argument per source file
$cc -static -O2 -Wall -o "$dir/root/init" $(ls "$ROOT"/tests/guest/*.c) ||
	die "guest program does not compile"
(cd "$dir/root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) > "$out.tmp"
mv "$out.tmp" "$out"
echo "$out"
