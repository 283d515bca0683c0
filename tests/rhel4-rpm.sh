#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The RHEL 4 RPM route of Documentation/rhel4.md, run for real with
# Debian's rpm on the structure of a real RHEL 4 kernel spec.
#
# The spec: CentOS's kernel-2.6.spec of 2.6.9-42.0.10.EL as TOMOYO Linux
# kept it (github.com/Intika-Linux-Firewall/Tomoyo, commit SPEC_COMMIT,
# SPEC_PATH; git blob SPEC_BLOB), read from the cache. It is not
# committed here, and this machine cannot download it: with
# TOMOYO_GIT=<a git clone of that repository> the test copies it into the
# cache; without either, the test fails and says so. TOMOYO's additions
# (its patch tarball, its %prep and config lines, its release suffix) are
# taken out, and its release set to 89.29.1.EL, the tree it is given: what
# is left is the structure of Red Hat's spec (about a thousand Source and
# Patch lines, %setup, a %patch line for nearly every patch, Patch20000
# linux-kernel-test.patch applied last when not empty, the config loop
# with nonint_oldconfig).
#
# Stand-in sources, made by the test: Source0 (linux-2.6.9.tar.bz2) is
# Red Hat's prepared, verified 89.29.1.EL tree (KERNEL_BASE=rhel4
# scripts/get-source.sh; no tree, and the test fails saying so), as a tar
# with the top directory %setup expects and without what %prep's config
# loop makes (configs/, .config*); the x86_64 configs are Red Hat's own
# from that tree; every Red Hat patch, which that tree already has, is a
# patch that changes nothing (one hunk that replaces Makefile's first line
# by itself: it applies with --fuzz=0, forwards and with -R); the other
# sources are one-line files. From these, "Red Hat's" source package
# kernel-2.6.9-89.29.1.EL.src.rpm is built.
#
# Then the route's block of Documentation/rhel4.md (the one that starts
# with "rpm -ivh") runs line by line as written, with these replacements
# only: /usr/src/redhat (RHEL 4's rpm top directory) is a directory of the
# test (set as %_topdir in a .rpmmacros of a HOME of the test, with its
# own rpm database), /path/to/cachehot is this checkout, and `rpmbuild
# -ba` is `rpmbuild -bp --nodeps` (%prep only: no binary kernel is built;
# --nodeps as Debian has none of Red Hat's build requirements). Checked:
#   - every line runs; %prep applies linux-kernel-test.patch (rpm 4.18's
#     %patch: --fuzz=0), and leaves each file the series changes exactly
#     as `quilt push -a --fuzz=0` of series-rhel4 leaves it;
#   - the spec's release carries cachehot and cachehot's VERSION, and is
#     the only line of the spec the route changes;
#     `rpmbuild -bs` writes kernel-2.6.9-89.29.1.EL_cachehot_<VERSION>.src.rpm,
#     whose linux-kernel-test.patch is rhel4-patch.sh's output; every
#     binary package of the spec on x86_64 and i686 (rpmspec --builtrpms)
#     has that release; rpm orders it between 89.29.1.EL and 89.31.1.EL;
#     every path of the spec's %files has the version-release in it, but
#     the kABI directories (so the packages install beside Red Hat's);
#   - the doc's tarball line gives the same patches as rhel4-patch.sh;
#   - the doc's %changelog entry, put at the top of %changelog, is read
#     back by rpm as written, and names the route's version-release.
# And that the checks can fail: on the spec before the route, the
# release check fails; with a cachehot patch one context line of which
# is wrong, rpmbuild -bp fails in %prep.
# Test-only rpm settings (.rpmmacros): source packages are not compressed
# (%_source_payload w0.ufdio: the tree is 231 MB, and CPU is scarce).
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

need_cmd rpmbuild
need_cmd rpmspec
need_cmd rpm2cpio
need_cmd cpio
need_cmd bzip2
need_cmd quilt
need_cmd patch
need_cmd git

