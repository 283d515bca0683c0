## NUMA without SMP, which ia64 allows (CONFIG_NUMA does not depend on
## SMP there, nor on mips IP27): the series must build without a
## scheduling domain to tune. 2.6.9 itself does not link such a kernel
## (arch/ia64/mm/discontig.c needs SMP's per-CPU offsets), so only the
## objects the series changes are built, patched and unpatched:
## objects: kernel/sched.o kernel/sysctl.o init/main.o
# CONFIG_IA64_GENERIC is not set
CONFIG_IA64_DIG=y
CONFIG_MCKINLEY=y
# CONFIG_SMP is not set
CONFIG_NUMA=y
CONFIG_VIRTUAL_MEM_MAP=y
CONFIG_DISCONTIGMEM=y
CONFIG_ACPI=y
CONFIG_ACPI_BOOT=y
CONFIG_ACPI_INTERPRETER=y
CONFIG_ACPI_NUMA=y
CONFIG_BINFMT_ELF=y
CONFIG_PROC_FS=y
CONFIG_SYSCTL=y
