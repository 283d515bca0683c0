// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - the order of a sweep's runs and its statistics: the one engine
 * of cachehot-sweep and of `make bench` (its guest takes the order, its
 * report is --analyse of its runs.csv): every repetition runs every point
 * once in a counterbalanced order, a linear drift is fitted and removed,
 * each point's throughput is taken as % of the same repetition's reference
 * run (paired), and the mean gets a 95 % Student t interval over the
 * repetitions; whether the best point beats every other one is decided
 * with Holm's correction for the number of comparisons. Used by the live
 * sweep and by --analyse FILE.csv.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stats.h"

/* Two-sided 95 % quantile of Student's t with df degrees of freedom. */
double sw_t975(int df)
{
	static const double q[31] = { 0, 12.706, 4.303, 3.182, 2.776, 2.571,
		2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
		2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
		2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };
	double z = 1.959964, v = df, z2 = z * z;

	if (df < 1)
		return INFINITY;
	if (df <= 30)
		return q[df];
	/* Cornish-Fisher expansion around the normal: below 1e-4 off here */
	return z + z * (z2 + 1) / (4 * v) +
		z * ((5 * z2 + 16) * z2 + 3) / (96 * v * v) +
		z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / (384 * v * v * v);
}

/*
 * The order of the n points in repetition rep (1, 2, ...). Throughput
 * drifts during a sweep, so a point's position biases it. Points 0 and 1
 * (the reference and its A/A run) go as one unit, so that they always run
 * next to each other; odd repetitions run the units rotated by one more
 * than the odd one before, each even one runs the odd one before it
 * backwards: over each pair of repetitions every point's mean position is
 * the middle.
 */
void sw_order(int n, int rep, int *order)
{
	int k, j = 0, u, m = n - 1, rot = (rep % 2) ? rep - 1 : rep - 2;

	for (k = 0; k < m; k++) {
		u = (((rep % 2) ? k : m - 1 - k) + rot) % m;
		if (u) {
			order[j++] = u + 1;
			continue;
		}
		order[j++] = rep % 2 ? 0 : 1;
		order[j++] = rep % 2 ? 1 : 0;
	}
}

/*
 * The regularized incomplete beta function I_x(a, b), by its continued
 * fraction (modified Lentz), which converges fast on the side of the
 * symmetry point that it is used on.
 */
static double betacf(double a, double b, double x)
{
	double c = 1, e = 1 - (a + b) * x / (a + 1), h, aa, del;
	int m;

	e = 1 / (fabs(e) < 1e-300 ? 1e-300 : e);
	h = e;
	for (m = 1; m <= 500; m++) {
		aa = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		e = 1 + aa * e;
		e = 1 / (fabs(e) < 1e-300 ? 1e-300 : e);
		c = 1 + aa / c;
		c = fabs(c) < 1e-300 ? 1e-300 : c;
		h *= e * c;
		aa = -(a + m) * (a + b + m) * x /
			((a + 2 * m) * (a + 2 * m + 1));
		e = 1 + aa * e;
		e = 1 / (fabs(e) < 1e-300 ? 1e-300 : e);
		c = 1 + aa / c;
		c = fabs(c) < 1e-300 ? 1e-300 : c;
		del = e * c;
		h *= del;
		if (fabs(del - 1) < 1e-13)
			break;
	}
	return h;
}

static double ibeta(double a, double b, double x)
{
	double bt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		 b * log(1 - x));
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

/* Two-sided p-value of Student's t with df degrees of freedom. */
double sw_t_p(double t, int df)
{
	if (df < 1 || isnan(t))
		return 1;
	if (isinf(t))
		return 0;
	return ibeta(df / 2.0, 0.5, df / (df + t * t));
}

/*
 * Holm's step-down correction of m p-values for the m comparisons they
 * come from: adj[i] (if adj) gets p[i] adjusted, and the number of
 * hypotheses rejected at family-wise level alpha is returned. Comparing
 * the best point with each of many others at 5 % each would find a
 * difference by chance far more often than 5 % of the time.
 */
int sw_holm(const double *p, int m, double alpha, double *adj)
{
	int o[SW_MAXPTS], i, j, k, n = 0;
	double run = 0, a;

	if (m > SW_MAXPTS)
		return -1;
	for (i = 0; i < m; i++)	/* o: indices by ascending p */
		for (o[i] = i, j = i; j > 0 && p[o[j]] < p[o[j - 1]]; j--) {
			k = o[j];
			o[j] = o[j - 1];
			o[j - 1] = k;
		}
	for (i = 0; i < m; i++) {
		a = (m - i) * p[o[i]];
		run = a > run ? (a > 1 ? 1 : a) : run;
		if (adj)
			adj[o[i]] = run;
		n += run <= alpha;
	}
	return n;
}