SPEC_COMMIT=057c96002346c0ddbbab8fc68b2e6b290bd42817
SPEC_PATH=1.4/kernel-2.6.9-42.0.10.EL_tomoyo_1.4.spec
SPEC_BLOB=c35a4cf9505ae9ff5ba5adbf544685b20e6bea14
RELEASE=89.29.1.EL
version=$(cat "$ROOT/VERSION")
want_rel=${RELEASE}_cachehot_$version
doc=$ROOT/Documentation/rhel4.md

work=$BUILD/rhel4-rpm-test
rm -rf "$work"
mkdir -p "$work"
t_pass=0 t_fail=0 t_skipped=0

# The spec, from the cache (or from TOMOYO_GIT into the cache).
cached=$CACHE/rhel4-spec/${SPEC_PATH##*/}
if [ ! -f "$cached" ] && [ -n "${TOMOYO_GIT:-}" ]; then
	mkdir -p "${cached%/*}"
	if git --git-dir="$TOMOYO_GIT" show "$SPEC_COMMIT:$SPEC_PATH" > "$cached.tmp"; then
		mv "$cached.tmp" "$cached"
	else rm -f "$cached.tmp"; fi
fi
if [ ! -f "$cached" ]; then
	t_ko rhel4-rpm-spec "no $cached: run this test once with TOMOYO_GIT=<git dir of a clone of github.com/Intika-Linux-Firewall/Tomoyo> (it copies $SPEC_PATH of commit $SPEC_COMMIT there)"
	t_finish
fi
blob=$(git hash-object "$cached")
if [ "$blob" != "$SPEC_BLOB" ]; then
	t_ko rhel4-rpm-spec "$cached is git blob $blob, not $SPEC_BLOB ($SPEC_PATH of $SPEC_COMMIT): remove it and copy it again"
	t_finish
fi
t_ok rhel4-rpm-spec

# Red Hat's verified tree.
src=$(KERNEL_BASE=rhel4 last_line "$ROOT/scripts/get-source.sh" 2> "$work/source.err") ||
	{ t_ko rhel4-rpm-source "$(tail -n 1 "$work/source.err")"; t_finish; }

# rpm's settings for every rpm command of the test.
home=$work/home
mkdir -p "$home" "$work/tmp" "$work/rpmdb"
rpm_home() {
	cat > "$home/.rpmmacros" <<-EOF
	%_topdir $1
	%_dbpath $work/rpmdb
	%_tmppath $work/tmp
	%_source_payload w0.ufdio
	EOF
}

# "Red Hat's" source package: the spec without TOMOYO's additions.
vendor=$work/vendor
mkdir -p "$vendor/SPECS" "$vendor/SOURCES"
awk -v rel="$RELEASE" '
/^%define release / { print "%define release " rel; next }
/^Source15000:/ { next }
/^[ \t]*# TOMOYO Linux$/ { skip = 1; next }
skip && /signmodules 0|SOURCE15000|EXTRAVERSION = -42\.0\.10\.EL|ccs-patch|config\.ccs|CONFIG_DEBUG_INFO/ { next }
{ skip = 0; print }' "$cached" > "$vendor/SPECS/kernel-2.6.spec"
if grep -qi 'tomoyo\|ccs' "$vendor/SPECS/kernel-2.6.spec"; then
	t_ko rhel4-rpm-spec-without-tomoyo "left: $(grep -i -m1 'tomoyo\|ccs' "$vendor/SPECS/kernel-2.6.spec")"
else t_ok rhel4-rpm-spec-without-tomoyo; fi

rpm_home "$vendor"
HOME=$home rpmspec -P --target x86_64 "$vendor/SPECS/kernel-2.6.spec" 2> "$work/parse.err" |
	awk 'tolower($1) ~ /^(source|patch)[0-9]+:$/ { n = $2; sub(".*/", "", n); print n }' > "$work/sources"
tree=${src##*/}
while IFS= read -r f; do
	case $f in
	linux-2.6.9.tar.bz2) ;;
	kernel-2.6.9-x86_64*.config) cp "$src/configs/$f" "$vendor/SOURCES/$f" ;;
	linux-kernel-test.patch) : > "$vendor/SOURCES/$f" ;;  # empty, as Red Hat ships it
	*.patch|*.bz2)
		printf "stand-in for Red Hat's %s, which the tree has: changes nothing\n--- a/Makefile\n+++ b/Makefile\n@@ -1 +1 @@\n-VERSION = 2\n+VERSION = 2\n" "$f" > "$vendor/SOURCES/$f"
		case $f in *.bz2) bzip2 -c < "$vendor/SOURCES/$f" > "$work/tmp/p" && mv "$work/tmp/p" "$vendor/SOURCES/$f" ;; esac ;;
	*) printf "stand-in for Red Hat's %s\n" "$f" > "$vendor/SOURCES/$f" ;;
	esac
