#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check.sh: the test matrix of `make check`. Every check prints
# "PASS <name>" or "FAIL <name>: <why>"; the last line is "N passed, M failed";
# the exit status is non-zero if anything failed.
# Sections (CHECK_SECTIONS="1 2 ..." runs a subset):
#   1 shellcheck   2 source verification   3 series hygiene (+ checkpatch)
#   4 build matrix (patched, unpatched, no new warnings; sparse on x86)
#   5 bisect (one config per arch: BISECT_CONFIGS)
#   6 boot matrix (tests/boot-cases) and host tests (tests/*.sh)
# Progress goes to stderr; full logs stay under build/.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"
cd "$ROOT"

sections=${CHECK_SECTIONS:-1 2 3 4 5 6}
npass=0 nfail=0 nskip=0
pass() { echo "PASS $1"; npass=$((npass + 1)); }
fail() { echo "FAIL $1: $2"; nfail=$((nfail + 1)); }
want() { case " $sections " in *" $1 "*) return 0 ;; esac; return 1; }
work=$BUILD/check
mkdir -p "$work"

feature=$(series_names series patches/)
toolchain=$(series_names toolchain/series toolchain/)
nfeature=$(printf '%s' "$feature" | grep -c . || true)
# The RHEL 4 flavour: its own series files, whose entries name their
# directory; the patches only it has are checked like the others.
rfeature=$(series_paths series-rhel4)
rtoolchain=$(series_paths toolchain-rhel4/series)
ronly=$(printf '%s\n' "$rfeature" "$rtoolchain" | grep -E '^(patches|toolchain)-rhel4/' || true)

# ---- 1: shellcheck
if want 1; then
	msg "check 1/6: shellcheck"
	need_cmd shellcheck
	for f in scripts/*.sh tests/*.sh tests/*/*.sh .ci/run; do
		[ -f "$f" ] || continue
		if out=$(shellcheck -x "$f" 2>&1); then pass "shellcheck $f"
		else fail "shellcheck $f" "$(printf '%s' "$out" | grep -m1 'SC[0-9]')"; fi
	done
fi

# ---- 2: source verification
if want 2; then
	msg "check 2/6: source verification"
	if src=$(last_line scripts/get-source.sh 2> "$work/source.err") && [ -d "$src" ]; then
		pass "source-verifies"
	else
		fail "source-verifies" "$(tail -n 1 "$work/source.err")"; src=
	fi
	if [ -n "$src" ]; then
		# A hard-linked copy with one file replaced by a one-byte variant.
		t=$work/tampered
		rm -rf "$t"; cp -al "$src" "$t"
		cp "$t/kernel/sched.c" "$work/sched.c.orig"; rm "$t/kernel/sched.c"
		sed '1s/^./#/' "$work/sched.c.orig" > "$t/kernel/sched.c"
		if KERNEL_SRC=$t scripts/get-source.sh > /dev/null 2> "$work/tamper.err"; then
			fail "source-one-byte-change-refused" "a modified tree was accepted"
		elif grep -q 'kernel/sched.c' "$work/tamper.err"; then
			pass "source-one-byte-change-refused"
		else
			fail "source-one-byte-change-refused" "refused without naming kernel/sched.c"
		fi
		rm -rf "$t"
	fi
	# Corrupt tarballs, in a scratch cache so the real one is untouched.
	sc=$work/scratch-cache; rm -rf "$sc"; mkdir -p "$sc"
	head -c 100000 /dev/urandom > "$sc/linux-2.6.9.tar.bz2"
	if XDG_CACHE_HOME=$sc KERNEL_TARBALL=$sc/linux-2.6.9.tar.bz2 scripts/get-source.sh > /dev/null 2> "$work/corrupt.err"; then
		fail "source-corrupt-official-tarball-refused" "accepted"
	elif grep -q sha256 "$work/corrupt.err"; then pass "source-corrupt-official-tarball-refused"
	else fail "source-corrupt-official-tarball-refused" "$(tail -n 1 "$work/corrupt.err")"; fi
	tb=$(find "$CACHE" -maxdepth 1 -name 'linux-2.6.9.tar' | head -n 1)
	if [ -n "$tb" ]; then
		head -c 20000000 "$tb" > "$sc/linux-2.6.9.tar"
		if XDG_CACHE_HOME=$sc KERNEL_TARBALL=$sc/linux-2.6.9.tar scripts/get-source.sh > /dev/null 2> "$work/trunc.err"; then
			fail "source-truncated-tarball-refused" "accepted"
		else pass "source-truncated-tarball-refused"; fi
	fi
	rm -rf "$sc"
	# No qemu on PATH: a PATH of links to every command except qemu-system-*.
	nb=$work/no-qemu-bin; rm -rf "$nb"; mkdir -p "$nb"
	for d in /usr/local/bin /usr/bin /bin; do
		for c in "$d"/*; do
			n=${c##*/}
			case $n in qemu-system-*) continue ;; esac
			[ -e "$nb/$n" ] || ln -s "$c" "$nb/$n"
		done
	done
	: > "$work/dummy-image"
	if PATH=$nb CACHEHOT_NO_INSTALL=1 scripts/boot.sh "$work/dummy-image" "$work/dummy-image" up > /dev/null 2> "$work/noqemu.err"; then
		fail "missing-qemu-clear-message" "boot.sh succeeded without qemu"
	elif grep -q 'qemu-system-x86_64 not found.*apt-get install -y qemu-system-x86' "$work/noqemu.err"; then
		pass "missing-qemu-clear-message"
	else
		fail "missing-qemu-clear-message" "$(tail -n 1 "$work/noqemu.err")"
	fi
	rm -rf "$nb" "$work/dummy-image"
