// SPDX-License-Identifier: GPL-2.0
/*
 * cachemodel: a cache-timing model for QEMU TCG guests, without QEMU.
 * Caches of physical 64-byte lines, set-associative with LRU, one per vCPU
 * or one per group of `share` consecutive vCPUs (a socket); a write
 * invalidates the line in every other cache (a per-line generation: the
 * writer never touches another vCPU's cache); a miss costs miss_ns, or
 * remote_ns where the line is in the other node's memory.  A miss of the
 * line next to the vCPU's previous miss (up or down) continues a stream,
 * whose misses real memory systems overlap (prefetchers, several misses
 * in flight): it costs stream_ns (remote_stream_ns), the line's share of
 * the memory's bandwidth, where those are set (0: a stream pays full
 * latency).  cm_access() returns the stall a guest access costs, in ns;
 * the plugin (plugin.c) makes the vCPU wait that long.  Not modelled:
 * strided prefetch, TLBs, the L1/L2 hierarchy (one level only).
 */
#ifndef CACHEMODEL_MODEL_H
#define CACHEMODEL_MODEL_H
#include <stdint.h>

#define CM_LINE_SHIFT	6	/* 64-byte lines */

struct cm_params {
	unsigned size_kb;	/* of each cache */
	unsigned ways;
	unsigned miss_ns;	/* a miss served by memory of the vCPU's node */
	unsigned remote_ns;	/* a miss to the other node's memory; 0: no NUMA */
	unsigned share;		/* vCPUs per cache: 1 private, 2 a 2-thread socket */
	unsigned node_split_mb;	/* node 1's memory starts here (remote_ns only) */
	unsigned node1_cpu;	/* first vCPU of node 1 (remote_ns only) */
	unsigned stream_ns;	/* a miss continuing a stream; 0: miss_ns */
	unsigned remote_stream_ns; /* the same, remote; 0: remote_ns */
};

/*
 * A way is one word: the line number + 1 (0: empty) in the low half, the
 * line's generation when last valid here in the high half, so that a
 * set's 16 ways are two host cache lines.  A miss scans every way before
 * the plugin's clock starts, a hit only up to its own: with the LRU
 * stamps kept beside the ways, a miss's scan cost 40-50 ns more than a
 * hit, which the guest saw as a migration cost the model does not have.
 */
#define CM_WAY(line, gen)	(((uint64_t)(line) + 1) | (uint64_t)(gen) << 32)
#define CM_WAY_LINE(w)		((uint32_t)(w) - 1)	/* of a non-empty way */
#define CM_WAY_GEN(w)		((uint32_t)((w) >> 32))

struct cm_cache {
	unsigned sets, ways;
	uint64_t *way;		/* sets * ways, a set's ways together */
	uint64_t *stamp;	/* the same, LRU: larger is more recent */
	uint64_t clock;
	uint64_t accesses, misses;
};

/* Physical lines the model tracks (1 GB); accesses above it are free */
#define CM_LINES	(1UL << (30 - CM_LINE_SHIFT))

struct cm_model {
	struct cm_params p;
	unsigned ncpus, ncaches;
	struct cm_cache *cache;
	uint32_t *gen;		/* per line: moves on at every write */
	uint64_t *last_miss;	/* per vCPU, 8 words apart: its last miss's line */
};

/* NULL, or what is wrong with the parameters */
const char *cm_check(const struct cm_params *p, unsigned ncpus);
int cm_init(struct cm_model *m, const struct cm_params *p, unsigned ncpus);
void cm_free(struct cm_model *m);
/* One access of vCPU cpu to physical address pa: the stall in ns */
unsigned cm_access(struct cm_model *m, unsigned cpu, uint64_t pa, int write);
/* The same in two halves: the hit path (1: a hit, done), then the miss */
int cm_hit(struct cm_model *m, unsigned cpu, uint64_t pa, int write);
unsigned cm_miss(struct cm_model *m, unsigned cpu, uint64_t pa, int write);

/*
 * The stall's books (plugin.c): what a vCPU still owes, in ns, once it
 * spent `took` ns on what it owed.  A stall's own overshoot (a clock read
 * or two) is carried to the next miss, so that over a run each miss costs
 * its penalty; time the host took the thread away is not: a credit is
 * capped at CM_CREDIT_NS, or the misses after one host preemption would
 * be free (a real cache does not refund the time a CPU was not running).
 */
#define CM_CREDIT_NS	1000
long long cm_owed(long long owed, long long took);

/* The named machines (machines.c); the first is the default */
struct cm_machine {
	const char *name, *what;
	const char *cpu_opts;	/* appended to QEMU's -cpu, so CPUID says so */
	struct cm_params p;
};
extern const struct cm_machine cm_machines[];
const struct cm_machine *cm_machine(const char *name);
/* "key=value" sets one parameter of p (size_kb= ways= miss_ns= remote_ns=
 * share= node_split_mb= node1_cpu= stream_ns= remote_stream_ns=) to a
 * decimal value; -1: no such key or not a decimal number, p untouched */
int cm_set_param(struct cm_params *p, const char *kv);
#endif
