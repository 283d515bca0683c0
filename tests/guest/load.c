// SPDX-License-Identifier: GPL-2.0
/* under load: the counters with tasks that spread or are pinned; writes */
#include "guest.h"

/* ---- load: busy tasks, counters, stress ---- */

/* Busy tasks that sleep and wake so that the balancer keeps moving them */
static void busy_task(void)
{
	volatile unsigned long x = 0;
	struct timespec ts = { 0, 200000 };

	for (;;) {
		unsigned long i;

		for (i = 0; i < 200000; i++)
			x += i;
		nanosleep(&ts, NULL);
	}
}

/*
 * 2 * ncpus busy tasks that all start on CPU 0, for ms milliseconds: the
 * balancer must spread them.  pinned: they stay pinned to CPU 0, so it
 * cannot.  We stay on CPU 0 meanwhile, so that only kernel threads could
 * add to the counters.  The increments of the sums of the hot pairs go to
 * d[] (schedstat_hot_sums()); -1 if /proc/schedstat could not be read.
 * max_ms > ms: go on, 100 ms at a time, up to max_ms in all, until there
 * are at least MIN_EVENTS, some refused and some moved (a slow guest, as
 * under the cache model on a loaded host, balances less often: 6 events
 * in 500 ms once, where a quiet host gives 20-40).  *took: the ms it ran.
 */
#define MIN_EVENTS	10
int counters_run(int ncpus, int pinned, int ms, int max_ms,
			unsigned long d[6], int *took)
{
	pid_t kids[16];
	int nkids = 2 * ncpus > 16 ? 16 : 2 * ncpus, i, bad;
	unsigned long s0[6], s1[6];
	cpu_set_t one, all;
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	struct timespec step = { 0, 100 * 1000000L };

	CPU_ZERO(&one);
	CPU_SET(0, &one);
	CPU_ZERO(&all);
	for (i = 0; i < ncpus; i++)
		CPU_SET(i, &all);
	sched_setaffinity(0, sizeof(one), &one);
	bad = schedstat_hot_sums(s0);
	for (i = 0; i < nkids; i++) {
		kids[i] = fork();
		if (kids[i] == 0) {
			if (!pinned)
				sched_setaffinity(0, sizeof(all), &all);
			busy_task();
		}
	}
	nanosleep(&ts, NULL);
	*took = ms;
	for (;;) {
		bad |= schedstat_hot_sums(s1);
		if (bad || *took >= max_ms ||
		    (s1[0] + s1[2] + s1[4] > s0[0] + s0[2] + s0[4] &&
		     s1[1] + s1[3] + s1[5] > s0[1] + s0[3] + s0[5] &&
		     s1[0] + s1[1] + s1[2] + s1[3] + s1[4] + s1[5] >=
		     s0[0] + s0[1] + s0[2] + s0[3] + s0[4] + s0[5] + MIN_EVENTS))
			break;
		nanosleep(&step, NULL);
		*took += 100;
	}
	sched_setaffinity(0, sizeof(all), &all);
	for (i = 0; i < nkids; i++)
		kill(kids[i], SIGKILL);
	for (i = 0; i < nkids; i++)
		waitpid(kids[i], NULL, 0);
	for (i = 0; i < 6; i++)
		d[i] = s1[i] - s0[i];
	return bad;
}

/*
 * A CPU just becoming idle never takes a cache hot task (sched-stats.txt:
 * field 27 is always 0).  Only while no value is being written: the
 * balancer reads the value twice, to refuse and to count.
 */
void check_newidle_total(const char *name)
{
	unsigned long s[6];
	int err = schedstat_hot_sums(s);

	check(!err && s[5] == 0, name, "%s: NEWLY_IDLE hot_moved sums to %lu",
	      err ? "unreadable" : "read", s[5]);
}

/*
 * The counters of /proc/schedstat: with every task cache hot (4 s at
 * both levels), tasks that must be spread are refused, then moved anyway
 * once balancing has failed cache_nice_tries times; tasks pinned to one
 * CPU are never candidates, so the counters stay still (but for a kernel
 * thread that wakes meanwhile).  A newly idle CPU never moves a hot task.
 * The levels get back the values read before.
 */
