#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build-ski.sh: build Ski, the HP ia64 instruction-set simulator (GPL-2;
# the maintained fork is github.com/trofi/ski), and its bootloader
# (ski-bootloader/, with the ia64 cross gcc of `make ia64-toolchain`), once,
# into ${XDG_CACHE_HOME:-~/.cache}/cachehot/ski: bin/bski (the batch
# simulator, console on stdout with -noconsole) and ski-bootloader (loads
# vmlinux and an -initramfs, fakes the EFI the kernel expects). Ski boots
# kernels built for CONFIG_IA64_HP_SIM, with one CPU.
#
# Source, never downloaded (like Red Hat's tree): SKI_SRC (a checkout or
# unpacked tree), else $CACHE/ski-$SKI_COMMIT.tar* (one top-level
# directory); either must have the git tree id of SKI_COMMIT below. Without
# one, it says how to make the tarball from a clone.
# Idempotent: exits at once when the stamp names this commit and both files
# are there. About a minute and a half on 2 cores. Prints the directory.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

SKI_COMMIT=dfc2902ea1423d9b32543a5daf8026213f2b37a1
SKI_TREE_ID=53371ae7c316069166c9ce3b71acb2752986776d
out=$CACHE/ski
work=$CACHE/ski-build
stamp="ski $SKI_COMMIT tree $SKI_TREE_ID"

mkdir -p "$CACHE"
exec 9> "$CACHE/.ski.lock"
flock 9

if [ -x "$out/bin/bski" ] && [ -f "$out/ski-bootloader" ] &&
	[ "$(cat "$out/stamp" 2>/dev/null)" = "$stamp" ]; then
	echo "$out"
	exit 0
fi

need_cmd git
need_cmd make
need_cmd gcc
need_cmd autoconf
need_cmd aclocal
need_cmd libtoolize
need_cmd gperf
need_cmd bison
need_cmd flex
need_cmd pkg-config
need_path /usr/include/libelf.h libelf-headers
need_path /usr/include/ncurses.h ncurses-headers
need_path /usr/share/aclocal/ax_check_compile_flag.m4 autoconf-archive-macros
[ ! -d "$CACHE/ia64-toolchain/bin" ] || PATH=$CACHE/ia64-toolchain/bin:$PATH
command -v ia64-linux-gnu-gcc > /dev/null 2>&1 ||
	die "no ia64 cross compiler for Ski's bootloader: run 'make ia64-toolchain' first"

# The source: a copy (a build never writes SKI_SRC), verified.
rm -rf "$work"
mkdir -p "$work"
if [ -n "${SKI_SRC:-}" ]; then
	[ -d "$SKI_SRC" ] || die "SKI_SRC=$SKI_SRC is not a directory"
	src=$SKI_SRC
else
	tb=
	for f in "$CACHE/ski-$SKI_COMMIT".tar*; do [ -f "$f" ] && tb=$f; done
	[ -n "$tb" ] || die "no Ski source: SKI_SRC=<a checkout of github.com/trofi/ski at $SKI_COMMIT>, or
  git clone https://github.com/trofi/ski && git -C ski archive --prefix=ski/ $SKI_COMMIT > $CACHE/ski-$SKI_COMMIT.tar"
	mkdir -p "$work/unpack"
	tar -xf "$tb" -C "$work/unpack" || die "$tb: cannot unpack (corrupt tarball?)"
	src=$(find "$work/unpack" -mindepth 1 -maxdepth 1 -type d)
	[ "$(printf '%s\n' "$src" | wc -l)" = 1 ] || die "$tb: expected one top-level directory"
fi
msg "verifying the Ski source $src (git tree id of its files)"
id=$(tree_id "$src" "$work/verify")
[ "$id" = "$SKI_TREE_ID" ] ||
	die "$src is not Ski $SKI_COMMIT: tree id $id, expected $SKI_TREE_ID"
cp -a "$src" "$work/ski"
rm -rf "$work/unpack" "$work/verify"

log=$work/build.log
msg "building Ski $SKI_COMMIT (log: $log)"
(
	cd "$work/ski"
	./autogen.sh
	./configure --prefix="$out"
	make -j"${JOBS:-2}"
	rm -rf "$out"
	make install
	make -C ski-bootloader CROSS_COMPILE=ia64-linux-gnu-
) > "$log" 2>&1 || { tail -n 25 "$log" >&2; die "Ski does not build (log: $log)"; }
cp "$work/ski/ski-bootloader/ski-bootloader" "$out/ski-bootloader"
echo "$stamp" > "$out/stamp"
rm -rf "$work/ski"
echo "$out"