done < "$work/sources"
# Source0: the prepared tree as linux-2.6.9/, without %prep's config output
# (an uncompressed tar under the spec's name: rpm looks at the content).
tar -C "${src%/*}" --anchored --exclude="$tree/configs" --exclude="$tree/.config*" \
	--transform="s,^$tree,linux-2.6.9," -cf "$vendor/SOURCES/linux-2.6.9.tar.bz2" "$tree"
npatch=$(grep -v '^linux-2\.6\.9\.tar\.bz2$' "$work/sources" | grep -c '\.patch$\|\.bz2$' || true)
if HOME=$home rpmbuild -bs --nodeps --target x86_64 "$vendor/SPECS/kernel-2.6.spec" > "$work/vendor-bs.log" 2>&1 &&
   [ -f "$vendor/SRPMS/kernel-2.6.9-$RELEASE.src.rpm" ]; then
	t_ok "rhel4-rpm-standin-srpm ($(grep -c . "$work/sources") sources, $npatch of them patches)"
else
	t_ko rhel4-rpm-standin-srpm "$(grep -v deprecated "$work/vendor-bs.log" | tail -n 1)"
	t_finish
fi

# release_ok SPEC: its release line carries cachehot and VERSION, and so
# does every package rpm makes of it; prints what is wrong.
release_ok() {
	_l=$(grep '^%define release ' "$1")
	[ "$_l" = "%define release $want_rel" ] || { echo "release line: $_l"; return 1; }
	_bad=
	for _t in x86_64 i686; do
		HOME=$home rpmspec -q --builtrpms --target "$_t" --qf '%{name}-%{version}-%{release}.%{arch}\n' "$1" \
			> "$work/pkgs.$_t" 2> "$work/pkgs.$_t.err" || { echo "rpmspec -q failed: $(tail -n 1 "$work/pkgs.$_t.err")"; return 1; }
		[ -s "$work/pkgs.$_t" ] || { echo "no package for $_t"; return 1; }
		_bad=$(grep -v -- "-2\.6\.9-$want_rel\.$_t$" "$work/pkgs.$_t" | head -n 1)
		[ -z "$_bad" ] || { echo "package $_bad"; return 1; }
	done
}
if why=$(release_ok "$vendor/SPECS/kernel-2.6.spec"); then
	t_ko rhel4-rpm-release-check-can-fail "Red Hat's spec passed the release check"
else t_ok "rhel4-rpm-release-check-can-fail (Red Hat's spec: $why)"; fi

# The route of the doc, as written but for the replacements above.
# shellcheck disable=SC2016 # sed addresses, not shell expansions
sed -n '/^```sh$/{n;/^rpm -ivh /{:a;p;n;/^```$/q;ba};}' "$doc" > "$work/route.doc"
if [ "$(head -n 1 "$work/route.doc" | cut -c1-9)" != "rpm -ivh " ] ||
   ! grep -q '^rpmbuild -ba ' "$work/route.doc"; then
	t_ko rhel4-rpm-doc-route "no route block (rpm -ivh ... rpmbuild -ba) in Documentation/rhel4.md"
	t_finish
