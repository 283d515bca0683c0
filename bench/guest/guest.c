/*
 * /init of the cachehot benchmark guest (scripts/bench.sh): two workloads
 * that sweep /proc/sys/kernel/cache_hot_time at run time.
 * Static musl, runs as pid 1 on Linux 2.6.9; independent of tests/guest/.
 *
 * chload=oltp (default): W worker processes per CPU. A transaction walks
 * `steps` nodes of the worker's private working set in a random cyclic
 * order (pointer chasing over 64-byte nodes: every step a dependent load of
 * a new cache line), then waits for "I/O": a nanosleep drawn log-uniformly
 * from [chsleep_min_us, chsleep_max_us]. The draws restart from the same
 * seed at every run, so every point sees the same sequence of waits. There
 * is no shared server: a single one (the first version's pipe to a log
 * writer) made convoys that swung the idle share between 0 and 56 % for the
 * same setting. A task wakes after 1-25 ms; if its CPU is busy the wakeup
 * and the balancer decide whether it waits there or moves to refill its set
 * elsewhere: the trade-off cache_hot_time makes.
 *
 * chload=msg: hackbench-shaped messaging with a cache footprint. G groups
 * per CPU, each of S senders and R receivers; every sender writes 100-byte messages
 * to each receiver of its group in turn (one pipe per receiver), every
 * receiver walks its private working set once per message. Throughput is
 * messages received per second.
 *
 * Parameters: kernel command line words name=value reach init as
 * environment variables (2.6.9). All are optional:
 *   chload=oltp|msg      the workload
 *   chpoints=d,2500,...  sweep points, us; "d" = the boot-time (derived)
 *                        value, "boot" = do not write (unpatched kernel),
 *                        "aa" = 2.5 ms again (A/A: the noise floor),
 *                        "pin" = every task pinned (oltp: worker i to CPU
 *                        i % ncpu; msg: group g to CPU g % ncpu),
 *                        "mig" = every worker (msg: receiver) moves to the
 *                        next CPU after each transaction (message);
 *                        pin and mig are the sensitivity control
 *   chreps=N             repetitions (interleaved: rep 1 of every point,
 *                        then rep 2...; counterbalanced order: odd reps
 *                        rotate, each even rep reverses the odd one before)
 *   chrep0=K             number of the first repetition (the host
 *                        interleaves repetitions across boots)
 *   chrun_ms=, chwarm_ms= measured and warm-up time per run
 *   chworkers=W          oltp workers per CPU (default 3)
 *   chws_kb=KB           working set per worker/receiver (default: cpuinfo
 *                        cache size / 2)
 *   chcompute_us=U       oltp: warm compute per transaction; the steps are
 *                        calibrated to it at start (default 3000)
 *   chsteps=S            steps per transaction, instead of chcompute_us
 *                        (msg default: the working set once)
 *   chsleep_min_us=, chsleep_max_us=  oltp I/O wait (default 1000, 25000;
 *                        max 0: no wait)
 *   chgroups=G, chsenders=S, chreceivers=R  msg: groups per CPU and the
 *                        shape of a group (default 4, 2, 2)
 *   chsettle_ms=MS       run the workload this long before the first run
 *                        (default 3000)
 *   chcalib=0|1          run the calibration first (default 1)
 *   chprop=N             sysctl propagation samples (default 200, 0 = off)
 *   chk=hz:HZ,...        boot.sh's word: the kernel's HZ (chhz=HZ also works)
 * Output, one line each (the host parses them):
 *   BENCH info key=value ...
 *   BENCH calib ...
 *   BENCH prop ...
 *   BENCH run i/n point=<p> rep=<r> us=<set> tps=<t> idle=<%> moves=<m>
 *         wakemoves=<m> hotref=<n> hotmoved=<n> ctxt=<c> secs=<s> t=<s>
 *         gapn=<n> gapcdf=<%>/<%>/...
 *         clock=<guest seconds per TSC second>
 *         (hotref, hotmoved: the series' counters of /proc/sched_domains,
 *         -1 on a kernel without them; t: seconds since the workload
 *         started; gapcdf: share of the gaps between two transactions of a
 *         task (its time off the CPU: sleep plus run-queue wait) shorter
 *         than 1, 2.5, 5, 7.5, 10, 12.5, 15, 25 and 250 ms, by the guest's
 *         clock; clock: how fast the guest's clock ran against the TSC the
 *         snapshots read, a diagnostic: timing rates and gaps by the TSC
 *         instead made the runs twice as noisy, see benchmarks.md)
 *   GUEST END
 * then sync and power off.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define SYSCTL_CPU	"/proc/sys/kernel/cache_hot_time"
#define SYSCTL_NODE	"/proc/sys/kernel/cache_hot_time_node"
#define VIEW		"/proc/sched_domains"
#define MAXCPU		64
#define MAXW		512
#define MAXPOINTS	32
#define NGAP		9	/* gap histogram bounds */
#define NODE_MIN_US	10000	/* the series' NUMA floor where it measured nothing */

