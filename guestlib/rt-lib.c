// SPDX-License-Identifier: GPL-2.0
/*
 * rt-lib.c: the part of the freestanding C library (rt.h) that makes no
 * system call: strings, numbers, formatting and parsing.  Each function
 * does what C99 says for the cases the guests use; tests/guestlib-rt.sh
 * holds the formatting and parsing to glibc's answers on the host.
 */
#include "rt.h"

char **environ;

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return p - s;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++)
		if (*a != *b || !*a)
			return (unsigned char)*a - (unsigned char)*b;
	return 0;
}

int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, (size_t)-1);
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

char *strstr(const char *s, const char *needle)
{
	size_t n = strlen(needle);

	for (; *s; s++)
		if (!strncmp(s, needle, n))
			return (char *)s;
	return *needle ? NULL : (char *)s;
}

size_t strcspn(const char *s, const char *reject)
{
	size_t n = 0;

	while (s[n] && !strchr(reject, s[n]))
		n++;
	return n;
}

char *strtok_r(char *s, const char *delim, char **save)
{
	char *end;

	if (!s)
		s = *save;
	while (*s && strchr(delim, *s))
		s++;
	if (!*s) {
		*save = s;
		return NULL;
	}
	end = s + strcspn(s, delim);
	*save = *end ? end + 1 : end;
	*end = 0;
	return s;
}

char *strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	return d ? memcpy(d, s, n) : NULL;
}

void *memset(void *d, int c, size_t n)
{
	unsigned char *p = d;

	while (n--)
		*p++ = (unsigned char)c;
	return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
	unsigned char *p = d;
	const unsigned char *q = s;

	while (n--)
		*p++ = *q++;
	return d;
}

void *memmove(void *d, const void *s, size_t n)
{
	unsigned char *p = d;
	const unsigned char *q = s;

	if (p <= q)
		return memcpy(d, s, n);
	while (n--)
		p[n] = q[n];
	return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n; n--, p++, q++)
		if (*p != *q)
			return *p - *q;
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; n--, p++)
		if (*p == (unsigned char)c)
			return (void *)p;
	return NULL;
}

int isdigit(int c)
{
	return c >= '0' && c <= '9';
}

