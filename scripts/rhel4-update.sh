#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rhel4-update.sh VERSION [--boot]: the RHEL 4 flavour on one RHEL 4
# kernel (lib.sh's RHEL4_VERSIONS: 55.EL, 67.EL, 78.EL, 89.EL, the first
# kernels of RHEL 4.5 to 4.8, and 89.29.1.EL, the flavour's own), as
# Documentation/rhel4.md's support matrix lists it. Each step stops the script when it fails:
#  1. the tree is that kernel's prepared source, by its git tree id
#     (get-source.sh; the cache's linux-2.6.9-VERSION.tar);
#  2. toolchain-rhel4/series and series-rhel4 apply with patch --fuzz=0
#     (the hunks of series-rhel4 that apply at an offset are counted);
#  3. the config is Red Hat's x86_64 smp config of that very tree, changed
#     as configs/rhel4-x86_64-smp.frag says (gen-config.sh; for 89.29.1.EL
#     the committed configs/rhel4-x86_64-smp.config is that config);
#  4. the objects the series changes compile (kernel/sched.o,
#     kernel/sysctl.o, arch/x86_64/kernel/smpboot.o), or with --boot the
#     whole kernel builds and boots under QEMU on the multi-core topology
#     (2 sockets x 2 cores) with every domain's value checked by the guest.
# An unsupported kernel (lib.sh's RHEL4_UNSUPPORTED) must fail step 2:
# the script lists each patch that rejects hunks, and how many.
# Last line: "VERSION ok: ..." or "VERSION not supported, as expected: ..".
set -eu
[ $# -ge 1 ] || { echo "usage: $0 VERSION [--boot]" >&2; exit 2; }
RHEL4_VERSION=$1 KERNEL_BASE=rhel4
export RHEL4_VERSION KERNEL_BASE
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"
[ -n "$RHEL4_TREE_ID" ] || die "RHEL 4 kernel $1: this project knows $RHEL4_VERSIONS $RHEL4_UNSUPPORTED"
unsupported=
case " $RHEL4_UNSUPPORTED " in *" $RHEL4_VERSION "*) unsupported=1 ;; esac
boot=
case ${2:-} in '') ;; --boot) boot=1 ;; *) die "unknown option $2" ;; esac

config=rhel4-x86_64-smp
msg "RHEL 4 $RHEL4_VERSION: verifying the source"
src=$(last_line "$ROOT/scripts/get-source.sh")

# The series as a user applies it, on a linked copy (patch writes new
# files, the verified tree keeps its own): zero fuzz, no offset
need_cmd patch
t=$BUILD/rhel4-apply-$RHEL4_VERSION
rm -rf "$t"
cp -al "$src" "$t"
offsets=0
for p in $(rhel4_toolchain) $(series_paths "$ROOT/series-rhel4"); do
	if ! out=$(cd "$t" && patch -p1 --fuzz=0 < "$ROOT/$p" 2>&1); then
		why="${p##*/} rejects $(printf '%s\n' "$out" | grep -c '^Hunk #.* FAILED') hunk(s)"
		[ -n "$unsupported" ] || die "RHEL 4 $RHEL4_VERSION: $why at zero fuzz"
		# go on: the list of what rejects is the answer
		rejects="${rejects:+$rejects, }$why"
		continue
	fi
	case $p in toolchain*) continue ;; esac
	n=$(printf '%s\n' "$out" | grep -c -i 'offset' || true)
	[ "$n" = 0 ] || msg "RHEL 4 $RHEL4_VERSION: $p: $n hunk(s) at an offset"
	offsets=$((offsets + n))
done
rm -rf "$t"
if [ -n "$unsupported" ]; then
	[ -n "${rejects:-}" ] ||
		die "RHEL 4 $RHEL4_VERSION is listed as unsupported, but series-rhel4 applies: Documentation/rhel4.md's support matrix is out of date"
	echo "$RHEL4_VERSION not supported, as expected: at zero fuzz $rejects"
	exit 0
fi
applied="series-rhel4 with zero fuzz, $offsets hunk(s) of it at an offset"

if [ "$RHEL4_VERSION" != 89.29.1.EL ]; then
	CONFIG_FILE=$BUILD/$(tree_name "$config").config
	export CONFIG_FILE
	msg "RHEL 4 $RHEL4_VERSION: Red Hat's x86_64 smp config of this tree, as configs/$config.frag changes it"
	"$ROOT/scripts/gen-config.sh" "$config" > /dev/null
fi

if [ -z "$boot" ]; then
	OBJECTS="kernel/sched.o kernel/sysctl.o arch/x86_64/kernel/smpboot.o" \
		last_line "$ROOT/scripts/build-kernel.sh" "$config" > /dev/null
	echo "$RHEL4_VERSION ok: tree id, $applied, the series' objects built"
	exit 0
fi
img=$(last_line "$ROOT/scripts/build-kernel.sh" "$config")
initrd=$(last_line "$ROOT/scripts/make-initramfs.sh" x86_64)
BOOT_NAME=$(tree_name "$config")-mc "$ROOT/scripts/boot.sh" "$img" "$initrd" mc >&2
echo "$RHEL4_VERSION ok: tree id, $applied, built, booted on mc with every domain checked"
