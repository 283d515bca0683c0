// SPDX-License-Identifier: GPL-2.0
/*
 * The named model machines: MODEL=<name> in make boot and the known-answer
 * test; the plugin's machine=<name>.  The first is the default of a plugin
 * loaded without arguments.  Each cache is as large as the largest cache
 * CPUID shows the guest (QEMU's qemu64 reports a 16 MB L3 in leaf 4, or
 * with l3-cache=off a 4 MB L2), so the kernel scales to the modelled size.
 * Penalties are what a miss costs the guest on top of TCG's own time.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"

const struct cm_machine cm_machines[] = {
	/* name, what it stands for, -cpu options, {size_kb, ways, miss_ns,
	 * remote_ns, share, node_split_mb, node1_cpu, stream_ns,
	 * remote_stream_ns} */
	{ "chen4", "Kenneth Chen's 4-way box relative to itself: a large "
	  "private cache per CPU (16 MB, 16-way), misses at 2004 DRAM latency "
	  "(300 ns)", "",
	  { 16384, 16, 300, 0, 1, 0, 0, 0, 0 } },
	{ "small", "a smaller private cache per CPU (4 MB, 16-way) and "
	  "faster memory (150 ns): a full refill costs 8x less than on chen4",
	  ",l3-cache=off",
	  { 4096, 16, 150, 0, 1, 0, 0, 0, 0 } },
	{ "fast", "small's cache (4 MB, 16-way) with 38 ns misses: a full "
	  "refill costs a quarter of small's, 32x less than chen4's",
	  ",l3-cache=off",
	  { 4096, 16, 38, 0, 1, 0, 0, 0, 0 } },
	{ "numa2", "numa=fake=2 on 4 vCPUs: chen4's caches, 900 ns to the "
	  "other node's memory (cpu3 and the upper 256 MB of boot.sh's 512 MB "
	  "guest are node 1)", "",
	  { 16384, 16, 300, 900, 1, 256, 3, 0, 0 } },
	{ "smt2", "2 sockets of 2 threads, one 16 MB 16-way cache per socket, "
	  "300 ns misses: siblings lose nothing when they swap", "",
	  { 16384, 16, 300, 0, 2, 0, 0, 0, 0 } },
	/*
	 * Calibrated to real machines: a full refill of the cache by the
	 * kernel's ascending walk (stream_ns a line) costs what Ingo Molnar's
	 * migration-cost calibration of 2.6.16-2.6.22 measured on such a box,
	 * half the value it printed (Documentation/cachehot.md, "What a move
	 * cost on real machines"); the size is what QEMU's CPUID shows, so the
	 * per-line cost is the real refill over this size.  A random miss pays
	 * a DRAM latency of the time (miss_ns).
	 */
	{ "itanium2", "Kenneth Chen's 4-way 1.5 GHz Itanium 2 (9 MB L3): a "
	  "streamed refill of the 16 MB cache costs 5.2 ms, as 2.6.16's "
	  "calibration measured his box; random misses 200 ns", "",
	  { 16384, 16, 200, 0, 1, 0, 0, 20, 0 } },
	{ "xeon8m", "a Xeon with 8 MB of cache: a streamed refill costs "
	  "3.1 ms (12 ns a line of 16 MB); random misses 120 ns", "",
	  { 16384, 16, 120, 0, 1, 0, 0, 12, 0 } },
	{ "xeon2m", "a Xeon with 2 MB of cache: a streamed refill costs "
	  "0.9 ms (14 ns a line of 4 MB); random misses 120 ns",
	  ",l3-cache=off",
	  { 4096, 16, 120, 0, 1, 0, 0, 14, 0 } },
	{ "altix2", "an 8-CPU SGI Altix as two nodes (numa=fake=2): a "
	  "streamed refill costs 2.0 ms in a node, 10.9 ms across (8 and 75 "
	  "ns a line of 16 MB); random misses 150 ns, 450 ns remote", "",
	  { 16384, 16, 150, 450, 1, 256, 3, 8, 75 } },
	{ NULL, NULL, NULL, { 0, 0, 0, 0, 0, 0, 0, 0, 0 } }
};

const struct cm_machine *cm_machine(const char *name)
{
	const struct cm_machine *m;

	for (m = cm_machines; m->name; m++)
		if (!strcmp(m->name, name))
			return m;
	return NULL;
}

int cm_set_param(struct cm_params *p, const char *kv)
{
	static const struct { const char *key; size_t off; } keys[] = {
#define KEY(k) { #k "=", offsetof(struct cm_params, k) }
		KEY(size_kb), KEY(ways), KEY(miss_ns), KEY(remote_ns),
		KEY(share), KEY(node_split_mb), KEY(node1_cpu), KEY(stream_ns),
		KEY(remote_stream_ns)
#undef KEY
	};
	const char *v;
	char *end;
	unsigned long n;
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strncmp(kv, keys[i].key, strlen(keys[i].key)))
			continue;
		v = kv + strlen(keys[i].key);
		n = strtoul(v, &end, 10);
		/* a decimal number, whole: "3x", "" or "-1" must not become one */
		if (*v < '0' || *v > '9' || *end || n > 0xffffffffUL)
			return -1;
		*(unsigned *)((char *)p + keys[i].off) = n;
		return 0;
	}
	return -1;
}
