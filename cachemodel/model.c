// SPDX-License-Identifier: GPL-2.0
/* cachemodel: the model's logic (model.h); no QEMU in here. */
#include <stdlib.h>
#include <string.h>
#include "model.h"

const char *cm_check(const struct cm_params *p, unsigned ncpus)
{
	unsigned lines = p->size_kb * (1024 >> CM_LINE_SHIFT), sets;

	if (!p->ways || p->ways > 64 || lines < p->ways || lines % p->ways)
		return "ways must be 1-64 and divide the cache's lines";
	sets = lines / p->ways;
	if (sets & (sets - 1))
		return "size_kb / 64 B / ways must be a power of two (sets)";
	if (!p->share || !ncpus || ncpus % p->share)
		return "share must be at least 1 and divide the vCPUs";
	if (p->remote_ns && (!p->node_split_mb || p->node1_cpu >= ncpus))
		return "remote_ns needs node_split_mb and a node1_cpu below the vCPUs";
	return NULL;
}

int cm_init(struct cm_model *m, const struct cm_params *p, unsigned ncpus)
{
	unsigned i, n;

	if (cm_check(p, ncpus))
		return -1;
	memset(m, 0, sizeof(*m));
	m->p = *p;
	m->ncpus = ncpus;
	m->ncaches = ncpus / p->share;
	m->cache = calloc(m->ncaches, sizeof(*m->cache));
	/* untouched pages of it cost nothing: calloc maps them lazily */
	m->gen = calloc(CM_LINES, sizeof(*m->gen));
	m->last_miss = calloc(ncpus * 8, sizeof(*m->last_miss));
	if (!m->cache || !m->gen || !m->last_miss) {
		cm_free(m);
		return -1;
	}
	for (i = 0; i < m->ncaches; i++) {
		struct cm_cache *c = &m->cache[i];

		c->ways = p->ways;
		c->sets = p->size_kb * (1024 >> CM_LINE_SHIFT) / p->ways;
		n = c->sets * c->ways;
		c->way = calloc(n, sizeof(*c->way));
		c->stamp = calloc(n, sizeof(*c->stamp));
		if (!c->way || !c->stamp) {
			cm_free(m);
			return -1;
		}
	}
	return 0;
}

void cm_free(struct cm_model *m)
{
	unsigned i;

	for (i = 0; m->cache && i < m->ncaches; i++) {
		free(m->cache[i].way);
		free(m->cache[i].stamp);
	}
	free(m->cache);
	free(m->gen);
	free(m->last_miss);
	m->cache = NULL;
	m->gen = NULL;
	m->last_miss = NULL;
}

/*
 * A copy is valid while its generation is the line's: a write moves the
 * line's generation on, and with it every other cache's copy is stale,
 * without the writer touching those caches (a vCPU's thread reads and
 * writes only its own cache and the generations).
 */
int cm_hit(struct cm_model *m, unsigned cpu, uint64_t pa, int write)
{
	struct cm_cache *c = &m->cache[cpu / m->p.share];
	uint64_t line = pa >> CM_LINE_SHIFT;
	size_t set = (line & (c->sets - 1)) * c->ways, i;
	uint64_t valid;

	c->accesses++;
	if (line >= CM_LINES)
		return 1;	/* beyond the model: free */
	valid = CM_WAY(line, m->gen[line]);
	for (i = set; i < set + c->ways; i++)
		if (c->way[i] == valid) {
			c->stamp[i] = ++c->clock;
			if (write)
				c->way[i] = CM_WAY(line, ++m->gen[line]);
			return 1;
		}
	return 0;
}

unsigned cm_miss(struct cm_model *m, unsigned cpu, uint64_t pa, int write)
{
	struct cm_cache *c = &m->cache[cpu / m->p.share];
	uint64_t line = pa >> CM_LINE_SHIFT, w, *last = &m->last_miss[cpu * 8];
	size_t set = (line & (c->sets - 1)) * c->ways, i, victim = set;
	int remote, stream = line == *last + 1 || line + 1 == *last;

	for (i = set; i < set + c->ways; i++) {
		w = c->way[i];
		/* empty, or invalidated since (a real cache's free way) */
		if (!w || CM_WAY_GEN(w) != m->gen[CM_WAY_LINE(w)]) {
			victim = i;
			break;
		}
		if (c->stamp[i] < c->stamp[victim])	/* else LRU */
			victim = i;
	}
	c->misses++;
	c->way[victim] = CM_WAY(line, write ? ++m->gen[line] : m->gen[line]);
	c->stamp[victim] = ++c->clock;
	*last = line;
	remote = m->p.remote_ns &&
		(pa >= (uint64_t)m->p.node_split_mb << 20) !=
		(cpu >= m->p.node1_cpu);
	if (remote)
		return stream && m->p.remote_stream_ns ? m->p.remote_stream_ns :
			m->p.remote_ns;
	return stream && m->p.stream_ns ? m->p.stream_ns : m->p.miss_ns;
}

unsigned cm_access(struct cm_model *m, unsigned cpu, uint64_t pa, int write)
{
	return cm_hit(m, cpu, pa, write) ? 0 : cm_miss(m, cpu, pa, write);
}

long long cm_owed(long long owed, long long took)
{
	owed -= took;
	return owed < -CM_CREDIT_NS ? -CM_CREDIT_NS : owed;
}