/* Mean and 95 % half-width (infinite below two values) of v[0..n-1]. */
void sw_ci(const double *v, int n, double *mean, double *half)
{
	double m = 0, q = 0;
	int i;

	for (i = 0; i < n; i++)
		m += v[i];
	m = n ? m / n : 0;
	for (i = 0; i < n; i++)
		q += (v[i] - m) * (v[i] - m);
	*mean = m;
	*half = n > 1 ? sw_t975(n - 1) * sqrt(q / (n - 1)) / sqrt(n) : INFINITY;
}

/* --drift's word: SW_DRIFT_*, or -1 for a word that is none. */
int sw_drift_mode(const char *name)
{
	if (!strcmp(name, "all"))
		return SW_DRIFT_ALL;
	if (!strcmp(name, "sweep"))
		return SW_DRIFT_SWEEP;
	if (!strcmp(name, "off"))
		return SW_DRIFT_OFF;
	return -1;
}

/* Index of the point named name, or -1. */
static int point_at(const struct sw_data *d, const char *name)
{
	int i;

	for (i = 0; i < d->npts; i++)
		if (!strncmp(d->name[i], name, sizeof(d->name[0]) - 1))
			return i;
	return -1;
}

/* Index of the point (repetition) named name; added if new, -1 if full. */
int sw_point(struct sw_data *d, const char *name)
{
	int i = point_at(d, name);

	if (i >= 0 || d->npts == SW_MAXPTS)
		return i;
	snprintf(d->name[d->npts], sizeof(d->name[0]), "%s", name);
	return d->npts++;
}

int sw_rep(struct sw_data *d, const char *name)
{
	int i;

	for (i = 0; i < d->nreps; i++)
		if (!strncmp(d->rep[i], name, sizeof(d->rep[0]) - 1))
			return i;
	if (d->nreps == SW_MAXREPS)
		return -1;
	snprintf(d->rep[d->nreps], sizeof(d->rep[0]), "%s", name);
	return d->nreps++;
}

void sw_fmt_us(char *buf, size_t len, double us)
{
	if (us >= 1e6)
		snprintf(buf, len, "%.10g s", us / 1e6);
	else if (us >= 1e3)
		snprintf(buf, len, "%.10g ms", us / 1e3);
	else
		snprintf(buf, len, "%.10g us", us);
}

/* A point's value in us, or -1 for a name that is not one ("aa", "pin"). */
static double point_us(const char *name)
{
	char *end;
	double v = strtod(name, &end);

	return (*name >= '0' && *name <= '9' && !*end) ? v : -1;
}

/* A CSV field's number; -1 when empty or not a number ("-", "n/a"). */
static double num(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	return (!*s || *end) ? -1 : v;
}

/* Split line at the commas into f[0..max-1]; the number of fields. */
static int split(char *line, char **f, int max)
{
	int n = 0;

	line[strcspn(line, "\r\n")] = 0;
	for (;;) {
		f[n++] = line;
		line += strcspn(line, ",");
		if (!*line || n == max)
			return n;
		*line++ = 0;
	}
}

/*
 * Read a CSV of runs (a header line names the columns; no quoting).
 * make bench's runs.csv has the same column names, tps for throughput and
 * a kernel column, of which only the patched rows are points.
 */
int sw_load_csv(struct sw_data *d, const char *path)
{
	enum { POINT, REP, TP, RUN, SECS, IDLE, HR, HM, KNOB, KERN, TPS, REF,
		SMP, NODE, US, NC };
	static const char *cols[NC] = { "point", "rep", "throughput", "run",
		"secs", "idle_pct", "hot_refused", "hot_moved", "knob",
		"kernel", "tps", "ref", "smp_us", "node_us",
		"cache_hot_time_us" };
	const char *name;
	int unp;
	char line[4096], *f[64], *c[NC];
	int at[NC], i, j, n;
	const char *why = NULL;
	struct sw_run *r;
	FILE *in = fopen(path, "r");

	if (!in) {
		perror(path);
		return -1;
	}
	memset(d, 0, sizeof(*d));
	d->smp_us = d->node_us = -1;
	n = fgets(line, sizeof(line), in) ? split(line, f, 64) : 0;
	for (i = 0; i < NC; i++)
		for (at[i] = -1, j = 0; j < n; j++)
			if (!strcmp(f[j], cols[i]))
				at[i] = j;
	if (at[TP] < 0)
		at[TP] = at[TPS];
	if (at[POINT] < 0 || at[REP] < 0 || at[TP] < 0)
		why = "the first line must name the columns point, rep and throughput (or tps)";
	while (!why && fgets(line, sizeof(line), in)) {
		n = split(line, f, 64);
		for (i = 0; i < NC; i++)
			c[i] = at[i] >= 0 && at[i] < n ? f[at[i]] : "";
		/*
		 * make bench's unpatched boots: their runs at the boot value
		 * are the point "unpatched", their pinned run "upin", the
		 * bridge to the patched boot of the same repetition.
		 */
		unp = !strcmp(c[KERN], "unpatched");
		if (!*c[POINT] || (*c[KERN] && strcmp(c[KERN], "patched") && !unp))
			continue;
		name = !unp ? c[POINT] : strcmp(c[POINT], "pin") ? "unpatched" : "upin";
		if (*c[KNOB] && !*d->knob)
			snprintf(d->knob, sizeof(d->knob), "%s", c[KNOB]);
		if (*c[REF] && !*d->ref)
			snprintf(d->ref, sizeof(d->ref), "%s", c[REF]);
		if (num(c[SMP]) >= 0)
			d->smp_us = num(c[SMP]);
		if (num(c[NODE]) >= 0)
			d->node_us = num(c[NODE]);
		if (d->nruns == SW_MAXRUNS) {
			why = "too many runs";
			break;
		}
		r = &d->run[d->nruns++];
		*r = (struct sw_run){ .pt = sw_point(d, name),
			.rep = sw_rep(d, c[REP]), .seq = num(c[RUN]),
			.tp = num(c[TP]), .secs = num(c[SECS]),
			.idle = num(c[IDLE]), .hr = num(c[HR]),
			.hm = num(c[HM]), .us = num(c[US]), .unpatched = unp };
		if (r->pt < 0 || r->rep < 0)
			why = "too many points or repetitions";
	}
	fclose(in);
	if (!why && !d->nruns)
		why = "no runs";
	if (why)
		fprintf(stderr, "%s: %s\n", path, why);
	return why ? -1 : 0;
}

