#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build-ia64-toolchain.sh - build a C-only ia64-linux-gnu cross gcc for the
# cachehot ia64 builds.
#
# Sources: Debian's own gcc-12 source package (fetched with
# `apt-get source --download-only gcc-12` through a PRIVATE deb-src list; the
# machine's apt configuration is never modified) and Debian's
# binutils-ia64-linux-gnu package.  No prebuilt toolchain from anywhere else.
#
# Result:  $PREFIX/bin/ia64-linux-gnu-gcc   (plus symlinks to the Debian
#          ia64-linux-gnu binutils, so one PATH entry is enough)
#          PREFIX=${XDG_CACHE_HOME:-$HOME/.cache}/cachehot/ia64-toolchain
# Scratch: ${XDG_CACHE_HOME:-$HOME/.cache}/cachehot/ia64-toolchain-build
#          (full log: build.log there, copied to $PREFIX/build.log on success)
#
# Idempotent: exits at once when the installed compiler runs and compiles a
# test file for ia64.  Takes about 9 minutes with JOBS=2 (the default) on an
# idle 2-core machine (18.5 min measured while two x86 kernel builds shared the
# cores); needs ~1.2 GB memory, ~2.2 GB disk in the scratch dir while building.
#
# Environment:
#   JOBS            parallel make jobs (default 2)
#   DEBIAN_MIRROR   Debian archive URL (default http://deb.debian.org/debian)
#   DEBIAN_SUITE    suite to take gcc-12 from (default bookworm)
#   KEEP_BUILD=1    keep the scratch dir after a successful build
set -eu

CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/cachehot
PREFIX=$CACHE/ia64-toolchain
WORK=$CACHE/ia64-toolchain-build
LOG=$WORK/build.log
TARGET=ia64-linux-gnu
JOBS=${JOBS:-2}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
DEBIAN_SUITE=${DEBIAN_SUITE:-bookworm}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
BINUTILS_PKG=binutils-ia64-linux-gnu
BUILD_DEPS="$BINUTILS_PKG g++ make libgmp-dev libmpfr-dev libmpc-dev flex bison texinfo xz-utils file"

START=$(date +%s)
STEP="starting"

msg() {
	printf '[build-ia64-toolchain %4ss] %s\n' "$(( $(date +%s) - START ))" "$*"
	if [ -d "$WORK" ]; then
		printf '==== [%s] %s\n' "$(date '+%F %T')" "$*" >>"$LOG"
	fi
}

die() {
	STEP="done"	# the message below already says why
	printf 'build-ia64-toolchain: ERROR: %s\n' "$*" >&2
	if [ -f "$LOG" ]; then
		printf 'build-ia64-toolchain: full log: %s\n' "$LOG" >&2
	fi
	exit 1
}

on_exit() {
	status=$?
	if [ "$status" -ne 0 ] && [ "$STEP" != "done" ]; then
		printf 'build-ia64-toolchain: ERROR: failed while %s (exit status %s)\n' \
			"$STEP" "$status" >&2
		if [ -f "$LOG" ]; then
			printf 'build-ia64-toolchain: last lines of %s:\n' "$LOG" >&2
			tail -n 25 "$LOG" >&2
		fi
	fi
}
trap on_exit EXIT

# run CMD...: run a command with its output appended to the log.
run() {
	printf '+ %s\n' "$*" >>"$LOG"
	"$@" >>"$LOG" 2>&1
}

# toolchain_works: the installed compiler reports a version and turns a small
# C file into an ia64 ELF object (this exercises cc1 and the Debian gas).
toolchain_works() {
	gcc_bin=$PREFIX/bin/$TARGET-gcc
	[ -x "$gcc_bin" ] || return 1
	"$gcc_bin" --version >/dev/null 2>&1 || return 1
	tdir=$(mktemp -d) || return 1
	cat >"$tdir/t.c" <<'EOF'
extern inline int twice(int x) { return 2 * x; }
static volatile long counter;
long bump(long n) { long i; for (i = 0; i < n; i++) counter += twice(i); return counter; }
EOF
	ok=1
	if "$gcc_bin" -O2 -fgnu89-inline -c "$tdir/t.c" -o "$tdir/t.o" >/dev/null 2>&1 &&
		file "$tdir/t.o" 2>/dev/null | grep -q 'IA-64'; then
		ok=0
	fi
	rm -rf "$tdir"
	return "$ok"
}

# ---------------------------------------------------------------- quick exit
if toolchain_works; then
	msg "already installed and working: $PREFIX/bin/$TARGET-gcc ($("$PREFIX/bin/$TARGET-gcc" --version | head -n 1))"
	STEP="done"
	exit 0
fi