void check_counters(int ncpus, struct model *m)
{
	unsigned long d[6], r, mv, spread;
	long old_cpu = read_us(SYSCTL_CPU), old_node = -1;
	char v[32], why[256];
	int err, took;

	write_str(SYSCTL_CPU, "4000000");
	if (m->numa) {
		old_node = read_us(SYSCTL_NODE);
		write_str(SYSCTL_NODE, "4000000");
	}
	err = counters_run(ncpus, 0, 500, 5000, d, &took);
	/*
	 * A domain whose last balance failed (nr_balance_failed at or above
	 * cache_nice_tries, as after an active balance) moves a hot task at
	 * its first look, with no refusal; a move sets it back to 0.  So a
	 * spread with moves and no refusal is run once more.
	 */
	if (!err && d[0] + d[2] + d[4] == 0 && d[1] + d[3] + d[5] > 0) {
		unsigned long d2[6];
		int took2, i;

		err = counters_run(ncpus, 0, 500, 5000, d2, &took2);
		for (i = 0; i < 6; i++)
			d[i] += d2[i];
		took += took2;
	}
	r = d[0] + d[2] + d[4];
	mv = d[1] + d[3] + d[5];
	printf("GUEST INFO counters, cache_hot_time 4s, %d tasks spreading for "
	       "%d ms: %lu refused, %lu moved anyway (idle %lu/%lu, busy "
	       "%lu/%lu, newly idle %lu/%lu)\n", 2 * ncpus, took, r, mv, d[0],
	       d[1], d[2], d[3], d[4], d[5]);
	check(!err && r > 0, "counters-hot-refused-moves",
	      "no hot task refused in %d ms of spreading tasks at 4 s%s", took,
	      err ? " (schedstat unreadable)" : "");
	check(!err && mv > 0, "counters-hot-moved-moves",
	      "no hot task moved anyway in %d ms of spreading tasks at 4 s%s",
	      took, err ? " (schedstat unreadable)" : "");
	check(!err && d[5] == 0, "counters-newidle-never-moves-hot",
	      "a newly idle CPU moved %lu hot tasks", d[5]);
	spread = r + mv;
	err = counters_run(ncpus, 1, 500, 500, d, &took);
	r = d[0] + d[2] + d[4];
	mv = d[1] + d[3] + d[5];
	printf("GUEST INFO counters, cache_hot_time 4s, %d tasks pinned for "
	       "%d ms: %lu refused, %lu moved anyway\n", 2 * ncpus, took, r,
	       mv);
	/*
	 * A kernel thread (pdflush) that wakes meanwhile is hot and refused
	 * each time the balancer looks while it waits: a few counts (6 once
	 * in 16 boots under the cache model, which slows everything), well
	 * below what spreading tasks cause (16-100 in those boots; plain TCG
	 * 300-400).  A kernel that counted pinned tasks would count up to
	 * 2 * ncpus - 1 at each balancing of each idle CPU: hundreds.
	 */
	check(!err && (r + mv <= 2 || 2 * (r + mv) < spread),
	      "counters-pinned-still",
	      "pinned tasks: %lu refused, %lu moved anyway (spreading: %lu)",
	      r, mv, spread);
	/* there is no "auto": write back what was read */
	snprintf(v, sizeof(v), "%ld\n", old_cpu);
	err = write_str(SYSCTL_CPU, v);
	model_write(m, 0, old_cpu);
	if (m->numa) {
		snprintf(v, sizeof(v), "%ld\n", old_node);
		err |= write_str(SYSCTL_NODE, v);
		model_write(m, 1, old_node);
	}
	check(!err && model_ok(m, why, sizeof(why)), "counters-values-restored",
	      "%s", err ? "a write failed" : why);
}

/* The values the stress test writes: the whole range, both words' edges */
static const char *const stress_vals[] = { "1000", "4000000", "0", "2500",
					   "3999999", "1", "65536\n",
					   "0x3d0900" };
static const long stress_us[] = { 1000, 4000000, 0, 2500, 3999999, 1, 65536,
				  4000000 };
#define NSTRESS	(sizeof(stress_us) / sizeof(stress_us[0]))

static int stress_value(long long ns, long boot_us)
{
	unsigned k;

	if (ns % 1000)
		return 0;
	for (k = 0; k < NSTRESS; k++)
		if (stress_us[k] * 1000LL == ns)
			return 1;
	return ns == boot_us * 1000LL;
}

/*
 * A reader: every SMP (and NUMA) level value /proc/schedstat shows, while
 * the writers run, is one that was written (or the boot value), in ns.
 * Exits 0, 1 with the first stray value printed, or 2 when it cannot
 * parse the file.
 */
static unsigned long *reader_passes;	/* shared by the readers */

static void stress_reader(const struct model *m)
{
	static struct sstat s;
	const char *name[MAX_LEVELS];
	char why[256];
	int nlevels = levels(m->smt, m->numa, name), cpu, dom;

	for (;;) {
		if (read_schedstat(&s, why, sizeof(why))) {
			printf("GUEST INFO stress reader: %s\n", why);
			_exit(2);
		}
		for (cpu = 0; cpu < m->ncpus && mc_mode; cpu++)
			for (dom = 0; dom < s.ndom[cpu]; dom++)
				if (!(dom == 0 && m->smt &&
				      !s.d[cpu][dom].hot_ns) &&
				    !stress_value(s.d[cpu][dom].hot_ns,
						  m->boot_cpu) &&
				    !stress_value(s.d[cpu][dom].hot_ns,
						  m->boot_node)) {
					printf("GUEST INFO stress reader saw "
					       "%llu ns in cpu%d domain%d\n",
					       s.d[cpu][dom].hot_ns, cpu, dom);
					_exit(1);
				}
		for (cpu = 0; cpu < m->ncpus && !mc_mode; cpu++) {
			if (s.ndom[cpu] != nlevels) {
				printf("GUEST INFO stress reader: cpu%d has %d "
				       "domains\n", cpu, s.ndom[cpu]);
				_exit(2);
			}
			for (dom = 0; dom < nlevels; dom++) {
				int node = !strcmp(name[dom], "numa");

				if (!strcmp(name[dom], "smt"))
					continue;
				if (!stress_value(s.d[cpu][dom].hot_ns,
						  node ? m->boot_node :
						  m->boot_cpu)) {
					printf("GUEST INFO stress reader saw "
					       "%llu ns in cpu%d domain%d (%s)\n",
					       s.d[cpu][dom].hot_ns, cpu, dom,
					       name[dom]);
					_exit(1);
				}
			}
		}
		if (reader_passes)
			__sync_fetch_and_add(reader_passes, 1);
	}
}

