// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers of the benchmark guest: parameters, time, /proc files, the
 * working set and its walk, CPU affinity, statistics, and what every
 * workload task does between two transactions.
 */
#include "bench.h"

struct shared *sh;
int ncpu = 1;
char big[1 << 16];
const long gap_le[NGAP] = {
	1000, 2500, 5000, 7500, 10000, 12500, 15000, 25000, 250000
};

long env_long(const char *name, long def)
{
	const char *v = getenv(name);

	return v && *v ? strtol(v, NULL, 10) : def;
}

/* HZ as boot.sh passes it (or chhz=<HZ>) */
long guest_hz(void)
{
	return chk_long("hz", env_long("chhz", 0));
}

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* 0, or -1 with errno set */
int write_us(const char *path, long us)
{
	char b[32];
	int e;

	snprintf(b, sizeof(b), "%ld\n", us);
	e = write_str(path, b);
	errno = e;
	return e ? -1 : 0;
}

/* ---- the working set: a random cyclic permutation (Sattolo) ---- */

uint64_t rng = 88172645463325252ULL;

uint64_t xorshift(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

struct node *make_ws(size_t kb)
{
	size_t n = kb * 1024 / sizeof(struct node), i;
	struct node *ws;
	uint32_t *perm;

	if (n < 2)
		n = 2;
	ws = mmap(NULL, n * sizeof(*ws), PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	perm = malloc(n * sizeof(*perm));
	if (ws == MAP_FAILED || !perm) {
		printf("BENCH error no memory for %zu KB\n", kb);
		return NULL;
	}
	for (i = 0; i < n; i++)
		perm[i] = i;
	for (i = n - 1; i > 0; i--) {	/* Sattolo: one cycle through all */
		size_t j = xorshift() % i;
		uint32_t t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	for (i = 0; i < n; i++)
		ws[perm[i]].next = perm[(i + 1) % n];
	free(perm);
	return ws;
}

/*
 * A walk of `steps` nodes from pos. With walk_writes every node visited is
 * also written, as a transaction updates what it reads: a written line is
 * invalid in every other CPU's cache, so a task that moves finds none of
 * its set there. A set that is only read stays valid in every cache that
 * ever read it, and under the cache model a worker that had visited both
 * CPUs moved for almost nothing (a 256 KB set: +5 % after a move, chen4).
 */
int walk_writes = 1;

uint32_t walk(struct node *ws, uint32_t pos, long steps)
{
	if (!walk_writes) {
		while (steps-- > 0)
			pos = ws[pos].next;
		return pos;
	}
	while (steps-- > 0) {
		ws[pos].pad[0]++;
		pos = ws[pos].next;
	}
	return pos;
}

int pin(pid_t pid, int cpu)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	if (cpu >= 0)
		CPU_SET(cpu, &set);
	else
		for (i = 0; i < ncpu; i++)
			CPU_SET(i, &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

double time_walk(struct node *ws, long steps)
{
	double t = now();

	sh->sink += walk(ws, 0, steps);
	return now() - t;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n ? (n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) : 0;
}

/* ---- helpers of the workload tasks ---- */

/* A task's time off the CPU between two transactions, into its histogram. */
void count_gap(int id, double off_s)
{
	long us = off_s * 1e6;
	int i;

	for (i = 0; i < NGAP && us >= gap_le[i]; i++)
		;
	sh->count[id][2 + i]++;		/* [2 + NGAP]: longer than the last */
}

/* "mig": move to the next CPU after each transaction */
/* pipe(), or a BENCH error line and -1 */
int bench_pipe(int fd[2])
{
	if (pipe(fd) == 0)
		return 0;
	printf("BENCH error pipe: %s\n", strerror(errno));
	return -1;
}

/* A new run (sh->epoch moved on): restart task id's draws; 1 if so. */
int new_run(int *epoch, int id)
{
	if (sh->epoch == *epoch)
		return 0;
	*epoch = sh->epoch;
	rng = 88172645463325252ULL + 7919ULL * (id + 1);
	return 1;
}

/* an I/O wait, us: log-uniform in [min, max] */
long draw_wait_us(long min, long max)
{
	if (max <= min)
		return min;
	return min * exp(log((double)max / min) * (xorshift() >> 11) / 9007199254740992.0);
}

/*
 * The point may end while a task is here, and the task may then wait on
 * its new CPU's queue for longer than the next point's warm-up (a msg
 * receiver can come back inside a pinned run, and would unpin itself):
 * it takes what the guest wants for it now.
 */
void maybe_move(int *cpu, int id)
{
	if (!sh->mig)
		return;
	*cpu = (*cpu + 1) % ncpu;
	pin(0, *cpu);
	if (!sh->mig)		/* the point ended meanwhile */
		pin(0, sh->want[id]);
}

/*
 * The stream: the rows a transaction scans besides its own set (chstream_kb
 * per transaction, 0: none). Each task reads the next stream_kb of a
 * private region, one line a step, in order. The regions of all `tasks`
 * add up to 8 times the cache (each at least 1 MB): a line comes back only
 * after its task read its whole region again, by when the CPUs have read
 * several caches' worth of other lines, so every read is a miss that
 * evicts a line of somebody's set. The stream is the clock by which the
 * sets of a CPU's other tasks go cold, as a real OLTP load's scans age the
 * cache: without it the sets (768 KB a CPU) never leave a 16 MB cache, and
 * a task is as hot after a second as after a millisecond.
 */
int make_stream(struct stream *s, long stream_kb, long cache_kb, int tasks)
{
	size_t kb = 8 * cache_kb / (tasks > 0 ? tasks : 1), i;

	if (kb < 1024)
		kb = 1024;
	s->base = NULL;
	s->lines = s->pos = 0;
	if (stream_kb <= 0)
		return 0;
	s->base = mmap(NULL, kb * 1024, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s->base == MAP_FAILED) {
		printf("BENCH error no memory for a %zu KB stream\n", kb);
		return -1;
	}
	s->lines = kb * 1024 / sizeof(struct node);
	/* written once: untouched pages would all read the one zero page */
	for (i = 0; i < s->lines; i++)
		s->base[i * 16] = i;
	return 0;
}

void stream_read(struct stream *s, long kb)
{
	size_t n = kb * 1024 / sizeof(struct node);
	uint32_t sum = 0;

	if (!s->lines)
		return;
	while (n--) {
		sum += s->base[s->pos * 16];
		if (++s->pos == s->lines)
			s->pos = 0;
	}
	sh->sink += sum;
}

/*
 * Worker id's transaction at time t (s), in halves of `steps`: 2. With
 * phase_ms, the workers that started on an even CPU walk 3 halves and the
 * others 1 during even phases, and the other way round during odd ones:
 * the same work in all, but every phase_ms the CPUs' shares swap, so that
 * a balancer that refuses to move hot tasks leaves the newly light CPUs
 * idle while the heavy ones queue (as Kenneth Chen's idle at high
 * values needs an imbalance that pinning cannot fix). The workers count
 * their work in these halves, not in transactions: a CPU left to its
 * light workers finishes three of their transactions in the time of one
 * heavy one, and counting transactions paid pinning for starving the
 * heavy CPUs (pinned came out +3.9 +- 1.8 in transactions).
 */
int phase_halves(const struct params *p, int id, double t)
{
	long k;

	if (p->phase_ms <= 0)
		return 2;
	k = (long)(t * 1000 / p->phase_ms);
	return (id % ncpu + k) % 2 ? 1 : 3;
}
