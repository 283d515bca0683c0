// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the cachehot benchmark guest (scripts/bench.sh): three workloads
 * that sweep /proc/sys/kernel/cache_hot_time at run time.
 * Static musl, runs as pid 1 on Linux 2.6.9; independent of tests/guest/.
 *
 * The workloads are one file each (oltp.c, msg.c, io.c; bench.h says what a
 * workload provides); this file reads the parameters, starts the workload
 * and runs the sweep.
 *
 * Parameters: name=value lines of /bench.env, which scripts/bench.sh
 * appends to the initramfs for every boot, or kernel command line words
 * name=value, which 2.6.9 hands to init as environment variables (but it
 * keeps only 255 characters of its command line: bench.sh's words did not
 * fit). /bench.env wins. All are optional:
 *   chload=oltp|msg|io   the workload
 *   chpoints=d,2500,...  sweep points, us; "d" = the boot-time (derived)
 *                        value, "boot" = do not write (unpatched kernel),
 *                        "aa" = 2.5 ms again (A/A: the noise floor),
 *                        "pin" = every task pinned (oltp, io: worker i to
 *                        CPU i % ncpu; msg: group g to CPU g % ncpu; io's
 *                        disk task is on CPU 0 at every point),
 *                        "mig" = every worker (msg: receiver) moves to the
 *                        next CPU after each transaction (message);
 *                        pin and mig are the sensitivity control; a
 *                        number the kernel refuses (above 4 s) stops
 *                        the sweep with a BENCH error line
 *   chreps=N             repetitions (interleaved: rep 1 of every point,
 *                        then rep 2...; in cachehot-sweep's counterbalanced
 *                        order, 2500 and aa next to each other: points.c)
 *   chrep0=K             number of the first repetition (the host
 *                        interleaves repetitions across boots)
 *   chrun_ms=, chwarm_ms= measured and warm-up time per run
 *   chworkers=W          oltp, io: workers per CPU (default 3)
 *   chws_kb=KB           working set per worker/receiver (default: cpuinfo
 *                        cache size / 2)
 *   chcompute_us=U       oltp, io: warm compute per transaction; the steps are
 *                        calibrated to it at start (default 3000)
 *   chstream_kb=KB       oltp, io: new lines each transaction reads after its
 *                        walk (util.c: the stream; default 0, none)
 *   chphase_ms=MS        oltp, io: every MS the workers of even and odd
 *                        CPUs swap 3/2 and 1/2 of the steps (util.c:
 *                        phase_halves(); default 0, equal)
 *   chsleepers=N         io: N of every chworkers waits of each worker,
 *                        in turn, are a sleep on its own CPU as oltp's
 *                        instead of a wait for the disk (default 0, none;
 *                        at most chworkers)
 *   chsleeper_min_us=, chsleeper_max_us=  io: their wait (default the
 *                        chsleep_ ones)
 *   chwrite=0|1          every walk writes each node it reads (default 1;
 *                        util.c: walk() says why)
 *   chsteps=S            steps per transaction, instead of chcompute_us
 *                        (msg default: the working set once)
 *   chsleep_min_us=, chsleep_max_us=  oltp, io: I/O wait (default 1000, 25000;
 *                        oltp: max 0, no wait; io: max <= min, min)
 *   chgroups=G, chsenders=S, chreceivers=R  msg: groups per CPU and the
 *                        shape of a group (default 4, 2, 2)
 *   chsettle_ms=MS       run the workload this long before the first run
 *                        (default 3000)
 *   chcalib=0|1          run the calibration first (default 1)
 *   chprop=N             sysctl propagation samples (default 200, 0 = off)
 *   chfaith=N            only the faithfulness check (calib.c: faithful()),
 *                        N repetitions, then power off
 *   chk=hz:HZ,...        boot.sh's word: the kernel's HZ (chhz=HZ also works)
 * Output, one line each (the host parses them):
 *   BENCH info key=value ...
 *   BENCH calib ...
 *   BENCH prop ...
 *   BENCH run i/n point=<p> rep=<r> us=<set> tps=<t> idle=<%> moves=<m>
 *         wakemoves=<m> hotref=<n> hotmoved=<n> ctxt=<c> secs=<s> t=<s>
 *         gapn=<n> gapcdf=<%>/<%>/...
 *         clock=<guest seconds per TSC second>
 *         (tps: transactions a second, each counted by its work: with
 *         chphase_ms a heavy one 3/2, a light one 1/2, util.c:
 *         phase_halves(); hotref, hotmoved: the series' schedstat
 *         counters, -1 on a kernel without them; t: seconds
 *         since the workload started; gapcdf: share of the gaps between two transactions of a
 *         task (its time off the CPU: sleep plus run-queue wait) shorter
 *         than 1, 2.5, 5, 7.5, 10, 12.5, 15, 25 and 250 ms, by the guest's
 *         clock; clock: how fast the guest's clock ran against the TSC the
 *         snapshots read, a diagnostic: timing rates and gaps by the TSC
 *         instead made the runs twice as noisy, see benchmarks.md)
 *   GUEST END
 * then sync and power off.
 */
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include "bench.h"

