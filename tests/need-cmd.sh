#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host check of need_cmd's install path (scripts/lib.sh), which a machine
# that already has every package never takes, and of the one package list
# (scripts/packages) that the scripts and .ci/run share. Nothing on the
# machine changes: apt-get, apt-cache, dpkg, dpkg-query and id are PATH
# stubs that record their calls, and the commands of scripts/packages are
# hidden from PATH.
# Last line: "N passed, M failed".
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

work=$BUILD/need-cmd
rm -rf "$work"
mkdir -p "$work/bin" "$work/stub"

# bin: links to every command of the machine, minus the stubbed ones and
# the commands scripts/packages lists (so that need_cmd finds them missing).
for d in /usr/local/bin /usr/bin /bin; do
	# the first directory wins, as in PATH: ln refuses a name linked already
	ln -s "$d"/* "$work/bin" 2>/dev/null || true
done
for n in apt-get apt-cache dpkg dpkg-query id $(awk '!/^#/ && NF { print $1 }' "$ROOT/scripts/packages"); do
	rm -f "$work/bin/$n"
done

# The stubs log "name [arg]..." to $STUB_LOG. id -u prints $STUB_UID; dpkg
# knows amd64 plus $STUB_FOREIGN and has no package installed; dpkg-query
# says the native package is at $STUB_NATIVE (empty: not installed);
# apt-cache knows the foreign one at $STUB_FOREIGN_VERSIONS (madison) and
# offers the last of them (policy); apt-get update exits $STUB_UPDATE_RC;
# apt-get install "installs" $STUB_PROVIDES.
cat >"$work/stub/apt-get" <<'EOF'
#!/bin/sh
{ printf 'apt-get'; printf ' [%s]' "$@"; echo; } >>"$STUB_LOG"
case $1 in
update) exit "$STUB_UPDATE_RC" ;;
install) printf '#!/bin/sh\n' >"$STUB_DIR/$STUB_PROVIDES"; chmod +x "$STUB_DIR/$STUB_PROVIDES" ;;
esac
EOF
cat >"$work/stub/dpkg" <<'EOF'
#!/bin/sh
case $1 in
--print-architecture) echo amd64 ;;
--print-foreign-architectures) [ -z "$STUB_FOREIGN" ] || echo "$STUB_FOREIGN" ;;
-s) exit 1 ;;
*) { printf 'dpkg'; printf ' [%s]' "$@"; echo; } >>"$STUB_LOG" ;;
esac
EOF
cat >"$work/stub/dpkg-query" <<'EOF'
#!/bin/sh
[ -n "${STUB_NATIVE:-}" ] || exit 1
printf '%s' "$STUB_NATIVE"
EOF
cat >"$work/stub/apt-cache" <<'EOF'
#!/bin/sh
case $1 in
madison) for v in ${STUB_FOREIGN_VERSIONS:-}; do echo "$2 | $v | http://mirror main"; done ;;
policy) echo "$2:"; echo "  Installed: (none)"
	c=none; for v in ${STUB_FOREIGN_VERSIONS:-}; do c=$v; done
	echo "  Candidate: $c" ;;
esac
EOF
cat >"$work/stub/id" <<'EOF'
#!/bin/sh
echo "$STUB_UID"
EOF
chmod +x "$work/stub/apt-get" "$work/stub/apt-cache" "$work/stub/dpkg" \
	"$work/stub/dpkg-query" "$work/stub/id"
STUB_LOG=$work/log STUB_DIR=$work/stub STUB_NATIVE='' STUB_FOREIGN_VERSIONS=''
export STUB_LOG STUB_DIR STUB_UID STUB_FOREIGN STUB_UPDATE_RC STUB_PROVIDES \
	STUB_NATIVE STUB_FOREIGN_VERSIONS

# run UID FOREIGN UPDATE_RC CMD: need_cmd CMD with the stubs; its exit
# status goes to rc, its stderr to $work/err, the stubs' calls to $work/log.
run() {
	STUB_UID=$1 STUB_FOREIGN=$2 STUB_UPDATE_RC=$3 STUB_PROVIDES=$4
	: >"$work/log"
	rm -f "$work/stub/$4"
	rc=0
	(PATH=$work/stub:$work/bin && need_cmd "$4") >/dev/null 2>"$work/err" || rc=$?
}

pass() { t_ok "$1"; }
fail() { t_ko "$1" "$2"; }
# same FILE TEXT: FILE holds exactly TEXT.
same() { [ "$(cat "$1")" = "$2" ]; }
# got: what the last run did, on one line.
got() { printf 'exit %s, calls: %s stderr: %s' "$rc" "$(tr '\n' '|' <"$work/log")" "$(tr '\n' '|' <"$work/err")"; }

# Root, i386 unknown to dpkg: add it, update, install musl-dev:i386.
t='need-cmd-root-adds-missing-arch-updates-installs'
run 0 '' 0 i386-linux-musl-gcc
if [ $rc = 0 ] && same "$work/log" "dpkg [--add-architecture] [i386]
apt-get [update]
apt-get [install] [-y] [--no-remove] [--allow-downgrades] [musl-dev:i386]"; then pass $t; else fail $t "$(got)"; fi

# Root, i386 already known: not added again.
t='need-cmd-root-known-arch-not-added-again'
run 0 i386 0 i386-linux-musl-gcc
if [ $rc = 0 ] && same "$work/log" "apt-get [update]
apt-get [install] [-y] [--no-remove] [--allow-downgrades] [musl-dev:i386]"; then pass $t; else fail $t "$(got)"; fi

# Root, apt-get update fails: a warning, and the install goes on.
t='need-cmd-update-failure-not-fatal'
run 0 '' 100 i386-linux-musl-gcc
if [ $rc = 0 ] && grep -q '^warning: apt-get update failed' "$work/err" &&
	grep -qxF 'apt-get [install] [-y] [--no-remove] [--allow-downgrades] [musl-dev:i386]' "$work/log"; then
	pass $t; else fail $t "$(got)"; fi

# Root, a package of the machine's own architecture: install only.
t='need-cmd-root-native-package-install-only'
run 0 '' 0 musl-gcc
if [ $rc = 0 ] && same "$work/log" "apt-get [install] [-y] [--no-remove] [--allow-downgrades] [musl-tools]"; then
	pass $t; else fail $t "$(got)"; fi

# A foreign package of a Multi-Arch: same pair must have the native one's
# version (a plain install once removed linux-libc-dev and libc6-dev with
# it when the foreign lists were behind): asked for at that version when
# apt knows it, else the native package is moved to the foreign candidate.
t='need-cmd-foreign-at-native-version'
STUB_NATIVE=1.2.3-1 STUB_FOREIGN_VERSIONS='1.2.3-1 1.2.4-1'
run 0 i386 0 i386-linux-musl-gcc
if [ $rc = 0 ] && grep -qxF 'apt-get [install] [-y] [--no-remove] [--allow-downgrades] [musl-dev:i386=1.2.3-1]' "$work/log"; then
	pass $t; else fail $t "$(got)"; fi
t='need-cmd-native-follows-foreign-candidate'
STUB_NATIVE=1.2.5-1 STUB_FOREIGN_VERSIONS='1.2.3-1'
run 0 i386 0 i386-linux-musl-gcc
if [ $rc = 0 ] && grep -qxF 'apt-get [install] [-y] [--no-remove] [--allow-downgrades] [musl-dev:i386=1.2.3-1] [musl-dev=1.2.3-1]' "$work/log"; then
	pass $t; else fail $t "$(got)"; fi
STUB_NATIVE='' STUB_FOREIGN_VERSIONS=''

# Not root: nothing runs; the exact commands, each on its own line.
t='need-cmd-not-root-prints-commands'
run 1000 '' 0 i386-linux-musl-gcc
if [ $rc != 0 ] && [ ! -s "$work/log" ] &&
	grep -q '^error: i386-linux-musl-gcc not found' "$work/err" &&
	[ "$(sed 1d "$work/err")" = "  sudo dpkg --add-architecture i386
  sudo apt-get update
  sudo apt-get install -y musl-dev:i386" ]; then pass $t; else fail $t "$(got)"; fi
t='need-cmd-not-root-known-arch-no-add-command'
run 1000 i386 0 i386-linux-musl-gcc
if [ $rc != 0 ] && [ "$(sed 1d "$work/err")" = "  sudo apt-get update
  sudo apt-get install -y musl-dev:i386" ]; then pass $t; else fail $t "$(got)"; fi

# need_path: the same for a path no command stands for (the i386 kernel
# headers of build-busybox.sh): as root it installs the package of its
# name's line, and CACHEHOT_NO_INSTALL stops it with the commands instead.
# run_path UID PATHNAME NAME: need_path with the stubs, like run.
run_path() {
	STUB_UID=$1 STUB_FOREIGN=i386 STUB_UPDATE_RC=0 STUB_PROVIDES=${2##*/}
	: >"$work/log"
	rm -f "$2"
	rc=0
	(PATH=$work/stub:$work/bin && need_path "$2" "$3") >/dev/null 2>"$work/err" || rc=$?
}
t='need-path-root-installs-i386-kernel-headers'
run_path 0 "$work/stub/asm" i386-kernel-headers
if [ $rc = 0 ] && same "$work/log" "apt-get [update]
apt-get [install] [-y] [--no-remove] [--allow-downgrades] [linux-libc-dev:i386]"; then
	pass $t; else fail $t "$(got)"; fi
