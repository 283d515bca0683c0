#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rhel4-kabi.sh: does series-rhel4 change RHEL 4's kABI, the symbols that
# modules link against and the CRCs (modversions) that guard them?
#
# What it checks, on Red Hat's verified 89.29.1.EL tree (KERNEL_BASE=rhel4
# scripts/get-source.sh), as Red Hat's x86_64 smp config of that tree
# (configs/kernel-2.6.9-x86_64-smp.config: MODULES and MODVERSIONS on)
# configures it:
#   1. No patch of series-rhel4 adds or removes a line with EXPORT_SYMBOL
#      (any of its forms).
#   2. For every exporting .c file of kernel/ and arch/x86_64/kernel/
#      (where the series' x86_64 code is; the series' own .c files among
#      them: kernel/sched.c, kernel/sysctl.c, arch/x86_64/kernel/smpboot.c),
#      the symbol CRCs are the same with and without the series: each file
#      preprocessed by kbuild (make FILE.i, with -D__GENKSYMS__ as kbuild's
#      modversions step does: Red Hat's headers hide kABI-neutral changes
#      behind it), then read by the tree's own scripts/genksyms, in a copy
#      of the tree without and one with the series (quilt --fuzz=0).
#      A symbol's CRC covers the full definition of every type its
#      declaration reaches (task_struct, ctl_table, ...), so a change to a
#      structure an exported symbol uses shows up here.
#   3. That the check can fail: a member added to struct ctl_table
#      (include/linux/sysctl.h) in the copy with the series must change
#      the CRC of kernel/sysctl.c's exports.
# Not covered: the CRCs of exporting files elsewhere (drivers, fs, net,
# mm), which read the series' changed headers too (the header hunks add
# macros, declarations and enumerators of an unnamed enum, which no CRC
# includes); other arches' builds (the series' i386, ia64, sparc and um
# files are not part of an x86_64 kernel); CRCs as Red Hat's gcc 3.4
# computes them (this compares two trees preprocessed by the same gcc).
# Prints PASS/FAIL lines; last line "N passed, M failed".
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

need_cmd gcc
need_cmd make
need_cmd quilt
need_cmd patch
work=$BUILD/rhel4-kabi
rm -rf "$work"
mkdir -p "$work"
t_pass=0 t_fail=0 t_skipped=0

# 1. no EXPORT_SYMBOL added or removed
added=
for p in $(series_paths "$ROOT/series-rhel4"); do
	l=$(grep -n '^[-+][^-+].*EXPORT_SYMBOL\|^[-+]EXPORT_SYMBOL' "$ROOT/$p" | head -n 1)
	[ -n "$l" ] || continue
	added="$added ${p##*/}:$l"
done
if [ -z "$added" ]; then t_ok "rhel4-kabi-no-export-added ($(series_paths "$ROOT/series-rhel4" | grep -c .) patches)"
else t_ko rhel4-kabi-no-export-added "$added"; fi

src=$(KERNEL_BASE=rhel4 last_line "$ROOT/scripts/get-source.sh" 2> "$work/source.err") ||
	{ t_ko rhel4-kabi-source "$(tail -n 1 "$work/source.err")"; t_finish; }
cfg=$src/configs/kernel-2.6.9-x86_64-smp.config
[ -f "$cfg" ] || { t_ko rhel4-kabi-config "no $cfg in Red Hat's tree"; t_finish; }

