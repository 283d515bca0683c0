// SPDX-License-Identifier: GPL-2.0
/*
 * test-stats.c - stats.c's functions from the command line, for
 * tests/sweep.sh to check against values computed independently:
 *   test-stats t DF...        the 95 % t quantiles
 *   test-stats order N REP    the run order of N points in repetition REP
 *   test-stats ci V...        mean and 95 % half-width of the values
 *   test-stats p T DF         two-sided p-value of Student's t
 *   test-stats holm P...      Holm's adjusted p-values, number rejected
 * and without arguments its own known-answer tests, ending with the line
 * "N passed, M failed" (exit status 1 on a failure).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stats.h"

static int passed, failed;

static void check(int ok, const char *name, const char *fmt, double a,
		  double b)
{
	if (ok) {
		printf("PASS %s\n", name);
		passed++;
		return;
	}
	printf("FAIL %s: ", name);
	printf(fmt, a, b);
	putchar('\n');
	failed++;
}

static void near(const char *name, double got, double want, double tol)
{
	check(fabs(got - want) <= tol, name, "%.6f, want %.6f", got, want);
}

/* A made-up value with an exactly known distribution: uniform on [-1, 1). */
static double noise(unsigned int *s)
{
	*s = *s * 1103515245u + 12345u;
	return ((*s >> 8) & 0xffff) / 32768.0 - 1;
}

/*
 * A sweep of 5 points (the reference 2.5 ms twice as A/A) over 6
 * repetitions, base[] times a day factor per repetition times a noise of
 * +-1 %; the report's verdict (1 resolved, 0 not) and whether a line to
 * paste came out.
 */
static int sweep(const double *base, int *pasted)
{
	static const char *names[] = { "2500", "aa", "5000", "10000",
		"25000" };
	static struct sw_data d;
	unsigned int s = 7;
	char rep[8], line[256], last[256] = "";
	struct sw_run *r;
	int i, q, v;
	FILE *f = tmpfile();

	memset(&d, 0, sizeof(d));
	d.smp_us = d.node_us = -1;
	snprintf(d.knob, sizeof(d.knob), "cache_hot_time");
	snprintf(d.ref, sizeof(d.ref), "2500");
	for (i = 0; i < 5; i++)
		sw_point(&d, names[i]);
	for (q = 1; q <= 6; q++) {
		double day = 1 + 0.1 * noise(&s);

		snprintf(rep, sizeof(rep), "%d", q);
		for (i = 0; i < 5; i++) {
			r = &d.run[d.nruns++];
			*r = (struct sw_run){ .pt = i, .rep = sw_rep(&d, rep),
				.seq = -1, .tp = base[i] * day *
				(1 + 0.01 * noise(&s)), .secs = -1,
				.idle = -1, .hr = -1, .hm = -1 };
		}
	}
	if (!f)
		return -1;
	v = sw_report(&d, NULL, f);
	rewind(f);
	while (fgets(line, sizeof(line), f))
		strcpy(last, line);
	fclose(f);
	*pasted = !strncmp(last, "cache_hot_time=", 15);
	return v;
}

