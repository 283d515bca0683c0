// SPDX-License-Identifier: GPL-2.0
/* the guest's helpers: the checks' lines, chk= keys, files, the knobs */
#include "guest.h"

int passed, failed;
/*
 * chk=mc:1, a kernel with a multi-core level (RHEL 4's CONFIG_SCHED_MC)
 * that prunes levels of one group: a CPU's domains are not a fixed list
 * of levels, so each domain is checked by its value (see domain_ok())
 */
int mc_mode;
char klog[1 << 18];

void check(int ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("GUEST PASS %s\n", name);
		passed++;
		return;
	}
	printf("GUEST FAIL %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failed++;
}

/* The value of key in the host's chk= word, or def */
long env_long(const char *key, long def)
{
	const char *p = getenv("chk");
	size_t n = strlen(key);

	while (p && *p) {
		if (!strncmp(p, key, n) && p[n] == ':')
			return strtol(p + n + 1, NULL, 10);
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return def;
}

/* Read a whole (small) file; returns its length or -1 with errno set. */
int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY), n, len = 0;

	if (fd < 0)
		return -1;
	while (len < (int)size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = 0;
	return len;
}

/* Value of a sysctl in us, or -1 */
long read_us(const char *path)
{
	char buf[64];
	char *end;
	long v;

	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	v = strtol(buf, &end, 10);
	if (end == buf || strcmp(end, "\n"))
		return -1;
	return v;
}

/* write(2) the bytes of s (len of them) in one call; 0 or errno */
int write_raw(const char *path, const char *s, size_t len)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, s, len) != (ssize_t)len)
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

int write_str(const char *path, const char *s)
{
	return write_raw(path, s, strlen(s));
}
