// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the cachehot test guests: the in-guest checks of the series.
 * Runs as pid 1 on Linux 2.6.9 (static musl) and prints on the console:
 *   GUEST INFO <anything>          information for the log and the report
 *   GUEST PASS <name>              one line per check that passed
 *   GUEST FAIL <name>: <why>       one line per check that failed
 *   GUEST END                      last line: everything was printed
 * then powers the machine off.
 *
 * The host passes what it knows in one kernel command line word, which 2.6.9
 * hands to init as an environment variable (one only: 2.6.9 panics beyond 8
 * boot environment variables):
 *   chk=key:value,key:value,...   with the keys
 *   hz       the kernel's HZ (from the built tree's asm/param.h)
 *   cpus     vCPUs the topology gives
 *   smp smt numa sysctl proc schedstats   0|1: whether the config has SMP,
 *            SCHED_SMT, NUMA, SYSCTL, PROC_FS, SCHEDSTATS (which decide the
 *            domain levels, the knobs and /proc/schedstat)
 *   nodes    NUMA nodes of the topology (1 without CONFIG_NUMA)
 *   cpu node the boot option's expected SMP / NUMA level in us, a known
 *            answer that must agree with what this program reads in the
 *            command line by the documented syntax (else derived)
 *   warn     n: n of the cache_hot_time= words are bad, each with its
 *            warning (there is one wording); must agree with what this
 *            program finds bad in the command line (default 0)
 *   floor    0: a RHEL 4 kernel without its optional floor patch: the
 *            SMP level is what cache_decay_ticks gives, 2.5 ms for 0
 *   stress   n: n sysctl writes, alternating values on both files, while
 *            busy tasks migrate and readers check that every value
 *            /proc/schedstat shows was written
 *   isol     k: booted with isolcpus=k: only check that pid 1 and its
 *            busy children stay off CPU k
 *   model_kb miss_ns remote_ns share node1_cpu: the guest runs under the
 *            cache-timing model (boot.sh MODEL=, cachemodel/): its cache
 *            size, miss penalties, vCPUs per cache, first vCPU of node 1;
 *            its machine is logged (print_model())
 *
 * What the kernel shows: /proc/sys/kernel/cache_hot_time and
 * cache_hot_time_node (CONFIG_SYSCTL; _node with CONFIG_NUMA), in us; and,
 * with CONFIG_SCHEDSTATS, /proc/schedstat version 100: version 10 whose
 * domain lines have the domain's cache_hot_time in ns after the mask and
 * end with 5 more counters: hot tasks left alone and moved anyway for
 * IDLE and NOT_IDLE, and left alone for NEWLY_IDLE.  A CPU's domains go
 * from the lowest
 * level up: SMT (CONFIG_SCHED_SMT), SMP, NUMA (CONFIG_NUMA).  Without
 * SCHEDSTATS only the sysctl values are checked, and /proc/schedstat must
 * be absent.
 *
 * Expected values are computed here, independently of the kernel's code,
 * from HZ, this program's own reading of the command line and the
 * cache_decay_ticks that the arch's boot line reports, by the documented
 * rule: SMT 0; SMP the boot option's <t>, else ticks * 10^6 / HZ us but
 * at least 10000 us, at most 4 s; NUMA the boot option's <t_node>, else
 * SD_NODE_INIT's 10000 us, and never below the SMP level.  The boot log
 * names what set each level.  A decay= word (ia64; RHEL 4's x86 too) is
 * the boot line's cache_decay_ticks, or warned about.  The last valid
 * cache_hot_time= counts, whole.  At run time a write sets its level in
 * every CPU's domains; raising the SMP level above the NUMA level raises
 * that too, and the NUMA level cannot be written below the SMP level.
 */
#include "guest.h"

/* ---- isolcpus ---- */

/* The CPU a task last ran on: field 39 of /proc/<pid>/stat; -1 unknown */
static long task_cpu_of(const char *pid)
{
	char path[64], buf[1024], *p;
	int field;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	if (read_file(path, buf, sizeof(buf)) <= 0 || !(p = strrchr(buf, ')')))
		return -1;
	for (field = 2; field < 39 && p; field++)
		p = strchr(p + 1, ' ');
	return p ? strtol(p + 1, NULL, 10) : -1;
}

/*
 * isolcpus=isol: nothing balances an isolated CPU, and 2.6.9 starts a
 * child on its parent's CPU, so if pid 1 ran on isol its children would
 * stay there.  Pid 1 must be elsewhere, and CPU-bound
 * children must spread over at least two CPUs, none of them isol.
 */
#define ISOL_CHILDREN	6
static void check_isolated(long isol)
{
	pid_t pid[ISOL_CHILDREN];
	long cpu, seen = 0, on_isol = 0;
	char name[16];
	int i;

	cpu = task_cpu_of("self");
	printf("GUEST INFO pid 1 on cpu%ld, cpu%ld isolated\n", cpu, isol);
	check(cpu >= 0 && cpu != isol, "isolcpus-init-not-isolated",
	      "pid 1 is on cpu%ld, isolcpus=%ld", cpu, isol);
	for (i = 0; i < ISOL_CHILDREN; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			time_t end = time(NULL) + 3;

			while (time(NULL) < end)
				;	/* busy for 3 s, then gone */
			_exit(0);
		}
	}
	sleep(2);
	for (i = 0; i < ISOL_CHILDREN; i++) {
		snprintf(name, sizeof(name), "%d", (int)pid[i]);
		cpu = task_cpu_of(name);
		printf("GUEST INFO busy child %d on cpu%ld\n", i, cpu);
		if (cpu == isol)
			on_isol++;
		if (cpu >= 0 && cpu < 32)
			seen |= 1L << cpu;
	}
	for (i = 0; i < ISOL_CHILDREN; i++)
		waitpid(pid[i], NULL, 0);
	check(!on_isol && __builtin_popcountl(seen) >= 2,
	      "isolcpus-children-spread", "%ld of %d busy children on the "
	      "isolated cpu%ld, CPUs used: %#lx", on_isol, ISOL_CHILDREN,
	      isol, seen);
}

