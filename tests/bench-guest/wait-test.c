// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of bench/guest/util.c's I/O waits (tests/bench-guest.sh): the
 * draws oltp and io sleep or ask the disk for, in us, log-uniform in
 * [min, max], and restarted by new_run() so that every point sees the same
 * sequence.
 */
#include <stdio.h>
#include <stdlib.h>
#include "../../bench/guest/bench.h"

#define N 100000

static int npass, nfail;

static void expect(const char *name, int ok)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", name);
	ok ? npass++ : nfail++;
}

int main(void)
{
	long lo = 25000, hi = 0, first[8];
	int i, below5 = 0, below2_5 = 0, epoch = -1, same = 1;

	sh = calloc(1, sizeof(*sh));
	if (!sh)
		return 1;
	expect("wait-max-not-above-min-is-min",
	       draw_wait_us(1000, 0) == 1000 && draw_wait_us(1000, 1000) == 1000);
	for (i = 0; i < N; i++) {
		long us = draw_wait_us(1000, 25000);

		lo = us < lo ? us : lo;
		hi = us > hi ? us : hi;
		below5 += us < 5000;
		below2_5 += us < 2500;
	}
	expect("wait-within-1000-25000-us", lo >= 1000 && hi <= 25000 && lo < 1010 && hi > 24900);
	/* log-uniform: P(us < x) = ln(x / 1000) / ln(25); 5 ms is the median */
	expect("wait-log-uniform-median-5ms", below5 > 0.49 * N && below5 < 0.51 * N);
	expect("wait-log-uniform-2.5ms", below2_5 > 0.275 * N && below2_5 < 0.295 * N);

	expect("new-run-first-call", new_run(&epoch, 3) == 1 && new_run(&epoch, 3) == 0);
	for (i = 0; i < 8; i++)
		first[i] = draw_wait_us(1000, 25000);
	sh->epoch++;
	expect("new-run-after-epoch", new_run(&epoch, 3) == 1);
	for (i = 0; i < 8; i++)
		same &= draw_wait_us(1000, 25000) == first[i];
	expect("new-run-same-draws-again", same);
	printf("%d passed, %d failed\n", npass, nfail);
	return nfail != 0;
}
