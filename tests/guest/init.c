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
 *   smp smt numa sysctl proc   0|1: whether the config has SMP, SCHED_SMT,
 *            NUMA, SYSCTL, PROC_FS (which decide the domain levels and knobs)
 *   cpu node the boot option's expected SMP / NUMA level in us (else derived)
 *   warn     1: a bad cache_hot_time= was given, expect its warning
 *   stress   n: do n sysctl writes while busy tasks migrate
 *
 * Expected values are computed here, independently of the kernel's code,
 * from HZ and the cache_decay_ticks that the arch's boot line reports, by
 * the documented rule (Documentation/cachehot.md):
 *   SMT 0; SMP ticks * 10^6 / HZ us, or 10000 us when ticks == 0;
 *   NUMA max(SMP, 10000 us).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define SYSCTL_CPU	"/proc/sys/kernel/cache_hot_time"
#define SYSCTL_NODE	"/proc/sys/kernel/cache_hot_time_node"
#define VIEW		"/proc/sched_domains"
#define DEFAULT_US	10000UL		/* 10 ms */
#define MAX_US		10000000UL	/* 10 s */

static int passed, failed;
static char klog[1 << 18];

static void check(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("GUEST PASS %s\n", name);
		passed++;
		return;
	}
	printf("GUEST FAIL %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failed++;
}

/* The value of key in the host's chk= word, or def */
static long env_long(const char *key, long def)
{
	const char *p = getenv("chk");
	size_t n = strlen(key);

	while (p && *p) {
		if (!strncmp(p, key, n) && p[n] == ':')
			return strtol(p + n + 1, NULL, 10);
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return def;
}

/* Read a whole (small) file; returns its length or -1 with errno set. */
static int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY), n, len = 0;

	if (fd < 0)
		return -1;
	while (len < (int)size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = 0;
	return len;
}

/* Value of a sysctl in us, or -1 */
static long read_us(const char *path)
{
	char buf[64];
	char *end;
	long v;

	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	v = strtol(buf, &end, 10);
	if (end == buf || strcmp(end, "\n"))
		return -1;
	return v;
}

/* write(2) the bytes of s (len of them) in one call; 0 or errno */
static int write_raw(const char *path, const char *s, size_t len)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, s, len) != (ssize_t)len)
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

static int write_str(const char *path, const char *s)
{
	return write_raw(path, s, strlen(s));
}

/*
 * The domain levels of every online CPU as /proc/sched_domains shows them.
 * Checks the tree's shape and that each level holds the value wanted
 * (-1: do not check that level).  Returns 1 when all is as wanted.
 */
static int view_ok(int ncpus, int smt, int numa, long want_cpu, long want_node,
		   char *why, size_t whysize)
{
	static char buf[1 << 16];
	const char *want_level[3];
	int nlevels = 0, seen[64] = { 0 };
	char *line, *save;
	int i;

	if (smt)
		want_level[nlevels++] = "smt";
	want_level[nlevels++] = "smp";
	if (numa)
		want_level[nlevels++] = "numa";

	if (read_file(VIEW, buf, sizeof(buf)) < 0) {
		snprintf(why, whysize, "%s: %s", VIEW, strerror(errno));
		return 0;
	}
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		int cpu, dom;
		char level[16], span[64];
		long us, want;

		if (line[0] == '#')
			continue;
		if (sscanf(line, "cpu%d domain%d %15s %63s %ld", &cpu, &dom,
			   level, span, &us) != 5 || cpu < 0 || cpu >= 64) {
			snprintf(why, whysize, "bad line '%s'", line);
			return 0;
		}
		if (dom != seen[cpu] || dom >= nlevels ||
		    strcmp(level, want_level[dom])) {
			snprintf(why, whysize, "cpu%d domain%d is %s, want %s",
				 cpu, dom, level,
				 dom < nlevels ? want_level[dom] : "none");
			return 0;
		}
		seen[cpu]++;
		want = !strcmp(level, "smt") ? 0 :
		       !strcmp(level, "smp") ? want_cpu : want_node;
		if (want >= 0 && us != want) {
			snprintf(why, whysize, "cpu%d %s level is %ld us, want %ld",
				 cpu, level, us, want);
			return 0;
		}
	}
	for (i = 0; i < ncpus; i++)
		if (seen[i] != nlevels) {
			snprintf(why, whysize, "cpu%d has %d levels, want %d",
				 i, seen[i], nlevels);
			return 0;
		}
	return 1;
}

/* cache_decay_ticks as the arch's boot line reports it; -1 if no line */
static long boot_decay_ticks(void)
{
	const char *p = strstr(klog, "task migration cache decay timeout: ");
	long ticks;

	if (!p)
		return -1;
	p += strlen("task migration cache decay timeout: ");
	if (!strncmp(p, "unknown", 7))
		return 0;
	if (sscanf(p, "%ld ticks", &ticks) != 1)
		return -1;
	return ticks;
}

