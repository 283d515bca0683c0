# The configuration 2.6.9 shipped for distributions' ia64 kernels: one image
# for DIG, HP zx1 and SGI SN2 machines (CONFIG_IA64_GENERIC), SMP and NUMA,
# up to 512 CPUs, with its 127 modules: make check builds it patched and
# unpatched (no new warnings), and tests/ia64-generic-ski.sh runs it under
# Ski as far as the scheduler's boot lines.
# base: arch/ia64/configs/generic_defconfig
CONFIG_IA64_GENERIC=y
CONFIG_SMP=y
CONFIG_NUMA=y
CONFIG_NR_CPUS=512
CONFIG_SYSCTL=y
CONFIG_PROC_FS=y
