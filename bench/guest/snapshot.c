// SPDX-License-Identifier: GPL-2.0
/*
 * One snapshot of what a run measures: the workers' transactions and gap
 * histograms, /proc/stat, the scheduler's statistics and the series'
 * counters. A run is the difference of two.
 */
#include "bench.h"

static uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

double cpu_mhz;

void snapshot(struct snap *s, int nworkers)
{
	char *p, *line;
	int i;

	s->t = now();
	s->tsc = rdtsc();
	s->tx = 0;
	memset(s->gap, 0, sizeof(s->gap));
	for (i = 0; i < nworkers; i++) {
		int j;

		s->tx += sh->count[i][0];
		for (j = 0; j <= NGAP; j++)
			s->gap[j] += sh->count[i][2 + j];
	}
	s->idle = s->total = s->ctxt = 0;
	if (read_file("/proc/stat", big, sizeof(big)) > 0) {
		unsigned long long v[8] = { 0 };

		/* cpu  user nice system idle iowait irq softirq (2.6.9) */
		sscanf(big, "cpu %llu %llu %llu %llu %llu %llu %llu",
		       &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]);
		for (i = 0; i < 7; i++)
			s->total += v[i];
		s->idle = v[3] + v[4];
		p = strstr(big, "\nctxt ");
		if (p)
			s->ctxt = strtoull(p + 6, NULL, 10);
	}
	/*
	 * /proc/schedstat version 10 (2.6.9) or 100 (the series': version 10
	 * with cache_hot_time), per CPU line: 22 runqueue counters
	 * (ttwu_moved is the 14th: wakeups that put the task on another CPU
	 * than the one it last ran on), then pt_gained/pt_lost pairs for the
	 * IDLE, NOT_IDLE and NEWLY_IDLE balancer passes: pt_gained counts
	 * the tasks load_balance()/active balancing pulled to this CPU.
	 * The domain lines count balancer calls and imbalance, not moves;
	 * the series' have the domain's cache_hot_time (ns) after the mask
	 * and end with 5 more counters: the cache-hot tasks the balancer left
	 * alone and moved anyway when idle and when busy, and left alone
	 * when newly idle (which never moves one), summed here.
	 */
	s->moves = s->wakemoves = (unsigned long long)-1;
	s->hotref = s->hotmoved = (unsigned long long)-1;
	if (read_file(SCHEDSTAT, big, sizeof(big)) <= 0)
		return;
	if (strncmp(big, "version 10\n", 11) != 0 &&
	    strncmp(big, "version 100\n", 12) != 0)
		return;
	s->hotref = s->hotmoved = 0;
	s->moves = s->wakemoves = 0;
	for (line = strtok(big, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned long long f[40];
		char *q;
		int n = 0;

		if (!strncmp(line, "domain", 6) && s->hotref != (unsigned long long)-1) {
			q = strchr(line, ' ');
			q = q ? strchr(q + 1, ' ') : NULL;	/* past the span */
			while (q && n < 40) {
				f[n++] = strtoull(q, &q, 10);
				if (*q != ' ')
					break;
			}
			if (n != 25) {	/* 19: 2.6.9's, no series counters */
				s->hotref = s->hotmoved = (unsigned long long)-1;
				continue;
			}
			s->hotref += f[20] + f[22] + f[24];
			s->hotmoved += f[21] + f[23];
			continue;
		}
		if (strncmp(line, "cpu", 3) != 0)
			continue;
		q = strchr(line, ' ');
		while (q && n < 28) {
			f[n++] = strtoull(q, &q, 10);
			if (*q != ' ')
				break;
		}
		if (n < 28)
			continue;
		s->wakemoves += f[13];
		s->moves += f[22] + f[24] + f[26];
	}
}
