// SPDX-License-Identifier: GPL-2.0
/* guestlib.c: the guests' shared helpers (guestlib.h says who uses them) */
#ifdef GUESTLIB_RT
#include "rt.h"
#else
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#endif
#include "guestlib.h"

/* key of boot.sh's word chk=hz:<HZ>,cpus:<n>,...: its value, or def */
long chk_long(const char *key, long def)
{
	const char *p = getenv("chk");
	size_t n = strlen(key);

	for (; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, key, n) && p[n] == ':')
			return strtol(p + n + 1, NULL, 10);
	return def;
}

/* Read a whole (small) file; returns its length or -1 with errno set. */
int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY), n, len = 0;

	if (fd < 0)
		return -1;
	while ((size_t)len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = 0;
	return len;
}

/* A sysctl's value in us: a number and a newline, else -1 */
long read_us(const char *path)
{
	char buf[64], *end;
	long v;

	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	v = strtol(buf, &end, 10);
	return end == buf || strcmp(end, "\n") ? -1 : v;
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
