#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sparse.sh CONFIG [FILE...]: Debian's sparse, run by the kernel's own
# `make C=2` (so with kbuild's flags), on the .c files the feature series
# touches (or FILEs) that CONFIG compiles, in build/CONFIG and in
# build/CONFIG.unpatched; both must have been built by build-kernel.sh.
# Prints (make check counts them):
#   PASS|FAIL sparse CONFIG: no sparse warning or error that the unpatched
#     tree lacks. Compared per file and message, line numbers dropped
#     (patches move lines), counted: one more instance of an old message is
#     new.
#   PASS|FAIL sparse-sees-__user CONFIG HANDLER, for each sysctl handler the
#     series adds: with the __user of the handler's parameters dropped, a
#     copy of its file gets a new sparse warning. This proves that sparse
#     reached the handler and compares its annotations (with the prototype,
#     the ctl_table type, copy_from_user()), so a missing one would show.
# Exit status non-zero if anything failed. Output: build/<tree>/logs/sparse.*
# x86 only: sparse needs --arch (it defaults to the host's x86_64).
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

[ $# -ge 1 ] || die "usage: $0 CONFIG [FILE...]"
config=$1; shift
arch=$(config_arch "$config")
case $arch in
i386|x86_64) ;;
*) die "sparse.sh: $arch is not supported (only i386 and x86_64)" ;;
esac
need_cmd sparse
need_cmd gcc
need_cmd flock

nfail=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; nfail=$((nfail + 1)); }
# Same order for sort, comm and uniq whatever the user's locale.
LC_ALL=C
export LC_ALL

pt=$BUILD/$config
ut=$BUILD/$config.unpatched
for t in "$pt" "$ut"; do
	if [ ! -f "$t/make.args" ] || [ ! -f "$t/linux/vmlinux" ]; then
		fail "sparse $config" "$t is not built (scripts/build-kernel.sh $config$([ "$t" = "$pt" ] || echo ' --unpatched'))"
		exit 1
	fi
done
mkdir -p "$pt/logs" "$ut/logs"

# The files: the .c ones the feature series touches, unless named.
named=$#
if [ "$named" = 0 ]; then
	series_names "$ROOT/series" | while read -r p; do
		[ ! -f "$ROOT/patches/$p" ] || patch_files "$ROOT/patches/$p"
	done | grep '\.c$' | sort -u > "$pt/logs/sparse.files"
else
	printf '%s\n' "$@" > "$pt/logs/sparse.files"
fi
# compiled TREE: the files of sparse.files that TREE's config compiles.
# x86_64 builds a file of arch/i386/ (the series' sched_cache.c) from its
# own directory as ../../i386/kernel/...; make cannot name that object from
# the top, and the i386 config's run checks the same source.
compiled() {
	while read -r f; do
		case $arch/$f in x86_64/arch/i386/*) continue ;; esac
		[ ! -f "$1/linux/${f%.c}.o" ] || echo "$f"
	done < "$pt/logs/sparse.files"
}
files=$(compiled "$pt")
[ -n "$files" ] || { fail "sparse $config" "no file of the series is compiled in $config"; exit 1; }

# kbuild passes -nostdinc -iwithprefix include, and sparse does not know
# gcc's prefix: it needs gcc's own include directory (stdarg.h) given.
# No cap on the number of warnings (default 100): every one is compared.
check="sparse --arch=$arch -isystem $(gcc -print-file-name=include) -fmax-warnings=unlimited"

# Only one make at a time in a tree: build-kernel.sh's lock.
build_lock

# messages LOG: sparse's warnings and errors of LOG, positions dropped,
# counted: "COUNT FILE: warning: MESSAGE". Sparse's own lines start with
# FILE:LINE:COL; the detail lines under them ("   expected ...") are indented.
messages() {
	sed -n 's/^\([^ :][^ :]*\):[0-9][0-9]*:[0-9][0-9]*: \(warning\|error\): /\1: \2: /p' "$1" |
		sort | uniq -c | sed 's/^ *//'
}
# increase OLD NEW: the messages of NEW (counted) that occur more often than
# in OLD, as "FILE: warning: MESSAGE (N, was M)".
increase() {
	awk 'NR == FNR { n = $1; sub(/^[0-9]+ /, ""); old[$0] = n; next }
		{ n = $1; sub(/^[0-9]+ /, ""); if (n > old[$0] + 0) printf "%s (%d, was %d)\n", $0, n, old[$0] + 0 }' "$1" "$2"
}
# total COUNTED: the number of messages.
total() { awk '{ n += $1 } END { print n + 0 }' "$1"; }