/*
 * A writer for one level: n writes of the stress values (starting at
 * value first), each read back.  Exits with how many did not (at most
 * 255).
 */
static void stress_writer(int node, int n, int first)
{
	const char *path = node ? SYSCTL_NODE : SYSCTL_CPU;
	int i, bad = 0;

	for (i = 0; i < n; i++) {
		int k = (i + first) % NSTRESS;
		int err = write_str(path, stress_vals[k]);

		/*
		 * The SMP writer is the only one of its level: it reads back
		 * what it wrote.  The NUMA writer's value may be below the SMP
		 * level (EINVAL) or raised by an SMP write before it reads.
		 */
		if (node ? err && err != EINVAL :
		    err || read_us(path) != stress_us[k])
			bad++;
	}
	_exit(bad > 255 ? 255 : bad);
}

void check_stress(int nwrites, struct model *m)
{
	pid_t kids[16], readers[2], writers[2];
	int nkids = 2 * m->ncpus > 16 ? 16 : 2 * m->ncpus, i, bad = 0;
	int nwriters = m->numa ? 2 : 1, each = nwrites / nwriters, stray = 0;
	char why[256], v[32];
	unsigned long passes = 0;
	void *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	time_t t0;

	reader_passes = shared == MAP_FAILED ? NULL : shared;

	/* from the boot values, which the readers accept too */
	snprintf(v, sizeof(v), "%ld", m->boot_cpu);
	bad = write_str(SYSCTL_CPU, v) != 0;
	model_write(m, 0, m->boot_cpu);
	if (m->numa) {
		snprintf(v, sizeof(v), "%ld", m->boot_node);
		bad += write_str(SYSCTL_NODE, v) != 0;
		model_write(m, 1, m->boot_node);
	}
	t0 = time(NULL);
	for (i = 0; i < nkids; i++) {
		kids[i] = fork();
		if (kids[i] == 0)
			busy_task();
	}
	/* the readers read /proc/schedstat: none without it */
	for (i = 0; i < (m->stats ? 2 : 0); i++) {
		readers[i] = fork();
		if (readers[i] == 0)
			stress_reader(m);
	}
	/* level i starts at value i, so the two levels differ */
	for (i = 0; i < nwriters; i++) {
		writers[i] = fork();
		if (writers[i] == 0)
			stress_writer(i, each, i);
	}
	for (i = 0; i < nwriters; i++) {
		int status = 0;

		waitpid(writers[i], &status, 0);
		bad += WIFEXITED(status) ? WEXITSTATUS(status) : 256;
	}
	/* what the writers left, as the sysctls say: the domains must agree */
	m->cpu = read_us(SYSCTL_CPU);
	m->node = m->numa ? read_us(SYSCTL_NODE) : m->cpu;
	check(m->node >= m->cpu, "stress-numa-not-below-smp", "smp %ld numa "
	      "%ld", m->cpu, m->node);
	/* the readers' passes while the writers wrote */
	if (reader_passes)
		passes = __sync_fetch_and_add(reader_passes, 0);
	for (i = 0; i < (m->stats ? 2 : 0); i++) {
		int status = 0;

		/* a reader that already stopped saw a stray value */
		if (waitpid(readers[i], &status, WNOHANG) == readers[i])
			stray = 1;
		else {
			kill(readers[i], SIGKILL);
			waitpid(readers[i], NULL, 0);
		}
	}
	for (i = 0; i < nkids; i++)
		kill(kids[i], SIGKILL);
	for (i = 0; i < nkids; i++)
		waitpid(kids[i], NULL, 0);
	printf("GUEST INFO stress: %d writes by %d writer(s) with %d busy "
	       "tasks and %d readers (%lu passes over %s) in %ld s\n",
	       each * nwriters, nwriters, nkids, m->stats ? 2 : 0, passes,
	       SCHEDSTAT, (long)(time(NULL) - t0));
	if (m->stats)
		check(passes >= 10, "stress-readers-ran", "the readers made "
		      "%lu passes over %s while the writers wrote%s", passes,
		      SCHEDSTAT, reader_passes ? "" :
		      " (no shared memory to count them)");
	check(!bad, "stress-writes-read-back", "%d of %d writes did not read "
	      "back", bad, each * nwriters);
	if (m->stats)
		check(!stray, "stress-readers-see-only-written-values",
		      "see the INFO line above");
	check(model_ok(m, why, sizeof(why)), "stress-domains-consistent", "%s",
	      why);
}