static void field(FILE *f, double v, const char *sep)
{
	if (v >= 0)
		fprintf(f, "%.10g", v);
	fputs(sep, f);
}

/*
 * The CSV: a header, then a row as each run ends, so that a sweep that
 * stops early keeps the runs it made. ref, smp_us and node_us let
 * --analyse print the same report and line to paste.
 */
void sw_csv_header(FILE *f)
{
	fputs("point,rep,run,throughput,secs,idle_pct,hot_refused,hot_moved,knob,ref,smp_us,node_us\n",
	      f);
}

void sw_csv_row(const struct sw_data *d, const struct sw_run *r, FILE *f)
{
	fprintf(f, "%s,%s,", d->name[r->pt], d->rep[r->rep]);
	field(f, r->seq, ",");
	field(f, r->tp, ",");
	field(f, r->secs, ",");
	field(f, r->idle, ",");
	field(f, r->hr, ",");
	field(f, r->hm, ",");
	fprintf(f, "%s,%s,", d->knob, d->ref);
	field(f, d->smp_us, ",");
	field(f, d->node_us, "\n");
}

/* The median of the values point p's runs set, us; -1 if none is known. */
static double median_us(const struct sw_data *d, int p)
{
	double v[SW_MAXREPS], t;
	int n = 0, i, j;
	const struct sw_run *u;

	for (u = d->run; u < d->run + d->nruns && n < SW_MAXREPS; u++)
		if (u->pt == p && u->us >= 0)
			v[n++] = u->us;
	for (i = 1; i < n; i++)
		for (t = v[i], j = i - 1; j >= 0 && v[j] > t; j--) {
			v[j + 1] = v[j];
			v[j] = t;
		}
	return n ? v[(n - 1) / 2] : -1;
}

/* A point of the sweep: a value, or "d" (what the kernel chose at boot). */
static int sweep_point(const struct sw_data *d, int p)
{
	return point_us(d->name[p]) >= 0 || !strcmp(d->name[p], "d");
}

/* Point p's value, us: its name's, else what its runs set; -1 unknown. */
static double value_us(const struct sw_data *d, int p)
{
	return point_us(d->name[p]) >= 0 ? point_us(d->name[p]) :
		median_us(d, p);
}

static void label(const struct sw_data *d, int p, char *buf, size_t len)
{
	const char *name = d->name[p];
	char v[24];

	if (!strcmp(name, "d") || !strcmp(name, "unpatched")) {
		if (median_us(d, p) < 0)
			snprintf(buf, len, "%s", *name == 'd' ? "derived" : name);
		else {
			sw_fmt_us(v, sizeof(v), median_us(d, p));
			snprintf(buf, len, "%s %s",
				 *name == 'd' ? "derived" : "unpatched", v);
		}
		return;
	}
	if (!strcmp(name, "aa"))
		name = d->ref;
	if (point_us(name) >= 0)
		sw_fmt_us(buf, len, point_us(name));
	else
		snprintf(buf, len, "%.20s", name);
	if (name != d->name[p])
		strcat(buf, " again (A/A)");
}

