// SPDX-License-Identifier: GPL-2.0
/* the run-time knobs: writes, the levels, sysctl(2), non-root */
#include "guest.h"

/* ---- the sysctls ---- */

/* One write: its bytes (len of them, NULs included) and the value in us */
struct wr { const char *in; size_t len; long us; };
#define W(s, us)	{ s, sizeof(s) - 1, us }
#define BAD		(-1L)

/*
 * proc_dointvec_minmax(): an integer as 2.6.9's int sysctls take it (base
 * 0: a leading 0 is octal, 0x hex; white space around it), from 0 to 4 s,
 * in one write of at most 9 bytes
 */
static const struct wr good_writes[] = {
	W("7500", 7500), W("10000\n", 10000), W("1500", 1500), W("0", 0),
	W("4000000", 4000000), W("1000000\n", 1000000), W("010", 8),
	W("0x10", 16), W(" 25\n", 25), W("3999999", 3999999), W("1", 1),
	W("65536", 65536), W("12000", 12000), W("250000\n", 250000),
	W(" 4000000\n", 4000000), W("017204400", 4000000),
	W("0x3d0900\n", 4000000), W("4000000\n\n", 4000000),
};
/*
 * a number that wrapped to 10 in proc_dointvec_minmax() is refused too, and
 * so is more than one integer (it stored the first)
 */
static const struct wr bad_writes[] = {
	W("\n", BAD), W(" ", BAD), W("-1", BAD), W("abc", BAD), W("10ms", BAD),
	W("7500us", BAD), W("1s", BAD), W("1e3", BAD), W("+5", BAD),
	W(".5", BAD), W("4000001", BAD), W("5000000\n", BAD), W("auto", BAD),
	W("measure", BAD), W("4294967306", BAD), W("-4294967286", BAD),
	W("18446744073709551626", BAD), W("0x10000000a", BAD),
	W("4000000\n\n\n", BAD), W("0000000010", BAD), W("10 20", BAD),
	W("10 x", BAD), W("10\n20", BAD),
};

/* The name of a write for a check: up to its newline, with "-newline" */
static void write_name(char *name, size_t size, const char *prefix,
		       const struct wr *w)
{
	size_t n = strcspn(w->in, "\n");

	snprintf(name, size, "%s%.*s%s", prefix, (int)n, w->in,
		 w->len > n ? "-newline" : "");
}

/*
 * Record a write of us to a level: raising the SMP level above the NUMA
 * level raises that too
 */
void model_write(struct model *m, int node, long us)
{
	if (node)
		m->node = us;
	else
		m->cpu = us;
	if (m->node < m->cpu)
		m->node = m->cpu;
}

/*
 * Writes to one level (node 0: SMP, 1: NUMA): each good write reads back
 * as written, reaches that level of every CPU's domains and leaves the
 * other level alone, and what is read can be written back unchanged; each
 * bad write fails with EINVAL and changes nothing.
 */
