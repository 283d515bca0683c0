# cachehot: build, boot and check Linux 2.6.9 with the cache_hot_time series.
# `make` = verify source, build CONFIG, boot it under QEMU, print a report.
# `make check` = the whole test matrix. `make help` lists targets and knobs.
# The work is done by scripts/*.sh; this file only wires them together.

CONFIG ?= x86_64-smp
# Default topology: SMT siblings for SMP configs (shows the most domain
# levels), one CPU for UP configs.
TOPO ?= $(if $(findstring -up,$(CONFIG)),up,smt)
ACCEL ?= tcg
JOBS ?= 2
QUICK ?=
KERNEL_SRC ?=
KERNEL_TARBALL ?=
MODEL ?=
export KERNEL_SRC KERNEL_TARBALL ACCEL JOBS QUICK MODEL

ARCH_OF = $(firstword $(subst -, ,$(CONFIG)))

# `img=$$(scripts/build-kernel.sh ... | tail -n 1)` must fail when the build
# does, not when tail does.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

.PHONY: all source kernel boot shell report check bench cachemodel measure-host ia64-toolchain clean help

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

bench:
	@if [ -x scripts/bench.sh ]; then scripts/bench.sh; \
	else echo "make bench: not yet (scripts/bench.sh does not exist)" >&2; exit 1; fi

ia64-toolchain:
	@scripts/build-ia64-toolchain.sh

cachemodel:
	@scripts/build-cachemodel.sh

measure-host:
	@scripts/measure-host.sh

clean:
	rm -rf build

help:
	@echo 'Targets:'
	@echo '  all (default)   source + kernel + boot, then a report of the kernel'"'"'s cache_hot_time /'
	@echo '                  cache decay / sched domain boot lines and the in-guest checks'
	@echo '  source          find and verify the 2.6.9 source, print the pristine tree path'
	@echo '  kernel          build CONFIG (incremental, ccache); last line: the bzImage path'
	@echo '  boot            build CONFIG and boot it under QEMU with topology TOPO'
	@echo '  shell           build CONFIG and boot it into a busybox shell on this terminal'
	@echo '                  (TOPO, MODEL, BOOT_ARGS apply; poweroff or Ctrl-A X to leave)'
	@echo '  report          print the report of the last boot of CONFIG/TOPO'
	@echo '  check           the whole matrix: shellcheck, source verification, series hygiene,'
	@echo '                  builds patched/unpatched + warnings, bisect, boots; ends "N passed, M failed"'
	@echo '  bench           cache_hot_time sweep in a guest, patched vs unpatched (scripts/bench.sh);'
	@echo '                  workloads oltp, msg (BENCH_LOADS=io: woken from CPU 0); results/<timestamp>/'
	@echo '                  <load>/: table with 95 % intervals, verdict, noise budget, CSV, plot.'
	@echo '                  QUICK=1: under 5 minutes, wider intervals'
	@echo '  ia64-toolchain  build the ia64 cross compiler (scripts/build-ia64-toolchain.sh)'
	@echo '  cachemodel      build the QEMU cache-timing model plugin; last line: the .so path'
	@echo '  measure-host    the series'"'"' estimator on two CPUs of this machine beside a direct'
	@echo '                  measurement of a move (scripts/measure-host.sh; MH_* knobs there)'
	@echo '  clean           remove build/ (the verified source cache stays)'
	@echo '  help            this text'
	@echo 'Knobs:'
	@echo '  CONFIG=name     configs/<name>.config: $(basename $(notdir $(wildcard configs/*.config)))'
	@echo '                  (default x86_64-smp)'
	@echo '  TOPO=t          up | smp | smt | numa (default: smt, or up for *-up configs)'
	@echo '  ACCEL=a         tcg (default) | kvm'
	@echo '  JOBS=n          make -j for the kernel build (default 2)'
	@echo '  KERNEL_SRC=dir  use this unpacked pristine 2.6.9 tree (verified, never written)'
	@echo '  KERNEL_TARBALL=file  use this tarball (official .tar.bz2: sha256; others: tree id)'
	@echo '  BOOT_ARGS="..." extra kernel command line words for make boot'
	@echo '  BOOT_TIMEOUT=s  per-boot timeout in seconds (default 120)'
	@echo '  QUICK=1         make bench: 2 short repetitions (BENCH_* knobs: scripts/bench.sh)'
	@echo '  MODEL=name      make boot, shell, bench: the guest under a cache model machine (cachemodel/machines.c)'
	@echo 'Cache: $${XDG_CACHE_HOME:-~/.cache}/cachehot; build output: build/'
