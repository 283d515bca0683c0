// SPDX-License-Identifier: GPL-2.0
/* the boot log and the boot option: the values boot chose */
#include "guest.h"

/* ---- the boot log ---- */

/* cache_decay_ticks as the arch's boot line reports it; -1 if no line */
static long boot_decay_ticks(void)
{
	const char *p = strstr(klog, "sched: cache_hot_time SMP level: ");
	long ticks;

	if (!p || !(p = strstr(p, "cache_decay_ticks=")) ||
	    sscanf(p, "cache_decay_ticks=%ld", &ticks) != 1)
		return -1;
	return ticks;
}

/*
 * The arch's own line, where it prints one (x86 with a TSC): "task
 * migration cache decay timeout: N msecs.", N = ticks * 1000 / HZ.  The
 * number of ms, or -1.
 */
static long arch_decay_ms(void)
{
	const char *p = strstr(klog, "task migration cache decay timeout: ");
	long ms;

	if (!p || sscanf(p + strlen("task migration cache decay timeout: "),
			 "%ld msecs.", &ms) != 1)
		return -1;
	return ms;
}

void print_klog_lines(const char *needle)
{
	char *copy = strdup(klog), *line, *save;

	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (strstr(line, needle))
			printf("GUEST INFO klog: %s\n", line);
	free(copy);
}

/* How often needle occurs in the boot log */
static int klog_count(const char *needle)
{
	const char *p = klog;
	int n = 0;

	while ((p = strstr(p, needle))) {
		n++;
		p += strlen(needle);
	}
	return n;
}

/* How often needle occurs in the kernel log as it is now */
int klog_now_count(const char *needle)
{
	static char now[1 << 18];
	const char *p = now;
	int n = klogctl(3, now, sizeof(now) - 1);

	now[n > 0 ? n : 0] = 0;
	for (n = 0; (p = strstr(p, needle)); n++)
		p += strlen(needle);
	return n;
}

/*
 * A value of cache_hot_time=, read here by the documented syntax
 * (kernel-parameters.txt): 1 to 9 decimal digits, then nothing, "us",
 * "ms" or "s"; at most 4 s.  The value in us, or -1.
 */
