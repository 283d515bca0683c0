#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make-initramfs.sh ARCH [NAME SOURCE.c...]: compile the sources into one
# static program and pack it as /init of a newc cpio (what 2.6.9 unpacks
# from qemu -initrd, or from Ski's -initramfs). glibc static binaries
# refuse to run on 2.6.9, musl ones work; ia64 has neither here and links
# the freestanding runtime of guestlib/ (rt.h) instead. Default:
# NAME=guest, the checks in tests/guest/*.c; scripts/bench.sh builds
# NAME=bench from bench/guest/*.c and sweep/stats.c; both get
# guestlib/guestlib.c. Each NAME has its own archive, so the test and
# benchmark guests never overwrite each other.
# Prints the cpio path: build/initramfs-NAME-ARCH.cpio.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

[ $# = 1 ] || [ $# -ge 3 ] || die "usage: $0 x86_64|i386|ia64 [NAME SOURCE.c...]"
arch=$1; shift
if [ $# = 0 ]; then
	set -- guest "$ROOT"/tests/guest/*.c
fi
name=$1; shift
# both guests share guestlib/ (boot.sh's chk= keys, /proc files)
set -- "$@" "$ROOT/guestlib/guestlib.c"
rt=
case $arch in
x86_64) need_cmd musl-gcc; cc=musl-gcc ;;
i386) need_cmd musl-gcc; need_cmd i386-linux-musl-gcc; cc=i386-linux-musl-gcc ;;
ia64)
	# No libc for ia64 here: the freestanding runtime of guestlib/ (rt.h),
	# built with the cross gcc of `make ia64-toolchain`; libgcc for the
	# divisions ia64 has no instruction for.
	[ ! -d "$CACHE/ia64-toolchain/bin" ] || PATH=$CACHE/ia64-toolchain/bin:$PATH
	command -v ia64-linux-gnu-gcc > /dev/null 2>&1 ||
		die "no ia64 cross compiler: run 'make ia64-toolchain' first"
	cc="ia64-linux-gnu-gcc -nostdlib -ffreestanding -fno-tree-loop-distribute-patterns -DGUESTLIB_RT"
	set -- "$@" "$ROOT/guestlib/rt-lib.c" "$ROOT/guestlib/rt-sys.c" "$ROOT/guestlib/rt-ia64.S"
	rt=-lgcc ;;
*) die "no initramfs for $arch (x86_64 and i386 boot under QEMU, ia64 under Ski)" ;;
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
# shellcheck disable=SC2086 # $cc: a compiler and its options; $rt: none or -lgcc
$cc -static -O2 -Wall -Wextra -Wno-sign-compare -o "$dir/root/init" "$@" $rt ||
	die "the $name guest program does not compile"
(cd "$dir/root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) > "$out.tmp"
mv "$out.tmp" "$out"
echo "$out"