# the files: every .c of kernel/ and arch/x86_64/kernel/ that exports
files=$(cd "$src" && grep -l 'EXPORT_SYMBOL' kernel/*.c arch/x86_64/kernel/*.c | sort)
ours=$(for p in $(series_paths "$ROOT/series-rhel4"); do patch_files "$ROOT/$p"; done |
	grep '\.c$' | sort -u)
for f in $ours; do
	case $f in
	arch/i386/*|arch/ia64/*|arch/sparc/*|arch/um/*) ;;  # not in an x86_64 kernel
	*) printf '%s\n' "$files" | grep -qx "$f" || files="$files
$f" ;;
	esac
done

cc=$(toolchain_cc x86_64)
cpp="CPP=$cc -E -D__GENKSYMS__"
# tree TOP: TOP/linux, a copy of Red Hat's tree, and TOP/make.args, the
# arguments of every make in it (lib.sh's tree_make).
tree() {
	mkdir -p "$1"
	cp -a "$src" "$1/linux"
	{
		echo ARCH=x86_64
		echo "CC=$cc"
		echo -j1
		toolchain_makevars x86_64
	} > "$1/make.args"
}
# crcs TOP: TOP/linux configured, prepared, each file preprocessed for
# genksyms, and its CRCs, sorted, in TOP/crc/FILE.
crcs() {
	cp "$cfg" "$1/linux/.config"
	yes '' | tree_make "$1" oldconfig > "$1/log" 2>&1 || return 1
	tree_make "$1" prepare scripts >> "$1/log" 2>&1 || return 1
	# shellcheck disable=SC2046 # one target a file
	tree_make "$1" -k "$cpp" $(printf '%s\n' "$files" | sed 's/\.c$/.i/') >> "$1/log" 2>&1 || true
	for f in $files; do
		mkdir -p "$1/crc/${f%/*}"
		if [ -s "$1/linux/${f%.c}.i" ]; then
			"$1/linux/scripts/genksyms/genksyms" < "$1/linux/${f%.c}.i" 2>> "$1/log" | sort > "$1/crc/$f"
		else
			echo "not preprocessed" > "$1/crc/$f"
		fi
	done
}

msg "rhel4-kabi: copying Red Hat's tree twice, preprocessing $(printf '%s\n' "$files" | grep -c .) files in each"
tree "$work/base"
tree "$work/series"
if ! (cd "$work/series/linux" && QUILT_PATCHES=$ROOT QUILT_SERIES=$ROOT/series-rhel4 quilt push -a -q --fuzz=0) > "$work/quilt.log" 2>&1; then
	t_ko rhel4-kabi-series-applies "$(tail -n 1 "$work/quilt.log")"; t_finish
fi
rm -rf "$work/series/linux/.pc"
ok=1
crcs "$work/base" || { t_ko rhel4-kabi-prepare "the tree without the series: see $work/base/log"; ok=; }
crcs "$work/series" || { t_ko rhel4-kabi-prepare "the tree with the series: see $work/series/log"; ok=; }
[ -n "$ok" ] || t_finish

# 2. the same CRCs, file by file
nsym=0 nfile=0 bad='' missing=''
for f in $files; do
	b=$work/base/crc/$f s=$work/series/crc/$f
	if grep -q 'not preprocessed' "$b" "$s"; then missing="$missing $f"; continue; fi
	n=$(grep -c '^__crc_' "$b" || true)
	[ "$n" -gt 0 ] || continue
	if cmp -s "$b" "$s"; then nsym=$((nsym + n)) nfile=$((nfile + 1))
	else bad="$bad $f($(diff "$b" "$s" | grep -c '^[<>]') lines differ)"; fi
done
# the series' own x86_64 files must be among those compared
for f in $ours; do
	case $f in arch/i386/*|arch/ia64/*|arch/sparc/*|arch/um/*) continue ;; esac
	grep -q '^__crc_' "$work/base/crc/$f" 2>/dev/null || missing="$missing $f(no CRC)"
done
if [ -z "$bad" ] && [ -z "$missing" ] && [ "$nsym" -gt 0 ]; then
	t_ok "rhel4-kabi-same-crcs ($nsym exported symbols of $nfile files)"
else
	t_ko rhel4-kabi-same-crcs "differ:${bad:- none}; not compared:${missing:- none}"
fi

# 3. the check can fail: a member added to struct ctl_table
h=$work/series/linux/include/linux/sysctl.h
sed '/^struct ctl_table *$/,/^};/s/^\(	struct proc_dir_entry \*de;.*\)$/\1\n	int rhel4_kabi_test;/' "$h" > "$h.new"
if cmp -s "$h" "$h.new"; then
	t_ko rhel4-kabi-check-can-fail "found no 'struct proc_dir_entry *de;' in struct ctl_table of $h"
else
	mv "$h.new" "$h"
	rm -f "$work/series/linux/kernel/sysctl.i"
	tree_make "$work/series" "$cpp" kernel/sysctl.i >> "$work/series/log" 2>&1 || true
	if [ -s "$work/series/linux/kernel/sysctl.i" ] &&
	   ! "$work/series/linux/scripts/genksyms/genksyms" < "$work/series/linux/kernel/sysctl.i" 2>/dev/null |
	     sort | cmp -s - "$work/base/crc/kernel/sysctl.c"; then
		t_ok rhel4-kabi-check-can-fail
	else
		t_ko rhel4-kabi-check-can-fail "kernel/sysctl.c's CRCs did not change with a member added to struct ctl_table"
	fi
fi
rm -rf "$work/base/linux" "$work/series/linux"
t_finish
