#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# boot-cmdline.sh: scripts/boot.sh boots a kernel command line of up to 255
# characters, all of it, and refuses a longer one before QEMU starts (2.6.9
# keeps 255 and drops the rest without a word). A fake qemu-system-x86_64
# (first on PATH) records the -append it was given, so no kernel boots
# here. Last line: "N passed, M failed".
set -eu
ROOT=$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
npass=0 nfail=0
pass() { echo "PASS $1"; npass=$((npass + 1)); }
fail() { echo "FAIL $1: $2"; nfail=$((nfail + 1)); }

mkdir "$tmp/bin"
: > "$tmp/image"
: > "$tmp/initrd"
cat > "$tmp/bin/qemu-system-x86_64" <<'EOF'
#!/bin/sh
log= append=
prev=
for a in "$@"; do
	case $a in file:*) log=${a#file:} ;; esac
	[ "$prev" != -append ] || append=$a
	prev=$a
done
printf '%s' "$append" > "$FAKE_DIR/append"
printf 'Linux version 2.6.9\r\nGUEST PASS fake\r\nGUEST END\r\n' > "$log"
EOF
chmod +x "$tmp/bin/qemu-system-x86_64"

# run CASE WORDS...: boot.sh's exit status in $rc, its stderr in $tmp/CASE.err,
# the -append QEMU got in $append ("" if QEMU did not start)
run() {
	_c=$1; shift
	rm -f "$tmp/append"
	rc=0
	env PATH="$tmp/bin:$PATH" FAKE_DIR="$tmp" BUILD_DIR="$tmp/build" \
		BOOT_NAME="$_c" CHHZ=1000 \
		sh "$ROOT/scripts/boot.sh" "$tmp/image" "$tmp/initrd" smp "$@" \
		> "$tmp/$_c.out" 2> "$tmp/$_c.err" < /dev/null || rc=$?
	append=$(cat "$tmp/append" 2>/dev/null || true)
}
# word N: a word of N characters, x=yyy...
word() { printf 'x='; i=2; while [ $i -lt "$1" ]; do printf y; i=$((i + 1)); done; }

run base
base=${#append}
if [ "$rc" = 0 ] && [ "$base" -gt 0 ]; then
	pass "cmdline-base ($base characters)"
else
	fail cmdline-base "rc=$rc, -append '$append': $(tail -n 1 "$tmp/base.err")"
fi

# A word that makes the line exactly 255 characters reaches QEMU whole. The
# words go before chk=, so the line is the base one with " WORD" inserted.
w=$(word $((255 - base - 1)))
run fits "$w"
case $append in
*" $w "*) ok=1 ;;
*) ok=0 ;;
esac
if [ "$rc" = 0 ] && [ "${#append}" = 255 ] && [ "$ok" = 1 ]; then
	pass cmdline-255-boots
else
	fail cmdline-255-boots "rc=$rc, ${#append} characters: $(tail -n 1 "$tmp/fits.err")"
fi

# One character more is refused, with the length, and QEMU never starts.
run long "$(word $((256 - base - 1)))"
if [ "$rc" != 0 ] && [ -z "$append" ] &&
   grep -q 'command line is 256 characters, 2.6.9 keeps 255' "$tmp/long.err"; then
	pass cmdline-256-refused
else
	fail cmdline-256-refused "rc=$rc, QEMU got ${#append} characters: $(tail -n 1 "$tmp/long.err")"
fi

echo "$npass passed, $nfail failed"
[ "$nfail" = 0 ]
