// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of bench/guest/util.c's phase_halves() (tests/bench-guest.sh),
 * through the steps a worker walks with it (oltp.c, io.c): without
 * phase_ms every worker walks its steps; with it, in one phase the
 * workers that started on even CPUs walk 3/2 of them and the others 1/2,
 * in the next the other way round, at every time the workers together walk
 * what they would without phases, and each worker's mean over two phases
 * is its steps.
 */
#include <stdio.h>
#include "../../bench/guest/bench.h"

static int npass, nfail;

/* what oltp.c's and io.c's workers walk */
static long phase_steps(const struct params *p, int id, double t)
{
	return p->steps * phase_halves(p, id, t) / 2;
}

static void expect(const char *name, int ok)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", name);
	ok ? npass++ : nfail++;
}

int main(void)
{
	struct params p = { .steps = 1000, .nworkers = 16 };
	double t;
	long sum;
	int i, even, same = 1, total = 1, mean = 1;

	ncpu = 4;
	expect("phase-off-equal", phase_steps(&p, 0, 0.05) == 1000 &&
	       phase_steps(&p, 1, 0.15) == 1000);
	p.phase_ms = 100;
	expect("phase-0-even-heavy", phase_steps(&p, 0, 0.05) == 1500 &&
	       phase_steps(&p, 2, 0.05) == 1500 && phase_steps(&p, 6, 0.05) == 1500);
	expect("phase-0-odd-light", phase_steps(&p, 1, 0.05) == 500 &&
	       phase_steps(&p, 3, 0.05) == 500 && phase_steps(&p, 5, 0.05) == 500);
	expect("phase-1-swapped", phase_steps(&p, 0, 0.15) == 500 &&
	       phase_steps(&p, 1, 0.15) == 1500);
	for (t = 0.0005; t < 1; t += 0.0101) {
		for (sum = 0, i = 0; i < p.nworkers; i++)
			sum += phase_steps(&p, i, t);
		total &= sum == p.nworkers * p.steps;
		/* every worker of a CPU alike: the CPUs' shares are what swaps */
		for (i = ncpu; i < p.nworkers; i++)
			same &= phase_steps(&p, i, t) == phase_steps(&p, i % ncpu, t);
	}
	for (i = 0; i < p.nworkers; i++) {
		even = phase_steps(&p, i, 0.25) + phase_steps(&p, i, 0.35);
		mean &= even == 2 * p.steps;
	}
	expect("phase-total-unchanged", total);
	expect("phase-cpu-alike", same);
	expect("phase-worker-mean", mean);
	printf("%d passed, %d failed\n", npass, nfail);
	return nfail != 0;
}
