// SPDX-License-Identifier: GPL-2.0
/*
 * cachehot-sweep - sweep the scheduler's cache-hot time around the user's
 * own workload and say which value gave the most throughput.
 * `cachehot-sweep --help` says what it does; stats.c does the statistics.
 *
 * Static musl, for a Linux 2.6.9 user space: it uses only system calls
 * 2.6.9 has (open, read, write, pipe, fork, execve, wait4, kill, setpgid,
 * poll, rt_sigaction, clock_gettime, access; no *at, pipe2, dup3, ppoll).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "stats.h"

static const char usage[] =
"usage: cachehot-sweep [options] -- WORKLOAD [ARG...]\n"
"       cachehot-sweep --analyse FILE.csv [--ref T] [--compare A-B]...\n"
"                      [--chance POINT] [--summary OUT.csv] [--drift HOW]\n"
"Steps the scheduler's cache-hot time through --points while WORKLOAD runs,\n"
"as root, and says which value gave the most throughput. The knob is the\n"
"first that exists of /proc/sys/kernel/cache_hot_time (Linux 2.6.9 with the\n"
"cachehot series, us; --node: cache_hot_time_node), and the later kernels'\n"
"/proc/sys/kernel/sched_migration_cost_ns, .../sched_migration_cost and\n"
"/sys/kernel/debug/sched/migration_cost_ns (ns). Without one it says what\n"
"is missing on this kernel (CONFIG_SCHED_DEBUG, debugfs, its mount) and\n"
"refuses a debugfs knob under kernel lockdown.\n"
"  --knob PATH:UNIT  sweep the number in the file PATH instead; UNIT is the\n"
"                 unit of that number: ns, us, ms or s (a time), or int (a\n"
"                 plain whole number: --points and --ref take no unit).\n"
"                 Needs --points; the reference is its value now unless\n"
"                 --ref; the line to paste is echo VALUE > PATH\n"
"  --points LIST  values, comma separated: decimal numbers with ns, us, ms\n"
"                 or s; bare numbers are in the knob's unit (us; ns on the\n"
"                 ns knobs). Default: 2.5ms,5ms,10ms,25ms,250ms; --node:\n"
"                 10ms,25ms,50ms,250ms (those not below the SMP level);\n"
"                 ns knobs: 0.1ms,0.25ms,1ms,2.5ms,5ms\n"
"  --ref T        the reference, or 'current' (the knob's value at the\n"
"                 start); default 2.5ms, --node current, ns knobs 0.5ms;\n"
"                 added to the points and run twice per repetition (A/A:\n"
"                 the noise floor); throughput is taken as % of it\n"
"  --reps N       repetitions (default 6, at least 2; even: balanced)\n"
"  --run T        measured time per run (default 30s; bare number: s)\n"
"  --settle T     after each write, time before a run counts (default 2s);\n"
"                 not in the run's time, idle share or counters\n"
"  --warm T       WORKLOAD's time before the first run (default 10s)\n"
"  --count        WORKLOAD runs to completion: it is started again and again\n"
"                 and throughput = completed runs per second. During --warm\n"
"                 and --settle it runs uncounted, and a run's window opens\n"
"                 only when one of its runs has ended after --settle, so\n"
"                 the workload's start-up is never counted (its output is\n"
"                 discarded)\n"
"  --match RE     count only WORKLOAD lines that match RE (POSIX extended);\n"
"                 the number is RE's first group if it has one, else the\n"
"                 number after the match (spaces, ':' and '=' skipped); a\n"
"                 k, M or G right after it multiplies by 1e3, 1e6, 1e9.\n"
"                 sysbench --report-interval=N: 'tps:'; pgbench -P N,\n"
"                 its stderr sent to stdout (sh -c 'exec pgbench ... 2>&1'):\n"
"                 '([0-9.]+) tps'; fio --status-interval: 'write: IOPS='\n"
"  --node         sweep cache_hot_time_node (the NUMA level)\n"
"  --csv FILE     write each run to FILE as it ends, as --analyse reads it\n"
"                 (created before anything changes: an unwritable FILE is\n"
"                 refused)\n"
"  --analyse FILE the report of a CSV of runs: columns point (us, or aa),\n"
"                 rep, throughput (or tps); optional: run (the order, for\n"
"                 the drift), secs, idle_pct, hot_refused and hot_moved\n"
"                 (counts), knob, ref, smp_us, node_us, cache_hot_time_us\n"
"                 (what a named point set); with a kernel column (make\n"
"                 bench's runs.csv) patched rows are the points and the\n"
"                 unpatched boot's rows the point 'unpatched' (bridged by\n"
"                 the pinned run 'pin' both boots ran)\n"
"  --compare A-B  with --analyse: the paired difference of points A and B\n"
"                 (as the CSV names them), its 95 % interval, one-sided\n"
"                 95 % bounds and p: a question asked before the run\n"
"  --chance P     with --analyse: how often P would lie wholly below the\n"
"                 best point by chance (runs shuffled among the points)\n"
"  --summary OUT  with --analyse: the table as CSV, a row a point\n"
"  --drift HOW    with --analyse: the runs the drift is fitted on: all\n"
"                 (default), sweep (the points and the A/A run, not make\n"
"                 bench's controls pin and mig) or off (none removed)\n"
"Without --count WORKLOAD runs for the whole sweep (the time is said before\n"
"it starts) and prints its throughput on stdout, one number a line (a\n"
"rate, or a count per fixed interval), or lines --match finds it in: a\n"
"run's throughput is the mean of the numbers printed during it; other lines\n"
"are ignored; nan or inf is refused. Lines count when they arrive: a\n"
"program must flush each one (its stdout is a pipe, which C's stdio\n"
"buffers; e.g. stdbuf -oL).\n"
"Every repetition runs each point once, in an order rotated and reversed\n"
"between repetitions; a linear drift is also fitted and removed. Per point:\n"
"throughput as % of the same repetition's reference run, its mean with a\n"
"95 % interval (Student t over repetitions), the difference to the best\n"
"point, the idle share (/proc/stat, idle + iowait) and the balancer's hot\n"
"refused/moved per second (/proc/schedstat version 100, the series'; n/a,\n"
"and why, on 2.6.9's own version 10); on a later kernel (/proc/schedstat\n"
"version 15 to 17, counting while kernel.sched_schedstats is 1) a table of\n"
"the tasks load balancing pulled and of them the cache-hot ones, per\n"
"second, comes before the report and in the CSV's lb_pulled and\n"
"lb_hot_pulled;\n"
"then the best point and the points within its interval. The best point\n"
"is compared with each other point by a paired t test, corrected for the\n"
"number of comparisons (Holm-Bonferroni, 5 % family-wise): only if it beats\n"
"them all comes a line to paste (the 2.6.9 boot option, both levels on a\n"
"NUMA machine; the sysctl or echo of a later kernel's knob), else \"not\n"
"resolved\". The old values are restored at the end, on SIGINT, SIGTERM,\n"
"SIGHUP, SIGQUIT and on any error; WORKLOAD's process group is killed;\n"
"a sweep stopped early keeps its runs in the CSV and prints their table.\n"
"Exit status: 0; 1 on an error; 128+N after signal N.\n"
"Test only: CACHEHOT_SWEEP_ROOT=DIR reads and writes /proc and /sys there.\n";

/*
 * The knobs, in the order they are looked for; unit: ns per unit of the
 * number in the file. Where each exists (README, "On later kernels"):
 * cache_hot_time{,_node}: 2.6.9 with the series; sched_migration_cost
 * (2.6.24 on, renamed sched_migration_cost_ns later): only with
 * CONFIG_SCHED_DEBUG, until 5.13 moved it to debugfs (8a99b6833c88
 * "sched: Move SCHED_DEBUG sysctl to debugfs"), where it needed
 * CONFIG_SCHED_DEBUG until 6.15 removed the option (b52173065e0a).
 */