#define MAXPOINTS	32
#define NODE_MIN_US	10000	/* the series' NUMA floor where it measured nothing */

static const struct workload *const workloads[] = { &oltp_load, &msg_load, &io_load };

/* 0, or -1 if the kernel refused the value (above its 4 s limit) */
static int set_point(long us)
{
	if (write_us(SYSCTL_CPU, us) != 0)
		return -1;
	/* What cache_hot_time=<us> at boot would set: NUMA = max(SMP, 10 ms) */
	if (access(SYSCTL_NODE, W_OK) == 0)
		write_us(SYSCTL_NODE, us > NODE_MIN_US ? us : NODE_MIN_US);
	return 0;
}

/*
 * One run of point p: set it, warm up, measure, print its BENCH run line.
 * -1 if the kernel refused its value, or a pin point's task was not pinned:
 * a run at the old value (or unpinned) would carry this point's name.
 */
static int run_point(const struct workload *w, const struct params *prm,
		      const char *p, int rep, int n, int total, long derived,
		      double t_start, const pid_t *pids)
{
	static int pinned;
	long us = point_us(p, derived);
	struct snap a, b;
	double el, left;
	char cdf[128];
	size_t len = 0;
	unsigned long long gn = 0, c = 0;
	int i, j;

	if (us >= 0 && derived >= 0 && set_point(us) != 0) {
		printf("BENCH error point %s: the kernel refused cache_hot_time "
		       "%ld us (%s)\n", p, us, strerror(errno));
		return -1;
	}
	/*
	 * mig ends before pin begins: ending it unpins every worker, which
	 * undid the pins of a pin point that followed mig (the order puts
	 * pin right after mig in some repetitions, whose "pinned" runs would
	 * then not be pinned).
	 */
	if ((strcmp(p, "mig") == 0) != sh->mig) {
		sh->mig = !sh->mig;
		for (i = 0; !sh->mig && i < prm->nworkers; i++)
			pin(pids[i], -1);
	}
	if ((strcmp(p, "pin") == 0) != pinned) {
		pinned = !pinned;
		for (i = 0; i < prm->nprocs - w->fixed; i++) {
			sh->want[i] = pinned ? w->home(prm, i) : -1;
			pin(pids[i], sh->want[i]);
		}
	}
	sh->epoch++;
	sleep_s(prm->warm_s);
	/* a worker that was inside maybe_move() when mig ended may have
	 * taken its old want (-1) */
	for (i = 0; pinned && i < prm->nprocs - w->fixed; i++)
		pin(pids[i], w->home(prm, i));
	snapshot(&a, prm->nworkers);
	sleep_s(prm->run_s);
	snapshot(&b, prm->nworkers);
	for (i = 0; pinned && i < prm->nprocs - w->fixed; i++) {
		cpu_set_t set;

		if (sched_getaffinity(pids[i], sizeof(set), &set) != 0 ||
		    CPU_COUNT(&set) != 1 || !CPU_ISSET(w->home(prm, i), &set)) {
			printf("BENCH error point pin: task %d was not pinned to "
			       "CPU %d during the run\n", i, w->home(prm, i));
			return -1;
		}
	}
	el = b.t - a.t;
	left = (now() - t_start) / n * (total - n);
	for (j = 0; j <= NGAP; j++)
		gn += b.gap[j] - a.gap[j];
	for (j = 0; j < NGAP && len < sizeof(cdf) - 8; j++) {
		c += b.gap[j] - a.gap[j];
		len += snprintf(cdf + len, sizeof(cdf) - len, "%s%.1f",
				j ? "/" : "", gn ? 100.0 * c / gn : 0.0);
	}
#define DELTA(f) (b.f == (unsigned long long)-1 ? -1LL : (long long)(b.f - a.f))
	printf("BENCH run %d/%d point=%s rep=%d us=%ld tps=%.1f idle=%.2f "
	       "moves=%lld wakemoves=%lld hotref=%lld hotmoved=%lld "
	       "ctxt=%llu secs=%.2f t=%.1f gapn=%llu gapcdf=%s clock=%.3f left_s=%.0f\n",
	       n, total, p, rep, derived >= 0 ? read_us(SYSCTL_CPU) : -1,
	       (b.tx - a.tx) / 2.0 / el,
	       b.total > a.total ? 100.0 * (b.idle - a.idle) / (b.total - a.total) : -1.0,
	       DELTA(moves), DELTA(wakemoves), DELTA(hotref), DELTA(hotmoved),
	       b.ctxt - a.ctxt, el, b.t - t_start, gn, cdf,
	       cpu_mhz > 0 ? el / ((b.tsc - a.tsc) / (cpu_mhz * 1e6)) : -1.0, left);
#undef DELTA
	return 0;
}

