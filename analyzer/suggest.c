// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The layout suggester (see suggest.h for the rules).  Every step is a function of the units
 * and the recorded accesses only, so the same recording always gives the same layout.
 */
#include <config.h>

#include "analyzer/suggest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/array_align.h"
#include "analyzer/coherence.h"
#include "util/u64map.h"
#include "util/xalloc.h"

struct suggest {
	struct suggest_config cfg;
	struct suggest_unit *units;
	unsigned int nr_units;
	uint64_t size;
	uint32_t align;
	struct suggest_access *acc;
	size_t nr_acc, cap_acc;
	struct u64map instances;	/* base -> dense index */
	uint64_t *instance_base;
	size_t nr_instances, cap_instances;
	struct u64map threads;		/* tid -> dense index */
	uint32_t nr_threads;
	struct u64map unit_tid_writes;	/* unit << 48 | instance << 24 | tid -> writes */
	struct u64map elem_tid_writes;	/* unit << 48 | elem << 24 | tid -> writes */
	struct u64map inst_tid_writes;	/* instance index << 32 | tid -> writes */
	uint64_t *rmw_total, *rmw_redundant;
	uint32_t *affinity;		/* nr_units x nr_units: consecutive accesses of a thread */
	struct u64map last_unit;	/* tid -> unit + 1 of its previous access */
	struct suggest_result *res;	/* the caller's, freed with the suggest */
	unsigned int array_causes;	/* suggest__set_array_causes() */
	struct suggest_verdicts verdicts;	/* suggest__set_verdicts(), its arrays ours */
	bool have_verdicts;
};

const char *suggest_use__name(enum suggest_use use)
{
	switch (use) {
	case SUGGEST_COLD:
		return "cold";
	case SUGGEST_READ_MOSTLY:
		return "read-mostly";
	case SUGGEST_WRITTEN:
		return "written";
	}
	return "?";
}

static void *memdup(const void *p, size_t n)
{
	void *q = xmalloc(n ? n : 1);

	memcpy(q, p, n);
	return q;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return a > 1 ? (v + a - 1) / a * a : v;
}

struct suggest *suggest__new(const struct suggest_config *cfg, const struct suggest_unit *units,
			     unsigned int nr_units, uint64_t size, uint32_t align)
{
	struct suggest *sg = xcalloc(1, sizeof(*sg));

	sg->cfg = *cfg;
	if (!sg->cfg.line_size)
		sg->cfg.line_size = 64;
	sg->units = memdup(units, nr_units * sizeof(*units));
	sg->nr_units = nr_units;
	sg->size = size;
	sg->align = align ? align : 1;
	u64map__init(&sg->instances);
	u64map__init(&sg->threads);
	u64map__init(&sg->unit_tid_writes);
	u64map__init(&sg->elem_tid_writes);
	u64map__init(&sg->inst_tid_writes);
	u64map__init(&sg->last_unit);
	sg->rmw_total = xcalloc(nr_units + 1, sizeof(*sg->rmw_total));
	sg->rmw_redundant = xcalloc(nr_units + 1, sizeof(*sg->rmw_redundant));
	sg->affinity = xcalloc((size_t)nr_units * nr_units + 1, sizeof(*sg->affinity));
	return sg;
}

static void result_release(struct suggest_result *r)
{
	for (unsigned int i = 0; r->profiles && i < r->nr_units; i++) {
		id_set__release(&r->profiles[i].writers);
		id_set__release(&r->profiles[i].readers);
		id_set__release(&r->profiles[i].writer_cpus);
		id_set__release(&r->profiles[i].all_writers);
		free(r->profiles[i].sig);
	}
	for (unsigned int g = 0; g < r->nr_groups; g++) {
		id_set__release(&r->groups[g].writers);
		id_set__release(&r->groups[g].readers);
	}
	free(r->order);
	free(r->new_offset);
	free(r->align_attr);
	free(r->profiles);
	free(r->groups);
	free(r->findings);
	free(r->before.lines);
	free(r->after.lines);
	memset(r, 0, sizeof(*r));
}

void suggest__delete(struct suggest *sg)
{
	if (!sg)
		return;
	if (sg->res)
		result_release(sg->res);
	u64map__exit(&sg->instances);
	u64map__exit(&sg->threads);
	u64map__exit(&sg->unit_tid_writes);
	u64map__exit(&sg->elem_tid_writes);
	u64map__exit(&sg->inst_tid_writes);
	u64map__exit(&sg->last_unit);
	free(sg->units);
	free(sg->acc);
	free(sg->instance_base);
	free(sg->rmw_total);
	free(sg->rmw_redundant);
	free(sg->affinity);
	free(sg->verdicts.units);
	free(sg->verdicts.unit_hitm);
	free(sg);
}

void suggest__set_verdicts(struct suggest *sg, const struct suggest_verdicts *v)
{
	free(sg->verdicts.units);
	free(sg->verdicts.unit_hitm);
	sg->verdicts = *v;
	sg->verdicts.units = xcalloc(sg->nr_units + 1, sizeof(*sg->verdicts.units));
	sg->verdicts.unit_hitm = xcalloc(sg->nr_units + 1, sizeof(*sg->verdicts.unit_hitm));
	if (v->units)
		memcpy(sg->verdicts.units, v->units, sg->nr_units * sizeof(*v->units));
	if (v->unit_hitm)
		memcpy(sg->verdicts.unit_hitm, v->unit_hitm, sg->nr_units * sizeof(*v->unit_hitm));
	sg->have_verdicts = true;
}

