// SPDX-License-Identifier: GPL-2.0
/*
 * Just enough of the kernel for the host to compile functions extracted
 * verbatim from the patched kernel/sched.c and arch/.../smpboot.c
 * (tests/derivation.sh): printk goes to stdout, do_div is the generic one.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define __init
#define __initdata
#define __user
#define KERN_INFO	"<6>"
#define KERN_NOTICE	"<5>"
#define KERN_WARNING	"<4>"
#define printk		printf
#define __setup(str, fn)
#define NSEC_PER_SEC	1000000000L
#define NSEC_PER_USEC	1000L
#define USEC_PER_SEC	1000000L
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
/* as the kernel's: each argument evaluated once */
#define max(a, b)	({ typeof(a) _a = (a); typeof(b) _b = (b); _a > _b ? _a : _b; })
#define min(a, b)	({ typeof(a) _a = (a); typeof(b) _b = (b); _a < _b ? _a : _b; })
#define min_t(t, a, b)	({ t _a = (a); t _b = (b); _a < _b ? _a : _b; })
#define max_t(t, a, b)	({ t _a = (a); t _b = (b); _a > _b ? _a : _b; })
#define simple_strtoul	strtoul
#define do_div(n, base) ({					\
	uint32_t __base = (base);				\
	uint32_t __rem = (uint32_t)((n) % __base);		\
	(n) /= __base;						\
	__rem; })
#define copy_from_user(to, from, n)	(memcpy((to), (from), (n)), 0)
#define down(sem)	((void)(sem))
#define up(sem)		((void)(sem))

typedef unsigned long long cycles_t;
typedef unsigned long long u64;
typedef unsigned int u32;
typedef long long shim_loff_t;
#define loff_t shim_loff_t
struct file;
typedef struct ctl_table {
	void *data;
} ctl_table;

/* include/linux/time.h's jiffies_to_usecs, for any HZ */
static inline unsigned int jiffies_to_usecs(const unsigned long j)
{
#if HZ <= 1000 && !(1000 % HZ)
	return (1000000 / HZ) * j;
#elif HZ > 1000 && !(HZ % 1000)
	return (j*1000 + (HZ - 1000))/(HZ / 1000);
#else
	return (j * 1000000) / HZ;
#endif
}