fi
admin=$work/redhat
mkdir -p "$admin" "$work/dl"
cp "$vendor/SRPMS/kernel-2.6.9-$RELEASE.src.rpm" "$work/dl/"
sed -e "s|/usr/src/redhat|$admin|g" -e "s|/path/to/cachehot|$ROOT|g" \
	-e 's|^rpmbuild -ba |rpmbuild -bp --nodeps |' "$work/route.doc" > "$work/route.sh"
rpm_home "$admin"
if (cd "$work/dl" && HOME=$home sh -ex "$work/route.sh") > "$work/route.log" 2>&1; then
	t_ok "rhel4-rpm-doc-route-runs ($(grep -c . "$work/route.doc") lines)"
else
	t_ko rhel4-rpm-doc-route-runs "$(grep -E 'FAILED|error|rror:' "$work/route.log" | grep -v deprecated | head -n 1)"
fi

# %prep applied the cachehot patch, last, and gave the series' files
if awk '/^Patch #20000 \(linux-kernel-test.patch\):$/ { p = 1; next } p && /^Patch #/ { bad = 1 }
	p && /^patching file / { n++ } /FAILED|rej/ { bad = 1 } END { exit !(n > 0 && !bad) }' "$work/route.log"; then
	t_ok "rhel4-rpm-prep-applies-cachehot ($(grep -c '^Patch #' "$work/route.log") %patch lines run, #20000 last; $(awk '/^Patch #20000/ { p = 1; next } p && /^patching file / { n++ } END { print n + 0 }' "$work/route.log") files patched by it)"
else
	t_ko rhel4-rpm-prep-applies-cachehot "no 'Patch #20000' with patched files, a patch after it, or a failed hunk, in $work/route.log"
fi
ref=$work/ref
cp -al "$src" "$ref"
(cd "$ref" && QUILT_PATCHES=$ROOT QUILT_SERIES=$ROOT/series-rhel4 quilt push -a -q --fuzz=0) > "$work/quilt.log" 2>&1 ||
	t_ko rhel4-rpm-reference "quilt push -a of series-rhel4 failed: $(tail -n 1 "$work/quilt.log")"
built=$admin/BUILD/kernel-2.6.9/linux-2.6.9
files=$(for p in $(series_paths "$ROOT/series-rhel4"); do patch_files "$ROOT/$p"; done | sort -u)
diffs=
for f in $files; do
	cmp -s "$ref/$f" "$built/$f" || diffs="$diffs $f"
done
rej=$(find "$built" -name '*.rej' | head -n 1)
if [ -d "$built" ] && [ -z "$diffs" ] && [ -z "$rej" ]; then
	t_ok "rhel4-rpm-prep-tree-is-the-series ($(echo "$files" | grep -c .) files)"
else
	t_ko rhel4-rpm-prep-tree-is-the-series "differ from quilt's:${diffs:- none}${rej:+; reject $rej}"
fi

# the release, the source package, the binary packages
if why=$(release_ok "$admin/SPECS/kernel-2.6.spec"); then
	t_ok "rhel4-rpm-release-carries-cachehot ($want_rel; $(cat "$work/pkgs.x86_64" "$work/pkgs.i686" | grep -c .) binary packages, e.g. $(grep -m1 '^kernel-smp-2' "$work/pkgs.x86_64").rpm)"
else t_ko rhel4-rpm-release-carries-cachehot "$why"; fi
# the route changes the spec's release line and nothing else (kabi_major
# and kabi_minor stay Red Hat's: the series exports nothing new)
if diff "$vendor/SPECS/kernel-2.6.spec" "$admin/SPECS/kernel-2.6.spec" > "$work/spec.diff"; then
	t_ko rhel4-rpm-spec-only-release-changed "the route left the spec as it was"