static const struct knob {
	const char *path, *name;
	double unit;		/* ns per unit of the file's number */
	double max_ns;
	int isint;		/* --knob PATH:int: a plain number, no time */
} knobs[] = {
	{ "/proc/sys/kernel/cache_hot_time", "cache_hot_time", 1e3, 4e9, 0 },
	{ "/proc/sys/kernel/cache_hot_time_node", "cache_hot_time_node", 1e3,
	  4e9, 0 },
	/* unsigned int, but proc_dointvec: INT_MAX */
	{ "/proc/sys/kernel/sched_migration_cost_ns",
	  "kernel.sched_migration_cost_ns", 1, INT_MAX, 0 },
	{ "/proc/sys/kernel/sched_migration_cost",
	  "kernel.sched_migration_cost", 1, INT_MAX, 0 },
	{ "/sys/kernel/debug/sched/migration_cost_ns", "migration_cost_ns", 1,
	  4294967295.0, 0 },
};
#define DEBUGFS_KNOB	(&knobs[4])

/*
 * --knob PATH:UNIT, any numeric file. A plain number (int) is kept as if
 * it were us, so that stats.c's point names hold it; the report's time
 * labels are then turned back into plain numbers (report()).
 */
static struct knob uknob;
static char uknob_name[32];

static const struct knob *knob;
static long long knob_now;		/* its value at the start */
static struct saved {
	char path[4096];
	long long val;
} saved[2];
static int nsaved;

static volatile sig_atomic_t got_sig;
static int sigpipe[2] = { -1, -1 };	/* the handlers wake poll() with it */
static pid_t wpid, wpg;		/* the workload, its process group */
static int wstatus, wfd = -1;		/* its exit status and stdout */
static int collect, nnum;		/* numbers of the window, their sum */
static double sum;
static char lbuf[256];
static size_t llen;
static regex_t match_re;
static int nomatch_warned;

static struct sw_data d;
static FILE *csv;
static struct {
	const char *points, *ref, *csv, *analyse, *match, *summary;
	struct sw_opts an;		/* --analyse's --compare, --chance */
	double run, settle, warm;
	int reps, count, node, drift;
} o = { .run = 30, .settle = 2, .warm = 10, .reps = 6 };
static double ns[SW_MAXPTS], refns;	/* the points; 0, 1: the reference */
static int np;
static const char *cnt_na;		/* why there are no balancer counters */
/* which counters /proc/schedstat gave at the start */
static enum { C_NONE, C_269, C_LATER } cfam;
static int cver;			/* its version */
/* later kernels: tasks pulled by load balancing, and of them cache-hot */
static double lbp[SW_MAXRUNS], lbh[SW_MAXRUNS];

static void lb_table_runs(FILE *out);
static int report(const struct sw_opts *an);

static void err(const char *fmt, ...)
{
	va_list ap;

	fputs("cachehot-sweep: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *path(const char *p)
{
	static char buf[4096];
	const char *root = getenv("CACHEHOT_SWEEP_ROOT");

	snprintf(buf, sizeof(buf), "%s%s", root ? root : "", p);
	return buf;
}

/* A knob's value: 0, or an errno (EINVAL: not one decimal number). */
static int read_knob(const char *p, long long *v)
{
	char buf[64], *end;
	int fd = open(p, O_RDONLY), n;

	if (fd < 0)
		return errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return errno;
	buf[n] = 0;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	if (end == buf || *buf < '0' || *buf > '9' || errno ||
	    strspn(end, "\n") != strlen(end))
		return EINVAL;
	return 0;
}

/*
 * One write(2) of the whole value, a plain decimal integer in the knob's
 * unit, at offset 0 of a fresh descriptor (the kernel refuses a suffix and
 * a split write), then read it back.
 */
static int write_knob(const char *p, long long v)
{
	char buf[32];
	long long back;
	int fd, len, n, e;

	len = snprintf(buf, sizeof(buf), "%lld\n", v);
	fd = open(p, O_WRONLY | O_TRUNC);
	if (fd < 0) {
		err("cannot open %s: %s", p, strerror(errno));
		return -1;
	}
	n = write(fd, buf, len);
	e = errno;
	close(fd);
	if (n != len) {
		err("writing %lld to %s: %s", v, p,
		    n < 0 ? strerror(e) : "a short write");
		return -1;
	}
	e = read_knob(p, &back);
	if (e || back != v) {
		err("%s reads back %s after %lld was written", p,
		    e ? strerror(e) : "another value", v);
		return -1;
	}
	return 0;
}

/*
 * Put back every value read at the start, the swept level first: on 2.6.9
 * the SMP level raises the NUMA level with it, and the NUMA level cannot
 * go below the SMP level. 0 if all read back as they were.
 */
static int restore(void)
{
	long long v;
	int i, bad = 0;

	for (i = 0; i < nsaved; i++)
		if (read_knob(saved[i].path, &v) || v != saved[i].val)
			bad |= write_knob(saved[i].path, saved[i].val);
	if (bad)
		err("COULD NOT RESTORE the old values: check them by hand");
	return bad;
}

static void on_signal(int sig)
{
	int e = errno;

	if (sig != SIGCHLD)
		got_sig = sig;
	if (write(sigpipe[1], "", 1) < 0)
		(void)0;	/* full: poll() wakes all the same */
	errno = e;
}

/* SIGTERM to the workload's group, SIGKILL to what is left after 2 s. */
static void stop_workload(void)
{
	double t = now() + 2;

	if (wpg <= 0)
		return;
	kill(-wpg, SIGTERM);
	while (wpid > 0 && now() < t) {
		if (waitpid(wpid, NULL, WNOHANG) == wpid)
			wpid = 0;
		else
			poll(NULL, 0, 20);
	}
	kill(-wpg, SIGKILL);
	if (wpid > 0)
		waitpid(wpid, NULL, 0);
	wpid = wpg = 0;
}

/*
 * The end of a sweep stopped early: the workload stopped, the old values
 * back, and the runs so far (already in the CSV) as a table.
 */
static void __attribute__((noreturn)) bail(int status)
{
	stop_workload();
	if (restore())
		status = status ? status : 1;
	else if (nsaved)
		fprintf(stderr, "cachehot-sweep: old values restored\n");
	if (csv)
		fclose(csv);
	if (d.nruns) {
		printf("stopped early after %d of %d runs%s%s; their table:\n",
		       d.nruns, np * o.reps, o.csv ? ", all in " : "",
		       o.csv ? o.csv : "");
		d.partial = 1;
		lb_table_runs(stdout);
		report(NULL);
	} else if (np) {
		printf("stopped early: no run had ended\n");
	}
	exit(status);
}

static pid_t spawn(char **argv, int count)
{
	int p[2] = { -1, -1 }, fd;
	pid_t pid;

	if (!count && pipe(p) < 0) {
		err("pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		/* its own group, so that all it started can be killed */
		setpgid(0, 0);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		fd = open("/dev/null", O_RDWR);
		dup2(fd, 0);
		dup2(count ? fd : p[1], 1);
		if (!count) {
			close(p[0]);
			close(p[1]);
		}
		close(sigpipe[0]);
		close(sigpipe[1]);
		execvp(argv[0], argv);
		fprintf(stderr, "cachehot-sweep: cannot run %s: %s\n",
			argv[0], strerror(errno));
		_exit(127);
	}
	if (pid < 0) {
		err("fork: %s", strerror(errno));
		return -1;
	}
	setpgid(pid, pid);
	wpg = pid;
	if (!count) {
		close(p[1]);
		wfd = p[0];
		fcntl(wfd, F_SETFL, O_NONBLOCK);
	}
	return pid;
}

/*
 * The number at s, with an optional k, M or G (fio's 52.1k): 0, or -1
 * when there is none. Not-a-number and infinity come back as such.
 */
static int number(const char *s, double *v, const char **end)
{
	char *e;

	*v = strtod(s, &e);
	if (e == s)
		return -1;
	if (*e && strchr("kMG", *e) && !((e[1] | 32) >= 'a' &&
					 (e[1] | 32) <= 'z')) {
		*v *= *e == 'k' ? 1e3 : *e == 'M' ? 1e6 : 1e9;
		e++;
	}
	*end = e;
	return 0;
}

/*
 * A line of the workload: with --match the number it finds, else a line
 * that is one number, counts in the window. A metric of nan or inf is
 * refused: no mean can be taken of it.
 */
static void line(char *s)
{
	const char *end;
	regmatch_t m[2];
	double v;

	if (o.match) {
		if (regexec(&match_re, s, 2, m, 0))
			return;
		if (match_re.re_nsub && m[1].rm_so >= 0) {
			s[m[1].rm_eo] = 0;
			s += m[1].rm_so;
		} else {
			s += m[0].rm_eo;
		}
		s += strspn(s, " \t:=");
		if (number(s, &v, &end)) {
			if (!nomatch_warned++)
				err("--match: a line matches, but no number follows: '%s'",
				    s);
			return;
		}
	} else {
		s += strspn(s, " \t\r");
		if (number(s, &v, &end) || strspn(end, " \t\r") != strlen(end))
			return;
	}
	if (!isfinite(v)) {
		err("the workload printed '%s': its throughput must be a finite number",
		    s);
		bail(1);
	}
	if (collect) {
		sum += v;
		nnum++;
	}
}

/*
 * Wait until the deadline, reading the workload's lines: 0 at the
 * deadline, 1 when the workload exited (its status in wstatus); exits
 * through bail() on a signal.
 */
static int pump(double deadline)
{
	struct pollfd pf[2];
	char buf[4096];
	double t;
	int n, i;

	for (;;) {
		if (got_sig) {
			err("signal %d: stopping", (int)got_sig);
			bail(128 + got_sig);
		}
		if (wpid > 0 && waitpid(wpid, &wstatus, WNOHANG) == wpid) {
			wpid = 0;
			return 1;
		}
		t = now();
		if (t >= deadline)
			return 0;
		pf[0] = (struct pollfd){ .fd = sigpipe[0], .events = POLLIN };
		pf[1] = (struct pollfd){ .fd = wfd, .events = POLLIN };
		poll(pf, wfd >= 0 ? 2 : 1, (int)((deadline - t) * 1000) + 1);
		if (pf[0].revents)
			while (read(sigpipe[0], buf, sizeof(buf)) > 0)
				;
		if (wfd < 0 || !pf[1].revents)
			continue;
		n = read(wfd, buf, sizeof(buf));
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
			close(wfd);	/* EOF: the exit comes next */
			wfd = -1;
		}
		for (i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (llen < sizeof(lbuf) - 1)
					lbuf[llen++] = buf[i];
				continue;
			}
			lbuf[llen] = 0;
			llen = 0;
			line(lbuf);
		}
	}
}

/* /proc/stat's "cpu " line: idle + iowait and all, in ticks. */
static int cpu_ticks(double *idle, double *total)
{
	unsigned long long f[8] = { 0 };
	FILE *in = fopen(path("/proc/stat"), "r");
	int i, n;

	if (!in)
		return -1;
	n = fscanf(in, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &f[0],
		   &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7]);
	fclose(in);
	if (n < 4)
		return -1;
	*idle = (double)f[3] + f[4];
	for (*total = 0, i = 0; i < 8; i++)
		*total += f[i];
	return 0;
}

