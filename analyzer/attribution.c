// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "analyzer/attribution.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static const char *const evidence_names[ATTR__NR] = {
	[ATTR_NONE] = "none",
	[ATTR_HINT] = "hint",
	[ATTR_ALLOC] = "allocation",
	[ATTR_VARIABLE] = "variable",
	[ATTR_OPERAND] = "operand",
};

static const struct {
	const char *id, *text;
} reasons[ATTR__REASONS] = {
	[ATTR_OK] = { "ok", "resolved" },
	[ATTR_NO_ADDR] = { "no_addr", "no data address in the sample" },
	[ATTR_NO_MAP] = { "no_map", "IP in no known mapping" },
	[ATTR_NO_SYMBOLS] = { "no_symbols", "object at the IP not found or without symbols" },
	[ATTR_NO_DEBUGINFO] = { "no_debuginfo", "no debug info" },
	[ATTR_UNDECODABLE] = { "undecodable", "operand not decodable" },
	[ATTR_NO_VARIABLE] = { "no_variable", "no variable in that register" },
	[ATTR_NOT_STRUCT] = { "not_struct", "variable is no pointer to a struct" },
	[ATTR_NO_LAYOUT] = { "no_layout", "type has no layout in the debug info" },
	[ATTR_OUTSIDE] = { "outside", "address outside the object the evidence names" },
	[ATTR_UNTYPED_ALLOC] = { "untyped_alloc", "allocation of unknown type" },
	[ATTR_AMBIGUOUS] = { "ambiguous_index", "indexed operand, object's start unknown" },
	[ATTR_NO_OBJECT] = { "no_object", "no variable, allocation or hint covers it" },
};

const char *attr_evidence__name(enum attr_evidence kind)
{
	return (unsigned int)kind < ATTR__NR ? evidence_names[kind] : "?";
}

const char *attr_reason__text(enum attr_reason reason)
{
	return (unsigned int)reason < ATTR__REASONS ? reasons[reason].text : "?";
}

const char *attr_reason__id(enum attr_reason reason)
{
	return (unsigned int)reason < ATTR__REASONS ? reasons[reason].id : "?";
}

static int covers(uint64_t base, uint64_t size, uint64_t addr)
{
	return addr >= base && addr - base < size;
}

/* The outermost typed fact (other than @inner) that holds @inner's type at its base. */
static int find_container(const struct attr_types *types, const struct attr_query *q,
			  unsigned int inner, const struct flat_layout **out)
{
	const struct attr_fact *in = &q->facts[inner];
	uint64_t best_size = 0;
	int best = -1;

	for (unsigned int i = 0; i < q->nr_facts; i++) {
		const struct attr_fact *c = &q->facts[i];
		const struct flat_layout *l;

		if (i == inner || !c->type || c->base > in->base ||
		    (c->base == in->base && flat_layout__same_type(c->type, in->type)))
			continue;	/* not outside it, or the same object again */
		l = types->find(types->ctx, c->type);
		if (!l || !covers(c->base, l->size, in->base) || l->size <= best_size)
			continue;
		if (flat_layout__find_type_at(l, in->base - c->base, in->type) == -1)
			continue;
		best = (int)i;
		best_size = l->size;
		*out = l;
	}
	return best;
}

static enum attr_reason strongest_reason(const struct attr_query *q)
{
	for (int k = ATTR__NR - 1; k > ATTR_NONE; k--)
		if (q->why_not[k] != ATTR_OK)
			return q->why_not[k];
	return ATTR_NO_OBJECT;
}

int attribution__resolve(const struct attr_types *types, const struct attr_query *q,
			 struct attr_result *res)
{
	enum attr_reason failed = ATTR_OK;
	enum attr_evidence failed_kind = ATTR_NONE;
	int pick = -1;
	const struct flat_layout *layout = NULL;

	memset(res, 0, sizeof(*res));
	res->member = -1;

