#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# guestlib-rt.sh: guestlib/rt-lib.c, the ia64 guest's formatting, parsing
# and string functions, built for the host with rt_ names and held to
# glibc's answers (tests/guestlib-rt/test.c). The ia64 guest's checks are
# only as good as its printf and sscanf: a sscanf that matched what glibc
# would not could pass a check that should fail.
set -eu
# shellcheck source=../scripts/lib.sh
. "$(dirname -- "$0")/../scripts/lib.sh"
need_cmd gcc
dir=$BUILD/guestlib-rt
mkdir -p "$dir"
names="strlen strcmp strncmp strchr strrchr strstr strcspn strtok_r strdup
memset memcpy memmove memcmp memchr strtol strtoul strtoull vsnprintf
snprintf vsscanf sscanf isdigit isspace strerror getenv environ errno malloc"
defs=
for n in $names; do defs="$defs -D$n=rt_$n"; done
# The flags of the ia64 build (scripts/make-initramfs.sh), for the host.
# shellcheck disable=SC2086 # one -D a word
if ! gcc -c -O2 -Wall -Wextra -Wno-sign-compare -ffreestanding \
	-fno-tree-loop-distribute-patterns -DGUESTLIB_RT $defs \
	-o "$dir/rt-lib.o" "$ROOT/guestlib/rt-lib.c" 2> "$dir/build.log" ||
   ! gcc -O2 -Wall -Wno-format-truncation -o "$dir/test" "$ROOT/tests/guestlib-rt/test.c" "$dir/rt-lib.o" 2>> "$dir/build.log"; then
	cat "$dir/build.log"
	echo "FAIL guestlib-rt-builds: see above"
	echo "0 passed, 1 failed"
	exit 1
fi
[ ! -s "$dir/build.log" ] || { echo "warnings:"; cat "$dir/build.log"; }
"$dir/test"
