/*
 * The named model machines: MODEL=<name> in make boot, make bench and the
 * boot cases; the plugin's machine=<name>.  The first is the default of a
 * plugin loaded without arguments.  Penalties are what a miss costs the
 * guest on top of TCG's own time for the access.
 */
#include <string.h>
#include "model.h"

const struct cm_machine cm_machines[] = {
	/* name, one line of what it stands for, {size_kb, ways, miss_ns,
	 * remote_ns, share, node_split_mb, node1_cpu} */
	{ "chen4", "Kenneth Chen's 4-way box relative to itself: a large "
	  "private cache per CPU (4 MB, 16-way), misses at DRAM cost (300 ns)",
	  { 4096, 16, 300, 0, 1, 0, 0 } },
	{ "small", "a small private cache per CPU (256 KB, 8-way), the same "
	  "300 ns misses: a full refill costs 16x less than on chen4",
	  { 256, 8, 300, 0, 1, 0, 0 } },
	{ "numa2", "numa=fake=2 on 4 vCPUs with 1 MB 8-way private caches, "
	  "300 ns misses, 900 ns to the other node's memory (cpu3 and the "
	  "upper 256 MB of boot.sh's 512 MB guest are node 1)",
	  { 1024, 8, 300, 900, 1, 256, 3 } },
	{ "smt2", "2 sockets of 2 threads, each socket one shared 2 MB 16-way "
	  "cache, 300 ns misses: siblings lose nothing when they swap",
	  { 2048, 16, 300, 0, 2, 0, 0 } },
	{ NULL, NULL, { 0, 0, 0, 0, 0, 0, 0 } }
};

const struct cm_machine *cm_machine(const char *name)
{
	const struct cm_machine *m;

	for (m = cm_machines; m->name; m++)
		if (!strcmp(m->name, name))
			return m;
	return NULL;
}