static void print_klog_lines(const char *needle)
{
	char *copy = strdup(klog), *line, *save;

	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (strstr(line, needle))
			printf("GUEST INFO klog: %s\n", line);
	free(copy);
}

static void print_view(void)
{
	static char buf[1 << 16];
	char *line, *save;

	if (read_file(VIEW, buf, sizeof(buf)) < 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		printf("GUEST INFO %s: %s\n", VIEW, line);
}

/* The value of cache_hot_time= on the kernel command line, or NULL */
static char *cmdline_value(void)
{
	static char buf[1024];
	char *p;

	if (read_file("/proc/cmdline", buf, sizeof(buf)) < 0)
		return NULL;
	p = strstr(buf, "cache_hot_time=");
	if (!p)
		return NULL;
	p += strlen("cache_hot_time=");
	p[strcspn(p, " \n")] = 0;
	return p;
}

/* The rule for the SMP level, computed here from the boot log and HZ */
static long rule_cpu_us(long ticks, long hz)
{
	if (ticks <= 0 || hz <= 0)
		return DEFAULT_US;
	if (ticks >= 10 * hz)
		return MAX_US;
	return (long)((long long)ticks * 1000000 / hz);
}

static long derived_cpu_us(long hz)
{
	long ticks = boot_decay_ticks();

	return rule_cpu_us(ticks < 0 ? 0 : ticks, hz);
}

static void check_boot_values(int ncpus, int smt, int numa, long hz,
			      long *cpu_us, long *node_us)
{
	long ticks = boot_decay_ticks();
	long exp_cpu, exp_node;
	char why[256];

	check(ticks >= 0, "boot-log-decay-ticks",
	      "no 'task migration cache decay timeout' line in the boot log");
	if (ticks < 0)
		ticks = 0;
	printf("GUEST INFO cache_decay_ticks=%ld HZ=%ld\n", ticks, hz);

	exp_cpu = env_long("cpu", rule_cpu_us(ticks, hz));
	exp_node = exp_cpu > (long)DEFAULT_US ? exp_cpu : (long)DEFAULT_US;
	exp_node = env_long("node", exp_node);
	printf("GUEST INFO expected: smp %ld us, numa %ld us\n", exp_cpu,
	       numa ? exp_node : -1L);

	*cpu_us = read_us(SYSCTL_CPU);
	check(*cpu_us == exp_cpu, "sysctl-smp-boot-value",
	      "%s reads %ld, rule gives %ld", SYSCTL_CPU, *cpu_us, exp_cpu);
	if (numa) {
		*node_us = read_us(SYSCTL_NODE);
		check(*node_us == exp_node, "sysctl-numa-boot-value",
		      "%s reads %ld, rule gives %ld", SYSCTL_NODE, *node_us,
		      exp_node);
	} else {
		*node_us = -1;
		check(access(SYSCTL_NODE, F_OK) != 0, "no-numa-knob",
		      "%s exists in a kernel without NUMA", SYSCTL_NODE);
	}
	check(view_ok(ncpus, smt, numa, exp_cpu, exp_node, why, sizeof(why)),
	      "domains-boot-values", "%s", why);

	if (env_long("warn", 0)) {
		char *bad = cmdline_value(), want[256];

		snprintf(want, sizeof(want), "<4>sched: ignoring invalid "
			 "cache_hot_time=\"%s\"", bad ? bad : "");
		check(bad && strstr(klog, want), "boot-option-warning",
		      "no KERN_WARNING quoting '%s'", bad ? bad : "(none)");
	} else {
		check(!strstr(klog, "ignoring invalid cache_hot_time"),
		      "no-boot-option-warning", "unexpected warning in the log");
	}
}

struct good { const char *in; long us; };
static const struct good good_writes[] = {
	{ "7500us", 7500 }, { "10ms\n", 10000 }, { "2.5ms", 2500 },
	{ "1500", 1500 }, { "0", 0 }, { "10s", 10000000 },
	{ "12345678ns", 12345 }, { "1s\n", 1000000 }, { "0.25s", 250000 },
	{ "010", 10 }, { "10000000", 10000000 },
};
static const char *const bad_writes[] = {
	"", "\n", " ", "  \n", "-1", "abc", "10xs", "1e3", "0x10", "+5",
	"5.", ".5", "5 ms", " 5", "10ms\n\n", "10ms ", "10.5.5ms", "ms",
	"99999999999999999999999999", "10000001", "11s", "10.000000001s",
	"1.0000000001ms", "18446744073709551617",
};

static void check_sysctl(const char *path, const char *lvl, int ncpus,
			 int smt, int numa, long *cpu_us, long *node_us)
{
	long *mine = !strcmp(lvl, "smp") ? cpu_us : node_us;
	long before, other_before;
	const char *other = !strcmp(lvl, "smp") ? SYSCTL_NODE : SYSCTL_CPU;
	char name[96], why[256];
	unsigned i;
	int bad_ok = 1;

	other_before = read_us(other);
	for (i = 0; i < sizeof(good_writes) / sizeof(good_writes[0]); i++) {
		const struct good *g = &good_writes[i];
		int err = write_str(path, g->in);
		long got = read_us(path);
		int ok;

		*mine = g->us;
		ok = !err && got == g->us &&
		     view_ok(ncpus, smt, numa, *cpu_us, *node_us, why,
			     sizeof(why));
		snprintf(name, sizeof(name), "sysctl-%s-write-%.*s", lvl,
			 (int)strcspn(g->in, "\n"), g->in);
		check(ok, name, "write '%.*s': %s, reads %ld (want %ld); %s",
		      (int)strcspn(g->in, "\n"), g->in,
		      err ? strerror(err) : "ok", got, g->us,
		      err || got != g->us ? "-" : why);
	}
	snprintf(name, sizeof(name), "sysctl-%s-other-level-untouched", lvl);
	check(read_us(other) == other_before, name, "%s changed from %ld to %ld",
	      other, other_before, read_us(other));

	write_str(path, "4321us");
	*mine = before = read_us(path);
	for (i = 0; i < sizeof(bad_writes) / sizeof(bad_writes[0]); i++) {
		int err = write_str(path, bad_writes[i]);
		long got = read_us(path);

		if (err != EINVAL || got != before) {
			printf("GUEST INFO bad write '%.*s' to %s: %s, value %ld\n",
			       (int)strcspn(bad_writes[i], "\n"), bad_writes[i],
			       path, err ? strerror(err) : "accepted", got);
			bad_ok = 0;
		}
	}
	snprintf(name, sizeof(name), "sysctl-%s-bad-writes-einval", lvl);
	why[0] = 0;
	check(bad_ok && view_ok(ncpus, smt, numa, *cpu_us, *node_us, why,
				sizeof(why)),
	      name, "see the INFO lines above %s", why);
}

/*
 * sysctl(2) with the binary numbers of 2.6.9's KERN_* enum: CTL_KERN=1,
 * KERN_CACHE_HOT_TIME=67, KERN_CACHE_HOT_TIME_NODE=68; an unsigned int of us.
 */
struct sysctl_args {
	int *name;
	int nlen;
	void *oldval;
	size_t *oldlenp;
	void *newval;
	size_t newlen;
	unsigned long unused[4];
};

static int binary_sysctl(int num, unsigned *oldval, const unsigned *newval)
{
	int name[2] = { 1, num };
	size_t oldlen = sizeof(*oldval);
	struct sysctl_args a = {
		name, 2, oldval, oldval ? &oldlen : NULL, (void *)newval,
		newval ? sizeof(*newval) : 0, { 0 }
	};

	return syscall(SYS__sysctl, &a) ? errno : 0;
}

static void check_binary_sysctl(const char *path, const char *lvl, int num)
{
	unsigned v = 0, w = 3000, big = 10000001;
	char name[96];
	int err;

	err = binary_sysctl(num, &v, NULL);
	snprintf(name, sizeof(name), "sysctl2-%s-read", lvl);
	check(!err && (long)v == read_us(path), name, "sysctl(2) %s, %u; %s reads %ld",
	      err ? strerror(err) : "ok", v, path, read_us(path));
	err = binary_sysctl(num, NULL, &w);
	snprintf(name, sizeof(name), "sysctl2-%s-write", lvl);
	check(!err && read_us(path) == 3000, name, "sysctl(2) write 3000: %s; reads %ld",
	      err ? strerror(err) : "ok", read_us(path));
	err = binary_sysctl(num, NULL, &big);
	snprintf(name, sizeof(name), "sysctl2-%s-write-over-10s-einval", lvl);
	check(err == EINVAL && read_us(path) == 3000, name, "write %u: %s; reads %ld",
	      big, err ? strerror(err) : "accepted", read_us(path));
}

/* Writing as a non-root user is refused at open() with EACCES. */
static void check_non_root(const char *path, const char *lvl)
{
	char name[96];
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
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
		_exit(0);
	}
	waitpid(pid, &status, 0);
	snprintf(name, sizeof(name), "sysctl-%s-non-root-eacces", lvl);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0, name,
	      "child status %d (2 setuid, 3 open succeeded, 4 other errno, "
	      "5 read failed)", WEXITSTATUS(status));
}

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