void check_sysctl(int node, struct model *m)
{
	const char *path = node ? SYSCTL_NODE : SYSCTL_CPU;
	const char *lvl = node ? "numa" : "smp";
	char name[128], prefix[64], why[256], back[32];
	unsigned i;
	int bad_ok = 1, trip_ok = 1, before;

	snprintf(prefix, sizeof(prefix), "sysctl-%s-write-", lvl);
	for (i = 0; i < sizeof(good_writes) / sizeof(good_writes[0]); i++) {
		const struct wr *g = &good_writes[i];
		int err = write_raw(path, g->in, g->len);
		long got = read_us(path);

		model_write(m, node, g->us);
		write_name(name, sizeof(name), prefix, g);
		check(!err && model_ok(m, why, sizeof(why)), name,
		      "write '%.*s': %s, reads %ld; %s",
		      (int)strcspn(g->in, "\n"), g->in,
		      err ? strerror(err) : "ok", got, why);
		/* read, write back what was read, read the same */
		snprintf(back, sizeof(back), "%ld\n", got);
		model_write(m, node, got);
		if (got < 0 || write_str(path, back) || read_us(path) != got) {
			printf("GUEST INFO %s: wrote back '%ld', reads %ld\n",
			       path, got, read_us(path));
			trip_ok = 0;
		}
	}
	snprintf(name, sizeof(name), "sysctl-%s-read-writes-back", lvl);
	check(trip_ok, name, "see the INFO lines above");

	write_str(path, "4321");
	model_write(m, node, 4321);
	before = klog_now_count("cache_hot_time");
	for (i = 0; i < sizeof(bad_writes) / sizeof(bad_writes[0]); i++) {
		const struct wr *b = &bad_writes[i];
		int err = write_raw(path, b->in, b->len);

		if (err != EINVAL || !model_ok(m, why, sizeof(why))) {
			printf("GUEST INFO bad write '%.*s' (%zu bytes) to %s: "
			       "%s, %s\n", (int)strcspn(b->in, "\n"), b->in,
			       b->len, path, err ? strerror(err) : "accepted",
			       why);
			bad_ok = 0;
		}
	}
	snprintf(name, sizeof(name), "sysctl-%s-bad-writes-einval", lvl);
	check(bad_ok, name, "see the INFO lines above");
	/* a refused write says nothing in the kernel log any more */
	snprintf(name, sizeof(name), "sysctl-%s-refusals-not-logged", lvl);
	check(klog_now_count("cache_hot_time") == before &&
	      !klog_now_count("refused"), name, "the kernel log grew from %d "
	      "to %d lines about cache_hot_time (%d with 'refused') during "
	      "the bad writes", before, klog_now_count("cache_hot_time"),
	      klog_now_count("refused"));
}

/*
 * A value written in pieces, on one fd: a write is one value at file
 * offset 0, so the first piece is a value of its own and every later
 * piece, at a non-zero offset, fails with EINVAL and changes nothing.
 * proc_dointvec_minmax() alone would parse each piece as a value: 0 for
 * "1" then "0", 0 for "4000" then "000", 0 for "2500" byte by byte.  Here
 * they leave 1, 4000 and 2.
 */
static void split_write(int node, struct model *m, const char *name,
			const char *const *piece, int npieces, long want)
{
	const char *path = node ? SYSCTL_NODE : SYSCTL_CPU;
	char why[256] = "", got[256] = "";
	int fd = open(path, O_WRONLY), i, ok = fd >= 0;

	for (i = 0; fd >= 0 && i < npieces; i++) {
		ssize_t n = write(fd, piece[i], strlen(piece[i]));
		int err = n < 0 ? errno : 0;

		snprintf(got + strlen(got), sizeof(got) - strlen(got),
			 "%s'%s' %s", i ? ", " : "", piece[i],
			 n == (ssize_t)strlen(piece[i]) ? "ok" :
			 err ? strerror(err) : "short");
		if (i == 0 ? n != (ssize_t)strlen(piece[i]) :
		    n != -1 || err != EINVAL)
			ok = 0;
	}
	if (fd >= 0)
		close(fd);
	model_write(m, node, want);
	ok = model_ok(m, why, sizeof(why)) && ok;
	check(ok, name, "%s%s; %s",
	      fd < 0 ? "open: " : "", fd < 0 ? strerror(errno) : got, why);
}