struct node { uint32_t next; uint32_t pad[15]; };	/* one cache line */

/* upper bounds of the gap histogram, us: the seed's points */
static const long gap_le[NGAP] = {
	1000, 2500, 5000, 7500, 10000, 12500, 15000, 25000, 250000
};

struct shared {
	/* per worker, one line each: [0] transactions, [1] sink, [2..] gaps */
	volatile unsigned long count[MAXW][16];
	volatile unsigned long sink;
	volatile int mig;		/* "mig" point: move every transaction */
	volatile int epoch;		/* bumped per run: restart the sleep draws */
};

static struct shared *sh;
static int ncpu = 1;

static long env_long(const char *name, long def)
{
	const char *v = getenv(name);

	return v && *v ? strtol(v, NULL, 10) : def;
}

/* HZ as boot.sh passes it: chk=hz:<HZ>,cpus:<n>,... (or chhz=<HZ>) */
static long guest_hz(void)
{
	const char *p = getenv("chk");

	for (; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, "hz:", 3))
			return strtol(p + 3, NULL, 10);
	return env_long("chhz", 0);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static int read_file(const char *path, char *buf, size_t size)
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

static long read_us(const char *path)
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

static int write_us(const char *path, long us)
{
	char b[32];

	snprintf(b, sizeof(b), "%ld\n", us);
	return write_str(path, b);
}

/* ---- the working set: a random cyclic permutation (Sattolo) ---- */

static uint64_t rng = 88172645463325252ULL;