/* /proc/cpuinfo: model name, cpu MHz (cpu_mhz), cache size */
static long read_cpuinfo(const char **model, char *cachestr, size_t size)
{
	char *p, *e, fmt[16];
	long cache_kb = 0;

	if (read_file("/proc/cpuinfo", big, sizeof(big)) <= 0)
		return 0;
	p = strstr(big, "model name");
	if (p && (p = strchr(p, ':')) && (e = strchr(p, '\n'))) {
		*e = 0;
		*model = strdup(p + 2);
		*e = '\n';
	}
	p = strstr(big, "cpu MHz");
	if (p && (p = strchr(p, ':')))
		cpu_mhz = strtod(p + 1, NULL);
	p = strstr(big, "cache size");
	if (p && (p = strchr(p, ':'))) {
		cache_kb = strtol(p + 1, NULL, 10);
		snprintf(fmt, sizeof(fmt), "%%%zu[^\n]", size - 1);
		sscanf(p + 2, fmt, cachestr);
	}
	return cache_kb;
}

/* /bench.env: one name=value a line, into the environment */
static void read_env_file(void)
{
	char *l, *eq;

	if (read_file("/bench.env", big, sizeof(big)) <= 0)
		return;
	for (l = strtok(big, "\n"); l; l = strtok(NULL, "\n"))
		if ((eq = strchr(l, '=')) && eq > l) {
			*eq = 0;
			setenv(l, eq + 1, 1);
		}
}