void check_split_writes(int node, struct model *m)
{
	static const char *const one_zero[] = { "1", "0" };
	static const char *const four_thousand[] = { "4000", "000" };
	static const char *const bytes[] = { "2", "5", "0", "0" };
	const char *path = node ? SYSCTL_NODE : SYSCTL_CPU;
	const char *lvl = node ? "numa" : "smp";
	char name[96], why[256] = "";
	int fd, ok;
	ssize_t n1 = 0, n2 = 0, n3 = 0;
	int e2 = 0, e3 = 0;

	snprintf(name, sizeof(name), "sysctl-%s-split-1-then-0", lvl);
	split_write(node, m, name, one_zero, 2, 1);
	snprintf(name, sizeof(name), "sysctl-%s-split-4000-then-000", lvl);
	split_write(node, m, name, four_thousand, 2, 4000);
	snprintf(name, sizeof(name), "sysctl-%s-split-2500-byte-by-byte", lvl);
	split_write(node, m, name, bytes, 4, 2);

	/*
	 * The offset, not the fd's history, decides: back at offset 0 a write
	 * is a value again; pwrite() at offset 3 is not, at 0 it is
	 */
	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		n1 = write(fd, "7000", 4);
		n2 = pwrite(fd, "9000", 4, 4);
		e2 = n2 < 0 ? errno : 0;
		n3 = -1;
		if (lseek(fd, 0, SEEK_SET) == 0)
			n3 = write(fd, "8000", 4);
		e3 = n3 < 0 ? errno : 0;
		close(fd);
	}
	model_write(m, node, 8000);
	ok = model_ok(m, why, sizeof(why)) &&
		fd >= 0 && n1 == 4 && n2 == -1 && e2 == EINVAL && n3 == 4;
	snprintf(name, sizeof(name), "sysctl-%s-offset-0-decides", lvl);
	check(ok, name, "write '7000' %zd, "
	      "pwrite '9000' at 4 %zd (%s), write '8000' after lseek to 0 %zd "
	      "(%s); %s", n1, n2, strerror(e2), n3, strerror(e3), why);
	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		n1 = pwrite(fd, "6000", 4, 0);
		close(fd);
	}
	model_write(m, node, 6000);
	snprintf(name, sizeof(name), "sysctl-%s-pwrite-at-0", lvl);
	check(fd >= 0 && n1 == 4 && model_ok(m, why, sizeof(why)), name,
	      "pwrite '6000' at 0: %zd; %s", n1, why);
}

/*
 * One write to a level: ok (want_err 0) and the model follows it, or the
 * error want_err and nothing changes
 */
static void level_step(const char *name, int node, const char *val, long us,
		       int want_err, struct model *m)
{
	char why[256];
	int err = write_str(node ? SYSCTL_NODE : SYSCTL_CPU, val);

	if (!want_err)
		model_write(m, node, us);
	check(err == want_err && model_ok(m, why, sizeof(why)), name,
	      "write '%s' to %s: %s; %s", val, node ? SYSCTL_NODE : SYSCTL_CPU,
	      err ? strerror(err) : "ok", why);
}

/*
 * The NUMA level is never below the SMP level at run time either: raising
 * the SMP level above it raises it; writing it below the SMP level fails
 * with EINVAL; lowering the SMP level leaves it.  Runs before anything
 * else writes, from the boot values, and leaves both at them.
 */
void check_levels(struct model *m)
{
	char v[32];

	level_step("levels-smp-50000-raises-numa", 0, "50000", 50000, 0, m);
	level_step("levels-numa-20000-below-smp-einval", 1, "20000", 0, EINVAL,
		   m);
	level_step("levels-numa-60000-above-smp", 1, "60000", 60000, 0, m);
	level_step("levels-smp-30000-numa-stays", 0, "30000", 30000, 0, m);
	level_step("levels-smp-0-numa-stays", 0, "0", 0, 0, m);
	level_step("levels-numa-0-at-smp", 1, "0", 0, 0, m);
	snprintf(v, sizeof(v), "%ld", m->boot_cpu);
	level_step("levels-smp-boot-value-back", 0, v, m->boot_cpu, 0, m);
	snprintf(v, sizeof(v), "%ld\n", m->boot_node);
	level_step("levels-numa-boot-value-back", 1, v, m->boot_node, 0, m);
}

/*
 * sysctl(2): CTL_KERN=1, KERN_CACHE_HOT_TIME=100 and
 * KERN_CACHE_HOT_TIME_NODE=101; an int of us.
 */
#define KERN_CACHE_HOT_TIME		100
#define KERN_CACHE_HOT_TIME_NODE	101
struct sysctl_args {
	int *name;
	int nlen;
	void *oldval;
	size_t *oldlenp;
	void *newval;
	size_t newlen;
	unsigned long unused[4];
};

static size_t oldlen;	/* what the last binary_sysctl() read returned */

static int binary_sysctl(int num, unsigned *oldval, const unsigned *newval)
{
	int name[2] = { 1, num };

	oldlen = 16;	/* room for more: the kernel must say 4 */
	struct sysctl_args a = {
		name, 2, oldval, oldval ? &oldlen : NULL, (void *)newval,
		newval ? sizeof(*newval) : 0, { 0 }
	};

	return syscall(SYS__sysctl, &a) ? errno : 0;
}

