// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep's points (guest.c's chpoints) and the cost they are multiples
 * of, apart from the guest so that tests/bench-guest.sh can check them on
 * the host.
 */
#include "bench.h"
#include "../../sweep/stats.h"

/*
 * The SMP migration cost in a kernel log, us: the series prints
 * "sched: migration cost SMP level: U.FFF us" (three decimals); -1 where
 * it measured none.
 */
double cost_from_log(const char *log)
{
	static const char needle[] = "sched: migration cost SMP level: ";
	unsigned long us, frac;
	const char *p = strstr(log, needle);
	int len = 0;

	if (!p || sscanf(p + strlen(needle), "%lu.%3lu us%n", &us, &frac, &len) != 2 ||
	    !len || p[strlen(needle)] < '0' || p[strlen(needle)] > '9')
		return -1;
	return us + frac / 1000.0;
}

/*
 * A point's cache_hot_time, us: "d", "pin", "mig" = the boot value, "aa"
 * = 2500, "boot" = -1 (do not write), "c<f>" = f times cost_us, rounded,
 * at most the kernel's limit, a number = itself; -2 = not a point of this
 * boot (a typo, or "c<f>" without a measured cost).
 * The limit: c32 of a chen4 boot is 2.7-3.9 s, and a boot on a slow host
 * can measure 255.7 ms, whose c32 the kernel refuses; the largest value
 * the kernel takes is the point the sweep means there.
 */
long point_us(const char *p, long derived, double cost_us)
{
	char *end;
	double f;
	long us;

	if (!strcmp(p, "d") || !strcmp(p, "pin") || !strcmp(p, "mig"))
		return derived;
	if (!strcmp(p, "aa"))
		return 2500;
	if (!strcmp(p, "boot"))
		return -1;
	if (p[0] == 'c') {
		f = strtod(p + 1, &end);
		if (end == p + 1 || *end || !(f >= 0) || cost_us < 0)
			return -2;
		f = f * cost_us + 0.5;
		return f < HOT_TIME_MAX_US ? (long)f : HOT_TIME_MAX_US;
	}
	us = strtol(p, &end, 10);
	return end == p || *end || us < 0 ? -2 : us;
}

/*
 * The run order of repetition rep: idx[k] is the k-th point to run. It is
 * cachehot-sweep's order (sweep/stats.c: sw_order()), so that the bench and
 * the tool users run share one design: the reference (2500) and its A/A
 * run ("aa") go as one unit, next to each other, so that "aa" measures the
 * noise floor of two adjacent runs; the other points rotate and reverse
 * over each pair of repetitions. Without a 2500 point the first point is
 * the unit's head; without "aa" the unit is its head alone.
 */
void point_order(char **points, int n, int rep, int *idx)
{
	int map[SW_MAXPTS], ord[SW_MAXPTS], ref = 0, aa = -1, m = 2, k, j = 0;

	for (k = 0; k < n; k++)
		if (!strcmp(points[k], "2500")) {
			ref = k;
			break;
		}
	for (k = 0; k < n; k++)
		if (!strcmp(points[k], "aa"))
			aa = k;
	map[0] = ref;
	map[1] = aa;		/* -1: no A/A run, a place left out below */
	for (k = 0; k < n && m < SW_MAXPTS; k++)
		if (k != ref && k != aa)
			map[m++] = k;
	sw_order(m, rep, ord);
	for (k = 0; k < m; k++)
		if (map[ord[k]] >= 0)
			idx[j++] = map[ord[k]];
}