static void selftest(void)
{
	static const double equal[] = { 100, 100, 100, 100, 100 };
	static const double peak[] = { 100, 100, 104, 110, 103 };
	double p[4], adj[4];
	int df, bad = 0, v, pasted;

	/* quantiles from tables of Student's t */
	near("t975-df1", sw_t975(1), 12.706, 1e-3);
	near("t975-df4", sw_t975(4), 2.776, 1e-3);
	near("t975-df30", sw_t975(30), 2.042, 1e-3);
	near("t975-df60", sw_t975(60), 2.000298, 2e-4);
	near("t975-df120", sw_t975(120), 1.979930, 2e-4);
	/* p-values: closed forms for df 1 (Cauchy) and df 2 */
	near("p-t0", sw_t_p(0, 5), 1, 1e-12);
	near("p-df1-t1", sw_t_p(1, 1), 0.5, 1e-9);
	near("p-df2-t2", sw_t_p(2, 2), 1 - 2 / sqrt(6), 1e-9);
	near("p-df4-quantile", sw_t_p(2.776445, 4), 0.05, 1e-6);
	near("p-df10-quantile", sw_t_p(2.228139, 10), 0.05, 1e-6);
	/* the quantile and the p-value agree for every df */
	for (df = 1; df <= 200; df++)
		bad += fabs(sw_t_p(sw_t975(df), df) - 0.05) > 2e-4;
	check(!bad, "p-of-t975-is-5-percent", "%g of 200 df off (%g)", bad,
	      0);
	/* Holm by hand: 0.01 <= 0.05 / 3, then 0.03 > 0.05 / 2 stops */
	p[0] = 0.01, p[1] = 0.04, p[2] = 0.03;
	v = sw_holm(p, 3, 0.05, adj);
	check(v == 1, "holm-stops-at-first-failure", "%g rejected, want %g",
	      v, 1);
	near("holm-adjusted-0", adj[0], 0.03, 1e-12);
	near("holm-adjusted-1", adj[1], 0.06, 1e-12);
	near("holm-adjusted-2", adj[2], 0.06, 1e-12);
	p[0] = 0.01, p[1] = 0.02, p[2] = 0.04;
	v = sw_holm(p, 3, 0.05, NULL);
	check(v == 3, "holm-rejects-all", "%g rejected, want %g", v, 3);
	/* each 0.04 alone is below 5 %; two of them together are not */
	p[0] = 0.04, p[1] = 0.04;
	v = sw_holm(p, 2, 0.05, adj);
	check(v == 0 && adj[0] == 0.08, "holm-corrects-two-at-4-percent",
	      "%g rejected, adjusted %g", v, adj[0]);
	/* made-up sweeps: no real difference, then a clear peak at 10 ms */
	v = sweep(equal, &pasted);
	check(v == 0 && !pasted, "sweep-no-difference-not-resolved",
	      "verdict %g, pasted %g", v, pasted);
	v = sweep(peak, &pasted);
	check(v == 1 && pasted, "sweep-large-difference-resolved",
	      "verdict %g, pasted %g", v, pasted);
	printf("%d passed, %d failed\n", passed, failed);
}

int main(int argc, char **argv)
{
	double v[SW_MAXREPS] = { 0 }, adj[SW_MAXPTS] = { 0 }, m, h;
	int i, order[SW_MAXPTS], n;

	if (argc == 1) {
		selftest();
		return failed ? 1 : 0;
	}
	if (!strcmp(argv[1], "t")) {
		for (i = 2; i < argc; i++)
			printf("%s %.6f\n", argv[i], sw_t975(atoi(argv[i])));
	} else if (argc == 4 && !strcmp(argv[1], "order")) {
		n = atoi(argv[2]);
		if (n < 1 || n > SW_MAXPTS)
			return 1;
		sw_order(n, atoi(argv[3]), order);
		for (i = 0; i < n; i++)
			printf("%d%c", order[i], i == n - 1 ? '\n' : ' ');
	} else if (!strcmp(argv[1], "ci") && argc - 2 <= SW_MAXREPS) {
		for (i = 2; i < argc; i++)
			v[i - 2] = atof(argv[i]);
		sw_ci(v, argc - 2, &m, &h);
		printf("%.6f %.6f\n", m, h);
	} else if (argc == 4 && !strcmp(argv[1], "p")) {
		printf("%.8f\n", sw_t_p(atof(argv[2]), atoi(argv[3])));
	} else if (!strcmp(argv[1], "holm") && argc - 2 <= SW_MAXPTS) {
		for (i = 2; i < argc; i++)
			v[i - 2] = atof(argv[i]);
		n = sw_holm(v, argc - 2, 0.05, adj);
		for (i = 0; i < argc - 2; i++)
			printf("%.6f ", adj[i]);
		printf("%d\n", n);
	} else {
		fprintf(stderr, "usage: test-stats [t DF... | order N REP | ci V... | p T DF | holm P...]\n");
		return 1;
	}
	return 0;
}
