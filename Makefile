# SPDX-License-Identifier: GPL-2.0
# cachehot: build, boot and check Linux 2.6.9 with the cache_hot_time series.
# `make` = verify source, build CONFIG, boot it under QEMU, print a report.
# `make check` = the whole test matrix. `make help` lists targets and knobs.
# The work is done by scripts/*.sh; this file only wires them together.

CONFIG ?= x86_64-smp
# Default topology: SMT siblings for SMP configs (shows the most domain
# levels), one CPU for UP configs and for Ski, which simulates one.
TOPO ?= $(if $(or $(findstring -up,$(CONFIG)),$(findstring ia64-sim,$(CONFIG))),up,smt)
ACCEL ?= tcg
JOBS ?= 2
QUICK ?=
KERNEL_SRC ?=
KERNEL_TARBALL ?=
KERNEL_BASE ?=
MODEL ?=
JOB ?=
VERSION := $(shell cat VERSION)
export KERNEL_SRC KERNEL_TARBALL KERNEL_BASE ACCEL JOBS QUICK MODEL JOB

# The arch is the config name's first word, after the RHEL 4 flavour's rhel4-.
ARCH_OF = $(firstword $(subst -, ,$(patsubst rhel4-%,%,$(CONFIG))))

# `img=$$(scripts/build-kernel.sh ... | tail -n 1)` must fail when the build
# does, not when tail does.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

.PHONY: all source kernel boot shell report check rhel4-matrix bench bench-report bench-plots cachemodel ia64-toolchain ski sweep dist clean help

all: boot
	@scripts/report.sh build/boot-logs/$(CONFIG)-$(TOPO).log

source:
	@scripts/get-source.sh

kernel:
	@scripts/build-kernel.sh $(CONFIG)

boot:
	@img=$$(scripts/build-kernel.sh $(CONFIG) | tail -n 1) && \
	initrd=$$(scripts/make-initramfs.sh $(ARCH_OF) | tail -n 1) && \
	BOOT_NAME=$(CONFIG)-$(TOPO) scripts/boot.sh "$$img" "$$initrd" $(TOPO) $(BOOT_ARGS)

shell:
	@img=$$(scripts/build-kernel.sh $(CONFIG) | tail -n 1) && \
	initrd=$$(scripts/make-shell-initramfs.sh $(ARCH_OF) | tail -n 1) && \
	BOOT_SERIAL=mon:stdio BOOT_NAME=$(CONFIG)-$(TOPO)-shell scripts/boot.sh "$$img" "$$initrd" $(TOPO) $(BOOT_ARGS)

report:
	@scripts/report.sh build/boot-logs/$(CONFIG)-$(TOPO).log

check:
	@scripts/check.sh

# Documentation/rhel4.md's RHEL 4 support matrix, row by row: each supported update built
# and booted, each unsupported one refused (scripts/rhel4-update.sh)
rhel4-matrix:
	@. scripts/lib.sh && for v in $$RHEL4_VERSIONS; do scripts/rhel4-update.sh $$v --boot | tail -n 1 || exit; done; \
	for v in $$RHEL4_UNSUPPORTED; do scripts/rhel4-update.sh $$v | tail -n 1 || exit; done

bench:
	@if [ -x scripts/bench.sh ]; then scripts/bench.sh; \
	else echo "make bench: not yet (scripts/bench.sh does not exist)" >&2; exit 1; fi

# a run's report, info and plot again, from its folder alone (no boot)
bench-report:
	@[ -n "$(RESULTS)" ] || { echo "make bench-report: RESULTS=results/<time> (a folder of make bench)" >&2; exit 1; }
	@scripts/bench-report.sh "$(RESULTS)"

