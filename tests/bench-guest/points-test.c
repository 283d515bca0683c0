// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of bench/guest/points.c (tests/bench-guest.sh): the sweep's
 * points in us, none for the multiples of a measured cost ("c<f>", gone
 * with cache_hot_time=measure in 1.2), and the run order (point_order(),
 * cachehot-sweep's sw_order()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../bench/guest/bench.h"
#include "../../sweep/stats.h"

static int npass, nfail;

static void expect(const char *name, int ok)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", name);
	ok ? npass++ : nfail++;
}

/*
 * The order of the peak's job (bench/plans/): every point once a
 * repetition; 2500 and aa adjacent in every repetition, wherever they are
 * listed; every point's mean position over a pair of repetitions the
 * middle; the same order as sw_order() gives cachehot-sweep.
 */
static void order_tests(void)
{
	char *job[] = { "2500", "aa", "7500", "10000", "12500", "15000",
			"25000", "250000", "pin", "mig" };
	char *late[] = { "d", "5000", "aa", "mig", "2500", "pin" };
	char *noaa[] = { "boot", "pin", "boot", "boot" };
	int n = 10, idx[10], seen[10], pos[10], sw[11], rep, k, once = 1;
	int adjacent = 1, late_adj = 1, middle = 1, same = 1, noaa_ok = 1;
	double sum[10] = { 0 };

	for (rep = 1; rep <= 16; rep++) {
		memset(seen, 0, sizeof(seen));
		point_order(job, n, rep, idx);
		for (k = 0; k < n; k++) {
			seen[idx[k]]++;
			pos[idx[k]] = k;
			sum[idx[k]] += k;
		}
		for (k = 0; k < n; k++)
			once &= seen[k] == 1;
		adjacent &= abs(pos[0] - pos[1]) == 1;
		/* job lists 2500 and aa first: sw_order's own indices */
		sw_order(n, rep, sw);
		for (k = 0; k < n; k++)
			same &= sw[k] == idx[k];
		if (rep % 2 == 0) {
			for (k = 0; k < n; k++)
				middle &= sum[k] == n - 1;
			memset(sum, 0, sizeof(sum));
		}
		point_order(late, 6, rep, idx);
		for (k = 0; k < 6; k++)
			pos[idx[k]] = k;
		late_adj &= abs(pos[2] - pos[4]) == 1;
		point_order(noaa, 4, rep, idx);
		memset(seen, 0, sizeof(seen));
		for (k = 0; k < 4; k++)
			seen[idx[k]]++;
		for (k = 0; k < 4; k++)
			noaa_ok &= seen[k] == 1;
	}
	expect("order-every-point-once-a-rep", once);
	expect("order-aa-next-to-2500-every-rep", adjacent);
	expect("order-aa-next-to-2500-listed-apart", late_adj);
	expect("order-mean-position-middle-per-pair", middle);
	expect("order-is-cachehot-sweeps", same);
	expect("order-without-aa-or-2500", noaa_ok);
}

int main(void)
{
	expect("point-number-is-us", point_us("2500", 1000) == 2500);
	expect("point-number-above-the-limit-kept", point_us("5000000", 1000) == 5000000);
	expect("point-named", point_us("d", 1234) == 1234 && point_us("pin", 1234) == 1234 &&
	       point_us("mig", 1234) == 1234 && point_us("aa", 1234) == 2500 &&
	       point_us("boot", 1234) == -1);
	expect("point-bad-number", point_us("25ms", 1000) == -2 && point_us("-5", 1000) == -2 &&
	       point_us("", 1000) == -2);
	/* the multiples of a measured cost left the series in 1.2 */
	expect("point-c-is-none", point_us("c2", 1000) == -2 && point_us("c0", 1000) == -2 &&
	       point_us("c1x", 1000) == -2);
	order_tests();
	printf("%d passed, %d failed\n", npass, nfail);
	return nfail != 0;
}
