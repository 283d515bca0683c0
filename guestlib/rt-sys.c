// SPDX-License-Identifier: GPL-2.0
/*
 * rt-sys.c: the part of the freestanding C library (rt.h) that talks to
 * the kernel: system calls through rt-ARCH.S's __rt_syscall(), memory from
 * mmap(2), and stdout written a line at a time.  Numbers and structures
 * are Linux 2.6.9's for ia64 (include/asm-ia64/unistd.h: ia64 has no
 * fork(2) or waitpid(2), only clone(2) and wait4(2)).
 */
#include "rt.h"

#define NR_exit			1025
#define NR_read			1026
#define NR_write		1027
#define NR_open			1028
#define NR_close		1029
#define NR_lseek		1040
#define NR_getpid		1041
#define NR_mount		1043
#define NR_setuid		1045
#define NR_access		1049
#define NR_sync			1050
#define NR_kill			1053
#define NR_mkdir		1055
#define NR_setgid		1061
#define NR_ioctl		1065
#define NR_gettimeofday		1087
#define NR_reboot		1096
#define NR_syslog		1117
#define NR_wait4		1126
#define NR_clone		1128
#define NR_pwrite64		1149
#define NR_mmap			1151
#define NR_munmap		1152
#define NR_nanosleep		1168
#define NR_sched_setaffinity	1231
#define NR_sched_getaffinity	1232
#define NR_exit_group		1236
#define NR_clock_gettime	1254

/* rt-ARCH.S: the kernel's result, or -errno */
long __rt_syscall(long a0, long a1, long a2, long a3, long a4, long a5,
		  long nr);

int errno;

static long sys(long nr, long a0, long a1, long a2, long a3, long a4,
		long a5)
{
	long r = __rt_syscall(a0, a1, a2, a3, a4, a5, nr);

	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return -1;
	}
	return r;
}
#define SYS0(nr)		sys(nr, 0, 0, 0, 0, 0, 0)
#define SYS1(nr, a)		sys(nr, (long)(a), 0, 0, 0, 0, 0)
#define SYS2(nr, a, b)		sys(nr, (long)(a), (long)(b), 0, 0, 0, 0)
#define SYS3(nr, a, b, c)	sys(nr, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define SYS4(nr, a, b, c, d)	sys(nr, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)

