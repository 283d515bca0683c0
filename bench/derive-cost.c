/*
 * Host timing of the series' boot-time derivation: the functions are the
 * ones tests/derivation.sh extracts verbatim from the patched tree
 * (extract-sched.c, and extract-smpboot.c of x86_64), compiled here with
 * tests/derivation/shim.h; scripts/bench.sh builds and runs this.
 * printk formats into a buffer (what the kernel's vsnprintf does) instead of
 * printing, so the time is the arithmetic plus the message formatting, and
 * the bytes it would print are counted: on a serial console those bytes,
 * not the arithmetic, are the visible cost.
 * Usage: derive-cost CPU_KHZ CACHE_KB [ITERATIONS]
 */
#include "shim.h"
#include <time.h>

#undef printk
static char pbuf[1024];
static unsigned long long printed;
#define printk(...) (printed += snprintf(pbuf, sizeof(pbuf), __VA_ARGS__))

unsigned long cache_decay_ticks, sched_cache_size;
unsigned int cpu_khz;		/* x86_64's type */
#define X86_VENDOR_INTEL	0
#define X86_VENDOR_AMD		2
/*
 * Neither Intel nor AMD: lost_cache_size() must not read this host's CPUID
 * (what tests/derivation/main.c does), only fall back to x86_cache_size.
 */
struct {
	int x86_cache_size, x86_vendor, cpuid_level;
} boot_cpu_data = { 0, 1, 0 };
static unsigned int cpuid_eax(unsigned int op) { (void)op; abort(); }
static unsigned int cpuid_ecx(unsigned int op) { (void)op; abort(); }
/* the measurement's helpers, unused by the derivation timed here */
static unsigned long long sched_clock(void) { return 0; }
#define num_online_cpus()	1
#define cpu_relax()		do { } while (0)
#define current			0
#define cpumask_of_cpu(cpu)	(cpu)
#define set_cpus_allowed(task, cpu)	do { } while (0)
static unsigned long long walk_buffer(char *buf, unsigned long size)
{
	(void)buf; (void)size;
	return 0;
}

#include "extract-sched.c"
#include "extract-smpboot.c"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long i, n = argc > 3 ? strtoul(argv[3], NULL, 10) : 1000000;
	unsigned long long sum = 0, before, sched_bytes = 0;
	double t0, t1, t2;

	if (argc < 3) {
		fprintf(stderr, "usage: derive-cost CPU_KHZ CACHE_KB [ITERATIONS]\n");
		return 2;
	}
	/* both steps of a boot: the arch's estimate, then the per-level rule */
	t0 = now();
	for (i = 0; i < n; i++) {
		cpu_khz = strtoul(argv[1], NULL, 10) + (i & 1);	/* not hoistable */
		boot_cpu_data.x86_cache_size = atoi(argv[2]);
		smp_tune_scheduling();
		before = printed;
		sched_init_cache_hot_time();
		sched_bytes += printed - before;
		sum += sched_cache_hot_time[SD_LV_CPU];
	}
	t1 = now();
	/* the same loop without the two calls: the harness's own cost */
	for (i = 0; i < n; i++) {
		cpu_khz = strtoul(argv[1], NULL, 10) + (i & 1);
		boot_cpu_data.x86_cache_size = atoi(argv[2]);
		sum += cpu_khz;
	}
	t2 = now();
	printf("derive iterations=%lu ns_per_boot=%.0f printk_bytes_per_boot=%llu "
	       "of_which_sched_rule=%llu cache_decay_ticks=%lu smp_us=%lu "
	       "numa_us=%lu (sum %llu)\n",
	       n, ((t1 - t0) - (t2 - t1)) / n * 1e9, printed / n, sched_bytes / n,
	       cache_decay_ticks, sched_cache_hot_time[SD_LV_CPU],
	       sched_cache_hot_time[SD_LV_NODE], sum & 1);
	return 0;
}
