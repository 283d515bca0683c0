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
	if (!m->cache)
		return -1;
	for (i = 0; i < m->ncaches; i++) {
		struct cm_cache *c = &m->cache[i];

		c->ways = p->ways;
		c->sets = p->size_kb * (1024 >> CM_LINE_SHIFT) / p->ways;
		n = c->sets * c->ways;
		c->tag = calloc(n, sizeof(*c->tag));
		c->stamp = calloc(n, sizeof(*c->stamp));
		c->excl = calloc(n, sizeof(*c->excl));
		if (!c->tag || !c->stamp || !c->excl) {
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
		free(m->cache[i].tag);
		free(m->cache[i].stamp);
		free(m->cache[i].excl);
	}
	free(m->cache);
	m->cache = NULL;
}

/*
 * The other caches' copies of a line: a write drops them (drop), a read
 * miss leaves them shared (no longer exclusive).  Whether any held it.
 */
static int others(struct cm_model *m, struct cm_cache *c, uint64_t tag,
		  int drop)
{
	unsigned i, w, base;
	int held = 0;

	for (i = 0; i < m->ncaches; i++) {
		struct cm_cache *o = &m->cache[i];

		if (o == c)
			continue;
		base = (unsigned)((tag - 1) & (o->sets - 1)) * o->ways;
		for (w = base; w < base + o->ways; w++)
			if (o->tag[w] == tag) {
				if (drop)
					o->tag[w] = 0;
				o->excl[w] = 0;
				held = 1;
			}
	}
	return held;
}

unsigned cm_access(struct cm_model *m, unsigned cpu, uint64_t pa, int write)
{
	struct cm_cache *c = &m->cache[cpu / m->p.share];
	uint64_t tag = (pa >> CM_LINE_SHIFT) + 1;
	unsigned base = (unsigned)((tag - 1) & (c->sets - 1)) * c->ways;
	unsigned w, victim = base;
	int remote;

	c->accesses++;
	for (w = base; w < base + c->ways; w++)
		if (c->tag[w] == tag) {		/* hit */
			c->stamp[w] = ++c->clock;
			if (write && !c->excl[w]) {
				others(m, c, tag, 1);
				c->excl[w] = 1;
			}
			return 0;
		}
	for (w = base; w < base + c->ways; w++) {	/* LRU or empty way */
		if (!c->tag[w]) {
			victim = w;
			break;
		}
		if (c->stamp[w] < c->stamp[victim])
			victim = w;
	}
	c->misses++;
	c->tag[victim] = tag;
	c->stamp[victim] = ++c->clock;
	/* a write takes the other copies away, a read shares them */
	c->excl[victim] = !others(m, c, tag, write) || write;
	remote = m->p.remote_ns &&
		(pa >= (uint64_t)m->p.node_split_mb << 20) !=
		(cpu >= m->p.node1_cpu);
	return remote ? m->p.remote_ns : m->p.miss_ns;
}