# run_sparse TOP FILES: make C=2 (CHECK every named object, compile what is
# out of date, which after build-kernel.sh is nothing) with V=1, so that the
# log holds the exact sparse commands. The tree must not change: an object
# newer than the start means it was not up to date or the make arguments
# differ from the build's. No FILES, no make (it would build everything).
run_sparse() {
	_top=$1 _files=$2
	if [ -z "$_files" ]; then : > "$_top/logs/sparse.txt"; return 0; fi
	_objs=$(printf '%s\n' "$_files" | sed 's/\.c$/.o/')
	: > "$_top/logs/sparse.start"
	msg "$(basename "$_top"): sparse on $(printf '%s' "$_files" | tr '\n' ' ')"
	# shellcheck disable=SC2086 # one word per object
	if ! tree_make "$_top" -j1 V=1 C=2 CHECK="$check" $_objs > "$_top/logs/sparse.log" 2>&1; then
		fail "sparse $config" "make C=2 failed in $(basename "$_top"): $(grep -m1 -E 'error|Error' "$_top/logs/sparse.log") (log: $_top/logs/sparse.log)"
		return 1
	fi
	_new=$(cd "$_top/linux" && find . -newer "$_top/logs/sparse.start" -name '*.o' | head -n 3 | tr '\n' ' ')
	if [ -n "$_new" ]; then
		fail "sparse $config" "make C=2 rebuilt objects in $(basename "$_top"): $_new(not up to date, or make arguments that differ from the build's)"
		return 1
	fi
	for _f in $_files; do
		grep -q -F -- " $_f ;" "$_top/logs/sparse.log" || {
			fail "sparse $config" "sparse did not run on $_f in $(basename "$_top") (log: $_top/logs/sparse.log)"
			return 1
		}
	done
	messages "$_top/logs/sparse.log" > "$_top/logs/sparse.txt"
}

