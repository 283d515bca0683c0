// SPDX-License-Identifier: GPL-2.0
/*
 * The host's own speed, between bench boots: a fixed CPU-bound unit (2^25
 * additions into a volatile, so no compiler folds it) timed UNITS times,
 * one line of microseconds per unit. scripts/bench.sh runs one copy pinned
 * to each host core while no QEMU runs, so the probe competes with nothing
 * of ours; bench-noise.py summarises the lines.
 * Why: a shared host can run the same unit at half speed (0.10 s at best,
 * 0.19 s on average, seen on a KVM guest) while /proc/stat counts 0.15 %
 * steal, so the host load bench.sh records cannot see it.
 * Usage: host-speed UNITS
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define UNIT_ADDS	(1UL << 25)

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

int main(int argc, char **argv)
{
	volatile unsigned long sum = 0;
	unsigned long k;
	char *end;
	long units, i;

	units = argc == 2 ? strtol(argv[1], &end, 10) : 0;
	if (argc != 2 || *end || units < 1 || units > 100000) {
		fprintf(stderr, "usage: host-speed UNITS (1-100000)\n");
		return 2;
	}
	for (i = 0; i < units; i++) {
		double t0 = now_us();

		for (k = 0; k < UNIT_ADDS; k++)
			sum += k;
		printf("%.0f\n", now_us() - t0);
	}
	return 0;
}
