// SPDX-License-Identifier: GPL-2.0
/*
 * rt.h: the C library of a guest for an arch with no libc here (ia64:
 * musl has no port and Debian 12 ships no ia64 libc), as much of it as the
 * guests use and no more.  With -DGUESTLIB_RT, guestlib.h and the test
 * guest's guest.h take their declarations from here instead of the system
 * headers, and scripts/make-initramfs.sh links rt-lib.c (strings,
 * formatting, parsing: no system call, tested on the host against glibc by
 * tests/guestlib-rt.sh), rt-sys.c (system calls, memory, the console) and
 * rt-ARCH.S (the process entry and the system call instruction).
 * Constants and structures are those of Linux 2.6.9 on ia64.
 */
#ifndef GUESTLIB_RT_H
#define GUESTLIB_RT_H

#include <stdarg.h>		/* the compiler's own, freestanding */
#include <stddef.h>

typedef long ssize_t;
typedef long off_t;
typedef long time_t;
typedef int pid_t;
typedef unsigned int uid_t, gid_t, mode_t;

struct timespec {
	time_t tv_sec;
	long tv_nsec;
};

/* ---- rt-lib.c: no system call ---- */
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *s, const char *needle);
size_t strcspn(const char *s, const char *reject);
char *strtok_r(char *s, const char *delim, char **save);
char *strdup(const char *s);
void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
long strtol(const char *s, char **end, int base);
unsigned long strtoul(const char *s, char **end, int base);
unsigned long long strtoull(const char *s, char **end, int base);
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int vsscanf(const char *s, const char *fmt, va_list ap);
int sscanf(const char *s, const char *fmt, ...)
	__attribute__((format(scanf, 2, 3)));
int isdigit(int c);
int isspace(int c);
char *strerror(int err);
char *getenv(const char *name);
extern char **environ;

/* ---- rt-sys.c: system calls, memory, the console ---- */
extern int errno;

#define EPERM		1
#define ENOENT		2
#define EINTR		4
#define EIO		5
#define ECHILD		10
#define EAGAIN		11
#define ENOMEM		12
#define EACCES		13
#define EFAULT		14
#define EBUSY		16
#define EEXIST		17
#define ENODEV		19
#define EINVAL		22
#define ENOTTY		25
#define ERANGE		34
#define ENOSYS		38

#define O_RDONLY	00
#define O_WRONLY	01
#define O_RDWR		02
#define F_OK		0
#define SEEK_SET	0
#define STDOUT_FILENO	1

#define PROT_READ	1
#define PROT_WRITE	2
#define MAP_SHARED	0x01
#define MAP_PRIVATE	0x02
#define MAP_ANONYMOUS	0x20
#define MAP_FAILED	((void *)-1)

#define SIGKILL		9
#define SIGCHLD		17
#define WNOHANG		1
#define WIFEXITED(s)	(((s) & 0x7f) == 0)
#define WEXITSTATUS(s)	(((s) >> 8) & 0xff)

#define CLOCK_MONOTONIC	1
#define _SC_NPROCESSORS_ONLN	84
#define RB_AUTOBOOT	0x01234567
#define RB_POWER_OFF	0x4321fedc

/* syscall(): include/asm-ia64/unistd.h numbers */
#define SYS__sysctl		1150
#define SYS_set_mempolicy	1261

typedef struct {
	unsigned long bits[1024 / (8 * sizeof(long))];
} cpu_set_t;
#define CPU_ZERO(set)	memset((set), 0, sizeof(cpu_set_t))
#define CPU_SET(cpu, set) \
	((set)->bits[(cpu) / (8 * sizeof(long))] |= 1UL << ((cpu) % (8 * sizeof(long))))

long syscall(long nr, ...);
void _exit(int status) __attribute__((noreturn));
void exit(int status) __attribute__((noreturn));
ssize_t read(int fd, void *buf, size_t n);
ssize_t write(int fd, const void *buf, size_t n);
ssize_t pwrite(int fd, const void *buf, size_t n, off_t off);
int open(const char *path, int flags, ...);
int close(int fd);
off_t lseek(int fd, off_t off, int whence);
int access(const char *path, int mode);
int mkdir(const char *path, mode_t mode);
int mount(const char *src, const char *dir, const char *type,
	  unsigned long flags, const void *data);
pid_t fork(void);
pid_t waitpid(pid_t pid, int *status, int options);
pid_t getpid(void);
int kill(pid_t pid, int sig);
int setuid(uid_t uid);
int setgid(gid_t gid);
int pause(void);
int nanosleep(const struct timespec *req, struct timespec *rem);
unsigned int sleep(unsigned int s);
int usleep(unsigned long us);
time_t time(time_t *t);
int clock_gettime(int clock, struct timespec *t);
int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set);
long sysconf(int name);
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int munmap(void *addr, size_t len);
void *malloc(size_t n);
void free(void *p);
int klogctl(int type, char *buf, int len);
int reboot(int how);
void sync(void);
int tcdrain(int fd);

/* stdout: one write(2) a line (a kernel message cannot split a line) */
typedef struct rt_file FILE;
extern FILE *stdout;
#define _IOLBF		1
int setvbuf(FILE *f, char *buf, int mode, size_t size);
int fflush(FILE *f);
int vprintf(const char *fmt, va_list ap);
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
