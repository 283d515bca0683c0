// SPDX-License-Identifier: GPL-2.0
/*
 * Host driver for the code tests/derivation.sh extracts from the series.
 * It is compiled with one of:
 *   -DSCHED   the series' kernel/sched.c rule, parser, boot option, sysctl
 *             write handler and migration-cost measurement
 *   -DX86     an x86 smp_tune_scheduling() (i386 or x86_64 smpboot.c)
 *   -DCACHE   x86_sched_cache_size() (arch/i386/kernel/sched_cache.c)
 *             against a scripted CPUID cache leaf
 *   -DDECAY   ia64's decay= handler (arch/ia64/kernel/smpboot.c)
 * and prints what that code computes, one line per request:
 *   sched:  derive TICKS [BOOTOPTION...] -> "smp U numa U" (us)
 *           measured SMP NUMA TICKS [BOOTOPTION...]
 *                                      -> "smp U numa U": the same with
 *              migration costs SMP and NUMA (ns, - for not measured)
 *           parse STRING               -> "us N" or "einval"
 *           write [OFFSET:]STRING...   -> the sysctl handler, each STRING
 *              one write(2) at OFFSET (default: where the last ended):
 *              "ok" or the error per write, then "value U"
 *           move COLD_B HOT_B COLD_A HOT_A CLOCK_STEP_NS
 *                                      -> "moves N cost NS noise NS on
 *              CPU": move_cost() from CPU 0 with CPU 1, scripted walks
 *              (ns), the noise and its end CPU
 *           measure CACHE_BYTES CPUS CLOCK_STEP_NS
 *                                      -> measure_migration_cost()'s lines
 *   x86:    tune CPU_KHZ CACHE_KB      -> the boot lines, "ticks T"
 *           flush CYCLES CPU_KHZ       -> "ticks T"
 *   cache:  size VENDOR LEVEL CACHE_KB [TYPE:LEVEL:SHARE:KB...]
 *                                      -> "size B": sched_cache_size from
 *              the scripted leaf (VENDOR intel, amd or other)
 *   decay:  decay STRING               -> "ticks T" (starting from 10)
 */
#include "shim.h"

#ifdef SCHED
unsigned long cache_decay_ticks;
/* a fake clock that advances clock_step ns a read, and a CPU count */
static unsigned long long clock_now, clock_step;
static unsigned long long sched_clock(void)
{
	return clock_now += clock_step;
}
static int online_cpus = 2, peer[2] = { 1, -1 };
#define num_online_cpus()	online_cpus
#define smp_processor_id()	0
#define GFP_KERNEL		0
#define get_order(size)		0
#define __get_free_pages(gfp, order)	((unsigned long)malloc(1 << 20))
#define free_pages(addr, order)	free((void *)(addr))
#define migration_peer(a, level)	peer[level]
typedef int cpumask_t;
static struct { cpumask_t cpus_allowed; } init_task;
#define current			(&init_task)
#define cpumask_of_cpu(cpu)	(cpu)
#define set_cpus_allowed(task, cpu)	(on_cpu = (cpu), arrived = 1)
/*
 * For move_cost(): moves are free, each clock read and each walk advance
 * the clock by clock_step, and walks take walk_ns[]: cold (the first
 * after arriving) and hot on the far CPU, then on the boot CPU; the
 * first cold walk on the far CPU is 1000 ns slower (only the fastest may
 * count), the first hot walk on the boot CPU 500 ns (the noise).
 */
static int on_cpu, arrived, far_colds, boot_hots;
static unsigned long long walk_ns[4] = { 3000, 1000, 2000, 1000 };
static unsigned long long walk_buffer(char *buf, unsigned long size)
{
	int k = on_cpu ? 0 : 1, cold = arrived;

	(void)buf; (void)size;
	arrived = 0;
	clock_now += clock_step;
	return walk_ns[2 * k + !cold] + (cold && !k && !far_colds++ ? 1000 : 0) +
		(!cold && k && !boot_hots++ ? 500 : 0);
}
/* the sysctl handler's surroundings: a read, and applying a value */
static int cache_hot_time_sem, applied;
static void set_cache_hot_time(void)
{
	applied++;
}
static int proc_dointvec(ctl_table *t, int w, struct file *f, void *b,
			 size_t *l, loff_t *p)
{
	(void)t; (void)w; (void)f; (void)b; (void)l; (void)p;
	return 0;
}
#include "extract-sched.c"

