// SPDX-License-Identifier: GPL-2.0
/*
 * stats.h - the sweep's order and statistics (stats.c), shared by the live
 * sweep and `cachehot-sweep --analyse FILE.csv`.
 */
#ifndef SWEEP_STATS_H
#define SWEEP_STATS_H

#include <stdio.h>

#define SW_MAXPTS	34	/* 32 points, the reference and its A/A run */
#define SW_MAXREPS	100
#define SW_MAXRUNS	(SW_MAXPTS * SW_MAXREPS)

struct sw_run {
	int pt, rep;	/* indices into sw_data's points and reps */
	double seq;	/* position in the sweep; < 0: unknown */
	double tp;	/* throughput */
	double secs;	/* length of the window; <= 0: unknown */
	double idle;	/* idle share in %; < 0: unknown */
	double hr, hm;	/* hot refused, hot moved in the window; < 0: unknown */
	double us;	/* the value the run set ("d": the boot's); < 0: unknown */
	int unpatched;	/* make bench: a run of the unpatched kernel's boot */
};

struct sw_data {
	int npts, nreps, nruns;
	char name[SW_MAXPTS][24];	/* "2500" (us), "aa", or a CSV's name */
	char rep[SW_MAXREPS][16];
	struct sw_run run[SW_MAXRUNS];
	char ref[24];		/* the reference point's name ("2500") */
	char knob[32];		/* the knob's short name (for the paste line) */
	long smp_us;		/* cache_hot_time_node sweeps: the SMP level */
	long node_us;		/* SMP sweeps on NUMA: the NUMA level; -1 */
	int partial;		/* stopped early: the order is unbalanced */
};

double sw_t975(int df);
void sw_order(int n, int rep, int *order);
void sw_ci(const double *v, int n, double *mean, double *half);
int sw_point(struct sw_data *d, const char *name);
int sw_rep(struct sw_data *d, const char *name);
void sw_fmt_us(char *buf, size_t len, double us);
int sw_load_csv(struct sw_data *d, const char *path);
void sw_csv_header(FILE *f);
void sw_csv_row(const struct sw_data *d, const struct sw_run *r, FILE *f);
double sw_t_p(double t, int df);
int sw_holm(const double *p, int m, double alpha, double *adj);
/* What --analyse adds to the report (all optional; NULL: none). */
struct sw_opts {
	const char *compare[SW_MAXPTS];	/* "A-B", asked before the run */
	int ncompare;
	const char *chance;	/* a point: how often below the best by chance */
	FILE *summary;		/* a CSV a row a point, for plots */
	int drift;		/* which runs the drift is fitted on: SW_DRIFT_* */
};

/*
 * The drift's fit (sw_opts.drift): every patched run (the default, and the
 * analysis of every run committed before 2026-12-07 18:00 UTC), the sweep's own points only
 * (values, "d" and the A/A run "aa"; not the controls pin and mig, whose
 * runs scatter several times more), or none (no drift removed).
 */
enum { SW_DRIFT_ALL, SW_DRIFT_SWEEP, SW_DRIFT_OFF };
int sw_drift_mode(const char *name);

int sw_report(const struct sw_data *d, const struct sw_opts *opt, FILE *out);

#endif