/* Is the knob 2.6.9's (either level), or one --knob names? */
static int is269(void)
{
	return knob == &knobs[0] || knob == &knobs[1];
}

/*
 * /proc/schedstat's domain lines, by version (fields counted with
 * "domainN"):
 * - 10, 2.6.9: "domainN MASK" and 19 counters: 21 fields. No counters of
 *   the series.
 * - 100, 2.6.9 with the series: "domainN MASK cache_hot_time(ns)", the 19
 *   counters, then 5: hot refused and hot moved for an idle CPU, the same
 *   for a busy one, and refused for a newly idle one (which never moves a
 *   hot task): 27 fields.
 * - 15 and 16 (later kernels; 16 only reorders the idle types):
 *   "domainN MASK", then per idle type 8 counters of which lb_gained
 *   (tasks load_balance() pulled) is the 5th and lb_hot_gained (of them,
 *   cache-hot ones pulled anyway) the 6th, then 12 more: 38 fields.
 * - 17: "domainN NAME MASK", per idle type 11 counters (lb_imbalance
 *   split in four), lb_gained the 8th, lb_hot_gained the 9th: 48 fields.
 * Which counters a line has, its version says; its field count must match.
 */
#define DOMAIN_269	21
#define DOMAIN_SERIES	27
static const struct later {
	int ver, fields, first, per, gained;	/* gained: its index in a type */
} later[] = { { 15, 38, 2, 8, 4 }, { 16, 38, 2, 8, 4 }, { 17, 48, 3, 11, 7 } };

/*
 * The balancer's counters, summed over CPUs, domains and idle types: on
 * 2.6.9 with the series (cfam C_269) a: hot refused, b: hot moved; on a
 * later kernel (C_LATER) a: tasks pulled, b: of them cache-hot. NULL, or
 * why there are none. *fam gets which of the two the file holds.
 */
static const char *counters(double *a, double *b, int *fam, int *version)
{
	static char why[240];
	FILE *in = fopen(path("/proc/schedstat"), "r");
	char *l = NULL, *f[64], *s;
	size_t cap = 0;
	int n, i, t, ver = -1, lines = 0;
	const struct later *lv = NULL;
	long long on;

	if (!in)
		return "no /proc/schedstat (no CONFIG_SCHEDSTATS)";
	if (fscanf(in, "version %d", &ver) != 1)
		ver = -1;
	for (i = 0; i < (int)(sizeof(later) / sizeof(later[0])); i++)
		if (later[i].ver == ver)
			lv = &later[i];
	*version = ver;
	*fam = ver == 10 || ver == 100 ? C_269 : lv ? C_LATER : C_NONE;
	/* --knob may be on either kernel; the named knobs say which */
	if (*fam == C_NONE || (*fam == C_LATER && is269()) ||
	    (*fam == C_269 && knob && !is269() && knob != &uknob)) {
		fclose(in);
		snprintf(why, sizeof(why), "/proc/schedstat is version %d, %s",
			 ver, is269() ?
			 "neither 2.6.9's 10 nor the series' 100" :
			 knob != &uknob ?
			 "not one of the later kernels' 15, 16 or 17" :
			 "none of 10 (2.6.9), 100 (the series), 15, 16, 17 (later kernels)");
		return why;
	}
	/* from 4.6 on schedstats count only when switched on */
	if (lv && !read_knob(path("/proc/sys/kernel/sched_schedstats"), &on) &&
	    !on) {
		fclose(in);
		return "kernel.sched_schedstats is 0, so the counters stand still (sysctl -w kernel.sched_schedstats=1 turns them on, at some cost; the tool leaves it as it is)";
	}
	*a = *b = 0;
	*why = 0;
	while (!*why && getline(&l, &cap, in) > 0) {
		if (strncmp(l, "domain", 6))
			continue;
		for (n = 0, s = strtok(l, " \n"); s && n < 64;
		     s = strtok(NULL, " \n"))
			f[n++] = s;
		lines++;
		if (lv && n == lv->fields) {
			for (t = 0; t < 3; t++) {
				i = lv->first + t * lv->per + lv->gained;
				*a += strtod(f[i], NULL);
				*b += strtod(f[i + 1], NULL);
			}
		} else if (lv) {
			snprintf(why, sizeof(why),
				 "/proc/schedstat version %d: a domain line of %d fields, not %d",
				 ver, n, lv->fields);
		} else if (ver == 10 && n == DOMAIN_269) {
			snprintf(why, sizeof(why),
				 "the counters are absent: /proc/schedstat has 2.6.9's fields only (a kernel without the series' schedstats patch)");
		} else if (ver == 100 && n == DOMAIN_SERIES) {
			*a += strtod(f[n - 5], NULL) +
				strtod(f[n - 3], NULL) + strtod(f[n - 1], NULL);
			*b += strtod(f[n - 4], NULL) +
				strtod(f[n - 2], NULL);
		} else {
			snprintf(why, sizeof(why),
				 "/proc/schedstat version %d: a domain line of %d fields, not %d",
				 ver, n, ver == 10 ? DOMAIN_269 : DOMAIN_SERIES);
		}
	}
	free(l);
	fclose(in);
	if (!*why && !lines)
		snprintf(why, sizeof(why),
			 "/proc/schedstat has no domain lines (one CPU?)");
	return *why ? why : NULL;
}

