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
	/*
	 * The series' counters, summed over every CPU and domain of
	 * /proc/sched_domains: cache-hot tasks the balancer left alone, and
	 * cache-hot tasks it moved anyway.
	 */
	s->hotref = s->hotmoved = (unsigned long long)-1;
	if (read_file(VIEW, big, sizeof(big)) > 0 &&
	    strstr(big, " hot_refused hot_moved\n")) {
		s->hotref = s->hotmoved = 0;
		for (line = strtok(big, "\n"); line; line = strtok(NULL, "\n")) {
			unsigned long long r, m;

			if (sscanf(line, "cpu%*d domain%*d %*s %*s %*d %llu %llu",
				   &r, &m) == 2) {
				s->hotref += r;
				s->hotmoved += m;
			}
		}
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
	 * /proc/schedstat version 10, per CPU line: 22 runqueue counters
	 * (ttwu_moved is the 14th: wakeups that put the task on another CPU
	 * than the one it last ran on), then pt_gained/pt_lost pairs for the
	 * IDLE, NOT_IDLE and NEWLY_IDLE balancer passes: pt_gained counts
	 * the tasks load_balance()/active balancing pulled to this CPU.
	 * The domain lines count balancer calls and imbalance, not moves.
	 */
	s->moves = s->wakemoves = (unsigned long long)-1;
	if (read_file("/proc/schedstat", big, sizeof(big)) <= 0 ||
	    strncmp(big, "version 10\n", 11) != 0)
		return;
	s->moves = s->wakemoves = 0;
	for (line = strtok(big, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned long long f[28];
		char *q;
		int n = 0;

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
