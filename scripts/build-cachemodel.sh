#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build-cachemodel.sh - build the cache-timing model plugin for QEMU's TCG
# (cachemodel/) against the plugin API of the installed qemu-system-x86.
#
# The header, include/qemu/qemu-plugin.h, comes from Debian's own qemu
# source package of the installed version (`apt-get source --download-only`
# through a PRIVATE deb-src list, as build-ia64-toolchain.sh gets gcc-12; the
# machine's apt configuration is never modified), and is cached under
# ${XDG_CACHE_HOME:-~/.cache}/cachehot/qemu-plugin/<source version>/.
# No QEMU source is committed.  The built plugin's API version is checked
# against the qemu binary by loading it (cachemodel's check=1 argument).
#
# Builds build/cachemodel/libcachemodel.so and, beside it, cachemodel-info
# (the named machines for the scripts).  Prints the .so path as its last line.
# Environment: DEBIAN_MIRROR (default http://deb.debian.org/debian),
#              DEBIAN_SECURITY (default http://deb.debian.org/debian-security)
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

need_cmd qemu-system-x86_64
need_cmd gcc
need_cmd xz
need_cmd dpkg-deb

ver=$(dpkg-query -W -f='${source:Version}' qemu-system-x86 2>/dev/null) ||
	die "qemu-system-x86 is not a Debian package here: cannot tell which QEMU source to take the plugin API from"
hdrdir=$CACHE/qemu-plugin/$(printf '%s' "$ver" | tr ':' '_')
hdr=$hdrdir/qemu-plugin.h

if [ ! -s "$hdr" ]; then
	mkdir -p "$hdrdir/src"
	debian_source qemu "$ver" "$hdrdir/src"
	orig=$(find "$hdrdir/src" -maxdepth 1 -name 'qemu_*.orig.tar.*' | head -n 1)
	[ -n "$orig" ] || die "no qemu orig tarball in $hdrdir/src"
	tar -xf "$orig" -C "$hdrdir/src" --wildcards '*/include/qemu/qemu-plugin.h' ||
		die "$orig has no include/qemu/qemu-plugin.h"
	find "$hdrdir/src" -path '*/include/qemu/qemu-plugin.h' -exec cp {} "$hdr.tmp" \;
	[ -s "$hdr.tmp" ] || die "qemu-plugin.h not found in $orig"
	mv "$hdr.tmp" "$hdr"
	rm -rf "$hdrdir/src"
fi

out=$BUILD/cachemodel
mkdir -p "$out"
so=$out/libcachemodel.so
gcc -O2 -Wall -Wextra -Werror -std=gnu11 -fPIC -shared -I"$hdrdir" -I"$ROOT/cachemodel" \
	-o "$so.tmp" "$ROOT/cachemodel/plugin.c" "$ROOT/cachemodel/model.c" \
	"$ROOT/cachemodel/machines.c" ||
	die "the plugin does not build against $hdr"
mv "$so.tmp" "$so"
gcc -O2 -Wall -Wextra -Werror -std=gnu11 -I"$ROOT/cachemodel" -o "$out/cachemodel-info" \
	"$ROOT/cachemodel/info.c" "$ROOT/cachemodel/machines.c" ||
	die "cachemodel-info does not build"

# Load it: QEMU refuses a plugin of another API version, and the plugin's
# check=1 compares its header's QEMU_PLUGIN_VERSION with what QEMU offers.
if ! chk=$(timeout 30 qemu-system-x86_64 -M none -display none -nodefaults \
	-plugin "$so,check=1" 2>&1); then
	die "qemu-system-x86_64 does not load $so: $(printf '%s' "$chk" | tail -n 1)"
fi
case $chk in
*"cachemodel: API version "*" ok"*) msg "$(printf '%s' "$chk" | grep 'cachemodel:' | tail -n 1)" ;;
*) die "the plugin's API check printed no verdict: $chk" ;;
esac
echo "$so"