	/* The strongest typed fact whose type has a layout that holds the address. */
	for (int k = ATTR__NR - 1; k > ATTR_NONE && pick < 0; k--) {
		for (unsigned int i = 0; i < q->nr_facts; i++) {
			const struct attr_fact *f = &q->facts[i];
			const struct flat_layout *l;

			if ((int)f->kind != k || !f->type)
				continue;
			l = types->find(types->ctx, f->type);
			if (!l) {
				if (failed_kind < f->kind)
					failed = ATTR_NO_LAYOUT, failed_kind = f->kind;
				continue;
			}
			if (!covers(f->base, l->size, q->addr)) {
				if (failed_kind < f->kind)
					failed = ATTR_OUTSIDE, failed_kind = f->kind;
				continue;
			}
			pick = (int)i;
			layout = l;
			break;
		}
	}

	if (pick >= 0) {
		const struct attr_fact *f = &q->facts[pick];
		const struct flat_layout *cl = NULL;
		int c = find_container(types, q, (unsigned int)pick, &cl);

		res->kind = f->kind;
		res->instance_kind = f->kind;
		res->origin = f->origin;
		res->layout = layout;
		res->base = f->base;
		if (c >= 0) {
			res->layout = cl;
			res->base = q->facts[c].base;
			res->instance_kind = q->facts[c].kind;
		}
		res->offset = q->addr - res->base;
		res->member = flat_layout__name_at(res->layout, res->offset, res->path,
						   sizeof(res->path));
		return 0;
	}

	/*
	 * No type: an allocation may still tell the instance.  Where a stronger source named a
	 * type that has no layout (an operand's), that is why, not the allocation's silence.
	 */
	for (unsigned int i = 0; i < q->nr_facts; i++) {
		const struct attr_fact *f = &q->facts[i];

		if (!f->type && f->size && covers(f->base, f->size, q->addr)) {
			res->reason = failed == ATTR_NO_LAYOUT && failed_kind > f->kind ?
					      ATTR_NO_LAYOUT : ATTR_UNTYPED_ALLOC;
			res->base = f->base;
			res->offset = q->addr - f->base;
			res->instance_kind = f->kind;
			res->origin = f->origin;
			return 1;
		}
	}
	/* A source that answered but could not be used outranks the weaker ones' silence. */
	res->reason = strongest_reason(q);
	if (failed != ATTR_OK) {
		int k;

		for (k = ATTR__NR - 1; k > (int)failed_kind; k--)
			if (q->why_not[k] != ATTR_OK)
				break;
		if (k == (int)failed_kind)
			res->reason = failed;
	}
	return 1;
}

void attr_stats__add(struct attr_stats *st, const struct attr_result *res, uint64_t weight)
{
	st->samples++;
	st->weight += weight;
	if (res->kind != ATTR_NONE) {
		st->by_kind_samples[res->kind]++;
		st->by_kind_weight[res->kind] += weight;
	} else if ((unsigned int)res->reason < ATTR__REASONS) {
		st->unresolved_samples[res->reason]++;
		st->unresolved_weight[res->reason] += weight;
	}
}

double attr_stats__resolved_share(const struct attr_stats *st)
{
	uint64_t w = 0;

	for (int k = ATTR_NONE + 1; k < ATTR__NR; k++)
		w += st->by_kind_weight[k];
	return st->weight ? (double)w / (double)st->weight : 0.0;
}

/* --- allocations --- */

void alloc_index__init(struct alloc_index *ix)
{
	memset(ix, 0, sizeof(*ix));
	u64map__init(&ix->live);
}

void alloc_index__exit(struct alloc_index *ix)
{
	zfree(&ix->entries);
	zfree(&ix->older);
	zfree(&ix->order);
	zfree(&ix->tmp);
	u64map__exit(&ix->live);
	memset(ix, 0, sizeof(*ix));
}