int isspace(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static int digit_value(int c)
{
	if (isdigit(c))
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return 99;
}

/*
 * The digits of strtoull() and friends: *neg set by a sign, the magnitude
 * saturated at ULLONG_MAX (*over set), *end after the last digit (s if
 * none).  Base 0: 0x hex, 0 octal, else decimal.
 */
static unsigned long long parse_digits(const char *s, char **end, int base,
				       int *neg, int *over)
{
	const char *p = s;
	unsigned long long v = 0;
	int d, any = 0;

	*neg = *over = 0;
	while (isspace(*p))
		p++;
	if (*p == '-' || *p == '+')
		*neg = *p++ == '-';
	if ((base == 0 || base == 16) && p[0] == '0' &&
	    (p[1] == 'x' || p[1] == 'X') && digit_value(p[2]) < 16) {
		p += 2;
		base = 16;
	} else if (base == 0) {
		base = *p == '0' ? 8 : 10;
	}
	for (; (d = digit_value(*p)) < base; p++, any = 1) {
		if (v > (~0ULL - d) / base)
			*over = 1;
		v = v * base + d;
	}
	if (end)
		*end = (char *)(any ? p : s);
	return *over ? ~0ULL : v;
}

unsigned long long strtoull(const char *s, char **end, int base)
{
	int neg, over;
	unsigned long long v = parse_digits(s, end, base, &neg, &over);

	if (over)
		errno = ERANGE;
	return neg && !over ? -v : v;
}

unsigned long strtoul(const char *s, char **end, int base)
{
	int neg, over;
	unsigned long long v = parse_digits(s, end, base, &neg, &over);

	if (over || v > (unsigned long)-1) {
		errno = ERANGE;
		return (unsigned long)-1;
	}
	return neg ? -(unsigned long)v : (unsigned long)v;
}

long strtol(const char *s, char **end, int base)
{
	int neg, over;
	unsigned long long v = parse_digits(s, end, base, &neg, &over);
	unsigned long long lim = neg ? 1ULL + ~0UL / 2 : ~0UL / 2;

	if (over || v > lim) {
		errno = ERANGE;
		return neg ? (long)(~0UL / 2) * -1 - 1 : (long)(~0UL / 2);
	}
	return neg ? (long)(0 - v) : (long)v;
}

/* ---- vsnprintf ---- */

struct out {
	char *buf;
	size_t size, len;	/* len counts what would have been written */
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void pad(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

/*
 * One converted field: prefix (sign, 0x), zeros, body, padded to width
 * left or right
 */
static void field(struct out *o, const char *prefix, int zeros,
		  const char *body, int len, int width, int left, int zpad)
{
	int plen = strlen(prefix), total = plen + zeros + len;

	if (zpad && !left && width > total) {
		zeros += width - total;
		total = width;
	}
	if (!left)
		pad(o, ' ', width - total);
	while (*prefix)
		put(o, *prefix++);
	pad(o, '0', zeros);
	while (len-- > 0)
		put(o, *body++);
	if (left)
		pad(o, ' ', width - total);
}

/* The digits of v in base, into the end of tmp; their start */
static char *utoa(unsigned long long v, int base, int upper, char *end)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";

	*end = 0;
	do
		*--end = digits[v % base];
	while (v /= base);
	return end;
}

/* %f: at most 18 digits of precision and an integer part below 2^64 */
static void fmt_double(struct out *o, double v, int prec, int width,
		       int left, int zpad, const char *sign)
{
	char num[72], *p = num + sizeof(num) - 1;
	unsigned long long ip, scale = 1, frac;
	int i;

	if (prec < 0)
		prec = 6;
	if (prec > 18)
		prec = 18;
	if (v < 0) {
		v = -v;
		sign = "-";
	}
	for (i = 0; i < prec; i++)
		scale *= 10;
	ip = (unsigned long long)v;
	{
		double r = (v - (double)ip) * scale, rest;

		frac = (unsigned long long)r;
		rest = r - (double)frac;
		/* to nearest, ties to even (as glibc: 2.25 is "2.2") */
		if (rest > 0.5 || (rest == 0.5 && ((prec ? frac : ip) & 1)))
			frac++;
	}
	if (frac >= scale) {
		frac -= scale;
		ip++;
	}
	*p = 0;
	for (i = 0; i < prec; i++, frac /= 10)
		*--p = '0' + frac % 10;
	if (prec)
		*--p = '.';
	do
		*--p = '0' + ip % 10;
	while (ip /= 10);
	field(o, sign, 0, p, strlen(p), width, left, zpad);
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };
	char tmp[72];

	for (; *fmt; fmt++) {
		int left = 0, zpad = 0, alt = 0, width = 0, prec = -1, len = 0;
		const char *sign = "";
		unsigned long long u;
		long long s;
		char *body;

		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		for (;; fmt++) {
			if (fmt[1] == '-')
				left = 1;
			else if (fmt[1] == '0')
				zpad = 1;
			else if (fmt[1] == '#')
				alt = 1;
			else if (fmt[1] == '+')
				sign = "+";
			else if (fmt[1] == ' ' && !*sign)
				sign = " ";
			else
				break;
		}
		fmt++;
		if (*fmt == '*') {
			width = va_arg(ap, int);
			if (width < 0) {
				left = 1;
				width = -width;
			}
			fmt++;
		} else {
			while (isdigit(*fmt))
				width = width * 10 + *fmt++ - '0';
		}
		if (*fmt == '.') {
			fmt++;
			prec = 0;
			if (*fmt == '*') {
				prec = va_arg(ap, int);
				fmt++;
			} else {
				while (isdigit(*fmt))
					prec = prec * 10 + *fmt++ - '0';
			}
		}
		for (;; fmt++) {
			if (*fmt == 'l')
				len++;
			else if (*fmt == 'z' || *fmt == 't' || *fmt == 'j')
				len = 2;
			else if (*fmt != 'h')
				break;
		}
		switch (*fmt) {
		case 'd':
		case 'i':
			s = len >= 2 ? va_arg(ap, long long) :
				len ? va_arg(ap, long) : va_arg(ap, int);
			u = s < 0 ? 0 - (unsigned long long)s : (unsigned long long)s;
			if (s < 0)
				sign = "-";
			body = utoa(u, 10, 0, tmp + sizeof(tmp) - 1);
			goto number;
		case 'u':
		case 'x':
		case 'X':
		case 'o':
		case 'p':
			if (*fmt == 'p') {
				u = (unsigned long)va_arg(ap, void *);
				alt = 1;
			} else {
				u = len >= 2 ? va_arg(ap, unsigned long long) :
					len ? va_arg(ap, unsigned long) :
					va_arg(ap, unsigned int);
			}
			sign = "";
			body = utoa(u, *fmt == 'u' ? 10 : *fmt == 'o' ? 8 : 16,
				    *fmt == 'X', tmp + sizeof(tmp) - 1);
			if (alt && u && *fmt != 'u')
				sign = *fmt == 'o' ? "0" : *fmt == 'X' ? "0X" :
					"0x";
number:
			{
				int n = strlen(body), zeros = 0;

				if (prec >= 0) {
					zpad = 0;
					if (prec > n)
						zeros = prec - n;
					else if (!prec && !u)
						n = 0;
				}
				field(&o, sign, zeros, body, n, width, left, zpad);
			}
			break;
		case 'c':
			tmp[0] = (char)va_arg(ap, int);
			field(&o, "", 0, tmp, 1, width, left, 0);
			break;
		case 's':
			body = va_arg(ap, char *);
			if (!body)
				body = "(null)";
			for (len = 0; (prec < 0 || len < prec) && body[len]; len++)
				;
			field(&o, "", 0, body, len, width, left, 0);
			break;
		case 'f':
			fmt_double(&o, va_arg(ap, double), prec, width, left,
				   zpad, sign);
			break;
		case '%':
			put(&o, '%');
			break;
		default:	/* unknown: print it as it is */
			put(&o, '%');
			if (*fmt)
				put(&o, *fmt);
			else
				fmt--;
		}
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = 0;
	return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/* ---- vsscanf: literals, white space, %d %i %u %x %o %s %c %n %% ---- */

int vsscanf(const char *s, const char *fmt, va_list ap)
{
	const char *start = s;
	int assigned = 0;

	for (; *fmt; fmt++) {
		int skip = 0, width = 0, len = 0, base;
		char *end;

		if (isspace(*fmt)) {
			while (isspace(*s))
				s++;
			continue;
		}
		if (*fmt != '%' || fmt[1] == '%') {
			if (*fmt == '%') {
				fmt++;
				while (isspace(*s))
					s++;
			}
			if (!*s)
				goto input_failure;
			if (*s != *fmt)
				return assigned;
			s++;
			continue;
		}
		fmt++;
		if (*fmt == '*') {
			skip = 1;
			fmt++;
		}
		while (isdigit(*fmt))
			width = width * 10 + *fmt++ - '0';
		for (; *fmt == 'l' || *fmt == 'h' || *fmt == 'z'; fmt++)
			len += *fmt == 'l' ? 1 : *fmt == 'z' ? 2 : 0;
		switch (*fmt) {
		case 'n':
			if (!skip)
				*va_arg(ap, int *) = (int)(s - start);
			continue;
		case 'c':
			if (!*s)
				goto input_failure;
			if (!skip) {
				*va_arg(ap, char *) = *s;
				assigned++;
			}
			s++;
			continue;
		case 's':
			while (isspace(*s))
				s++;
			if (!*s)
				goto input_failure;
			{
				char *d = skip ? NULL : va_arg(ap, char *);
				int n = 0;

				while (*s && !isspace(*s) && (!width || n < width)) {
					if (d)
						d[n] = *s;
					n++;
					s++;
				}
				if (d) {
					d[n] = 0;
					assigned++;
				}
			}
			continue;
		case 'd':
			base = 10;
			break;
		case 'i':
			base = 0;
			break;
		case 'u':
			base = 10;
			break;
		case 'x':
			base = 16;
			break;
		case 'o':
			base = 8;
			break;
		default:
			return assigned;
		}
		while (isspace(*s))
			s++;
		if (!*s)
			goto input_failure;
		{
			char digits[72];
			const char *from = s;
			unsigned long long v;

			if (width) {	/* at most width characters */
				int n = 0;

				while (s[n] && n < width && n < 71) {
					digits[n] = s[n];
					n++;
				}
				digits[n] = 0;
				from = digits;
			}
			/* LP64 (ia64): long is as wide as long long */
			if (*fmt == 'd' || *fmt == 'i')
				v = (unsigned long long)strtol(from, &end, base);
			else
				v = strtoul(from, &end, base);
			if (end == from)
				return assigned;
			s += end - from;
			if (skip)
				continue;
			if (len >= 2)
				*va_arg(ap, unsigned long long *) = v;
			else if (len == 1)
				*va_arg(ap, unsigned long *) = (unsigned long)v;
			else
				*va_arg(ap, unsigned int *) = (unsigned int)v;
			assigned++;
		}
	}
	return assigned;
input_failure:
	return assigned ? assigned : -1;
}

int sscanf(const char *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsscanf(s, fmt, ap);
	va_end(ap);
	return n;
}

/* ---- the environment and errors ---- */

char *getenv(const char *name)
{
	size_t n = strlen(name);
	char **e;

	for (e = environ; e && *e; e++)
		if (!strncmp(*e, name, n) && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

char *strerror(int err)
{
	static const struct {
		int err;
		const char *text;
	} known[] = {
		{ 0, "No error information" },
		{ EPERM, "Operation not permitted" },
		{ ENOENT, "No such file or directory" },
		{ EINTR, "Interrupted system call" },
		{ EIO, "I/O error" },
		{ ECHILD, "No child process" },
		{ EAGAIN, "Resource temporarily unavailable" },
		{ ENOMEM, "Out of memory" },
		{ EACCES, "Permission denied" },
		{ EFAULT, "Bad address" },
		{ EBUSY, "Resource busy" },
		{ EEXIST, "File exists" },
		{ ENODEV, "No such device" },
		{ EINVAL, "Invalid argument" },
		{ ENOTTY, "Not a tty" },
		{ ERANGE, "Result not representable" },
		{ ENOSYS, "Function not implemented" },
	};
	static char other[32];
	unsigned i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (known[i].err == err)
			return (char *)known[i].text;
	snprintf(other, sizeof(other), "error %d", err);
	return other;
}
