#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build-kernel.sh CONFIG [--unpatched | --patches N | --tree TOP]
# Prepare the tree (prepare-tree.sh), configure it from configs/CONFIG.config
# and build it incrementally with ccache and the toolchain flags. --tree TOP:
# build TOP/linux as it is, a tree patched elsewhere (tests/apply.sh builds
# the release tarball's tree so). A config whose header has a line
# "# objects: OBJ..." is one 2.6.9 cannot link (ia64-numa-up): only
# `make prepare-all` and those objects are built (OBJECTS="OBJ..." asks for
# the same), and the last line is "objects built" instead of an image.
# Full log: build/<tree>/logs/build.log; compiler warnings, normalised and
# counted: build/<tree>/logs/warnings.txt. Prints the image's path last:
# arch/*/boot/bzImage, or on ia64 vmlinux (what Ski boots).
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"

[ $# -ge 1 ] || die "usage: $0 CONFIG [--unpatched | --patches N | --tree TOP]"
config=$1; shift
arch=$(config_arch "$config")
# CONFIG_FILE: the .config to use instead of configs/CONFIG.config (the
# RHEL 4 updates' own, scripts/rhel4-update.sh)
cfg=${CONFIG_FILE:-$ROOT/configs/$config.config}
[ -f "$cfg" ] || die "no $cfg (configs: $(find "$ROOT/configs" -name '*.config' -exec basename {} .config \; | tr '\n' ' '))"
need_cmd gcc
need_cmd make
need_cmd ccache
need_cmd bc
need_cmd flock

# One kernel build at a time, held for prepare + build.
build_lock

if [ "${1:-}" = --tree ]; then
	[ -d "${2:-}/linux" ] || die "--tree needs a directory with linux/ in it"
	linux=$(cd "$2/linux" && pwd)
else
	linux=$(last_line "$ROOT/scripts/prepare-tree.sh" "$config" "$@")
fi
top=$(dirname "$linux")
tree=$(basename "$top")
logs=$top/logs
mkdir -p "$logs"
log=$logs/build.log

# Red Hat's tree does not build with CONFIG_SCHEDSTATS (its
# load_balance_newidle() counts lb_balanced, a field of schedstat version
# 11); series-rhel4's schedstats patch mends it. A RHEL 4 tree without that
# patch (unpatched, an earlier prefix, a user who leaves it out) is built
# with SCHEDSTATS off, as Red Hat ships it.
if grep -q ' patches-rhel4/' "$top/applied" 2>/dev/null || grep -q ' toolchain-rhel4/' "$top/applied" 2>/dev/null; then
	if ! grep -q '/sched-cache-hot-schedstats\.patch$' "$top/applied" &&
		grep -q '^CONFIG_SCHEDSTATS=y' "$cfg"; then
		msg "$tree: without series-rhel4's schedstats patch Red Hat's tree needs CONFIG_SCHEDSTATS off"
		sed 's/^CONFIG_SCHEDSTATS=y$/# CONFIG_SCHEDSTATS is not set/' "$cfg" > "$top/config.noschedstats"
		cfg=$top/config.noschedstats
	fi
fi

image=$linux/arch/$arch/boot/bzImage
cross=
if [ "$arch" = ia64 ]; then
	# The cross gcc of `make ia64-toolchain` (its bin/ also links binutils).
	[ ! -d "$CACHE/ia64-toolchain/bin" ] || PATH=$CACHE/ia64-toolchain/bin:$PATH
	export PATH
	command -v "${CROSS_CC:-ia64-linux-gnu-gcc}" > /dev/null 2>&1 ||
		die "no ia64 cross compiler: run 'make ia64-toolchain' first"
	cross=ia64-linux-gnu-
	image=$linux/vmlinux
fi
# The make arguments, one a line, kept in the tree: every make in it
# (tree_make of lib.sh: this build, sparse.sh) uses exactly these.
# NAME=value lines of toolchain/flags-ARCH become make arguments.
{
	echo "ARCH=$arch"
	echo "CC=sh $ROOT/scripts/cc-warn.sh $(toolchain_cc "$arch")"
	echo "-j${JOBS:-2}"
	[ -z "$cross" ] || echo "CROSS_COMPILE=$cross"
	toolchain_makevars "$arch"
} > "$top/make.args"

cd "$linux"
# Re-copy the config only when it changed: a new .config mtime costs a rebuild.
if ! cmp -s "$cfg" "$top/config.used" || [ ! -f .config ]; then
	msg "$tree: configuring from ${cfg#"$ROOT"/} (make oldconfig, no prompts)"
	# Objects of the old config would stay, and their warnings with them
	# (logs/warnings.txt reads every *.o.warn): build everything anew
	# (ccache makes it cheap)
	if [ -f "$top/config.used" ]; then
		find . \( -name '*.o' -o -name '*.o.warn' \) -type f -delete
	fi
	cp "$cfg" .config
	if ! yes '' | tree_make "$top" oldconfig > "$logs/config.log" 2>&1; then
		tail -n 20 "$logs/config.log" >&2
		die "$tree: make oldconfig failed, log: $logs/config.log"
	fi
	cp "$cfg" "$top/config.used"
fi

# OBJECTS: build only these (and prepare-all), whatever the config says
objects=${OBJECTS:-$(sed -n 's/^# objects: //p' "$cfg")}
msg "$tree: building $arch ${objects:+objects $objects of a }kernel with make -j${JOBS:-2} (log: $log)"
start=$(date +%s)
[ ! -f "$log" ] || mv -f "$log" "$log.old"
# shellcheck disable=SC2086 # $objects: one make target a word
if ! if [ -n "$objects" ]; then
	tree_make "$top" prepare-all && tree_make "$top" $objects
else
	tree_make "$top"
fi > "$log" 2>&1; then
	echo "---- last lines of $log:" >&2
	grep -n -E 'error|Error|\*\*\*' "$log" | head -n 20 >&2 || true
	echo "----" >&2
	tail -n 25 "$log" >&2
	die "$tree: build failed (full log: $log)"
fi
msg "$tree: built in $(( $(date +%s) - start )) s"

# Warnings of every object (cc-warn.sh keeps them per object), normalised:
# build-dir prefix and line:column numbers stripped (patches move lines),
# counted so that a second instance of a warning is still new, and sorted
# after counting (in the C locale) for check.sh's comm.
find . -name '*.o.warn' -exec cat {} + 2>/dev/null |
	grep -E 'warning:' |
	sed -e "s|$linux/||g" -e 's|^\./||' -e 's/^\([^: ]*\):[0-9]*:[0-9]*:/\1:/' -e 's/^\([^: ]*\):[0-9]*:/\1:/' |
	LC_ALL=C sort | uniq -c | sed 's/^ *//' | LC_ALL=C sort > "$logs/warnings.txt" || true
msg "$tree: $(wc -l < "$logs/warnings.txt") distinct compiler warnings (logs/warnings.txt)"

if [ -n "$objects" ]; then
	echo "objects built"
	exit 0
fi
[ -f "$image" ] || die "$tree: build succeeded but $image is missing"
echo "$image"
