#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# gen-config.sh NAME: regenerate configs/NAME.config, a full .config, from
# allnoconfig plus the options listed in configs/NAME.frag. Run it after
# editing a .frag; the build itself only reads the .config files.
# A fragment line "# base: arch/.../X_defconfig" starts from that defconfig of
# the pristine tree instead of allnoconfig (a configuration 2.6.9 shipped).
# For a rhel4-* NAME the tree is Red Hat's (prepare-tree.sh), so a base can
# be one of its configs/kernel-2.6.9-*.config. With "# base-modules: off"
# every option the base builds as a module (=m) is turned off first: a
# distribution config has hundreds, which a test kernel without modules
# would otherwise build in (kconfig makes m into y once MODULES is off).
# Lines of the fragment that start with "##" go, as "#" comments, to the
# top of the generated config: what it is and what changed from its base.
set -eu
# shellcheck source=lib.sh
. "$(dirname -- "$0")/lib.sh"
# Our own make (make kernel CONFIG=...) must not leak its variables and
# jobserver into the kernel's make.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

[ $# = 1 ] || die "usage: $0 NAME   (reads configs/NAME.frag)"
name=$1
frag=$ROOT/configs/$name.frag
[ -f "$frag" ] || die "no $frag"
arch=$(config_arch "$name")
linux=$(last_line "$ROOT/scripts/prepare-tree.sh" "$name" --unpatched)
cc=$(toolchain_cc "$arch")
cd "$linux"
msg "$name: $(grep -c "^CONFIG_\|^# CONFIG_" "$frag") options from configs/$name.frag"
base=$(sed -n 's/^# base: *//p' "$frag")
if [ -n "$base" ]; then
	[ -f "$base" ] || die "configs/$name.frag: no $base in the 2.6.9 tree"
	msg "$name: starting from $base"
	cp "$base" .config
	if grep -qx '# base-modules: off' "$frag"; then
		msg "$name: turning off the base's $(grep -c '^CONFIG_[A-Za-z0-9_]*=m$' .config) modules (=m)"
		sed 's/^\(CONFIG_[A-Za-z0-9_]*\)=m$/# \1 is not set/' .config > .config.new
		mv .config.new .config
	fi
else
	yes '' | make ARCH="$arch" CC="$cc" allnoconfig > /dev/null 2>&1
fi
# Drop every symbol the fragment sets, append the fragment, resolve the rest
# with defaults (no prompts).
syms=$(sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1/p; s/^# \(CONFIG_[A-Za-z0-9_]*\) is not set/\1/p' "$frag" | tr '\n' '|' | sed 's/|$//')
grep -Ev "^($syms)=|^# ($syms) is not set" .config > .config.new || true
grep -v '=n$' "$frag" >> .config.new
mv .config.new .config
yes '' | make ARCH="$arch" CC="$cc" oldconfig > /dev/null 2>&1
# Every requested option must have survived (a missing dependency drops it).
bad=0
while read -r line; do
	case $line in
	CONFIG_*=n) s=${line%=n}; ! grep -q "^$s=" .config || { warn "$s still set"; bad=1; } ;;
	CONFIG_*=*) grep -qx "$line" .config || { warn "$line did not stick (dependency?)"; bad=1; } ;;
	"# CONFIG_"*) s=${line#\# }; s=${s%% *}; ! grep -q "^$s=" .config || { warn "$s still set"; bad=1; } ;;
	esac
done < "$frag"
[ "$bad" = 0 ] || die "configs/$name.frag: some options did not take effect"
# CONFIG_FILE: write there instead (a RHEL 4 update's own config)
out=${CONFIG_FILE:-$ROOT/configs/$name.config}
{ sed -n 's/^##/#/p' "$frag"; cat .config; } > "$out"
msg "wrote ${out#"$ROOT"/} ($(grep -c '=y' .config) options =y)"
