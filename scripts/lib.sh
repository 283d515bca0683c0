# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Shared helpers for the cachehot scripts. Sourced, never run.
# Sets ROOT (the repository), CACHE (verified sources, stamps) and BUILD
# (every generated file; git ignores it).

ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/cachehot
BUILD=${BUILD_DIR:-$ROOT/build}
export ROOT CACHE BUILD

# The pristine import's git tree id and the official tarball's checksum.
PRISTINE_TREE_ID=f3d196d3b703bd3c7ca1effbc8b5f0298db9a874
OFFICIAL_SHA256=f5dba6366e87e91234d1b0069cfea655b0a4cb37ea97f899226f16998e6ab9f1
OFFICIAL_URL=https://cdn.kernel.org/pub/linux/kernel/v2.6/linux-2.6.9.tar.bz2
export PRISTINE_TREE_ID OFFICIAL_SHA256 OFFICIAL_URL

# The RHEL 4 flavour's source: a RHEL 4 kernel prepared for x86_64
# (RHEL4_SRPM installed with rpm -ivh, then `rpmbuild -bp --target x86_64`
# of its SPECS/kernel-2.6.spec), by the git tree id of its files. Red
# Hat's sources are never downloaded here: a user has the source RPM.
# RHEL4_VERSION picks the update: 89.29.1.EL (RHEL 4.8's, the
# flavour's own, the default), or the first kernel of 4.5 to 4.8, whose
# tree ids are those of the public copy of the prepared sources
# (github.com/dduval/kernel-rhel4, a tag per kernel) that
# Documentation/rhel4.md's support matrix was checked on. RHEL4_UNSUPPORTED: the first kernels of
# 4.0, 4.3 and 4.4, known so that scripts/rhel4-update.sh can show why
# the flavour does not take them.
RHEL4_VERSION=${RHEL4_VERSION:-89.29.1.EL}
RHEL4_VERSIONS="55.EL 67.EL 78.EL 89.EL 89.29.1.EL"
RHEL4_UNSUPPORTED="5.0.3.EL 34.EL 42.EL"
case $RHEL4_VERSION in
5.0.3.EL) RHEL4_TREE_ID=2bfb34dae8245a5e892f29125312e11f9377555b ;;	# 4.0
34.EL) RHEL4_TREE_ID=4805c5b252eb4e383ba3932a2e30e78c3d0225fa ;;	# 4.3
42.EL) RHEL4_TREE_ID=31a9e82975dcc31a0609a53e9250528ec5c91131 ;;	# 4.4
55.EL) RHEL4_TREE_ID=f9f7fb98fb4ab2c6e7a06a8c4e00cd312b233afb ;;	# 4.5
67.EL) RHEL4_TREE_ID=5a47099de5be0484b350a1f5419aeca9c59966d5 ;;	# 4.6
78.EL) RHEL4_TREE_ID=7e0fd575f880e4c7c06d4dd6bbdfbefcabffc951 ;;	# 4.7
89.EL) RHEL4_TREE_ID=6724e432182ffada4e4a76a282f0ac53c3afda12 ;;	# 4.8
89.29.1.EL) RHEL4_TREE_ID=9f0c974d1aebf2ebd52e49aea0086b6c470850a7 ;;
*) RHEL4_TREE_ID= ;;	# get-source.sh refuses it, naming the ones there are
esac
RHEL4_SRPM=kernel-2.6.9-$RHEL4_VERSION.src.rpm
RHEL4_TARBALL=linux-2.6.9-$RHEL4_VERSION.tar
export RHEL4_VERSION RHEL4_VERSIONS RHEL4_UNSUPPORTED RHEL4_TREE_ID RHEL4_SRPM RHEL4_TARBALL

