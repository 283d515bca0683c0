// SPDX-License-Identifier: GPL-2.0
/*
 * oltp: W worker processes per CPU. A transaction walks `steps` nodes of
 * the worker's private working set in a random cyclic order (pointer
 * chasing over 64-byte nodes: every step a dependent load of a new cache
 * line), reads chstream_kb of new lines (util.c: the stream), then waits
 * for "I/O": a nanosleep drawn log-uniformly from [chsleep_min_us,
 * chsleep_max_us]. The draws restart from the same seed at every run, so
 * every point sees the same sequence of waits. There is no
 * shared server: a single one (the first version's pipe to a log writer)
 * made convoys that swung the idle share between 0 and 56 % for the same
 * setting. A task wakes after 1-25 ms; if its CPU is busy the wakeup and
 * the balancer decide whether it waits there or moves to refill its set
 * elsewhere: the trade-off cache_hot_time makes.
 */
#include "bench.h"

static void worker(int id, const struct params *p)
{
	struct node *ws = make_ws(p->ws_kb);
	struct stream st;
	uint32_t pos = 0;
	int cpu = id % ncpu, epoch = -1, halves;
	double off = 0;

	if (!ws || make_stream(&st, p->stream_kb, p->cache_kb, p->nworkers) != 0)
		_exit(1);
	pos = walk(ws, 0, p->steps);	/* touch it once: fault the pages in */
	for (;;) {
		struct timespec io;
		long us;

		if (new_run(&epoch, id))	/* the same draws again */
			off = 0;
		if (off > 0)
			count_gap(id, now() - off);
		halves = phase_halves(p, id, now());
		pos = walk(ws, pos, p->steps * halves / 2);
		stream_read(&st, p->stream_kb);
		sh->count[id][0] += halves;
		sh->count[id][1] = pos;	/* keeps the walk from being optimised out */
		off = now();
		if (p->sleep_max > 0) {
			us = draw_wait_us(p->sleep_min, p->sleep_max);
			io.tv_sec = us / 1000000;
			io.tv_nsec = (us % 1000000) * 1000;
			nanosleep(&io, NULL);
		}
		maybe_move(&cpu, id);
	}
}

static int shape(struct params *p)
{
	p->nworkers = p->nprocs = p->wpc * ncpu;
	return p->nworkers >= 1 && p->nprocs <= MAXW ? 0 : -1;
}

/* a warm walk of about compute_us */
static long default_steps(const struct params *p)
{
	return steps_for(p->ws_kb, p->compute_us);
}

static int start(const struct params *p, pid_t *pids)
{
	int i;

	for (i = 0; i < p->nworkers; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			worker(i, p);
		if (pids[i] < 0)
			return -1;
	}
	return 0;
}

/* worker i on CPU i % ncpu */
static int home(const struct params *p, int i)
{
	(void)p;
	return i % ncpu;
}

static void info(const struct params *p)
{
	printf("BENCH info load=oltp workers_per_cpu=%ld workers=%d ws_kb=%ld "
	       "steps=%ld compute_us=%ld sleep_us=%ld-%ld stream_kb=%ld phase_ms=%ld",
	       p->wpc, p->nworkers, p->ws_kb, p->steps, p->compute_us,
	       p->sleep_min, p->sleep_max, p->stream_kb, p->phase_ms);
}

const struct workload oltp_load = { "oltp", shape, default_steps, start, home, info, 0 };