long syscall(long nr, ...)
{
	long a[6];
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	return sys(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* The C entry, from rt-ARCH.S's _start */
int main(void);
void __rt_start(long argc, char **argv, char **envp)
{
	(void)argc;
	(void)argv;
	environ = envp;
	exit(main());
}

void _exit(int status)
{
	for (;;)
		SYS1(NR_exit_group, status);
}

void exit(int status)
{
	fflush(stdout);
	_exit(status);
}

ssize_t read(int fd, void *buf, size_t n)
{
	return SYS3(NR_read, fd, buf, n);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	return SYS3(NR_write, fd, buf, n);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	return SYS4(NR_pwrite64, fd, buf, n, off);
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = va_arg(ap, mode_t);
	va_end(ap);
	return (int)SYS3(NR_open, path, flags, mode);
}

int close(int fd)
{
	return (int)SYS1(NR_close, fd);
}

off_t lseek(int fd, off_t off, int whence)
{
	return SYS3(NR_lseek, fd, off, whence);
}

int access(const char *path, int mode)
{
	return (int)SYS2(NR_access, path, mode);
}

int mkdir(const char *path, mode_t mode)
{
	return (int)SYS2(NR_mkdir, path, mode);
}

int mount(const char *src, const char *dir, const char *type,
	  unsigned long flags, const void *data)
{
	return (int)sys(NR_mount, (long)src, (long)dir, (long)type,
			(long)flags, (long)data, 0);
}

/* fork(2) is clone(2) with SIGCHLD and no new stack */
pid_t fork(void)
{
	fflush(stdout);
	return (pid_t)SYS2(NR_clone, SIGCHLD, 0);
}

pid_t waitpid(pid_t pid, int *status, int options)
{
	return (pid_t)SYS4(NR_wait4, pid, status, options, 0);
}

pid_t getpid(void)
{
	return (pid_t)SYS0(NR_getpid);
}

int kill(pid_t pid, int sig)
{
	return (int)SYS2(NR_kill, pid, sig);
}

int setuid(uid_t uid)
{
	return (int)SYS1(NR_setuid, uid);
}

int setgid(gid_t gid)
{
	return (int)SYS1(NR_setgid, gid);
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	return (int)SYS2(NR_nanosleep, req, rem);
}

int pause(void)
{
	struct timespec t = { 1000000, 0 };

	for (;;)
		nanosleep(&t, NULL);
}

int usleep(unsigned long us)
{
	struct timespec t = { (time_t)(us / 1000000), (long)(us % 1000000) * 1000 };

	return nanosleep(&t, NULL);
}

unsigned int sleep(unsigned int s)
{
	struct timespec t = { s, 0 };

	nanosleep(&t, NULL);
	return 0;
}

time_t time(time_t *t)
{
	long tv[2] = { 0, 0 };	/* struct timeval */

	SYS2(NR_gettimeofday, tv, 0);
	if (t)
		*t = tv[0];
	return tv[0];
}

int clock_gettime(int clock, struct timespec *t)
{
	return (int)SYS2(NR_clock_gettime, clock, t);
}

int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
	return (int)SYS3(NR_sched_setaffinity, pid, size, set);
}

/* _SC_NPROCESSORS_ONLN: the CPUs init may run on, as musl counts them */
long sysconf(int name)
{
	cpu_set_t set;
	long n = 0;
	int i;

	if (name != _SC_NPROCESSORS_ONLN) {
		errno = EINVAL;
		return -1;
	}
	memset(&set, 0, sizeof(set));
	if (SYS3(NR_sched_getaffinity, 0, sizeof(set), &set) < 0)
		return 1;
	for (i = 0; i < (int)(8 * sizeof(set)); i++)
		n += (set.bits[i / (8 * sizeof(long))] >> (i % (8 * sizeof(long)))) & 1;
	return n;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	long r = sys(NR_mmap, (long)addr, (long)len, prot, flags, fd, off);

	return r == -1 ? MAP_FAILED : (void *)r;
}

int munmap(void *addr, size_t len)
{
	return (int)SYS2(NR_munmap, addr, len);
}

/* malloc: a mapping each, its size in front; free unmaps it */
void *malloc(size_t n)
{
	size_t len = n + 16;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	*(size_t *)p = len;
	return p + 16;
}

void free(void *ptr)
{
	char *p = ptr;

	if (p)
		munmap(p - 16, *(size_t *)(p - 16));
}

int klogctl(int type, char *buf, int len)
{
	return (int)SYS3(NR_syslog, type, buf, len);
}

int reboot(int how)
{
	return (int)SYS4(NR_reboot, 0xfee1dead, 672274793, how, 0);
}

void sync(void)
{
	SYS0(NR_sync);
}

int tcdrain(int fd)
{
	return (int)SYS3(NR_ioctl, fd, 0x5409 /* TCSBRK */, 1);
}

/* ---- stdout, a line at a time ---- */

struct rt_file {
	int fd;
	size_t len;
	char buf[4096];
};
static struct rt_file out = { STDOUT_FILENO, 0, { 0 } };
FILE *stdout = &out;

int fflush(FILE *f)
{
	size_t done = 0;

	while (done < f->len) {
		ssize_t n = write(f->fd, f->buf + done, f->len - done);

		if (n <= 0)
			break;
		done += n;
	}
	f->len = 0;
	return 0;
}

int setvbuf(FILE *f, char *buf, int mode, size_t size)
{
	(void)f;
	(void)buf;
	(void)mode;
	(void)size;
	return 0;	/* always line buffered */
}

int vprintf(const char *fmt, va_list ap)
{
	char line[4096];
	int n = vsnprintf(line, sizeof(line), fmt, ap), i;

	for (i = 0; i < n && i < (int)sizeof(line) - 1; i++) {
		out.buf[out.len++] = line[i];
		if (line[i] == '\n' || out.len == sizeof(out.buf))
			fflush(stdout);
	}
	return n;
}

int printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintf(fmt, ap);
	va_end(ap);
	return n;
}