# Progress goes to stderr so that stdout stays machine-readable
# (get-source.sh and build-kernel.sh print a path as their last line).
msg() { printf '>>> %s\n' "$*" >&2; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# last_line CMD [ARG...]: the last line CMD prints on stdout, and CMD's exit
# status (a pipe into `tail -n 1` would return tail's, so a failed build
# went on with an empty path).
last_line() {
	_ll=$("$@") || return
	printf '%s\n' "${_ll##*"$NL"}"
}
NL='
'

# need_cmd CMD: make sure CMD exists. Its Debian package is the one
# scripts/packages names (the list .ci/run installs too). As root, install
# it (unless CACHEHOT_NO_INSTALL is set); otherwise stop and print the exact
# commands a user has to run. A PACKAGE:ARCH of another architecture cannot
# be installed before dpkg knows ARCH and apt has that architecture's
# package lists.
need_cmd() { _need_pkg cmd "$1" "$1"; }

# need_path PATH NAME: the same for a file or directory no command stands
# for (the i386 kernel headers musl's i386 gcc lacks): NAME is its first
# word in scripts/packages.
need_path() { _need_pkg path "$1" "$2"; }

# _have KIND X: command X (KIND cmd) or path X (KIND path) is there.
_have() {
	case $1 in
	cmd) command -v "$2" >/dev/null 2>&1 ;;
	*) [ -e "$2" ] ;;
	esac
}

# _need_pkg KIND X NAME: need_cmd (KIND cmd, X = NAME) and need_path.
_need_pkg() {
	_have "$1" "$2" && return 0
	_what=$2
	[ "$1" = cmd ] || _what="$2 ($3)"
	_pkg=$(awk -v c="$3" '$1 == c { print $2; exit }' "$ROOT/scripts/packages")
	[ -n "$_pkg" ] || die "$_what not found, and scripts/packages names no package for it"
	_arch=
	case $_pkg in *:*) _arch=${_pkg##*:} ;; esac
	_add=
	if [ -n "$_arch" ] && ! { dpkg --print-architecture; dpkg --print-foreign-architectures; } 2>/dev/null | grep -qx "$_arch"; then
		_add=1
	fi
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 &&
	   [ -z "${CACHEHOT_NO_INSTALL:-}" ]; then
		if [ -n "$_add" ]; then
			msg "adding the $_arch architecture to dpkg (for $_pkg)"
			dpkg --add-architecture "$_arch" || die "dpkg --add-architecture $_arch failed"
		fi
		if [ -n "$_arch" ]; then
			# As in .ci/run: a failed update (a mirror caught mid-sync)
			# is not fatal, the install then uses the lists there are.
			msg "apt-get update (package lists of $_arch)"
			apt-get update >&2 || warn "apt-get update failed; installing from the current package lists"
		fi
		msg "installing $_pkg (for $_what)"
		apt_install "$_pkg" >&2 ||
			die "could not install $_pkg; run: apt-get update && apt-get install -y $_pkg"
		_have "$1" "$2" && return 0
	fi
	[ -n "$_arch" ] || die "$_what not found; install it with: sudo apt-get install -y $_pkg"
	die "$_what not found; install it with these commands, one after the other:
${_add:+  sudo dpkg --add-architecture $_arch
}  sudo apt-get update
  sudo apt-get install -y $_pkg"
}

# apt_install PKG...: apt-get install -y that never removes a package. A
# foreign PKG:ARCH of a Multi-Arch: same package must have the version of
# the native PKG; when the foreign lists lack it (an apt-get update that
# failed mid-sync), a plain install once removed the native linux-libc-dev
# and with it libc6-dev and build-essential. So ask for PKG:ARCH at the
# native version if apt knows it, else move the native PKG to PKG:ARCH's.
apt_install() {
	_args=
	for _p in "$@"; do
		case $_p in
		*:*)
			_n=${_p%%:*}
			_v=$(dpkg-query -W -f='${Version}' "$_n" 2>/dev/null || true)
			if [ -n "$_v" ]; then
				if apt-cache madison "$_p" | awk '{ print $3 }' | grep -qxF "$_v"; then
					_p="$_p=$_v"
				else
					_c=$(apt-cache policy "$_p" | awk '/Candidate:/ { print $2 }')
					[ -z "$_c" ] || [ "$_c" = "(none)" ] || _p="$_p=$_c $_n=$_c"
				fi
			fi ;;
		esac
		_args="$_args $_p"
	done
	# shellcheck disable=SC2086 # one word per package
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-remove --allow-downgrades $_args
}