/* Link entry @i into the live chain of its base. */
static void chain_add(struct alloc_index *ix, size_t i)
{
	uint64_t prev;

	ix->older[i] = u64map__get(&ix->live, ix->entries[i].base, &prev) ? (size_t)prev : SIZE_MAX;
	if (ix->entries[i].free_time == UINT64_MAX)
		u64map__set(&ix->live, ix->entries[i].base, i);
}

/* Entries by (base, alloc_time), then the order they were added in. */
static bool entry_before(const struct alloc_index *ix, size_t a, size_t b)
{
	const struct alloc_entry *x = &ix->entries[a], *y = &ix->entries[b];

	if (x->base != y->base)
		return x->base < y->base;
	if (x->alloc_time != y->alloc_time)
		return x->alloc_time < y->alloc_time;
	return a < b;
}

static size_t run_begin(const struct alloc_index *ix, unsigned int r)
{
	return r ? ix->run_end[r - 1] : 0;
}

/* Merge the sorted order[lo, mid) and order[mid, hi). */
static void order_merge(struct alloc_index *ix, size_t lo, size_t mid, size_t hi)
{
	size_t i = lo, j = mid, k = 0;

	while (i < mid && j < hi)
		ix->tmp[k++] = entry_before(ix, ix->order[j], ix->order[i]) ? ix->order[j++] :
									      ix->order[i++];
	while (i < mid)
		ix->tmp[k++] = ix->order[i++];
	while (j < hi)
		ix->tmp[k++] = ix->order[j++];
	memcpy(ix->order + lo, ix->tmp, k * sizeof(*ix->order));
}

/*
 * The tail becomes a run (sorted by a bottom-up merge sort), merged with the runs before it
 * while the one before is at most twice its size: run sizes halve down the list, so there are
 * O(log n) runs and each entry is merged O(log n) times.
 */
static void runs_push_tail(struct alloc_index *ix)
{
	size_t lo = ix->nr_in_runs, n = ix->nr;

	if (lo == n)
		return;
	if (ix->cap_order < n) {
		ix->order = xgrow(ix->order, &ix->cap_order, n, sizeof(*ix->order));
		ix->tmp = xrealloc(ix->tmp, ix->cap_order * sizeof(*ix->tmp));
	}
	for (size_t i = lo; i < n; i++)
		ix->order[i] = i;
	for (size_t w = 1; w < n - lo; w *= 2)
		for (size_t a = lo; a + w < n; a += 2 * w)
			order_merge(ix, a, a + w, a + 2 * w < n ? a + 2 * w : n);
	ix->run_end[ix->nr_runs++] = n;
	ix->nr_in_runs = n;
	while (ix->nr_runs >= 2) {
		unsigned int r = ix->nr_runs - 1;
		size_t a = run_begin(ix, r - 1), m = run_begin(ix, r), b = ix->run_end[r];

		/* (64 runs would take 2^64 entries: the bound is never what merges) */
		if (m - a > 2 * (b - m) && ix->nr_runs < sizeof(ix->run_end) / sizeof(ix->run_end[0]))
			break;
		order_merge(ix, a, m, b);
		ix->run_end[r - 1] = b;
		ix->nr_runs--;
	}
}

/* Entries added after prepare wait in a short tail that lookups scan. */
#define ALLOC_TAIL 32

void alloc_index__add(struct alloc_index *ix, const struct alloc_entry *e)
{
	ix->entries = xgrow(ix->entries, &ix->cap, ix->nr + 1, sizeof(*ix->entries));
	ix->older = xgrow(ix->older, &ix->cap_older, ix->nr + 1, sizeof(*ix->older));
	ix->entries[ix->nr] = *e;
	if (!e->free_time)
		ix->entries[ix->nr].free_time = UINT64_MAX;
	if (e->size > ix->max_size)
		ix->max_size = e->size;
	chain_add(ix, ix->nr++);
	if (ix->sorted && ix->nr - ix->nr_in_runs >= ALLOC_TAIL)
		runs_push_tail(ix);
}

