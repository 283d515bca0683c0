// SPDX-License-Identifier: GPL-2.0
/*
 * io: oltp whose I/O completes on one CPU. W workers per CPU compute as
 * oltp's do (a walk of `steps` nodes of a private set), then send a
 * request to the disk task and block on their own pipe until it answers.
 * The disk task stays on CPU 0, as every interrupt of a 2.6.9 guest booted
 * with noapic does, and answers each request after its wait (drawn as
 * oltp's are) with a write to the worker's pipe.
 *
 * Why it exists: oltp's workers wake from their own CPU's timer and msg's
 * receivers from their own CPU's sender, so try_to_wake_up() never
 * weighs a move, and load_balance() moves hot tasks anyway after
 * cache_nice_tries (1) failed attempts: their curves were flat. Here a
 * worker of CPU 1 is woken from CPU 0, and try_to_wake_up() (unless CPU 1
 * is idle) pulls it to CPU 0 if it slept longer than cache_hot_time
 * (wake-affine: cache-cold), else leaves it where its cache is, unless
 * CPU 0 is far less loaded (wake-balance). The value decides every such
 * wakeup of a busy CPU 1.
 *
 * With chsleepers=N, N of every W waits of each worker, in turn, are a
 * sleep on its own CPU as oltp's (their range chsleeper_*_us): a mix in
 * which some wakeups cross CPUs and the rest leave the balancer to share
 * out the CPUs (Kenneth Chen's load had both). Each worker mixes
 * both: with whole workers of each kind (N of each CPU's), the disk's
 * short waits kept every CPU busy and the balancer had nothing to lose.
 */
#include <poll.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "bench.h"

struct req { int id; int us; };

/* answers request r of worker r.id at its due time, from CPU 0 */
static void disk(int reqfd, const int *reply, int n)
{
	static double due[MAXW];	/* 0: nothing pending for that worker */
	struct pollfd pf = { .fd = reqfd, .events = POLLIN };
	struct req r[64];
	struct sched_param rt = { .sched_priority = 1 };
	int i, k;

	pin(0, 0);
	/*
	 * An interrupt, not a task: answers on time however many workers
	 * wait on CPU 0's runqueue.  As an ordinary task it starved there
	 * once the low values had pulled the workers to CPU 0, and every
	 * wait grew past 25 ms.  The raw syscall: musl's
	 * sched_setscheduler() is ENOSYS by design.
	 */
	if (syscall(SYS_sched_setscheduler, 0, SCHED_FIFO, &rt) != 0) {
		printf("BENCH error io: the disk cannot be SCHED_FIFO: %s\n",
		       strerror(errno));
		fflush(stdout);
		_exit(1);
	}
	for (;;) {
		double t = now(), first = 0;

		for (i = 0; i < n; i++) {
			if (due[i] > 0 && due[i] <= t) {
				due[i] = 0;
				if (write(reply[i], "", 1) != 1)
					_exit(1);
			} else if (due[i] > 0 && (first == 0 || due[i] < first)) {
				first = due[i];
			}
		}
		/* 2.6.9's poll adds a jiffy: a wait ends 1-2 ms late */
		k = poll(&pf, 1, first > 0 ? (int)ceil((first - t) * 1000) : -1);
		if (k > 0) {
			/* requests are 8 bytes, <= PIPE_BUF: never split */
			ssize_t got = read(reqfd, r, sizeof(r));

			if (got <= 0)
				_exit(1);
			t = now();
			for (i = 0; i < got / (ssize_t)sizeof(r[0]); i++)
				due[r[i].id] = t + r[i].us / 1e6;
		}
	}
}

static void worker(int id, int reqfd, int replyfd, const struct params *p)
{
	struct node *ws = make_ws(p->ws_kb);
	struct stream st;
	struct req r = { id, 0 };
	uint32_t pos = 0;
	int cpu = id % ncpu, epoch = -1, halves;
	long tx = 0;
	double off = 0;
	char c;

	if (!ws || make_stream(&st, p->stream_kb, p->cache_kb, p->nworkers) != 0)
		_exit(1);
	pos = walk(ws, 0, p->steps);	/* touch it once: fault the pages in */
	for (;;) {
		if (new_run(&epoch, id)) {	/* the same draws again */
			off = 0;
			tx = 0;
		}
		if (off > 0)
			count_gap(id, now() - off);
		halves = phase_halves(p, id, now());
		pos = walk(ws, pos, p->steps * halves / 2);
		stream_read(&st, p->stream_kb);
		sh->count[id][0] += halves;
		sh->count[id][1] = pos;
		off = now();
		/* sleepers of every wpc waits, in turn, on its own CPU */
		if ((id / ncpu + tx++) % p->wpc >= p->wpc - p->sleepers) {
			sleep_s(draw_wait_us(p->lsleep_min, p->lsleep_max) / 1e6);
		} else {
			r.us = draw_wait_us(p->sleep_min, p->sleep_max);
			if (write(reqfd, &r, sizeof(r)) != sizeof(r) ||
			    read(replyfd, &c, 1) != 1)
				_exit(1);
		}
		maybe_move(&cpu, id);
	}
}

/* the workers, then the disk */
static int shape(struct params *p)
{
	p->nworkers = p->wpc * ncpu;
	p->nprocs = p->nworkers + 1;
	return p->nworkers >= 1 && p->nprocs <= MAXW &&
	       p->sleepers >= 0 && p->sleepers <= p->wpc ? 0 : -1;
}

/* a warm walk of about compute_us */
static long default_steps(const struct params *p)
{
	return steps_for(p->ws_kb, p->compute_us);
}

static int start(const struct params *p, pid_t *pids)
{
	int req[2], reply[MAXW], i;

	if (bench_pipe(req) != 0)
		return -1;
	for (i = 0; i < p->nworkers; i++) {
		int pf[2];

		if (bench_pipe(pf) != 0)
			return -1;
		pids[i] = fork();
		if (pids[i] == 0) {
			close(req[0]);
			close(pf[1]);
			worker(i, req[1], pf[0], p);
		}
		if (pids[i] < 0)
			return -1;
		close(pf[0]);
		reply[i] = pf[1];
	}
	pids[i] = fork();
	if (pids[i] == 0) {
		close(req[1]);
		disk(req[0], reply, p->nworkers);
	}
	if (pids[i] < 0)
		return -1;
	close(req[0]);
	close(req[1]);
	for (i = 0; i < p->nworkers; i++)
		close(reply[i]);
	return 0;
}

/* worker i on CPU i % ncpu, the disk on CPU 0 */
static int home(const struct params *p, int i)
{
	return i < p->nworkers ? i % ncpu : 0;
}

static void info(const struct params *p)
{
	printf("BENCH info load=io workers_per_cpu=%ld workers=%d ws_kb=%ld "
	       "steps=%ld compute_us=%ld sleep_us=%ld-%ld stream_kb=%ld phase_ms=%ld "
	       "disk_cpu=0 own_cpu_sleeps_per_wpc=%ld sleeper_us=%ld-%ld", p->wpc,
	       p->nworkers, p->ws_kb, p->steps, p->compute_us, p->sleep_min,
	       p->sleep_max, p->stream_kb, p->phase_ms, p->sleepers,
	       p->lsleep_min, p->lsleep_max);
}

/* fixed = 1: the disk stays on CPU 0 at every point */
const struct workload io_load = { "io", shape, default_steps, start, home, info, 1 };
