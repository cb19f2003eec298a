// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "analyzer/fields.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/c2c.h"
#include "analyzer/id_set.h"
#include "util/u64map.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct fields_priv {
	struct u64map line_of;		/* line address -> index in lines */
	struct u64map struct_of;	/* layout pointer -> index in structs */
	struct u64map *instances;	/* per struct: instance base -> index in its instances[] */
	size_t cap_instances;
	struct u64map rmw_total, rmw_redundant;	/* ip -> counts from the collector */
};

static struct fields_priv *priv(const struct fields *f)
{
	return f->priv;
}

/* --- stats --- */

static struct field_ip *stats__ip(struct field_stats *st, uint64_t ip)
{
	size_t lo = 0, hi = st->nr_ips;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->ips[mid].ip == ip)
			return &st->ips[mid];
		if (st->ips[mid].ip < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	st->ips = xgrow(st->ips, &st->cap_ips, st->nr_ips + 1, sizeof(*st->ips));
	memmove(st->ips + lo + 1, st->ips + lo, (st->nr_ips - lo) * sizeof(*st->ips));
	memset(&st->ips[lo], 0, sizeof(st->ips[lo]));
	st->ips[lo].ip = ip;
	st->nr_ips++;
	return &st->ips[lo];
}

static void stats__add(struct field_stats *st, const struct fields_access *a)
{
	struct field_ip *ip = stats__ip(st, a->ip);
	bool hitm = a->load && (a->lcl_hitm || a->rmt_hitm);

	if (a->load) {
		st->loads++;
		ip->loads++;
		id_set__add(&st->cpus_read, a->cpu);
		id_set__add(&st->tids_read, a->tid);
	}
	if (a->store) {
		st->stores++;
		ip->stores++;
	}
	if (a->locked) {
		st->locked++;
		ip->locked++;
		if (!a->store)
			st->locked_loads++;
	}
	/* A lock-prefixed RMW writes the line even when it was sampled as a load. */
	if (a->store || a->locked) {
		st->writes++;
		id_set__add(&st->cpus_write, a->cpu);
		id_set__add(&st->tids_write, a->tid);
	}
	if (a->load && a->lcl_hitm)
		st->lcl_hitm++;
	if (a->load && a->rmt_hitm)
		st->rmt_hitm++;
	if (hitm)
		ip->hitm++;
	if (a->weight) {
		st->weight_sum += a->weight;
		st->weighted++;
	}
	if (a->time) {
		if (!st->first_time || a->time < st->first_time)
			st->first_time = a->time;
		if (a->time > st->last_time)
			st->last_time = a->time;
	}
}

static void stats__merge(struct field_stats *dst, const struct field_stats *src)
{
	dst->loads += src->loads;
	dst->stores += src->stores;
	dst->writes += src->writes;
	dst->locked_loads += src->locked_loads;
	dst->locked += src->locked;
	dst->lcl_hitm += src->lcl_hitm;
	dst->rmt_hitm += src->rmt_hitm;
	dst->weight_sum += src->weight_sum;
	dst->weighted += src->weighted;
	if (src->first_time && (!dst->first_time || src->first_time < dst->first_time))
		dst->first_time = src->first_time;
	if (src->last_time > dst->last_time)
		dst->last_time = src->last_time;
	id_set__merge(&dst->cpus_read, &src->cpus_read);
	id_set__merge(&dst->cpus_write, &src->cpus_write);
	id_set__merge(&dst->tids_read, &src->tids_read);
	id_set__merge(&dst->tids_write, &src->tids_write);
	for (size_t i = 0; i < src->nr_ips; i++) {
		struct field_ip *d = stats__ip(dst, src->ips[i].ip);

		d->loads += src->ips[i].loads;
		d->stores += src->ips[i].stores;
		d->locked += src->ips[i].locked;
		d->hitm += src->ips[i].hitm;
	}
}

static void stats__release(struct field_stats *st)
{
	id_set__release(&st->cpus_read);
	id_set__release(&st->cpus_write);
	id_set__release(&st->tids_read);
	id_set__release(&st->tids_write);
	zfree(&st->ips);
	st->nr_ips = st->cap_ips = 0;
}

