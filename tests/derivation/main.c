/*
 * Host driver for the code tests/derivation.sh extracts from the series.
 * It is compiled with one of:
 *   -DSCHED   the series' kernel/sched.c rule, parser and boot option
 *   -DX86     an x86 smp_tune_scheduling() (i386 or x86_64 smpboot.c)
 *   -DDECAY   ia64's decay= handler (arch/ia64/kernel/smpboot.c)
 * and prints what that code computes, one line per request:
 *   sched:  derive TICKS [BOOTOPTION]  -> "smt U smp U numa U" (us)
 *           parse STRING               -> "ns N" or "einval"
 *   x86:    tune CPU_KHZ CACHE_KB      -> "ticks T"
 *   decay:  decay STRING               -> "ticks T" (starting from 10)
 */
#include "shim.h"

#ifdef SCHED
unsigned long cache_decay_ticks;
#include "extract-sched.c"

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "derive")) {
		cache_decay_ticks = strtoul(argv[2], NULL, 10);
		if (argc >= 4)
			cache_hot_time_setup(argv[3]);
		sched_init_cache_hot_time();
		printf("smt %lu smp %lu numa %lu\n",
		       ns_to_us(sched_cache_hot_time[SD_LV_SIBLING]),
		       ns_to_us(sched_cache_hot_time[SD_LV_CPU]),
		       ns_to_us(sched_cache_hot_time[SD_LV_NODE]));
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "parse")) {
		unsigned long long ns = 12345;

		if (parse_cache_hot_time(argv[2], &ns))
			printf("einval%s\n", ns == 12345 ? "" : " (value changed)");
		else
			printf("ns %llu\n", ns);
		return 0;
	}
	fprintf(stderr, "usage: derive TICKS [OPTION] | parse STRING\n");
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
	fprintf(stderr, "usage: tune CPU_KHZ CACHE_KB\n");
	return 2;
}
#endif

#ifdef DECAY
unsigned long cache_decay_ticks = 10;	/* ia64's default */
#define simple_strtol	strtol		/* base 0, as lib/vsprintf.c's */
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
