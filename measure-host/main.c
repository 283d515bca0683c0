// SPDX-License-Identifier: GPL-2.0
/*
 * measure-host: the series' boot-time estimator (move_cost() and
 * walk_buffer(), extracted verbatim from the patched kernel/sched.c by
 * scripts/measure-host.sh) run on two CPUs of this host, beside a direct
 * measurement of what a move costs here (issue 20).
 *
 *   measure-host A B RUNS SIZES_KB REPS
 * A, B: the CPUs; RUNS: runs of the estimator; SIZES_KB: comma-separated
 * working sets for the direct measurement; REPS: repetitions of each.
 * Prints "machine", "estimator" and "direct" lines (see the script).
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <math.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>
#include "shim.h"

unsigned long cache_decay_ticks, sched_cache_size;

static unsigned long long sched_clock(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return t.tv_sec * 1000000000ULL + t.tv_nsec;
}
#define num_online_cpus()	((int)sysconf(_SC_NPROCESSORS_ONLN))
#define cpu_relax()		do { } while (0)
#define current			0
#define cpumask_of_cpu(cpu)	(cpu)
static void set_cpus_allowed(int task, int cpu)
{
	cpu_set_t set;

	(void)task;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(1);
	}
}
#include "extract-move.c"

/*
 * What the series' x86 code gives the scheduler: x86_sched_cache_size(),
 * extracted verbatim from the patched arch/i386/kernel/sched_cache.c, on
 * what 2.6.9's setup would have found (x86_cache_size: the L2 of
 * 0x80000006, where leaf 2 descriptors are approximated by it).
 */
#define X86_VENDOR_INTEL	0
#define X86_VENDOR_AMD		2
static struct cpuinfo_x86 {
	int x86_vendor, cpuid_level, x86_cache_size;
} boot_cpu_data;
static unsigned int cpuid_eax(unsigned int op)
{
	unsigned int a, b, c, d;

	__cpuid(op, a, b, c, d);
	return a;
}
static unsigned int cpuid_ecx(unsigned int op)
{
	unsigned int a, b, c, d;

	__cpuid(op, a, b, c, d);
	return c;
}
#include "extract-cache-size.c"

static const char *kernel_cache_source(void)
{
	unsigned int a, v[3];

	__cpuid(0, a, v[0], v[2], v[1]);
	boot_cpu_data.cpuid_level = a;
	boot_cpu_data.x86_vendor = !memcmp(v, "GenuineIntel", 12) ?
		X86_VENDOR_INTEL : !memcmp(v, "AuthenticAMD", 12) ?
		X86_VENDOR_AMD : -1;
	if (cpuid_eax(0x80000000) >= 0x80000006)
		boot_cpu_data.x86_cache_size = cpuid_ecx(0x80000006) >> 16;
	if (boot_cpu_data.x86_vendor == X86_VENDOR_INTEL && a >= 4)
		return "cpuid-leaf-4";
	if (boot_cpu_data.x86_vendor == X86_VENDOR_AMD &&
	    cpuid_eax(0x80000000) >= 0x8000001d &&
	    (cpuid_ecx(0x80000001) & (1 << 22)))
		return "cpuid-0x8000001d";
	return "cpuid-0x80000006-l2";
}

static int cmp_ull(const void *x, const void *y)
{
	unsigned long long a = *(const unsigned long long *)x;
	unsigned long long b = *(const unsigned long long *)y;

	return a < b ? -1 : a > b;
}

