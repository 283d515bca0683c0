// SPDX-License-Identifier: GPL-2.0
/*
 * Calibration of the benchmark guest: how the guest's memory hierarchy and
 * a move look to a walk (printed for the reader, not used), how long a
 * sysctl write takes to reach every CPU, and how many steps a transaction's
 * compute takes.
 */
#include "bench.h"

/*
 * Is the workload cache-sensitive in this guest at all? (1) ns per step of
 * a warm walk by working set size, one task pinned on CPU 0: the memory
 * hierarchy as the guest sees it. (2) the first walk of the per-worker
 * working set right after a migration to another CPU, against a repeat walk
 * on the same CPU, and against a walk after another buffer evicted it on
 * the same CPU. (2) is what cache_hot_time is meant to save.
 */
void calibrate(long cache_kb, size_t ws_kb, int others)
{
	/* 0: the cpuinfo cache size; the rest span a host's L1..DRAM */
	static const size_t sizes[] = { 16, 0, 256, 1024, 4096, 16384, 65536 };
	const size_t evict_kb = 16384;
	struct node *ws, *evict, *other[16];
	size_t kb, lines;
	int i, r, reps = 9;
	double warm[9], moved[9], evicted[9], shared[9];

	pin(0, 0);
	for (i = 0; i < 7; i++) {
		kb = sizes[i] ? sizes[i] : (size_t)cache_kb;
		lines = kb * 1024 / sizeof(struct node);
		ws = make_ws(kb);
		if (!ws)
			break;
		time_walk(ws, lines);		/* fault in, warm */
		for (r = 0; r < 5; r++)
			warm[r] = time_walk(ws, lines) / lines * 1e9;
		printf("BENCH calib walk ws_kb=%zu ns_per_step=%.1f\n", kb, median(warm, 5));
		munmap(ws, lines * sizeof(struct node));
	}
	if (ncpu < 2)
		goto out;
	lines = ws_kb * 1024 / sizeof(struct node);
	ws = make_ws(ws_kb);
	evict = make_ws(evict_kb);
	if (!ws || !evict)
		goto out;
	if (others > 16)
		others = 16;
	for (i = 0; i < others; i++)
		if (!(other[i] = make_ws(ws_kb)))
			goto out;
	for (r = 0; r < reps; r++) {
		pin(0, 0);
		time_walk(ws, lines);
		warm[r] = time_walk(ws, lines) * 1e6;
		pin(0, 1);			/* migrate: the cache stays behind */
		moved[r] = time_walk(ws, lines) * 1e6;
		time_walk(ws, lines);
		time_walk(evict, evict_kb * 1024 / sizeof(struct node));
		evicted[r] = time_walk(ws, lines) * 1e6;
		/*
		 * Does a set survive while its task waits? The other tasks
		 * of its CPU walk their sets meanwhile; then it walks again,
		 * without moving.
		 */
		time_walk(ws, lines);
		for (i = 0; i < others; i++)
			time_walk(other[i], lines);
		shared[r] = time_walk(ws, lines) * 1e6;
	}
	{
		double w = median(warm, reps), m = median(moved, reps),
		       e = median(evicted, reps), o = median(shared, reps);

		printf("BENCH calib migrate ws_kb=%zu warm_us=%.0f after_move_us=%.0f "
		       "after_evict_us=%.0f move_penalty_pct=%.1f evict_penalty_pct=%.1f "
		       "others=%d after_others_us=%.0f others_penalty_pct=%.1f\n",
		       ws_kb, w, m, e, 100 * (m / w - 1), 100 * (e / w - 1),
		       others, o, 100 * (o / w - 1));
	}
out:
	pin(0, -1);
}

/*
 * How long a sysctl write takes to reach every CPU's domains: time the
 * write and the first read of /proc/schedstat that shows the new value
 * (in ns, the field after the mask of a domain line) in one domain of
 * every CPU. The write updates all CPUs before it returns, so this is at
 * most the write plus one read; the median of n samples is printed.
 */
/* A /proc/schedstat domain line's cache_hot_time (the series'), ns; -1 */
static long long domain_ns(const char *line)
{
	const char *q = strchr(line, ' ');	/* "domainN MASK NS ..." */

	q = q ? strchr(q + 1, ' ') : NULL;
	return q ? strtoll(q + 1, NULL, 10) : -1;
}

