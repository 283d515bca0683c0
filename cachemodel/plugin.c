// SPDX-License-Identifier: GPL-2.0
/*
 * cachemodel plugin for QEMU TCG (system emulation): every guest memory
 * access goes through the model (model.c); a miss makes the vCPU's own
 * thread wait the miss's cost, so the guest's clock sees it.  Arguments
 * (-plugin libcachemodel.so,key=value,...):
 *   machine=NAME   a named machine of machines.c (default: the first);
 *                  none: no caches, only the pacing
 *   size_kb= ways= miss_ns= remote_ns= share= node_split_mb= node1_cpu=
 *   stream_ns= remote_stream_ns=
 *                  override one parameter of that machine
 *   pace_ps=P      pace each vCPU: a guest instruction is P ps of its own
 *                  time, a miss its penalty, and a vCPU whose time runs
 *                  ahead of the host's clock sleeps until it does not (0,
 *                  the default: no pacing; a miss then spins)
 *   check=1        print the API versions and exit (scripts/build-cachemodel.sh)
 * The hit path takes no lock: each vCPU's cache is its own, and another
 * vCPU's invalidation of a line is one aligned 64-bit store.
 *
 * Why pacing: with more vCPUs than host cores, a vCPU that idles gives its
 * core to the others, which then run faster: idling costs the guest
 * nothing, where on a real machine an idle CPU's time is lost.  Paced
 * below its share of a host core, a vCPU runs at the same speed whatever
 * the others do (tests/faithful.sh checks it).  Time the vCPU spends
 * halted, or that the host took from it, is not banked beyond
 * PACE_CREDIT_NS: a real CPU gets no refund either.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <qemu-plugin.h>
#include "model.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static struct cm_model model;
static int caches = 1;		/* 0: machine=none, pacing only */
/*
 * What each vCPU still owes in ns: a miss adds its penalty and takes off
 * the time the model itself spent on it (the miss path and its clock
 * reads are guest time too), and a stall takes off what it really took
 * (cm_owed(): overshoot carried, host preemption not refunded).  Paid
 * once at least 1 us is owed: fewer clock reads.
 */
static struct { long long ns; char pad[56]; } *owed;

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/*
 * Pacing (pace_ps=P): each vCPU's own time, vt in ps, runs on by P ps for
 * every guest instruction it executes and by every miss's penalty; every
 * PACE_TBS blocks, when vt is more than PACE_SLACK_NS ahead of the host
 * clock, the thread sleeps until the clock catches up.  So a vCPU runs at
 * one instruction every P ps whatever the other vCPUs do, as long as the
 * host can run it that fast; the time it could not is counted, and the
 * plugin prints it at exit.  Host CPU time is no measure of progress here:
 * 4 vCPU threads busy on 2 cores each took 1.75 times the CPU time per
 * guest instruction that one took alone.
 */
#define PACE_TBS	64
#define PACE_SLACK_NS	100000
#define PACE_CREDIT_NS	2000000
static unsigned long long pace_ps;
static struct pace {
	long long vt;		/* own time, ps */
	long long behind;	/* ns the host did not give it while it ran */
	long long start;	/* host clock at its first block, ns */
	unsigned tbs;
	char pad[36];
} *pace;