static uint64_t xorshift(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static struct node *make_ws(size_t kb)
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

static uint32_t walk(const struct node *ws, uint32_t pos, long steps)
{
	while (steps-- > 0)
		pos = ws[pos].next;
	return pos;
}

static int pin(pid_t pid, int cpu)
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

/* ---- /proc snapshots ---- */

static uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static double cpu_mhz;	/* /proc/cpuinfo: the TSC rate the kernel calibrated */

struct snap {
	double t;
	uint64_t tsc;		/* the TSC: under TCG it follows the host's clock */
	unsigned long long idle, total, ctxt;
	unsigned long long moves, wakemoves;	/* -1: no schedstats */
	unsigned long long hotref, hotmoved;	/* -1: view without counters */
	unsigned long long tx;
	unsigned long long gap[NGAP + 1];	/* gap histogram, all workers */
};

static char big[1 << 16];

static void snapshot(struct snap *s, int nworkers)
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

/* ---- the workload processes ---- */

/* A task's time off the CPU between two transactions, into its histogram. */
static void count_gap(int id, double off_s)
{
	long us = off_s * 1e6;
	int i;

	for (i = 0; i < NGAP && us >= gap_le[i]; i++)
		;
	sh->count[id][2 + i]++;		/* [2 + NGAP]: longer than the last */
}

/* "mig": move to the next CPU after each transaction */
static void maybe_move(int *cpu)
{
	if (!sh->mig)
		return;
	*cpu = (*cpu + 1) % ncpu;
	pin(0, *cpu);
	if (!sh->mig)		/* the point ended meanwhile */
		pin(0, -1);
}

static void oltp_worker(int id, size_t ws_kb, long steps, long sleep_min, long sleep_max)
{
	struct node *ws = make_ws(ws_kb);
	double span = sleep_max > sleep_min ? log((double)sleep_max / sleep_min) : 0;
	uint32_t pos = 0;
	int cpu = id % ncpu, epoch = -1;
	double off = 0;

	if (!ws)
		_exit(1);
	pos = walk(ws, 0, steps);	/* touch it once: fault the pages in */
	for (;;) {
		struct timespec io;
		long us;

		if (sh->epoch != epoch) {	/* a new run: the same draws again */
			epoch = sh->epoch;
			rng = 88172645463325252ULL + 7919ULL * (id + 1);
			off = 0;
		}
		if (off > 0)
			count_gap(id, now() - off);
		pos = walk(ws, pos, steps);
		sh->count[id][0]++;
		sh->count[id][1] = pos;	/* keeps the walk from being optimised out */
		off = now();
		if (sleep_max > 0) {
			us = sleep_min * exp(span * (xorshift() >> 11) / 9007199254740992.0);
			io.tv_sec = us / 1000000;
			io.tv_nsec = (us % 1000000) * 1000;
			nanosleep(&io, NULL);
		}
		maybe_move(&cpu);
	}
}

#define MSG_SIZE	100

static void msg_sender(int nrecv, const int *wfd)
{
	char buf[MSG_SIZE] = { 0 };
	int i;

	for (;;)
		for (i = 0; i < nrecv; i++)
			if (write(wfd[i], buf, MSG_SIZE) != MSG_SIZE && errno != EINTR)
				_exit(1);
}

static void msg_receiver(int id, int rfd, size_t ws_kb, long steps)
{
	struct node *ws = make_ws(ws_kb);
	char buf[MSG_SIZE];
	uint32_t pos = 0;
	int cpu = id % ncpu, n;
	double off = 0;

	if (!ws)
		_exit(1);
	pos = walk(ws, 0, steps);
	for (;;) {
		/* pipe writes of <= PIPE_BUF are atomic: whole messages */
		n = read(rfd, buf, MSG_SIZE);
		if (n <= 0 && errno != EINTR)
			_exit(1);
		if (n <= 0)
			continue;
		if (off > 0)
			count_gap(id, now() - off);
		pos = walk(ws, pos, steps);
		sh->count[id][0]++;
		sh->count[id][1] = pos;
		off = now();
		maybe_move(&cpu);
	}
}

/* ---- calibration ---- */

static double time_walk(const struct node *ws, long steps)
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

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n ? (n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) : 0;
}

/*
 * Is the workload cache-sensitive in this guest at all? (1) ns per step of
 * a warm walk by working set size, one task pinned on CPU 0: the memory
 * hierarchy as the guest sees it. (2) the first walk of the per-worker
 * working set right after a migration to another CPU, against a repeat walk
 * on the same CPU, and against a walk after another buffer evicted it on
 * the same CPU. (2) is what cache_hot_time is meant to save.
 */
static void calibrate(long cache_kb, size_t ws_kb, int others)
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
 * write and the first read of /proc/sched_domains that shows the new value
 * on every smp line. The write updates all CPUs before it returns, so this
 * is at most the write plus one read; the median of n samples is printed.
 */
