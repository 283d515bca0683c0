// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of bench/guest/io.c's sleepers (tests/bench-guest.sh): with
 * chsleepers=1 and 2 workers a CPU, on 2 CPUs, every worker sends one of
 * every 2 waits to the disk, in turn, and sleeps the other on its own; the
 * shape refuses more sleepers than workers. The test is the disk: it
 * answers every request at once.
 */
#include <stdio.h>
#include "../../bench/guest/io.c"

static int npass, nfail;

/* calib.c's, which io.c's default_steps() names; not called here */
long steps_for(size_t ws_kb, long us)
{
	return (long)ws_kb + us;
}

static void expect(const char *name, int ok)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", name);
	ok ? npass++ : nfail++;
}

int main(void)
{
	struct params p = { .wpc = 2, .ws_kb = 16, .steps = 100,
			    .sleep_min = 100, .sleep_max = 200, .sleepers = 1,
			    .lsleep_min = 100, .lsleep_max = 200 };
	int req[2], reply[4][2], sent[4] = { 0 }, i, ok;
	pid_t pids[4];
	struct req r;
	double end;

	ncpu = 2;
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || pipe(req) != 0)
		return 1;
	expect("io-shape-sleepers", io_load.shape(&p) == 0 && p.nworkers == 4);
	for (i = 0; i < 4; i++) {
		if (pipe(reply[i]) != 0)
			return 1;
		pids[i] = fork();
		if (pids[i] == 0)
			worker(i, req[1], reply[i][0], &p);
	}
	for (end = now() + 0.3; now() < end;) {
		if (read(req[0], &r, sizeof(r)) != sizeof(r) || r.id < 0 || r.id > 3)
			break;
		sent[r.id]++;
		if (write(reply[r.id][1], "", 1) != 1)
			break;
	}
	for (i = 0; i < 4; i++)
		kill(pids[i], SIGKILL);
	while (wait(NULL) > 0)
		;
	/* count[][0]: half transactions, 2 a transaction without phases */
	printf("requests %d %d %d %d, half transactions %lu %lu %lu %lu\n",
	       sent[0], sent[1], sent[2], sent[3], sh->count[0][0],
	       sh->count[1][0], sh->count[2][0], sh->count[3][0]);
	/*
	 * Of k transactions begun, k/2 rounded either way went to the disk,
	 * the last perhaps not yet read here: 4 * sent within 6 of 2k.
	 */
	for (i = 0, ok = 1; i < 4; i++)
		ok = ok && sent[i] > 10 &&
		     labs(4L * sent[i] - (long)sh->count[i][0]) <= 6;
	expect("io-every-other-wait-to-disk", ok);
	p.sleepers = 3;
	expect("io-shape-too-many-sleepers", io_load.shape(&p) != 0);
	p.sleepers = -1;
	expect("io-shape-negative-sleepers", io_load.shape(&p) != 0);
	printf("%d passed, %d failed\n", npass, nfail);
	return nfail != 0;
}