/* Table rows: by value, the A/A run after the reference, names last. */
static double row_key(const struct sw_data *d, int p)
{
	double us = point_us(d->name[p]);

	if (us >= 0)
		return us;
	if (!strcmp(d->name[p], "aa"))
		return point_us(d->ref) + 1e-6;
	if (!strcmp(d->name[p], "d") && median_us(d, p) >= 0)
		return median_us(d, p) + 2e-6;
	return 1e18 + p;
}

/*
 * The drift: one slope of log throughput over the run's position, fitted
 * to what the points and repetitions leave (log tp less its point's mean
 * less its repetition's mean, over the position less its repetition's
 * mean position); the unpatched kernel's runs are left out of the fit
 * (boots of their own, with no reference run), and with SW_DRIFT_SWEEP
 * every run of a point that is not the sweep's or its A/A run too.
 * pos[r] gets repetition r's mean position. NAN if a run's position is
 * not known, and (*few set) where the fit would leave fewer degrees of
 * freedom than there are repetitions: with 2 repetitions of 3 points a
 * slope took the only one left and paired two runs exactly (+- 0.00).
 */
static int in_fit(const struct sw_data *d, const struct sw_run *u, int mode)
{
	return u->tp > 0 && !u->unpatched && (mode != SW_DRIFT_SWEEP ||
		sweep_point(d, u->pt) || !strcmp(d->name[u->pt], "aa"));
}

static double drift(const struct sw_data *d, double *pos, int mode, int *few)
{
	double pm[SW_MAXPTS] = { 0 }, be[SW_MAXREPS] = { 0 }, e, di;
	double sxy = 0, sxx = 0;
	int pn[SW_MAXPTS] = { 0 }, bn[SW_MAXREPS] = { 0 }, known = 1, r;
	int n = 0, np = 0, nr = 0, p;
	const struct sw_run *u, *end = d->run + d->nruns;

	for (u = d->run; u < end; u++)
		if (in_fit(d, u, mode)) {
			pm[u->pt] += log(u->tp);
			pn[u->pt]++;
			known &= u->seq >= 0;
		}
	for (u = d->run; u < end; u++)
		if (in_fit(d, u, mode)) {
			be[u->rep] += log(u->tp) - pm[u->pt] / pn[u->pt];
			pos[u->rep] += u->seq;
			bn[u->rep]++;
		}
	for (u = d->run; u < end; u++)
		if (in_fit(d, u, mode)) {
			e = log(u->tp) - pm[u->pt] / pn[u->pt] -
				be[u->rep] / bn[u->rep];
			di = u->seq - pos[u->rep] / bn[u->rep];
			sxy += di * e;
			sxx += di * di;
		}
	for (r = 0; r < d->nreps; r++) {
		pos[r] /= bn[r] ? bn[r] : 1;
		n += bn[r];
		nr += bn[r] > 0;
	}
	for (p = 0; p < d->npts; p++)
		np += pn[p] > 0;
	/* runs less the points' and repetitions' means and the slope */
	*few = known && sxx > 0 && n - np - nr < nr;
	return known && sxx > 0 && !*few ? sxy / sxx : NAN;
}

/* Mean and half-width of x[p][] - x[b][] over the reps both have. */
static int pair(const struct sw_data *d, double x[][SW_MAXREPS], int p, int b,
		double *m, double *h)
{
	double v[SW_MAXREPS];
	int n = 0, r;

	for (r = 0; r < d->nreps; r++)
		if (x[p][r] >= 0 && (b < 0 || x[b][r] >= 0))
			v[n++] = x[p][r] - (b < 0 ? 0 : x[b][r]);
	sw_ci(v, n, m, h);
	return n;
}

