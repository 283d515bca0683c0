#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# get-hackbench.sh: the Linux Test Project's hackbench
# (testcases/kernel/sched/cfs-scheduler/hackbench.c) for the shell guest
# at a pinned commit, verified by its sha256: from LTP_SRC (a
# checkout or unpacked archive of that commit), else from the cache
# (${XDG_CACHE_HOME:-~/.cache}/cachehot/ltp-<commit>/), else downloaded.
# It needs only libc (-pipe mode: the configs have no CONFIG_NET).
# Prints the file's path as its last line.  Nothing of LTP is committed.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

commit=695827725f4fc14fe583043127e0335c29bbd52d
sha=77edf614a122127635ee5794f601fb7cdf8518fd1456b037ae6aef071a49ad9a
path=testcases/kernel/sched/cfs-scheduler/hackbench.c
dir=$CACHE/ltp-$commit
file=$dir/hackbench.c

ok() { [ -s "$1" ] && [ "$(sha256sum < "$1" | cut -d' ' -f1)" = "$sha" ]; }

if [ -n "${LTP_SRC:-}" ]; then
	ok "$LTP_SRC/$path" || die "$LTP_SRC/$path is not LTP $commit's hackbench.c (sha256 differs)"
	mkdir -p "$dir"; cp "$LTP_SRC/$path" "$file"
elif ! ok "$file"; then
	need_cmd curl
	mkdir -p "$dir"
	url=https://raw.githubusercontent.com/linux-test-project/ltp/$commit/$path
	msg "downloading LTP $commit's hackbench.c"
	curl -fsSL -o "$file.tmp" "$url" || { rm -f "$file.tmp"; die "cannot download $url (or set LTP_SRC=<ltp checkout>)"; }
	ok "$file.tmp" || { rm -f "$file.tmp"; die "$url: sha256 differs from $sha"; }
	mv "$file.tmp" "$file"
fi
echo "$file"
