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

/* HZ as boot.sh passes it: chk=hz:<HZ>,cpus:<n>,... (or chhz=<HZ>) */
long guest_hz(void)
{
	const char *p = getenv("chk");

	for (; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, "hz:", 3))
			return strtol(p + 3, NULL, 10);
	return env_long("chhz", 0);
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

int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY), n, len = 0;

	if (fd < 0)
		return -1;
	while ((size_t)len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = 0;
	return len;
}

long read_us(const char *path)
{
	char b[64];

	return read_file(path, b, sizeof(b)) > 0 ? strtol(b, NULL, 10) : -1;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (int)strlen(s) ? 0 : -1;
}

int write_us(const char *path, long us)
{
	char b[32];

	snprintf(b, sizeof(b), "%ld\n", us);
	return write_str(path, b);
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

void maybe_move(int *cpu)
{
	if (!sh->mig)
		return;
	*cpu = (*cpu + 1) % ncpu;
	pin(0, *cpu);
	if (!sh->mig)		/* the point ended meanwhile */
		pin(0, -1);
}