# where MESSAGE LOG: the positions of MESSAGE ("FILE: warning: TEXT") in LOG,
# with how often sparse gave it there: the candidates for the new instance.
where() {
	_file=${1%%: *} _rest=${1#*: }
	grep -F -- ": $_rest" "$2" | grep -F -- "$_file:" |
		sed -n "s|^\($_file:[0-9]*:[0-9]*\): .*|\1|p" | uniq -c |
		awk '{ printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1 } END { print "" }'
}

if run_sparse "$pt" "$files" && run_sparse "$ut" "$(compiled "$ut")"; then
	increase "$ut/logs/sparse.txt" "$pt/logs/sparse.txt" > "$pt/logs/sparse-new.txt"
	msg "$config: sparse: $(total "$pt/logs/sparse.txt") warnings patched, $(total "$ut/logs/sparse.txt") unpatched (logs/sparse.txt)"
	if [ -s "$pt/logs/sparse-new.txt" ]; then
		first=$(head -n 1 "$pt/logs/sparse-new.txt")
		fail "sparse $config" "$(wc -l < "$pt/logs/sparse-new.txt") new (build/$config/logs/sparse-new.txt): $first; patched at $(where "${first% (*}" "$pt/logs/sparse.log")"
	else
		pass "sparse $config"
	fi
else
	exit 1
fi

# ---- The sysctl handlers the series adds: the .proc_handler and .strategy
# of the checked files that the unpatched tree does not have.
handlers() {
	for _f in $2; do
		[ ! -f "$1/linux/$_f" ] || cat "$1/linux/$_f"
	done | sed -n 's/^[[:space:]]*\.\(proc_handler\|strategy\)[[:space:]]*=[[:space:]]*&\{0,1\}\([A-Za-z_][A-Za-z0-9_]*\).*/\2/p' | sort -u
}
handlers "$pt" "$files" > "$pt/logs/sparse.handlers"
handlers "$ut" "$files" | comm -13 - "$pt/logs/sparse.handlers" > "$pt/logs/sparse.handlers.new"
# The series has sysctl handlers: none found means this check went blind.
if [ ! -s "$pt/logs/sparse.handlers.new" ] && [ "$named" = 0 ] &&
	grep -q '^CONFIG_SYSCTL=y' "$pt/linux/.config"; then
	fail "sparse-sees-__user $config" "CONFIG_SYSCTL=y, but no sysctl handler of the series found in $(printf '%s' "$files" | tr '\n' ' ')"
fi
# The copies and sparse's output stay in build/CONFIG/sparse-selftest/HANDLER.
rm -rf "$pt/sparse-selftest"
# run LOG: sparse's command for f (cmd, as make ran it) on the copy st/f.
# The copy is elsewhere: f's own directory comes last, for "..." includes.
run() {
	(cd "$pt/linux" && sh -c "$cmd \"\$1\" \"\$2\"" sh "-I$pt/linux/$(dirname "$f")" "$st/$f") > "$1" 2>&1
}
while read -r h; do
	st=$pt/sparse-selftest/$h
	# The definition: from the line (column 0) that names h( to the line
	# before its "{"; a line ending in ";" first makes it a prototype.
	range='' f=''
	for f in $files; do
		range=$(awk -v h="$h" '
			!hdr && $0 ~ ("^[A-Za-z_].*[^A-Za-z0-9_]" h "\\(") { hdr = 1; start = NR }
			hdr && /;[[:space:]]*$/ { hdr = 0; next }
			hdr && /^\{/ { print start "," NR - 1; exit }' "$pt/linux/$f")
		[ -z "$range" ] || break
	done
	if [ -z "$range" ]; then
		fail "sparse-sees-__user $config $h" "no definition of $h in $(printf '%s' "$files" | tr '\n' ' ')"
		continue
	fi
	# Sparse's command for f as make echoed it with V=1: "  CHECK ... f ;".
	line=$(grep -F -- "$check " "$pt/logs/sparse.log" | grep -m1 -F -- " $f ;") || true
	case $line in
	*" $f ;") cmd=${line%" $f ;"}; cmd=${cmd#"${cmd%%[! ]*}"} ;;
	*) fail "sparse-sees-__user $config $h" "no sparse command for $f in build/$config/logs/sparse.log"
		continue ;;
	esac
	mkdir -p "$st/$(dirname "$f")"
	cp "$pt/linux/$f" "$st/$f"
	run "$st/base.log" || { fail "sparse-sees-__user $config $h" "sparse failed on a copy of $f: $(head -n 1 "$st/base.log")"; continue; }
	sed -i "${range}s/[[:space:]]*\\<__user\\>//g" "$st/$f"
	if cmp -s "$pt/linux/$f" "$st/$f"; then
		fail "sparse-sees-__user $config $h" "$h has no __user parameter in $f"
		continue
	fi
	run "$st/dropped.log" || true
	messages "$st/base.log" > "$st/base.txt"
	messages "$st/dropped.log" > "$st/dropped.txt"
	increase "$st/base.txt" "$st/dropped.txt" > "$st/new.txt"
	if [ -s "$st/new.txt" ]; then
		msg "$config: $h without __user: $(sed "s|$st/||" "$st/new.txt" | head -n 1)"
		pass "sparse-sees-__user $config $h"
	else
		fail "sparse-sees-__user $config $h" "no new sparse warning with the __user of its parameters (lines $range of $f) dropped"
	fi
done < "$pt/logs/sparse.handlers.new"

[ "$nfail" = 0 ]