static void check_stress(const char *node_path, int nwrites, int ncpus,
			 int smt, int numa)
{
	pid_t kids[16];
	int nkids = 2 * ncpus > 16 ? 16 : 2 * ncpus, i, bad = 0;
	static const char *const vals[] = { "1ms", "4294967us", "4294968us",
					    "10s", "0", "2.5ms" };
	static const long us[] = { 1000, 4294967, 4294968, 10000000, 0, 2500 };
	long cpu_us = -1, node_us = -1;
	char why[256];
	time_t t0 = time(NULL);

	for (i = 0; i < nkids; i++) {
		kids[i] = fork();
		if (kids[i] == 0)
			busy_task();
	}
	for (i = 0; i < nwrites; i++) {
		int k = i % 6, err;
		const char *path = (numa && (i & 1)) ? node_path : SYSCTL_CPU;

		err = write_str(path, vals[k]);
		if (err || read_us(path) != us[k])
			bad++;
		if (path == node_path)
			node_us = us[k];
		else
			cpu_us = us[k];
	}
	for (i = 0; i < nkids; i++)
		kill(kids[i], SIGKILL);
	for (i = 0; i < nkids; i++)
		waitpid(kids[i], NULL, 0);
	printf("GUEST INFO stress: %d writes with %d busy tasks in %ld s\n",
	       nwrites, nkids, (long)(time(NULL) - t0));
	check(!bad, "stress-writes-read-back", "%d of %d writes did not read back",
	      bad, nwrites);
	check(view_ok(ncpus, smt, numa, cpu_us, numa ? node_us : -1, why,
		      sizeof(why)), "stress-domains-consistent", "%s", why);
}

