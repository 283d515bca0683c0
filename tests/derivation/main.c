/*
 * Host driver for the code tests/derivation.sh extracts from the series.
 * It is compiled with one of:
 *   -DSCHED   the series' kernel/sched.c rule, parser and boot option
 *   -DX86     an x86 smp_tune_scheduling() (i386 or x86_64 smpboot.c)
 *   -DDECAY   ia64's decay= handler (arch/ia64/kernel/smpboot.c)
 * and prints what that code computes, one line per request:
 *   sched:  derive TICKS [BOOTOPTION...] -> "smt U smp U numa U" (us)
 *           measured SMP NUMA TICKS [BOOTOPTION...]
 *                                      -> "smt U smp U numa U ticks T":
 *              the same with migration costs SMP and NUMA (ns, - for
 *              not measured) as measure_migration_cost() leaves them
 *           parse STRING               -> "us N", "auto", "measure" or
 *                                         "einval: why"
 *           move COLD_B HOT_B COLD_A HOT_A CLOCK_STEP_NS
 *                                      -> "moves N cost NS noise NS on
 *                                         CPU": move_cost() from CPU 0
 *                                         with CPU 1, scripted walks (ns),
 *                                         the noise it reports (clock step
 *                                         CLOCK_STEP_NS) and its end CPU
 *           unmeasurable CACHE_BYTES CPUS CLOCK_STEP_NS
 *                                      -> why the kernel would not measure,
 *                                         or "measurable"
 *   x86:    tune CPU_KHZ CACHE_KB      -> the boot lines, "ticks T"
 *           size CACHE_KB              -> "size B": sched_cache_size on
 *                                         a CPU without leaf 4
 *           flush CYCLES CPU_KHZ       -> "ticks T"
 *   decay:  decay STRING               -> "ticks T" (starting from 10)
 */
#include "shim.h"

#ifdef SCHED
unsigned long cache_decay_ticks, sched_cache_size;
/* a fake clock that advances clock_step ns a read, and a CPU count */
static unsigned long long clock_now, clock_step;
static unsigned long long sched_clock(void)
{
	return clock_now += clock_step;
}
static int online_cpus;
#define num_online_cpus()	online_cpus
#define cpu_relax()		do { } while (0)
/*
 * For move_cost(): moves are free, each clock read and each walk advance
 * the clock by clock_step, and walks take walk_ns[]: cold (the first
 * after arriving) and hot on the far CPU, then on the boot CPU; the
 * second cold walk on the far CPU (the first timed one, after the
 * untimed round trip) is 1000 ns slower (only the fastest may count),
 * the first hot walk on the boot CPU 500 ns (the noise).
 */
#define current				0
#define cpumask_of_cpu(cpu)		(cpu)
#define set_cpus_allowed(task, cpu)	(on_cpu = (cpu), arrived = 1)
static int on_cpu, arrived, far_colds, boot_hots;
static unsigned long long walk_ns[4];
static unsigned long long walk_buffer(char *buf, unsigned long size)
{
	int k = on_cpu ? 0 : 1, cold = arrived;

	(void)buf; (void)size;
	arrived = 0;
	clock_now += clock_step;
	return walk_ns[2 * k + !cold] + (cold && !k && far_colds++ == 1 ? 1000 : 0) +
		(!cold && k && !boot_hots++ ? 500 : 0);
}
#include "extract-sched.c"

int main(int argc, char **argv)
{
	/* derive TICKS ... is measured - - TICKS ..., without the ticks */
	if ((argc >= 3 && !strcmp(argv[1], "derive")) ||
	    (argc >= 5 && !strcmp(argv[1], "measured"))) {
		int measured = !strcmp(argv[1], "measured"), i;
		char **arg = argv + (measured ? 4 : 2);

		if (measured && strcmp(argv[2], "-"))
			migration_cost[SD_LV_CPU] = strtoul(argv[2], NULL, 10);
		if (measured && strcmp(argv[3], "-"))
			migration_cost[SD_LV_NODE] = strtoul(argv[3], NULL, 10);
		cache_decay_ticks = strtoul(*arg, NULL, 10);
		for (i = 1; arg + i < argv + argc; i++)
			cache_hot_time_setup(arg[i]);
		sched_init_cache_hot_time();
		printf("smt %lu smp %lu numa %lu", sched_cache_hot_time[SD_LV_SIBLING],
		       sched_cache_hot_time[SD_LV_CPU],
		       sched_cache_hot_time[SD_LV_NODE]);
		if (measured)
			printf(" ticks %lu", cache_decay_ticks);
		printf("\n");
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
		clock_step = migration_clock_step = strtoull(argv[6], NULL, 10);
		cost = move_cost(0, 1, NULL, 0, clock_now + MIGRATION_BUDGET_NS,
				 &n, &noise);
		printf("moves %d cost %llu noise %llu on %d\n", n, cost, noise,
		       on_cpu);
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "unmeasurable")) {
		const char *why;

		sched_cache_size = strtoul(argv[2], NULL, 10);
		online_cpus = atoi(argv[3]);
		clock_step = strtoull(argv[4], NULL, 10);
		why = migration_cost_unmeasurable();
		printf("%s\n", why ? why : "measurable");
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "parse")) {
		unsigned long us = 12345;
		const char *why = parse_cache_hot_time(argv[2],
						       strlen(argv[2]), &us);

		if (why)
			printf("einval: %s%s\n", why,
			       us == 12345 ? "" : " (value changed)");
		else if (us == CACHE_HOT_TIME_AUTO)
			printf("auto\n");
		else if (us == CACHE_HOT_TIME_MEASURE)
			printf("measure\n");
		else
			printf("us %lu\n", us);
		return 0;
	}
	fprintf(stderr, "usage: derive TICKS [OPTION...] | parse STRING\n");
	return 2;
}
#endif

#ifdef X86
unsigned long cache_decay_ticks, sched_cache_size;
CPU_KHZ_T cpu_khz;
#define X86_VENDOR_INTEL	0
#define X86_VENDOR_AMD		2
/*
 * Neither Intel nor AMD: lost_cache_size() must not read this host's
 * CPUID (tests/measure-host.sh checks that path against the host's sysfs),
 * only fall back to x86_cache_size.
 */
struct {
	int x86_cache_size, x86_vendor, cpuid_level;
} boot_cpu_data = { 0, 1, 0 };
static unsigned int cpuid_eax(unsigned int op) { (void)op; abort(); }
static unsigned int cpuid_ecx(unsigned int op) { (void)op; abort(); }
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
	if (argc == 3 && !strcmp(argv[1], "size")) {
		boot_cpu_data.x86_cache_size = atoi(argv[2]);
		printf("size %lu\n", lost_cache_size());
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
