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
	 * remote_ns, share, node_split_mb, node1_cpu} */
	{ "chen4", "Kenneth Chen's 4-way box relative to itself: a large "
	  "private cache per CPU (16 MB, 16-way), misses at 2004 DRAM latency "
	  "(300 ns)", "",
	  { 16384, 16, 300, 0, 1, 0, 0 } },
	{ "small", "a smaller private cache per CPU (4 MB, 16-way) and "
	  "faster memory (150 ns): a full refill costs 8x less than on chen4",
	  ",l3-cache=off",
	  { 4096, 16, 150, 0, 1, 0, 0 } },
	{ "fast", "small's cache (4 MB, 16-way) with 38 ns misses: a full "
	  "refill costs a quarter of small's, 32x less than chen4's",
	  ",l3-cache=off",
	  { 4096, 16, 38, 0, 1, 0, 0 } },
	{ "numa2", "numa=fake=2 on 4 vCPUs: chen4's caches, 900 ns to the "
	  "other node's memory (cpu3 and the upper 256 MB of boot.sh's 512 MB "
	  "guest are node 1)", "",
	  { 16384, 16, 300, 900, 1, 256, 3 } },
	{ "smt2", "2 sockets of 2 threads, one 16 MB 16-way cache per socket, "
	  "300 ns misses: siblings lose nothing when they swap", "",
	  { 16384, 16, 300, 0, 2, 0, 0 } },
	{ NULL, NULL, NULL, { 0, 0, 0, 0, 0, 0, 0 } }
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
		KEY(share), KEY(node_split_mb), KEY(node1_cpu)
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