int main(void)
{
	long hz = env_long("hz", 0), ncpus = env_long("cpus", 1);
	int smt = env_long("smt", 0), numa = env_long("numa", 0);
	int smp = env_long("smp", 1), sysctl = env_long("sysctl", 1);
	int proc = env_long("proc", 1);
	long stress = env_long("stress", 0), online;
	long cpu_us = -1, node_us = -1;
	int n;

	setvbuf(stdout, NULL, _IOLBF, 0);
	mkdir("/proc", 0555);
	if (mount("proc", "/proc", "proc", 0, NULL) != 0 && errno != EBUSY) {
		/* without PROC_FS the kernel only has to boot and run us */
		check(!proc && errno == ENODEV, proc ? "proc-mounted" :
		      "no-procfs-boots", "mount: %s", strerror(errno));
		goto out;
	}
	check(proc, "proc-mounted", "mounted /proc in a kernel without PROC_FS");
	n = klogctl(3, klog, sizeof(klog) - 1);
	klog[n > 0 ? n : 0] = 0;
	print_klog_lines("cache_hot_time");
	print_klog_lines("cache decay");
	print_view();

	online = sysconf(_SC_NPROCESSORS_ONLN);
	check(online == ncpus, "cpus-online", "%ld online, topology gives %ld",
	      online, ncpus);
	check(hz > 0, "hz-known", "the host passed no chk=hz:<HZ>");

	if (!smp) {
		/* The knobs exist only where they mean something */
		check(access(SYSCTL_CPU, F_OK) != 0 && access(VIEW, F_OK) != 0,
		      "up-no-knobs", "UP kernel has %s or %s", SYSCTL_CPU, VIEW);
		goto out;
	}

	if (!sysctl) {
		char why[256];

		/* no knobs, but the domains still get the derived values */
		check(access(SYSCTL_CPU, F_OK) != 0, "no-sysctl-knob",
		      "%s exists without CONFIG_SYSCTL", SYSCTL_CPU);
		check(view_ok(ncpus, smt, numa, derived_cpu_us(hz), -1, why,
			      sizeof(why)), "domains-boot-values", "%s", why);
		goto out;
	}
	check_boot_values(ncpus, smt, numa, hz > 0 ? hz : 1000, &cpu_us, &node_us);
	check_sysctl(SYSCTL_CPU, "smp", ncpus, smt, numa, &cpu_us, &node_us);
	check_non_root(SYSCTL_CPU, "smp");
	if (numa) {
		check_sysctl(SYSCTL_NODE, "numa", ncpus, smt, numa, &cpu_us,
			     &node_us);
		check_non_root(SYSCTL_NODE, "numa");
	}
	check_binary_sysctl(SYSCTL_CPU, "smp", 67);
	if (numa)
		check_binary_sysctl(SYSCTL_NODE, "numa", 68);
	if (stress > 0)
		check_stress(SYSCTL_NODE, (int)stress, ncpus, smt, numa);

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
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}