t='need-path-no-install-prints-commands'
CACHEHOT_NO_INSTALL=1 run_path 0 "$work/stub/asm" i386-kernel-headers
if [ $rc != 0 ] && [ ! -s "$work/log" ] &&
	grep -qF "error: $work/stub/asm (i386-kernel-headers) not found" "$work/err" &&
	grep -qxF '  sudo apt-get install -y linux-libc-dev:i386' "$work/err"; then
	pass $t; else fail $t "$(got)"; fi

# One list: every need_cmd call names one command of scripts/packages ...
bad=$(cd "$ROOT" && grep -h --exclude=need-cmd.sh need_cmd scripts/*.sh tests/*.sh |
	grep -v '^[[:space:]]*#' | grep -o 'need_cmd [^;&|)]*' |
	while read -r _ c extra; do
		if [ -n "$extra" ] || ! awk -v c="$c" '$1 == c { f = 1 } END { exit !f }' scripts/packages; then
			printf '%s ' "need_cmd $c${extra:+ $extra}"
		fi
	done)
t='packages-list-every-need-cmd'
if [ -z "$bad" ]; then pass $t; else fail $t "not one command of scripts/packages: $bad"; fi
# ... and every need_path call one name of it
bad=$(cd "$ROOT" && grep -h --exclude=need-cmd.sh need_path scripts/*.sh tests/*.sh |
	grep -v '^[[:space:]]*#' | grep -o 'need_path [^;&|)]*' |
	while read -r _ p n extra; do
		if [ -n "$extra" ] || ! awk -v c="$n" '$1 == c { f = 1 } END { exit !f }' scripts/packages; then
			printf '%s ' "need_path $p $n${extra:+ $extra}"
		fi
	done)
t='packages-list-every-need-path'
if [ -z "$bad" ] && grep -q 'need_path /usr/include/i386-linux-gnu/asm i386-kernel-headers' "$ROOT/scripts/build-busybox.sh"; then
	pass $t; else fail $t "not one name of scripts/packages, or build-busybox.sh does not install the i386 headers: $bad"; fi

# ... and .ci/run installs the packages of scripts/packages (bench ones aside):
# as non-root with nothing installed it names all it would install.
want=$(awk '!/^#/ && NF && $3 != "bench" { print $2 }' "$ROOT/scripts/packages" | sort -u | tr '\n' ' ')
STUB_UID=1000 PATH=$work/stub:$work/bin bash "$ROOT/.ci/run" >/dev/null 2>"$work/err" || true
ci=$(sed -n 's/^\.ci\/run: missing packages:\(.*\) (not root.*/\1/p' "$work/err" | tr ' ' '\n' | sed '/^$/d' | sort -u | tr '\n' ' ')
t='ci-installs-scripts-packages'
if [ "$ci" = "$want" ]; then pass $t; else fail $t "scripts/packages: $want; .ci/run: $ci"; fi

t_finish