/*
 * A time: a decimal number with ns, us, ms or s, bare ones in units of
 * bare (ns); it must come to a whole number of ns. 0, or -1.
 */
static int parse_time(const char *s, double bare, double *ns)
{
	static const struct { const char *u; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
		{ "", 0 } };
	unsigned long long m = 0, div = 1;
	int i, dot = 0, digits = 0;

	for (; (*s >= '0' && *s <= '9') || (*s == '.' && !dot); s++) {
		if (*s == '.') {
			dot = 1;
			continue;
		}
		if (++digits > 15)
			return -1;
		m = m * 10 + (*s - '0');
		if (dot)
			div *= 10;
	}
	if (!digits)
		return -1;
	for (i = 0; strcmp(units[i].u, s); i++)
		if (!*units[i].u)
			return -1;
	*ns = (double)m * (units[i].ns ? units[i].ns : bare) / div;
	return *ns == floor(*ns) ? 0 : -1;
}

static int parse_dur(const char *opt, const char *s, double *sec)
{
	if (parse_time(s, 1e9, sec) < 0) {
		err("%s: '%s' is not a time (e.g. 30s, 500ms)", opt, s);
		return -1;
	}
	*sec /= 1e9;
	return 0;
}

/* A duration for people: "1 h 5 min", "4 min 10 s", "12 s". */
static const char *dur(double sec)
{
	static char buf[32];
	long s = (long)(sec + 0.5);

	if (s >= 3600)
		snprintf(buf, sizeof(buf), "%ld h %ld min", s / 3600,
			 (s % 3600 + 30) / 60);
	else if (s >= 60)
		snprintf(buf, sizeof(buf), "%ld min %ld s", s / 60, s % 60);
	else
		snprintf(buf, sizeof(buf), "%.2g s", sec);
	return buf;
}

/*
 * --knob PATH:UNIT. UNIT is the unit of the number in the file: ns, us,
 * ms or s for a time, int for a plain number (a percentage, a count). It
 * must be given: a guessed unit would write values 1000 times off.
 */
static int parse_knob(const char *arg)
{
	static const struct { const char *u; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
		{ "int", 1e3 } };
	const char *c = strrchr(arg, ':');
	int i;

	if (*arg != '/' || !c || c == arg + 1) {
		err("--knob '%s': give an absolute path and the unit of its number, PATH:UNIT (UNIT ns, us, ms, s, or int for a plain number)",
		    arg);
		return -1;
	}
	for (i = 0; i < 5 && strcmp(c + 1, units[i].u); i++)
		;
	if (i == 5) {
		err("--knob '%s': unit '%s' is none of ns, us, ms, s, int",
		    arg, c + 1);
		return -1;
	}
	uknob.path = strndup(arg, c - arg);
	snprintf(uknob_name, sizeof(uknob_name), "knob:%s", c + 1);
	uknob.name = uknob_name;
	uknob.unit = units[i].ns;
	uknob.isint = i == 4;
	/* whole numbers a double holds exactly; the kernel refuses what
	 * its own type does not take, and the sweep then stops, restored */
	uknob.max_ns = 9e15;
	return 0;
}

static int parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "points", 1, NULL, 'p' }, { "ref", 1, NULL, 'f' },
		{ "reps", 1, NULL, 'r' }, { "run", 1, NULL, 't' },
		{ "settle", 1, NULL, 's' }, { "warm", 1, NULL, 'w' },
		{ "count", 0, NULL, 'c' }, { "node", 0, NULL, 'n' },
		{ "csv", 1, NULL, 'o' }, { "analyse", 1, NULL, 'a' },
		{ "analyze", 1, NULL, 'a' }, { "match", 1, NULL, 'm' },
		{ "compare", 1, NULL, 'x' }, { "chance", 1, NULL, 'y' },
		{ "summary", 1, NULL, 'z' }, { "knob", 1, NULL, 'k' },
		{ "drift", 1, NULL, 'd' },
		{ "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 } };
	char *end, msg[128];
	int c, e;

	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 'p': o.points = optarg; break;
		case 'f': o.ref = optarg; break;
		case 'r':
			o.reps = strtol(optarg, &end, 10);
			if (*end || end == optarg || o.reps < 2 ||
			    o.reps > SW_MAXREPS) {
				err("--reps: 2 to %d, not '%s'", SW_MAXREPS,
				    optarg);
				return -1;
			}
			break;
		case 't':
			if (parse_dur("--run", optarg, &o.run))
				return -1;
			if (o.run <= 0) {
				err("--run: a time above 0, not '%s'", optarg);
				return -1;
			}
			break;
		case 's':
			if (parse_dur("--settle", optarg, &o.settle))
				return -1;
			break;
		case 'w':
			if (parse_dur("--warm", optarg, &o.warm))
				return -1;
			break;
		case 'c': o.count = 1; break;
		case 'n': o.node = 1; break;
		case 'o': o.csv = optarg; break;
		case 'a': o.analyse = optarg; break;
		case 'x':
			if (o.an.ncompare == SW_MAXPTS) {
				err("--compare: at most %d", SW_MAXPTS);
				return -1;
			}
			o.an.compare[o.an.ncompare++] = optarg;
			break;
		case 'y': o.an.chance = optarg; break;
		case 'z': o.summary = optarg; break;
		case 'k':
			if (parse_knob(optarg))
				return -1;
			break;
		case 'd':
			o.an.drift = sw_drift_mode(optarg);
			if (o.an.drift < 0) {
				err("--drift: all, sweep or off, not '%s'", optarg);
				return -1;
			}
			o.drift = 1;
			break;
		case 'm':
			o.match = optarg;
			e = regcomp(&match_re, optarg, REG_EXTENDED);
			if (e) {
				regerror(e, &match_re, msg, sizeof(msg));
				err("--match '%s': %s", optarg, msg);
				return -1;
			}
			break;
		case 'h': fputs(usage, stdout); exit(0);
		default: fputs(usage, stderr); return -1;
		}
	}
	if (!o.analyse && (o.an.ncompare || o.an.chance || o.summary || o.drift)) {
		err("--compare, --chance, --summary and --drift go with --analyse");
		return -1;
	}
	if (uknob.path && o.node) {
		err("--node is 2.6.9's NUMA level; --knob names its own file");
		return -1;
	}
	if (o.match && o.count) {
		err("--match reads the lines of a workload that runs throughout; --count discards them");
		return -1;
	}
	return 0;
}

/* The running kernel's release as 1000000 a + 1000 b + c; -1 unknown. */
static long release(char *buf, size_t len)
{
	int fd = open(path("/proc/sys/kernel/osrelease"), O_RDONLY), n;
	long a = 0, b = 0, c = 0;

	snprintf(buf, len, "?");
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	if (sscanf(buf, "%ld.%ld.%ld", &a, &b, &c) < 2)
		return -1;
	return a * 1000000 + b * 1000 + c;
}

/* Is debugfs mounted on /sys/kernel/debug? 1, 0, or -1 unknown. */
static int debugfs_mounted(void)
{
	FILE *in = fopen(path("/proc/mounts"), "r");
	char dev[256], dir[256], type[64];
	int found = 0;

	if (!in)
		return -1;
	while (fscanf(in, "%255s %255s %63s %*[^\n]", dev, dir, type) == 3)
		found |= !strcmp(dir, "/sys/kernel/debug") &&
			!strcmp(type, "debugfs");
	fclose(in);
	return found;
}

/*
 * The kernel lockdown mode, if one is on: "integrity" or
 * "confidentiality" (/sys/kernel/security/lockdown marks it "[...]");
 * NULL if none or not known.
 */
static const char *lockdown(void)
{
	static char buf[128];
	int fd = open(path("/sys/kernel/security/lockdown"), O_RDONLY), n;
	char *l, *r;

	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	l = strchr(buf, '[');
	r = l ? strchr(l, ']') : NULL;
	if (!r || !strncmp(l, "[none]", 6))
		return NULL;
	*r = 0;
	return l + 1;
}

