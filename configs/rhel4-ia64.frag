## configs/rhel4-ia64.config: the RHEL 4 flavour on ia64, as near to Red
## Hat's ia64 kernel as this project can make it. Red Hat's ia64 config is
## in its source RPM only, not in the prepared x86_64 tree: this is the
## tree's own arch/ia64/configs/generic_defconfig (DIG, HP zx1 and SGI SN2
## in one image, SMP, NUMA, up to 512 CPUs) with Red Hat's scheduler
## options as its x86_64 smp config has them where ia64 has them (SMP,
## SCHED_SMT, NUMA; ia64 has no SCHEDSTATS and no multi-core level), and
## without modules (CI's time; no test loads one). Built patched and
## unpatched, and bisected; not booted (Ski boots only HP simulator
## kernels, configs/ia64-sim).
# base: arch/ia64/configs/generic_defconfig
# base-modules: off
# CONFIG_MODULES is not set
CONFIG_IA64_GENERIC=y
CONFIG_SMP=y
CONFIG_SCHED_SMT=y
CONFIG_NUMA=y
CONFIG_SYSCTL=y
CONFIG_PROC_FS=y