void propagation(int n, long restore_us)
{
	double tw[1000], tc[1000];
	int i, k = 0, tries;

	if (n > 1000)
		n = 1000;
	if (access(SCHEDSTAT, R_OK) != 0 || access(SYSCTL_CPU, W_OK) != 0)
		return;
	for (i = 0; i < n; i++) {
		long us = 3000 + (i & 1) * 1000 + i;
		char *p;
		double t0 = now(), t1;
		int ok = 0;

		if (write_us(SYSCTL_CPU, us) != 0)
			break;
		t1 = now();
		for (tries = 0; tries < 1000 && !ok; tries++) {
			int good = 0;

			read_file(SCHEDSTAT, big, sizeof(big));
			for (p = strstr(big, "\ndomain"); p; p = strstr(p + 1, "\ndomain"))
				good += domain_ns(p + 1) == us * 1000LL;
			ok = good == ncpu;
		}
		if (!ok)
			break;
		tw[k] = (t1 - t0) * 1e6;
		tc[k++] = (now() - t0) * 1e6;
	}
	write_us(SYSCTL_CPU, restore_us);
	if (k)
		printf("BENCH prop samples=%d write_us_median=%.1f write_to_all_cpus_us_median=%.1f\n",
		       k, median(tw, k), median(tc, k));
	if (k < n)
		printf("BENCH prop error: sample %d did not reach every CPU\n", k);
}

/* Steps of a warm walk of ws_kb that take about us microseconds (CPU 0). */
long steps_for(size_t ws_kb, long us)
{
	long lines = ws_kb * 1024 / sizeof(struct node), steps;
	struct node *ws = make_ws(ws_kb);
	double t[5];
	int r;

	if (!ws)
		return lines;
	pin(0, 0);
	time_walk(ws, lines);
	for (r = 0; r < 5; r++)
		t[r] = time_walk(ws, lines) / lines;
	pin(0, -1);
	munmap(ws, lines * sizeof(struct node));
	steps = us * 1e-6 / median(t, 5);
	return steps > 0 ? steps : 1;
}

/*
 * Is a vCPU's speed its own? A task on CPU 0 counts loops for ms
 * milliseconds while CPUs 1.. idle, then while a task pinned on each of
 * them spins, alternately, reps times. On a real machine (and a guest
 * whose vCPUs each have a host core, or are paced: cachemodel/plugin.c)
 * the two rates are the same; a guest with more vCPUs than host cores,
 * unpaced, runs CPU 0 faster while the others idle. Prints one line per
 * repetition and the median ratio, busy over idle.
 */
void faithful(int reps, int ms)
{
	double idle[64], busy[64], ratio[64];
	pid_t kids[MAXCPU];
	int r, i;

	if (reps > 64)
		reps = 64;
	for (r = 0; r < reps && ncpu > 1; r++) {
		for (i = 0; i < 2; i++) {
			volatile unsigned long x = 0;
			double t0, t;
			int k;

			for (k = 1; i && k < ncpu; k++) {
				kids[k] = fork();
				if (kids[k] == 0) {
					pin(0, k);
					for (;;)
						x++;
				}
			}
			pin(0, 0);
			sleep_s(0.05);	/* the spinners reach their CPUs */
			t0 = now();
			while ((t = now()) - t0 < ms / 1000.0) {
				unsigned long n;

				for (n = 0; n < 100000; n++)
					x++;
			}
			(i ? busy : idle)[r] = x / (t - t0);
			for (k = 1; i && k < ncpu; k++) {
				kill(kids[k], SIGKILL);
				waitpid(kids[k], NULL, 0);
			}
			pin(0, -1);
		}
		ratio[r] = busy[r] / idle[r];
		printf("BENCH faith rep=%d idle_loops_per_s=%.0f busy_loops_per_s=%.0f "
		       "ratio=%.3f\n", r + 1, idle[r], busy[r], ratio[r]);
	}
	if (r)
		printf("BENCH faith cpus=%d reps=%d ms=%d median_ratio=%.3f\n", ncpu,
		       r, ms, median(ratio, r));
}