/*
 * No knob: say exactly what is missing on this kernel, from its release
 * (/proc/sys/kernel/osrelease), whether debugfs is there and mounted.
 * Containers and VMs without debugfs are where this is met most.
 */
static void no_knob(void)
{
	char rel[64], dbg[4096], f[4096];
	long r = release(rel, sizeof(rel));
	int fd;

	if (r < 0) {
		err("no %s: this kernel lacks the cachehot series (an unpatched kernel?), and it has none of the later kernels' knobs (/proc/sys/kernel/sched_migration_cost[_ns] with CONFIG_SCHED_DEBUG before 5.13; from 5.13 /sys/kernel/debug/sched/migration_cost_ns, with debugfs mounted: mount -t debugfs none /sys/kernel/debug); nothing changed",
		    path(knobs[0].path));
		return;
	}
	if (r < 2006024) {
		err("no %s: this kernel (%s) lacks the cachehot series, and no kernel before 2.6.24 has a knob for the cache-hot time (2.6.24 brought sched_migration_cost); nothing changed",
		    path(knobs[0].path), rel);
		return;
	}
	if (r < 5013000) {
		err("no %s: before 5.13 the knob exists only in a kernel built with CONFIG_SCHED_DEBUG, and this one (%s) was built without it; nothing changed",
		    path(knobs[2].path), rel);
		return;
	}
	/* path() has one buffer */
	snprintf(dbg, sizeof(dbg), "%s", path("/sys/kernel/debug"));
	snprintf(f, sizeof(f), "%s", path(DEBUGFS_KNOB->path));
	fd = open(dbg, O_RDONLY | O_DIRECTORY);
	if (fd < 0) {
		err("no %s: this kernel (%s) has no debugfs: it was built without CONFIG_DEBUG_FS or booted with debugfs=off (or no-mount), and from 5.13 the knob is only there; nothing changed",
		    f, rel);
		return;
	}
	close(fd);
	if (debugfs_mounted() == 0) {
		err("no %s: debugfs is not mounted (mount -t debugfs none /sys/kernel/debug; a container cannot mount it: run the sweep on the host); nothing changed",
		    f);
		return;
	}
	if (r < 6015000)
		err("no %s: debugfs is mounted, but before 6.15 the file exists only in a kernel built with CONFIG_SCHED_DEBUG, and this one (%s) was built without it; nothing changed",
		    f, rel);
	else
		err("no %s: debugfs is mounted, and from 6.15 (no CONFIG_SCHED_DEBUG any more) mainline always has the file: this kernel (%s) is not mainline's; nothing changed",
		    f, rel);
}

/* The knob to sweep, and its value now: 0, or -1 (said why). */
static int find_knob(void)
{
	const char *p, *mode;
	char buf[48];
	int k, e, fd, n;

	if (uknob.path) {
		knob = &uknob;
		p = path(uknob.path);
		e = read_knob(p, &knob_now);
		if (e == EINVAL) {
			fd = open(p, O_RDONLY);
			n = fd < 0 ? 0 : read(fd, buf, sizeof(buf) - 1);
			if (fd >= 0)
				close(fd);
			buf[n > 0 ? n : 0] = 0;
			buf[strcspn(buf, "\n")] = 0;
			err("--knob %s holds '%s', not one decimal number from 0 up: only a numeric knob can be swept; nothing changed",
			    p, buf);
			return -1;
		}
		if (e) {
			err("--knob %s: %s; nothing changed", p, strerror(e));
			return -1;
		}
	}
	for (k = 0; !knob && k < (int)(sizeof(knobs) / sizeof(knobs[0]));
	     k++) {
		if ((k == 0 && o.node) || (k == 1 && !o.node))
			continue;
		e = read_knob(path(knobs[k].path), &knob_now);
		if (e == ENOENT)
			continue;
		if (e) {
			err("cannot read %s: %s%s", path(knobs[k].path),
			    strerror(e), e == EPERM && &knobs[k] == DEBUGFS_KNOB ?
			    " (kernel lockdown? /sys/kernel/security/lockdown says)" :
			    "");
			return -1;
		}
		knob = &knobs[k];
	}
	if (o.node && knob != &knobs[1]) {
		err("no %s: --node needs Linux 2.6.9 with the cachehot series built with CONFIG_NUMA",
		    path(knobs[1].path));
		return -1;
	}
	if (!knob) {
		no_knob();
		return -1;
	}
	/*
	 * Under lockdown debugfs refuses root every file that can be
	 * written (5496197f9b08, 5.4): the sweep could not write, nor even
	 * read, the knob. Said before anything else is tried.
	 */
	if (!strncmp(knob->path, "/sys/kernel/debug/", 18) &&
	    (mode = lockdown()) != NULL) {
		err("%s: the kernel is locked down (%s, /sys/kernel/security/lockdown), and lockdown refuses even root the debugfs files that can be written; the sweep needs a kernel that is not locked down (lockdown comes with Secure Boot on most distributions); nothing changed",
		    path(knob->path), mode);
		return -1;
	}
	return 0;
}

/*
 * Is cmd (execvp's way: a path if it has a slash, else looked for in PATH)
 * a file that can be run? Asked before anything changes.
 */
static int runnable(const char *cmd)
{
	const char *p = getenv("PATH"), *e;
	char buf[4096];
	int fd;

	if (!*cmd)
		return 0;
	if (strchr(cmd, '/')) {
		if (access(cmd, X_OK))
			return 0;
		/* a directory is "executable" too */
		fd = open(cmd, O_RDONLY | O_DIRECTORY);
		if (fd >= 0)
			close(fd);
		return fd < 0;
	}
	for (p = p ? p : "/usr/local/bin:/bin:/usr/bin"; ; p = e + 1) {
		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(e - p), p,
			 e > p ? "/" : "", cmd);
		if (runnable(buf))
			return 1;
		if (!*e)
			return 0;
	}
}

/* The unit of the knob's number, as the user writes it. */
static const char *unit_name(void)
{
	return knob->isint ? "int" : knob->unit == 1 ? "ns" :
		knob->unit == 1e3 ? "us" : knob->unit == 1e6 ? "ms" : "s";
}

/* A point (ns) for people: a time, or the plain number of an int knob. */
static void fmt_point(char *buf, size_t len, double v)
{
	if (knob && knob->isint)
		snprintf(buf, len, "%.10g", v / knob->unit);
	else
		sw_fmt_us(buf, len, v / 1e3);
}

/*
 * A point as given: a time (bare: in the knob's unit), or for an int
 * knob a plain whole number. 0, or -1.
 */
static int parse_point(const char *s, double *v)
{
	if (knob->isint && strspn(s, "0123456789") != strlen(s))
		return -1;
	return parse_time(s, knob->unit, v);
}

static int bad_value(double v)
{
	return v < 0 || v > knob->max_ns || fmod(v, knob->unit);
}

/* One more point v (ns): 0, or -1 (said why). */
static int add_point(const char *tok, double v)
{
	int i;

	if (bad_value(v)) {
		if (knob->isint)
			err("bad point '%s': a whole number, no unit (--knob %s:int), from 0 to %.10g; nothing changed",
			    tok, knob->path, knob->max_ns / knob->unit);
		else
			err("bad point '%s': a decimal number with ns, us, ms or s (bare: %s), from 0 to %.10g %s, whole %s; nothing changed",
			    tok, unit_name(), knob->max_ns / knob->unit,
			    unit_name(), unit_name());
		return -1;
	}
	if (o.node && v / 1e3 < d.smp_us) {
		err("point '%s' is below the SMP level (cache_hot_time, now %ld us), which the NUMA level cannot go below; nothing changed",
		    tok, d.smp_us);
		return -1;
	}
	for (i = 1; i < np && ns[i] != v; i++)
		;
	if (i < np && v != refns) {
		err("point '%s' is given twice; nothing changed", tok);
		return -1;
	}
	if (i < np)
		return 0;	/* the reference is in already */
	if (np == SW_MAXPTS) {
		err("more than %d points", SW_MAXPTS - 2);
		return -1;
	}
	ns[np++] = v;
	return 0;
}

