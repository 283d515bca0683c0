#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build-busybox.sh ARCH: a static busybox for the shell guest (make shell),
# built with musl from Debian's own busybox source package (the
# version the archive has for this machine, fetched through a private
# deb-src list and cached under ${XDG_CACHE_HOME:-~/.cache}/cachehot/busybox/).
# defconfig minus CONFIG_TC (it does not build against musl's headers).
# Nothing of busybox is committed.  ARCH: x86_64 (musl-gcc) or i386
# (i386-linux-musl-gcc).  Prints the binary's path as its last line.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

arch=${1:-x86_64}
case $arch in
x86_64) need_cmd musl-gcc; cc=musl-gcc ;;
i386)
	need_cmd i386-linux-musl-gcc; cc=i386-linux-musl-gcc
	# musl's i386 gcc brings no kernel headers, and busybox needs them:
	# installed here as root (.ci/run alone did, so a fresh `make check`
	# stopped at the i386 shell guest).
	need_path /usr/include/i386-linux-gnu/asm i386-kernel-headers ;;
*) die "no busybox for $arch (x86_64, i386)" ;;
esac
need_cmd make
need_cmd xz
need_cmd bzip2
need_cmd file

ver=$(apt-cache show busybox 2>/dev/null | sed -n 's/^Source: busybox (\(.*\))$/\1/p' | head -n 1)
[ -n "$ver" ] || ver=$(apt-cache show busybox 2>/dev/null | sed -n 's/^Version: //p' | head -n 1)
[ -n "$ver" ] || die "apt knows no busybox package: run apt-get update"
src=$CACHE/busybox/$(printf '%s' "$ver" | tr ':' '_')
if [ ! -d "$src/tree" ]; then
	rm -rf "$src"; mkdir -p "$src/dl"
	debian_source busybox "$ver" "$src/dl"
	orig=$(find "$src/dl" -maxdepth 1 -name 'busybox_*.orig.tar.*' | head -n 1)
	[ -n "$orig" ] || die "no busybox orig tarball in $src/dl"
	mkdir -p "$src/tree.tmp"
	tar -xf "$orig" -C "$src/tree.tmp" --strip-components=1 || die "cannot unpack $orig"
	mv "$src/tree.tmp" "$src/tree"
fi

out=$BUILD/busybox-$arch
bin=$out/busybox
# musl's gcc wrapper leaves out /usr/include, and with it the kernel's
# headers busybox needs (linux/kd.h ...): a directory of just those.
kh=$BUILD/musl-kernel-headers-$arch
case $arch in x86_64) triplet=x86_64-linux-gnu ;; i386) triplet=i386-linux-gnu ;; esac
[ -d "/usr/include/$triplet/asm" ] ||
	die "no /usr/include/$triplet/asm: apt-get install linux-libc-dev$( [ "$arch" = i386 ] && echo :i386) (scripts/packages)"
mkdir -p "$kh"
for d in linux asm-generic mtd; do ln -sfn "/usr/include/$d" "$kh/$d"; done
ln -sfn "/usr/include/$triplet/asm" "$kh/asm"
if [ ! -x "$bin" ] || [ -n "$(find "$0" -newer "$bin")" ]; then
	msg "busybox $ver for $arch (static, musl; log: $out/build.log)"
	rm -rf "$out"; mkdir -p "$out"
	(
		cd "$src/tree"
		make O="$out" defconfig
		sed -i 's/^CONFIG_TC=y/# CONFIG_TC is not set/' "$out/.config"
		make O="$out" oldconfig < /dev/null
		make O="$out" -j"${JOBS:-2}" CC="$cc" HOSTCC=gcc \
			CONFIG_EXTRA_CFLAGS="-isystem $kh" LDFLAGS=-static
	) > "$out/build.log" 2>&1 || die "busybox does not build (log: $out/build.log)"
	file "$bin" 2>/dev/null | grep -q 'statically linked' || die "$bin is not static"
fi
echo "$bin"
