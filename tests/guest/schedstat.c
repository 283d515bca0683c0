// SPDX-License-Identifier: GPL-2.0
/* /proc/schedstat: its format, every CPU's domains and their values */
#include "guest.h"

/* ---- /proc/schedstat ---- */



/*
 * Parse /proc/schedstat: "version 100", "timestamp N", then per online
 * CPU its "cpuN ..." line and its "domainK <mask> <25 fields>" lines,
 * K = 0, 1, ... in order.  0, or -1 with why set.
 */
int read_schedstat(struct sstat *s, char *why, size_t whysize)
{
	static char buf[1 << 16];
	char *line, *save;
	int cpu = -1, i, first = 1;

	for (i = 0; i < MAX_CPUS; i++)
		s->ndom[i] = -1;
	if (read_file(SCHEDSTAT, buf, sizeof(buf)) < 0) {
		snprintf(why, whysize, "%s: %s", SCHEDSTAT, strerror(errno));
		return -1;
	}
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), first = 0) {
		unsigned long long f[DOMAIN_FIELDS + 1];
		char mask[40], *p, *end;
		int n, dom, k;

		if (first) {
			if (sscanf(line, "version %d%n", &n, &k) != 1 ||
			    n != SCHEDSTAT_VERSION || line[k]) {
				snprintf(why, whysize, "%s starts '%.40s', want "
					 "'version %d'", SCHEDSTAT, line,
					 SCHEDSTAT_VERSION);
				return -1;
			}
			continue;
		}
		if (!strncmp(line, "timestamp ", 10))
			continue;
		if (sscanf(line, "cpu%d ", &n) == 1) {
			if (n < 0 || n >= MAX_CPUS || s->ndom[n] >= 0) {
				snprintf(why, whysize, "bad line '%.60s'", line);
				return -1;
			}
			cpu = n;
			s->ndom[cpu] = 0;
			continue;
		}
		if (sscanf(line, "domain%d %39s%n", &dom, mask, &k) != 2 ||
		    cpu < 0 || dom != s->ndom[cpu] || dom >= MAX_LEVELS) {
			snprintf(why, whysize, "bad or misplaced line '%.60s'",
				 line);
			return -1;
		}
		for (n = 0, p = line + k; n <= DOMAIN_FIELDS; n++, p = end) {
			while (*p == ' ')
				p++;
			if (!*p)
				break;
			if (!isdigit((unsigned char)*p))
				break;
			f[n] = strtoull(p, &end, 10);
			if (*end && *end != ' ')
				break;
		}
		if (n != DOMAIN_FIELDS || *p) {
			snprintf(why, whysize, "cpu%d domain%d has %d fields, "
				 "want %d numbers: '%.80s'", cpu, dom, n,
				 DOMAIN_FIELDS, line);
			return -1;
		}
		snprintf(s->d[cpu][dom].mask, sizeof(s->d[cpu][dom].mask),
			 "%s", mask);
		s->d[cpu][dom].hot_ns = f[0];
		for (i = 0; i < 5; i++)
			s->d[cpu][dom].hot[i] = f[DOMAIN_FIELDS - 5 + i];
		s->d[cpu][dom].hot[5] = 0;	/* not printed: never moved */
		s->ndom[cpu]++;
	}
	if (first) {
		snprintf(why, whysize, "%s is empty", SCHEDSTAT);
		return -1;
	}
	return 0;
}

/*
 * In mc mode: a domain's value is one of the levels' (the multi-core
 * level has the SMP level's), and 0 only for the lowest domain where
 * there are SMT siblings; the top domain of a NUMA kernel with more than
 * one node is the NUMA level's.  want_node -1: no NUMA level.
 */
int domain_ok(int dom, int ndom, int smt, long long ns, long want_cpu,
		     long want_node)
{
	if (ns == 0 && dom == 0 && smt)
		return 1;
	if (want_node >= 0 && dom == ndom - 1 && chk_long("nodes", 1) > 1)
		return ns == want_node * 1000LL;
	return ns == want_cpu * 1000LL ||
		(want_node >= 0 && ns == want_node * 1000LL);
}

