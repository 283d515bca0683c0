// SPDX-License-Identifier: GPL-2.0
/*
 * The formatting, parsing and string functions of guestlib/rt-lib.c (the
 * ia64 guest's C library), compiled with rt_ names beside glibc, against
 * glibc's answers for the same calls: every format and conversion the
 * guests use, and their edges.  Prints PASS/FAIL lines and the count.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rt_snprintf(char *, size_t, const char *, ...);
int rt_sscanf(const char *, const char *, ...);
long rt_strtol(const char *, char **, int);
unsigned long rt_strtoul(const char *, char **, int);
unsigned long long rt_strtoull(const char *, char **, int);
char *rt_strstr(const char *, const char *);
size_t rt_strcspn(const char *, const char *);
char *rt_strtok_r(char *, const char *, char **);
char *rt_strrchr(const char *, int);
char *rt_strchr(const char *, int);
int rt_strcmp(const char *, const char *);
int rt_strncmp(const char *, const char *, size_t);
int rt_memcmp(const void *, const void *, size_t);
void *rt_memchr(const void *, int, size_t);
char *rt_getenv(const char *);
char *rt_strdup(const char *);
extern char **rt_environ;
int rt_errno;

void *rt_malloc(size_t n) { return malloc(n); }

static int passed, failed;

static void check(int ok, const char *what, const char *got, const char *want)
{
	if (ok) {
		passed++;
		return;
	}
	failed++;
	printf("FAIL %s: got '%s', want '%s'\n", what, got, want);
}

/* the same format, with the same arguments, through both */
#define FMT(...) do {							\
	char a[256], b[256];						\
	int na = rt_snprintf(a, sizeof(a), __VA_ARGS__);		\
	int nb = snprintf(b, sizeof(b), __VA_ARGS__);			\
	check(na == nb && !strcmp(a, b), "snprintf " #__VA_ARGS__, a, b); \
} while (0)

/* sscanf with one or two outputs of type T, compared field by field */
#define SCAN1(T, s, f) do {						\
	T x = 0, y = 0;							\
	int na = rt_sscanf(s, f, &x), nb = sscanf(s, f, &y);		\
	char ga[64], gb[64];						\
	snprintf(ga, sizeof(ga), "%d %lld", na, (long long)x);		\
	snprintf(gb, sizeof(gb), "%d %lld", nb, (long long)y);		\
	check(!strcmp(ga, gb), "sscanf '" s "' '" f "'", ga, gb);	\
} while (0)
#define SCAN_N(s, f) do {						\
	int x = 0, y = 0, k = -1, l = -1;				\
	int na = rt_sscanf(s, f, &x, &k), nb = sscanf(s, f, &y, &l);	\
	char ga[64], gb[64];						\
	snprintf(ga, sizeof(ga), "%d %d %d", na, x, k);			\
	snprintf(gb, sizeof(gb), "%d %d %d", nb, y, l);			\
	check(!strcmp(ga, gb), "sscanf '" s "' '" f "'", ga, gb);	\
} while (0)

#define NUM(fn, rtfn, T, pf, s, base) do {				\
	char *ea, *eb, ga[96], gb[96];					\
	int erra, errb;							\
	T va, vb;							\
	rt_errno = 0; errno = 0;					\
	va = rtfn(s, &ea, base); erra = rt_errno;			\
	vb = fn(s, &eb, base); errb = errno;				\
	snprintf(ga, sizeof(ga), pf " +%d %d", va, (int)(ea - s), erra); \
	snprintf(gb, sizeof(gb), pf " +%d %d", vb, (int)(eb - s), errb); \
	char nm[96];							\
	snprintf(nm, sizeof(nm), #fn " '%s' base %d", s, base);	\
	check(!strcmp(ga, gb), nm, ga, gb);				\
} while (0)