/*
 * sysctl(2) reads and writes the value with /proc's checks: a write
 * applies to every CPU's domains, one above 4 s fails with EINVAL and
 * changes nothing, and a read in the same call returns the old value
 */
void check_binary_sysctl(int node, struct model *m)
{
	const char *path = node ? SYSCTL_NODE : SYSCTL_CPU;
	const char *lvl = node ? "numa" : "smp";
	int num = node ? KERN_CACHE_HOT_TIME_NODE : KERN_CACHE_HOT_TIME;
	/* the NUMA level's values above the SMP level's */
	unsigned v[4] = { 0 }, w = node ? 3000000 : 30000;
	unsigned w2 = node ? 3500000 : 40000, big = 4000001;
	char name[96], why[256];
	int err;
	long before;

	err = binary_sysctl(num, v, NULL);
	snprintf(name, sizeof(name), "sysctl2-%s-read", lvl);
	check(!err && (long)v[0] == read_us(path) && oldlen == sizeof(v[0]),
	      name, "sysctl(2) %s, %u, length %zu; %s reads %ld",
	      err ? strerror(err) : "ok", v[0], oldlen, path, read_us(path));
	err = binary_sysctl(num, NULL, &w);
	if (!err)
		model_write(m, node, w);
	snprintf(name, sizeof(name), "sysctl2-%s-write", lvl);
	check(!err && model_ok(m, why, sizeof(why)), name,
	      "sysctl(2) write %u: %s; %s", w, err ? strerror(err) : "ok", why);
	err = binary_sysctl(num, NULL, &big);
	snprintf(name, sizeof(name), "sysctl2-%s-write-over-4s-einval", lvl);
	check(err == EINVAL && model_ok(m, why, sizeof(why)), name,
	      "write %u: %s; %s", big, err ? strerror(err) : "accepted", why);
	before = read_us(path);
	v[0] = 12345;
	err = binary_sysctl(num, v, &w2);
	if (!err)
		model_write(m, node, w2);
	snprintf(name, sizeof(name), "sysctl2-%s-read-and-write", lvl);
	check(!err && (long)v[0] == before && model_ok(m, why, sizeof(why)),
	      name, "read and write %u in one call: %s, old value %u (want "
	      "%ld); %s", w2, err ? strerror(err) : "ok", v[0], before, why);
}

/*
 * sysctl(2) fetches a new value from the caller once: while a second
 * process flips the int it passes between a valid value and -1, each
 * write stores the valid value or fails with EINVAL, never -1 (a check of
 * one fetch and a copy of another would store -1 now and then).  Needs
 * two CPUs, so that the flipping runs while the kernel reads.
 */