/* A table row: raw throughput, ratio, versus best, idle, hot counters. */
static void row(const struct sw_data *d, double x[][SW_MAXREPS], int p,
		int best, char *inside, FILE *sum, FILE *out)
{
	double idle = 0, hr = 0, hm = 0, raw = 0, m, h, mb, hb;
	int ni = 0, nh = 0, nr = 0, n;
	const struct sw_run *u;
	char lab[40], vs[40];

	for (u = d->run; u < d->run + d->nruns; u++) {
		if (u->pt != p || u->tp <= 0)
			continue;
		raw += u->tp;
		nr++;
		if (u->idle >= 0) {
			idle += u->idle;
			ni++;
		}
		if (u->hr >= 0 && u->hm >= 0 && u->secs > 0) {
			hr += u->hr / u->secs;
			hm += u->hm / u->secs;
			nh++;
		}
	}
	n = pair(d, x, p, -1, &m, &h);
	pair(d, x, p, best, &mb, &hb);
	label(d, p, lab, sizeof(lab));
	if (p == best)
		snprintf(vs, sizeof(vs), "best");
	else if (n < 2)
		snprintf(vs, sizeof(vs), "n/a");
	else
		snprintf(vs, sizeof(vs), "%+6.1f +- %5.1f %-6s", mb, hb,
			 mb + hb < 0 ? "below" : mb - hb > 0 ? "above" :
			 "inside");
	if (p != best && n > 1 && mb + hb >= 0 && mb - hb <= 0 &&
	    sweep_point(d, p) && strlen(inside) < 400)
		sprintf(inside + strlen(inside), "%s%s", *inside ? ", " : "",
			lab);
	fprintf(out, "%-22s %4d %10.6g ", lab, n, nr ? raw / nr : 0);
	if (n > 1)
		fprintf(out, "%7.1f +- %5.1f", m, h);
	else
		fprintf(out, "%7.1f +-   n/a", m);
	fprintf(out, " %22s", vs);
	if (ni)
		fprintf(out, " %6.1f", idle / ni);
	else
		fprintf(out, " %6s", "n/a");
	if (nh == nr && nh)
		fprintf(out, " %10.1f %10.1f\n", hr / nh, hm / nh);
	else
		fprintf(out, " %10s %10s\n", "n/a", "n/a");
	if (!sum)
		return;
	/* the same numbers for a plot: -1 where the table says n/a */
	fprintf(sum, "%s,%s,%.10g,%d,%.4f,%.4f,%.4f,", d->name[p], lab,
		value_us(d, p), n, m, n > 1 ? h : -1,
		n > 1 ? h / sw_t975(n - 1) * sqrt(n) : -1);
	if (p == best || n < 2)
		fprintf(sum, "%.4f,%.4f,", p == best ? 0.0 : -1.0, -1.0);
	else
		fprintf(sum, "%.4f,%.4f,", mb, hb);
	fprintf(sum, "%.4f,%.4f,%.4f\n", ni ? idle / ni : -1,
		nh == nr && nh ? hr / nh : -1, nh == nr && nh ? hm / nh : -1);
}

/* A 2.6.9 boot option's value: whole ms as ms, else us. */
static void boot_val(char *buf, size_t len, double us)
{
	if (fmod(us, 1000) == 0)
		snprintf(buf, len, "%.0fms", us / 1000);
	else
		snprintf(buf, len, "%.0fus", us);
}

/*
 * The line to paste: the 2.6.9 boot option with both levels where the
 * machine has both (the level not swept as it was), or the command that
 * sets the later kernels' knob (ns); they have no boot option for it.
 */
static void paste(const struct sw_data *d, double us, FILE *out)
{
	char v[32], o[32];

	if (!strcmp(d->knob, "migration_cost_ns")) {
		fprintf(out, "echo %.0f > /sys/kernel/debug/sched/migration_cost_ns\n",
			us * 1000);
		return;
	}
	if (*d->knob && strncmp(d->knob, "cache_hot_time", 14)) {
		fprintf(out, "sysctl -w %s=%.0f\n", d->knob, us * 1000);
		return;
	}
	boot_val(v, sizeof(v), us);
	if (!strcmp(d->knob, "cache_hot_time_node")) {
		if (d->smp_us < 0) {
			fprintf(out, "no line to paste: the runs do not give the SMP level's value (column smp_us); the boot option is cache_hot_time=<SMP level>,%s\n",
				v);
			return;
		}
		boot_val(o, sizeof(o), d->smp_us);
		fprintf(out, "cache_hot_time=%s,%s\n", o, v);
	} else if (d->node_us >= 0) {
		boot_val(o, sizeof(o), d->node_us);
		fprintf(out, "cache_hot_time=%s,%s\n", v, o);
	} else {
		fprintf(out, "cache_hot_time=%s\n", v);
	}
}


