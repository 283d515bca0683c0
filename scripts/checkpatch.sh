#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# checkpatch.sh PATCH...: run the kernel's own scripts/checkpatch.pl on each
# patch and print "PASS checkpatch <patch>" or "FAIL checkpatch <patch>: <why>"
# (the format of check.sh's pass/fail). Full output per patch:
# build/check/checkpatch/<patch name>.log. Exit status: non-zero if any failed.
#
# checkpatch.pl is not in any Debian package on its own; it ships inside the
# kernel source tarball of linux-source-6.1. The first run fetches that package
# with `apt-get download` (no install), pulls only the script and the data
# files it reads out of the tarball in the .deb, keeps them in
# ${XDG_CACHE_HOME:-~/.cache}/cachehot/checkpatch/ (about 300 KB) and deletes
# the .deb; later runs use the cache.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

CP_PKG=linux-source-6.1
CP_DIR=$CACHE/checkpatch
# What checkpatch.pl reads besides itself: the typo list and the list of
# structs that should be const (both next to the script, found via $0).
CP_FILES="scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch"

# fetch: fill CP_DIR once. The stamp (package version) is written last, so
# an interrupted fetch is redone rather than half used.
fetch() {
	[ -f "$CP_DIR/VERSION" ] && [ -f "$CP_DIR/checkpatch.pl" ] && return 0
	command -v apt-get >/dev/null 2>&1 ||
		die "no apt-get: put checkpatch.pl, spelling.txt and const_structs.checkpatch of a Linux 6.1 tree's scripts/ into $CP_DIR and write its version into $CP_DIR/VERSION"
	need_cmd dpkg-deb
	need_cmd xz
	mkdir -p "$CACHE"
	_tmp=$(mktemp -d "$CACHE/.checkpatch.XXXXXX")
	# shellcheck disable=SC2064 # expand now: the path is fixed
	trap "rm -rf '$_tmp'" EXIT
	msg "fetching checkpatch.pl: apt-get download $CP_PKG (once, ~140 MB; only 3 files are kept)"
	if ! (cd "$_tmp" && apt-get download "$CP_PKG") > "$_tmp/apt.log" 2>&1; then
		# Package lists never fetched (fresh container): update once, as root.
		if [ "$(id -u)" = 0 ] && [ -z "${CACHEHOT_NO_INSTALL:-}" ]; then
			msg "apt-get download failed; running apt-get update and trying again"
			apt-get update >> "$_tmp/apt.log" 2>&1 || true
			(cd "$_tmp" && apt-get download "$CP_PKG") >> "$_tmp/apt.log" 2>&1 || {
				sed 's/^/  apt: /' "$_tmp/apt.log" | tail -n 5 >&2
				die "could not download $CP_PKG with apt-get (see above); checkpatch.pl comes from that package"
			}
		else
			sed 's/^/  apt: /' "$_tmp/apt.log" | tail -n 5 >&2
			die "could not download $CP_PKG; run: apt-get update && apt-get download $CP_PKG (as root), or see scripts/checkpatch.sh"
		fi
	fi
	_deb=$(find "$_tmp" -maxdepth 1 -name "${CP_PKG}_*.deb" | head -n 1)
	[ -n "$_deb" ] || die "apt-get download $CP_PKG left no .deb"
	_ver=$(dpkg-deb -f "$_deb" Version)
	# The .deb holds usr/src/linux-source-6.1.tar.xz; stream it out of the
	# package and take only our members from it (nothing else hits the disk).
	_top=linux-source-${CP_PKG#linux-source-}
	_members=
	for _f in $CP_FILES; do _members="$_members $_top/$_f"; done
	mkdir -p "$_tmp/x"
	# shellcheck disable=SC2086 # one word per member
	dpkg-deb --fsys-tarfile "$_deb" | tar -xOf - "./usr/src/$_top.tar.xz" |
		tar -xJf - -C "$_tmp/x" $_members ||
		die "could not extract$_members from $_deb"
	rm -f "$_deb"
	mkdir -p "$CP_DIR"
	for _f in $CP_FILES; do
		[ -s "$_tmp/x/$_top/$_f" ] || die "$_deb has no $_f"
		cp "$_tmp/x/$_top/$_f" "$CP_DIR/${_f##*/}"
	done
	chmod +x "$CP_DIR/checkpatch.pl"
	echo "$CP_PKG $_ver" > "$CP_DIR/VERSION"
	rm -rf "$_tmp"
	trap - EXIT
	msg "checkpatch.pl of $CP_PKG $_ver is in $CP_DIR"
}

# Options for a 2004 tree:
#  --no-tree: check the patch text alone. checkpatch refuses 2.6.9 as a
#    tree (it has no top-level Kbuild file), and its tree checks (headers,
#    MAINTAINERS, kernel-parameters.txt paths) are those of today's tree.
#  --patch: each file is a patch. Run on a patch FILE as a source file (-f),
#    or on a git commit that adds patch files (-g), every blank context line
#    (" ", the unified diff prefix of an empty line) reads as an added line
#    of one blank and is reported as trailing whitespace.
#  --max-line-length=80: 2.6.9's CodingStyle, chapter 2: "The limit on the
#    length of lines is 80 columns and this is a hard limit" (checkpatch's
#    default is 100 since Linux 5.7).
# Ignored, by name: only checks for rules that 2.6.9's CodingStyle does not
# have, each for APIs or conventions that came later:
#  PREFER_PR_LEVEL  "use pr_warn()/dev_info()": 2.6.9 has pr_info and
#    pr_debug only (no pr_warn, pr_err, pr_notice); its kernel/sched.c and
#    arch smpboot.c files use printk(KERN_<level>) throughout.
#  SPLIT_STRING  "quoted string split across lines": 2.6.9's CodingStyle
#    asks for the opposite ("Long strings are as well broken into shorter
#    strings", chapter 2, with a split printk as its example); the rule of
#    never splitting user-visible strings, so they can be grepped for, came
#    years later.
#  VOLATILE  "volatile is usually wrong": volatile-considered-harmful.txt
#    is from 2007. Its one use here, in
#    toolchain/x86_64-apic-id-volatile-read.patch, is a 32-bit read of an
#    MMIO register, what 2.6.9's own apic_read() does the same way.
#  CONSIDER_KSTRTO  "use kstrtoul": kstrto*() came with 2.6.39; in 2.6.9
#    simple_strtoul() is the parser, and the patches check its end pointer.
#  SPDX_LICENSE_TAG  "missing SPDX-License-Identifier": SPDX tags came in
#    2017; no file of 2.6.9 has one, and a new file follows its neighbours.
# Everything else is fixed in the patches, not ignored (e.g. a printk without
# KERN_<level>, "unsigned" for "unsigned int", __initcall for the equivalent
# device_initcall, seq_printf of a constant string, spaces around '=').
CP_IGNORE=PREFER_PR_LEVEL,SPLIT_STRING,VOLATILE,CONSIDER_KSTRTO,SPDX_LICENSE_TAG
# And for one patch each, a check it cannot pass without changing code it
# does not own:
#  toolchain-rhel4/ia64-cond-syscall-asm.patch TRAILING_SEMICOLON: its
#    cond_syscall() ends in a semicolon, as 2.6.9's does, because most of
#    its call sites in Red Hat's kernel/sys.c have none.
cp_ignore_for() {
	case $1 in
	*/toolchain-rhel4/ia64-cond-syscall-asm.patch) echo "$CP_IGNORE,TRAILING_SEMICOLON" ;;
	*) echo "$CP_IGNORE" ;;
	esac
}

