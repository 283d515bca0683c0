// SPDX-License-Identifier: GPL-2.0
/*
 * Host test of bench/guest/util.c's maybe_move() (tests/bench-guest.sh),
 * linked with -Wl,--wrap=sched_setaffinity so that no task really moves:
 * the wrapper records each affinity asked for and can end the "mig" point
 * while the task is moving, which is where a msg receiver can be when it
 * comes back inside the next, pinned run and would unpin itself. A task that finds the point ended must take the CPU the guest
 * wants for it now (sh->want), not "any CPU".
 */
#include "../../bench/guest/bench.h"	/* first: it defines _GNU_SOURCE */
#include <stdio.h>
#include <stdlib.h>

static int npass, nfail;
static int ncalls, asked[4], end_point_during_move;

static void expect(const char *name, int ok)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", name);
	ok ? npass++ : nfail++;
}

int __wrap_sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set);
int __wrap_sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
	int cpu = -1, i;

	(void)pid; (void)size;
	if (CPU_COUNT(set) == 1)
		for (i = 0; i < ncpu; i++)
			if (CPU_ISSET(i, set))
				cpu = i;
	if (ncalls < 4)
		asked[ncalls] = cpu;
	ncalls++;
	if (end_point_during_move)
		sh->mig = 0;
	return 0;
}

/* maybe_move() from CPU 0 as task 3; how many affinities it asked for */
static int move(int mig, int end_during, int want, int *cpu)
{
	ncalls = 0;
	sh->mig = mig;
	sh->want[3] = want;
	end_point_during_move = end_during;
	*cpu = 0;
	maybe_move(cpu, 3);
	return ncalls;
}

int main(void)
{
	int cpu;

	sh = calloc(1, sizeof(*sh));
	if (!sh)
		return 1;
	ncpu = 2;
	expect("move-not-during-mig", move(0, 0, -1, &cpu) == 0 && cpu == 0);
	expect("move-to-the-next-cpu", move(1, 0, -1, &cpu) == 1 && asked[0] == 1 && cpu == 1);
	expect("move-point-ended-unpinned", move(1, 1, -1, &cpu) == 2 &&
	       asked[0] == 1 && asked[1] == -1);
	/* the point after mig is pin, and task 3's home is CPU 0 */
	expect("move-point-ended-into-a-pinned-run", move(1, 1, 0, &cpu) == 2 &&
	       asked[0] == 1 && asked[1] == 0);
	printf("%d passed, %d failed\n", npass, nfail);
	return nfail != 0;
}