void check_sysctl2_fetch_once(int node, struct model *m, int ncpus)
{
	int num = node ? KERN_CACHE_HOT_TIME_NODE : KERN_CACHE_HOT_TIME;
	const char *path = node ? SYSCTL_NODE : SYSCTL_CPU;
	volatile int *v = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int good = node ? 3300000 : 33000, i, ok = 0, einval = 0, other = 0;
	int bad = 0;
	long seen = 0;
	char name[96], why[256];
	cpu_set_t cpu;
	pid_t pid;

	snprintf(name, sizeof(name), "sysctl2-%s-write-fetched-once",
		 node ? "numa" : "smp");
	if (ncpus < 2 || v == MAP_FAILED) {
		printf("GUEST INFO %s: needs two CPUs, not run\n", name);
		return;
	}
	*v = good;
	pid = fork();
	if (pid == 0) {
		CPU_ZERO(&cpu);
		CPU_SET(1, &cpu);
		sched_setaffinity(0, sizeof(cpu), &cpu);
		for (;;) {
			*v = -1;
			*v = good;
		}
	}
	CPU_ZERO(&cpu);
	CPU_SET(0, &cpu);
	sched_setaffinity(0, sizeof(cpu), &cpu);
	for (i = 0; i < 20000 && !bad; i++) {
		int err = binary_sysctl(num, NULL, (const unsigned *)v);

		if (!err)
			ok++;
		else if (err == EINVAL)
			einval++;
		else
			other++;
		seen = read_us(path);
		bad = seen < 0 || (ok && seen != good);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	CPU_ZERO(&cpu);
	for (i = 0; i < ncpus && i < 64; i++)
		CPU_SET(i, &cpu);
	sched_setaffinity(0, sizeof(cpu), &cpu);
	if (ok)
		model_write(m, node, good);
	printf("GUEST INFO %s: %d writes stored, %d refused (EINVAL), %d other "
	       "errors\n", name, ok, einval, other);
	check(!bad && ok > 0 && !other && model_ok(m, why, sizeof(why)),
	      name, "%s reads %ld after %d writes; %s", path, seen, i, why);
}

/*
 * Without /proc, sysctl(2) is the only way to tune the levels at run time:
 * it reads them, a write works and reads back, one above 4 s fails with
 * EINVAL and changes nothing, and the NUMA level cannot go below the SMP
 * level.  (No /proc/schedstat here to see the domains.)
 */
void check_sysctl2_only(int numa)
{
	unsigned v[4] = { 0 }, w = 30000, big = 4000001, low = 20000;
	int err, e2;

	err = binary_sysctl(KERN_CACHE_HOT_TIME, v, NULL);
	check(!err && oldlen == sizeof(v[0]), "sysctl2-only-read", "%s, "
	      "length %zu", err ? strerror(err) : "ok", oldlen);
	err = binary_sysctl(KERN_CACHE_HOT_TIME, NULL, &w);
	e2 = binary_sysctl(KERN_CACHE_HOT_TIME, v, NULL);
	check(!err && !e2 && v[0] == w, "sysctl2-only-write", "write %u: %s, "
	      "reads %u", w, err ? strerror(err) : "ok", v[0]);
	err = binary_sysctl(KERN_CACHE_HOT_TIME, NULL, &big);
	binary_sysctl(KERN_CACHE_HOT_TIME, v, NULL);
	check(err == EINVAL && v[0] == w, "sysctl2-only-over-4s-einval",
	      "write %u: %s, reads %u", big, err ? strerror(err) : "accepted",
	      v[0]);
	if (!numa)
		return;
	err = binary_sysctl(KERN_CACHE_HOT_TIME_NODE, NULL, &low);
	binary_sysctl(KERN_CACHE_HOT_TIME_NODE, v, NULL);
	check(err == EINVAL && v[0] >= w, "sysctl2-only-numa-below-smp-einval",
	      "write %u below the SMP level %u: %s, NUMA reads %u", low, w,
	      err ? strerror(err) : "accepted", v[0]);
}

/*
 * A non-root user: open for writing is refused with EACCES, reading
 * works, through /proc and through sysctl(2), and a sysctl(2) write is
 * refused with EPERM.
 */
void check_non_root(int node, struct model *m)
{
	const char *path = node ? SYSCTL_NODE : SYSCTL_CPU;
	const char *lvl = node ? "numa" : "smp";
	char name[96], why[256];
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		unsigned v[4] = { 0 }, w = 1234;
		int fd;

		if (setgid(65534) || setuid(65534))
			_exit(2);
		fd = open(path, O_WRONLY);
		if (fd >= 0)
			_exit(3);
		if (errno != EACCES)
			_exit(4);
		if (read_us(path) < 0)	/* but reading is allowed */
			_exit(5);
		if (binary_sysctl(node ? KERN_CACHE_HOT_TIME_NODE :
				  KERN_CACHE_HOT_TIME, v, NULL) ||
		    (long)v[0] != read_us(path))
			_exit(6);
		if (binary_sysctl(node ? KERN_CACHE_HOT_TIME_NODE :
				  KERN_CACHE_HOT_TIME, NULL, &w) != EPERM)
			_exit(7);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	snprintf(name, sizeof(name), "sysctl-%s-non-root", lvl);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
	      model_ok(m, why, sizeof(why)), name,
	      "child status %d (2 setuid, 3 open for write succeeded, 4 other "
	      "errno than EACCES, 5 read failed, 6 sysctl(2) read failed, 7 "
	      "sysctl(2) write not EPERM); %s", WEXITSTATUS(status), why);
}
