// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep's points (guest.c's chpoints) and their order, apart from the
 * guest so that tests/bench-guest.sh can check them on the host.
 */
#include "bench.h"
#include "../../sweep/stats.h"

/*
 * A point's cache_hot_time, us: "d", "pin", "mig" = the boot value, "aa"
 * = 2500, "boot" = -1 (do not write), a number = itself; -2 = not a point
 * (a typo; the multiples of a measured cost, "c<f>", left with
 * cache_hot_time=measure in 1.2).
 */
long point_us(const char *p, long derived)
{
	char *end;
	long us;

	if (!strcmp(p, "d") || !strcmp(p, "pin") || !strcmp(p, "mig"))
		return derived;
	if (!strcmp(p, "aa"))
		return 2500;
	if (!strcmp(p, "boot"))
		return -1;
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
