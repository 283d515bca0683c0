#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host test of the download path of scripts/get-source.sh (the one that
# fetches linux-2.6.9.tar.bz2 from kernel.org when nothing is local), run
# against python3's http.server on 127.0.0.1 (tests/download/server.py),
# started and killed here, with get-source.sh's test-only override
# (CACHEHOT_TEST_URL, CACHEHOT_TEST_SHA256). Every run of get-source.sh gets
# its own empty scratch cache under build/download-test/, so the real cache
# is never written, and is bounded by `timeout`. Checked, with curl and with
# wget (get-source.sh's fallback) where it matters:
#  - the override is refused unless the URL is http://127.0.0.1:PORT/;
#  - a served file whose sha256 does not match is refused and deleted;
#  - an interrupted download (the server closes mid-file) fails and leaves
#    nothing in the cache;
#  - a tarball whose checksum matches but whose tree is not the pristine one
#    is refused by the git tree id, and deleted;
#  - a matching pristine tarball (a bzip2 of the verified pristine tree, made
#    once and kept in build/) is accepted, unpacked and verified (curl only).
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

need_cmd python3
need_cmd curl
need_cmd wget
need_cmd bzip2

ok() { t_ok "download-$1"; }
ko() { t_ko "download-$1" "$2"; }

work=$BUILD/download-test
www=$work/www
rm -rf "$www" "$work/caches" "$work/no-curl-bin" "$work/tampered"
mkdir -p "$www" "$work/caches"

# The matching tarball: the verified pristine tree (from the real lookup,
# read only) as linux-2.6.9/..., bzip2-compressed like the official one.
# About 20 s of CPU, so it is kept, keyed on the tree it was made from.
src=$(last_line "$ROOT/scripts/get-source.sh")
good=$work/pristine.tar.bz2
if [ ! -f "$good" ] || [ "$(cat "$good.from" 2>/dev/null)" != "$src $PRISTINE_TREE_ID" ]; then
	msg "making $good from $src (once)"
	rm -f "$good" "$good.from"
	# S, H: rename members, never the targets of symbolic or hard links.
	(tar -C "$src" --transform 's,^\.,linux-2.6.9,SH' -cf - . || echo tar-failed) |
		nice bzip2 -9 > "$good.tmp"
	bzip2 -dc "$good.tmp" | tar -tf - > /dev/null 2>&1 || die "could not make $good"
	mv "$good.tmp" "$good"
	echo "$src $PRISTINE_TREE_ID" > "$good.from"
fi
good_sha=$(sha256sum "$good" | cut -d' ' -f1)
ln -f "$good" "$www/linux-2.6.9.tar.bz2" 2>/dev/null || cp "$good" "$www/linux-2.6.9.tar.bz2"
# Not a tarball at all (the official name's checksum must refuse it).
head -c 100000 /dev/urandom > "$www/junk.tar.bz2"
junk_sha=$(sha256sum "$www/junk.tar.bz2" | cut -d' ' -f1)
# A tarball that unpacks, but to one file of the tree, changed.
mkdir -p "$work/tampered/linux-2.6.9/kernel"
sed '1s/^./#/' "$src/kernel/sched.c" > "$work/tampered/linux-2.6.9/kernel/sched.c"
tar -C "$work/tampered" -cjf "$www/tampered.tar.bz2" linux-2.6.9
tampered_sha=$(sha256sum "$www/tampered.tar.bz2" | cut -d' ' -f1)