# One build at a time (two `make check` runs may start together).
mkdir -p "$CACHE"
if command -v flock >/dev/null 2>&1; then
	exec 9>"$CACHE/ia64-toolchain.lock"
	if ! flock -n 9; then
		msg "another build of the ia64 toolchain is running; waiting for it"
		flock 9
	fi
	if toolchain_works; then
		msg "installed meanwhile by another run: $PREFIX/bin/$TARGET-gcc"
		STEP="done"
		exit 0
	fi
fi

mkdir -p "$WORK"
printf '\n==== new run %s\n' "$(date '+%F %T')" >>"$LOG"
msg "building the ia64 cross gcc into $PREFIX (scratch $WORK, log $LOG, make -j$JOBS)"

# ------------------------------------------------------- host packages
STEP="checking host packages"
missing=""
for p in $BUILD_DEPS; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
		missing="$missing $p"
	fi
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" -eq 0 ]; then
		msg "installing Debian packages:$missing"
		STEP="installing Debian packages ($missing) with apt-get"
		DEBIAN_FRONTEND=noninteractive
		export DEBIAN_FRONTEND
		# shellcheck disable=SC2086 # word splitting of the package list is intended
		if ! run apt-get -o DPkg::Lock::Timeout=600 \
			install -y --no-install-recommends --no-remove $missing; then
			die "apt-get install of$missing failed (is the Debian archive reachable? try 'apt-get update'); see $LOG"
		fi
	else
		die "missing Debian packages:$missing
  As root, run:  apt-get install -y --no-install-recommends$missing
  then run this script again."
	fi
fi
for t in as ld; do
	[ -x "/usr/bin/$TARGET-$t" ] || die "/usr/bin/$TARGET-$t is missing although $BINUTILS_PKG is installed"
done

