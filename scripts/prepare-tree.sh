#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# prepare-tree.sh CONFIG [--unpatched | --patches N]
# Make build/<tree>/linux: a copy of the verified pristine tree with the
# toolchain fixes and then the feature series applied by quilt (--fuzz=0).
#   tree = CONFIG (whole series), CONFIG.unpatched (toolchain fixes only),
#          CONFIG.bisect (toolchain fixes + first N feature patches).
# The RHEL 4 flavour (lib.sh's kernel_base: configs rhel4-*, or
# KERNEL_BASE=rhel4, then the tree is rhel4-CONFIG; RHEL4_VERSION picks the
# update, RHEL4_FLOOR=0 leaves the optional floor patch out: lib.sh's
# tree_name) copies Red Hat's tree and
# applies toolchain-rhel4/series, then series-rhel4; their entries name their
# directory (toolchain/x.patch where a fix applies to Red Hat's code as it
# is, toolchain-rhel4/y.patch where it had to be refreshed). Without
# series-rhel4 the flavour builds without the feature series.
# Re-runs are incremental: patches whose name or content changed are popped
# (with every file they touch made newer, so make rebuilds it) and pushed again.
# Prints the tree path as the last line of stdout.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

[ $# -ge 1 ] || die "usage: $0 CONFIG [--unpatched | --patches N]"
config=$1; shift
base=$(kernel_base "$config")
tree=$(tree_name "$config"); limit=all
case ${1:-} in
'') ;;
--unpatched) tree=$tree.unpatched; limit=0 ;;
--patches) [ $# -ge 2 ] || die "--patches needs a number"
	limit=$2; tree=$tree.bisect
	case $limit in *[!0-9]*|'') die "--patches needs a number, not '$limit'" ;; esac ;;
*) die "unknown option $1" ;;
esac
[ -f "$ROOT/configs/$config.config" ] || [ -f "$ROOT/configs/$config.frag" ] ||
	die "no configs/$config.config"

need_cmd quilt
need_cmd patch

top=$BUILD/$tree
linux=$top/linux
logs=$top/logs
mkdir -p "$logs"
log=$logs/prepare.log

src=$(KERNEL_BASE=$base last_line "$ROOT/scripts/get-source.sh")

# The combined series: every toolchain fix first, then the feature series.
# QUILT_PATCHES is the repository root, so entries read toolchain/x.patch
# and patches/y.patch and quilt edits the real files on refresh.
want=$top/series.want
if [ "$base" = rhel4 ]; then
	rhel4_toolchain > "$want.toolchain"
	# RHEL4_FLOOR=0: without the optional 10 ms floor (Red Hat's default
	# kept); tree_name gives such a tree its own name
	series_paths "$ROOT/series-rhel4" |
		if [ "${RHEL4_FLOOR:-1}" = 0 ]; then grep -v '/sched-cache-hot-time-floor\.patch$'; else cat; fi \
		> "$want.feature"
	[ -f "$ROOT/series-rhel4" ] || [ "$limit" = 0 ] ||
		msg "$tree: there is no series-rhel4 (yet): building Red Hat's tree without the feature series"
else
	series_names "$ROOT/toolchain/series" toolchain/ > "$want.toolchain"
	series_names "$ROOT/series" patches/ > "$want.feature"
fi
{
	cat "$want.toolchain"
	if [ "$limit" = all ]; then
		cat "$want.feature"
	else
		head -n "$limit" "$want.feature"
	fi
} > "$want"
rm -f "$want.toolchain" "$want.feature"
# Same list with each patch's content hash: what "already applied" means.
while read -r p; do
	[ -f "$ROOT/$p" ] || die "series names $p, which does not exist"
	printf '%s %s\n' "$(sha1sum < "$ROOT/$p" | cut -c1-16)" "$p"
done < "$want" > "$want.hashed"

export QUILT_PATCHES="$ROOT" QUILT_SERIES="$top/series" QUILT_PC=.pc
qopts="--quiltrc=/dev/null"

# A tree copied from another source, or with no record of what it holds,
# is thrown away and copied again.
if [ -d "$linux" ] && { [ ! -f "$top/source" ] || [ "$(cat "$top/source")" != "$src" ] ||
	[ ! -f "$top/applied" ]; }; then
	msg "$tree: source changed or state unknown: recreating the tree"
	rm -rf "$linux"
fi
if [ ! -d "$linux" ]; then
	msg "$tree: copying pristine tree $src"
	rm -f "$top/applied"
	cp -a "$src" "$linux.tmp"
	mv "$linux.tmp" "$linux"
	echo "$src" > "$top/source"
	: > "$top/applied"
	: > "$top/series"
fi

# Longest common prefix of what is applied and what is wanted.
keep=$(awk 'NR == FNR { a[FNR] = $0; n = FNR; next }
	{ if (FNR <= n && a[FNR] == $0 && !bad) k = FNR; else bad = 1 }
	END { print k + 0 }' "$top/applied" "$want.hashed")
napplied=$(wc -l < "$top/applied")

cd "$linux"
if [ "$napplied" -gt "$keep" ]; then
	touched=$top/touched.tmp
	: > "$touched"
	sed -n "$((keep + 1)),\$p" "$top/applied" | while read -r _h p; do
		quilt $qopts files "$p" >> "$touched" 2>/dev/null || true
	done
	msg "$tree: popping $((napplied - keep)) changed or removed patch(es)"
	if [ "$keep" = 0 ]; then
		quilt $qopts pop -a -f >> "$log" 2>&1 || die "quilt pop failed, see $log"
	else
		quilt $qopts pop -f "$(sed -n "${keep}p" "$top/applied" | cut -d' ' -f2)" >> "$log" 2>&1 ||
			die "quilt pop failed, see $log"
	fi
	# quilt restores the old mtimes: make must still rebuild these files.
	sort -u "$touched" | while read -r f; do [ -e "$f" ] && touch "$f"; done
	rm -f "$touched"
	head -n "$keep" "$top/applied" > "$top/applied.tmp"
	mv "$top/applied.tmp" "$top/applied"
fi

cp "$want" "$top/series"
total=$(wc -l < "$want")
if [ "$total" -gt "$keep" ]; then
	msg "$tree: applying $((total - keep)) patch(es) with quilt --fuzz=0 (log: $log)"
	sed -n "$((keep + 1)),\$p" "$want.hashed" | while read -r h p; do
		if ! quilt $qopts push --fuzz=0 "$p" >> "$log" 2>&1; then
			printf 'error: patch %s does not apply to %s (fuzz 0)\n' "$p" "$tree" >&2
			# Show the rejected hunks: apply to a scratch copy of the files.
			t=$(mktemp -d)
			sed -n 's,^+++ b/\([^[:space:]]*\).*,\1,p' "$ROOT/$p" | while read -r f; do
				mkdir -p "$t/$(dirname "$f")"; [ -f "$f" ] && cp "$f" "$t/$f"
			done
			(cd "$t" && patch -p1 --fuzz=0 --force -r "$t/rejects" < "$ROOT/$p") >&2 || true
			echo "--- rejected hunk(s) of $p:" >&2
			cat "$t/rejects" >&2 2>/dev/null || true
			rm -rf "$t"
			exit 1
		fi
		echo "$h $p" >> "$top/applied"
	done
fi
echo "$linux"