int main(int argc, char **argv)
{
	/* derive TICKS ... is measured - - TICKS ... */
	if ((argc >= 3 && !strcmp(argv[1], "derive")) ||
	    (argc >= 5 && !strcmp(argv[1], "measured"))) {
		int measured = !strcmp(argv[1], "measured"), i;
		char **arg = argv + (measured ? 4 : 2);

		if (measured && strcmp(argv[2], "-"))
			migration_cost[0] = strtoull(argv[2], NULL, 10);
		if (measured && strcmp(argv[3], "-"))
			migration_cost[1] = strtoull(argv[3], NULL, 10);
		cache_decay_ticks = strtoul(*arg, NULL, 10);
		for (i = 1; arg + i < argv + argc; i++)
			cache_hot_time_setup(arg[i]);
		sched_init_cache_hot_time();
		printf("smp %u numa %u\n", cache_hot_time_us[0],
		       cache_hot_time_us[1]);
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "write")) {
		ctl_table t = { &cache_hot_time_us[0] };
		loff_t pos = 0;
		int i;

		cache_hot_time_us[0] = 12345;
		for (i = 2; i < argc; i++) {
			char *s = argv[i], *colon = strchr(s, ':');
			size_t len;
			int err;

			if (colon && isdigit(*s)) {
				pos = strtoll(s, NULL, 10);
				s = colon + 1;
			}
			/* "\\n" in an argument stands for a newline */
			len = strlen(s);
			if (len >= 2 && !strcmp(s + len - 2, "\\n")) {
				s[len - 2] = '\n';
				s[--len] = 0;
			}
			err = proc_dosched_cache_hot_time(&t, 1, NULL, s, &len,
							  &pos);
			printf("%s ", err == -EINVAL ? "einval" : err ? "error" :
			       "ok");
		}
		printf("value %u applied %d\n", cache_hot_time_us[0], applied);
		return 0;
	}
	if (argc == 7 && !strcmp(argv[1], "move")) {
		unsigned long long cost, noise;
		int n;

		/* walks: cold and hot ns on the far CPU, then on the boot CPU */
		walk_ns[0] = strtoull(argv[2], NULL, 10);
		walk_ns[1] = strtoull(argv[3], NULL, 10);
		walk_ns[2] = strtoull(argv[4], NULL, 10);
		walk_ns[3] = strtoull(argv[5], NULL, 10);
		clock_step = noise = strtoull(argv[6], NULL, 10);
		cost = move_cost(0, 1, NULL, 0, clock_now + MIGRATION_BUDGET_NS,
				 &noise, &n);
		printf("moves %d cost %llu noise %llu on %d\n", n, cost, noise,
		       on_cpu);
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "measure")) {
		sched_cache_size = strtoul(argv[2], NULL, 10);
		online_cpus = atoi(argv[3]);
		clock_step = strtoull(argv[4], NULL, 10);
		cache_hot_time_setup("measure");
		measure_migration_cost();
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "parse")) {
		unsigned int us = 12345;

		if (parse_cache_hot_time(argv[2], &us))
			printf("einval%s\n", us == 12345 ? "" : " (value changed)");
		else
			printf("us %u\n", us);
		return 0;
	}
	fprintf(stderr, "usage: see the comment at the top of main.c\n");
	return 2;
}
#endif

#ifdef X86
unsigned long cache_decay_ticks, sched_cache_size;
CPU_KHZ_T cpu_khz;
static struct {
	int x86_cache_size;
} boot_cpu_data;
static unsigned long x86_sched_cache_size(void)
{
	return 0;
}
#include "extract-smpboot.c"

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "tune")) {
		cpu_khz = strtoul(argv[2], NULL, 10);
		boot_cpu_data.x86_cache_size = atoi(argv[3]);
		smp_tune_scheduling();
		printf("ticks %lu\n", cache_decay_ticks);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "flush")) {
		cpu_khz = strtoul(argv[3], NULL, 10);
		printf("ticks %lu\n",
		       flush_time_to_ticks(strtoull(argv[2], NULL, 10)));
		return 0;
	}
	fprintf(stderr, "usage: tune CPU_KHZ CACHE_KB | flush CYCLES CPU_KHZ\n");
	return 2;
}
#endif

#ifdef CACHE
#define X86_VENDOR_INTEL	0
#define X86_VENDOR_AMD		2
struct cpuinfo_x86 {
	int x86_cache_size, x86_vendor, cpuid_level;
};
static struct cpuinfo_x86 boot_cpu_data;
/*
 * The scripted deterministic cache leaf: caches[i] is "TYPE:LEVEL:SHARE:KB"
 * (TYPE 1 data, 2 instructions, 3 unified; SHARE logical CPUs), given as
 * CPUID would: 64-byte lines, 1 way, 1 partition, KB * 16 sets.
 */
static char **caches;
static int ncaches;
static unsigned int cpuid_eax(unsigned int op)
{
	return op == 0x80000000 ? 0x8000001d : 0;
}
static unsigned int cpuid_ecx(unsigned int op)
{
	return op == 0x80000001 ? 1 << 22 : 0;
}
static void cache_leaf(unsigned int leaf, unsigned int i, unsigned int *eax,
		       unsigned int *ebx, unsigned int *ecx)
{
	unsigned int type = 0, level = 0, share = 1, kb = 0;

	(void)leaf;
	if ((int)i < ncaches)
		sscanf(caches[i], "%u:%u:%u:%u", &type, &level, &share, &kb);
	*eax = type | level << 5 | (share - 1) << 14;
	*ebx = 63;		/* line size 64, 1 partition, 1 way */
	*ecx = kb * 16 - 1;	/* sets */
}
#include "extract-cache.c"

int main(int argc, char **argv)
{
	if (argc >= 5 && !strcmp(argv[1], "size")) {
		boot_cpu_data.x86_vendor = !strcmp(argv[2], "intel") ?
			X86_VENDOR_INTEL : !strcmp(argv[2], "amd") ?
			X86_VENDOR_AMD : 1;
		boot_cpu_data.cpuid_level = atoi(argv[3]);
		boot_cpu_data.x86_cache_size = atoi(argv[4]);
		caches = argv + 5;
		ncaches = argc - 5;
		printf("size %lu\n", x86_sched_cache_size());
		return 0;
	}
	fprintf(stderr, "usage: size VENDOR LEVEL CACHE_KB [T:L:S:KB...]\n");
	return 2;
}
#endif

#ifdef DECAY
unsigned long cache_decay_ticks = 10;	/* ia64's default */
#include "extract-decay.c"

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "decay")) {
		decay(argv[2]);
		printf("ticks %lu\n", cache_decay_ticks);
		return 0;
	}
	fprintf(stderr, "usage: decay STRING\n");
	return 2;
}
#endif