/* The t quantile whose two-sided p is 0.10: a one-sided 95 % bound. */
static double t95(int df)
{
	double lo = 0, hi = 1e3, mid;
	int i;

	if (df < 1)
		return INFINITY;
	for (i = 0; i < 100; i++) {
		mid = (lo + hi) / 2;
		if (sw_t_p(mid, df) > 0.10)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * Where the A/A runs ran, from the runs' positions: their distance to
 * the reference's run of the same repetition. Next to it, aa - ref is
 * the noise floor of two adjacent runs; farther, it carries drift.
 */
static void aa_placement(const struct sw_data *d, int aa, int ref, FILE *out)
{
	double pa[SW_MAXREPS], pr[SW_MAXREPS], gap, sum = 0, max = 0;
	int n = 0, next = 0, r;
	const struct sw_run *u;

	for (r = 0; r < d->nreps; r++)
		pa[r] = pr[r] = -1;
	for (u = d->run; u < d->run + d->nruns; u++)
		if (!u->unpatched && u->seq >= 0 && (u->pt == aa || u->pt == ref))
			(u->pt == aa ? pa : pr)[u->rep] = u->seq;
	for (r = 0; r < d->nreps; r++) {
		if (pa[r] < 0 || pr[r] < 0)
			continue;
		gap = fabs(pa[r] - pr[r]);
		n++;
		next += gap == 1;
		sum += gap;
		max = gap > max ? gap : max;
	}
	if (!n)
		fprintf(out, "A/A placement: not known (the CSV has no run positions)\n");
	else
		fprintf(out, "A/A placement, from the runs' positions: next to the reference in %d of %d reps; %.1f runs apart on average, %.0f at most\n",
			next, n, sum / n, max);
}

/*
 * A comparison named before the run, "A-B": the paired difference with
 * its 95 % interval, both one-sided 95 % bounds, its p, and the smallest
 * difference a run with this spread and this many reps finds 80 % of the
 * time (two-sided 5 %).
 */
static void compare(const struct sw_data *d, double x[][SW_MAXREPS],
		    int a, int b, FILE *out)
{
	double m, h, sd, se, p;
	int k = pair(d, x, a, b, &m, &h);
	char la[40], lb[40];

	label(d, a, la, sizeof(la));
	label(d, b, lb, sizeof(lb));
	if (k < 2) {
		fprintf(out, "compare %s - %s: %d paired reps, too few\n", la, lb, k);
		return;
	}
	se = h / sw_t975(k - 1);
	sd = se * sqrt(k);
	p = se > 0 ? sw_t_p(m / se, k - 1) : (m != 0 ? 0 : 1);
	fprintf(out, "compare %s - %s: %+.2f +- %.2f (95 %%, %d reps), sd %.2f; one-sided 95 %%: above %+.2f, below %+.2f; p %.2g (two-sided); detectable (80 %% power) about %.1f\n",
		la, lb, m, h, k, sd, m - t95(k - 1) * se, m + t95(k - 1) * se,
		p, (sw_t975(k - 1) + 0.8416) * se);
}

/*
 * The winner's curse: the best point is picked after the run, so "pt lies
 * below the best" is wrong more often than 1 in 40. The runs of each
 * repetition that has every sweep point are shuffled among the points
 * (fixed seed), which keeps the noise and takes every point's effect away;
 * the share of shuffles in which pt's interval lies wholly below the best
 * is that error rate for this run.
 */
static void chance(const struct sw_data *d, double t[][SW_MAXREPS],
		   int tn[][SW_MAXREPS], int pt, int ref, FILE *out)
{
	static double v[SW_MAXREPS][SW_MAXPTS], x[SW_MAXPTS][SW_MAXREPS];
	int sp[SW_MAXPTS], ns = 0, nr = 0, i, j, r, s, best, below = 0, all;
	int rs = -1;
	unsigned long long rng = 88172645463325252ULL;
	double m, h, bm, tmp;
	const int shuffles = 1000;

	for (i = 0; i < d->npts; i++)
		if (sweep_point(d, i)) {
			rs = i == ref ? ns : rs;
			sp[ns++] = i;
		}
	if (rs < 0 || pt == ref) {
		fprintf(out, "chance: %s is not a point of the sweep other than the reference\n",
			d->name[pt]);
		return;
	}
	for (r = 0; r < d->nreps; r++) {
		for (all = 1, i = 0; i < ns; i++)
			all &= tn[sp[i]][r] > 0;
		if (!all)
			continue;
		for (i = 0; i < ns; i++)
			v[nr][i] = t[sp[i]][r] / tn[sp[i]][r];
		nr++;
	}
	if (nr < 2) {
		fprintf(out, "chance: %d reps have every point of the sweep; 2 needed\n", nr);
		return;
	}
	for (s = 0; s < shuffles; s++) {
		for (r = 0; r < nr; r++)
			for (i = ns - 1; i > 0; i--) {
				rng ^= rng << 13;
				rng ^= rng >> 7;
				rng ^= rng << 17;
				j = rng % (i + 1);
				tmp = v[r][i];
				v[r][i] = v[r][j];
				v[r][j] = tmp;
			}
		for (i = 0; i < d->npts; i++)
			for (r = 0; r < d->nreps; r++)
				x[i][r] = -1;
		for (i = 0; i < ns; i++)
			for (r = 0; r < nr; r++)
				x[sp[i]][r] = 100 * v[r][i] / v[r][rs];
		for (best = -1, bm = 0, i = 0; i < ns; i++) {
			pair(d, x, sp[i], -1, &m, &h);
			if (best < 0 || m > bm) {
				best = sp[i];
				bm = m;
			}
		}
		if (best != pt) {
			pair(d, x, pt, best, &m, &h);
			below += m + h < 0;
		}
	}
	fprintf(out, "chance: with each rep's runs shuffled among the %d points of the sweep (%d reps with every point, %d shuffles, no point effect left), %s lies wholly below the best in %.1f %% of them\n",
		ns, nr, shuffles, d->name[pt], 100.0 * below / shuffles);
}

/*
 * Print the table, the best point, the points inside its interval, and
 * whether the best point beats every other point after Holm's correction;
 * only then the line to paste. 1 resolved, 0 not, -1 when the runs
 * cannot be compared.
 */
int sw_report(const struct sw_data *d, const struct sw_opts *opt, FILE *out)
{
	static double t[SW_MAXPTS][SW_MAXREPS], x[SW_MAXPTS][SW_MAXREPS];
	static int tn[SW_MAXPTS][SW_MAXREPS];
	double pos[SW_MAXREPS] = { 0 }, slope, m, h, bm = 0;
	double pv[SW_MAXPTS] = { 0 }, adj[SW_MAXPTS] = { 0 }, worst = 0;
	int i, j, k, p, r, ref, best = -1, rows[SW_MAXPTS], cmp[SW_MAXPTS];
	int nc = 0, nrej, ca[SW_MAXPTS], cb[SW_MAXPTS], up, upin, pin, mig, ch = -1;
	int few = 0;
	const struct sw_opts none = { .ncompare = 0 };
	const struct sw_run *u;
	char lab[40], inside[512] = "", a[24];

	opt = opt ? opt : &none;
	ref = point_at(d, d->ref);
	if (ref < 0) {
		fprintf(stderr, "no runs of the reference point %s (us)\n",
			d->ref);
		return -1;
	}
	/* the questions asked before the run must name points of it */
	for (i = 0; i < opt->ncompare; i++) {
		const char *dash = strchr(opt->compare[i], '-');

		snprintf(a, sizeof(a), "%.*s", dash ? (int)(dash - opt->compare[i]) : 0,
			 opt->compare[i]);
		ca[i] = dash ? point_at(d, a) : -1;
		cb[i] = dash ? point_at(d, dash + 1) : -1;
		if (ca[i] < 0 || cb[i] < 0 || ca[i] == cb[i]) {
			fprintf(stderr, "--compare %s: not A-B of two points of the runs\n",
				opt->compare[i]);
			return -1;
		}
	}
	if (opt->chance) {
		ch = point_at(d, opt->chance);
		if (ch < 0) {
			fprintf(stderr, "--chance %s: no such point in the runs\n",
				opt->chance);
			return -1;
		}
	}
	slope = opt->drift == SW_DRIFT_OFF ? NAN : drift(d, pos, opt->drift, &few);
	/* move every run to its repetition's mean position, then pair */
	memset(t, 0, sizeof(t));
	memset(tn, 0, sizeof(tn));
	for (u = d->run; u < d->run + d->nruns; u++)
		if (u->tp > 0) {
			t[u->pt][u->rep] += u->tp * (isnan(slope) ||
				u->unpatched ? 1 :
				exp(-slope * (u->seq - pos[u->rep])));
			tn[u->pt][u->rep]++;
		}
	for (p = 0; p < d->npts; p++)
		for (r = 0; r < d->nreps; r++)
			x[p][r] = tn[p][r] && tn[ref][r] ? 100 * t[p][r] /
				tn[p][r] / (t[ref][r] / tn[ref][r]) : -1;
	/*
	 * The unpatched kernel runs in boots of its own, and boots differ as a
	 * whole. Where both boots of a repetition ran the pinned workload,
	 * which no scheduler decision touches, it is the bridge: unpatched /
	 * its pinned run, against the reference / the patched pinned run.
	 */
	up = point_at(d, "unpatched");
	upin = point_at(d, "upin");
	pin = point_at(d, "pin");
	mig = point_at(d, "mig");
	for (r = 0; up >= 0 && upin >= 0 && pin >= 0 && r < d->nreps; r++)
		if (x[up][r] >= 0 && tn[upin][r] && tn[pin][r] && t[upin][r] > 0 &&
		    t[pin][r] > 0)
			x[up][r] = 100 * (t[up][r] / tn[up][r]) /
				(t[upin][r] / tn[upin][r]) /
				((t[ref][r] / tn[ref][r]) / (t[pin][r] / tn[pin][r]));
	for (p = 0; p < d->npts; p++)
		if (sweep_point(d, p) && pair(d, x, p, -1, &m, &h) &&
		    (best < 0 || m > bm)) {
			best = p;
			bm = m;
		}
	if (best < 0) {
		fprintf(stderr, "no repetition has the reference point\n");
		return -1;
	}
	if (opt->drift == SW_DRIFT_OFF)
		fprintf(out, "drift: not fitted, not removed (--drift off)\n");
	else if (few)
		fprintf(out, "drift: not removed (too few runs: a slope would leave fewer degrees of freedom than repetitions)\n");
	else if (isnan(slope))
		fprintf(out, "drift: not removed (the runs' order is not known)\n");
	else if (opt->drift == SW_DRIFT_SWEEP)
		fprintf(out, "drift: %+.2f %% a run, fitted on the sweep's points and the A/A run (--drift sweep), removed before the pairing\n",
			100 * (exp(slope) - 1));
	else
		fprintf(out, "drift: %+.2f %% a run, removed before the pairing\n",
			100 * (exp(slope) - 1));
	label(d, ref, lab, sizeof(lab));
	fprintf(out, "columns: mean throughput; %% of the rep's %s run +- 95 %%; paired difference to the best\n",
		lab);
	strcat(lab, " = 100");
	fprintf(out, "%-22s %4s %10s %16s %22s %6s %10s %10s\n", "point",
		"reps", "throughput", lab, "vs best", "idle %", "refused/s",
		"moved/s");
	for (i = 0; i < d->npts; i++)	/* insertion sort by row_key */
		for (rows[i] = i, j = i; j > 0 &&
		     row_key(d, rows[j]) < row_key(d, rows[j - 1]); j--) {
			k = rows[j];
			rows[j] = rows[j - 1];
			rows[j - 1] = k;
		}
	if (opt->summary)
		fprintf(opt->summary, "point,label,us,reps,mean,ci95_half,sd,vs_best,vs_best_half,idle_pct,hot_refused_per_s,hot_moved_per_s\n");
	for (i = 0; i < d->npts; i++)
		if (rows[i] != upin)
			row(d, x, rows[i], best, inside, opt->summary, out);
	p = point_at(d, "aa");
	if (p >= 0) {
		k = pair(d, x, p, ref, &m, &h);
		label(d, ref, lab, sizeof(lab));
		fprintf(out, "A/A: %s again - %s: %+.1f +- %.1f (95 %%, %d reps): %s\n",
			lab, lab, m, h, k, k < 2 ? "too few reps" :
			(m - h > 0 || m + h < 0) ?
			"NOT ZERO: the intervals are too narrow (drift or order effects)" :
			"contains 0, as it must (the noise floor)");
		aa_placement(d, p, ref, out);
	}
	if (pin >= 0 && mig >= 0) {
		k = pair(d, x, pin, mig, &m, &h);
		fprintf(out, "control: pin - mig = %+.1f +- %.1f (95 %%, %d reps): %s\n",
			m, h, k, k > 1 && (m - h > 0 || m + h < 0) ?
			"the instrument sees a known effect" :
			"NO DIFFERENCE SEEN: this run cannot judge the points");
	}
	for (i = 0; i < opt->ncompare; i++)
		compare(d, x, ca[i], cb[i], out);
	if (ch >= 0)
		chance(d, t, tn, ch, ref, out);
	k = pair(d, x, best, -1, &m, &h);
	label(d, best, lab, sizeof(lab));
	fprintf(out, "best point: %s, %.1f +- %.1f (95 %%, %d reps)\n", lab, m,
		h, k);
	fprintf(out, "inside its interval (paired difference includes 0): %s\n",
		*inside ? inside : "none");
	/* the best point against each other point: a paired t test each */
	for (p = 0; p < d->npts; p++) {
		if (p == best || !sweep_point(d, p))
			continue;
		k = pair(d, x, best, p, &m, &h);
		if (k < 2 || m <= 0)
			pv[nc] = 1;
		else if (h == 0)
			pv[nc] = 0;
		else
			pv[nc] = sw_t_p(m / (h / sw_t975(k - 1)), k - 1);
		cmp[nc++] = p;
	}
	nrej = sw_holm(pv, nc, 0.05, adj);
	fprintf(out, "multiplicity: Holm-Bonferroni over the %d comparisons of the best point with each other point (paired t, two-sided, 5 %% family-wise)\n",
		nc);
	if (nc && nrej == nc) {
		for (i = 0; i < nc; i++)
			worst = adj[i] > worst ? adj[i] : worst;
		label(d, best, lab, sizeof(lab));
		fprintf(out, "resolved: %s beats every other point (largest adjusted p %.2g)\n",
			lab, worst);
	} else {
		*inside = 0;
		for (i = 0; i < nc && strlen(inside) < 400; i++) {
			if (adj[i] <= 0.05)
				continue;
			label(d, cmp[i], lab, sizeof(lab));
			sprintf(inside + strlen(inside), "%s%s (adjusted p %.2g)",
				*inside ? ", " : "", lab, adj[i]);
		}
		label(d, best, lab, sizeof(lab));
		fprintf(out, "not resolved: %s does not beat %s: no line to paste (more --reps, or a longer --run)\n",
			lab, *inside ? inside : "every other point");
		return 0;
	}
	if (d->partial) {
		fprintf(out, "stopped early: the order is balanced over whole pairs of repetitions only: no line to paste\n");
		return 0;
	}
	if (value_us(d, best) < 0) {
		fprintf(out, "no line to paste: the runs do not say %s's value\n",
			d->name[best]);
		return 1;
	}
	paste(d, value_us(d, best), out);
	return 1;
}