# The pace of a vCPU when a MODEL guest has more vCPUs than host cores
# (boot.sh, cachemodel/plugin.c pace_ps=): ps a guest instruction. At
# 150000 the benchmark's 4-vCPU oltp guest on a 2-core host fell behind
# the host clock for under 2 % of its time in 15 of 20 boots and 2.9-5.0 %
# in the others.
# tests/faithful.sh checks the pacing at this default.
PACE_PS_DEFAULT=150000
export PACE_PS_DEFAULT

# config_arch NAME: the kernel ARCH of configs/NAME.config (name prefix,
# after a flavour's rhel4-).
config_arch() {
	case ${1#rhel4-} in
	x86_64*) echo x86_64 ;;
	i386*) echo i386 ;;
	ia64*) echo ia64 ;;
	*) die "cannot tell the architecture of config '$1' (name must start with x86_64, i386 or ia64)" ;;
	esac
}

# kernel_base CONFIG: the source CONFIG builds on: kernel.org (pristine
# 2.6.9) or rhel4 (the RHEL 4 tree above). KERNEL_BASE chooses; unset, a
# config named rhel4-* (Red Hat's options) takes rhel4, any other kernel.org.
kernel_base() {
	case ${KERNEL_BASE:-} in
	'') case $1 in rhel4-*) echo rhel4 ;; *) echo kernel.org ;; esac ;;
	rhel4) echo rhel4 ;;
	kernel.org)
		case $1 in rhel4-*) die "configs/$1.config holds Red Hat's options: it builds on KERNEL_BASE=rhel4, not kernel.org" ;; esac
		echo kernel.org ;;
	*) die "KERNEL_BASE=$KERNEL_BASE: kernel.org (pristine 2.6.9) or rhel4 (RHEL 4's tree)" ;;
	esac
}

# tree_name CONFIG: the name of CONFIG's tree under build/: CONFIG, with
# rhel4- in front when a kernel.org config builds on the RHEL 4 tree, so
# that the two never share a tree; on RHEL 4, -VERSION after it for an
# update other than 89.29.1.EL, and .nofloor for RHEL4_FLOOR=0.
tree_name() {
	_tb=$(kernel_base "$1") || exit
	case $_tb:$1 in
	kernel.org:*) echo "$1"; return ;;
	rhel4:rhel4-*) _tn=$1 ;;
	*) _tn=rhel4-$1 ;;
	esac
	[ "$RHEL4_VERSION" = 89.29.1.EL ] || _tn=$_tn-$RHEL4_VERSION
	[ "${RHEL4_FLOOR:-1}" != 0 ] || _tn=$_tn.nofloor
	echo "$_tn"
}

# toolchain_cc ARCH: the CC= value: ccache gcc plus toolchain/flags-ARCH.
# Lines of flags-ARCH that start with "-" are compiler flags.
toolchain_cc() {
	_f=$ROOT/toolchain/flags-$1
	_cc=${CROSS_CC:-gcc}
	[ "$1" = ia64 ] && _cc=${CROSS_CC:-ia64-linux-gnu-gcc}
	[ -n "${CACHEHOT_NO_CCACHE:-}" ] || ! command -v ccache >/dev/null 2>&1 || _cc="ccache $_cc"
	if [ -f "$_f" ]; then
		_cc="$_cc $(sed -n 's/[[:space:]]*#.*//; /^-/p' "$_f" | tr '\n' ' ')"
	fi
	printf '%s\n' "$_cc" | sed 's/ *$//'
}

