// SPDX-License-Identifier: GPL-2.0
/*
 * msg: hackbench-shaped messaging with a cache footprint. G groups per
 * CPU, each of S senders and R receivers; every sender writes 100-byte
 * messages to each receiver of its group in turn (one pipe per receiver),
 * every receiver walks its private working set once per message.
 * Throughput is messages received per second.
 */
#include "bench.h"

#define MSG_SIZE	100

static void sender(int nrecv, const int *wfd)
{
	char buf[MSG_SIZE] = { 0 };
	int i;

	for (;;)
		for (i = 0; i < nrecv; i++)
			if (write(wfd[i], buf, MSG_SIZE) != MSG_SIZE && errno != EINTR)
				_exit(1);
}

static void receiver(int id, int rfd, size_t ws_kb, long steps)
{
	struct node *ws = make_ws(ws_kb);
	char buf[MSG_SIZE];
	uint32_t pos = 0;
	int cpu = id % ncpu, n;
	double off = 0;

	if (!ws)
		_exit(1);
	pos = walk(ws, 0, steps);
	for (;;) {
		/* pipe writes of <= PIPE_BUF are atomic: whole messages */
		n = read(rfd, buf, MSG_SIZE);
		if (n <= 0 && errno != EINTR)
			_exit(1);
		if (n <= 0)
			continue;
		if (off > 0)
			count_gap(id, now() - off);
		pos = walk(ws, pos, steps);
		sh->count[id][0] += 2;	/* a message: a whole transaction */
		sh->count[id][1] = pos;
		off = now();
		maybe_move(&cpu, id);
	}
}

/* groups: in all (guest.c multiplies the per-CPU count by ncpu) */
static int shape(struct params *p)
{
	p->nworkers = p->receivers * p->groups;
	p->nprocs = (p->senders + p->receivers) * p->groups;
	return p->senders >= 1 && p->receivers >= 1 && p->nworkers >= 1 &&
	       p->nprocs <= MAXW ? 0 : -1;
}

/* the working set once per message */
static long default_steps(const struct params *p)
{
	return p->ws_kb * 1024 / (long)sizeof(struct node);
}

/* group g: receivers g*R..g*R+R-1 (pids 0..), then its senders */
static int start(const struct params *p, pid_t *pids)
{
	int g, i, k, fds[MAXW];

	for (i = 0; i < p->nworkers; i++) {
		int pf[2];

		if (bench_pipe(pf) != 0)
			return -1;
		pids[i] = fork();
		if (pids[i] == 0) {
			close(pf[1]);
			receiver(i, pf[0], p->ws_kb, p->steps);
		}
		close(pf[0]);
		fds[i] = pf[1];
	}
	for (g = 0; g < p->groups; g++)
		for (k = 0; k < p->senders; k++) {
			i = p->nworkers + g * p->senders + k;
			pids[i] = fork();
			if (pids[i] == 0)
				sender(p->receivers, fds + g * p->receivers);
		}
	for (i = 0; i < p->nworkers; i++)
		close(fds[i]);
	return 0;
}

/* group g (its receivers, then its senders) on CPU g % ncpu */
static int home(const struct params *p, int i)
{
	int g = i < p->nworkers ? i / p->receivers :
		(i - p->nworkers) / p->senders;

	return g % ncpu;
}

static void info(const struct params *p)
{
	printf("BENCH info load=msg groups=%ld senders=%ld receivers=%ld ws_kb=%ld "
	       "steps=%ld", p->groups, p->senders, p->receivers, p->ws_kb,
	       p->steps);
}

const struct workload msg_load = { "msg", shape, default_steps, start, home, info, 0 };
