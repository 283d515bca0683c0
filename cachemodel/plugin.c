/*
 * cachemodel plugin for QEMU TCG (system emulation): every guest memory
 * access goes through the model (model.c); a miss makes the vCPU's own
 * thread wait the miss's cost, so the guest's clock sees it.  Arguments
 * (-plugin libcachemodel.so,key=value,...):
 *   machine=NAME   a named machine of machines.c (default: the first)
 *   size_kb= ways= miss_ns= remote_ns= share= node_split_mb= node1_cpu=
 *                  override one parameter of that machine
 *   check=1        print the API versions and exit (scripts/build-cachemodel.sh)
 * The hit path takes no lock: each vCPU's cache is its own, and another
 * vCPU's invalidation of a line is one aligned 64-bit store.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <qemu-plugin.h>
#include "model.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static struct cm_model model;
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
	for (i = 0; i < n; i++)
		qemu_plugin_register_vcpu_mem_cb(qemu_plugin_tb_get_insn(tb, i),
						 mem_cb, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, NULL);
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	char line[160];
	unsigned i;

	(void)id; (void)p;
	for (i = 0; i < model.ncaches; i++) {
		snprintf(line, sizeof(line), "cachemodel: cache %u: %llu "
			 "accesses, %llu misses\n", i,
			 (unsigned long long)model.cache[i].accesses,
			 (unsigned long long)model.cache[i].misses);
		qemu_plugin_outs(line);
	}
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const struct cm_machine *mc = &cm_machines[0];
	struct cm_params p;
	unsigned ncpus;
	char line[320];
	const char *why;
	int i;

	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "machine=", 8) &&
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
		if (cm_set_param(&p, argv[i])) {
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
	    !(owed = calloc(ncpus, sizeof(*owed)))) {
		fprintf(stderr, "cachemodel: out of memory\n");
		return -1;
	}
	snprintf(line, sizeof(line), "cachemodel: machine %s (%s): %u KB "
		 "%u-way, share %u, miss %u ns, remote %u ns, %u vCPUs\n",
		 mc->name, mc->what, p.size_kb, p.ways, p.share, p.miss_ns,
		 p.remote_ns, ncpus);
	qemu_plugin_outs(line);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