# toolchain_makevars ARCH: NAME=value lines of toolchain/flags-ARCH, one a line.
toolchain_makevars() {
	_f=$ROOT/toolchain/flags-$1
	[ -f "$_f" ] || return 0
	sed -n 's/[[:space:]]*#.*//; /^[A-Za-z_][A-Za-z0-9_.]*=/p' "$_f"
}

# build_lock: hold $BUILD/.build.lock (on fd 8) until the script exits.
# One kernel make at a time on this machine (2 shared cores), and never two
# in the same tree; build-kernel.sh and sparse.sh take it.
build_lock() {
	mkdir -p "$BUILD"
	exec 8> "$BUILD/.build.lock"
	if ! flock -n 8; then
		msg "waiting for another kernel build to finish (lock $BUILD/.build.lock)"
		flock 8
	fi
}

# tree_make TOP [ARG...]: make in TOP/linux with the arguments of TOP's
# build (TOP/make.args, one a line, written by build-kernel.sh), then ARGs.
# Exactly the same arguments: kbuild rebuilds every object whose command
# line changed, and CC names this checkout's cc-warn.sh, so a make with a
# CC of its own (or from another checkout) would recompile the tree. Our
# own make (make check, make kernel) must not leak its variables and
# jobserver into the kernel's make.
tree_make() {
	_top=$1; shift
	[ -f "$_top/make.args" ] ||
		die "$_top/make.args is missing: build the tree with scripts/build-kernel.sh first"
	_n=$#
	while IFS= read -r _a; do set -- "$@" "$_a"; done < "$_top/make.args"
	# The recorded arguments first, then ours (a later -j or NAME= wins).
	while [ "$_n" -gt 0 ]; do set -- "$@" "$1"; shift; _n=$((_n - 1)); done
	(
		unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
		cd "$_top/linux" && exec make "$@"
	)
}

# series_names FILE [PREFIX]: the patches of a quilt series file, comments
# dropped, each with PREFIX in front.
series_names() {
	[ -f "$1" ] || return 0
	sed 's/#.*//' "$1" | awk -v p="${2:-}" 'NF { print p $1 }'
}

# series_paths FILE: the patches of a flavour's series file, whose entries
# name their directory (toolchain/x.patch, toolchain-rhel4/y.patch,
# patches-rhel4/z.patch: a flavour shares what applies to it unchanged),
# comments dropped; nothing when FILE does not exist. An entry without a
# directory is refused: it could be either copy.
series_paths() {
	[ -f "$1" ] || return 0
	sed 's/#.*//' "$1" | awk -v f="$1" 'NF {
		if ($1 !~ /^[A-Za-z0-9._-]+\/[^\/]/ || $1 ~ /\.\./) {
			printf "error: %s: entry %s must name its directory, e.g. patches/%s\n", f, $1, $1 > "/dev/stderr"
			exit 1
		}
		print $1
	}'
}

# rhel4_toolchain: the entries of toolchain-rhel4/series for RHEL4_VERSION.
# An entry followed by versions is for those kernels only: a fix Red Hat
# made in a later update (89.29.1.EL no longer needs it).
rhel4_toolchain() {
	series_paths "$ROOT/toolchain-rhel4/series" > /dev/null || return
	sed 's/#.*//' "$ROOT/toolchain-rhel4/series" | awk -v v="$RHEL4_VERSION" 'NF == 1 { print $1 }
		NF > 1 { for (i = 2; i <= NF; i++) if ($i == v) print $1 }'
}

# patch_files PATCH: the files a -p1 patch touches.
patch_files() { sed -n 's,^+++ b/\([^[:space:]]*\).*,\1,p' "$1" | sort -u; }

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

