#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build-sweep.sh [ARCH...]: build cachehot-sweep (sweep/), the
# sweep a user runs around their own workload on a real machine, as one
# static musl binary per ARCH (x86_64, i386; default both), each a single
# file to copy onto a 2.6.9 box (glibc static binaries do not run there).
# Each binary must print its --help (i386 under qemu-i386). The last line
# is the binaries' paths, space separated, in the order of the ARCHs:
# build/sweep/<arch>/cachehot-sweep.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

[ $# -gt 0 ] || set -- x86_64 i386
src="$ROOT/sweep/cachehot-sweep.c $ROOT/sweep/stats.c"
paths=
for arch in "$@"; do
	case $arch in
	x86_64) need_cmd musl-gcc; cc=musl-gcc; run= ;;
	i386)
		need_cmd musl-gcc; need_cmd i386-linux-musl-gcc; need_cmd qemu-i386
		cc=i386-linux-musl-gcc; run=qemu-i386 ;;
	*) die "no cachehot-sweep for $arch (x86_64 or i386)" ;;
	esac
	out=$BUILD/sweep/$arch/cachehot-sweep
	mkdir -p "${out%/*}"
	# shellcheck disable=SC2086 # $src: one path per word
	if [ ! -f "$out" ] || [ -n "$(find $src "$ROOT/sweep/stats.h" "$0" -newer "$out")" ]; then
		msg "cachehot-sweep: compiling for $arch with $cc -static"
		# shellcheck disable=SC2086
		$cc -static -s -O2 -std=c99 -Wall -Wextra -Werror -o "$out.tmp" $src -lm ||
			die "cachehot-sweep does not compile for $arch"
		help=$($run "$out.tmp" --help 2>&1) || die "$out.tmp --help failed: $help"
		case $help in
		"usage: cachehot-sweep"*) ;;
		*) die "$out.tmp --help printed no usage: $help" ;;
		esac
		mv "$out.tmp" "$out"
	fi
	paths="$paths${paths:+ }$out"
done
echo "$paths"