/*
 * --ref and --points into ns[]: the reference twice, then the points;
 * bare numbers in the knob's own unit. Without --points the defaults,
 * less (--node) those below the SMP level.
 */
static int parse_points(void)
{
	static const char *defaults[] = { "2.5ms,5ms,10ms,25ms,250ms",
		"10ms,25ms,50ms,250ms", "0.1ms,0.25ms,1ms,2.5ms,5ms" };
	const char *list = o.points;
	double v;
	char *s, *tok;
	int def = !list;

	/* no range is known for an arbitrary file */
	if (def && knob == &uknob) {
		err("--knob: give --points (and --ref, or the value now is the reference); nothing changed");
		return -1;
	}
	if (def)
		list = defaults[!is269() ? 2 : o.node];
	refns = is269() ? 2.5e6 : 5e5;
	if ((o.ref && !strcmp(o.ref, "current")) ||
	    (!o.ref && (o.node || knob == &uknob)))
		refns = knob_now * knob->unit;
	else if (o.ref && (parse_point(o.ref, &refns) || bad_value(refns))) {
		err("bad --ref '%s'; nothing changed", o.ref);
		return -1;
	}
	if (o.node && refns / 1e3 < d.smp_us) {
		err("the reference is below the SMP level (cache_hot_time, now %ld us), which the NUMA level cannot go below; nothing changed",
		    d.smp_us);
		return -1;
	}
	ns[0] = ns[1] = refns;
	np = 2;
	s = strdup(list);
	for (tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
		if (parse_point(tok, &v))
			v = -1;
		if (def && o.node && v / 1e3 < d.smp_us)
			continue;
		if (v < 0 || add_point(tok, v)) {
			if (v < 0)
				add_point(tok, INFINITY);
			free(s);
			return -1;
		}
	}
	free(s);
	if (np < 3) {
		err("--points: give at least one point besides the reference");
		return -1;
	}
	return 0;
}

/*
 * The old values: the swept knob's first, and (2.6.9) the other level's,
 * in the order restore() must write them. Both must be writable now:
 * finding a read-only knob after the warm-up would waste it.
 */
static int save_old(void)
{
	const char *p;
	long long v;
	int k, fd;

	for (k = 0; k < 2; k++) {
		p = path(is269() ? knobs[k].path : knob->path);
		if (!is269() && k)
			break;
		if (read_knob(p, &v))
			continue;
		if (k == 0 && o.node)
			d.smp_us = v;
		if (k == 1 && !o.node)
			d.node_us = v;
		fd = open(p, O_WRONLY);
		if (fd < 0) {
			err("cannot write %s: %s; nothing changed", p,
			    strerror(errno));
			return -1;
		}
		close(fd);
		snprintf(saved[nsaved].path, sizeof(saved[0].path), "%s", p);
		saved[nsaved++].val = v;
	}
	if (o.node && nsaved == 2) {
		struct saved t = saved[0];

		saved[0] = saved[1];
		saved[1] = t;
	}
	return 0;
}

static void catch_signals(void)
{
	struct sigaction sa;

	if (pipe(sigpipe) < 0) {
		err("pipe: %s", strerror(errno));
		exit(1);
	}
	fcntl(sigpipe[0], F_SETFL, O_NONBLOCK);
	fcntl(sigpipe[1], F_SETFL, O_NONBLOCK);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: poll() returns */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static void __attribute__((noreturn)) workload_exited(const char *when)
{
	err("the workload exited (%s %d) %s",
	    WIFEXITED(wstatus) ? "exit status" : "signal",
	    WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : WTERMSIG(wstatus),
	    when);
	bail(1);
}

/* --count: one run of the workload to its end, which must be a success. */
static void count_once(char **argv, double limit)
{
	if ((wpid = spawn(argv, 1)) < 0)
		bail(1);
	if (!pump(limit)) {
		err("a run of the workload took more than 10 times --run");
		bail(1);
	}
	if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus)) {
		err("the workload failed (%s %d)",
		    WIFEXITED(wstatus) ? "exit status" : "signal",
		    WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) :
		    WTERMSIG(wstatus));
		bail(1);
	}
}

/*
 * --count: the workload again and again, uncounted, until t has passed
 * and at least one run has ended: its start-up is never in a window.
 */
static void count_until(char **argv, double t)
{
	double t0 = now();

	do
		count_once(argv, now() + 10 * o.run + 10);
	while (now() - t0 < t);
}

/* --count: start the workload again and again for the run's time. */
static void run_count(struct sw_run *r, char **argv, double t0)
{
	int n = 0;

	do {
		count_once(argv, t0 + 10 * o.run + 10);
		n++;
	} while (now() - t0 < o.run);
	/* runs back to back from t0: no partial run is lost */
	r->secs = now() - t0;
	r->tp = n / r->secs;
}

/* Without --count: the numbers printed during the run. */
static void run_lines(struct sw_run *r, double t0)
{
	char when[32];

	snprintf(when, sizeof(when), "during run %d", d.nruns + 1);
	sum = nnum = 0;
	collect = 1;
	if (pump(t0 + o.run))
		workload_exited(when);
	collect = 0;
	r->secs = now() - t0;
	if (!nnum) {
		err("the workload printed no number during run %d: it must print its throughput, one number a line (or use --match, or --count)",
		    d.nruns + 1);
		bail(1);
	}
	r->tp = sum / nnum;
}

/*
 * stats.c writes the CSV; a later kernel's counters go in two more
 * columns at the end of its lines (--analyse of stats.c skips columns it
 * does not know, and this file's table reads them).
 */
static void csv_line(const struct sw_run *r, long idx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m) {
		err("open_memstream: %s", strerror(errno));
		bail(1);
	}
	if (r)
		sw_csv_row(&d, r, m);
	else
		sw_csv_header(m);
	fclose(m);
	if (cfam != C_LATER || cnt_na) {
		fputs(buf, csv);
	} else {
		buf[strcspn(buf, "\n")] = 0;
		if (!r)
			fprintf(csv, "%s,lb_pulled,lb_hot_pulled\n", buf);
		else if (lbp[idx] < 0)
			fprintf(csv, "%s,,\n", buf);
		else
			fprintf(csv, "%s,%.10g,%.10g\n", buf, lbp[idx], lbh[idx]);
	}
	free(buf);
}

/*
 * The later kernels' counters per point, as the table shows 2.6.9's:
 * per second of the runs' windows, averaged over a point's runs. name[],
 * secs[], pulled[], hot[]: n runs (pulled < 0: not known); ref: the
 * reference's name, what "aa" runs again.
 */