static void propagation(int n, long restore_us)
{
	double tw[1000], tc[1000];
	int i, k = 0, tries;

	if (n > 1000)
		n = 1000;
	if (access(VIEW, R_OK) != 0 || access(SYSCTL_CPU, W_OK) != 0)
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
			int lines = 0, good = 0;

			read_file(VIEW, big, sizeof(big));
			/* cpu<N> domain<M> <level> <span> <us> [counters] */
			for (p = strstr(big, "\ncpu"); p; p = strstr(p + 1, "\ncpu")) {
				char level[16];
				long got;

				if (sscanf(p + 1, "cpu%*d domain%*d %15s %*s %ld",
					   level, &got) != 2 || strcmp(level, "smp"))
					continue;
				lines++;
				good += got == us;
			}
			ok = lines > 0 && good == lines;
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

/* ---- the sweep ---- */

static void set_point(long us)
{
	write_us(SYSCTL_CPU, us);
	/* What cache_hot_time=<us> at boot would set: NUMA = max(SMP, 10 ms) */
	if (access(SYSCTL_NODE, W_OK) == 0)
		write_us(SYSCTL_NODE, us > NODE_MIN_US ? us : NODE_MIN_US);
}

/* Steps of a warm walk of ws_kb that take about us microseconds (CPU 0). */
static long steps_for(size_t ws_kb, long us)
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
 * The pin point's CPU for task i: oltp worker i on CPU i % ncpu; msg group
 * g (receivers g*R.., then after all receivers its senders) on CPU g.
 */
static int home_cpu(int msg, int i, int nworkers, long senders, long receivers)
{
	if (!msg)
		return i % ncpu;
	return (i < nworkers ? i / receivers : (i - nworkers) / senders) % ncpu;
}

int main(void)
{
	char *points[MAXPOINTS], *pts, *model = "?", cachestr[64] = "?", *load;
	int npoints = 0, reps, rep0, nworkers, nprocs, i, r, k, pinned = 0, msg;
	long wpc, cache_kb = 0, ws_kb, steps, derived, derived_node;
	long sleep_min, sleep_max, compute_us, senders, receivers, groups;
	double run_s, warm_s, t_start;
	pid_t pids[MAXW];

	setvbuf(stdout, NULL, _IOLBF, 0);
	mkdir("/proc", 0555);
	if (mount("proc", "/proc", "proc", 0, NULL) != 0 && errno != EBUSY)
		printf("BENCH error mount /proc: %s\n", strerror(errno));

	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1 || ncpu > MAXCPU)
		ncpu = 1;
	if (read_file("/proc/cpuinfo", big, sizeof(big)) > 0) {
		char *p = strstr(big, "model name"), *e;

		if (p && (p = strchr(p, ':')) && (e = strchr(p, '\n'))) {
			*e = 0;
			model = strdup(p + 2);
			*e = '\n';
		}
		p = strstr(big, "cpu MHz");
		if (p && (p = strchr(p, ':')))
			cpu_mhz = strtod(p + 1, NULL);
		p = strstr(big, "cache size");
		if (p && (p = strchr(p, ':'))) {
			cache_kb = strtol(p + 1, NULL, 10);
			sscanf(p + 2, "%63[^\n]", cachestr);
		}
	}
	load = getenv("chload") && *getenv("chload") ? getenv("chload") : "oltp";
	msg = !strcmp(load, "msg");
	wpc = env_long("chworkers", 3);
	groups = env_long("chgroups", 4) * ncpu;
	senders = env_long("chsenders", 2);
	receivers = env_long("chreceivers", 2);
	/* workers: the tasks whose transactions count (msg: the receivers) */
	nworkers = msg ? receivers * groups : wpc * ncpu;
	nprocs = msg ? (senders + receivers) * groups : nworkers;
	if (nprocs > MAXW || senders < 1 || receivers < 1 || nworkers < 1) {
		printf("BENCH error too many tasks or an empty group\n");
		goto out;
	}
	if (cache_kb <= 0)
		cache_kb = 512;		/* cpuinfo said nothing: assume 512 KB */
	ws_kb = env_long("chws_kb", cache_kb / 2);
	sleep_min = env_long("chsleep_min_us", 1000);
	sleep_max = env_long("chsleep_max_us", 25000);
	compute_us = env_long("chcompute_us", 3000);
	reps = env_long("chreps", 1);
	rep0 = env_long("chrep0", 1);
	run_s = env_long("chrun_ms", 5000) / 1000.0;
	warm_s = env_long("chwarm_ms", 1000) / 1000.0;
	pts = strdup(getenv("chpoints") ? getenv("chpoints") : "d");
	for (char *t = strtok(pts, ","); t && npoints < MAXPOINTS; t = strtok(NULL, ","))
		points[npoints++] = t;
	derived = read_us(SYSCTL_CPU);		/* before any write: the boot value */
	derived_node = read_us(SYSCTL_NODE);

	printf("BENCH info cpus=%d model=\"%s\" cache=\"%s\" cache_kb=%ld hz=%ld\n",
	       ncpu, model, cachestr, cache_kb, guest_hz());
	printf("BENCH info boot_cache_hot_time_us=%ld boot_cache_hot_time_node_us=%ld\n",
	       derived, derived_node);
	if (read_file(VIEW, big, sizeof(big)) > 0) {
		for (char *l = strtok(big, "\n"); l; l = strtok(NULL, "\n"))
			printf("BENCH info domain %s\n", l);
	}

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		printf("BENCH error shared mmap: %s\n", strerror(errno));
		goto out;
	}
	if (env_long("chcalib", 1))	/* others: the other sets on a CPU */
		calibrate(cache_kb, ws_kb, msg ? receivers * groups / ncpu - 1 : wpc - 1);
	steps = env_long("chsteps", 0);
	if (steps <= 0)
		steps = msg ? ws_kb * 1024 / (long)sizeof(struct node) :
			steps_for(ws_kb, compute_us);
	if (msg)
		printf("BENCH info load=msg groups=%ld senders=%ld receivers=%ld ws_kb=%ld "
		       "steps=%ld run_ms=%.0f warm_ms=%.0f reps=%d rep0=%d points=%d\n",
		       groups, senders, receivers, ws_kb, steps, run_s * 1000,
		       warm_s * 1000, reps, rep0, npoints);
	else
		printf("BENCH info load=oltp workers_per_cpu=%ld workers=%d ws_kb=%ld "
		       "steps=%ld compute_us=%ld sleep_us=%ld-%ld run_ms=%.0f warm_ms=%.0f "
		       "reps=%d rep0=%d points=%d\n",
		       wpc, nworkers, ws_kb, steps, compute_us, sleep_min, sleep_max,
		       run_s * 1000, warm_s * 1000, reps, rep0, npoints);
	if (derived >= 0)
		propagation(env_long("chprop", 200), derived);

	if (msg) {
		/* group g: receivers g*R..g*R+R-1 (pids 0..), then its senders */
		int g, fds[MAXW];

		for (i = 0; i < nworkers; i++) {
			int pf[2];

			if (pipe(pf) != 0) {
				printf("BENCH error pipe: %s\n", strerror(errno));
				goto out;
			}
			pids[i] = fork();
			if (pids[i] == 0) {
				close(pf[1]);
				msg_receiver(i, pf[0], ws_kb, steps);
			}
			close(pf[0]);
			fds[i] = pf[1];
		}
		for (g = 0; g < groups; g++)
			for (k = 0; k < senders; k++) {
				i = nworkers + g * senders + k;
				pids[i] = fork();
				if (pids[i] == 0)
					msg_sender(receivers, fds + g * receivers);
			}
		for (i = 0; i < nworkers; i++)
			close(fds[i]);
	} else {
		for (i = 0; i < nworkers; i++) {
			pids[i] = fork();
			if (pids[i] == 0)
				oltp_worker(i, ws_kb, steps, sleep_min, sleep_max);
		}
	}

	/*
	 * Settle before the first run: the workers' first seconds (pages
	 * faulted in, the balancer spreading freshly forked tasks) ran
	 * 14 % faster than the rest of the boot in the first version.
	 */
	sleep_s(env_long("chsettle_ms", 3000) / 1000.0);
	t_start = now();
	for (r = 0; r < reps; r++) {
		for (k = 0; k < npoints; k++) {
			/*
			 * Counterbalanced order: throughput drifts during a
			 * boot (the workers persist, their placement settles),
			 * so a point's position in the run order biases it.
			 * Odd repetitions run the points rotated by one more
			 * than the last odd one, each even repetition runs the
			 * preceding odd one backwards: over every pair of
			 * repetitions each point's mean position is the middle.
			 */
			int q = rep0 + r;
			int rot = (q % 2) ? q - 1 : q - 2;
			int kk = (q % 2) ? k : npoints - 1 - k;
			const char *p = points[(kk + rot) % npoints];
			int n = r * npoints + k + 1, total = reps * npoints, j;
			long us = -1;
			struct snap a, b;
			double el, left;
			char cdf[128];
			size_t len = 0;
			unsigned long long gn = 0, c = 0;

			if (!strcmp(p, "d") || !strcmp(p, "pin") ||
			    !strcmp(p, "mig"))
				us = derived;
			else if (!strcmp(p, "aa"))
				us = 2500;
			else if (strcmp(p, "boot") != 0)
				us = strtol(p, NULL, 10);
			if (us >= 0 && derived >= 0)
				set_point(us);
			if ((strcmp(p, "pin") == 0) != pinned) {
				pinned = !pinned;
				for (i = 0; i < nprocs; i++)
					pin(pids[i], pinned ? home_cpu(msg, i, nworkers, senders,
									  receivers) : -1);
			}
			if ((strcmp(p, "mig") == 0) != sh->mig) {
				sh->mig = !sh->mig;
				for (i = 0; !sh->mig && i < nworkers; i++)
					pin(pids[i], -1);
			}
			sh->epoch++;
			sleep_s(warm_s);
			snapshot(&a, nworkers);
			sleep_s(run_s);
			snapshot(&b, nworkers);
			el = b.t - a.t;
			left = (now() - t_start) / n * (total - n);
			for (j = 0; j <= NGAP; j++)
				gn += b.gap[j] - a.gap[j];
			for (j = 0; j < NGAP && len < sizeof(cdf) - 8; j++) {
				c += b.gap[j] - a.gap[j];
				len += snprintf(cdf + len, sizeof(cdf) - len, "%s%.1f",
						j ? "/" : "", gn ? 100.0 * c / gn : 0.0);
			}
			printf("BENCH run %d/%d point=%s rep=%d us=%ld tps=%.1f idle=%.2f "
			       "moves=%lld wakemoves=%lld hotref=%lld hotmoved=%lld "
			       "ctxt=%llu secs=%.2f t=%.1f gapn=%llu gapcdf=%s clock=%.3f left_s=%.0f\n",
			       n, total, p, rep0 + r, derived >= 0 ? read_us(SYSCTL_CPU) : -1,
			       (b.tx - a.tx) / el,
			       b.total > a.total ? 100.0 * (b.idle - a.idle) / (b.total - a.total) : -1.0,
			       b.moves == (unsigned long long)-1 ? -1LL : (long long)(b.moves - a.moves),
			       b.wakemoves == (unsigned long long)-1 ? -1LL : (long long)(b.wakemoves - a.wakemoves),
			       b.hotref == (unsigned long long)-1 ? -1LL : (long long)(b.hotref - a.hotref),
			       b.hotmoved == (unsigned long long)-1 ? -1LL : (long long)(b.hotmoved - a.hotmoved),
			       b.ctxt - a.ctxt, el, b.t - t_start, gn, cdf,
			       cpu_mhz > 0 ? el / ((b.tsc - a.tsc) / (cpu_mhz * 1e6)) : -1.0, left);
		}
	}
	for (i = 0; i < nprocs; i++)
		kill(pids[i], SIGKILL);
	for (i = 0; i < nprocs; i++)
		waitpid(pids[i], NULL, 0);
	if (derived >= 0)
		set_point(derived);
out:
	/*
	 * The console is a tty: its output drains after write() returns, and
	 * the kernel's "Power down." would overtake it. Wait for the line to
	 * leave, so that GUEST END is the last line the host reads from us.
	 */
	printf("GUEST END\n");
	fflush(stdout);
	tcdrain(1);
	sleep_s(0.2);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