int main(void)
{
	char *points[MAXPOINTS], *pts, cachestr[64] = "?";
	const char *model = "?", *load;
	const struct workload *w = NULL;
	struct params prm;
	int npoints = 0, reps, rep0, i, r, k;
	long cache_kb, derived, derived_node;
	double t_start;
	pid_t pids[MAXW];

	setvbuf(stdout, NULL, _IOLBF, 0);
	mkdir("/proc", 0555);
	if (mount("proc", "/proc", "proc", 0, NULL) != 0 && errno != EBUSY)
		printf("BENCH error mount /proc: %s\n", strerror(errno));

	read_env_file();
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1 || ncpu > MAXCPU)
		ncpu = 1;
	cache_kb = read_cpuinfo(&model, cachestr, sizeof(cachestr));
	if (cache_kb <= 0)
		cache_kb = 512;		/* cpuinfo said nothing: assume 512 KB */
	load = getenv("chload") && *getenv("chload") ? getenv("chload") : "oltp";
	for (i = 0; i < (int)(sizeof(workloads) / sizeof(workloads[0])); i++)
		if (!strcmp(load, workloads[i]->name))
			w = workloads[i];
	if (!w) {
		printf("BENCH error chload=%s: no such workload\n", load);
		goto out;
	}
	prm.wpc = env_long("chworkers", 3);
	prm.groups = env_long("chgroups", 4) * ncpu;
	prm.senders = env_long("chsenders", 2);
	prm.receivers = env_long("chreceivers", 2);
	prm.ws_kb = env_long("chws_kb", cache_kb / 2);
	prm.sleep_min = env_long("chsleep_min_us", 1000);
	prm.sleep_max = env_long("chsleep_max_us", 25000);
	prm.compute_us = env_long("chcompute_us", 3000);
	prm.stream_kb = env_long("chstream_kb", 0);
	prm.phase_ms = env_long("chphase_ms", 0);
	prm.sleepers = env_long("chsleepers", 0);
	prm.lsleep_min = env_long("chsleeper_min_us", prm.sleep_min);
	prm.lsleep_max = env_long("chsleeper_max_us", prm.sleep_max);
	/*
	 * The stream must outgrow the cache a move loses: under a model that
	 * is the model's (boot.sh's chk word says its size); cpuinfo shows
	 * 2.6.9's x86_cache_size, 64 KB for QEMU's CPU.
	 */
	prm.cache_kb = chk_long("model_kb", cache_kb);
	walk_writes = env_long("chwrite", 1) != 0;
	prm.run_s = env_long("chrun_ms", 5000) / 1000.0;
	prm.warm_s = env_long("chwarm_ms", 1000) / 1000.0;
	if (w->shape(&prm) != 0) {
		printf("BENCH error too many tasks or an empty group\n");
		goto out;
	}
	reps = env_long("chreps", 1);
	rep0 = env_long("chrep0", 1);
	pts = strdup(getenv("chpoints") ? getenv("chpoints") : "d");
	for (char *t = strtok(pts, ","); t && npoints < MAXPOINTS; t = strtok(NULL, ","))
		points[npoints++] = t;
	derived = read_us(SYSCTL_CPU);		/* before any write: the boot value */
	derived_node = read_us(SYSCTL_NODE);

	printf("BENCH info cpus=%d model=\"%s\" cache=\"%s\" cache_kb=%ld hz=%ld write=%d "
	       "model_kb=%ld\n", ncpu, model, cachestr, cache_kb, guest_hz(), walk_writes,
	       chk_long("model_kb", 0));
	printf("BENCH info boot_cache_hot_time_us=%ld boot_cache_hot_time_node_us=%ld\n",
	       derived, derived_node);
	for (k = 0; k < npoints; k++)
		if (point_us(points[k], derived) == -2) {
			printf("BENCH error point %s: not a number of us, d, aa, boot, "
			       "pin or mig\n", points[k]);
			goto out;
		}
	if (read_file(SCHEDSTAT, big, sizeof(big)) > 0) {
		for (char *l = strtok(big, "\n"); l; l = strtok(NULL, "\n"))
			if (!strncmp(l, "domain", 6) || !strncmp(l, "version", 7))
				printf("BENCH info schedstat %.60s\n", l);
	}

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		printf("BENCH error shared mmap: %s\n", strerror(errno));
		goto out;
	}
	for (i = 0; i < MAXW; i++)
		sh->want[i] = -1;
	if (env_long("chfaith", 0) > 0) {
		faithful(env_long("chfaith", 0), env_long("chfaith_ms", 300));
		goto out;
	}
	if (env_long("chcalib", 1))	/* others: the other sets on a CPU */
		calibrate(cache_kb, prm.ws_kb, prm.nworkers / ncpu - 1);
	prm.steps = env_long("chsteps", 0);
	if (prm.steps <= 0)
		prm.steps = w->steps(&prm);
	w->info(&prm);
	printf(" run_ms=%.0f warm_ms=%.0f reps=%d rep0=%d points=%d\n",
	       prm.run_s * 1000, prm.warm_s * 1000, reps, rep0, npoints);
	if (derived >= 0)
		propagation(env_long("chprop", 200), derived);
	if (w->start(&prm, pids) != 0) {
		printf("BENCH error could not start the workload: %s\n", strerror(errno));
		goto out;
	}

	/*
	 * Settle before the first run: the workers' first seconds (pages
	 * faulted in, the balancer spreading freshly forked tasks) ran
	 * 14 % faster than the rest of the boot in the first version.
	 */
	sleep_s(env_long("chsettle_ms", 3000) / 1000.0);
	t_start = now();
	for (r = 0; r < reps; r++) {
		int idx[MAXPOINTS];

		/* cachehot-sweep's order: points.c, point_order() */
		point_order(points, npoints, rep0 + r, idx);
		for (k = 0; k < npoints; k++) {
			if (run_point(w, &prm, points[idx[k]], rep0 + r,
				      r * npoints + k + 1, reps * npoints,
				      derived, t_start, pids) != 0)
				goto stop;	/* bench.sh reports the error */
		}
	}
stop:
	for (i = 0; i < prm.nprocs; i++)
		kill(pids[i], SIGKILL);
	for (i = 0; i < prm.nprocs; i++)
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