static void lb_table(FILE *out, const char *ref, int n,
		     char (*name)[24], const double *secs,
		     const double *pulled, const double *hot)
{
	char pts[SW_MAXPTS][24], lab[48];
	double key[SW_MAXPTS], sp[SW_MAXPTS] = { 0 }, sh[SW_MAXPTS] = { 0 }, t;
	int cnt[SW_MAXPTS] = { 0 }, bad[SW_MAXPTS] = { 0 }, np2 = 0, i, j;
	char ts[24];

	for (i = 0; i < n; i++) {
		for (j = 0; j < np2 && strcmp(pts[j], name[i]); j++)
			;
		if (j == np2) {
			if (np2 == SW_MAXPTS)
				continue;
			snprintf(pts[np2], sizeof(pts[0]), "%s", name[i]);
			key[np2++] = strcmp(name[i], "aa") ?
				atof(name[i]) : atof(ref) + 1e-6;
		}
		if (pulled[i] < 0 || secs[i] <= 0) {
			bad[j] = 1;
			continue;
		}
		sp[j] += pulled[i] / secs[i];
		sh[j] += hot[i] / secs[i];
		cnt[j]++;
	}
	for (i = 1; i < np2; i++)	/* by value, A/A after the reference */
		for (j = i; j > 0 && key[j] < key[j - 1]; j--) {
			memcpy(ts, pts[j], sizeof(ts));
			memcpy(pts[j], pts[j - 1], sizeof(ts));
			memcpy(pts[j - 1], ts, sizeof(ts));
			t = key[j], key[j] = key[j - 1], key[j - 1] = t;
			t = sp[j], sp[j] = sp[j - 1], sp[j - 1] = t;
			t = sh[j], sh[j] = sh[j - 1], sh[j - 1] = t;
			t = cnt[j], cnt[j] = cnt[j - 1], cnt[j - 1] = t;
			t = bad[j], bad[j] = bad[j - 1], bad[j - 1] = t;
		}
	fprintf(out, "balancer, from /proc/schedstat (all CPUs and domains, per second of the runs' windows):\n");
	fprintf(out, "%-22s %12s %14s\n", "point", "pulled/s", "hot pulled/s");
	for (i = 0; i < np2; i++) {
		fmt_point(lab, sizeof(lab), 1e3 * (strcmp(pts[i], "aa") ?
						    atof(pts[i]) : atof(ref)));
		if (!strcmp(pts[i], "aa"))
			strcat(lab, " again (A/A)");
		if (cnt[i] && !bad[i])
			fprintf(out, "%-22s %12.1f %14.1f\n", lab,
				sp[i] / cnt[i], sh[i] / cnt[i]);
		else
			fprintf(out, "%-22s %12s %14s\n", lab, "n/a", "n/a");
	}
}

/* The live sweep's table of the later kernels' counters. */
static void lb_table_runs(FILE *out)
{
	static char name[SW_MAXRUNS][24];
	static double secs[SW_MAXRUNS];
	int i;

	if (cfam != C_LATER || cnt_na)
		return;
	for (i = 0; i < d.nruns; i++) {
		snprintf(name[i], sizeof(name[0]), "%s", d.name[d.run[i].pt]);
		secs[i] = d.run[i].secs;
	}
	lb_table(out, d.ref, d.nruns, name, secs, lbp, lbh);
}

/*
 * An int knob's labels: stats.c names its values as if they were us
 * ("25 us", "1.5 ms"); back to the plain number, in place, keeping the
 * table's columns where a label is followed by its padding.
 */
static void relabel(const char *in, FILE *out)
{
	static const struct { const char *u; double f; } units[] = {
		{ " us", 1 }, { " ms", 1e3 }, { " s", 1e6 } };
	const char *s = in, *e;
	char num[40];
	double v;
	int i, k, len;

	while (*s) {
		if (*s >= '0' && *s <= '9' &&
		    (s == in || !strchr("0123456789.+-eE", s[-1]))) {
			v = strtod(s, (char **)&e);
			for (i = 0; i < 3; i++) {
				k = strlen(units[i].u);
				if (!strncmp(e, units[i].u, k) &&
				    !((e[k] | 32) >= 'a' && (e[k] | 32) <= 'z'))
					break;
			}
			if (i < 3) {
				len = snprintf(num, sizeof(num), "%.10g",
					       v * units[i].f);
				fputs(num, out);
				e += k;
				/* a table cell: keep its width */
				if (e[0] == ' ' && e[1] == ' ')
					for (len = (int)(e - s) - len;
					     len > 0 && *e == ' '; len--)
						fputc(' ', out);
				s = e;
				continue;
			}
		}
		fputc(*s++, out);
	}
}

/*
 * stats.c's report, and for a --knob sweep its labels and the line to
 * paste made right: stats.c knows the 2.6.9 and later kernels' knobs
 * only, and pastes "sysctl -w knob:UNIT=<ns>" for others.
 */
static int report(const struct sw_opts *an)
{
	char *buf = NULL, *l, *nl, *eq;
	size_t len = 0;
	FILE *m;
	int rc, isint = !strcmp(d.knob, "knob:int");
	double unit = 1;

	if (strncmp(d.knob, "knob:", 5))
		return sw_report(&d, an, stdout);
	m = open_memstream(&buf, &len);
	if (!m) {
		err("open_memstream: %s", strerror(errno));
		return -1;
	}
	rc = sw_report(&d, an, m);
	fclose(m);
	if (!strcmp(d.knob + 5, "us") || isint)
		unit = 1e3;
	else if (!strcmp(d.knob + 5, "ms"))
		unit = 1e6;
	else if (!strcmp(d.knob + 5, "s"))
		unit = 1e9;
	for (l = buf; *l; l = nl) {
		nl = l + strcspn(l, "\n");
		if (*nl)
			*nl++ = 0;
		eq = strchr(l, '=');
		if (!strncmp(l, "sysctl -w knob:", 15) && eq) {
			if (uknob.path)
				printf("echo %.0f > %s\n", atof(eq + 1) / unit,
				       uknob.path);
			else
				printf("the value to write into the knob: %.0f (%s; --knob PATH:UNIT names the file)\n",
				       atof(eq + 1) / unit, d.knob + 5);
			continue;
		}
		if (isint)
			relabel(l, stdout);
		else
			fputs(l, stdout);
		putchar('\n');
	}
	free(buf);
	return rc;
}

/*
 * One run of point i in repetition q: the write, --settle once, then the
 * window, with the idle share and the counters taken over the window only.
 */
static void measure(int i, int q, char **argv)
{
	struct sw_run *r = &d.run[d.nruns];
	double idle0, tot0, idle1, tot1, a0 = 0, b0 = 0, a1, b1, t0;
	const char *why;
	char buf[32];
	int fam, ver;

	if (write_knob(saved[0].path, ns[i] / knob->unit))
		bail(1);
	snprintf(buf, sizeof(buf), "%d", q);
	*r = (struct sw_run){ .pt = i, .rep = sw_rep(&d, buf),
		.seq = d.nruns + 1, .idle = -1, .hr = -1, .hm = -1 };
	lbp[d.nruns] = lbh[d.nruns] = -1;
	if (o.count)
		count_until(argv, o.settle);
	else if (pump(now() + o.settle))
		workload_exited("while settling");
	if (cpu_ticks(&idle0, &tot0) < 0)
		tot0 = -1;
	why = cnt_na ? cnt_na : counters(&a0, &b0, &fam, &ver);
	t0 = now();
	if (o.count)
		run_count(r, argv, t0);
	else
		run_lines(r, t0);
	if (r->tp <= 0) {
		err("run %d: throughput %g: no ratio can be taken",
		    d.nruns + 1, r->tp);
		bail(1);
	}
	if (tot0 >= 0 && !cpu_ticks(&idle1, &tot1) && tot1 > tot0)
		r->idle = 100 * (idle1 - idle0) / (tot1 - tot0);
	if (!why && !counters(&a1, &b1, &fam, &ver) && (int)cfam == fam) {
		if (cfam == C_269) {
			r->hr = a1 - a0;
			r->hm = b1 - b0;
		} else {
			lbp[d.nruns] = a1 - a0;
			lbh[d.nruns] = b1 - b0;
		}
	}
	if (csv) {
		csv_line(r, d.nruns);
		if (fflush(csv) || ferror(csv)) {
			err("%s: %s", o.csv, strerror(errno));
			bail(1);
		}
	}
	d.nruns++;
	fmt_point(buf, sizeof(buf), ns[i]);
	fprintf(stderr, "run %d/%d (rep %d): %s%s: %g", d.nruns,
		np * o.reps, q, buf, i == 1 ? " (A/A)" : "", r->tp);
	if (r->idle >= 0)
		fprintf(stderr, ", idle %.1f %%", r->idle);
	if (r->hr >= 0)
		fprintf(stderr, ", hot refused %.0f, moved %.0f", r->hr, r->hm);
	if (lbp[d.nruns - 1] >= 0)
		fprintf(stderr, ", pulled %.0f (cache-hot %.0f)",
			lbp[d.nruns - 1], lbh[d.nruns - 1]);
	fputc('\n', stderr);
}

/*
 * --analyse: a CSV of a later kernel's sweep has the counters' columns;
 * their table comes first, as in the sweep.
 */