static long parse_value(const char *s, size_t len)
{
	size_t i, digits = 0;
	long v = 0, unit;

	for (i = 0; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		if (++digits <= 9)
			v = v * 10 + (s[i] - '0');
	if (!digits || digits > 9)
		return -1;
	s += i;
	len -= i;
	if (!len || (len == 2 && !memcmp(s, "us", 2)))
		unit = 1;
	else if (len == 2 && !memcmp(s, "ms", 2))
		unit = 1000;
	else if (len == 1 && *s == 's')
		unit = 1000000;
	else
		return -1;
	if (v > MAX_US / unit)
		return -1;
	return v * unit;
}


void read_bootopts(struct bootopt *o)
{
	static char buf[1024];
	const char *key = "cache_hot_time=";
	char *p;

	memset(o, 0, sizeof(*o));
	if (read_file("/proc/cmdline", buf, sizeof(buf)) < 0)
		return;
	for (p = buf; (p = strstr(p, key)); ) {
		size_t len;
		const char *comma;
		long a, b = -1;

		if (p != buf && p[-1] != ' ') {
			p++;
			continue;
		}
		p += strlen(key);
		len = strcspn(p, " \n");
		comma = memchr(p, ',', len);
		{
			a = parse_value(p, comma ? (size_t)(comma - p) : len);
			if (comma)
				b = parse_value(comma + 1, len - (comma + 1 - p));
			if (a < 0 || (comma && b < 0)) {
				if (o->nbad < MAX_OPTS)
					snprintf(o->bad[o->nbad], sizeof(o->bad[0]),
						 "%.*s", (int)len, p);
				o->nbad++;
			} else {
				o->given = comma ? 2 : 1;
				o->cpu = a;
				o->node = b;
			}
		}
		p += len;
	}
}

/* What cache_decay_ticks gives at HZ: ticks * 10^6 / HZ us, at most 4 s */
static long ticks_us(long ticks, long hz)
{
	if (hz <= 0)
		return 0;
	if (ticks >= 4 * hz)
		return MAX_US;
	return (long)((long long)ticks * 1000000 / hz);
}

/*
 * The rule for the SMP level, from what cache_decay_ticks gives: at least
 * 10 ms, the floor (chk=floor:0: RHEL 4 without its floor patch, whose
 * default is Red Hat's: 2.5 ms where nothing was measured)
 */
static long rule_cpu_us(long gives)
{
	if (chk_long("floor", 1) == 0)
		return gives ? gives : 2500;
	return gives > DEFAULT_US ? gives : DEFAULT_US;
}

/* What the boot log says set the SMP level */
static const char *rule_cpu_why(const struct bootopt *o, long gives)
{
	if (o->given)
		return "cache_hot_time=";
	if (chk_long("floor", 1) == 0)
		return gives ? "cache_decay_ticks" :
			"the 2.5 ms default (nothing measured)";
	return gives < DEFAULT_US ? "the 10 ms floor" : "cache_decay_ticks";
}

/*
 * Each decay= word of the command line (ia64's option, and RHEL 4's on
 * x86): a decimal of at most 9 digits is the boot line's
 * cache_decay_ticks (RHEL 4's x86 decay=0 keeps the estimate: not used
 * here); anything else is warned about, quoted ("decay=junk ignored")
 */
static void check_decay_words(long ticks)
{
	static char buf[1024];
	char *p, want[160];
	size_t len, i;

	if (read_file("/proc/cmdline", buf, sizeof(buf)) < 0)
		return;
	for (p = buf; (p = strstr(p, "decay=")); p += len) {
		int ok = 1;

		if (p != buf && p[-1] != ' ') {
			len = 1;
			continue;
		}
		p += strlen("decay=");
		len = strcspn(p, " \n");
		for (i = 0; i < len; i++)
			ok = ok && p[i] >= '0' && p[i] <= '9';
		if (ok && len >= 1 && len <= 9) {
			check(strtol(p, NULL, 10) == ticks, "boot-decay-option",
			      "decay=%.*s, the boot line says cache_decay_ticks=%ld",
			      (int)len, p, ticks);
		} else {
			snprintf(want, sizeof(want), "<4>decay=%.*s ignored\n",
				 (int)len, p);
			check(strstr(klog, want) != NULL, "boot-decay-warning",
			      "no KERN_WARNING '%.*s'", (int)strlen(want) - 1,
			      want);
		}
	}
}


/* Both sysctls and every CPU's domains agree with the model */
int model_ok(const struct model *m, char *why, size_t whysize)
{
	long v;

	why[0] = 0;
	if (m->sysctl && (v = read_us(SYSCTL_CPU)) != m->cpu) {
		snprintf(why, whysize, "%s reads %ld, want %ld", SYSCTL_CPU,
			 v, m->cpu);
		return 0;
	}
	if (m->sysctl && m->numa && (v = read_us(SYSCTL_NODE)) != m->node) {
		snprintf(why, whysize, "%s reads %ld, want %ld", SYSCTL_NODE,
			 v, m->node);
		return 0;
	}
	if (m->stats)
		return schedstat_ok(m->ncpus, m->smt, m->numa, m->cpu,
				    m->numa ? m->node : -1, why, whysize);
	return 1;
}

/*
 * SD_NODE_INIT's cache_hot_time in us: the generic 10 ms, or what the
 * host says an arch's own initializer gives (chk=node_init:<us>)
 */
static long node_init_us(void)
{
	return chk_long("node_init", DEFAULT_US);
}

/* The NUMA level boot chooses: its own value, or SD_NODE_INIT's */
static long numa_level(const struct bootopt *o, long cpu)
{
	long node = o->given == 2 ? o->node : node_init_us();

	return node > cpu ? node : cpu;
}

/* What the boot log says set the NUMA level */
static const char *numa_level_why(const struct bootopt *o, long cpu)
{
	long node = o->given == 2 ? o->node : node_init_us();

	if (node < cpu)
		return "the SMP level";
	return o->given == 2 ? "cache_hot_time=" : "SD_NODE_INIT";
}

/* The one wording of the boot option's warning */

/*
 * mc mode: the multi-core level's line gives the SMP level's value, and
 * the line of the boot CPU's domains after pruning agrees with
 * /proc/schedstat's domains of that CPU, value for value (where the
 * kernel has schedstats)
 */
static void check_mc_lines(long cpu, const struct model *m)
{
	static struct sstat st;
	const char *key = "<6>sched: cache_hot_time of cpu";
	const char *p = strstr(klog, key);
	char want[128], why[256] = "", *end;
	int c = -1, dom = 0, ok;

	snprintf(want, sizeof(want), "<6>sched: cache_hot_time multi-core "
		 "level: %ld us\n", cpu);
	check(strstr(klog, want) != NULL, "boot-log-mc-line", "no '%.*s'",
	      (int)strlen(want) - 1, want);
	ok = p && sscanf(p + strlen(key), "%d", &c) == 1 &&
		(p = strstr(p, "ns:")) != NULL;
	if (ok && m->stats && !read_schedstat(&st, why, sizeof(why)) &&
	    c >= 0 && c < MAX_CPUS) {
		for (p += 3; *p == ' '; dom++) {
			unsigned long long v = strtoull(p, &end, 10);

			if (end == p) {
				ok = 0;
				break;
			}
			if (dom >= st.ndom[c] || v != st.d[c][dom].hot_ns)
				ok = 0;
			p = end;
		}
		ok = ok && dom == st.ndom[c];
	}
	check(ok, "boot-log-domains-line", "'%s...' for cpu%d: %d values "
	      "against %d domains in %s %s", key + 3, c, dom,
	      c >= 0 && c < MAX_CPUS ? st.ndom[c] : -1, SCHEDSTAT, why);
}

/*
 * The values boot chose, its log lines about them, and the warnings for
 * bad cache_hot_time= words.  Sets the model's boot values.
 */
void check_boot_values(long hz, const struct bootopt *o,
			      struct model *m)
{
	long ticks = boot_decay_ticks(), cpu, node, warn = chk_long("warn", 0);
	const char *why_cpu, *why_node;
	char why[256], want[512], *copy, *line, *save;
	int i, ok;

	check(ticks >= 0, "boot-log-decay-ticks",
	      "no cache_decay_ticks= in the SMP level's boot line");
	if (arch_decay_ms() >= 0)
		check(arch_decay_ms() == ticks * 1000 / hz, "boot-log-arch-agrees",
		      "the arch says %ld msecs, the scheduler %ld ticks at HZ=%ld",
		      arch_decay_ms(), ticks, hz);
	if (ticks < 0)
		ticks = 0;
	printf("GUEST INFO cache_decay_ticks=%ld HZ=%ld\n", ticks, hz);

	check_decay_words(ticks);
	if (o->given == 1 || o->given == 2)
		cpu = o->cpu;
	else
		cpu = rule_cpu_us(ticks_us(ticks, hz));
	why_cpu = rule_cpu_why(o, ticks_us(ticks, hz));
	/*
	 * The boot case's known answers, where it gives them, agree with
	 * this program's reading of the command line, and count
	 */
	node = numa_level(o, cpu);
	if (chk_long("cpu", -1) >= 0 || chk_long("node", -1) >= 0)
		check(chk_long("cpu", cpu) == cpu && chk_long("node", node) ==
		      node, "boot-case-expectation", "chk= says cpu %ld node "
		      "%ld; the command line, read by the documented syntax, "
		      "gives %ld and %ld", chk_long("cpu", -1),
		      chk_long("node", -1), cpu, node);
	cpu = chk_long("cpu", cpu);
	node = chk_long("node", numa_level(o, cpu));
	why_node = numa_level_why(o, cpu);
	m->boot_cpu = m->cpu = cpu;
	m->boot_node = m->node = node;
	printf("GUEST INFO expected: smp %ld us (%s), numa %ld us (%s)\n", cpu,
	       why_cpu, m->numa ? node : -1L, m->numa ? why_node : "no level");
	check(model_ok(m, why, sizeof(why)), "boot-values", "%s", why);
	if (!m->numa)
		check(access(SYSCTL_NODE, F_OK) != 0, "no-numa-knob",
		      "%s exists in a kernel without NUMA", SYSCTL_NODE);

	/* the log says each level's value and what set it */
	snprintf(want, sizeof(want), "<6>sched: cache_hot_time SMP level: %ld "
		 "us, set by %s; cache_decay_ticks=%ld at HZ=%ld gives %ld us\n",
		 cpu, why_cpu, ticks, hz, ticks_us(ticks, hz));
	check(strstr(klog, want) && klog_count("cache_hot_time SMP level") == 1,
	      "boot-log-smp-line", "no (single) KERN_INFO '%.*s'",
	      (int)strlen(want) - 1, want);
	snprintf(want, sizeof(want), "<6>sched: cache_hot_time NUMA level: "
		 "%ld us, set by %s\n", node, why_node);
	if (m->numa)
		check(strstr(klog, want) &&
		      klog_count("cache_hot_time NUMA level") == 1,
		      "boot-log-numa-line", "no (single) KERN_INFO '%.*s'",
		      (int)strlen(want) - 1, want);
	else
		check(!strstr(klog, "cache_hot_time NUMA level"),
		      "boot-log-no-numa-line", "a NUMA level line in a kernel "
		      "without NUMA");
	if (mc_mode)
		check_mc_lines(cpu, m);
	/*
	 * No other line about cache_hot_time: no SMT line, no notice that a
	 * later option overrides an earlier one
	 */
	copy = strdup(klog);
	ok = 1;
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		static const char *const known[] = {
			"<6>sched: cache_hot_time SMP level: ",
			"<6>sched: cache_hot_time NUMA level: ",
			"<4>sched: ignoring cache_hot_time=",
			"<6>sched: cache_hot_time multi-core level: ",
			"<6>sched: cache_hot_time of cpu",
		};
		unsigned k;

		if (!strstr(line, "cache_hot_time") ||
		    strstr(line, "command line"))
			continue;
		for (k = 0; k < sizeof(known) / sizeof(known[0]); k++)
			if (!strncmp(line, known[k], strlen(known[k])))
				break;
		if (k == sizeof(known) / sizeof(known[0])) {
			printf("GUEST INFO unexpected boot line: %s\n", line);
			ok = 0;
		}
	}
	free(copy);
	check(ok, "boot-log-no-other-cache-hot-lines", "see the INFO lines "
	      "above");

	/* each bad value, and only they, warned about, quoted whole */
	ok = o->nbad == warn && klog_count("sched: ignoring cache_hot_time=") ==
		o->nbad;
	for (i = 0; i < o->nbad && i < MAX_OPTS; i++) {
		snprintf(want, sizeof(want), "<4>sched: ignoring cache_hot_time="
			 "%s\n", o->bad[i]);
		if (!strstr(klog, want)) {
			printf("GUEST INFO no KERN_WARNING '%.*s'\n",
			       (int)strlen(want) - 1, want);
			ok = 0;
		}
	}
	check(ok, o->nbad ? "boot-option-warning" : "no-boot-option-warning",
	      "%d bad value(s) on the command line, chk=warn:%ld, %d warning(s) "
	      "in the log; see the INFO lines above", o->nbad, warn,
	      klog_count("sched: ignoring cache_hot_time="));
}
