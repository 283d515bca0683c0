/*
 * Host driver for the code tests/derivation.sh extracts from the series.
 * It is compiled with one of:
 *   -DSCHED   the series' kernel/sched.c rule, parser and boot option
 *   -DX86     an x86 smp_tune_scheduling() (i386 or x86_64 smpboot.c)
 *   -DDECAY   ia64's decay= handler (arch/ia64/kernel/smpboot.c)
 * and prints what that code computes, one line per request:
 *   sched:  derive TICKS [BOOTOPTION...] -> "smt U smp U numa U" (us)
 *           parse STRING               -> "us N", "auto" or "einval: why"
 *   x86:    tune CPU_KHZ CACHE_KB      -> the boot lines, "ticks T"
 *           flush CYCLES CPU_KHZ       -> "ticks T"
 *   decay:  decay STRING               -> "ticks T" (starting from 10)
 */
#include "shim.h"

#ifdef SCHED
unsigned long cache_decay_ticks;
#include "extract-sched.c"

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "derive")) {
		int i;

		cache_decay_ticks = strtoul(argv[2], NULL, 10);
		for (i = 3; i < argc; i++)
			cache_hot_time_setup(argv[i]);
		sched_init_cache_hot_time();
		printf("smt %lu smp %lu numa %lu\n",
		       sched_cache_hot_time[SD_LV_SIBLING],
		       sched_cache_hot_time[SD_LV_CPU],
		       sched_cache_hot_time[SD_LV_NODE]);
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
		else
			printf("us %lu\n", us);
		return 0;
	}
	fprintf(stderr, "usage: derive TICKS [OPTION...] | parse STRING\n");
	return 2;
}
#endif

#ifdef X86
unsigned long cache_decay_ticks;
CPU_KHZ_T cpu_khz;
struct { int x86_cache_size; } boot_cpu_data;
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