# ------------------------------------------------------- gcc-12 source
SRC=$WORK/src
APTDIR=$WORK/apt
if [ ! -f "$SRC/.unpacked" ]; then
	STEP="fetching the gcc-12 source package"
	rm -rf "$SRC" "$APTDIR"
	mkdir -p "$SRC" "$APTDIR/lists/partial" "$APTDIR/cache/archives/partial"
	# Private deb-src list mirroring /etc/apt/sources.list.d/debian.sources.
	printf 'deb-src [signed-by=%s] %s %s main\n' "$KEYRING" "$DEBIAN_MIRROR" "$DEBIAN_SUITE" \
		>"$APTDIR/sources.list"
	set -- -o "Dir::Etc::SourceList=$APTDIR/sources.list" \
		-o "Dir::Etc::SourceParts=/dev/null" \
		-o "Dir::State::Lists=$APTDIR/lists" \
		-o "Dir::Cache=$APTDIR/cache"
	if [ "$(id -u)" -eq 0 ]; then
		# _apt cannot write into a private dir under $HOME
		set -- "$@" -o "APT::Sandbox::User=root"
	fi
	msg "apt-get update with a private deb-src list ($DEBIAN_MIRROR $DEBIAN_SUITE main)"
	if ! run apt-get "$@" --error-on=any update; then
		die "cannot fetch the Debian source index from $DEBIAN_MIRROR ($DEBIAN_SUITE): is the archive reachable from this machine (network/proxy)?
  apt said: $(grep '^E:' "$LOG" | head -n 1)"
	fi
	msg "apt-get source --download-only gcc-12"
	if ! (cd "$SRC" && run apt-get "$@" source --download-only gcc-12); then
		die "apt-get source --download-only gcc-12 failed (archive unreachable or gcc-12 not in $DEBIAN_SUITE?)
  apt said: $(grep '^E:' "$LOG" | tail -n 1)"
	fi
	dsc=$(find "$SRC" -maxdepth 1 -name 'gcc-12_*.dsc' | head -n 1)
	orig=$(find "$SRC" -maxdepth 1 -name 'gcc-12_*.orig.tar.*' | head -n 1)
	[ -n "$dsc" ] || die "apt-get source gave no gcc-12 .dsc in $SRC"
	[ -n "$orig" ] || die "apt-get source gave no gcc-12 .dsc/.orig tarball in $SRC"
	basename "$dsc" .dsc >"$SRC/.version"
	msg "unpacking $(basename "$orig")"
	STEP="unpacking the gcc-12 source"
	# The Debian orig tarball wraps the upstream (dfsg) tarball.
	inner=$(tar -tf "$orig" | grep -E '(^|/)gcc-[0-9.]+(-dfsg)?\.tar\.(xz|gz|bz2)$' | head -n 1)
	[ -n "$inner" ] || die "no gcc-*.tar.* inside $(basename "$orig")"
	run tar -xf "$orig" -C "$SRC" "$inner"
	run tar -xf "$SRC/$inner" -C "$SRC"
	rm -f "${SRC:?}/$inner"
	gccsrc=""
	for d in "$SRC"/*/; do
		if [ -f "${d}gcc/BASE-VER" ]; then
			gccsrc=${d%/}
		fi
	done
	[ -n "$gccsrc" ] || die "unpacked gcc source tree not found under $SRC"
	printf '%s\n' "$gccsrc" >"$SRC/.srcdir"
	touch "$SRC/.unpacked"
fi
GCCSRC=$(cat "$SRC/.srcdir")
PKGVER=$(cat "$SRC/.version")
msg "gcc source: $GCCSRC (Debian $PKGVER, upstream $(cat "$GCCSRC/gcc/BASE-VER"))"

# ------------------------------------------------------- configure
BUILD=$WORK/build
STAGE=$WORK/stage
if [ ! -f "$BUILD/.configured" ]; then
	STEP="configuring gcc"
	rm -rf "$BUILD"
	mkdir -p "$BUILD"
	msg "configure --target=$TARGET --enable-languages=c --without-headers"
	(cd "$BUILD" && run "$GCCSRC/configure" \
		--prefix="$PREFIX" \
		--target="$TARGET" \
		--with-pkgversion="cachehot ia64 cross from Debian $PKGVER" \
		--enable-languages=c \
		--without-headers --disable-shared --disable-threads \
		--disable-multilib --disable-nls --disable-werror \
		--disable-bootstrap --disable-lto \
		--disable-libssp --disable-libgomp --disable-libquadmath \
		--disable-libatomic --disable-libsanitizer --disable-libvtv \
		--disable-libitm --disable-libstdcxx --disable-libcc1 \
		--with-as="/usr/bin/$TARGET-as" --with-ld="/usr/bin/$TARGET-ld" \
		MAKEINFO=true)
	touch "$BUILD/.configured"
fi

# ------------------------------------------------------- build
# build_make TARGET...: make in the build dir.  Debian's dfsg source strips the
# GFDL docs, so gcc/doc/tm.texi.in is a stub and genhooks stops at s-tm-texi
# ("No place specified to document hook ...") during all-gcc or install-gcc.
# The docs are not built anyway (MAKEINFO=true): mark the stamp up to date
# and run the same make once more.
build_make() {
	mark=$(wc -l <"$LOG")
	if (cd "$BUILD" && run make "$@"); then
		return 0
	fi
	if tail -n +"$mark" "$LOG" | grep -q 'No place specified to document hook' &&
		[ -f "$BUILD/gcc/build/genhooks" ]; then
		msg "genhooks/s-tm-texi stops on the dfsg tm.texi.in stub (known): touching gcc/s-tm-texi and resuming"
		touch "$BUILD/gcc/s-tm-texi"
		(cd "$BUILD" && run make "$@")
	else
		return 1
	fi
}
STEP="building all-gcc (about 9 min at -j$JOBS on an idle machine)"
msg "make -j$JOBS all-gcc (about 9 min at -j2 on an idle machine)"
build_make -j"$JOBS" MAKEINFO=true all-gcc
STEP="building libgcc"
msg "make -j$JOBS all-target-libgcc"
build_make -j"$JOBS" MAKEINFO=true all-target-libgcc

# ------------------------------------------------------- install
STEP="installing"
msg "installing into $PREFIX"
rm -rf "$STAGE"
build_make MAKEINFO=true DESTDIR="$STAGE" install-gcc install-target-libgcc
[ -x "$STAGE$PREFIX/bin/$TARGET-gcc" ] || die "install produced no $STAGE$PREFIX/bin/$TARGET-gcc"
# One PATH entry for the kernel build: link the Debian binutils in.
for f in /usr/bin/"$TARGET"-*; do
	name=$(basename "$f")
	[ -e "$STAGE$PREFIX/bin/$name" ] || ln -s "$f" "$STAGE$PREFIX/bin/$name"
done
rm -rf "$PREFIX"
mkdir -p "$(dirname "$PREFIX")"
mv "$STAGE$PREFIX" "$PREFIX"
rm -rf "$STAGE"
cp "$LOG" "$PREFIX/build.log"
printf 'Debian source package: %s\nbinutils: %s\nbuilt: %s in %ss\n' "$PKGVER" \
	"$(dpkg-query -W -f='${Package} ${Version}' "$BINUTILS_PKG")" \
	"$(date '+%F %T')" "$(( $(date +%s) - START ))" >"$PREFIX/VERSION"

STEP="testing the installed compiler"
toolchain_works || die "the installed $PREFIX/bin/$TARGET-gcc does not compile a test file for ia64; see $LOG"
if [ "${KEEP_BUILD:-0}" != 1 ]; then
	msg "removing the build dir $BUILD (set KEEP_BUILD=1 to keep it; the log stays in $LOG)"
	rm -rf "$BUILD"
fi
STEP="done"
msg "done: $PREFIX/bin/$TARGET-gcc ($("$PREFIX/bin/$TARGET-gcc" --version | head -n 1)) in $(( $(date +%s) - START ))s"
msg "use: PATH=$PREFIX/bin:\$PATH make ARCH=ia64 CROSS_COMPILE=$TARGET- ..."
