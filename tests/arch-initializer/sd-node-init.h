// SPDX-License-Identifier: GPL-2.0
/*
 * An architecture's own SD_NODE_INIT, as a port that overrides the
 * generic one might write it (ia64 does, in asm/processor.h), with no
 * cache_hot_time at all: kernel/sched.c's generic SD_NODE_INIT is then
 * not defined, and every NUMA domain starts from this one.  The series
 * must still give those domains the NUMA level's value, not 0 ("never
 * hot"): tests/arch-initializer.sh builds sched.c with this header.
 */
#define SD_NODE_INIT (struct sched_domain) {		\
	.span			= CPU_MASK_NONE,	\
	.parent			= NULL,			\
	.groups			= NULL,			\
	.min_interval		= 8,			\
	.max_interval		= 32,			\
	.busy_factor		= 32,			\
	.imbalance_pct		= 125,			\
	.cache_nice_tries	= 1,			\
	.per_cpu_gain		= 100,			\
	.flags			= SD_BALANCE_EXEC	\
				| SD_WAKE_BALANCE,	\
	.last_balance		= jiffies,		\
	.balance_interval	= 1,			\
	.nr_balance_failed	= 0,			\
}
