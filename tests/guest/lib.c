// SPDX-License-Identifier: GPL-2.0
/* the guest's helpers: the checks' lines, the knobs (chk= keys and files:
 * guestlib/, shared with the benchmark guest) */
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

