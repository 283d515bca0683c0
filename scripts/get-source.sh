#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Find the Linux 2.6.9 source, verify it, print the path of the verified
# pristine tree as the last line of stdout. Nothing here writes into a tree
# that it has verified; builds work on copies (scripts/prepare-tree.sh).
# KERNEL_BASE=rhel4 looks for the RHEL 4 tree instead (below).
#
# Lookup order: $KERNEL_SRC (an unpacked tree), $KERNEL_TARBALL, any
# linux-2.6.9.tar* in the cache, else a download of the official tarball.
# Verification: the official .tar.bz2 by sha256; any tree (and any other
# tarball, once unpacked, a test download included) by the git tree id of
# its files. On a mismatch the files that differ are named, using
# scripts/pristine-manifest.gz.
#
# Test-only: CACHEHOT_TEST_URL=http://127.0.0.1:PORT/... replaces the
# download URL, and CACHEHOT_TEST_SHA256 (honoured only with it) the
# checksum that the downloaded file must have (tests/download.sh serves a
# tarball of its own). The real checksum is a constant of lib.sh and never
# changes: without the loopback URL the override is refused, and a file
# downloaded under it is stored under a name that the cache lookup never
# takes, so a later normal run cannot mistake it for the official tarball.
#
# KERNEL_BASE=rhel4: Red Hat Enterprise Linux 4.8's kernel-2.6.9-89.29.1.EL
# as `rpmbuild -bp --target x86_64` prepares it: $KERNEL_SRC, $KERNEL_TARBALL,
# or any linux-2.6.9-89.29.1.EL.tar* in the cache, verified by its git tree
# id (lib.sh's RHEL4_TREE_ID), the files that differ named from
# scripts/rhel4-manifest.gz. Never downloaded: Red Hat ships it as a source
# RPM, which a user unpacks with rpmbuild. The manifest is the tree's listing
# with abbreviated blob ids, as pristine-manifest.gz is 2.6.9's:
#   git ls-tree -r <commit of the tree> | awk -F '\t' '{ split($1, a, " ");
#     m = a[1] == "120000" ? "l" : substr(a[1], 4); print m " " substr(a[3], 1, 8) "\t" $2 }'
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

# The test-only override (see above) is checked first, whatever the lookup
# finds: a stray or mistyped one stops every run instead of lying dormant.
url=$OFFICIAL_URL sha=$OFFICIAL_SHA256 dl_name=linux-2.6.9.tar.bz2 noproxy=
if [ -n "${CACHEHOT_TEST_URL:-}" ]; then
	# Loopback only, and no user:password@ or other host part that could
	# send the request elsewhere.
	printf '%s\n' "$CACHEHOT_TEST_URL" | grep -Eqx 'http://127\.0\.0\.1:[0-9]+/[A-Za-z0-9._/-]*' ||
		die "CACHEHOT_TEST_URL=$CACHEHOT_TEST_URL: test downloads must come from http://127.0.0.1:PORT/"
	url=$CACHEHOT_TEST_URL sha=${CACHEHOT_TEST_SHA256:-$OFFICIAL_SHA256}
	dl_name=test-download.tar.bz2 noproxy=1
elif [ -n "${CACHEHOT_TEST_SHA256:-}" ]; then
	die "CACHEHOT_TEST_SHA256 is honoured only with CACHEHOT_TEST_URL (a server on 127.0.0.1); the official tarball's sha256 is $OFFICIAL_SHA256"
fi

base=${KERNEL_BASE:-}
case $base in
''|kernel.org)
	base=kernel.org
	want_id=$PRISTINE_TREE_ID
	manifest=$ROOT/scripts/pristine-manifest.gz
	what="the pristine 2.6.9 tree"
	cache_glob=linux-2.6.9.tar ;;
rhel4)
	[ -n "$RHEL4_TREE_ID" ] ||
		die "RHEL4_VERSION=$RHEL4_VERSION: the RHEL 4 kernels this project knows are $RHEL4_VERSIONS $RHEL4_UNSUPPORTED"
	want_id=$RHEL4_TREE_ID
	# only 89.29.1.EL's files are listed, to name the ones that differ
	manifest=
	[ "$RHEL4_VERSION" != 89.29.1.EL ] || manifest=$ROOT/scripts/rhel4-manifest.gz
	what="the RHEL 4 tree (${RHEL4_SRPM%.src.rpm}, rpmbuild -bp --target x86_64)"
	cache_glob=$RHEL4_TARBALL ;;
