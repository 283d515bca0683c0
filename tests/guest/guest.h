// SPDX-License-Identifier: GPL-2.0
/*
 * guest.h: what the files of the test guest's /init share (tests/README
 * says which file checks what).
 */
#ifndef GUEST_H
#define GUEST_H

#ifdef GUESTLIB_RT
/* an arch with no libc here (ia64): guestlib/rt.h has what we use */
#include "../../guestlib/rt.h"
#else
#define _GNU_SOURCE		/* sched_setaffinity */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#endif
#include "../../guestlib/guestlib.h"

#define SYSCTL_CPU	"/proc/sys/kernel/cache_hot_time"
#define SYSCTL_NODE	"/proc/sys/kernel/cache_hot_time_node"
#define SCHEDSTAT	"/proc/schedstat"
#define SCHEDSTAT_VERSION 100
/*
 * Fields of a domain line after "domainN <mask>": the series' version 100
 * is version 10 with the domain's cache_hot_time first, then version 10's
 * 3 * 5 load_balance() and 4 other counters, then 5 counters of the
 * series (refused, moved for IDLE and NOT_IDLE; refused for NEWLY_IDLE,
 * which never moves a hot task)
 */
#define DOMAIN_FIELDS	25
#define MAX_CPUS	64
#define MAX_LEVELS	3
#define DEFAULT_US	10000L		/* 10 ms */
#define MAX_US		4000000L	/* 4 s */

extern int passed, failed;
extern int mc_mode;
extern char klog[1 << 18];

struct sdom {
	char mask[40];
	unsigned long long hot_ns;	/* the domain's cache_hot_time */
	unsigned long hot[6];	/* refused, moved: IDLE, NOT_IDLE, NEWLY_IDLE */
};

struct sstat {
	int ndom[MAX_CPUS];	/* -1: no cpuN line */
	struct sdom d[MAX_CPUS][MAX_LEVELS];
};

/*
 * The cache_hot_time= words of the command line as this program reads
 * them: the last valid one counts, whole; a bad one is ignored (with a
 * warning that quotes it).
 */
#define MAX_OPTS	8
struct bootopt {
	int given;		/* the last valid: 0 none, 1 <t>, 2 <t>,<t_node> */
	long cpu, node;		/* its values, us */
	int nbad;
	char bad[MAX_OPTS][128];
};

/*
 * What the kernel shows: the two sysctls (where CONFIG_SYSCTL has them)
 * and the SMP and NUMA domains of every CPU in /proc/schedstat (where
 * CONFIG_SCHEDSTATS has it).  At run time each level is what was last
 * written to it, or its boot value; the levels are independent.
 */
struct model {
	long boot_cpu, boot_node;	/* what boot chose */
	long cpu, node;			/* now */
	int ncpus, smt, numa, sysctl, stats;
};

/* lib.c; chk= keys and files: guestlib.h */
void check(int ok, const char *name, const char *fmt, ...);

/* schedstat.c */
int read_schedstat(struct sstat *s, char *why, size_t whysize);
int domain_ok(int dom, int ndom, int smt, long long ns, long want_cpu,
		     long want_node);
int levels(int smt, int numa, const char **name);
int schedstat_ok(int ncpus, int smt, int numa, long want_cpu,
			long want_node, char *why, size_t whysize);
int schedstat_hot_sums(unsigned long sum[6]);
void print_schedstat(void);

/* boot.c */
void print_klog_lines(const char *needle);
int klog_now_count(const char *needle);
void read_bootopts(struct bootopt *o);
int model_ok(const struct model *m, char *why, size_t whysize);
void check_boot_values(long hz, const struct bootopt *o,
			      struct model *m);

/* sysctl.c */
void model_write(struct model *m, int node, long us);
void check_sysctl(int node, struct model *m);
void check_split_writes(int node, struct model *m);
void check_levels(struct model *m);
void check_binary_sysctl(int node, struct model *m);
void check_sysctl2_only(int numa);
void check_sysctl2_fetch_once(int node, struct model *m, int ncpus);
void check_non_root(int node, struct model *m);

/* load.c */
int counters_run(int ncpus, int pinned, int ms, int max_ms,
			unsigned long d[6], int *took);
void check_newidle_total(const char *name);
void check_counters(int ncpus, struct model *m);
void check_stress(int nwrites, struct model *m);

#endif
