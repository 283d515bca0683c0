#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make help` lists every knob a user may set, with its true default:
# (a) each environment variable that a script, .ci/run or the stress test
# reads (${NAME:-...}, ${NAME-...}, ${NAME:+...}) appears in its output,
# but for the internal ones named below; (b) where a script gives a knob a
# literal default (${NAME:-literal}, or a variable the scripts set to a
# literal, as PACE_PS_DEFAULT), and where the Makefile does (NAME ?= literal),
# the knob's entry in `make help` (from "NAME=" to the next "OTHER=",
# continuation lines joined) shows that default: right after "NAME=", or as
# a word of its own further on ("(QUICK 2)"); an empty default, as "NAME="
# with nothing after it. And the version of VERSION is in it.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"
cd "$ROOT"

t_pass=0 t_fail=0 t_skipped=0
work=$BUILD/help-test
rm -rf "$work"
mkdir -p "$work"

# Not knobs: set by the Makefile for scripts/boot.sh on every boot
# (BOOT_NAME: the log's name; BOOT_SERIAL: make shell's terminal), or by
# tests/download.sh only (CACHEHOT_TEST_*: its loopback server).
internal=" BOOT_NAME BOOT_SERIAL CACHEHOT_TEST_SHA256 CACHEHOT_TEST_URL "
# Not defaults, though written as one: what bench.sh prints for no MODEL,
# and the name of faithful.sh's log when PACE_PS is unset.
notdefault=" MODEL=none PACE_PS=default "

make -s help > "$work/help"
# The knobs' code: the scripts without their comment lines.
for f in scripts/*.sh .ci/run tests/stress/*.sh; do
	grep -v '^[[:space:]]*#' "$f"
done > "$work/code"

missing=
# shellcheck disable=SC2013 # one knob a word
for k in $(grep -oE '\$\{[A-Z][A-Z0-9_]*(:-|-|:\+|\+)' "$work/code" |
	sed 's/^\${//; s/[:+-]*$//' | sort -u); do
	case $internal in *" $k "*) continue ;; esac
	grep -qw -- "$k" "$work/help" || missing="$missing $k"
done
if [ -z "$missing" ]; then t_ok help-lists-every-knob
else t_ko help-lists-every-knob "not in make help:$missing"; fi

# NAME<TAB>default: the literal defaults of the scripts and the Makefile
{
	grep -oE '\$\{[A-Z][A-Z0-9_]*:?-[^}$`"'\''(]*\}' "$work/code" |
		sed 's/^\${\([A-Z0-9_]*\):\{0,1\}-\(.*\)}$/\1	\2/'
	# a default that is a variable the scripts set to a literal once
	grep -oE '\$\{[A-Z][A-Z0-9_]*:?-\$[A-Z][A-Z0-9_]*\}' "$work/code" |
		sed 's/^\${\([A-Z0-9_]*\):\{0,1\}-\$\([A-Z0-9_]*\)}$/\1 \2/' |
		while read -r k v; do
			lit=$(sed -n "s/^$v=\\([^\$\`\"' ]*\\)\$/\\1/p" scripts/*.sh)
			[ "$(printf '%s\n' "$lit" | grep -c .)" = 1 ] ||
				{ printf '%s\t%s\n' "$k" "(\$$v: no single literal)"; continue; }
			printf '%s\t%s\n' "$k" "$lit"
		done
	sed -n 's/^\([A-Z][A-Z0-9_]*\) *?= *\([^$]*\)$/\1	\2/p' Makefile
} | sort -u > "$work/defaults"

# The knobs' entries of make help, one a line: "NAME=rest" up to the next
# " OTHER=", continuation lines (six spaces or more) joined to their line.
awk '/^      / { sub(/^ +/, " "); line = line $0; next }
	{ if (NR > 1) print line; line = $0 }
	END { print line }' "$work/help" |
	awk '{
		s = " " $0
		while (match(s, /[[:space:]][A-Z][A-Z0-9_]*=/)) {
			s = substr(s, RSTART + 1)
			n = index(s, "=")
			name = substr(s, 1, n - 1)
			rest = substr(s, n + 1)
			if (match(rest, /[[:space:]][A-Z][A-Z0-9_]*=/)) { val = substr(rest, 1, RSTART - 1); s = substr(rest, RSTART) }
			else { val = rest; s = "" }
			print name "\t" val
		}
	}' > "$work/entries"

n=0 wrong=
while IFS='	' read -r k d; do
	case $internal in *" $k "*) continue ;; esac
	case $notdefault in *" $k=$d "*) continue ;; esac
	n=$((n + 1))
	if ! awk -F '\t' -v k="$k" -v d="$d" '
		$1 != k { next }
		d == "" { if ($2 == "" || $2 ~ /^[[:space:]]/) f = 1; next }
		index($2, d) == 1 && (length($2) == length(d) || substr($2, length(d) + 1, 1) ~ /[[:space:]]/) { f = 1; next }
		{
			v = $2; off = 0
			while ((i = index(v, d)) > 0) {
				b = substr(v, i - 1, 1); a = substr(v, i + length(d), 1)
				if (i > 1 && b ~ /[[:space:](]/ && (a == "" || a ~ /[[:space:]),;:]/)) { f = 1; break }
				v = substr(v, i + 1)
			}
		}
		END { exit !f }' "$work/entries"; then
		wrong="$wrong $k=${d:-(empty)}"
	fi
done < "$work/defaults"
if [ "$n" -ge 40 ] && [ -z "$wrong" ]; then t_ok help-shows-each-default
else t_ko help-shows-each-default "$n defaults; not shown in make help:$wrong"; fi

if grep -qF "cachehot $(cat VERSION)" "$work/help"; then t_ok help-says-the-version
else t_ko help-says-the-version "no 'cachehot $(cat VERSION)' in make help"; fi
t_finish