elif [ "$(grep '^[<>]' "$work/spec.diff")" = "< %define release $RELEASE
> %define release $want_rel" ]; then
	t_ok rhel4-rpm-spec-only-release-changed
else t_ko rhel4-rpm-spec-only-release-changed "$(grep '^[<>]' "$work/spec.diff" | head -n 3 | tr '\n' '|')"; fi
srpm=$admin/SRPMS/kernel-2.6.9-$want_rel.src.rpm
if HOME=$home rpmbuild -bs --nodeps --target x86_64 "$admin/SPECS/kernel-2.6.spec" > "$work/bs.log" 2>&1 &&
   [ -f "$srpm" ] &&
   [ "$(rpm -qp --qf '%{name}-%{version}-%{release}' "$srpm" 2>/dev/null)" = "kernel-2.6.9-$want_rel" ]; then
	t_ok "rhel4-rpm-source-package (${srpm##*/})"
else t_ko rhel4-rpm-source-package "no $srpm: $(grep -v deprecated "$work/bs.log" | tail -n 1)"; fi
"$ROOT/scripts/rhel4-patch.sh" > "$work/cachehot.patch"
mkdir -p "$work/x"
if [ -f "$srpm" ] && (cd "$work/x" && rpm2cpio "$srpm" | cpio -i --quiet linux-kernel-test.patch) 2> "$work/x.err" &&
   cmp -s "$work/x/linux-kernel-test.patch" "$work/cachehot.patch"; then
	t_ok rhel4-rpm-source-package-holds-the-patch
else t_ko rhel4-rpm-source-package-holds-the-patch "its linux-kernel-test.patch is not rhel4-patch.sh's output"; fi
order=$(rpm --eval "%{lua: print(rpm.vercmp('$RELEASE', '$want_rel'), rpm.vercmp('$want_rel', '89.31.1.EL'))}")
if [ "$order" = "-1	-1" ]; then t_ok "rhel4-rpm-release-order ($RELEASE < $want_rel < 89.31.1.EL)"
else t_ko rhel4-rpm-release-order "rpm.vercmp gave '$order'"; fi
# shellcheck disable=SC2016 # the spec's text
if grep -q '^    KernelVer=%{version}-%{release}\$1$' "$admin/SPECS/kernel-2.6.spec"; then
	t_ok "rhel4-rpm-uname (the spec's KernelVer: 2.6.9-${want_rel}smp)"
else t_ko rhel4-rpm-uname "the spec has no KernelVer=%{version}-%{release}\$1"; fi

# the packages install beside Red Hat's: every path of the spec's %files
# (x86_64) has the version-release in it (KVERREL, which RHEL 4's rpm
# expands; rpm 4.18 leaves %{PACKAGE_VERSION} as it is), but the kABI
# directories, which every kernel of that kABI owns
HOME=$home rpmspec -P --target x86_64 "$admin/SPECS/kernel-2.6.spec" 2> /dev/null |
	awk '/^%files/ { f = 1; next } /^%(changelog|post|pre|preun|postun|package|description|prep|build|install|clean)/ { f = 0 }
	f && / \/|^\// { print }' > "$work/files"
# shellcheck disable=SC2016 # the spec's macros, not the shell's
odd=$(grep -v -F '%{PACKAGE_VERSION}-%{PACKAGE_RELEASE}' "$work/files" | grep -v '^%dir /lib/modules/kabi-[0-9.]*-[0-9]*[a-z]*$' | head -n 1)
if [ -s "$work/files" ] && [ -z "$odd" ]; then
	t_ok "rhel4-rpm-files-carry-the-release ($(grep -c . "$work/files") paths of %files)"
else t_ko rhel4-rpm-files-carry-the-release "${odd:-no %files paths}"; fi

# the tarball's line: the same patches, in the same order
line=$(grep -m1 '^(cd /path/to/cachehot/rhel4 && cat ' "$doc" || true)
tb=$(last_line "$ROOT/scripts/dist.sh" 2> "$work/dist.err") || tb=
d=$work/dist
mkdir -p "$d"
if [ -n "$line" ] && [ -n "$tb" ] && tar -xzf "$tb" -C "$d" &&
   dir=$(find "$d" -mindepth 1 -maxdepth 1 -type d -name 'cachehot-*') &&
   (cd "$work" && eval "$(printf '%s' "$line" | sed "s|/path/to/cachehot|$dir|g; s|SOURCES/|$work/|")") &&
   [ -s "$work/linux-kernel-test.patch" ]; then
	n=$(wc -c < "$work/linux-kernel-test.patch")
	head -c "$(($(wc -c < "$work/cachehot.patch") - n))" "$work/cachehot.patch" > "$work/header"
	if tail -c "$n" "$work/cachehot.patch" | cmp -s - "$work/linux-kernel-test.patch" &&
	   ! grep -q '^\(--- \|+++ \|@@ \)' "$work/header"; then
		t_ok rhel4-rpm-doc-tarball-line
	else t_ko rhel4-rpm-doc-tarball-line "its patch is not rhel4-patch.sh's without the header"; fi
else
	t_ko rhel4-rpm-doc-tarball-line "no tarball line in the doc, or it failed: ${line:-none}"
fi

# the doc's %changelog entry, read back by rpm
# shellcheck disable=SC2016 # sed addresses, not shell expansions
sed -n '/^```$/{n;/^\* [A-Z][a-z][a-z] /{:a;p;n;/^```$/q;ba};}' "$doc" > "$work/changelog"
cl_rel=$(sed -n '1s/.*\[2\.6\.9-\(.*\)\]$/\1/p' "$work/changelog")
sed "/^%changelog\$/r $work/changelog" "$admin/SPECS/kernel-2.6.spec" > "$work/cl.spec"
HOME=$home rpmspec -q --srpm --target x86_64 --qf '[* %{CHANGELOGTIME:day} %{CHANGELOGNAME}\n%{CHANGELOGTEXT}\n\n]' \
	"$work/cl.spec" 2> "$work/cl.err" | head -n "$(grep -c '' "$work/changelog")" > "$work/changelog.rpm" || true
if [ -s "$work/changelog" ] && [ "$cl_rel" = "$want_rel" ] && cmp -s "$work/changelog" "$work/changelog.rpm" &&
   ! grep -qi 'bogus\|error' "$work/cl.err"; then
	t_ok rhel4-rpm-doc-changelog
else
	t_ko rhel4-rpm-doc-changelog "entry for [2.6.9-$cl_rel], want [2.6.9-$want_rel]; rpm read back: $(head -n 1 "$work/changelog.rpm") $(grep -i 'bogus\|error' "$work/cl.err" | head -n 1)"
fi

# a patch that does not apply stops %prep
awk '!done && /^ / && prev ~ /^@@ / { print " cachehot-rpm-test: a context line that is not there"; done = 1; prev = $0; next } { print; prev = $0 }' \
	"$work/cachehot.patch" > "$admin/SOURCES/linux-kernel-test.patch"
if HOME=$home rpmbuild -bp --nodeps --target x86_64 "$admin/SPECS/kernel-2.6.spec" > "$work/bad.log" 2>&1; then
	t_ko rhel4-rpm-prep-fails-on-a-bad-patch "rpmbuild -bp succeeded with a patch that does not apply"
elif grep -q 'FAILED' "$work/bad.log"; then
	t_ok rhel4-rpm-prep-fails-on-a-bad-patch
else t_ko rhel4-rpm-prep-fails-on-a-bad-patch "it failed, but not on the patch: $(tail -n 1 "$work/bad.log")"; fi

# the 231 MB copies of the tree
rm -rf "$ref" "$admin/BUILD" "$vendor/SOURCES/linux-2.6.9.tar.bz2" "$vendor/SRPMS" \
	"$admin/SOURCES/linux-2.6.9.tar.bz2" "$admin/SRPMS" "$work/dl"
t_finish