/* Sleep until the host clock reaches the vCPU's own time */
static void pace_pay(struct pace *v)
{
	long long now = now_ns(), vt;
	struct timespec ts;

	if (!v->start) {	/* the thread's first block: sleeps to the us */
		prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
		v->start = now;
		v->vt = now * 1000;
	}
	vt = v->vt / 1000;
	/*
	 * Running, but behind the host clock: the host ran the thread slower
	 * than its pace, so its speed depends on the others again; the
	 * plugin says how much at exit, and the harness judges the run.
	 */
	if (vt < now - PACE_CREDIT_NS) {
		v->behind += now - PACE_CREDIT_NS - vt;
		v->vt = (now - PACE_CREDIT_NS) * 1000;
	} else if (vt > now + PACE_SLACK_NS) {
		ts.tv_sec = vt / 1000000000LL;
		ts.tv_nsec = vt % 1000000000LL;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
}

/* A halted vCPU's time is not banked: it goes on from the host clock */
static void vcpu_resume(qemu_plugin_id_t id, unsigned int vcpu)
{
	long long now = now_ns() * 1000;

	(void)id;
	if (vcpu < model.ncpus && pace[vcpu].start && pace[vcpu].vt < now)
		pace[vcpu].vt = now;
}

/*
 * Before the guest reads its clock (rdtsc: x86's sched_clock() and
 * gettimeofday()), the host clock must have reached the vCPU's own time
 * exactly, not within PACE_SLACK_NS: the guest then times what it did by
 * its own time, and a walk timed twice reads the same.  The last stretch
 * spins (at most PACE_SLACK_NS, and rarely: a clock read is no hot path).
 */
static void clock_read(unsigned int vcpu, void *udata)
{
	struct pace *v = &pace[vcpu];
	long long vt;

	(void)udata;
	if (vcpu >= model.ncpus || !v->start)
		return;
	pace_pay(v);
	vt = v->vt / 1000;
	while (now_ns() < vt)
		;
}

/* rdtsc (0f 31) or rdtscp (0f 01 f9) */
static int reads_clock(struct qemu_plugin_insn *insn)
{
	const unsigned char *b = qemu_plugin_insn_data(insn);
	size_t n = qemu_plugin_insn_size(insn);

	return (n >= 2 && b[0] == 0x0f && b[1] == 0x31) ||
		(n >= 3 && b[0] == 0x0f && b[1] == 0x01 && b[2] == 0xf9);
}

static void tb_exec(unsigned int vcpu, void *udata)
{
	struct pace *v = &pace[vcpu];

	if (vcpu >= model.ncpus)
		return;
	v->vt += (long long)(uintptr_t)udata * pace_ps;
	if (!(v->tbs++ % PACE_TBS))
		pace_pay(v);
}

static void mem_cb(unsigned int vcpu, qemu_plugin_meminfo_t info,
		   uint64_t vaddr, void *udata)
{
	struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
	int write = qemu_plugin_mem_is_store(info);
	long long t0, t;
	uint64_t pa;

	(void)udata;
	if (!hw || qemu_plugin_hwaddr_is_io(hw) || vcpu >= model.ncpus)
		return;
	pa = qemu_plugin_hwaddr_phys_addr(hw);
	if (cm_hit(&model, vcpu, pa, write))
		return;
	if (pace_ps) {	/* the miss: its own time, slept */
		pace[vcpu].vt += cm_miss(&model, vcpu, pa, write) * 1000LL;
		return;
	}
	t0 = now_ns();
	owed[vcpu].ns += cm_miss(&model, vcpu, pa, write);
	t = now_ns();
	if (owed[vcpu].ns - (t - t0) >= 1000)
		while ((t = now_ns()) - t0 < owed[vcpu].ns)
			;
	owed[vcpu].ns = cm_owed(owed[vcpu].ns, t - t0);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	for (i = 0; caches && i < n; i++)
		qemu_plugin_register_vcpu_mem_cb(qemu_plugin_tb_get_insn(tb, i),
						 mem_cb, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, NULL);
	for (i = 0; (pace_ps) && i < n; i++)
		if (reads_clock(qemu_plugin_tb_get_insn(tb, i)))
			qemu_plugin_register_vcpu_insn_exec_cb(
				qemu_plugin_tb_get_insn(tb, i), clock_read,
				QEMU_PLUGIN_CB_NO_REGS, NULL);
	if (pace_ps)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec,
						     QEMU_PLUGIN_CB_NO_REGS,
						     (void *)(uintptr_t)n);
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	char line[160];
	unsigned i;

	(void)id; (void)p;
	for (i = 0; (pace_ps) && i < model.ncpus; i++) {
		snprintf(line, sizeof(line), "cachemodel: vCPU %u paced at %llu "
			 "ps an instruction: %lld us behind the host clock in "
			 "%lld ms\n", i, pace_ps,
			 pace[i].behind / 1000,
			 pace[i].start ? (now_ns() - pace[i].start) / 1000000 : 0);
		qemu_plugin_outs(line);
	}
	for (i = 0; caches && i < model.ncaches; i++) {
		snprintf(line, sizeof(line), "cachemodel: cache %u: %llu "
			 "accesses, %llu misses\n", i,
			 (unsigned long long)model.cache[i].accesses,
			 (unsigned long long)model.cache[i].misses);
		qemu_plugin_outs(line);
	}
}

/* pace_ps=: a decimal number of ps (0: off); -1 if it is not one */
static int set_pace(const char *v)
{
	char *end;

	pace_ps = strtoull(v, &end, 10);
	return *v >= '0' && *v <= '9' && !*end ? 0 : -1;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const struct cm_machine *mc = &cm_machines[0];
	struct cm_params p;
	unsigned ncpus;
	char line[512];
	const char *why;
	int i;

	for (i = 0; i < argc; i++)
		if (!strcmp(argv[i], "machine=none"))
			caches = 0;
		else if (!strncmp(argv[i], "machine=", 8) &&
		    !(mc = cm_machine(argv[i] + 8))) {
			fprintf(stderr, "cachemodel: no machine '%s'\n", argv[i] + 8);
			return -1;
		}
	p = mc->p;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "machine=", 8))
			continue;
		if (!strcmp(argv[i], "check=1")) {
			printf("cachemodel: API version %d ok (QEMU offers %d-%d)\n",
			       QEMU_PLUGIN_VERSION, info->version.min,
			       info->version.cur);
			exit(QEMU_PLUGIN_VERSION < info->version.min ||
			     QEMU_PLUGIN_VERSION > info->version.cur);
		}
		if (!strncmp(argv[i], "pace_ps=", 8) ? set_pace(argv[i] + 8) :
		    cm_set_param(&p, argv[i])) {
			fprintf(stderr, "cachemodel: unknown argument or bad value '%s'\n", argv[i]);
			return -1;
		}
	}
	if (!info->system_emulation) {
		fprintf(stderr, "cachemodel: system emulation only\n");
		return -1;
	}
	ncpus = info->system.max_vcpus;
	if ((why = cm_check(&p, ncpus))) {
		fprintf(stderr, "cachemodel: %s\n", why);
		return -1;
	}
	if (cm_init(&model, &p, ncpus) ||
	    !(owed = calloc(ncpus, sizeof(*owed))) ||
	    !(pace = calloc(ncpus, sizeof(*pace)))) {
		fprintf(stderr, "cachemodel: out of memory\n");
		return -1;
	}
	snprintf(line, sizeof(line), "cachemodel: machine %s (%s): %u KB "
		 "%u-way, share %u, miss %u ns, remote %u ns, stream %u ns, "
		 "remote stream %u ns, %u vCPUs, pace %llu ps an instruction\n",
		 mc->name, mc->what, p.size_kb, p.ways, p.share, p.miss_ns,
		 p.remote_ns, p.stream_ns, p.remote_stream_ns, ncpus, pace_ps);
	if (!caches)
		snprintf(line, sizeof(line), "cachemodel: no caches, %u vCPUs "
			 "paced at %llu ps an instruction\n", ncpus, pace_ps);
	qemu_plugin_outs(line);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	if (pace_ps)
		qemu_plugin_register_vcpu_resume_cb(id, vcpu_resume);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
