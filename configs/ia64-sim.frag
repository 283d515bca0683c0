## The HP ia64 simulator (CONFIG_IA64_HP_SIM), which Ski boots: 2.6.9's
## arch/ia64/configs/sim_defconfig (McKinley, SMP, 64 KB pages, the
## simulator's console), trimmed to what a boot to /init needs (no
## modules, disks, network or debug info: about a third of the build)
## and with BLK_DEV_INITRD, so that the guest comes as `bski -initramfs`.
## HP_SIM kernels run at HZ=32 (include/asm-ia64/param.h).
# base: arch/ia64/configs/sim_defconfig
# base-modules: off
CONFIG_IA64_HP_SIM=y
CONFIG_SMP=y
CONFIG_SYSCTL=y
CONFIG_PROC_FS=y
CONFIG_BLK_DEV_RAM=y
CONFIG_BLK_DEV_INITRD=y
CONFIG_HP_SIMSERIAL=y
CONFIG_HP_SIMSERIAL_CONSOLE=y
# CONFIG_MODULES is not set
# CONFIG_NET is not set
# CONFIG_SCSI is not set
# CONFIG_HP_SIMETH is not set
# CONFIG_IA32_SUPPORT is not set
# CONFIG_EXT2_FS is not set
# CONFIG_EXT3_FS is not set
# CONFIG_NFS_FS is not set
# CONFIG_NFSD is not set
# CONFIG_DEBUG_INFO is not set
# CONFIG_HUGETLBFS is not set