static const struct alloc_entry *at(const struct alloc_index *ix, size_t pos)
{
	return &ix->entries[ix->order[pos]];
}

/* In a run's positions [lo, hi), the first whose base is above @base (or >= it). */
static size_t base_bound(const struct alloc_index *ix, size_t lo, size_t hi, uint64_t base,
			 bool inclusive)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t b = at(ix, mid)->base;

		if (inclusive ? b <= base : b < base)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* In a run of one base, [lo, hi), sorted by time: the last entry allocated at or before @t. */
static size_t latest_by(const struct alloc_index *ix, size_t lo, size_t hi, uint64_t t)
{
	size_t first = lo;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (at(ix, mid)->alloc_time <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > first ? lo - 1 : SIZE_MAX;
}

int alloc_index__free(struct alloc_index *ix, uint64_t base, uint64_t time)
{
	uint64_t head;
	size_t i, newer = SIZE_MAX;

	if (!u64map__get(&ix->live, base, &head))
		return -1;
	/* The newest live entry at @base allocated by @time; the chain is usually one long. */
	for (i = (size_t)head; i != SIZE_MAX; newer = i, i = ix->older[i])
		if (ix->entries[i].alloc_time <= time)
			break;
	if (i == SIZE_MAX)
		return -1;
	ix->entries[i].free_time = time;
	if (newer != SIZE_MAX)
		ix->older[newer] = ix->older[i];
	else if (ix->older[i] != SIZE_MAX)
		u64map__set(&ix->live, base, ix->older[i]);
	else
		u64map__del(&ix->live, base);
	return 0;
}

void alloc_index__prepare(struct alloc_index *ix)
{
	runs_push_tail(ix);
	ix->sorted = 1;
}

/* The latest allocation by @time at each base within reach of @addr, in order[lo, hi). */
static const struct alloc_entry *run_find(const struct alloc_index *ix, size_t lo0, size_t hi,
					  uint64_t addr, uint64_t time,
					  const struct alloc_entry *best)
{
	/* Candidates lie below the first entry with base > addr, within max_size: one per base. */
	hi = base_bound(ix, lo0, hi, addr, true);
	while (hi > lo0 && addr - at(ix, hi - 1)->base < ix->max_size) {
		uint64_t base = at(ix, hi - 1)->base;
		size_t lo = base_bound(ix, lo0, hi, base, false);
		size_t i = time ? latest_by(ix, lo, hi, time) : hi - 1;
		const struct alloc_entry *e = i == SIZE_MAX ? NULL : at(ix, i);

		hi = lo;
		if (!e || !covers(e->base, e->size, addr) || (time && e->free_time <= time))
			continue;
		if (!best || e->alloc_time > best->alloc_time)
			best = e;
	}
	return best;
}

const struct alloc_entry *alloc_index__find(const struct alloc_index *ix, uint64_t addr,
					    uint64_t time)
{
	const struct alloc_entry *best = NULL;

	if (!ix->sorted || !ix->nr)
		return NULL;
	for (unsigned int r = 0; r < ix->nr_runs; r++)
		best = run_find(ix, run_begin(ix, r), ix->run_end[r], addr, time, best);
	/* the tail: the latest live allocation covering @addr wins, as in the runs */
	for (size_t i = ix->nr_in_runs; i < ix->nr; i++) {
		const struct alloc_entry *e = &ix->entries[i];

		if (!covers(e->base, e->size, addr) ||
		    (time && (e->alloc_time > time || e->free_time <= time)))
			continue;
		if (!best || e->alloc_time >= best->alloc_time)
			best = e;
	}
	return best;
}

void alloc_entry__fact(const struct alloc_entry *e, struct attr_fact *fact)
{
	fact->kind = ATTR_ALLOC;
	fact->type = e->type;
	fact->base = e->base;
	fact->size = e->size;
	fact->origin = e->origin;
}