# debian_source PACKAGE VERSION DIR: download Debian's source package
# PACKAGE=VERSION into DIR (its .dsc and tarballs), through a PRIVATE
# deb-src list of bookworm, bookworm-updates and bookworm-security (the
# machine's apt configuration is never touched). DEBIAN_MIRROR and
# DEBIAN_SECURITY override the archives. Progress and apt's words go to
# DIR/apt.log.
debian_source() {
	_apt=$3/apt
	rm -rf "$_apt"
	mkdir -p "$_apt/lists/partial" "$_apt/cache/archives/partial"
	_kr=/usr/share/keyrings/debian-archive-keyring.gpg
	_m=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
	_s=${DEBIAN_SECURITY:-http://deb.debian.org/debian-security}
	{
		printf 'deb-src [signed-by=%s] %s bookworm main\n' "$_kr" "$_m"
		printf 'deb-src [signed-by=%s] %s bookworm-updates main\n' "$_kr" "$_m"
		printf 'deb-src [signed-by=%s] %s bookworm-security main\n' "$_kr" "$_s"
	} > "$_apt/sources.list"
	set -- "$1" "$2" "$3" -o "Dir::Etc::SourceList=$_apt/sources.list" \
		-o "Dir::Etc::SourceParts=/dev/null" -o "Dir::State::Lists=$_apt/lists" \
		-o "Dir::Cache=$_apt/cache"
	# _apt cannot write into a private directory under $HOME
	[ "$(id -u)" != 0 ] || set -- "$@" -o "APT::Sandbox::User=root"
	_p=$1 _v=$2 _d=$3; shift 3
	msg "fetching Debian's $_p $_v source"
	apt-get "$@" -q update > "$_d/apt.log" 2>&1 ||
		die "cannot fetch Debian's source index (log: $_d/apt.log)"
	(cd "$_d" && apt-get "$@" -q source --download-only "$_p=$_v") >> "$_d/apt.log" 2>&1 ||
		die "apt-get source --download-only $_p=$_v failed (log: $_d/apt.log)"
	rm -rf "$_apt"
}

# Counting in the host tests that can skip: t_ok NAME, t_ko NAME WHY, t_skip COUNT WHY (checks
# that could not run, said and counted as skipped, never as passed), and
# t_finish: the closing line "N passed, M failed" (", K skipped" when K > 0)
# and the exit status.
t_pass=0 t_fail=0 t_skipped=0
t_ok() { printf 'PASS %s\n' "$1"; t_pass=$((t_pass + 1)); }
t_ko() { printf 'FAIL %s: %s\n' "$1" "$2"; t_fail=$((t_fail + 1)); }
t_skip() { printf 'SKIP %s\n' "$2"; t_skipped=$((t_skipped + $1)); }
t_finish() {
	if [ "$t_skipped" = 0 ]; then echo "$t_pass passed, $t_fail failed"
	else echo "$t_pass passed, $t_fail failed, $t_skipped skipped"; fi
	[ "$t_fail" = 0 ]; exit
}
# t_add NAME FILE: a sub-test's output: its lines but the last are shown,
# its last line "N passed, M failed[, K skipped]" is added to the counts;
# without that line, NAME fails once.
t_add() {
	sed '$d' "$2"
	_ta=$(tail -n 1 "$2" | sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed\(, \([0-9][0-9]*\) skipped\)\{0,1\}$/\1 \2 \4/p')
	if [ -z "$_ta" ]; then
		t_ko "$1" "no 'N passed, M failed' last line: $(tail -n 1 "$2")"
		return
	fi
	# shellcheck disable=SC2086 # three numbers, the third may be missing
	set -- $_ta
	t_pass=$((t_pass + $1)) t_fail=$((t_fail + $2)) t_skipped=$((t_skipped + ${3:-0}))
}

# The host's load during a bench boot (bench.sh's hostload.txt;
# tests/hostload.sh). cpu_ticks: the host's busy and total clock ticks so
# far (/proc/stat, all cores).
cpu_ticks() {
	awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat
}
# host_sample PID: "busy total pid_ticks" now, PID's CPU time (utime +
# stime) in the same ticks; nothing, and a failure, once PID is gone. A
# gone QEMU's time once read as 0 and charged the whole boot's QEMU time
# to other processes (89.6 %, results/20261203-151022).
host_sample() {
	hs_q=$(awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat" 2>/dev/null) &&
		[ -n "$hs_q" ] || return 1
	echo "$(cpu_ticks) $hs_q"
}
# QEMU names its vCPU threads ("CPU n/TCG") only when asked to; every
# boot asks (boot.sh), so that pin_vcpus can find them. Without it no
# thread matches and no vCPU is pinned.
# shellcheck disable=SC2034 # used by boot.sh and tests/pin-vcpus.sh
QEMU_NAME_ARGS='-name cachehot,debug-threads=on'
# pin_vcpus PID: pin each vCPU thread of QEMU PID, "CPU n/TCG", to host
# core n modulo the cores, so that a guest CPU keeps one host core's
# caches; prints how many threads it pinned.
pin_vcpus() {
	pv_n=0
	for pv_t in /proc/"$1"/task/*; do
		pv_c=$(sed -n 's|^CPU \([0-9]*\)/.*|\1|p' "$pv_t/comm" 2>/dev/null) || pv_c=
		[ -n "$pv_c" ] || continue
		if taskset -p -c "$((pv_c % $(nproc)))" "${pv_t##*/}" > /dev/null 2>&1; then
			pv_n=$((pv_n + 1))
		fi
	done
	echo "$pv_n"
}
# hostload_row NAME FIRST LAST NCORES: a hostload.txt row from a boot's
# first and last host_sample: NAME, the share of the host's time that
# was busy but not PID's (other_busy_pct) and how many of the NCORES cores
# PID kept busy (qemu_cpus); -1 -1 without two samples apart in time.
hostload_row() {
	echo "$1 $2 $3" | awk -v ncores="$4" '{
		d = $6 - $3; b = ($5 - $2) - ($7 - $4)
		printf "%s %.1f %.2f\n", $1, (d > 0 ? 100 * (b < 0 ? 0 : b) / d : -1), (d > 0 ? ncores * ($7 - $4) / d : -1)
	}'
}

# How a guest console is judged (boot.sh, tests/shell.sh): kernel_lines LOG
# gives the kernel's own lines, not the command line (panic=-1), not the
# guest's report (which may print file names like panic_on_oops), and not
# 2.6.9's x86_64 TSC-sync notice "BIOS BUG: CPU#n improperly initialized,
# has N usecs TSC skew! FIXED." (under TCG on a loaded host the vCPUs' TSCs
# drift by a few usecs; the kernel fixes it, nothing is wrong); a line of
# them matching KERNEL_BAD is a fault.
KERNEL_BAD='Oops|BUG|panic|WARNING|Call Trace'
export KERNEL_BAD
kernel_lines() {
	grep -v -e '^GUEST ' -e 'command line' -e 'BIOS BUG: CPU#[0-9]* improperly initialized, has -*[0-9]* usecs TSC skew! FIXED' "$1"
}
# starved_boot LOG: which of 2.6.9's boot-time timing checks a console shows
# failed, the ones a loaded TCG host makes it miss (boot.sh, which lists
# them, and tests/shell.sh retry such a boot once); nothing, and a failure,
# if none. The most telling first: a starved boot often shows several
# (missed CPU bring-ups, then the IO-APIC panic).
starved_boot() {
	if tr -d '\r' < "$1" | grep -q -F "Kernel panic - not syncing: IO-APIC + timer doesn't work!"; then
		echo "IO-APIC timer check failed ('Kernel panic - not syncing: IO-APIC + timer doesn't work!')"
	elif grep -q '^Stuck ??' "$1"; then echo "a CPU bring-up was stuck ('Stuck ??')"
	elif grep -q 'Inquiring remote APIC #[0-9]' "$1"; then
		echo "a CPU missed its bring-up deadline ('$(grep -o 'Inquiring remote APIC #[0-9]*' "$1" | head -n 1)...')"
	else return 1
	fi
}
