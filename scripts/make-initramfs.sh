#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make-initramfs.sh ARCH [NAME SOURCE.c...]: compile the sources into one
# static musl program and pack it as /init of a newc cpio (what 2.6.9
# unpacks from qemu -initrd). glibc static binaries refuse to run on 2.6.9,
# musl ones work. Default: NAME=guest, the checks in tests/guest/*.c;
# scripts/bench.sh builds NAME=bench from bench/guest/*.c and sweep/stats.c;
# both get guestlib/guestlib.c. Each NAME has its own
# archive, so the test and benchmark guests never overwrite each other.
# Prints the cpio path: build/initramfs-NAME-ARCH.cpio.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

[ $# = 1 ] || [ $# -ge 3 ] || die "usage: $0 x86_64|i386 [NAME SOURCE.c...]"
arch=$1; shift
if [ $# = 0 ]; then
	set -- guest "$ROOT"/tests/guest/*.c
fi
name=$1; shift
# both guests share guestlib/ (boot.sh's chk= keys, /proc files)
set -- "$@" "$ROOT/guestlib/guestlib.c"
case $arch in
x86_64) need_cmd musl-gcc; cc=musl-gcc ;;
i386) need_cmd musl-gcc; need_cmd i386-linux-musl-gcc; cc=i386-linux-musl-gcc ;;
*) die "no initramfs for $arch (only x86_64 and i386 boot under QEMU)" ;;
esac
need_cmd cpio

dir=$BUILD/initramfs-$name-$arch
out=$dir.cpio
mkdir -p "$dir/root/proc" "$dir/root/dev"
# Rebuild only when a source, a header beside one, or this script is newer
# than the archive.
hdrs=$(for f in "$@"; do dirname -- "$f"; done | sort -u |
	while IFS= read -r d; do find "$d" -maxdepth 1 -name '*.h'; done)
# shellcheck disable=SC2086 # $hdrs: one path per word (no spaces in ours)
if [ -f "$out" ] && [ -z "$(find "$@" $hdrs "$0" -newer "$out")" ]; then
	echo "$out"; exit 0
fi
msg "initramfs $name: compiling $* for $arch with $cc -static"
$cc -static -O2 -Wall -Wextra -Wno-sign-compare -o "$dir/root/init" "$@" ||
	die "the $name guest program does not compile"
(cd "$dir/root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) > "$out.tmp"
mv "$out.tmp" "$out"
echo "$out"
