// SPDX-License-Identifier: GPL-2.0
/*
 * Host driver for the code tests/derivation.sh extracts from the series.
 * It is compiled with one of:
 *   -DSCHED   the series' kernel/sched.c rule, boot option and the
 *             function that writes the values into the domains
 *   -DX86     an x86 smp_tune_scheduling() (i386 or x86_64 smpboot.c)
 *   -DDECAY   ia64's decay= handler (arch/ia64/kernel/smpboot.c)
 *   -DIA64    ia64's smp_tune_scheduling(), which prints the decay timeout
 * and prints what that code computes, one line per request:
 *   sched:  derive TICKS [BOOTOPTION...] -> "smp U numa U domains NS NS"
 *              (us; the domains' cache_hot_time in ns)
 *           parse STRING               -> "us N" or "einval"
 *   x86:    tune CPU_KHZ CACHE_KB      -> "ticks T"
 *   decay:  decay STRING               -> "ticks T" (starting from 10)
 *   ia64:   tune TICKS                 -> its boot line
 * The printk lines of the extracted code come first.
 */
#include "shim.h"

#ifdef SCHED
unsigned long cache_decay_ticks;
/* one CPU's SMP and NUMA domains; SD_NODE_INIT's value is 10 ms */
struct sched_domain { unsigned long long cache_hot_time; };
static struct sched_domain phys_domains, node_domains;
#define SD_NODE_INIT	((struct sched_domain){ .cache_hot_time = 10000000 })
#define for_each_cpu(i)		for ((i) = 0; (i) < 1; (i)++)
#define per_cpu(var, i)		(var)
#include "extract-sched.c"

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "derive")) {
		int i;

		cache_decay_ticks = strtoul(argv[2], NULL, 10);
		for (i = 3; i < argc; i++)
			cache_hot_time_setup(argv[i]);
		sched_init_cache_hot_time();
		set_cache_hot_time();
		printf("smp %d numa %d domains %llu %llu\n", cache_hot_time_us[0],
		       cache_hot_time_us[1], phys_domains.cache_hot_time,
		       node_domains.cache_hot_time);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "parse")) {
		int us = 12345;
		char *s = argv[2];

		if (parse_cache_hot_time(&s, &us) || *s)
			printf("einval\n");
		else
			printf("us %d\n", us);
		return 0;
	}
	fprintf(stderr, "usage: see the comment at the top of main.c\n");
	return 2;
}
#endif

#ifdef X86
unsigned long cache_decay_ticks;
CPU_KHZ_T cpu_khz;
static struct {
	int x86_cache_size;
} boot_cpu_data;
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

#ifdef IA64
unsigned long cache_decay_ticks;
#include "extract-ia64-tune.c"

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "tune")) {
		cache_decay_ticks = strtoul(argv[2], NULL, 10);
		smp_tune_scheduling();
		return 0;
	}
	fprintf(stderr, "usage: tune TICKS\n");
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