/* ---- the cache model ---- */

/*
 * Under the cache-timing model (boot.sh MODEL=) the checks above must hold
 * as on plain TCG; what the model charges for a move is checked on its own
 * code (tests/cachemodel.sh) and measured in the benchmark's guest (its
 * calibration), not here: one boot's timing is no verdict.  Its machine,
 * for the log.
 */
static void print_model(long model_kb)
{
	printf("GUEST INFO model: %ld KB per cache, miss %ld ns, remote %ld "
	       "ns, stream %ld ns, remote stream %ld ns, %ld vCPUs per cache\n",
	       model_kb, chk_long("miss_ns", 0), chk_long("remote_ns", 0),
	       chk_long("sns", 0), chk_long("rsns", 0), chk_long("share", 1));
}

int main(void)
{
	long hz = chk_long("hz", 0), ncpus = chk_long("cpus", 1);
	int smt = chk_long("smt", 0), numa = chk_long("numa", 0);
	int smp = chk_long("smp", 1), sysctl = chk_long("sysctl", 1);
	int proc = chk_long("proc", 1), stats = chk_long("schedstats", 1);
	long stress = chk_long("stress", 0), online;
	struct bootopt o;
	struct model m;
	char why[256];
	int n, took;

	setvbuf(stdout, NULL, _IOLBF, 0);
	mc_mode = chk_long("mc", 0) == 1;
	mkdir("/proc", 0555);
	if (mount("proc", "/proc", "proc", 0, NULL) != 0 && errno != EBUSY) {
		/* without PROC_FS the kernel only has to boot and run us */
		check(!proc && errno == ENODEV, proc ? "proc-mounted" :
		      "no-procfs-boots", "mount: %s", strerror(errno));
		if (!proc && smp && sysctl)
			check_sysctl2_only(numa);
		goto out;
	}
	check(proc, "proc-mounted", "mounted /proc in a kernel without PROC_FS");
	n = klogctl(3, klog, sizeof(klog) - 1);
	klog[n > 0 ? n : 0] = 0;
	print_klog_lines("cache_hot_time");
	print_klog_lines("cache decay");
	print_klog_lines("migration cost");
	print_schedstat();

	online = sysconf(_SC_NPROCESSORS_ONLN);
	check(online == ncpus, "cpus-online", "%ld online, topology gives %ld",
	      online, ncpus);
	check(hz > 0, "hz-known", "the host passed no chk=hz:<HZ>");

	if (chk_long("isol", -1) >= 0) {
		check_isolated(chk_long("isol", -1));
		if (chk_long("model_kb", 0) > 0)
			print_model(chk_long("model_kb", 0));
		goto out;
	}

	if (stats) {
		static struct sstat s;

		/* the format, on every kernel that has it, UP included */
		n = read_schedstat(&s, why, sizeof(why));
		check(!n, "schedstat-format", "%s", why);
		if (!n && !smp)
			check(s.ndom[0] == 0, "schedstat-up-no-domains",
			      "cpu0 has %d domain lines in a UP kernel",
			      s.ndom[0]);
	} else {
		check(access(SCHEDSTAT, F_OK) != 0 && errno == ENOENT,
		      "no-schedstat", "%s exists without CONFIG_SCHEDSTATS",
		      SCHEDSTAT);
	}

	if (!smp) {
		/* The knobs exist only where they mean something */
		check(access(SYSCTL_CPU, F_OK) != 0 &&
		      access(SYSCTL_NODE, F_OK) != 0, "up-no-knobs",
		      "UP kernel has %s or %s", SYSCTL_CPU, SYSCTL_NODE);
		goto out;
	}

	memset(&m, 0, sizeof(m));
	m.ncpus = ncpus;
	m.smt = smt;
	m.numa = numa;
	m.sysctl = sysctl;
	m.stats = stats;
	read_bootopts(&o);
	if (!sysctl)
		/* no knobs, but the domains still get the boot values */
		check(access(SYSCTL_CPU, F_OK) != 0 &&
		      access(SYSCTL_NODE, F_OK) != 0, "no-sysctl-knob",
		      "%s exists without CONFIG_SYSCTL", SYSCTL_CPU);
	check_boot_values(hz > 0 ? hz : 1000, &o, &m);
	if (chk_long("model_kb", 0) > 0)
		print_model(chk_long("model_kb", 0));
	if (!sysctl) {
		if (stats && ncpus > 1) {
			unsigned long d[6];

			/* tasks spreading at the boot values */
			n = counters_run(ncpus, 0, 500, 500, d, &took);
			check(!n && d[5] == 0, "counters-newidle-never-moves-hot",
			      "a newly idle CPU moved %lu hot tasks", d[5]);
		}
		goto out;
	}
	if (numa)
		check_levels(&m);
	check_sysctl(0, &m);
	check_split_writes(0, &m);
	check_non_root(0, &m);
	if (numa) {
		/* the NUMA level's writes from 0 up: the SMP level at 0 */
		check(!write_str(SYSCTL_CPU, "0"), "sysctl-smp-0-for-numa",
		      "write 0: failed");
		model_write(&m, 0, 0);
		check_sysctl(1, &m);
		check_split_writes(1, &m);
		check_non_root(1, &m);
	}
	check_binary_sysctl(0, &m);
	check_sysctl2_fetch_once(0, &m, ncpus);
	if (numa) {
		check_binary_sysctl(1, &m);
		check_sysctl2_fetch_once(1, &m, ncpus);
	}
	if (stats)
		check_newidle_total("schedstat-newidle-hot-moved-zero");
	if (stress > 0)
		check_stress((int)stress, &m);
	if (stats && ncpus > 1)
		check_counters(ncpus, &m);
	else if (ncpus == 1)
		printf("GUEST INFO one CPU: no balancing, so the checks of "
		       "tasks that move (counters, stress) do not run\n");

out:
	printf("GUEST INFO %d passed, %d failed\n", passed, failed);
	printf("GUEST END\n");
	fflush(stdout);
	/*
	 * The console is a tty: write() returns before the serial line has
	 * sent the bytes, and the kernel's "Power down." would interleave
	 * with our last lines (seen once: "GUEST EN...D"). Wait for it.
	 */
	tcdrain(STDOUT_FILENO);
	usleep(200000);		/* and the UART's FIFO */
	sync();
#ifdef __ia64__
	/* Ski ends on the firmware's reset; a power-off would spin */
	reboot(RB_AUTOBOOT);
#else
	reboot(RB_POWER_OFF);
#endif
	for (;;)
		pause();
}