fi

# ---- 3: series hygiene
if want 3; then
	msg "check 3/6: series hygiene ($nfeature feature patches)"
	src=$(last_line scripts/get-source.sh)
	t=$work/apply-pristine
	rm -rf "$t"; cp -a "$src" "$t"
	if [ "$nfeature" = 0 ]; then
		pass "series-applies-to-pristine (empty series)"
	elif (cd "$t" && QUILT_PATCHES=$ROOT/patches QUILT_SERIES=$ROOT/series QUILT_PC=.pc \
		quilt --quiltrc=/dev/null push -a --fuzz=0) > "$work/apply.log" 2>&1; then
		pass "series-applies-to-pristine"
	else
		fail "series-applies-to-pristine" "$(grep -m1 -i 'fail\|does not\|error' "$work/apply.log")"
	fi
	rm -rf "$t"
	for p in $toolchain $feature $ronly; do
		if [ ! -f "$p" ]; then fail "patch-format $p" "missing file"; continue; fi
		head=$(sed '/^---$/q' "$p")
		why=
		printf '%s\n' "$head" | grep -q '^Subject: .' || why="${why}no Subject; "
		# The message: non-blank lines between Subject and Signed-off-by.
		body=$(printf '%s\n' "$head" | sed -n '/^Subject:/,/^Signed-off-by:/p' | sed '1d;$d' | grep -c '[^[:space:]]' || true)
		[ "$body" -gt 0 ] || why="${why}empty message; "
		printf '%s\n' "$head" | grep -q '^Signed-off-by: .*<.*@.*>' || why="${why}no Signed-off-by; "
		printf '%s\n' "$head" | grep -q '^---$' || why="${why}no --- separator; "
		sed -n '/^---$/,/^--- a\//p' "$p" | grep -Eq '[0-9]+ files? changed' || why="${why}no diffstat; "
		grep -q '^+++ b/' "$p" || why="${why}not a -p1 a/ b/ diff; "
		if [ -z "$why" ]; then pass "patch-format $p"; else fail "patch-format $p" "${why%; }"; fi
	done
	# The kernel's own scripts/checkpatch.pl (Linux 6.1's, fetched once from
	# Debian's linux-source-6.1 by scripts/checkpatch.sh) on every patch,
	# with the options and ignore list for a 2004 tree given there.
	# shellcheck disable=SC2086 # one word per patch
	scripts/checkpatch.sh $toolchain $feature $ronly > "$work/checkpatch.out" 2> "$work/checkpatch.err" || true
	ncp=0
	while IFS= read -r l; do
		case $l in
		'PASS '*) pass "${l#PASS }"; ncp=$((ncp + 1)) ;;
		'FAIL '*) r=${l#FAIL }; fail "${r%%: *}" "${r#*: }"; ncp=$((ncp + 1)) ;;
		esac
	done < "$work/checkpatch.out"
	ntotal=$(printf '%s\n' "$toolchain" "$feature" "$ronly" | grep -c . || true)
	# No verdict at all (checkpatch.pl could not be fetched) is a failure too.
	[ "$ncp" = "$ntotal" ] ||
		fail "checkpatch" "$ncp of $ntotal patches checked: $(tail -n 1 "$work/checkpatch.err")"
	# The mergeable series' weight: what its .c/.h hunks add, at most 240
	# lines (the job done in 2.6.9's idiom; a reviewer's bound: about 220,
	# before the boot log named each level's source, sysctl(2) fetched a
	# value once and i386's boot line was mended).
	added=0
	for p in $feature; do
		[ -f "$p" ] || continue
		n=$(awk '/^\+\+\+ /{c=($2 ~ /\.[ch]$/)} /^\+/ && !/^\+\+\+ / && c {n++} END{print n+0}' "$p")
		added=$((added + n))
	done
	if [ "$added" -le 240 ]; then pass "series-adds-at-most-240-c-h-lines ($added)"
	else fail "series-adds-at-most-240-c-h-lines" "$added lines added to .c/.h files"; fi
	# A 2005 reader checks what a message cites: no emulator, guest or
	# model machine of this project, no kernel later than 2.6.9.
	cites=$(for p in $feature; do
		[ -f "$p" ] || continue
		{ sed '/^---$/q' "$p"; grep '^+' "$p"; } |
			grep -inE 'qemu|\btcg\b|guest|emulat|calibrat|model machine|2\.6\.(1[0-9]|[2-9][0-9])|later kernel' |
			sed "s|^|$p:|"
	done)
	if [ -z "$cites" ]; then pass "series-cites-what-2005-can-check"
	else fail "series-cites-what-2005-can-check" "$(printf '%s\n' "$cites" | head -n 1)"; fi
	# disjoint NAME "TOOLCHAIN" "FEATURE": no file both sets touch
	disjoint() {
		: > "$work/tc-files"; : > "$work/ft-files"
		for p in $2; do [ -f "$p" ] && patch_files "$p" >> "$work/tc-files"; done
		for p in $3; do [ -f "$p" ] && patch_files "$p" >> "$work/ft-files"; done
		both=$(sort -u "$work/tc-files" | comm -12 - <(sort -u "$work/ft-files") | tr '\n' ' ')
		if [ -z "$both" ]; then pass "$1"
		else fail "$1" "both touch: $both"; fi
	}
	disjoint toolchain-and-feature-touch-disjoint-files "$toolchain" "$feature"
	disjoint rhel4-toolchain-and-feature-touch-disjoint-files "$rtoolchain" "$rfeature"
fi

# build CONFIG [OPTS...]: run build-kernel.sh, keep its output in a log.
build() {
	_l=$work/build-$1${2:+-${2#--}}${3:+-$3}.log
	scripts/build-kernel.sh "$@" > "$_l" 2>&1
}

# sparse_gate CONFIG: scripts/sparse.sh CONFIG; its PASS/FAIL lines count.
sparse_gate() {
	msg "check 4/6: sparse $1 (scripts/sparse.sh)"
	_rc=0
	scripts/sparse.sh "$1" > "$work/sparse-$1.out" 2> "$work/sparse-$1.err" || _rc=$?
	_nv=0 _nf=0
	while IFS= read -r _l; do
		case $_l in
		'PASS '*) pass "${_l#PASS }"; _nv=$((_nv + 1)) ;;
		'FAIL '*) _r=${_l#FAIL }; fail "${_r%%: *}" "${_r#*: }"; _nv=$((_nv + 1)) _nf=$((_nf + 1)) ;;
		esac
	done < "$work/sparse-$1.out"
	# No verdict, or an exit status that its verdicts do not explain, fails.
	if [ "$_nv" = 0 ] || { [ "$_rc" != 0 ] && [ "$_nf" = 0 ]; }; then
		fail "sparse $1" "exit status $_rc, $_nv verdicts: $(tail -n 1 "$work/sparse-$1.err") (log: build/check/sparse-$1.err)"
	fi
}

# ---- 4: build matrix
# Sparse (scripts/sparse.sh) runs on the configs of x86_64 and i386 that
# compile every .c file of the series, sysctl handlers included.
sparse_configs="x86_64-smp i386-smp"
if want 4; then
	for cfg in configs/*.config; do
		c=$(basename "$cfg" .config)
		# ia64 needs the cross gcc that scripts/build-ia64-toolchain.sh builds
		# from Debian's gcc-12 source (instant once in the cache, 10-15 min
		# the first time). It is never skipped: no compiler is a failure.
		if [ "$(config_arch "$c")" = ia64 ]; then
			msg "check 4/6: ia64 cross compiler (scripts/build-ia64-toolchain.sh)"
			if scripts/build-ia64-toolchain.sh > "$work/ia64-toolchain.log" 2>&1; then
				pass "ia64-toolchain"
			else
				fail "ia64-toolchain" "$(grep -m1 -i 'error' "$work/ia64-toolchain.log" || tail -n 1 "$work/ia64-toolchain.log") (log: build/check/ia64-toolchain.log)"
				fail "build $c" "no ia64 cross compiler"
				continue
			fi
		fi
		msg "check 4/6: build $c (patched, then unpatched)"
		okp=0 oku=0
		if build "$c"; then pass "build $c"; okp=1
		else fail "build $c" "see build/$c/logs/build.log"; fi
		if build "$c" --unpatched; then pass "build $c.unpatched"; oku=1
		else fail "build $c.unpatched" "see build/$c.unpatched/logs/build.log"; fi
		if [ "$okp" = 1 ] && [ "$oku" = 1 ]; then
			# build-kernel.sh sorts warnings.txt in the C locale
			new=$(LC_ALL=C comm -13 "$BUILD/$c.unpatched/logs/warnings.txt" "$BUILD/$c/logs/warnings.txt")
			if [ -z "$new" ]; then pass "no-new-warnings $c"
			else
				printf '%s\n' "$new" > "$BUILD/$c/logs/new-warnings.txt"
				fail "no-new-warnings $c" "$(printf '%s\n' "$new" | wc -l) new (build/$c/logs/new-warnings.txt): $(printf '%s\n' "$new" | head -n 1)"
			fi
		fi
		# Sparse needs both trees built.
		case " $sparse_configs " in
		*" $c "*) [ "$okp$oku" != 11 ] || sparse_gate "$c" ;;
		esac
	done
fi

# ---- 5: bisect: every prefix of the feature series builds, on one config
# per arch, the one that compiles the most of the series (SMP, NUMA,
# SYSCTL, PROC_FS, SCHEDSTATS where the arch has them); section 4 builds
# the whole series on every config. Incremental, in build/<config>.bisect;
# ccache makes repeats cheap. BISECT_CONFIGS="..." names others.
bisect_configs=${BISECT_CONFIGS:-x86_64-smp i386-smp ia64-sim rhel4-x86_64-smp rhel4-i386-smp rhel4-ia64}
if want 5; then
	for c in $bisect_configs; do
		[ -f "configs/$c.config" ] || { fail "bisect $c" "no configs/$c.config"; continue; }
		if [ "$(config_arch "$c")" = ia64 ] && ! scripts/build-ia64-toolchain.sh > /dev/null 2>&1; then
			fail "bisect $c" "no ia64 cross compiler (see build/check/ia64-toolchain.log)"
			continue
		fi
		nf=$nfeature
		[ "$(kernel_base "$c")" != rhel4 ] || nf=$(printf '%s\n' "$rfeature" | grep -c . || true)
		for n in $(seq 0 "$nf"); do
			msg "check 5/6: bisect $c with the first $n of $nf feature patches"
			if build "$c" --patches "$n"; then pass "bisect $c patches 1..$n"
			else fail "bisect $c patches 1..$n" "$(grep -m1 'error' "$work/build-$c-patches-$n.log")"; fi
		done
	done
fi

# ---- 6: boot matrix and host tests
if want 6; then
	[ -f tests/boot-cases ] || fail "boot-cases" "tests/boot-cases is missing"
	while read -r name cfg topo extra; do
		case $name in ''|'#'*) continue ;; esac
		msg "check 6/6: boot $name ($cfg, $topo${extra:+, $extra})"
		# RHEL4_FLOOR=0 (a word of the case): a knob of the build, not
		# a word of the kernel's command line
		floor=${RHEL4_FLOOR:-1}
		case " $extra " in *" RHEL4_FLOOR=0 "*) floor=0; extra=$(printf '%s\n' "$extra" | sed 's/RHEL4_FLOOR=0//') ;; esac
		if ! img=$(RHEL4_FLOOR=$floor last_line scripts/build-kernel.sh "$cfg" 2> "$work/boot-build-$name.log"); then
			fail "boot $name" "kernel $cfg does not build"; continue
		fi
		arch=$(config_arch "$cfg")
		initrd=$(last_line scripts/make-initramfs.sh "$arch" 2>> "$work/boot-build-$name.log") ||
			{ fail "boot $name" "initramfs for $arch does not build"; continue; }
		# shellcheck disable=SC2086 # extra: kernel words, split on purpose
		# The boot passes when the kernel came up and the guest ran to
		# its end; a boot.sh failure that is only the guest's own FAIL
		# lines is counted once, by those lines below.
		if BOOT_NAME=$name scripts/boot.sh "$img" "$initrd" "$topo" $extra > "$work/boot-$name.out" 2> "$work/boot-$name.err" < /dev/null; then
			pass "boot $name"
		elif tail -n 1 "$work/boot-$name.err" | grep -Eq 'failed after [0-9]+s: [0-9]+ GUEST FAIL line\(s\)'; then
			pass "boot $name"
		else
			fail "boot $name" "$(tail -n 1 "$work/boot-$name.err") (console: build/boot-logs/$name.log)"
		fi
		# A boot that boot.sh retried (host load) is shown, not
		# hidden and not counted: the line starts with INFO, not PASS/FAIL.
		grep '^INFO boot ' "$work/boot-$name.err" || true
		log=$BUILD/boot-logs/$name.log
		[ -f "$log" ] || continue
		while IFS= read -r l; do
			l=${l%$'\r'}
			case $l in
			'GUEST PASS '*) pass "$name/${l#GUEST PASS }" ;;
			'GUEST FAIL '*) r=${l#GUEST FAIL }; fail "$name/${r%%:*}" "${r#*: }" ;;
			esac
		done < "$log"
	done < tests/boot-cases
	# Every tests/*.sh runs (a lost x bit must not skip it); its counts are
	# added, and a non-zero exit that its counts do not explain is a failure.
	for t in tests/*.sh; do
		[ -f "$t" ] || continue
		msg "check 6/6: host test $t"
		out=$work/host-$(basename "$t").out
		rc=0
		sh "$t" > "$out" 2>&1 || rc=$?
		sed '$d' "$out" | grep -E '^(PASS|FAIL|SKIP|INFO) ' || true
		last=$(tail -n 1 "$out")
		if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed(,\ ([0-9]+)\ skipped)?$ ]]; then
			npass=$((npass + BASH_REMATCH[1])); nfail=$((nfail + BASH_REMATCH[2]))
			nskip=$((nskip + ${BASH_REMATCH[4]:-0}))
			if [ "$rc" != 0 ] && [ "${BASH_REMATCH[2]}" = 0 ]; then
				fail "host-test $t" "exit status $rc with 0 failed counted (log: build/check/$(basename "$out"))"
			fi
		else
			fail "host-test $t" "no 'N passed, M failed' last line: $last"
		fi
	done
fi

# A skipped check is neither passed nor failed; it is said.
if [ "$nskip" = 0 ]; then echo "$npass passed, $nfail failed"
else echo "$npass passed, $nfail failed, $nskip skipped"; fi
[ "$nfail" = 0 ]
