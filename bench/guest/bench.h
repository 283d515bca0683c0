// SPDX-License-Identifier: GPL-2.0
/*
 * What the files of the benchmark guest share (bench/guest.c is its /init):
 * the helpers (util.c), the /proc snapshots (snapshot.c), the calibration
 * (calib.c) and the workloads, one file each (oltp.c, msg.c, io.c). A new
 * workload is one new file with a struct workload, named in guest.c's
 * table.
 */
#ifndef BENCH_H
#define BENCH_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../../guestlib/guestlib.h"

#define SYSCTL_CPU	"/proc/sys/kernel/cache_hot_time"
#define SYSCTL_NODE	"/proc/sys/kernel/cache_hot_time_node"
#define SCHEDSTAT	"/proc/schedstat"
#define MAXCPU		64
#define MAXW		512
#define NGAP		9	/* gap histogram bounds */

struct node { uint32_t next; uint32_t pad[15]; };	/* one cache line */

/* upper bounds of the gap histogram, us: the seed's points (util.c) */
extern const long gap_le[NGAP];

struct shared {
	/*
	 * per worker, one line each: [0] work done in half transactions (a
	 * walk of `steps` is 2; util.c: phase_halves()), [1] sink, [2..] gaps
	 */
	volatile unsigned long count[MAXW][16];
	volatile unsigned long sink;
	volatile int mig;		/* "mig" point: move every transaction */
	volatile int want[MAXW];	/* a task's CPU when not "mig", -1 any */
	volatile int epoch;		/* bumped per run: restart the sleep draws */
};

extern struct shared *sh;	/* shared by every task of the workload */
extern int ncpu;
extern uint64_t rng;		/* xorshift's state, per task after fork */
extern char big[1 << 16];	/* a buffer for /proc files */

/* The workload's parameters (kernel command line words, guest.c). */
struct params {
	long wpc;			/* oltp, io: workers per CPU */
	long groups, senders, receivers;	/* msg: groups in all, shape */
	long ws_kb;			/* working set per worker */
	long steps;			/* nodes walked per transaction */
	long compute_us;		/* oltp, io: what the steps are calibrated to */
	long sleep_min, sleep_max;	/* oltp, io: the I/O wait, us */
	long stream_kb;			/* oltp, io: new lines read per transaction */
	long phase_ms;			/* oltp, io: heavy and light swap; 0: never */
	long sleepers;			/* io: workers per CPU that wait on their own CPU */
	long lsleep_min, lsleep_max;	/* io: their wait, us */
	long cache_kb;			/* the modelled cache (chk's model_kb), else cpuinfo's */
	double run_s, warm_s;		/* measured and warm-up time per run */
	int nworkers;			/* tasks whose transactions count */
	int nprocs;			/* all tasks */
};

struct workload {
	const char *name;
	/* set nworkers and nprocs from the parameters; 0, or -1 if invalid */
	int (*shape)(struct params *p);
	/* steps per transaction when chsteps= does not say */
	long (*steps)(const struct params *p);
	/* fork every task into pids[0..nprocs-1], workers first; 0 or -1 */
	int (*start)(const struct params *p, pid_t *pids);
	/* the pin point's CPU of task i */
	int (*home)(const struct params *p, int i);
	/* print its "BENCH info load=..." line */
	void (*info)(const struct params *p);
	/* the last `fixed` tasks stay on their home CPU at every point */
	int fixed;
};

extern const struct workload oltp_load, msg_load, io_load;

/* util.c; chk= keys and files: guestlib.h */
long env_long(const char *name, long def);
long guest_hz(void);
double now(void);
void sleep_s(double s);
int write_us(const char *path, long us);
uint64_t xorshift(void);
struct node *make_ws(size_t kb);
extern int walk_writes;		/* chwrite: walks write what they read */
uint32_t walk(struct node *ws, uint32_t pos, long steps);
double time_walk(struct node *ws, long steps);
int pin(pid_t pid, int cpu);
double median(double *v, int n);
void count_gap(int id, double off_s);
int bench_pipe(int fd[2]);
int new_run(int *epoch, int id);
long draw_wait_us(long min, long max);
void maybe_move(int *cpu, int id);
int phase_halves(const struct params *p, int id, double t);
struct stream { volatile uint32_t *base; size_t lines, pos; };
int make_stream(struct stream *s, long stream_kb, long cache_kb, int tasks);
void stream_read(struct stream *s, long kb);

/* snapshot.c */
struct snap {
	double t;
	uint64_t tsc;		/* the TSC: under TCG it follows the host's clock */
	unsigned long long idle, total, ctxt;
	unsigned long long moves, wakemoves;	/* -1: no schedstats */
	unsigned long long hotref, hotmoved;	/* -1: view without counters */
	unsigned long long tx;		/* half transactions, all workers */
	unsigned long long gap[NGAP + 1];	/* gap histogram, all workers */
};
extern double cpu_mhz;	/* /proc/cpuinfo: the TSC rate the kernel calibrated */
void snapshot(struct snap *s, int nworkers);

/* points.c */
long point_us(const char *p, long derived);
void point_order(char **points, int n, int rep, int *idx);

/* calib.c */
void calibrate(long cache_kb, size_t ws_kb, int others);
void propagation(int n, long restore_us);
void faithful(int reps, int ms);
long steps_for(size_t ws_kb, long us);

#endif