static int ip_cmp(const void *a, const void *b)
{
	const struct field_ip *x = a, *y = b;
	uint64_t nx = x->loads + x->stores, ny = y->loads + y->stores;

	if (x->hitm != y->hitm)
		return x->hitm > y->hitm ? -1 : 1;
	if (nx != ny)
		return nx > ny ? -1 : 1;
	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

/* After this, stats__ip() must not be used on @st again (the order is by samples). */
static void stats__sort_ips(struct field_stats *st)
{
	if (st->nr_ips > 1)
		qsort(st->ips, st->nr_ips, sizeof(*st->ips), ip_cmp);
}

void field_stats__release(struct field_stats *st)
{
	stats__release(st);
}

void field_struct__rollup(const struct field_struct *s, unsigned int m, struct field_stats *out)
{
	const struct flat_member *c = &s->layout->members[m];
	size_t n = strlen(c->path);

	memset(out, 0, sizeof(*out));
	stats__merge(out, &s->members[m]);
	for (unsigned int i = m + 1; i < s->layout->nr_members; i++) {
		const struct flat_member *d = &s->layout->members[i];

		if (d->offset >= c->offset + c->size)
			break;
		if (!strncmp(d->path, c->path, n) && (d->path[n] == '.' || d->path[n] == '['))
			stats__merge(out, &s->members[i]);
	}
	stats__sort_ips(out);
}

/* --- the tables --- */

bool fields_access__classify(struct fields_access *a, uint64_t data_src, uint64_t addr)
{
	struct c2c_stats st = { 0 };

	c2c_stats__decode(&st, data_src, addr, true);
	a->load = st.load != 0;
	a->store = st.store != 0;
	a->locked = st.locks != 0;
	a->lcl_hitm = st.lcl_hitm != 0 || st.lcl_peer != 0;
	a->rmt_hitm = st.rmt_hitm != 0 || st.rmt_peer != 0;
	return a->load && !st.tot_hitm && st.tot_peer;
}

struct fields *fields__new(unsigned int line_size)
{
	struct fields *f = xcalloc(1, sizeof(*f));
	struct fields_priv *p = xcalloc(1, sizeof(*p));

	f->line_size = line_size && !(line_size & (line_size - 1)) ? line_size : 64;
	u64map__init(&p->line_of);
	u64map__init(&p->struct_of);
	u64map__init(&p->rmw_total);
	u64map__init(&p->rmw_redundant);
	f->priv = p;
	return f;
}

void fields__delete(struct fields *f)
{
	struct fields_priv *p;

	if (!f)
		return;
	p = priv(f);
	for (size_t i = 0; i < f->nr_structs; i++) {
		struct field_struct *s = &f->structs[i];

		for (unsigned int m = 0; m <= s->layout->nr_members; m++)
			stats__release(&s->members[m]);
		free(s->members);
		free(s->instances);
		stats__release(&s->total);
		u64map__exit(&p->instances[i]);
	}
	free(f->structs);
	for (size_t i = 0; i < f->nr_lines; i++) {
		struct field_line *l = &f->lines[i];

		for (size_t k = 0; k < l->nr_slots; k++) {
			stats__release(&l->slots[k].st);
			free(l->slots[k].writes);
		}
		free(l->slots);
		stats__release(&l->st);
	}
	free(f->lines);
	free(p->instances);
	u64map__exit(&p->line_of);
	u64map__exit(&p->struct_of);
	u64map__exit(&p->rmw_total);
	u64map__exit(&p->rmw_redundant);
	free(p);
	free(f);
}

static struct field_struct *struct_of(struct fields *f, const struct flat_layout *l, size_t *idx)
{
	struct fields_priv *p = priv(f);
	uint64_t i;

	if (!u64map__get(&p->struct_of, (uint64_t)(uintptr_t)l, &i)) {
		struct field_struct *s;

		i = f->nr_structs;
		f->structs = xgrow(f->structs, &f->cap_structs, i + 1, sizeof(*f->structs));
		p->instances = xgrow(p->instances, &p->cap_instances, i + 1,
				     sizeof(*p->instances));
		u64map__init(&p->instances[i]);
		s = &f->structs[i];
		memset(s, 0, sizeof(*s));
		s->layout = l;
		s->members = xcalloc(l->nr_members + 1, sizeof(*s->members));
		f->nr_structs++;
		u64map__set(&p->struct_of, (uint64_t)(uintptr_t)l, i);
	}
	*idx = (size_t)i;
	return &f->structs[i];
}

static struct field_line *line_of(struct fields *f, uint64_t addr)
{
	struct fields_priv *p = priv(f);
	uint64_t line = addr & ~(uint64_t)(f->line_size - 1), i;

	if (!u64map__get(&p->line_of, line, &i)) {
		i = f->nr_lines;
		f->lines = xgrow(f->lines, &f->cap_lines, i + 1, sizeof(*f->lines));
		memset(&f->lines[i], 0, sizeof(f->lines[i]));
		f->lines[i].addr = line;
		f->lines[i].true_shared = -1;
		f->nr_lines++;
		u64map__set(&p->line_of, line, i);
	}
	return &f->lines[i];
}

static struct line_slot *slot_of(struct field_line *l, const struct attr_result *res,
				 uint64_t addr)
{
	const struct flat_layout *layout = res->kind != ATTR_NONE ? res->layout : NULL;
	uint64_t base = layout ? res->base : addr;
	int member = layout ? res->member : -1;
	uint64_t elem = 0;
	struct line_slot *s;

	/* Each element of an array member is a slot of its own (per-thread counters). */
	if (layout && member >= 0 && layout->members[member].elem_size)
		elem = (res->offset - layout->members[member].offset) /
		       layout->members[member].elem_size;
	for (size_t i = 0; i < l->nr_slots; i++) {
		s = &l->slots[i];
		if (s->layout == layout && s->base == base && s->member == member &&
		    s->elem == elem) {
			if (addr - l->addr < s->offset)
				s->offset = (uint32_t)(addr - l->addr);
			return s;
		}
	}
	l->slots = xgrow(l->slots, &l->cap_slots, l->nr_slots + 1, sizeof(*l->slots));
	s = &l->slots[l->nr_slots++];
	memset(s, 0, sizeof(*s));
	s->layout = layout;
	s->base = base;
	s->member = member;
	s->elem = elem;
	s->offset = (uint32_t)(addr - l->addr);
	if (layout) {
		snprintf(s->path, sizeof(s->path), "%s", res->path);
		snprintf(s->element, sizeof(s->element), "%s", res->element);
		s->array = res->element[0] ? res->array : 0;
	}
	return s;
}

void fields__add(struct fields *f, const struct attr_result *res, const struct fields_access *a)
{
	struct field_line *l = line_of(f, a->addr);
	struct line_slot *slot = slot_of(l, res, a->addr);
	bool hitm = a->load && (a->lcl_hitm || a->rmt_hitm);

	stats__add(&l->st, a);
	stats__add(&slot->st, a);
	if (a->store || a->locked) {
		slot->writes = xgrow(slot->writes, &slot->cap_writes, slot->nr_writes + 1,
				     sizeof(*slot->writes));
		slot->writes[slot->nr_writes++] = (struct slot_write){ a->time, a->cpu, a->tid };
	}
	f->hitm += hitm;
	f->stores += a->store;
	f->loads += a->load;
	attr_stats__add(&f->attr_all, res, 1);
	attr_stats__add(&f->attr_cycles, res, a->weight);
	if (hitm)
		attr_stats__add(&f->attr_hitm, res, 1);
	if (a->time) {
		if (!f->first_time || a->time < f->first_time)
			f->first_time = a->time;
		if (a->time > f->last_time)
			f->last_time = a->time;
	}
	if (res->kind != ATTR_NONE && res->layout) {
		size_t idx;
		struct field_struct *s = struct_of(f, res->layout, &idx);
		int m = res->member >= 0 && (unsigned int)res->member < res->layout->nr_members ?
				res->member : (int)res->layout->nr_members;
		struct u64map *inst = &priv(f)->instances[idx];
		uint64_t k;

		stats__add(&s->members[m], a);
		stats__add(&s->total, a);
		s->by_kind[res->kind]++;
		if (!u64map__get(inst, res->base, &k)) {
			k = s->nr_instances++;
			s->instances = xgrow(s->instances, &s->cap_instances, s->nr_instances,
					     sizeof(*s->instances));
			memset(&s->instances[k], 0, sizeof(s->instances[k]));
			s->instances[k].base = res->base;
			snprintf(s->instances[k].element, sizeof(s->instances[k].element), "%s",
				 res->element);
			u64map__set(inst, res->base, k);
		}
		s->instances[k].samples++;
		s->instances[k].stores += a->store;
		s->instances[k].hitm += a->load && (a->lcl_hitm || a->rmt_hitm);
	}
}

void fields__add_rmw(struct fields *f, uint64_t ip, uint64_t total, uint64_t redundant)
{
	struct fields_priv *p = priv(f);
	uint64_t t = 0, r = 0;

	u64map__get(&p->rmw_total, ip, &t);
	u64map__get(&p->rmw_redundant, ip, &r);
	u64map__set(&p->rmw_total, ip, t + total);
	u64map__set(&p->rmw_redundant, ip, r + redundant);
}

bool field_line__contended(const struct fields *f, const struct field_line *l)
{
	/* One HITM is a value handed over once (a final report reading a counter), not a fight. */
	if (field_stats__hitm(&l->st) < 2)
		return false;
	/* Stores were sampled, none of this line's: too little seen to say who fights. */
	return l->st.writes || !f->stores;
}

bool field_line__listed(const struct fields *f, const struct field_line *l, double min_share)
{
	return l->verdict != LINE_QUIET &&
	       (double)field_stats__hitm(&l->st) >= min_share * (double)f->hitm;
}

const char *line_verdict__name(enum line_verdict v)
{
	switch (v) {
	case LINE_FALSE_SHARING:
		return "false sharing";
	case LINE_TRUE_SHARING:
		return "true sharing";
	case LINE_WRITE_READ:
		return "true sharing (one writer, other readers)";
	default:
		return "not contended";
	}
}

bool fields__too_few_samples(const struct fields *f)
{
	return f->loads < FIELDS_MIN_LOADS;
}

void fields__explain_samples(const struct fields *f, struct strbuf *out)
{
	strbuf__addf(out, "too few samples for a verdict: %" PRIu64 " load sample%s (%" PRIu64
		     " HITM) in all, fewer than %u; a line needs 2 HITMs to be called contended, "
		     "so \"no contended line\" says little.  Record a longer run, or every access "
		     "(lineup record --sim --sim-exact), or sample more often (a smaller period: "
		     "lineup record -c N)\n", f->loads, f->loads == 1 ? "" : "s", f->hitm,
		     FIELDS_MIN_LOADS);
}

/*
 * A written slot: stores are more than a trace of its accesses.  A member written once at
 * setup and read on every pass (f_op) is read-mostly, not write-hot: sampling catches that
 * one store sometimes, and the verdict must not flip on it.
 */
static bool slot_written(const struct line_slot *s)
{
	return !field_stats__read_mostly(&s->st);
}

/*
 * Two written slots belong to one writer group when mostly the same CPUs write them (Jaccard
 * index of the writer sets >= 1/2): sampling rarely sees every writer of every member, so
 * exact set equality would split a lock and a refcount that every thread takes together.
 */
static bool same_writers(const struct line_slot *a, const struct line_slot *b)
{
	const struct id_set *x = &a->st.cpus_write, *y = &b->st.cpus_write;
	uint32_t both = 0;

	for (uint32_t i = 0; i < x->nr; i++)
		both += id_set__has(y, x->ids[i]);
	return 2 * both >= x->nr + y->nr - both;
}

/* Some CPU reads @s that does not write @w. */
static bool read_by_others(const struct line_slot *s, const struct line_slot *w)
{
	for (uint32_t i = 0; i < s->st.cpus_read.nr; i++)
		if (!id_set__has(&w->st.cpus_write, s->st.cpus_read.ids[i]) ||
		    w->st.cpus_write.nr > 1)
			return true;
	return false;
}

static int group_find(int *parent, int i)
{
	while (parent[i] != i)
		i = parent[i] = parent[parent[i]];
	return i;
}

/* --- the line in time --- */

/* One write of the line, for the walk in time order. */
struct line_write {
	uint64_t time;
	uint32_t cpu, slot;
	size_t seq;		/* order added: equal times keep it */
};

static int line_write_cmp(const void *a, const void *b)
{
	const struct line_write *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Who wrote a slot at the same time as whom: for slots i and k, @seen[i * n + k] counts the
 * writes of i made after k had been written, @agree of those the ones by the CPU that wrote k
 * last.  Slots held by the same CPU at the same time (a lock and the data it guards, the
 * locks of one thread's share of a pool) agree; slots each thread holds in turn apart do not.
 */
struct line_time {
	size_t n;
	uint32_t *seen, *agree;
};

/*
 * Walk the line's sampled writes in time order: each slot's handoffs (consecutive writes of
 * the slot by different CPUs), the line's, and who held what at the same time.  The window
 * in which writer sets are compared is the gap between two sampled writes: as fine as the
 * sampling allows.  A line whose writes carry no times, or too few distinct ones (hand-made
 * samples, a recording without PERF_SAMPLE_TIME), is left untimed: the verdict then goes by
 * who wrote what over the whole run.
 */
static void line__in_time(struct field_line *l, struct line_time *lt)
{
	struct line_write *w;
	uint32_t *last, none = UINT32_MAX, prev = UINT32_MAX;
	size_t n = 0, k = 0, distinct = 0;
	uint64_t writes_of_line;

	l->timed = false;
	l->handoffs = 0;
	lt->n = l->nr_slots;
	lt->seen = lt->agree = NULL;
	for (size_t i = 0; i < l->nr_slots; i++) {
		l->slots[i].handoffs = 0;
		l->slots[i].shared_in_time = false;
		n += l->slots[i].nr_writes;
	}
	if (n < 4)
		return;
	w = xcalloc(n, sizeof(*w));
	for (size_t i = 0; i < l->nr_slots; i++)
		for (size_t j = 0; j < l->slots[i].nr_writes; j++, k++) {
			const struct slot_write *sw = &l->slots[i].writes[j];

			if (!sw->time)
				goto out;
			w[k] = (struct line_write){ sw->time, sw->cpu, (uint32_t)i, k };
		}
	qsort(w, n, sizeof(*w), line_write_cmp);
	for (k = 0; k < n; k++)
		distinct += !k || w[k].time != w[k - 1].time;
	if (distinct < 4)
		goto out;

	l->timed = true;
	last = xcalloc(l->nr_slots, sizeof(*last));
	lt->seen = xcalloc(l->nr_slots * l->nr_slots, sizeof(*lt->seen));
	lt->agree = xcalloc(l->nr_slots * l->nr_slots, sizeof(*lt->agree));
	for (size_t i = 0; i < l->nr_slots; i++)
		last[i] = none;
	for (k = 0; k < n; k++) {
		uint32_t c = w[k].cpu, si = w[k].slot;

		if (prev != none && prev != c)
			l->handoffs++;
		if (last[si] != none && last[si] != c)
			l->slots[si].handoffs++;
		for (size_t o = 0; o < l->nr_slots; o++) {
			if (o == si || last[o] == none)
				continue;
			lt->seen[si * l->nr_slots + o]++;
			lt->agree[si * l->nr_slots + o] += last[o] == c;
		}
		last[si] = prev = c;
	}
	free(last);
	/*
	 * A slot shares in time when it changed writer at least half as often, per write, as
	 * the line did: an atomic counter every thread bumps changes writer with the line; a
	 * lock of a pool, taken by one thread for a while, then by another, hardly ever does.
	 */
	writes_of_line = n;
	for (size_t i = 0; i < l->nr_slots; i++) {
		struct line_slot *s = &l->slots[i];

		s->shared_in_time = s->handoffs >= 2 && l->handoffs &&
				    2 * s->handoffs * (writes_of_line - 1) >=
					    l->handoffs * (s->nr_writes - 1);
	}
out:
	free(w);
}

/* Slots @i and @k were written by the same CPU at the same time, mostly (see line_time). */
static bool held_together(const struct line_time *lt, size_t i, size_t k)
{
	uint32_t s1 = lt->seen[i * lt->n + k], a1 = lt->agree[i * lt->n + k];
	uint32_t s2 = lt->seen[k * lt->n + i], a2 = lt->agree[k * lt->n + i];

	/* a slot written only before the other ever was has nothing to disagree with */
	return (!s1 || 2 * a1 > s1) && (!s2 || 2 * a2 > s2) && (s1 || s2);
}

/*
 * One writer group: in time, slots that share in time group by their writers (every thread
 * takes the lock and bumps the count it guards), the others by who held them at the same
 * time; a slot shared in time and one held by one CPU at a time never group.  Untimed, by
 * the writers over the run.
 */
static bool same_group(const struct field_line *l, const struct line_time *lt, size_t i, size_t k)
{
	const struct line_slot *a = &l->slots[i], *b = &l->slots[k];

	if (!l->timed || (a->shared_in_time && b->shared_in_time))
		return same_writers(a, b);
	if (a->shared_in_time != b->shared_in_time)
		return false;
	return held_together(lt, i, k);
}

/* The slot most written by several CPUs (in turn, when timed): the truly shared one. */
static bool may_be_true_shared(const struct field_line *l, const struct line_slot *s)
{
	return s->st.cpus_write.nr >= 2 && (!l->timed || s->shared_in_time);
}

static void line__decide(struct fields *f, struct field_line *l)
{
	struct fields_priv *p = priv(f);
	struct id_set writers = { 0 };
	int hitm_slots = 0, *parent = xcalloc(l->nr_slots + 1, sizeof(*parent));
	uint64_t best = 0;
	struct line_time lt;

	l->written = l->victims = l->nr_groups = 0;
	l->true_shared = -1;
	line__in_time(l, &lt);
	for (size_t i = 0; i < l->nr_slots; i++) {
		struct line_slot *s = &l->slots[i];

		parent[i] = (int)i;
		s->group = -1;
		s->redundant_rmw = s->rmw_checked = 0;
		for (size_t k = 0; k < s->st.nr_ips; k++) {
			uint64_t t, r = 0;

			if (!s->st.ips[k].locked || !u64map__get(&p->rmw_total, s->st.ips[k].ip, &t))
				continue;
			u64map__get(&p->rmw_redundant, s->st.ips[k].ip, &r);
			s->rmw_checked += t;
			s->redundant_rmw += r;
		}
		s->victim = false;
		if (field_stats__hitm(&s->st))
			hitm_slots++;
		if (!slot_written(s))
			continue;
		id_set__merge(&writers, &s->st.cpus_write);
		l->written++;
		for (size_t k = 0; k < i; k++)
			if (slot_written(&l->slots[k]) && same_group(l, &lt, i, k))
				parent[group_find(parent, (int)k)] = group_find(parent, (int)i);
		if (may_be_true_shared(l, s) && s->st.writes + field_stats__hitm(&s->st) > best) {
			best = s->st.writes + field_stats__hitm(&s->st);
			l->true_shared = (int)i;
		}
	}
	free(lt.seen);
	free(lt.agree);
	l->writer_cpus = writers.nr;
	id_set__release(&writers);
	/* Number the groups in slot order. */
	for (size_t i = 0; i < l->nr_slots; i++) {
		struct line_slot *s = &l->slots[i];
		int root = group_find(parent, (int)i);

		if (!slot_written(s))
			continue;
		if (l->slots[root].group < 0)
			l->slots[root].group = (int)l->nr_groups++;
		s->group = l->slots[root].group;
	}
	free(parent);

	if (!field_line__contended(f, l)) {
		l->verdict = LINE_QUIET;
		l->true_shared = -1;
		return;
	}
	/* Victims: never written, read by a CPU that is not the only writer. */
	for (size_t i = 0; i < l->nr_slots; i++) {
		struct line_slot *s = &l->slots[i];

		if (slot_written(s) || !s->st.loads || !l->written)
			continue;
		for (size_t k = 0; k < l->nr_slots; k++)
			if (slot_written(&l->slots[k]) && read_by_others(s, &l->slots[k])) {
				l->victims++;
				s->victim = true;
				break;
			}
	}

	if (l->nr_groups >= 2 || (l->written && l->victims))
		l->verdict = LINE_FALSE_SHARING;
	else if (l->written && l->true_shared >= 0)
		l->verdict = LINE_TRUE_SHARING;
	else if (l->written)
		l->verdict = LINE_WRITE_READ;
	else	/* no store sampled (a loads-only recording): the HITMs tell */
		l->verdict = hitm_slots >= 2 ? LINE_FALSE_SHARING : LINE_TRUE_SHARING;
}

static int instance_cmp(const void *a, const void *b)
{
	const struct field_instance *x = a, *y = b;

	if (x->hitm != y->hitm)
		return x->hitm > y->hitm ? -1 : 1;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->base < y->base ? -1 : x->base > y->base;
}

static int struct_cmp(const void *a, const void *b)
{
	const struct field_struct *x = a, *y = b;
	uint64_t hx = field_stats__hitm(&x->total), hy = field_stats__hitm(&y->total);
	uint64_t nx = x->total.loads + x->total.stores, ny = y->total.loads + y->total.stores;

	if (hx != hy)
		return hx > hy ? -1 : 1;
	if (nx != ny)
		return nx > ny ? -1 : 1;
	return strcmp(x->layout->name, y->layout->name);
}

static int line_cmp(const void *a, const void *b)
{
	const struct field_line *x = a, *y = b;
	uint64_t hx = field_stats__hitm(&x->st), hy = field_stats__hitm(&y->st);

	if (hx != hy)
		return hx > hy ? -1 : 1;
	if (x->st.writes != y->st.writes)
		return x->st.writes > y->st.writes ? -1 : 1;
	if (x->st.loads != y->st.loads)
		return x->st.loads > y->st.loads ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int slot_cmp(const void *a, const void *b)
{
	const struct line_slot *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->base < y->base ? -1 : x->base > y->base;
}

/*
 * Unattributed bytes that an attributed slot of the line covers are that member's (another
 * sample at the same address was attributed): fold them in, so verdicts see one member.
 */
static void line__merge_unattributed(struct field_line *l)
{
	for (size_t i = 0; i < l->nr_slots;) {
		struct line_slot *u = &l->slots[i], *into = NULL;
		uint64_t addr = l->addr + u->offset;

		if (u->layout) {
			i++;
			continue;
		}
		for (size_t k = 0; k < l->nr_slots && !into; k++) {
			struct line_slot *s = &l->slots[k];
			const struct flat_member *m;

			if (!s->layout || s->member < 0)
				continue;
			m = &s->layout->members[s->member];
			if (m->elem_size ? addr >= s->base + m->offset + s->elem * m->elem_size &&
						   addr - s->base - m->offset - s->elem * m->elem_size <
							   m->elem_size :
					   addr >= s->base + m->offset &&
						   addr - s->base - m->offset < m->size)
				into = s;
		}
		if (!into) {
			i++;
			continue;
		}
		stats__merge(&into->st, &u->st);
		stats__release(&u->st);
		into->writes = xgrow(into->writes, &into->cap_writes, into->nr_writes + u->nr_writes,
				     sizeof(*into->writes));
		if (u->nr_writes)
			memcpy(into->writes + into->nr_writes, u->writes,
			       u->nr_writes * sizeof(*u->writes));
		into->nr_writes += u->nr_writes;
		free(u->writes);
		memmove(u, u + 1, (l->nr_slots - i - 1) * sizeof(*u));
		l->nr_slots--;
	}
}

void fields__finish(struct fields *f)
{
	struct fields_priv *p = priv(f);

	for (size_t i = 0; i < f->nr_lines; i++) {
		struct field_line *l = &f->lines[i];

		line__merge_unattributed(l);
		if (l->nr_slots > 1)
			qsort(l->slots, l->nr_slots, sizeof(*l->slots), slot_cmp);
		for (size_t k = 0; k < l->nr_slots; k++)
			stats__sort_ips(&l->slots[k].st);
		stats__sort_ips(&l->st);
		line__decide(f, l);
	}
	if (f->nr_lines > 1)
		qsort(f->lines, f->nr_lines, sizeof(*f->lines), line_cmp);
	u64map__exit(&p->line_of);	/* indexes changed; no more fields__add() */

	for (size_t i = 0; i < f->nr_structs; i++) {
		struct field_struct *s = &f->structs[i];

		for (unsigned int m = 0; m <= s->layout->nr_members; m++)
			stats__sort_ips(&s->members[m]);
		stats__sort_ips(&s->total);
		if (s->nr_instances > 1)
			qsort(s->instances, s->nr_instances, sizeof(*s->instances), instance_cmp);
	}
	if (f->nr_structs > 1) {
		/* Keep each struct's instance map beside it while sorting. */
		struct {
			struct field_struct s;
			struct u64map m;
		} *tmp = xcalloc(f->nr_structs, sizeof(*tmp));

		for (size_t i = 0; i < f->nr_structs; i++) {
			tmp[i].s = f->structs[i];
			tmp[i].m = p->instances[i];
		}
		qsort(tmp, f->nr_structs, sizeof(*tmp), struct_cmp);
		for (size_t i = 0; i < f->nr_structs; i++) {
			f->structs[i] = tmp[i].s;
			p->instances[i] = tmp[i].m;
		}
		free(tmp);
	}
	u64map__exit(&p->struct_of);
}

/* --- text --- */

static void add_str(struct strbuf *out, const char *s)
{
	strbuf__add(out, s, strlen(s));
}

void line_slot__name(const struct line_slot *s, struct strbuf *out)
{
	if (!s->layout) {
		strbuf__addf(out, "<unattributed +%#x>", s->offset);
		return;
	}
	/* the member's own address (the element's for an array), where a watchpoint goes;
	 * the object's base for bytes in no member; a heap array's element by its index */
	uint64_t at = s->member >= 0 ? s->base + s->layout->members[s->member].offset +
					       s->elem * s->layout->members[s->member].elem_size
				     : s->base;

	if (s->element[0])
		strbuf__addf(out, "%s.%s @%#" PRIx64 " (%s)", s->element,
			     s->path[0] ? s->path : "?", at, s->layout->name);
	else
		strbuf__addf(out, "%s.%s @%#" PRIx64, s->layout->name, s->path[0] ? s->path : "?",
			     at);
}

static void name_ip(fields_ip_namer namer, void *ctx, uint64_t ip, struct strbuf *out)
{
	if (namer)
		namer(ctx, ip, out);
	else
		strbuf__addf(out, "%#" PRIx64, ip);
}

/* A lock word: per-CPU counters are no answer for it. */
static bool slot_is_lock(const struct line_slot *s)
{
	const struct flat_member *m;
	static const char *const words[] = { "lock", "mutex", "sem", "owner" };

	if (!s->layout || s->member < 0)
		return false;
	m = &s->layout->members[s->member];
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(m->path, words[i]) || (m->type && strstr(m->type, words[i])))
			return true;
	return false;
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

static void slot_line(const struct line_slot *s, struct strbuf *out)
{
	strbuf__add(out, "    ", 4);
	line_slot__name(s, out);
	strbuf__addf(out, ": %" PRIu64 " store%s", s->st.stores, plural(s->st.stores));
	if (s->st.locked_loads)
		strbuf__addf(out, " + %" PRIu64 " locked RMW%s sampled as load%s",
			     s->st.locked_loads, plural(s->st.locked_loads),
			     plural(s->st.locked_loads));
	strbuf__addf(out, " by %u CPU%s, %" PRIu64 " load%s by %u CPU%s", s->st.cpus_write.nr,
		     plural(s->st.cpus_write.nr), s->st.loads, plural(s->st.loads),
		     s->st.cpus_read.nr, plural(s->st.cpus_read.nr));
	if (s->st.locked)
		strbuf__addf(out, " (%" PRIu64 " locked)", s->st.locked);
	strbuf__addf(out, ", %" PRIu64 " HITM\n", field_stats__hitm(&s->st));
}

/* Slot rows a line's explanation shows of each kind (written, read) before "and N more". */
#define MAX_SLOT_ROWS 12

/*
 * The written (or the read) slots, one row each: a pool of 41 locks on a line is told in
 * the first rows and a count, the JSON has every one.
 */
static void slot_lines(const struct field_line *l, bool written, struct strbuf *out)
{
	size_t n = 0;

	for (size_t i = 0; i < l->nr_slots; i++) {
		if (slot_written(&l->slots[i]) != written)
			continue;
		if (n++ < MAX_SLOT_ROWS)
			slot_line(&l->slots[i], out);
	}
	if (n > MAX_SLOT_ROWS)
		strbuf__addf(out, "    and %zu more %s alike (--json lists them all)\n",
			     n - MAX_SLOT_ROWS, written ? "written" : "read");
}

/* Members a sentence names before it says "and N more". */
#define MAX_LISTED 8

/* The written slots of @group (or all written slots for -1), or with !@written the read ones. */
static void member_list(const struct field_line *l, bool written, int group, struct strbuf *out)
{
	int n = 0, skipped = 0;

	for (size_t i = 0; i < l->nr_slots; i++) {
		const struct line_slot *s = &l->slots[i];

		if (slot_written(s) != written || (!written && !s->st.loads))
			continue;
		if (written && group >= 0 && s->group != group)
			continue;
		if (n == MAX_LISTED) {
			skipped++;
			continue;
		}
		add_str(out, n++ ? ", " : "");
		if (s->layout)
			add_str(out, s->path);
		else
			strbuf__addf(out, "<unattributed +%#x>", s->offset);
	}
	if (skipped)
		strbuf__addf(out, " and %d more", skipped);
}

static const struct flat_layout *first_layout(const struct field_line *l)
{
	for (size_t i = 0; i < l->nr_slots; i++)
		if (l->slots[i].layout)
			return l->slots[i].layout;
	return NULL;
}

/*
 * The writer groups are instances of one type: every written slot is of that type, and no
 * instance spans two groups (a group may hold several: the locks of a pool one thread holds
 * at a time), so a line for each instance separates the groups.
 */
static bool groups_are_instances(const struct field_line *l)
{
	const struct flat_layout *t = first_layout(l);

	for (size_t i = 0; i < l->nr_slots; i++) {
		const struct line_slot *a = &l->slots[i];

		if (a->group < 0)
			continue;
		if (a->layout != t || !t)
			return false;
		for (size_t k = 0; k < l->nr_slots; k++) {
			const struct line_slot *b = &l->slots[k];

			if (b->group >= 0 && a->base == b->base && a->group != b->group)
				return false;
		}
	}
	return t != NULL;
}

const char *line_slot__member(const struct line_slot *s)
{
	return s->layout ? s->path : "<unattributed>";
}

const char *verdict_advice__name(enum verdict_advice a)
{
	static const char *const names[] = {
		[ADVICE_NONE] = "none",
		[ADVICE_ALIGN_INSTANCES] = "align instances",
		[ADVICE_SPLIT_GROUPS] = "split writer groups",
		[ADVICE_MOVE_WRITTEN] = "move written members",
		[ADVICE_SEPARATE_HITM] = "separate HITM members",
		[ADVICE_LOCK] = "contended lock",
		[ADVICE_PER_CPU] = "per-CPU counter",
	};

	return a < sizeof(names) / sizeof(names[0]) ? names[a] : "?";
}

/* The sum side of a truly shared counter: code that only reads it (not the RMWs' own loads). */
static void verdict__sum_side(const struct fields *f, const struct line_slot *ts,
			      struct field_verdict *v)
{
	uint64_t span = f->last_time > f->first_time ? f->last_time - f->first_time : 0;

	for (size_t k = 0; k < ts->st.nr_ips; k++) {
		const struct field_ip *ip = &ts->st.ips[k];

		if (ip->stores || ip->locked)
			continue;
		v->sum_reads += ip->loads;
		if (ip->loads && v->nr_readers < VERDICT_MAX_IPS)
			v->readers[v->nr_readers++] = (struct verdict_ip){ ip->ip, ip->loads };
	}
	v->span_ns = span >= 1000000 ? span : 0;	/* a rate over less than 1 ms says nothing */
}

/* The evidence in time: how often the line and its written slots changed writer, and who. */
static void verdict__in_time(const struct field_line *l, struct field_verdict *v)
{
	struct id_set tids = { 0 };

	v->timed = l->timed;
	v->handoffs = l->handoffs;
	for (size_t i = 0; i < l->nr_slots; i++) {
		const struct line_slot *s = &l->slots[i];

		if (!slot_written(s))
			continue;
		id_set__merge(&tids, &s->st.tids_write);
		if ((int)i == l->true_shared || s->shared_in_time)
			continue;
		v->nr_held++;
		if (s->handoffs > v->max_handoffs)
			v->max_handoffs = s->handoffs;
		if (l->timed && s->st.cpus_write.nr >= 2)
			v->nr_rotating++;
	}
	v->nr_threads = tids.nr;
	for (uint32_t i = 0; i < tids.nr && i < VERDICT_MAX_THREADS; i++)
		v->threads[i] = tids.ids[i];
	id_set__release(&tids);
}

/* What @o's being written means for slot @s beside it, as a slot_sharing bit. */
static unsigned int sharing_with(const struct line_slot *s, const struct line_slot *o)
{
	if (!s->layout || s->layout != o->layout)
		return SHARING_FALSE_MEMBERS;
	if (s->base != o->base)
		return SHARING_FALSE_INSTANCES;
	if (s->member >= 0 && s->member == o->member && s->elem != o->elem &&
	    s->layout->members[s->member].elem_size)
		return SHARING_FALSE_ELEMENTS;
	return SHARING_FALSE_MEMBERS;
}

unsigned int fields__slot_sharing(const struct field_line *l, size_t k)
{
	const struct line_slot *s = &l->slots[k];
	unsigned int bits = 0;

	if (l->verdict == LINE_QUIET)
		return 0;
	if ((int)k == l->true_shared ||
	    (slot_written(s) && (l->verdict == LINE_TRUE_SHARING || may_be_true_shared(l, s))))
		bits |= SHARING_TRUE;
	switch (l->verdict) {
	case LINE_FALSE_SHARING:
		for (size_t i = 0; i < l->nr_slots; i++) {
			const struct line_slot *o = &l->slots[i];

			if (i == k)
				continue;
			/* written apart from another group; or a victim of a written slot */
			if (s->group >= 0 && o->group >= 0 && o->group != s->group)
				bits |= sharing_with(s, o);
			else if (s->victim && o->group >= 0)
				bits |= sharing_with(s, o);
			else if (s->group >= 0 && o->victim)
				bits |= sharing_with(s, o);
		}
		/* no store sampled: the HITMs fall on several members */
		if (!l->written && field_stats__hitm(&s->st))
			bits |= SHARING_FALSE_MEMBERS;
		break;
	case LINE_WRITE_READ:
		if (slot_written(s) || s->st.loads)
			bits |= SHARING_ONE_WRITER;
		break;
	default:
		break;
	}
	return bits;
}

const char *slot_sharing__id(unsigned int bit)
{
	switch (bit) {
	case SHARING_FALSE_MEMBERS:
		return "false_members";
	case SHARING_FALSE_INSTANCES:
		return "false_instances";
	case SHARING_FALSE_ELEMENTS:
		return "false_elements";
	case SHARING_TRUE:
		return "true";
	case SHARING_ONE_WRITER:
		return "one_writer";
	default:
		return "?";
	}
}

void fields__verdict(const struct fields *f, const struct field_line *l, struct field_verdict *v)
{
	const struct line_slot *ts = l->true_shared >= 0 ? &l->slots[l->true_shared] : NULL;

	memset(v, 0, sizeof(*v));
	v->kind = l->verdict;
	v->nr_groups = l->nr_groups;
	v->nr_victims = l->victims;
	v->true_shared = l->true_shared;
	v->no_store = !l->written;
	for (size_t i = 0; i < l->nr_slots; i++)
		if (l->slots[i].redundant_rmw)
			v->nr_redundant++;
	verdict__in_time(l, v);
	switch (l->verdict) {
	case LINE_FALSE_SHARING:
		if (l->nr_groups >= 2 && groups_are_instances(l)) {
			v->advice = ADVICE_ALIGN_INSTANCES;
			v->instances_of = first_layout(l);
		} else if (l->nr_groups >= 2) {
			v->advice = ADVICE_SPLIT_GROUPS;
		} else if (l->written) {
			v->advice = ADVICE_MOVE_WRITTEN;
		} else {
			v->advice = ADVICE_SEPARATE_HITM;
		}
		break;
	case LINE_TRUE_SHARING:
		if (!ts)
			break;
		if (slot_is_lock(ts)) {
			v->advice = ADVICE_LOCK;
			break;
		}
		v->advice = ADVICE_PER_CPU;
		verdict__sum_side(f, ts, v);
		break;
	default:
		break;
	}
}

static void thread_list(const struct field_verdict *v, struct strbuf *out)
{
	strbuf__addf(out, "thread%s ", plural(v->nr_threads));
	for (unsigned int i = 0; i < v->nr_threads && i < VERDICT_MAX_THREADS; i++)
		strbuf__addf(out, "%s%u", i ? ", " : "", v->threads[i]);
	if (v->nr_threads > VERDICT_MAX_THREADS)
		strbuf__addf(out, " and %u more", v->nr_threads - VERDICT_MAX_THREADS);
}

/* The written slots that several CPUs wrote one at a time: "41 instances of struct x.locked". */
static void rotating_list(const struct field_line *l, struct strbuf *out)
{
	const struct line_slot *first = NULL;
	bool alike = true;
	unsigned int n = 0;

	for (size_t i = 0; i < l->nr_slots; i++) {
		const struct line_slot *s = &l->slots[i];

		if (!slot_written(s) || s->shared_in_time || s->st.cpus_write.nr < 2)
			continue;
		if (!first)
			first = s;
		else if (s->layout != first->layout || strcmp(s->path, first->path))
			alike = false;
		n++;
	}
	if (!first)
		return;
	if (n > 1 && alike && first->layout) {
		strbuf__addf(out, "%u instances of %s.%s", n, first->layout->name, first->path);
		return;
	}
	for (size_t i = 0, k = 0; i < l->nr_slots; i++) {
		const struct line_slot *s = &l->slots[i];

		if (!slot_written(s) || s->shared_in_time || s->st.cpus_write.nr < 2)
			continue;
		if (k == 4) {
			strbuf__addf(out, " and %u more", n - 4);
			break;
		}
		add_str(out, k++ ? ", " : "");
		if (s->layout)
			add_str(out, s->path);
		else
			strbuf__addf(out, "<unattributed +%#x>", s->offset);
	}
}

/*
 * The evidence in time on a false-sharing line: the members went from one thread to another
 * far less often than the line did, whoever wrote them over the run.
 */
static void explain_in_time(const struct field_line *l, const struct field_verdict *v,
			    struct strbuf *out)
{
	if (!v->timed || !v->handoffs)
		return;
	if (v->nr_rotating) {
		add_str(out, "  in time: ");
		rotating_list(l, out);
		strbuf__addf(out, " %s written by several CPUs over the run but by one at a time: "
			     "the line changed writer %" PRIu64 " time%s between sampled writes, "
			     "%s %" PRIu64 " time%s at most (", v->nr_rotating == 1 ? "was" :
			     "were each", v->handoffs, plural(v->handoffs),
			     v->nr_rotating == 1 ? "the member itself" : "each member",
			     v->max_handoffs, plural(v->max_handoffs));
	} else if (v->nr_held) {
		strbuf__addf(out, "  in time: the line changed writer %" PRIu64 " time%s between "
			     "sampled writes, each written member %" PRIu64 " time%s at most (",
			     v->handoffs, plural(v->handoffs), v->max_handoffs,
			     plural(v->max_handoffs));
	} else {
		/* every written member changes writer with the line: each is truly shared, and
		 * they share the line with each other */
		strbuf__addf(out, "  in time: the line changed writer %" PRIu64 " time%s between "
			     "sampled writes, and so did each written member: each is shared in "
			     "time, besides sharing the line (", v->handoffs, plural(v->handoffs));
	}
	thread_list(v, out);
	add_str(out, ")\n");
}

/* The sampled writes of writer group @g of @l. */
static uint64_t group_writes(const struct field_line *l, int g)
{
	uint64_t n = 0;

	for (size_t i = 0; i < l->nr_slots; i++)
		if (l->slots[i].group == g)
			n += l->slots[i].st.writes;
	return n;
}

/*
 * The writer groups are elements of one array member of one instance (per-thread counts[N]):
 * a written slot of it, else NULL.  lineup suggest calls them so too (SHARING_FALSE_ELEMENTS).
 * A group with a trace of the writes beside the others' (main's one store to the table's
 * count, caught by the sampling) does not change what the line is.
 */
static const struct line_slot *groups_are_elements(const struct field_line *l)
{
	const struct line_slot *first = NULL;
	uint64_t most = 0;

	for (int g = 0; g < (int)l->nr_groups; g++)
		if (group_writes(l, g) > most)
			most = group_writes(l, g);
	for (size_t i = 0; i < l->nr_slots; i++) {
		const struct line_slot *s = &l->slots[i];

		if (s->group < 0 || group_writes(l, s->group) * 20 < most)
			continue;
		if (!first)
			first = s;
		if (!s->layout || s->member < 0 || !s->layout->members[s->member].elem_size ||
		    s->layout != first->layout || s->base != first->base ||
		    s->member != first->member)
			return NULL;
	}
	return first;
}

/* The prose of the advice on a false-sharing line. */
static void explain_false_sharing(const struct field_line *l, const struct field_verdict *v,
				  struct strbuf *out)
{
	const struct line_slot *el;

	switch (v->advice) {
	case ADVICE_ALIGN_INSTANCES:
		add_str(out, "  evidence: different instances of ");
		add_str(out, v->instances_of->name);
		add_str(out, v->nr_rotating ? ", each written by one CPU at a time, share the line\n" :
					      ", each written by its own CPUs, share the line\n");
		break;
	case ADVICE_SPLIT_GROUPS:
		if ((el = groups_are_elements(l))) {
			strbuf__addf(out, "  evidence: elements of %s.%s written by different CPUs "
				     "share the line\n", el->layout->name,
				     el->layout->members[el->member].path);
			break;
		}
		add_str(out, v->nr_rotating ? "  evidence: members written by different CPUs at the "
					      "same time share the line\n" :
					      "  evidence: members written by different CPUs share "
					      "the line\n");
		break;
	case ADVICE_MOVE_WRITTEN:
		add_str(out, "  evidence: written members share the line with members only "
			     "other CPUs read\n");
		break;
	default:
		add_str(out, "  evidence: HITMs on several members (no store sampled)\n");
		break;
	}
	explain_in_time(l, v, out);
	switch (v->advice) {
	case ADVICE_ALIGN_INSTANCES:
		strbuf__addf(out, "  suggestion: give each instance a line of its own: align "
			     "%s to the line size (____cacheline_aligned_in_smp) or pad "
			     "the array's elements, or make the data per-CPU",
			     v->instances_of->name);
		break;
	case ADVICE_SPLIT_GROUPS:
		add_str(out, "  suggestion: give each group of members written by the same "
			     "CPUs a line of its own: ");
		for (int g = 0; g < (int)v->nr_groups; g++) {
			add_str(out, g ? ", {" : "{");
			member_list(l, true, g, out);
			add_str(out, "}");
		}
		break;
	case ADVICE_MOVE_WRITTEN:
		add_str(out, l->written > 1 ? "  suggestion: keep the written members (" :
					      "  suggestion: move the written member (");
		member_list(l, true, -1, out);
		add_str(out, l->written > 1 ? ") together on a line apart from the read-mostly "
					      "ones" : ") to a line apart from the read-mostly ones");
		break;
	default:
		add_str(out, "  suggestion: separate the members the HITMs fall on");
		break;
	}
	if (v->nr_victims && v->nr_groups >= 2) {
		add_str(out, "; keep the read-mostly members (");
		member_list(l, false, -1, out);
		add_str(out, ") together on another line");
	} else if (v->nr_victims) {
		add_str(out, " (");
		member_list(l, false, -1, out);
		add_str(out, ")");
	}
	add_str(out, "\n");
	if (v->true_shared >= 0) {
		const struct line_slot *ts = &l->slots[v->true_shared];

		strbuf__addf(out, "  also: %s is itself written by %u CPUs", line_slot__member(ts),
			     ts->st.cpus_write.nr);
		if (v->timed)
			strbuf__addf(out, " in turn (it changed writer %" PRIu64 " time%s)", ts->handoffs,
				     plural(ts->handoffs));
		add_str(out, ": true sharing besides, that no reordering removes (see per-CPU "
			     "counters)\n");
	}
}

/* The prose of the advice on a true-sharing line. */
static void explain_true_sharing(const struct field_line *l, const struct field_verdict *v,
				 fields_ip_namer namer, void *ctx, struct strbuf *out)
{
	const struct line_slot *ts = v->true_shared >= 0 ? &l->slots[v->true_shared] : NULL;

	if (!ts) {
		add_str(out, "  evidence: all HITMs fall on one member; no store sampled\n");
		return;
	}
	if (l->written > 1) {
		add_str(out, "  evidence: the written members (");
		member_list(l, true, -1, out);
		strbuf__addf(out, ") are written by the same %u CPUs and nothing else on "
			     "the line is read by others: reordering cannot help\n", l->writer_cpus);
	} else {
		strbuf__addf(out, "  evidence: %s is written by %u CPUs and nothing else on "
			     "the line is written: reordering cannot help\n",
			     line_slot__member(ts), ts->st.cpus_write.nr);
	}
	if (v->timed)
		strbuf__addf(out, "  in time: %s changed writer %" PRIu64 " time%s between its "
			     "sampled writes, the line %" PRIu64 ": the member itself goes from CPU "
			     "to CPU\n", line_slot__member(ts), ts->handoffs, plural(ts->handoffs),
			     v->handoffs);
	if (v->advice == ADVICE_LOCK) {
		add_str(out, "  suggestion: a contended lock: take it less often (batch the "
			     "work under it), split it, or use a per-CPU/sharded structure "
			     "it protects");
	} else {
		add_str(out, "  suggestion: a per-CPU or sharded counter (each CPU its own "
			     "line); the side that sums it then reads every shard");
		if (v->sum_reads) {
			strbuf__addf(out, ": here it was read %" PRIu64 " time%s", v->sum_reads,
				     plural(v->sum_reads));
			if (v->span_ns)
				strbuf__addf(out, " (%.1f/s sampled over %.3f s)",
					     (double)v->sum_reads * 1e9 / (double)v->span_ns,
					     (double)v->span_ns / 1e9);
			add_str(out, " by ");
			for (unsigned int i = 0; i < v->nr_readers; i++) {
				add_str(out, i ? ", " : "");
				name_ip(namer, ctx, v->readers[i].ip, out);
				strbuf__addf(out, " (%" PRIu64 ")", v->readers[i].count);
			}
		} else {
			add_str(out, ": no plain read of it was sampled, so summing looks "
				     "cheap here");
		}
	}
	add_str(out, "\n");
	if (v->nr_victims) {
		add_str(out, "  also: the read-only members (");
		member_list(l, false, -1, out);
		add_str(out, ") suffer from it: move them to another line\n");
	}
}

void fields__explain_line(const struct fields *f, const struct field_line *l,
			  fields_ip_namer namer, void *ctx, struct strbuf *out)
{
	struct field_verdict v;

	fields__verdict(f, l, &v);
	strbuf__addf(out, "line %#" PRIx64 ": %s", l->addr, line_verdict__name(v.kind));
	if (v.kind == LINE_QUIET) {
		add_str(out, "\n");
		return;
	}
	strbuf__addf(out, " (%" PRIu64 " HITM, %" PRIu64 " writes by %u CPU%s)\n",
		     field_stats__hitm(&l->st), l->st.writes, l->writer_cpus,
		     plural(l->writer_cpus));

	add_str(out, "  written:\n");
	slot_lines(l, true, out);
	if (v.no_store)
		add_str(out, "    (no store sampled; the HITMs show another CPU wrote the line)\n");
	if (l->nr_slots > l->written) {
		strbuf__addf(out, "  %s:\n", v.nr_victims ? "read-mostly victims (hardly ever "
			     "written, read by other CPUs than the writers)" : "only read");
		slot_lines(l, false, out);
	}

	switch (v.kind) {
	case LINE_FALSE_SHARING:
		explain_false_sharing(l, &v, out);
		break;
	case LINE_TRUE_SHARING:
		explain_true_sharing(l, &v, namer, ctx, out);
		break;
	case LINE_WRITE_READ:
		add_str(out, "  evidence: one CPU writes, other CPUs read the same member: the data "
			    "itself is shared\n");
		break;
	default:
		break;
	}

	for (size_t i = 0; i < l->nr_slots; i++) {
		const struct line_slot *s = &l->slots[i];

		if (!s->redundant_rmw)
			continue;
		strbuf__addf(out, "  note: %" PRIu64 " of %" PRIu64 " locked RMWs on %s (%.0f%%) "
			     "found the bits already set, at ",
			     s->redundant_rmw, s->rmw_checked, line_slot__member(s),
			     100.0 * (double)s->redundant_rmw /
				     (double)(s->rmw_checked ? s->rmw_checked : 1));
		for (size_t k = 0, n = 0; k < s->st.nr_ips && n < 3; k++) {
			if (!s->st.ips[k].locked)
				continue;
			add_str(out, n++ ? ", " : "");
			name_ip(namer, ctx, s->st.ips[k].ip, out);
		}
		add_str(out, ": test before set (if (!test_bit(..)) set_bit(..)) avoids the "
			    "cache-line transition\n");
	}
}