int main(void)
{
	static const char *const nums[] = {
		"0", "10", "-1", "+5", " 25\n", "010", "0x10", "0X1f", "0x",
		"abc", "", "4000000", "99999999999999999999", "-9223372036854775808",
		"9223372036854775807", "9223372036854775808", "18446744073709551615",
		"18446744073709551616", "-18446744073709551615", "12ms", "1e3", "08",
	};
	static const int bases[] = { 0, 10, 16 };
	unsigned i, j;

	FMT("%s|%d|%ld|%lu|%u", "x", -42, -9000000000L, 18446744073709551615UL, 4000000000U);
	FMT("%zd %zu %llu %lld", (ssize_t)-3, (size_t)7, 18446744073709551615ULL, -1LL);
	FMT("[%.*s] [%.60s] [%.3s] [%10s] [%-6s|]", 3, "abcdef", "short", "abcdef", "r", "l");
	FMT("%#lx %#x %x %X %o %#o %p", 0x1fUL, 0, 255, 255, 8, 8, (void *)0x1234);
	FMT("%5d|%-5d|%05d|%+d|% d|%.3d|%.0d|%5.3d", 42, 42, -42, 3, 3, 7, 0, -7);
	FMT("%.0f %.0f %.0f %.1f %.3f %f %8.2f %-8.1f|", 0.0, 1234.49, -12.5001, 2.25, 3.14159, 1e6 / 3, -1.5, 2.0);
	FMT("%c%c %% %5c|", 'G', 'P', 'x');
	FMT("%.0f %.0f %.0f %.0f", 0.5, 1.5, 2.5, -3.5);
	FMT("GUEST FAIL %s: %s (%zd bytes)", "name", "why", (ssize_t)12);
	{
		char small[5];
		int n = rt_snprintf(small, sizeof(small), "%s", "abcdefgh");

		check(n == 8 && !strcmp(small, "abcd"), "snprintf truncates, returns the full length", small, "abcd");
	}

	SCAN1(long, "cache_decay_ticks=10, HZ=32", "cache_decay_ticks=%ld");
	SCAN1(long, "cache_decay_ticks=x", "cache_decay_ticks=%ld");
	SCAN1(long, "1 msecs.", "%ld msecs.");
	SCAN1(long, "", "%ld");
	SCAN1(long, "   ", "%ld");
	SCAN1(int, "0 10000000 10000000", "%d");
	SCAN1(int, "cpu3 1 2 3", "cpu%d ");
	SCAN1(int, "cpuX 1 2 3", "cpu%d ");
	SCAN1(int, "cp", "cpu%d ");
	SCAN_N("version 10", "version %d%n");
	SCAN_N("version 10 extra", "version %d%n");
	SCAN_N("version", "version %d%n");
	{
		int da = -1, db = -1, ka = -1, kb = -1;
		char ma[40] = "", mb[40] = "", ga[96], gb[96];
		const char *line = "domain1 0000000f 1 2 3";
		int na = rt_sscanf(line, "domain%d %39s%n", &da, ma, &ka);
		int nb = sscanf(line, "domain%d %39s%n", &db, mb, &kb);

		snprintf(ga, sizeof(ga), "%d %d %s %d", na, da, ma, ka);
		snprintf(gb, sizeof(gb), "%d %d %s %d", nb, db, mb, kb);
		check(!strcmp(ga, gb), "sscanf domain line", ga, gb);
	}

	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		for (j = 0; j < sizeof(bases) / sizeof(bases[0]); j++) {
			NUM(strtol, rt_strtol, long, "%ld", nums[i], bases[j]);
			NUM(strtoul, rt_strtoul, unsigned long, "%lu", nums[i], bases[j]);
			NUM(strtoull, rt_strtoull, unsigned long long, "%llu", nums[i], bases[j]);
		}

	{
		const char *hay = "sched: cache_hot_time SMP level: 10000 us";
		char buf[64], *save, *t1, *t2, *t3, *d = rt_strdup("a b");

		check(rt_strstr(hay, "SMP level") == strstr(hay, "SMP level") &&
		      rt_strstr(hay, "NUMA") == NULL && rt_strstr(hay, "") == hay,
		      "strstr", "", "");
		check(rt_strcspn("abc def", " \n") == 3 && rt_strcspn("", "x") == 0,
		      "strcspn", "", "");
		check(rt_strrchr("a)b)c", ')') == strrchr("a)b)c", ')') &&
		      rt_strchr("abc", 0) == strchr("abc", 0), "strchr/strrchr", "", "");
		check(rt_strcmp("abc", "abd") < 0 && rt_strncmp("abc", "abd", 2) == 0 &&
		      rt_memcmp("us", "ms", 2) > 0 && rt_memchr("a,b", ',', 3) != NULL,
		      "compare", "", "");
		strcpy(buf, "\nl1\n\nl2\n");
		t1 = rt_strtok_r(buf, "\n", &save);
		t2 = rt_strtok_r(NULL, "\n", &save);
		t3 = rt_strtok_r(NULL, "\n", &save);
		check(t1 && t2 && !strcmp(t1, "l1") && !strcmp(t2, "l2") && !t3,
		      "strtok_r", t1 ? t1 : "(null)", "l1");
		check(d && !strcmp(d, "a b"), "strdup", d ? d : "(null)", "a b");
		free(d);
	}
	{
		char *env[] = { "chk=hz:32,cpus:1", "HOME=/", NULL };
		const char *v;

		rt_environ = env;
		v = rt_getenv("chk");
		check(v && !strcmp(v, "hz:32,cpus:1") && !rt_getenv("ch") &&
		      !rt_getenv("PATH"), "getenv", v ? v : "(null)", "hz:32,cpus:1");
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