int suggest__unit_at(const struct suggest *sg, uint64_t offset)
{
	unsigned int lo = 0, hi = sg->nr_units;

	/* the last unit starting at or before @offset */
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (sg->units[mid].offset <= offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	const struct suggest_unit *u = &sg->units[lo - 1];

	if (u->flex || offset < u->offset + u->size)
		return (int)(lo - 1);
	return -1;
}

static uint64_t count_add(struct u64map *m, uint64_t key, uint64_t n)
{
	uint64_t v = 0;

	u64map__get(m, key, &v);
	u64map__set(m, key, v + n);
	return v + n;
}

static uint32_t dense(struct u64map *m, uint64_t key, uint32_t *nr)
{
	uint64_t v;

	if (u64map__get(m, key, &v))
		return (uint32_t)v;
	u64map__set(m, key, *nr);
	return (*nr)++;
}

static bool access_writes(const struct suggest_access *a)
{
	return a->store || (a->load && a->locked);
}

void suggest__add(struct suggest *sg, const struct suggest_access *a)
{
	int u = suggest__unit_at(sg, a->offset);
	uint64_t inst;

	sg->acc = xgrow(sg->acc, &sg->cap_acc, sg->nr_acc + 1, sizeof(*sg->acc));
	sg->acc[sg->nr_acc++] = *a;
	if (!u64map__get(&sg->instances, a->instance, &inst)) {
		inst = sg->nr_instances;
		u64map__set(&sg->instances, a->instance, inst);
		sg->instance_base = xgrow(sg->instance_base, &sg->cap_instances,
					  sg->nr_instances + 1, sizeof(*sg->instance_base));
		sg->instance_base[sg->nr_instances++] = a->instance;
	}
	dense(&sg->threads, a->tid, &sg->nr_threads);
	if (u < 0)
		return;
	if (access_writes(a)) {
		const struct suggest_unit *un = &sg->units[u];

		count_add(&sg->unit_tid_writes, (uint64_t)u << 48 | (inst & 0xffffff) << 24 |
							  (a->tid & 0xffffff), 1);
		count_add(&sg->inst_tid_writes, inst << 32 | a->tid, 1);
		if (un->nr_elems > 1 && un->elem_size && u < (1 << 16) && a->tid < (1u << 24)) {
			uint64_t elem = (a->offset - un->offset) / un->elem_size;

			if (elem < (1u << 24))
				count_add(&sg->elem_tid_writes,
					  (uint64_t)u << 48 | elem << 24 | a->tid, 1);
		}
	}
	/* affinity: this thread's previous access went to another unit */
	uint64_t prev;

	if (u64map__get(&sg->last_unit, a->tid, &prev) && prev && prev - 1 != (uint64_t)u) {
		unsigned int p = (unsigned int)(prev - 1);

		sg->affinity[(size_t)p * sg->nr_units + u]++;
		sg->affinity[(size_t)u * sg->nr_units + p]++;
	}
	u64map__set(&sg->last_unit, a->tid, (uint64_t)u + 1);
}

void suggest__add_rmw(struct suggest *sg, unsigned int unit, uint64_t total, uint64_t redundant)
{
	if (unit >= sg->nr_units)
		return;
	sg->rmw_total[unit] += total;
	sg->rmw_redundant[unit] += redundant;
}

/* ---- 1. profiles ---- */

/*
 * Written more than once and read, with HITMs, by a thread that does not write it: a flag or
 * index one thread publishes and another waits on.  Sampling sees few of its stores (they hit
 * the writer's own line) and many of the waiter's loads, yet every store invalidates the line.
 */
static bool publishes(const struct suggest_profile *p)
{
	if (p->writes < 2 || !p->hitm)
		return false;
	for (uint32_t i = 0; i < p->readers.nr; i++)
		if (!id_set__has(&p->all_writers, p->readers.ids[i]))
			return true;
	return false;
}

static void elements_writers(struct suggest *sg, struct suggest_result *r);

struct writer_count {
	uint64_t key;	/* unit << 24 | instance */
	uint32_t tid;
	uint64_t n;
};

static int writer_count_cmp(const void *a, const void *b)
{
	const struct writer_count *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static void sig_add(struct suggest_profile *p, uint64_t v)
{
	p->sig = xrealloc(p->sig, (p->nr_sig + 1) * sizeof(*p->sig));
	p->sig[p->nr_sig++] = v;
}

/*
 * Rule 1, per instance: a thread is a writer of a unit in an instance when it does at least
 * a quarter of its fair share of that unit's writes there.  A unit's signature is the set of
 * (instance, writer) pairs: per-thread slots of an array of structs (instance i written by
 * thread i) are one group, not one truly shared counter.
 */
static void dominant_writers(struct suggest *sg, struct suggest_result *r)
{
	struct writer_count *v = xcalloc(sg->unit_tid_writes.nr + 1, sizeof(*v));
	size_t n = 0;

	for (size_t k = 0; k < sg->unit_tid_writes.cap; k++) {
		if (!sg->unit_tid_writes.used[k])
			continue;
		uint64_t key = sg->unit_tid_writes.keys[k];

		v[n++] = (struct writer_count){ key >> 24, (uint32_t)(key & 0xffffff),
						sg->unit_tid_writes.vals[k] };
	}
	qsort(v, n, sizeof(*v), writer_count_cmp);
	for (size_t i = 0, j; i < n; i = j) {
		uint64_t total = 0, writers = 0;

		for (j = i; j < n && v[j].key == v[i].key; j++) {
			total += v[j].n;
			writers++;
		}
		struct suggest_profile *p = &r->profiles[v[i].key >> 24];
		uint32_t dominant = 0;

		for (size_t k = i; k < j; k++)
			if (v[k].n * 4 * writers >= total) {
				id_set__add(&p->writers, v[k].tid);
				sig_add(p, (v[i].key & 0xffffff) << 32 | v[k].tid);
				dominant++;
			}
		if (dominant > p->max_writers)
			p->max_writers = dominant;
	}
	/* signatures sorted, for comparing */
	for (unsigned int u = 0; u < sg->nr_units; u++) {
		struct suggest_profile *p = &r->profiles[u];

		for (uint32_t a = 1; a < p->nr_sig; a++) {
			uint64_t x = p->sig[a];
			uint32_t b = a;

			while (b && p->sig[b - 1] > x) {
				p->sig[b] = p->sig[b - 1];
				b--;
			}
			p->sig[b] = x;
		}
	}
	free(v);
}

static bool same_signature(const struct suggest_profile *a, const struct suggest_profile *b)
{
	return a->nr_sig == b->nr_sig && (!a->nr_sig ||
					  !memcmp(a->sig, b->sig, a->nr_sig * sizeof(*a->sig)));
}

static void profile_units(struct suggest *sg, struct suggest_result *r)
{
	r->profiles = xcalloc(sg->nr_units + 1, sizeof(*r->profiles));
	for (size_t i = 0; i < sg->nr_acc; i++) {
		const struct suggest_access *a = &sg->acc[i];
		int u = suggest__unit_at(sg, a->offset);

		if (!r->nr_accesses || a->time < r->first_time)
			r->first_time = a->time;
		if (a->time > r->last_time)
			r->last_time = a->time;
		r->nr_accesses++;
		if (u < 0)
			continue;
		struct suggest_profile *p = &r->profiles[u];

		p->loads += a->load;
		p->reads += a->load && !a->locked;
		p->stores += a->store;
		p->locked += a->locked;
		p->hitm += a->hitm;
		if (a->weight) {
			p->weight_sum += a->weight;
			p->weighted++;
		}
		if (access_writes(a)) {
			p->writes++;
			id_set__add(&p->all_writers, a->tid);
			id_set__add(&p->writer_cpus, a->cpu);
		} else if (a->load) {
			id_set__add(&p->readers, a->tid);
		}
	}
	dominant_writers(sg, r);
	/* rule 2: cold, read-mostly or written */
	for (unsigned int u = 0; u < sg->nr_units; u++) {
		struct suggest_profile *p = &r->profiles[u];

		/* one sampled store and no load: main()'s setup of a member nothing reads */
		if ((!p->loads && !p->stores) || (!p->loads && p->writes <= 1))
			p->use = SUGGEST_COLD;
		else if (!p->writes || ((p->writes * 20 <= p->reads || p->writes == 1) && !publishes(p)))
			p->use = SUGGEST_READ_MOSTLY;
		else
			p->use = SUGGEST_WRITTEN;
		p->redundant_rmw = sg->rmw_redundant[u];
		p->rmw_checked = sg->rmw_total[u];
		p->group = -1;
		p->sharing = sg->have_verdicts ? sg->verdicts.units[u] : 0;
	}
	elements_writers(sg, r);
}

struct elem_count {
	uint64_t key;	/* unit << 24 | elem */
	uint32_t tid;
	uint64_t n;
};

static int elem_count_cmp(const void *a, const void *b)
{
	const struct elem_count *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* One thread's elements of an array unit: the first and last it mainly writes, how many. */
struct elem_run {
	uint32_t tid;
	uint64_t lo, hi, n;
};

static int elem_run_cmp(const void *a, const void *b)
{
	const struct elem_run *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/*
 * How the threads share out the elements of @u, from the main writer of each (@v[i..j), one
 * unit's, sorted by element): each a single element, runs that do not overlap (rows of a
 * matrix: a part is one run, the span over the threads), or elements that alternate.
 */
static void elements_parts(struct suggest *sg, struct suggest_result *r, unsigned int u,
			   const struct elem_count *v, size_t i, size_t j)
{
	struct suggest_profile *p = &r->profiles[u];
	uint64_t esz = sg->units[u].elem_size;
	struct elem_run *run = NULL;
	size_t nr = 0, cap = 0;
	bool single = true, apart = true;

	for (size_t k = i; k < j; k++) {
		uint64_t e = v[k].key & 0xffffff;
		size_t w;

		if (k > i && v[k].key == v[k - 1].key)	/* not the element's main writer */
			continue;
		for (w = 0; w < nr && run[w].tid != v[k].tid; w++)
			;
		if (w == nr) {
			run = xgrow(run, &cap, nr + 1, sizeof(*run));
			run[nr++] = (struct elem_run){ v[k].tid, e, e, 0 };
		}
		run[w].hi = e;	/* elements come in order */
		run[w].n++;
	}
	/* a thread with a few elements (main's setup of those no worker took) is no part */
	uint64_t total = 0;
	size_t kept = 0;

	for (size_t w = 0; w < nr; w++)
		total += run[w].n;
	for (size_t w = 0; w < nr; w++)
		if (run[w].n * 4 * nr >= total)
			run[kept++] = run[w];
	nr = kept;
	qsort(run, nr, sizeof(*run), elem_run_cmp);
	for (size_t w = 0; w < nr; w++) {
		single &= run[w].n == 1;
		apart &= !w || run[w].lo > run[w - 1].hi;
	}
	p->elem_interleaved = !single && !apart;
	p->elem_part = esz;
	if (!single && apart && nr >= 2) {
		/*
		 * Runs apart: the array split evenly (run w within [w * n / nr, (w + 1) * n / nr),
		 * what the sampling saw of each a part of that), else the spacing of the runs'
		 * starts, which sampling makes only an estimate.
		 */
		uint64_t share = sg->units[u].nr_elems / nr;
		bool even = share && sg->units[u].nr_elems % nr == 0;

		for (size_t w = 0; w < nr && even; w++)
			even = run[w].lo >= w * share && run[w].hi < (w + 1) * share;
		if (even)
			p->elem_part = share * esz;
		else
			p->elem_part = (run[nr - 1].lo - run[0].lo + (nr - 1) / 2) / (nr - 1) * esz;
	}
	free(run);
}

/*
 * Arrays whose elements are written by different threads (per-worker stats[N]): the number of
 * distinct threads that are some element's main writer, and how they share the elements out.
 * No member order separates those.
 */
static void elements_writers(struct suggest *sg, struct suggest_result *r)
{
	struct elem_count *v = xcalloc(sg->elem_tid_writes.nr + 1, sizeof(*v));
	struct id_set *main_writers = xcalloc(sg->nr_units + 1, sizeof(*main_writers));
	size_t n = 0;

	for (size_t k = 0; k < sg->elem_tid_writes.cap; k++) {
		if (!sg->elem_tid_writes.used[k])
			continue;
		uint64_t key = sg->elem_tid_writes.keys[k];

		v[n++] = (struct elem_count){ key >> 24, (uint32_t)(key & 0xffffff),
					      sg->elem_tid_writes.vals[k] };
	}
	qsort(v, n, sizeof(*v), elem_count_cmp);
	for (size_t i = 0; i < n; i++)
		if (!i || v[i].key != v[i - 1].key)
			id_set__add(&main_writers[v[i].key >> 24], v[i].tid);
	for (size_t i = 0, j; i < n; i = j) {
		unsigned int u = (unsigned int)(v[i].key >> 24);

		for (j = i; j < n && v[j].key >> 24 == u; j++)
			;
		if (main_writers[u].nr >= 2) {
			r->profiles[u].elem_writers = main_writers[u].nr;
			elements_parts(sg, r, u, v, i, j);
		}
	}
	for (unsigned int u = 0; u < sg->nr_units; u++)
		id_set__release(&main_writers[u]);
	free(main_writers);
	free(v);
}

/* ---- 3. groups ---- */

/* The written group whose first unit has @p's signature, or -1. */
static int group_of_writers(struct suggest_result *r, unsigned int nr_units,
			    const struct suggest_profile *p)
{
	for (unsigned int u = 0; u < nr_units; u++) {
		const struct suggest_profile *q = &r->profiles[u];

		if (q != p && q->group >= 0 && r->groups[q->group].kind == SUGGEST_GROUP_WRITTEN &&
		    same_signature(p, q))
			return q->group;
	}
	return -1;
}

static int new_group(struct suggest_result *r, enum suggest_group_kind kind)
{
	r->groups = xrealloc(r->groups, (r->nr_groups + 1) * sizeof(*r->groups));
	memset(&r->groups[r->nr_groups], 0, sizeof(*r->groups));
	r->groups[r->nr_groups].kind = kind;
	return (int)r->nr_groups++;
}

static void group_units(struct suggest *sg, struct suggest_result *r)
{
	for (unsigned int u = 0; u < sg->nr_units; u++) {
		struct suggest_profile *p = &r->profiles[u];
		int g;

		if (p->use == SUGGEST_COLD)
			continue;
		if (p->use == SUGGEST_READ_MOSTLY) {
			for (g = 0; g < (int)r->nr_groups; g++)
				if (r->groups[g].kind == SUGGEST_GROUP_READ_MOSTLY)
					break;
			if (g == (int)r->nr_groups)
				g = new_group(r, SUGGEST_GROUP_READ_MOSTLY);
		} else {
			g = group_of_writers(r, sg->nr_units, p);
			if (g < 0) {
				g = new_group(r, SUGGEST_GROUP_WRITTEN);
				id_set__merge(&r->groups[g].writers, &p->writers);
			}
		}
		p->group = g;
		r->groups[g].hitm += p->hitm;
		r->groups[g].writes += p->writes;
		r->groups[g].loads += p->loads;
		id_set__merge(&r->groups[g].readers, &p->readers);
	}
}

static void name_groups(struct suggest *sg, struct suggest_result *r)
{
	const char *s = sg->cfg.struct_name && *sg->cfg.struct_name ? sg->cfg.struct_name : "struct";
	unsigned int nw = 0, k = 0;

	for (unsigned int g = 0; g < r->nr_groups; g++)
		nw += r->groups[g].kind == SUGGEST_GROUP_WRITTEN;
	for (unsigned int g = 0; g < r->nr_groups; g++) {
		struct suggest_group *gr = &r->groups[g];

		if (gr->kind == SUGGEST_GROUP_READ_MOSTLY)
			snprintf(gr->name, sizeof(gr->name), "%.40s_read_mostly", s);
		else if (gr->kind == SUGGEST_GROUP_COLD)
			snprintf(gr->name, sizeof(gr->name), "%.40s_cold", s);
		else if (nw == 1)
			snprintf(gr->name, sizeof(gr->name), "%.40s_write", s);
		else
			snprintf(gr->name, sizeof(gr->name), "%.40s_write_%u", s, ++k);
	}
}

/*
 * Within a group: the current order when it fits one line (a smaller patch, and nothing to
 * gain), else a chain by affinity from the hottest unit, so that the members one thread uses
 * together land on the same line.
 */
static unsigned int order_group(struct suggest *sg, struct suggest_result *r, int g,
				unsigned int *out)
{
	unsigned int n = 0;
	uint64_t bytes = 0;

	for (unsigned int u = 0; u < sg->nr_units; u++)
		if (r->profiles[u].group == g) {
			out[n++] = u;
			bytes += sg->units[u].size;
		}
	if (bytes <= sg->cfg.line_size || n < 3)
		return n;
	bool *taken = xcalloc(n, sizeof(*taken));
	unsigned int *chain = xcalloc(n, sizeof(*chain));
	unsigned int best = 0;

	for (unsigned int i = 1; i < n; i++) {
		const struct suggest_profile *a = &r->profiles[out[i]], *b = &r->profiles[out[best]];

		if (a->hitm > b->hitm || (a->hitm == b->hitm && a->loads + a->writes >
							       b->loads + b->writes))
			best = i;
	}
	for (unsigned int k = 0; k < n; k++) {
		chain[k] = out[best];
		taken[best] = true;
		if (k + 1 == n)
			break;
		int next = -1;
		uint64_t next_aff = 0;

		for (unsigned int i = 0; i < n; i++) {
			if (taken[i])
				continue;
			uint64_t aff = sg->affinity[(size_t)chain[k] * sg->nr_units + out[i]];

			if (next < 0 || aff > next_aff) {
				next = (int)i;
				next_aff = aff;
			}
		}
		best = (unsigned int)next;
	}
	memcpy(out, chain, n * sizeof(*out));
	free(chain);
	free(taken);
	return n;
}

/* ---- 4. placement ---- */

uint64_t suggest__place(const struct suggest_unit *units, unsigned int nr_units,
			const unsigned int *order, const uint32_t *align_attr, uint64_t *offset,
			uint32_t *align)
{
	uint64_t cur = 0;
	uint32_t a_max = 1;

	for (unsigned int k = 0; k < nr_units; k++) {
		unsigned int u = order[k];
		uint32_t a = units[u].align ? units[u].align : 1;

		if (align_attr && align_attr[u] > a)
			a = align_attr[u];
		if (a > a_max)
			a_max = a;
		cur = align_up(cur, a);
		offset[u] = cur;
		cur += units[u].size;
	}
	*align = a_max;
	return align_up(cur, a_max);
}

struct placer {
	struct suggest *sg;
	struct suggest_result *r;
	unsigned int n;		/* units placed */
	uint64_t cur;		/* end of the last one */
	bool *placed;
	unsigned int *cold;	/* cold units, largest first */
	unsigned int nr_cold;
	unsigned int next_pin;	/* pinned units below it are placed */
};

static uint32_t unit_align(const struct suggest_unit *u)
{
	return u->align ? u->align : 1;
}

static void placer__put(struct placer *pl, unsigned int u, uint32_t attr)
{
	const struct suggest_unit *un = &pl->sg->units[u];
	uint32_t a = unit_align(un);

	if (attr > a)
		a = attr;
	pl->r->align_attr[u] = attr;
	pl->cur = align_up(pl->cur, a);
	pl->r->new_offset[u] = pl->cur;
	pl->cur += un->size;
	pl->r->order[pl->n++] = u;
	pl->placed[u] = true;
}

/* Cold units into the space before @limit, largest first. */
static void placer__fill(struct placer *pl, uint64_t limit)
{
	for (unsigned int k = 0; k < pl->nr_cold; k++) {
		unsigned int u = pl->cold[k];
		const struct suggest_unit *un = &pl->sg->units[u];

		if (pl->placed[u] || un->pinned || un->flex)
			continue;
		if (align_up(pl->cur, unit_align(un)) + un->size <= limit)
			placer__put(pl, u, 0);
	}
}

/*
 * Every pinned unit whose offset lies before @end, at exactly its offset, cold units filling
 * the space up to it: -1 with the reason in the result when a pin cannot be kept.
 */
static int placer__pins_before(struct placer *pl, uint64_t end)
{
	struct suggest *sg = pl->sg;

	for (; pl->next_pin < sg->nr_units; pl->next_pin++) {
		const struct suggest_unit *pu = &sg->units[pl->next_pin];

		if (!pu->pinned)
			continue;
		if (pu->offset >= end)
			break;
		placer__fill(pl, pu->offset);
		if (align_up(pl->cur, unit_align(pu)) != pu->offset) {
			snprintf(pl->r->message, sizeof(pl->r->message),
				 "cannot keep %s at offset %llu (--pin): the members placed before "
				 "it end at %llu", pu->name, (unsigned long long)pu->offset,
				 (unsigned long long)pl->cur);
			return -1;
		}
		placer__put(pl, pl->next_pin, 0);
	}
	return 0;
}

static int cold_cmp(const void *a, const void *b, void *arg)
{
	const struct suggest *sg = arg;
	const struct suggest_unit *x = &sg->units[*(const unsigned int *)a];
	const struct suggest_unit *y = &sg->units[*(const unsigned int *)b];

	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static void sort_cold(struct suggest *sg, unsigned int *v, unsigned int n)
{
	/* insertion sort: qsort_r's argument order differs between libcs, and n is small */
	for (unsigned int i = 1; i < n; i++) {
		unsigned int x = v[i], j = i;

		while (j && cold_cmp(&x, &v[j - 1], sg) < 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

/*
 * Lay the groups out in @gorder (group indices; @keep[g]: the group starts a line), pinned
 * units at their offsets.  Returns 0, or -1 with r->message when a pin cannot be kept.
 */
static int place_groups(struct suggest *sg, struct suggest_result *r, const int *gorder,
			unsigned int nr, const bool *keep)
{
	struct placer pl = { .sg = sg, .r = r };
	unsigned int *members = xcalloc(sg->nr_units + 1, sizeof(*members));
	unsigned int line = sg->cfg.line_size;
	int rc = 0;

	pl.placed = xcalloc(sg->nr_units + 1, sizeof(*pl.placed));
	pl.cold = xcalloc(sg->nr_units + 1, sizeof(*pl.cold));
	memset(r->align_attr, 0, sg->nr_units * sizeof(*r->align_attr));
	for (unsigned int u = 0; u < sg->nr_units; u++)
		if (r->profiles[u].use == SUGGEST_COLD && !sg->units[u].pinned && !sg->units[u].flex)
			pl.cold[pl.nr_cold++] = u;
	sort_cold(sg, pl.cold, pl.nr_cold);

	for (unsigned int k = 0; k < nr; k++) {
		int g = gorder[k];
		unsigned int n = order_group(sg, r, g, members);
		bool first = true;

		for (unsigned int i = 0; i < n; i++) {
			unsigned int u = members[i];
			const struct suggest_unit *un = &sg->units[u];

			if (pl.placed[u] || un->pinned || un->flex)
				continue;
			uint32_t attr = 0;

			if (first && keep[g] && pl.n) {
				/* a new line: fill the old one's tail with cold members first */
				placer__fill(&pl, align_up(pl.cur, line));
				/* an attribute even where the line already starts here: the
				 * boundary must hold whatever comes before and wherever the
				 * instance is (the struct becomes line-aligned) */
				if (un->forced_align < line)
					attr = line;
			}
			if (placer__pins_before(&pl, align_up(pl.cur, attr ? attr : unit_align(un)) +
							       un->size) < 0)
				goto fail;
			if (first) {
				r->groups[g].first = pl.n;
				r->groups[g].aligned = attr || (keep[g] && pl.cur % line == 0);
			}
			placer__put(&pl, u, attr);
			first = false;
		}
	}
	/* cold units at the end, then what else was not placed (pins last, the flex array) */
	for (unsigned int k = 0; k < pl.nr_cold; k++) {
		unsigned int u = pl.cold[k];

		if (pl.placed[u])
			continue;
		if (placer__pins_before(&pl, align_up(pl.cur, unit_align(&sg->units[u])) +
					       sg->units[u].size) < 0)
			goto fail;
		placer__put(&pl, u, 0);
	}
	if (placer__pins_before(&pl, UINT64_MAX) < 0)
		goto fail;
	for (unsigned int u = 0; u < sg->nr_units; u++)
		if (!pl.placed[u] && !sg->units[u].flex)
			placer__put(&pl, u, 0);
	for (unsigned int u = 0; u < sg->nr_units; u++)
		if (!pl.placed[u])
			placer__put(&pl, u, 0);
	r->size = suggest__place(sg->units, sg->nr_units, r->order, r->align_attr, r->new_offset,
				 &r->align);
	if (r->align < sg->align)
		r->align = sg->align;
	r->size = align_up(r->size, r->align);
	if (0) {
fail:
		rc = -1;
	}
	free(pl.placed);
	free(pl.cold);
	free(members);
	return rc;
}

static uint64_t holes_of(const struct suggest *sg, uint64_t size)
{
	uint64_t used = 0;

	for (unsigned int u = 0; u < sg->nr_units; u++)
		used += sg->units[u].size;
	return size > used ? size - used : 0;
}

/* ---- 5. replay ---- */

static unsigned int pred_line(struct suggest_prediction *p, struct u64map *idx, uint64_t rel)
{
	uint64_t v;

	if (u64map__get(idx, rel, &v))
		return (unsigned int)v;
	p->lines = xrealloc(p->lines, (p->nr_lines + 1) * sizeof(*p->lines));
	memset(&p->lines[p->nr_lines], 0, sizeof(*p->lines));
	p->lines[p->nr_lines].offset = rel;
	u64map__set(idx, rel, p->nr_lines);
	return p->nr_lines++;
}

static int line_cmp(const void *a, const void *b)
{
	const struct suggest_line *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/*
 * Replay every access through the coherence model, one core per thread.  @offsets NULL: the
 * recorded layout at the recorded addresses; else the new offsets, each instance on lines of
 * its own when the new alignment is at least a line (else at its recorded base).
 */
static void replay(struct suggest *sg, const uint64_t *offsets, uint32_t new_align,
		   struct suggest_prediction *pred)
{
	struct coh_costs costs;
	struct u64map state, idx, threads;
	unsigned int line = sg->cfg.line_size, shift = 0;
	uint32_t nr_threads = 0;

	while ((1u << shift) < line)
		shift++;
	coherence__default_costs(&costs);
	u64map__init(&state);
	u64map__init(&idx);
	u64map__init(&threads);
	memset(pred, 0, sizeof(*pred));
	for (size_t i = 0; i < sg->nr_acc; i++) {
		const struct suggest_access *a = &sg->acc[i];
		int u = suggest__unit_at(sg, a->offset);
		uint64_t off = a->offset, key, rel, inst = 0;

		u64map__get(&sg->instances, a->instance, &inst);
		if (offsets) {
			if (u < 0)
				continue;
			off = offsets[u] + (a->offset - sg->units[u].offset);
		}
		if (offsets && new_align >= line) {
			rel = off >> shift << shift;
			key = (inst << 24 | off >> shift) ^ 0x8000000000000000ull;
		} else {
			uint64_t addr = a->instance + off;

			key = addr >> shift;
			/* the line's place in the struct, for the table: from the instance's start */
			rel = (addr >> shift << shift) >= a->instance ?
				      (addr >> shift << shift) - a->instance : 0;
			rel = rel / line * line;
		}
		unsigned int li = pred_line(pred, &idx, rel);
		struct suggest_line *pl = &pred->lines[li];
		uint64_t st = 0;
		struct coh_outcome out;
		unsigned int core = dense(&threads, a->tid, &nr_threads) % COH_MAX_CORES;
		enum coh_op op = a->locked ? COH_RMW : a->store ? COH_STORE : COH_LOAD;

		u64map__get(&state, key, &st);
		st = coherence__step(st, core, op, &costs, &out);
		u64map__set(&state, key, st);
		pl->accesses++;
		pred->accesses++;
		if (!offsets && a->hitm) {
			pl->hitm_measured++;
			pred->hitm_measured++;
		}
		bool moved = false;

		if (op != COH_STORE && out.load_src == COH_SRC_HITM)
			moved = true;
		if (op != COH_LOAD && (out.invalidated || (out.prev_owner >= 0 &&
							    out.prev_owner != (int)core)))
			moved = true;
		if (moved) {
			pl->transfers++;
			pred->transfers++;
		}
	}
	/* no access, no line array: qsort(NULL, 0) is undefined */
	if (pred->nr_lines > 1)
		qsort(pred->lines, pred->nr_lines, sizeof(*pred->lines), line_cmp);
	u64map__exit(&state);
	u64map__exit(&idx);
	u64map__exit(&threads);
}

struct timed_write {
	uint64_t time;
	size_t i;	/* index in suggest.acc: ties keep the order of arrival */
};

static int by_time(const void *a, const void *b)
{
	const struct timed_write *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * In time: how much a HITM sample re-bucketed on an (instance, new line) still counts.  A line
 * whose sampled writes, in time order, change writer about as often as writers taking turns
 * at random would (1 - 1/k of the time for k writers) keeps its HITMs; one whose writers come
 * in long runs (a pool of locks, each taken by one thread for a phase) keeps that share of
 * them: the line moves between threads only when its writer changes.  Keys are
 * instance << 24 | new line; the weight is in millionths.  Without times (fewer than 4
 * distinct: watch, old recordings) every key weighs 1, the verdict over the whole run.
 */
#define TURNOVER_ONE 1000000ULL

static uint64_t turnover_key(const struct suggest *sg, const uint64_t *offsets,
			     const struct suggest_access *a, bool *ok)
{
	int u = suggest__unit_at(sg, a->offset);
	uint64_t inst = 0;

	*ok = u >= 0 && u64map__get(&sg->instances, a->instance, &inst);
	if (!*ok)
		return 0;
	return inst << 24 |
	       (offsets[u] + (a->offset - sg->units[u].offset)) / sg->cfg.line_size;
}

static void turnover(struct suggest *sg, const uint64_t *offsets, struct u64map *weight)
{
	struct timed_write *ix = xcalloc(sg->nr_acc + 1, sizeof(*ix));
	struct u64map last, hand, writes, writers, seen;
	size_t n = 0, times = 0;
	uint64_t key, v;

	u64map__init(weight);
	for (size_t i = 0; i < sg->nr_acc; i++)
		if (access_writes(&sg->acc[i]) && suggest__unit_at(sg, sg->acc[i].offset) >= 0)
			ix[n++] = (struct timed_write){ sg->acc[i].time, i };
	qsort(ix, n, sizeof(*ix), by_time);
	for (size_t i = 0; i < n; i++)
		times += !i || ix[i].time != ix[i - 1].time;
	if (times < 4) {
		free(ix);
		return; /* no key: every weight 1 */
	}
	u64map__init(&last);
	u64map__init(&hand);
	u64map__init(&writes);
	u64map__init(&writers);
	u64map__init(&seen);
	for (size_t i = 0; i < n; i++) {
		const struct suggest_access *a = &sg->acc[ix[i].i];
		uint64_t tid = (uint64_t)a->tid + 1, prev;
		bool ok;

		key = turnover_key(sg, offsets, a, &ok);
		if (!ok)
			continue;
		if (u64map__get(&last, key, &prev) && prev != tid)
			u64map__set(&hand, key, (u64map__get(&hand, key, &v) ? v : 0) + 1);
		u64map__set(&last, key, tid);
		u64map__set(&writes, key, (u64map__get(&writes, key, &v) ? v : 0) + 1);
		if (!u64map__get(&seen, key * 1000003 ^ tid, &v)) {
			u64map__set(&seen, key * 1000003 ^ tid, 1);
			u64map__set(&writers, key, (u64map__get(&writers, key, &v) ? v : 0) + 1);
		}
	}
	for (size_t i = 0; i < n; i++) {
		const struct suggest_access *a = &sg->acc[ix[i].i];
		uint64_t w = 0, h = 0, k = 0;
		bool ok;

		key = turnover_key(sg, offsets, a, &ok);
		if (!ok || u64map__get(weight, key, &v))
			continue;
		u64map__get(&writes, key, &w);
		u64map__get(&hand, key, &h);
		u64map__get(&writers, key, &k);
		if (k < 2 || w < 2) {
			v = k < 2 ? 0 : TURNOVER_ONE;
		} else {
			/* (h / (w - 1)) / (1 - 1/k), capped at 1 */
			double f = (double)h * (double)k / ((double)(w - 1) * (double)(k - 1));

			v = f >= 1 ? TURNOVER_ONE : (uint64_t)(f * TURNOVER_ONE);
		}
		u64map__set(weight, key, v);
	}
	u64map__exit(&last);
	u64map__exit(&hand);
	u64map__exit(&writes);
	u64map__exit(&writers);
	u64map__exit(&seen);
	free(ix);
}

/* A staying HITM sample @a on new line @l, weighed by its key's turnover, into @acc. */
static void stay(struct suggest *sg, const uint64_t *offsets, struct u64map *weight,
		 const struct suggest_access *a, uint64_t l, struct suggest_prediction *pred,
		 uint64_t *acc)
{
	uint64_t w = TURNOVER_ONE;
	bool ok;

	if (weight->nr) {
		uint64_t key = turnover_key(sg, offsets, a, &ok);

		if (!ok || !u64map__get(weight, key, &w))
			w = 0;
	}
	acc[pred->nr_lines] += w;
	for (unsigned int k = 0; k < pred->nr_lines; k++)
		if (pred->lines[k].offset == l * sg->cfg.line_size)
			acc[k] += w;
}

/* The weighed sums, rounded, into @pred. */
static void stay_sums(const uint64_t *acc, struct suggest_prediction *pred)
{
	pred->hitm_measured = (acc[pred->nr_lines] + TURNOVER_ONE / 2) / TURNOVER_ONE;
	for (unsigned int k = 0; k < pred->nr_lines; k++)
		pred->lines[k].hitm_measured = (acc[k] + TURNOVER_ONE / 2) / TURNOVER_ONE;
}

/*
 * The recorded HITM samples re-bucketed on the new layout: one stays when its new line holds
 * a written unit whose writers include a thread other than the sample's, weighed in time by
 * how often that line's writer changes (turnover).
 */
static void rebucket_hitm(struct suggest *sg, const uint64_t *offsets, struct suggest_prediction *pred)
{
	const struct suggest_result *r = sg->res;
	unsigned int line = sg->cfg.line_size;
	uint64_t *acc = xcalloc(pred->nr_lines + 1, sizeof(*acc));
	struct u64map weight;

	turnover(sg, offsets, &weight);
	for (size_t i = 0; i < sg->nr_acc; i++) {
		const struct suggest_access *a = &sg->acc[i];
		int u = suggest__unit_at(sg, a->offset);

		if (!a->hitm || u < 0)
			continue;
		uint64_t off = offsets[u] + (a->offset - sg->units[u].offset), l = off / line;
		bool stays = false;

		for (unsigned int v = 0; v < sg->nr_units && !stays; v++) {
			const struct suggest_unit *w = &sg->units[v];
			uint64_t first = offsets[v] / line;
			uint64_t last = (offsets[v] + (w->size ? w->size - 1 : 0)) / line;

			/* a written unit's own writers: a read-mostly member's setup store is
			 * no writer of its line */
			if (l < first || l > last || r->profiles[v].use != SUGGEST_WRITTEN)
				continue;
			for (uint32_t k = 0; k < r->profiles[v].writers.nr && !stays; k++)
				stays = r->profiles[v].writers.ids[k] != a->tid;
		}
		if (stays)
			stay(sg, offsets, &weight, a, l, pred, acc);
	}
	stay_sums(acc, pred);
	u64map__exit(&weight);
	free(acc);
}

void suggest__predict(struct suggest *sg, const uint64_t *offsets, uint32_t align,
		      struct suggest_prediction *pred)
{
	replay(sg, offsets, align, pred);
	if (sg->res)
		rebucket_hitm(sg, offsets, pred);
}

/* ---- findings ---- */

static void add_finding(struct suggest_result *r, enum suggest_finding_kind kind, int unit,
			uint64_t a, uint64_t b, double rate)
{
	r->findings = xrealloc(r->findings, (r->nr_findings + 1) * sizeof(*r->findings));
	r->findings[r->nr_findings++] = (struct suggest_finding){ kind, unit, a, b, rate };
}

/*
 * The advice beside the order.  Whether a unit is truly shared, and whether an array's
 * elements are shared between threads, is lineup fields' verdict on its lines (p->sharing):
 * the suggester gives the figures (writers, the reads a sharded counter's sum would make, the
 * parts and what padding them costs), not a second opinion.
 */
static void find_advice(struct suggest *sg, struct suggest_result *r)
{
	double secs = r->last_time > r->first_time ? (r->last_time - r->first_time) / 1e9 : 0;
	unsigned int line = sg->cfg.line_size;

	for (unsigned int u = 0; u < sg->nr_units; u++) {
		const struct suggest_profile *p = &r->profiles[u];
		const struct suggest_unit *un = &sg->units[u];

		if (p->sharing & SHARING_TRUE) {
			/* the sum side: loads by the readers of a sharded counter */
			uint64_t reads = p->reads;
			uint64_t writers = p->max_writers > p->writers.nr ? p->max_writers :
									     p->writers.nr;

			add_finding(r, SUGGEST_TRUE_SHARING, (int)u, writers, reads,
				    secs > 0 ? reads / secs : 0);
		}
		if (p->redundant_rmw)
			add_finding(r, SUGGEST_TEST_BEFORE_SET, (int)u, p->redundant_rmw,
				    p->rmw_checked, 0);
		if (p->sharing & SHARING_FALSE_ELEMENTS && un->elem_size) {
			/* each thread's part on lines of its own: padded to whole lines */
			uint64_t part = p->elem_part ? p->elem_part : un->elem_size;
			uint64_t padded = align_up(part, line);
			uint64_t parts = part ? un->size / part : 0;

			add_finding(r, SUGGEST_ELEMENTS, (int)u, padded, (padded - part) * parts, 0);
		}
	}
	/* instances next to each other on one line, written by different threads */
	uint64_t shared = 0;

	if (sg->nr_instances > 1) {
		uint64_t *bases = memdup(sg->instance_base, sg->nr_instances * sizeof(*bases));

		for (size_t i = 1; i < sg->nr_instances; i++) {	/* insertion sort: few instances */
			uint64_t x = bases[i];
			size_t j = i;

			while (j && bases[j - 1] > x) {
				bases[j] = bases[j - 1];
				j--;
			}
			bases[j] = x;
		}
		for (size_t i = 1; i < sg->nr_instances; i++) {
			uint64_t last = (bases[i - 1] + (sg->size ? sg->size - 1 : 0)) / line;

			if (bases[i] / line != last || bases[i] - bases[i - 1] < sg->size / 2)
				continue;
			shared++;
		}
		free(bases);
	}
	if (shared && sg->align < sg->cfg.line_size)
		add_finding(r, SUGGEST_INSTANCES, -1, shared, 0, 0);
}

/* The groups renumbered in the order the new layout has them (what a reader follows). */
static void groups_in_layout_order(struct suggest_result *r)
{
	unsigned int n = r->nr_groups, k = 0;
	int *renum = xcalloc(n + 1, sizeof(*renum));
	struct suggest_group *g = xcalloc(n + 1, sizeof(*g));

	for (unsigned int g0 = 0; g0 < n; g0++)
		renum[g0] = -1;
	for (unsigned int i = 0; i < r->nr_units; i++) {
		int old = r->profiles[r->order[i]].group;

		if (old < 0 || renum[old] >= 0)
			continue;
		renum[old] = (int)k;
		g[k] = r->groups[old];
		g[k].first = i;
		k++;
	}
	for (unsigned int u = 0; u < r->nr_units; u++) {
		struct suggest_profile *p = &r->profiles[u];

		if (p->group >= 0) {
			p->group = renum[p->group];
			g[p->group].nr++;
		}
	}
	for (unsigned int f = 0; f < r->nr_findings; f++)
		if (r->findings[f].kind == SUGGEST_GAVE_UP && r->findings[f].a < n)
			r->findings[f].a = (uint64_t)renum[r->findings[f].a];
	free(r->groups);
	r->groups = g;
	free(renum);
}

/* ---- the decision ---- */

/*
 * Whether some line of the current layout (instances line-aligned) holds members of two
 * groups one of which is written, and moved between cores in the recording: what the new
 * layout separates, whatever the model predicts for communication that stays.
 */
static bool separates(const struct suggest *sg, const struct suggest_result *r)
{
	unsigned int line = sg->cfg.line_size;

	for (uint64_t l = 0; l * line < sg->size; l++) {
		int written = -1, other = -1;

		for (unsigned int u = 0; u < sg->nr_units; u++) {
			const struct suggest_unit *un = &sg->units[u];
			int g = r->profiles[u].group;

			if (g < 0 || un->offset / line > l ||
			    (un->offset + (un->size ? un->size : 1) - 1) / line < l)
				continue;
			if (r->groups[g].kind == SUGGEST_GROUP_WRITTEN && written < 0)
				written = g;
			else if (g != written)
				other = g;
		}
		if (written >= 0 && other >= 0)
			for (unsigned int i = 0; i < r->before.nr_lines; i++)
				if (r->before.lines[i].offset == l * line && r->before.lines[i].transfers)
					return true;
	}
	return false;
}

static bool same_as_before(const struct suggest *sg, const struct suggest_result *r)
{
	if (r->size != sg->size)
		return false;
	for (unsigned int u = 0; u < sg->nr_units; u++)
		if (r->new_offset[u] != sg->units[u].offset || r->align_attr[u])
			return false;
	return true;
}

/*
 * rebucket_hitm for instances that get lines of their own (the padded elements of an aligned
 * array): a HITM sample stays where another thread writes the same instance's new line,
 * weighed in time by that line's turnover.
 */
static void rebucket_own_lines(struct suggest *sg, const uint64_t *offsets,
			       struct suggest_prediction *pred)
{
	struct u64map writer;	/* instance << 24 | new line -> writing tid + 1, or UINT64_MAX */
	struct u64map weight;
	uint64_t w, *acc = xcalloc(pred->nr_lines + 1, sizeof(*acc));

	u64map__init(&writer);
	turnover(sg, offsets, &weight);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < sg->nr_acc; i++) {
			const struct suggest_access *a = &sg->acc[i];
			bool ok;
			uint64_t key = turnover_key(sg, offsets, a, &ok);

			if (!ok)
				continue;
			if (!pass && (a->store || a->locked)) {
				if (!u64map__get(&writer, key, &w))
					u64map__set(&writer, key, (uint64_t)a->tid + 1);
				else if (w != (uint64_t)a->tid + 1)
					u64map__set(&writer, key, UINT64_MAX);
				continue;
			}
			if (!pass || !a->hitm || !u64map__get(&writer, key, &w) ||
			    w == (uint64_t)a->tid + 1)
				continue;
			stay(sg, offsets, &weight, a, key & ((1u << 24) - 1), pred, acc);
		}
	stay_sums(acc, pred);
	u64map__exit(&writer);
	u64map__exit(&weight);
	free(acc);
}

void suggest__set_array_causes(struct suggest *sg, unsigned int causes)
{
	sg->array_causes = causes;
}

/*
 * The instances are elements of an array placed so that they share lines (see
 * suggest__set_array_causes): the order stays, a padded element when the element's size is the
 * cause, nothing when only the array's start is.
 */
static void array_result(struct suggest *sg, struct suggest_result *r)
{
	unsigned int n = sg->nr_units, line = sg->cfg.line_size, k = 0;

	/* advice about the instances sharing lines is this one's (and an inner array written
	 * by "different threads" is each instance's written by its own) */
	for (unsigned int f = 0; f < r->nr_findings; f++)
		if (r->findings[f].kind != SUGGEST_INSTANCES &&
		    r->findings[f].kind != SUGGEST_ELEMENTS)
			r->findings[k++] = r->findings[f];
	r->nr_findings = k;
	for (unsigned int g = 0; g < r->nr_groups; g++) {
		id_set__release(&r->groups[g].writers);
		id_set__release(&r->groups[g].readers);
	}
	r->nr_groups = 0;
	for (unsigned int u = 0; u < n; u++) {
		r->order[u] = u;
		r->profiles[u].group = -1;
	}
	if (sg->array_causes & ALIGN_PAD && n && sg->align < line) {
		r->align_attr[0] = line;
		r->size = suggest__place(sg->units, n, r->order, r->align_attr, r->new_offset,
					 &r->align);
		r->size = align_up(r->size, r->align);
		add_finding(r, SUGGEST_ARRAY_ELEMENT, -1, r->size, r->size - sg->size, 0);
	} else {
		for (unsigned int u = 0; u < n; u++)
			r->new_offset[u] = sg->units[u].offset;
		r->size = sg->size;
		r->align = sg->align;
	}
	r->holes = holes_of(sg, r->size);
	replay(sg, NULL, sg->align, &r->before);
	replay(sg, r->new_offset, r->size != sg->size ? r->align : sg->align, &r->after);
	rebucket_own_lines(sg, r->new_offset, &r->after);
	if (!r->before.transfers) {
		r->status = SUGGEST_NOTHING;
		snprintf(r->message, sizeof(r->message),
			 "no cache line of this struct moved between cores in the recording");
	} else if (!(sg->array_causes & ALIGN_PAD) || r->size == sg->size) {
		r->status = SUGGEST_NOTHING;
		snprintf(r->message, sizeof(r->message),
			 "no member order is the cause: its instances are elements of an array that "
			 "does not start on a cache line (the allocation is the fix)");
	} else {
		r->status = SUGGEST_OK;
	}
}

/* The unit with @bit of lineup fields' verdicts whose slots had the most HITMs, or -1. */
static int unit_with(const struct suggest *sg, const struct suggest_result *r, unsigned int bit,
		     uint64_t *hitm)
{
	int best = -1;

	*hitm = 0;
	for (unsigned int u = 0; u < sg->nr_units; u++)
		if (r->profiles[u].sharing & bit &&
		    (best < 0 || sg->verdicts.unit_hitm[u] > *hitm)) {
			best = (int)u;
			*hitm = sg->verdicts.unit_hitm[u];
		}
	return best;
}

/*
 * Nothing to do, and why: in the words of lineup fields' verdict on the struct's lines where
 * it has one that no member order answers (an array's elements shared between threads, true
 * sharing, one writer read by others), else the model's @why, which names no sharing.
 */
static void nothing(struct suggest *sg, struct suggest_result *r, const char *why)
{
	uint64_t eh, th;
	int e = unit_with(sg, r, SHARING_FALSE_ELEMENTS, &eh);
	int t = unit_with(sg, r, SHARING_TRUE, &th);
	unsigned long long before = r->before.transfers, after = r->after.transfers;

	r->status = SUGGEST_NOTHING;
	if (e >= 0 && (t < 0 || eh >= th))
		snprintf(r->message, sizeof(r->message), "the false sharing is between the "
			 "elements of %s, which different threads write: no member order "
			 "separates them (see elements: below)", sg->units[e].name);
	else if (t >= 0)
		snprintf(r->message, sizeof(r->message), "no member order removes these "
			 "transfers (%llu modeled before, %llu after): they are true sharing (%s "
			 "is written by several threads in turn)", before, after,
			 sg->units[t].name);
	else if (r->verdict == LINE_WRITE_READ)
		snprintf(r->message, sizeof(r->message), "no member order removes these "
			 "transfers (%llu modeled before, %llu after): one thread writes what the "
			 "others read (the data itself is shared)", before, after);
	else
		snprintf(r->message, sizeof(r->message), "%s", why);
}

/* The verdict of the most HITMs among lineup fields' on the struct's lines. */
static enum line_verdict main_verdict(const struct suggest_verdicts *v)
{
	enum line_verdict best = LINE_QUIET;

	for (int k = LINE_QUIET + 1; k <= LINE_WRITE_READ; k++)
		if (v->lines[k] && (best == LINE_QUIET || v->hitm[k] > v->hitm[best]))
			best = (enum line_verdict)k;
	return best;
}

void suggest__run(struct suggest *sg, struct suggest_result *r)
{
	unsigned int n = sg->nr_units;

	if (sg->res)
		result_release(sg->res);
	sg->res = r;
	memset(r, 0, sizeof(*r));
	r->nr_units = n;
	r->order = xcalloc(n + 1, sizeof(*r->order));
	r->new_offset = xcalloc(n + 1, sizeof(*r->new_offset));
	r->align_attr = xcalloc(n + 1, sizeof(*r->align_attr));
	r->old_size = sg->size;
	r->old_align = sg->align;
	r->nr_instances = sg->nr_instances;
	r->old_holes = holes_of(sg, sg->size);
	r->have_verdicts = sg->have_verdicts;
	r->verdicts = sg->verdicts;
	r->verdict = sg->have_verdicts ? main_verdict(&sg->verdicts) : LINE_QUIET;
	profile_units(sg, r);
	group_units(sg, r);

	/*
	 * Groups in the order their first members have now (groups are made in offset order):
	 * the smallest patch for the same separation.  Each starts a line.
	 */
	int *gorder = xcalloc(r->nr_groups + 1, sizeof(*gorder));
	bool *keep = xcalloc(r->nr_groups + 1, sizeof(*keep));

	for (unsigned int g = 0; g < r->nr_groups; g++)
		gorder[g] = (int)g;
	for (unsigned int g = 0; g < r->nr_groups; g++)
		keep[g] = true;
	/* instances sharing lines: the type itself must start a line */
	find_advice(sg, r);
	if (sg->array_causes) {
		array_result(sg, r);
		goto out;
	}
	bool align_type = false;

	for (unsigned int f = 0; f < r->nr_findings; f++)
		align_type |= r->findings[f].kind == SUGGEST_INSTANCES;
	name_groups(sg, r);

	if (place_groups(sg, r, gorder, r->nr_groups, keep) < 0) {
		r->status = SUGGEST_REFUSED;
		goto out;
	}
	if (align_type && r->nr_units && r->align < sg->cfg.line_size) {
		unsigned int u0 = r->order[0];

		if (!sg->units[u0].pinned || !sg->units[u0].offset)
			r->align_attr[u0] = sg->cfg.line_size;
		r->size = suggest__place(sg->units, n, r->order, r->align_attr, r->new_offset,
					 &r->align);
	}
	/* --max-growth: give up the boundaries worth least, one at a time */
	while (r->size > sg->size && r->size - sg->size > sg->cfg.max_growth) {
		int worst = -1;

		for (unsigned int k = 1; k < r->nr_groups; k++) {
			int g = gorder[k];

			if (!keep[g])
				continue;
			if (worst < 0 || r->groups[g].hitm + r->groups[g].writes <
					     r->groups[worst].hitm + r->groups[worst].writes)
				worst = g;
		}
		if (worst < 0) {
			snprintf(r->message, sizeof(r->message),
				 "no layout that separates the groups fits --max-growth %llu bytes "
				 "(the struct is %llu bytes, the best layout %llu)",
				 (unsigned long long)sg->cfg.max_growth,
				 (unsigned long long)sg->size, (unsigned long long)r->size);
			r->status = SUGGEST_REFUSED;
			goto out;
		}
		keep[worst] = false;
		add_finding(r, SUGGEST_GAVE_UP, -1, (uint64_t)worst, r->groups[worst].hitm, 0);
		if (place_groups(sg, r, gorder, r->nr_groups, keep) < 0) {
			r->status = SUGGEST_REFUSED;
			goto out;
		}
	}
	groups_in_layout_order(r);
	r->holes = holes_of(sg, r->size);
	replay(sg, NULL, sg->align, &r->before);
	replay(sg, r->new_offset, r->align, &r->after);
	rebucket_hitm(sg, r->new_offset, &r->after);

	if (!r->before.transfers) {
		nothing(sg, r, "no cache line of this struct moved between cores in the recording");
	} else if (same_as_before(sg, r)) {
		nothing(sg, r, "the current layout already groups the members this way");
	} else if (r->after.transfers * 20 >= r->before.transfers * 19 && !separates(sg, r)) {
		char why[sizeof(r->message)];

		snprintf(why, sizeof(why), "no member order removes these transfers (%llu modeled "
			 "before, %llu after)", (unsigned long long)r->before.transfers,
			 (unsigned long long)r->after.transfers);
		nothing(sg, r, why);
	} else {
		r->status = SUGGEST_OK;
	}
out:
	free(gorder);
	free(keep);
}
