#!/bin/sh
# Find the Linux 2.6.9 source, verify it, print the path of the verified
# pristine tree as the last line of stdout. Nothing here writes into a tree
# that it has verified; builds work on copies (scripts/prepare-tree.sh).
#
# Lookup order: $KERNEL_SRC (an unpacked tree), $KERNEL_TARBALL, any
# linux-2.6.9.tar* in the cache, else a download of the official tarball.
# Verification: the official .tar.bz2 by sha256; any tree (and any other
# tarball, once unpacked) by the git tree id of its files. On a mismatch the
# files that differ are named, using scripts/pristine-manifest.gz.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

need_cmd git
need_cmd flock

# One verifier at a time: two runs must not share a git index, nor unpack
# into the cache while another run copies from it.
mkdir -p "$CACHE"
exec 9> "$CACHE/.get-source.lock"
flock 9

# tree_id TREE STATEDIR: git tree id of TREE's files. STATEDIR keeps a git
# index, so a re-run only rehashes files whose stat data changed; blobs are
# not kept (write-tree --missing-ok), only the index.
tree_id() {
	[ -d "$2" ] || git init -q --bare "$2"
	(cd "$1" && GIT_DIR=$2 GIT_WORK_TREE=$1 GIT_INDEX_FILE=$2/index \
		git -c core.autocrlf=false -c core.fileMode=true add -A -f . ) >&2
	GIT_DIR=$2 GIT_INDEX_FILE=$2/index git write-tree --missing-ok
	rm -rf "$2"/objects/[0-9a-f][0-9a-f]
}

# explain STATEDIR: name the files whose content, mode or presence differ
# from the pristine manifest.
explain() {
	GIT_DIR=$1 GIT_INDEX_FILE=$1/index git ls-files -s --abbrev=8 |
	sed 's/^100644 /644 /; s/^100755 /755 /; s/^120000 /l /; s/ [0-9]\t/\t/' |
	awk -F '\t' -v m="$ROOT/scripts/pristine-manifest.gz" '
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

# check_tree TREE EXPECTED_ID: verify TREE or die naming what differs.
check_tree() {
	_st=$CACHE/verify/$(printf '%s' "$1" | sha1sum | cut -c1-16)
	mkdir -p "$CACHE/verify"
	msg "verifying $1 (git tree id of its files)"
	_id=$(tree_id "$1" "$_st")
	if [ "$_id" != "$2" ]; then
		printf 'error: %s is NOT the pristine 2.6.9 tree\n  tree id %s, expected %s\n  differences from the pristine manifest:\n' "$1" "$_id" "$2" >&2
		explain "$_st"
		exit 1
	fi
}

# unpack TARBALL KIND: unpack into the cache (once: keyed on the tarball's path,
# size and mtime) and print the tree. KIND=official: checked by sha256 first.
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
	if [ "$2" = official ]; then
		msg "checking sha256 of $_tb"
		_sum=$(sha256sum "$_tb" | cut -d' ' -f1)
		[ "$_sum" = "$OFFICIAL_SHA256" ] ||
			die "$_tb: sha256 $_sum, expected $OFFICIAL_SHA256 (corrupt or not the official linux-2.6.9.tar.bz2)"
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
	if [ "$2" = official ]; then
		# The checksum vouches for the content; remember its tree id.
		_st=$CACHE/verify/$(printf '%s' "$_dest" | sha1sum | cut -c1-16)
		_id=$(tree_id "$_dest" "$_st")
	else
		check_tree "$_dest" "$PRISTINE_TREE_ID" || { rm -rf "$_dest"; exit 1; }
		_id=$PRISTINE_TREE_ID
	fi
	echo "$_id" > "$_stamp"
	echo "$_dest"
}

kind_of() { case $1 in *linux-2.6.9.tar.bz2) echo official ;; *) echo other ;; esac; }

if [ -n "${KERNEL_SRC:-}" ]; then
	[ -d "$KERNEL_SRC" ] || die "KERNEL_SRC=$KERNEL_SRC is not a directory"
	src=$(readlink -f "$KERNEL_SRC")
	check_tree "$src" "$PRISTINE_TREE_ID"
	echo "$src"
	exit 0
fi

if [ -n "${KERNEL_TARBALL:-}" ]; then
	[ -f "$KERNEL_TARBALL" ] || die "KERNEL_TARBALL=$KERNEL_TARBALL does not exist"
	out=$(unpack "$KERNEL_TARBALL" "$(kind_of "$KERNEL_TARBALL")")
	echo "$out"
	exit 0
fi

mkdir -p "$CACHE"
for tb in "$CACHE"/linux-2.6.9.tar*; do
	[ -f "$tb" ] || continue
	case $tb in *.part) continue ;; esac
	out=$(unpack "$tb" "$(kind_of "$tb")")
	echo "$out"
	exit 0
done

# Nothing local: fetch the official tarball (verified by sha256 in unpack).
msg "no 2.6.9 source found; downloading $OFFICIAL_URL into $CACHE"
dl=$CACHE/linux-2.6.9.tar.bz2
if command -v curl >/dev/null 2>&1; then
	curl -fL --retry 3 -o "$dl.part" "$OFFICIAL_URL" || die "download failed; put linux-2.6.9.tar.bz2 into $CACHE or set KERNEL_TARBALL"
else
	need_cmd wget
	wget -O "$dl.part" "$OFFICIAL_URL" || die "download failed; put linux-2.6.9.tar.bz2 into $CACHE or set KERNEL_TARBALL"
fi
mv "$dl.part" "$dl"
out=$(unpack "$dl" official)
echo "$out"