*) die "KERNEL_BASE=$base: kernel.org (pristine 2.6.9) or rhel4 (RHEL 4's tree)" ;;
esac

need_cmd git
need_cmd flock

# One verifier at a time: two runs must not share a git index, nor unpack
# into the cache while another run copies from it.
mkdir -p "$CACHE"
exec 9> "$CACHE/.get-source.lock"
flock 9

# explain STATEDIR: name the files whose content, mode or presence differ
# from the manifest of the expected tree, where there is one.
explain() {
	if [ -z "$manifest" ]; then
		echo "  (no manifest of $RHEL4_VERSION's files: compare with a clone of its tag)" >&2
		return
	fi
	GIT_DIR=$1 GIT_INDEX_FILE=$1/index git ls-files -s --abbrev=8 |
	sed 's/^100644 /644 /; s/^100755 /755 /; s/^120000 /l /; s/ [0-9]\t/\t/' |
	awk -F '\t' -v m="$manifest" '
	BEGIN { cmd = "gzip -dc " m; while ((cmd | getline l) > 0) { split(l, a, "\t"); want[a[2]] = a[1] } }
	{ have[$2] = $1 }
	END {
		n = 0
		for (p in have) if (!(p in want)) { print "  added:    " p; n++ }
		for (p in want) if (!(p in have)) { print "  missing:  " p; n++ }
		else if (want[p] != have[p]) { print "  modified: " p " (expected " want[p] ", found " have[p] ")"; n++ }
		if (n == 0) print "  (no file-level difference found: tree id differs only in metadata)"
	}' | sort | awk 'NR <= 50 { print } END { if (NR > 50) print "  ... and " NR - 50 " more" }' >&2
}

# state_of TREE: the directory of TREE's git index (see tree_id).
state_of() { echo "$CACHE/verify/$(printf '%s' "$1" | sha1sum | cut -c1-16)"; }

# check_tree TREE EXPECTED_ID: verify TREE or die naming what differs.
check_tree() {
	_st=$(state_of "$1")
	mkdir -p "$CACHE/verify"
	msg "verifying $1 (git tree id of its files)"
	_id=$(tree_id "$1" "$_st")
	if [ "$_id" != "$2" ]; then
		printf 'error: %s is NOT %s\n  tree id %s, expected %s\n  differences from %s:\n' "$1" "$what" "$_id" "$2" "${manifest:+${manifest#"$ROOT"/}}" >&2
		explain "$_st"
		exit 1
	fi
}

# unpack TARBALL [SHA256]: unpack into the cache (once: keyed on the
# tarball's path, size and mtime) and print the tree. With SHA256, the
# tarball is checked against it first; the official checksum is trusted,
# anything else must unpack to the expected tree id (want_id).
unpack() {
	_tb=$(readlink -f "$1")
	_key=$(stat -c '%n %s %Y' "$_tb" | sha1sum | cut -c1-12)
	_dest=$CACHE/src/$(basename "$_tb" | sed 's/\.tar.*//')-$_key
	_stamp=$_dest.verified
	if [ -f "$_stamp" ] && [ -d "$_dest" ]; then
		# Tarball seen before: re-check the unpacked copy (cheap, index kept).
		if (check_tree "$_dest" "$(cat "$_stamp")") 2>/dev/null; then
			echo "$_dest"; return 0
		fi
		warn "cached copy $_dest was modified: unpacking again"
	fi
	rm -f "$_stamp"
	if [ -n "${2:-}" ]; then
		msg "checking sha256 of $_tb"
		_sum=$(sha256sum "$_tb" | cut -d' ' -f1)
		[ "$_sum" = "$2" ] ||
			die "$_tb: sha256 $_sum, expected $2 (corrupt or not the official linux-2.6.9.tar.bz2)"
	fi
	msg "unpacking $_tb"
	rm -rf "$_dest" "$_dest.tmp"
	mkdir -p "$_dest.tmp"
	tar -xf "$_tb" -C "$_dest.tmp" || { rm -rf "$_dest.tmp"; die "$_tb: cannot unpack (corrupt tarball?)"; }
	_top=$(find "$_dest.tmp" -mindepth 1 -maxdepth 1)
	if [ "$(printf '%s\n' "$_top" | wc -l)" != 1 ] || [ ! -d "$_top" ]; then
		rm -rf "$_dest.tmp"; die "$_tb: expected one top-level directory"
	fi
	mv "$_top" "$_dest"
	rm -rf "$_dest.tmp"
	if [ "${2:-}" = "$OFFICIAL_SHA256" ]; then
		# kernel.org's own checksum vouches for the content (its file
		# modes need not match the git import the tree id comes from):
		# remember the tree id it has, to re-check the copy later.
		_id=$(tree_id "$_dest" "$(state_of "$_dest")")
	# Anything else, a test download included, must be the expected tree.
	# (A subshell, so that the refused tree is removed before exiting.)
	elif ! (check_tree "$_dest" "$want_id"); then
		rm -rf "$_dest" "$(state_of "$_dest")"; exit 1
	else
		_id=$want_id
	fi
	echo "$_id" > "$_stamp"
	echo "$_dest"
}