/* The names of a CPU's domain levels, lowest first; returns how many */
int levels(int smt, int numa, const char **name)
{
	int n = 0;

	if (smt)
		name[n++] = "smt";
	name[n++] = "smp";
	if (numa)
		name[n++] = "numa";
	return n;
}

/*
 * Every online CPU has the domain levels of the config, and each level
 * the value wanted in ns (us * 1000; -1: do not check that level; SMT is
 * always 0).  Returns 1 when all is as wanted.
 */
int schedstat_ok(int ncpus, int smt, int numa, long want_cpu,
			long want_node, char *why, size_t whysize)
{
	static struct sstat s;
	const char *name[MAX_LEVELS];
	int nlevels = levels(smt, numa, name), cpu, dom;

	if (read_schedstat(&s, why, whysize))
		return 0;
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if ((cpu < ncpus) != (s.ndom[cpu] >= 0)) {
			snprintf(why, whysize, "cpu%d %s in %s (%d CPUs online)",
				 cpu, cpu < ncpus ? "missing" : "present",
				 SCHEDSTAT, ncpus);
			return 0;
		}
		if (cpu >= ncpus)
			continue;
		for (dom = 0; mc_mode && dom < s.ndom[cpu]; dom++)
			if (!domain_ok(dom, s.ndom[cpu], smt, s.d[cpu][dom].hot_ns,
				       want_cpu, want_node)) {
				snprintf(why, whysize, "cpu%d domain%d of %d has "
					 "cache_hot_time %llu ns; smp %ld us, "
					 "numa %ld us", cpu, dom, s.ndom[cpu],
					 s.d[cpu][dom].hot_ns, want_cpu,
					 want_node);
				return 0;
			}
		if (mc_mode && s.ndom[cpu] < 1) {
			snprintf(why, whysize, "cpu%d has no domain", cpu);
			return 0;
		}
		if (mc_mode)
			continue;
		if (s.ndom[cpu] != nlevels) {
			snprintf(why, whysize, "cpu%d has %d domains, want %d",
				 cpu, s.ndom[cpu], nlevels);
			return 0;
		}
		for (dom = 0; dom < nlevels; dom++) {
			long want = !strcmp(name[dom], "smt") ? 0 :
				!strcmp(name[dom], "smp") ? want_cpu : want_node;

			if (want >= 0 &&
			    s.d[cpu][dom].hot_ns != (unsigned long long)want * 1000) {
				snprintf(why, whysize, "cpu%d domain%d (%s) has "
					 "cache_hot_time %llu ns, want %lld",
					 cpu, dom, name[dom],
					 s.d[cpu][dom].hot_ns, want * 1000LL);
				return 0;
			}
		}
	}
	return 1;
}

/*
 * Sums of the hot-task pairs over every CPU and domain: sum[i], i as in
 * struct sdom's hot[] (0 IDLE refused, 1 IDLE moved, ... 5 NEWLY_IDLE
 * moved).  0, or -1.
 */
int schedstat_hot_sums(unsigned long sum[6])
{
	static struct sstat s;
	char why[256];
	int cpu, dom, i;

	memset(sum, 0, 6 * sizeof(sum[0]));
	if (read_schedstat(&s, why, sizeof(why)))
		return -1;
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		for (dom = 0; dom < s.ndom[cpu]; dom++)
			for (i = 0; i < 6; i++)
				sum[i] += s.d[cpu][dom].hot[i];
	return 0;
}

void print_schedstat(void)
{
	static char buf[1 << 16];
	char *line, *save, cpu[16] = "";

	if (read_file(SCHEDSTAT, buf, sizeof(buf)) < 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "cpu", 3))
			snprintf(cpu, sizeof(cpu), "%.*s",
				 (int)strcspn(line, " "), line);
		else if (!strncmp(line, "domain", 6))
			printf("GUEST INFO %s: %s %s\n", SCHEDSTAT, cpu, line);
		else if (!strncmp(line, "version", 7))
			printf("GUEST INFO %s: %s\n", SCHEDSTAT, line);
	}
}