# wget is get-source.sh's fallback when there is no curl: a PATH of links to
# every command except curl (cp -s: one process, not one ln per command;
# -n: the first directory of PATH order wins; subdirectories are skipped).
nc=$work/no-curl-bin
mkdir -p "$nc"
for d in /usr/local/bin /usr/bin /bin; do
	if [ -d "$d" ]; then cp -sn "$d"/* "$nc"/ 2> /dev/null || true; fi
done
rm -f "$nc/curl"
for c in sh wget git tar bzip2 sha256sum flock timeout; do
	[ -x "$nc/$c" ] || die "could not make a PATH without curl in $nc: no $c"
done

# The server: loopback only, a free port, gone after 10 minutes at most
# even if this script is killed before its trap runs.
rm -f "$work/port"
python3 "$ROOT/tests/download/server.py" "$www" "$work/port" 600 2> "$work/server.log" &
server=$!
trap 'kill "$server" 2> /dev/null || true' EXIT
trap 'exit 1' HUP INT TERM
i=0
while [ ! -s "$work/port" ]; do
	kill -0 "$server" 2> /dev/null || die "the test server did not start: $(tail -n 1 "$work/server.log")"
	i=$((i + 1)); [ "$i" -le 100 ] || die "the test server did not start within 10 s"
	sleep 0.1
done
base=http://127.0.0.1:$(cat "$work/port")

# run NAME URL SHA256 [PATH] [KERNEL_TARBALL]: get-source.sh in the empty
# scratch cache $work/caches/NAME (C), with only the test's variables;
# stdout and stderr in $work/NAME.out/.err, exit status in rc.
run() {
	C=$work/caches/$1
	rm -rf "$C"; mkdir -p "$C"
	rc=0
	env -u KERNEL_SRC -u KERNEL_TARBALL ${5:+KERNEL_TARBALL="$5"} \
		XDG_CACHE_HOME="$C" CACHEHOT_TEST_URL="$2" CACHEHOT_TEST_SHA256="$3" \
		PATH="${4:-$PATH}" timeout 300 "$ROOT/scripts/get-source.sh" \
		> "$work/$1.out" 2> "$work/$1.err" || rc=$?
}
# left: the files that the last run left in its cache, its lock file aside.
left() { find "$C/cachehot" -mindepth 1 ! -type d ! -name .get-source.lock 2> /dev/null | head -n 3 | tr '\n' ' '; }
# served PATH: how many times the server answered GET PATH.
served() { grep -c "\"GET $1 HTTP" "$work/server.log" || true; }
# err NAME: the last line of NAME's stderr, for a FAIL line.
err() { tail -n 1 "$work/$1.err"; }

# The override is refused, before any lookup or network access, unless it
# names the loopback server (KERNEL_TARBALL, missing, would fail otherwise).
for u in http://example.invalid/linux-2.6.9.tar.bz2 \
	http://127.0.0.1:80@example.invalid/linux-2.6.9.tar.bz2 \
	http://127.0.0.1.example.invalid:80/x https://127.0.0.1:443/x; do
	run refuse-url "$u" "" "" /nonexistent.tar
	if [ "$rc" != 0 ] && grep -q 'must come from http://127.0.0.1:PORT/' "$work/refuse-url.err" &&
		[ -z "$(left)" ]; then ok "override-refused-for $u"
	else ko "override-refused-for $u" "exit $rc: $(err refuse-url)"; fi
done
run refuse-sha "" "$good_sha" "" /nonexistent.tar
if [ "$rc" != 0 ] && grep -q 'CACHEHOT_TEST_SHA256 is honoured only with CACHEHOT_TEST_URL' "$work/refuse-sha.err"; then
	ok "checksum-override-refused-without-test-url"
else ko "checksum-override-refused-without-test-url" "exit $rc: $(err refuse-sha)"; fi

for dlr in curl wget; do
	p=; [ "$dlr" = wget ] && p=$nc
	# A served file with the wrong checksum (the real one applies: no
	# CACHEHOT_TEST_SHA256) is downloaded, refused and deleted.
	n0=$(served /junk.tar.bz2)
	run mismatch-$dlr "$base/junk.tar.bz2" "" "$p"
	if [ "$(served /junk.tar.bz2)" = "$n0" ]; then ko "checksum-mismatch-refused-$dlr" "the server never sent the file"
	elif [ "$rc" = 0 ]; then ko "checksum-mismatch-refused-$dlr" "accepted: $(tail -n 1 "$work/mismatch-$dlr.out")"
	elif ! grep -q "sha256 $junk_sha, expected $OFFICIAL_SHA256" "$work/mismatch-$dlr.err"; then
		ko "checksum-mismatch-refused-$dlr" "refused, but not for its sha256: $(err "mismatch-$dlr")"
	elif [ -n "$(left)" ]; then ko "checksum-mismatch-refused-$dlr" "refused but left in the cache: $(left)"
	else ok "checksum-mismatch-refused-$dlr"; fi

	# The server announces the whole pristine tarball, sends half and
	# hangs up; the checksum would match the whole file.
	n0=$(served /cut/linux-2.6.9.tar.bz2)
	run cut-$dlr "$base/cut/linux-2.6.9.tar.bz2" "$good_sha" "$p"
	if [ "$(served /cut/linux-2.6.9.tar.bz2)" = "$n0" ]; then ko "interrupted-leaves-nothing-$dlr" "the server never sent the file"
	elif [ "$rc" = 0 ]; then ko "interrupted-leaves-nothing-$dlr" "accepted: $(tail -n 1 "$work/cut-$dlr.out")"
	elif ! grep -q "download of $base/cut/linux-2.6.9.tar.bz2 failed" "$work/cut-$dlr.err"; then
		ko "interrupted-leaves-nothing-$dlr" "not reported as a failed download: $(err "cut-$dlr")"
	elif [ -n "$(left)" ]; then ko "interrupted-leaves-nothing-$dlr" "left in the cache: $(left)"
	else ok "interrupted-leaves-nothing-$dlr"; fi
done

# Checksum right (the test's), tree wrong: the tree id refuses it, and
# neither the download nor its unpacked tree stays.
run tampered "$base/tampered.tar.bz2" "$tampered_sha"
if [ "$rc" = 0 ]; then ko "wrong-tree-refused" "accepted: $(tail -n 1 "$work/tampered.out")"
elif ! grep -q 'is NOT the pristine 2.6.9 tree' "$work/tampered.err"; then
	ko "wrong-tree-refused" "refused, but not by its tree id: $(err tampered)"
elif [ -n "$(left)" ]; then ko "wrong-tree-refused" "refused but left in the cache: $(left)"
else ok "wrong-tree-refused"; fi

# The pristine tarball with the test's checksum: downloaded, checked,
# unpacked into the scratch cache, verified by tree id, stamped. With curl
# only: unpacking and hashing 200 MB is the same code after either
# downloader, and wget's bytes were checked above (the sha256 it reported
# is the served file's).
run good "$base/linux-2.6.9.tar.bz2" "$good_sha"
t=$(tail -n 1 "$work/good.out")
case $t in "$C"/cachehot/src/*) in_cache=1 ;; *) in_cache= ;; esac
if [ "$rc" != 0 ]; then ko "matching-accepted" "exit $rc: $(err good)"
elif [ -z "$in_cache" ] || [ ! -f "$t/kernel/sched.c" ]; then
	ko "matching-accepted" "no unpacked tree in the scratch cache: '$t'"
elif ! grep -q "verifying $t (git tree id" "$work/good.err" ||
	[ "$(cat "$t.verified" 2>/dev/null)" != "$PRISTINE_TREE_ID" ]; then
	ko "matching-accepted" "the unpacked tree was not verified by its tree id"
elif [ ! -f "$C/cachehot/test-download.tar.bz2" ] || [ -e "$C/cachehot/linux-2.6.9.tar.bz2" ]; then
	ko "matching-accepted" "not kept as test-download.tar.bz2 (the official name is for the official file)"
else ok "matching-accepted"; fi
rm -rf "$work/caches"

t_finish