# sha_of TARBALL: the sha256 that TARBALL must have (the official one for
# the official name), or nothing (then only its tree id is checked).
sha_of() {
	[ "$base" = kernel.org ] || return 0
	case $1 in *linux-2.6.9.tar.bz2) echo "$OFFICIAL_SHA256" ;; esac
}

if [ -n "${KERNEL_SRC:-}" ]; then
	[ -d "$KERNEL_SRC" ] || die "KERNEL_SRC=$KERNEL_SRC is not a directory"
	src=$(readlink -f "$KERNEL_SRC")
	check_tree "$src" "$want_id"
	echo "$src"
	exit 0
fi

if [ -n "${KERNEL_TARBALL:-}" ]; then
	[ -f "$KERNEL_TARBALL" ] || die "KERNEL_TARBALL=$KERNEL_TARBALL does not exist"
	out=$(unpack "$KERNEL_TARBALL" "$(sha_of "$KERNEL_TARBALL")")
	echo "$out"
	exit 0
fi

mkdir -p "$CACHE"
for tb in "$CACHE/$cache_glob"*; do
	[ -f "$tb" ] || continue
	case $tb in *.part) continue ;; esac
	out=$(unpack "$tb" "$(sha_of "$tb")")
	echo "$out"
	exit 0
done

# Nothing local. Red Hat's tree is never fetched: say how to make it.
if [ "$base" = rhel4 ]; then
	die "no RHEL 4 source found (KERNEL_BASE=rhel4). From Red Hat's source RPM:
  rpm -ivh $RHEL4_SRPM
and in rpm's top directory (/usr/src/redhat on RHEL 4):
  rpmbuild -bp --target x86_64 SPECS/kernel-2.6.spec
then either KERNEL_SRC=<its BUILD/kernel-2.6.9/linux-2.6.9>, or a tarball of
that tree (one top-level directory) as $CACHE/$RHEL4_TARBALL
(.gz, .bz2, .xz too) or in KERNEL_TARBALL. It must have git tree id
$RHEL4_TREE_ID."
fi

# Nothing local: fetch the official tarball (or the test's, see the top).
msg "no 2.6.9 source found; downloading $url into $CACHE"
dl=$CACHE/$dl_name
# An interrupted or refused download leaves nothing behind: the partial file
# goes on any exit until it has been checked and moved into place.
trap 'rm -f "$dl.part"' EXIT
trap 'exit 1' HUP INT TERM
rm -f "$dl.part"
failed="download of $url failed; put linux-2.6.9.tar.bz2 into $CACHE or set KERNEL_TARBALL"
if command -v curl >/dev/null 2>&1; then
	curl -fL --retry 3 ${noproxy:+--noproxy 127.0.0.1} -o "$dl.part" "$url" || die "$failed"
else
	need_cmd wget
	wget --tries=3 ${noproxy:+--no-proxy} -O "$dl.part" "$url" || die "$failed"
fi
msg "checking sha256 of the download"
sum=$(sha256sum "$dl.part" | cut -d' ' -f1)
[ "$sum" = "$sha" ] ||
	die "$url: sha256 $sum, expected $sha (corrupt or not the official linux-2.6.9.tar.bz2); the download was deleted"
mv "$dl.part" "$dl"
# A download that does not unpack to the pristine tree goes too: the next
# run fetches it again instead of failing on the same file for ever.
# (A trap, not "|| ...": set -e must stay in force inside unpack.)
trap 'rm -f "$dl"; warn "the download was deleted"' EXIT
out=$(unpack "$dl" "$sha")
trap - EXIT HUP INT TERM
echo "$out"