static void analyse_lb(void)
{
	static char name[SW_MAXRUNS][24];
	static double secs[SW_MAXRUNS], p[SW_MAXRUNS], h[SW_MAXRUNS];
	char line[4096], *f[64], *c;
	int n = 0, nf, i, at[4] = { -1, -1, -1, -1 };
	static const char *cols[4] = { "point", "secs", "lb_pulled",
		"lb_hot_pulled" };
	FILE *in = fopen(o.analyse, "r");

	if (!in)
		return;
	while (fgets(line, sizeof(line), in) && n < SW_MAXRUNS) {
		line[strcspn(line, "\r\n")] = 0;
		for (nf = 0, c = line; nf < 64; c++) {
			f[nf++] = c;
			c += strcspn(c, ",");
			if (!*c)
				break;
			*c = 0;
		}
		if (at[0] < 0) {
			for (i = 0; i < nf; i++)
				for (int k = 0; k < 4; k++)
					if (!strcmp(f[i], cols[k]))
						at[k] = i;
			if (at[0] < 0 || at[2] < 0 || at[3] < 0 || at[1] < 0)
				break;
			continue;
		}
		if (at[3] >= nf)
			continue;
		snprintf(name[n], sizeof(name[0]), "%s", f[at[0]]);
		secs[n] = atof(f[at[1]]);
		p[n] = *f[at[2]] ? atof(f[at[2]]) : -1;
		h[n] = *f[at[3]] ? atof(f[at[3]]) : -1;
		n++;
	}
	fclose(in);
	if (n)
		lb_table(stdout, d.ref, n, name, secs, p, h);
}

static int analyse(void)
{
	int rc;
	double v, bare = 1e3;

	if (sw_load_csv(&d, o.analyse))
		return 1;
	if (!strncmp(d.knob, "kernel.", 7) ||
	    !strcmp(d.knob, "migration_cost_ns") || !strcmp(d.knob, "knob:ns"))
		bare = 1;
	else if (!strcmp(d.knob, "knob:ms"))
		bare = 1e6;
	else if (!strcmp(d.knob, "knob:s"))
		bare = 1e9;
	/* labels of an int knob's table */
	if (!strcmp(d.knob, "knob:int")) {
		uknob.isint = 1;
		uknob.unit = 1e3;
		knob = &uknob;
	}
	if (o.ref) {
		/* bare numbers in the knob's unit, as for the sweep */
		if (parse_time(o.ref, bare, &v)) {
			err("--ref: '%s' is not a time", o.ref);
			return 1;
		}
		snprintf(d.ref, sizeof(d.ref), "%.10g", v / 1e3);
	} else if (!*d.ref) {
		snprintf(d.ref, sizeof(d.ref), "%s", bare == 1 ? "500" : "2500");
	}
	if (o.summary && !(o.an.summary = fopen(o.summary, "w"))) {
		err("--summary %s: %s", o.summary, strerror(errno));
		return 1;
	}
	analyse_lb();
	rc = report(&o.an);
	if (o.an.summary && fclose(o.an.summary)) {
		err("--summary %s: %s", o.summary, strerror(errno));
		return 1;
	}
	return rc < 0 ? 1 : 0;
}

/* The warm-up, saying every 5 s how much of it is left. */
static void warm(char **argv)
{
	double end = now() + o.warm, t;

	if (o.warm <= 0)
		return;
	fprintf(stderr, "warm: %s of the workload before the first run\n",
		dur(o.warm));
	while ((t = now()) < end) {
		t = t + 5 < end ? t + 5 : end;
		if (o.count)
			count_until(argv, t - now());
		else if (pump(t))
			workload_exited("before the first run");
		if (end - now() > 0.05)
			fprintf(stderr, "warm: %s left\n", dur(end - now()));
	}
}

int main(int argc, char **argv)
{
	int i, k, q, order[SW_MAXPTS], v, fam;
	double a, b, total;
	char lab[32];

	if (parse_args(argc, argv))
		return 1;
	if (o.analyse)
		return analyse();
	if (optind >= argc) {
		err("give, after --, the workload (--help)");
		return 1;
	}
	argv += optind;
	/* nothing is read or written for a user who may not write it */
	if (geteuid() != 0) {
		err("must run as root (it writes the kernel's cache-hot time); nothing changed");
		return 1;
	}
	d.smp_us = d.node_us = -1;
	if (find_knob() || save_old() || parse_points())
		return 1;
	if (!runnable(argv[0])) {
		err("cannot run %s: no such command (or not executable); nothing changed",
		    argv[0]);
		return 1;
	}
	snprintf(d.knob, sizeof(d.knob), "%s", knob->name);
	snprintf(d.ref, sizeof(d.ref), "%.10g", refns / 1e3);
	for (i = 0; i < np; i++) {
		snprintf(lab, sizeof(lab), "%.10g", ns[i] / 1e3);
		sw_point(&d, i == 1 ? "aa" : lab);
	}
	/* which counters there are: said once, their CSV columns too */
	cnt_na = counters(&a, &b, &fam, &cver);
	cfam = fam;
	/* an unwritable CSV is found now, not after the sweep */
	if (o.csv) {
		csv = fopen(o.csv, "w");
		if (!csv) {
			err("--csv %s: %s; nothing changed", o.csv,
			    strerror(errno));
			return 1;
		}
		csv_line(NULL, 0);
		if (fflush(csv)) {
			err("--csv %s: %s; nothing changed", o.csv,
			    strerror(errno));
			return 1;
		}
	}

	if (knob->isint)
		printf("knob: %s (a plain number: --points and --ref are whole numbers), now %lld\n",
		       saved[0].path, saved[0].val);
	else
		printf("knob: %s (%s; bare numbers in --points and --ref are %s), now %lld\n",
		       saved[0].path, unit_name(), unit_name(), saved[0].val);
	if (!o.node && d.node_us >= 0)
		printf("NUMA level: %s, now %ld us; a point above it raises it too (restored at the end)\n",
		       saved[1].path, d.node_us);
	printf("points%s:", o.points ? "" : " (default, none given)");
	for (i = 2; i < np; i++) {
		fmt_point(lab, sizeof(lab), ns[i]);
		printf(" %s", lab);
	}
	fmt_point(lab, sizeof(lab), refns);
	printf("; reference %s%s, run twice (A/A); %d reps of %g s; throughput: %s\n",
	       lab, refns / knob->unit == knob_now ? " (current)" :
	       "", o.reps, o.run, o.count ?
	       "completed runs per second, each window opening after a run ended" :
	       o.match ? "the mean of the numbers --match finds" :
	       "the mean of the numbers it prints");
	total = o.warm + np * o.reps * (o.settle + o.run);
	if (o.count)
		printf("time: at least %s (warm %g s, then %d runs of settle %g s and run %g s, each also waiting for the workload's runs to end)\n",
		       dur(total), o.warm, np * o.reps, o.settle, o.run);
	else
		printf("time: about %s (warm %g s, then %d runs of settle %g s and run %g s): the workload must keep running that long\n",
		       dur(total), o.warm, np * o.reps, o.settle, o.run);
	/* said once; without them the counters are not looked at again */
	if (cnt_na)
		printf("%s: n/a: %s\n", is269() ? "hot refused/moved" :
		       "balancer counters", cnt_na);
	else if (cfam == C_LATER)
		printf("balancer counters: tasks pulled and cache-hot tasks pulled, /proc/schedstat version %d (their table comes before the report)\n",
		       cver);
	fflush(stdout);

	catch_signals();
	if (!o.count && (wpid = spawn(argv, 0)) < 0)
		bail(1);
	warm(argv);
	for (q = 1; q <= o.reps; q++) {
		sw_order(np, q, order);
		for (k = 0; k < np; k++)
			measure(order[k], q, argv);
	}
	stop_workload();
	if (restore())
		bail(1);
	printf("restored %s to %lld\n", saved[0].path, saved[0].val);
	if (csv && fclose(csv)) {
		csv = NULL;
		err("%s: %s", o.csv, strerror(errno));
		return 1;
	}
	csv = NULL;
	lb_table_runs(stdout);
	v = report(NULL);
	return v < 0 ? 1 : 0;
}
