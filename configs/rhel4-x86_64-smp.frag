## configs/rhel4-x86_64-smp.config: Red Hat's own x86_64 SMP configuration
## (configs/kernel-2.6.9-x86_64-smp.config of RHEL 4.8's kernel-2.6.9-89.29.1.EL
## tree) with ONLY these changes (scripts/gen-config.sh rhel4-x86_64-smp from
## configs/rhel4-x86_64-smp.frag; this header comes from its "##" lines):
##  - CONFIG_MODULES off, and the 782 options Red Hat builds as modules (=m)
##    off: CI has 90 minutes for everything, and the test guest loads no
##    module (its /init is in the initramfs). Their =y dependants follow.
##  - CONFIG_EXT3_FS=y (Red Hat: =m), so JBD=y: fs/compat_ioctl.c (built
##    for the ia32 emulation) includes ext3_jbd.h, which needs CONFIG_JBD.
##  - CONFIG_KPROBES off: its instruction slots come from module_alloc(),
##    which a kernel without MODULES lacks (the link fails).
##  - CONFIG_DEBUG_INFO off: -g makes the build much slower and bigger, and
##    ccache then keys on the tree's path, so the patched and unpatched trees
##    would share no object.
##  - CONFIG_SCHEDSTATS=y (Red Hat ships it off): the test build reads the
##    domains' counters in /proc/schedstat. DEBUG_KERNEL is on as shipped.
## Kept as shipped, checked by gen-config.sh: SMP, NR_CPUS=8, SCHED_SMT,
## SCHED_MC, NUMA, K8_NUMA, ACPI_NUMA, ACPI, the 8250 serial console,
## BLK_DEV_INITRD, PROC_FS, SYSCTL.
# base: configs/kernel-2.6.9-x86_64-smp.config
# base-modules: off
# CONFIG_MODULES is not set
# CONFIG_DEBUG_INFO is not set
# CONFIG_KPROBES is not set
CONFIG_EXT3_FS=y
CONFIG_JBD=y
CONFIG_SCHEDSTATS=y
CONFIG_DEBUG_KERNEL=y
CONFIG_SMP=y
CONFIG_NR_CPUS=8
CONFIG_SCHED_SMT=y
CONFIG_SCHED_MC=y
CONFIG_NUMA=y
CONFIG_K8_NUMA=y
CONFIG_ACPI=y
CONFIG_ACPI_BOOT=y
CONFIG_ACPI_INTERPRETER=y
CONFIG_ACPI_NUMA=y
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_BLK_DEV_INITRD=y
CONFIG_PROC_FS=y
CONFIG_SYSCTL=y