/* one pass writing every 64-byte line; ns */
static long long pass(volatile char *p, size_t n)
{
	unsigned long long t0 = sched_clock();
	size_t i;

	for (i = 0; i < n; i += 64)
		p[i]++;
	return (long long)(sched_clock() - t0);
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/*
 * The median of n paired differences and its distribution-free 95 %
 * interval (the order statistics n/2 -+ 0.98 sqrt(n), the normal
 * approximation of the binomial): one preempted pass on a busy host moves
 * a mean and its t interval by milliseconds, the median not.  Sorts d.
 */
static void median_ci(double *d, int n, double *med, double *lo, double *hi)
{
	int j = (int)floor(n / 2.0 - 0.98 * sqrt(n));
	int k = (int)ceil(n / 2.0 + 0.98 * sqrt(n));

	qsort(d, n, sizeof(*d), cmp_double);
	*med = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
	*lo = d[j < 0 ? 0 : j];
	*hi = d[k >= n ? n - 1 : k];
}

int main(int argc, char **argv)
{
	int a, b, runs, reps, r, n;
	unsigned long size, walk;
	unsigned long long cost, noise, *c, step = ~0ULL;
	double *dm, *de, mm, ml, mh, em, el, eh;
	const char *why, *src;
	char *buf, *big, *sizes, *tok;
	size_t bigsize = 128UL << 20;

	if (argc != 6) {
		fprintf(stderr, "usage: measure-host A B RUNS SIZES_KB REPS\n");
		return 2;
	}
	a = atoi(argv[1]);
	b = atoi(argv[2]);
	runs = atoi(argv[3]);
	sizes = argv[4];
	reps = atoi(argv[5]);
	src = kernel_cache_source();
	sched_cache_size = x86_sched_cache_size();
	printf("machine kernel_cache_kb %lu source %s\n", sched_cache_size >> 10,
	       src);
	/* what measure_migration_cost() asks first: a size, a fine clock */
	for (r = 0; r < 3; r++) {
		unsigned long long t0, t1;

		for (t1 = t0 = sched_clock(); t1 == t0; )
			t1 = sched_clock();
		step = min(step, t1 - t0);
	}
	why = sched_cache_size < 1024 ? "no cache size from the architecture" :
		step > 10000 ? "sched_clock() is not finer than 10 us" : NULL;
	printf("machine measurable %s clock_step_ns %llu\n", why ? why : "yes",
	       step);
	if (why)
		return 0;

	/* the estimator, as the kernel runs it: its buffer, its scaling */
	walk = min(sched_cache_size, MIGRATION_WALK_MAX);
	buf = calloc(1, walk);
	c = calloc(runs, sizeof(*c));
	if (!buf || !c)
		return 1;
	for (r = 0; r < runs; r++) {
		noise = step;
		cost = move_cost(a, b, buf, walk, sched_clock() +
				 MIGRATION_BUDGET_NS, &noise, &n);
		cost *= sched_cache_size >> 10;
		cost /= walk >> 10;
		c[r] = cost;
		printf("estimator run %d moves %d cost_ns %llu noise_ns %llu\n",
		       r, n, cost, noise);
	}
	qsort(c, runs, sizeof(*c), cmp_ull);
	printf("estimator median_us %.1f min_us %.1f max_us %.1f value_us %.1f\n",
	       c[runs / 2] / 1000.0, c[0] / 1000.0, c[runs - 1] / 1000.0,
	       2 * c[runs / 2] / 1000.0);

	/* direct: the first pass after a move, after staying, after eviction */
	big = malloc(bigsize);
	dm = calloc(reps, sizeof(*dm));
	de = calloc(reps, sizeof(*de));
	if (!big || !dm || !de)
		return 1;
	memset(big, 1, bigsize);
	for (tok = strtok(sizes, ","); tok; tok = strtok(NULL, ",")) {
		char *set;
		long long stay, moved, evict;

		size = strtoul(tok, NULL, 10) << 10;
		set = malloc(size);
		if (!set)
			return 1;
		memset(set, 0, size);
		/* a task that moves back and forth, against one that stays */
		for (r = 0; r < reps; r++) {
			set_cpus_allowed(0, a);
			pass(set, size);
			set_cpus_allowed(0, a);		/* the same call, no move */
			stay = pass(set, size);
			pass(set, size);
			set_cpus_allowed(0, b);
			moved = pass(set, size);
			dm[r] = (moved - stay) / 1000.0;
		}
		/* the control: the same set after every cache was flushed */
		for (r = 0; r < reps; r++) {
			set_cpus_allowed(0, a);
			pass(set, size);
			set_cpus_allowed(0, a);
			stay = pass(set, size);
			pass(big, bigsize);		/* evicts every cache */
			set_cpus_allowed(0, a);
			evict = pass(set, size);
			de[r] = (evict - stay) / 1000.0;
		}
		median_ci(dm, reps, &mm, &ml, &mh);
		median_ci(de, reps, &em, &el, &eh);
		printf("direct size_kb %lu reps %d move_us %.2f %.2f %.2f "
		       "evict_us %.2f %.2f %.2f\n", size >> 10, reps, mm, ml, mh,
		       em, el, eh);
		free(set);
	}
	return 0;
}
