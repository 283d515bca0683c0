## configs/rhel4-i386-smp.config: RHEL 4's i686 SMP kernel as near as this
## project can make it. Red Hat's i686 configs are in its source RPM only,
## not in the prepared x86_64 tree (github dduval/kernel-rhel4): this is
## Red Hat's x86_64 SMP config of that tree (configs/kernel-2.6.9-x86_64-smp
## .config) carried over to i386 with make oldconfig, with the changes of
## configs/rhel4-x86_64-smp.frag (no modules, SCHEDSTATS on, no debug info,
## no kprobes) and these i386 choices, made as Red Hat's i686 smp kernel
## has them: the i686 processor family, PAE (HIGHMEM64G: its smp kernel
## addresses up to 16 GB), the generic subarchitecture (one image for PC,
## Summit, bigsmp and ES7000 boxes), and with it NUMA, which i386 has only
## for such subarchitectures, and 4 KB kernel stacks (CONFIG_4KSTACKS; the
## 4G/4G split maps a task's stack in kmap slots that must be
## stack-aligned, which with 8 KB stacks the fixmap layout of this config
## is not: init_entry_mappings() BUGs at boot). Kept as the
## x86_64 config has them and checked by gen-config.sh: SMP, NR_CPUS=8,
## SCHED_SMT, SCHED_MC, ACPI, the 8250 serial console, BLK_DEV_INITRD,
## PROC_FS, SYSCTL.
# base: configs/kernel-2.6.9-x86_64-smp.config
# base-modules: off
# CONFIG_MODULES is not set
# CONFIG_DEBUG_INFO is not set
# CONFIG_KPROBES is not set
CONFIG_EXT3_FS=y
CONFIG_JBD=y
CONFIG_SCHEDSTATS=y
CONFIG_DEBUG_KERNEL=y
CONFIG_M686=y
CONFIG_HIGHMEM64G=y
CONFIG_X86_GENERICARCH=y
CONFIG_NUMA=y
CONFIG_4KSTACKS=y
CONFIG_SMP=y
CONFIG_NR_CPUS=8
CONFIG_SCHED_SMT=y
CONFIG_SCHED_MC=y
CONFIG_ACPI=y
CONFIG_ACPI_BOOT=y
CONFIG_ACPI_INTERPRETER=y
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_BLK_DEV_INITRD=y
CONFIG_PROC_FS=y
CONFIG_SYSCTL=y