[ $# -gt 0 ] || die "usage: scripts/checkpatch.sh PATCH..."
need_cmd perl
# checkpatch.pl also uses Term::ANSIColor and Encode: Debian's "perl" has
# them, "perl-base" (which alone already gives a /usr/bin/perl) does not.
if ! perl -MTerm::ANSIColor -MEncode -e 1 2>/dev/null; then
	if [ "$(id -u)" = 0 ] && [ -z "${CACHEHOT_NO_INSTALL:-}" ]; then
		msg "installing perl (Term::ANSIColor, Encode for checkpatch.pl)"
		DEBIAN_FRONTEND=noninteractive apt-get install -y perl >&2 || true
	fi
	perl -MTerm::ANSIColor -MEncode -e 1 2>/dev/null ||
		die "perl lacks Term::ANSIColor or Encode; install them with: sudo apt-get install -y perl"
fi
fetch

logs=$BUILD/check/checkpatch
mkdir -p "$logs/home"
nfail=0
for p in "$@"; do
	name="checkpatch $p"
	if [ ! -f "$p" ]; then echo "FAIL $name: no such file"; nfail=$((nfail + 1)); continue; fi
	abs=$(readlink -f "$p")
	log=$logs/$(basename "$p").log
	# Run in an empty directory with an empty HOME: checkpatch reads a
	# .checkpatch.conf from ., $HOME and .scripts (a user's would change the
	# verdict), and looks for a .git in . to check commit ids.
	rc=0
	(cd "$logs/home" && HOME=$logs/home perl "$CP_DIR/checkpatch.pl" --no-tree --patch \
		--show-types --color=never --max-line-length=80 --ignore "$(cp_ignore_for "$abs")" "$abs") \
		> "$log" 2>&1 || rc=$?
	total=$(grep -m1 '^total: [0-9]* errors, [0-9]* warnings' "$log" || true)
	if [ "$rc" = 0 ] && [ -n "$total" ] && printf '%s\n' "$total" | grep -q '^total: 0 errors, 0 warnings'; then
		echo "PASS $name"
	else
		nfail=$((nfail + 1))
		if [ -n "$total" ]; then
			# "N errors, M warnings; first: TYPE at FILE:LINE"
			counts=$(printf '%s\n' "$total" | sed 's/^total: \([0-9]* errors, [0-9]* warnings\).*/\1/')
			first=$(grep -m1 -A1 -E '^(ERROR|WARNING):' "$log" |
				sed -n '1s/^\(ERROR\|WARNING\):\([A-Z_0-9]*\):.*/\2/p; 2s/^#[0-9]*: FILE: \(.*\):$/ at \1/p; 2s/^#\([0-9]*\): *$/ at patch line \1/p' | tr -d '\n')
			echo "FAIL $name: $counts; first: $first (log: ${log#"$ROOT"/})"
		else
			echo "FAIL $name: checkpatch.pl exited $rc without a verdict: $(grep -m1 . "$log") (log: ${log#"$ROOT"/})"
		fi
	fi
done
[ "$nfail" = 0 ]