# every committed run (bench/runs/<run>/) drawn again
bench-plots:
	@for d in bench/runs/*/; do scripts/bench-report.sh "$$d" || exit 1; done

ia64-toolchain:
	@scripts/build-ia64-toolchain.sh

ski:
	@scripts/build-ski.sh

cachemodel:
	@scripts/build-cachemodel.sh

sweep:
	@scripts/build-sweep.sh

dist:
	@scripts/dist.sh

clean:
	rm -rf build

help:
	@echo 'cachehot $(VERSION): sched_domain->cache_hot_time for Linux 2.6.9 (CHANGELOG)'
	@echo 'Targets:'
	@echo '  all (default)   source + kernel + boot, then a report of the boot lines and guest checks'
	@echo '  source          find and verify the 2.6.9 source, print the pristine tree path'
	@echo '  kernel          build CONFIG (incremental, ccache); last line: the image path'
	@echo '  boot            build CONFIG and boot it under QEMU with topology TOPO'
	@echo '  shell           boot CONFIG into a busybox shell on this terminal (poweroff or Ctrl-A X)'
	@echo '  report          print the report of the last boot of CONFIG/TOPO'
	@echo '  check           the whole matrix; last line "N passed, M failed" (README, "make check")'
	@echo '  rhel4-matrix    Documentation/rhel4.md'"'"'s RHEL 4 support matrix: every update built and booted, or refused'
	@echo '  bench           the cache_hot_time sweep in a guest, patched vs unpatched; results/<time>/'
	@echo '  bench-report    RESULTS=results/<time>: its report, info and plot again, no boot'
	@echo '  bench-plots     bench/runs/<run>/: every committed run drawn again'
	@echo '  sweep           build cachehot-sweep for x86_64 and i386 (static); last line: the paths'
	@echo '  dist            the tarball build/dist/cachehot-$(VERSION)[+<commit>]-linux-2.6.9.tar.gz (+<commit>:'
	@echo '                  not the release; scripts/dist.sh says when, and how a release is made)'
	@echo '  cachemodel      build the QEMU cache-timing model plugin; last line: the .so path'
	@echo '  ia64-toolchain  build the ia64 cross compiler into the cache'
	@echo '  ski             build Ski, the ia64 simulator, and its bootloader into the cache'
	@echo '  clean           remove build/ (the cache stays)'
	@echo 'Knobs (name=default; tests/help.sh checks each default against the scripts):'
	@echo '  CONFIG=x86_64-smp   configs/<name>.config: $(basename $(notdir $(wildcard configs/*.config)))'
	@echo '  TOPO=smt            up | smp | smt | numa | smp:N (up for *-up and ia64-sim); multi-core'
	@echo '                      (RHEL 4): mc | mcsmt | mc1 | numamc (scripts/boot.sh says each)'
	@echo '  ACCEL=tcg           tcg | kvm'
	@echo '  JOBS=2              make -j of the kernel build'
	@echo '  KERNEL_SRC=         a pristine 2.6.9 tree to use (verified, never written)'
	@echo '  KERNEL_TARBALL=     a 2.6.9 tarball to use (official .tar.bz2: sha256; others: tree id)'
	@echo '  RHEL4_VERSION=89.29.1.EL   the RHEL 4 kernel of KERNEL_BASE=rhel4 (scripts/lib.sh lists them)'
	@echo '  RHEL4_FLOOR=1       0: the RHEL 4 flavour without its optional 10 ms floor (Red Hat'"'"'s default)'
	@echo '  KERNEL_BASE=        kernel.org | rhel4 (RHEL 4.8'"'"'s tree; KERNEL_SRC/KERNEL_TARBALL then name it);'
	@echo '                      empty: rhel4 for configs rhel4-*, else kernel.org'
	@echo '  BOOT_ARGS=          extra kernel command line words (boot, shell)'
	@echo '  BOOT_TIMEOUT=120    seconds per boot (scripts/faithful.sh: 300)'
	@echo '  BOOT_RETRIES=1      retries of a boot that failed the way host load makes it fail'
	@echo '  ICOUNT=off          QEMU -icount suboptions (2.6.9 SMP bring-up fails under it)'
	@echo '  ARCH=               scripts/boot.sh: x86_64 | i386 | ia64, the guest'"'"'s (empty: from the image)'
	@echo '  CHHZ=               scripts/boot.sh: HZ for the guest'"'"'s checks (empty: the built tree'"'"'s asm/param.h)'
	@echo '  SKI_SRC=            ski: a checkout of Ski at the pinned commit (else the cache'"'"'s ski-<commit>.tar)'
	@echo '  MODEL=              boot, shell, bench: a cache model machine (cachemodel/machines.c)'
	@echo '  MODEL_ARGS=         key=value,... overriding the machine'"'"'s parameters'
	@echo '  PACE_PS=            ps a guest instruction takes when vCPUs outnumber host cores; empty:'
	@echo '                      with MODEL 150000 (scripts/lib.sh PACE_PS_DEFAULT), else none; 0 off'
	@echo '  CHECK_SECTIONS=1 2 3 4 5 6   check: the sections to run'
	@echo '  BISECT_CONFIGS=x86_64-smp i386-smp ia64-sim rhel4-x86_64-smp rhel4-i386-smp rhel4-ia64   check: configs every prefix builds on'
	@echo '  CROSS_CC=gcc        the kernel builds'"'"' compiler (ia64: ia64-linux-gnu-gcc, make ia64-toolchain)'
	@echo '  CONFIG_FILE=        kernel: a .config to use instead of configs/<CONFIG>.config'
	@echo '  OBJECTS=            kernel: only these objects (and prepare-all), e.g. kernel/sched.o'
	@echo '  CACHEHOT_NO_CCACHE= not empty: compile without ccache'
	@echo '  CACHEHOT_NO_INSTALL=   not empty: never apt-get install, as root too; print the commands'
	@echo '  DEBIAN_MIRROR=http://deb.debian.org/debian   the archive of Debian source packages'
	@echo '  DEBIAN_SECURITY=http://deb.debian.org/debian-security   its security archive'
	@echo '  DEBIAN_SUITE=bookworm   ia64-toolchain: the suite to take gcc-12 from'
	@echo '  KEEP_BUILD=0        ia64-toolchain: 1 keeps the scratch directory after a build'
	@echo '  SOURCE_DATE_EPOCH=  dist: the time of the tarball'"'"'s files (empty: the last commit'"'"'s)'
	@echo '  QUICK=              bench: 1 for the short run (empty or 0: the full run)'
	@echo '  JOB=                bench: a job file (bench/jobs/, or a run'"'"'s <folder>/job) of the knobs below; it wins over them'
	@echo '  RESULTS=            bench-report: the results folder'
	@echo '  BENCH_COMPARE=      bench: A-B,... comparisons asked before the run (the folder'"'"'s job keeps them)'
	@echo '  BENCH_DRIFT=sweep   bench: the drift fit, cachehot-sweep --drift: sweep, all or off'
	@echo '  BENCH_PLAN=         bench: the plan of bench/plans/ that judges the run (committed first)'
	@echo '  BENCH_TITLE=        bench: the plot'"'"'s title (empty: the run'"'"'s shape)'
	@echo '  BENCH_EXCLUDE=      bench: behind:P,busy:B, the repetitions a plan leaves out (empty: none)'
	@echo '  BENCH_CALIB=first   bench: the guest'"'"'s walk calibration in the first patched boot, or every'
	@echo '  BENCH_LOADS=oltp msg     bench: workloads (oltp, msg, io)'
	@echo '  BENCH_CPUS=<cores>  BENCH_REPS=6 (QUICK 2)  BENCH_RUN_MS=5000 (1500)  BENCH_WARM_MS=1000 (500)'
	@echo '  BENCH_POINTS=       bench: the sweep, us, d, aa, pin, mig; empty:'
	@echo '                      d,aa,2500,5000,7500,10000,12500,15000,25000,250000,1000000,pin,mig'
	@echo '  BENCH_UNPATCHED_RUNS=3 (QUICK 2)   BENCH_STEPS=   BENCH_PIN=1   BENCH_KERNEL_ARGS=noapic   BENCH_WRITE=1'
	@echo '  BENCH_WORKERS=3  BENCH_WS_KB=256  BENCH_COMPUTE_US=3000  BENCH_SLEEP_US=1000-25000  BENCH_STREAM_KB=0  BENCH_PHASE_MS=0'
	@echo '  io only: BENCH_SLEEPERS=0  BENCH_SLEEPER_US=<BENCH_SLEEP_US>'
	@echo '  BENCH_GROUPS=4  BENCH_SENDERS=2  BENCH_RECEIVERS=2  BENCH_MSG_WS_KB=64   (msg)'
	@echo '  STRESS_BOOTS=50  STRESS_LOAD=<cores>  STRESS_CASES=x86_64-smp:numa i386-smp:smp   tests/stress/boot-stress.sh'
	@echo '  LTP_SRC=            an LTP checkout to take hackbench.c from (offline machines)'
	@echo '  XDG_CACHE_HOME=~/.cache   the cache is $$XDG_CACHE_HOME/cachehot'
	@echo '  BUILD_DIR=build     all build output (in this checkout)'
