// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "analyzer/array_align.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/fields_view.h"
#include "analyzer/flat_layout.h"
#include "analyzer/id_set.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * A boundary between two threads' data on one line: the written slot before it ends at @lo,
 * the one after it starts at @hi (offsets in the line), so it lies in [@lo, @hi].
 * @elem:	both sides are instances of this type (different ones), else NULL
 * @first:	for @elem, where its instances start in the object, modulo its size
 * @name:	the slots' type name (a scalar array's "heap matrix"), NULL if unattributed
 * @written:	both sides are written slots (not a victim only read: that one's readers may be
 *		a thread reading everything at the end)
 */
struct boundary {
	struct align_object obj;
	size_t line;
	uint32_t lo, hi;
	bool written;
	const struct flat_layout *elem;
	uint64_t first;
	const char *name;
};

static uint64_t round_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

/* Instances of one type smaller than the object: elements of an array of structs. */
static const struct flat_layout *element_type(const struct line_slot *a, const struct line_slot *b,
					      const struct align_object *obj)
{
	const struct flat_layout *t = a->layout;

	if (!t || t != b->layout || a->base == b->base || !t->size || t->size >= obj->size ||
	    a->base < obj->base || b->base < obj->base)
		return NULL;
	if ((a->base - obj->base) % t->size != (b->base - obj->base) % t->size)
		return NULL;
	return t;
}

/*
 * Who a slot belongs to: the CPUs writing it, or for a read-mostly victim the CPUs reading
 * it (a load that precedes each store takes the HITM, and sampling may catch no store of it).
 */
static const struct id_set *slot_owners(const struct line_slot *s)
{
	if (s->group >= 0)
		return &s->st.cpus_write;
	return s->victim ? &s->st.cpus_read : NULL;
}

/* Mostly different owners (Jaccard index below 1/2, as fields.c groups writers). */
static bool other_owners(const struct id_set *x, const struct id_set *y)
{
	uint32_t both = 0;

	for (uint32_t i = 0; i < x->nr; i++)
		both += id_set__has(y, x->ids[i]);
	return 2 * both < x->nr + y->nr - both;
}

/*
 * Whether @b belongs to another thread than @a: for two written slots, another writer group
 * of the line (fields.c decides those, in time where it can: a pool's locks that every thread
 * takes one at a time are groups of their own); else mostly other owners.
 */
static bool other_slot(const struct line_slot *a, const struct line_slot *b)
{
	if (a->group >= 0 && b->group >= 0)
		return a->group != b->group;
	return other_owners(slot_owners(a), slot_owners(b));
}

/* Two elements of one scalar array member (or two unattributed granules). */
static bool same_array(const struct line_slot *a, const struct line_slot *b)
{
	if (!a->layout || !b->layout)
		return !a->layout && !b->layout;
	return a->layout == b->layout && a->base == b->base && a->member == b->member &&
	       a->member >= 0 && a->layout->members[a->member].elem_size && a->elem != b->elem;
}

/*
 * The boundaries on @l: consecutive slots of one object owned by different CPUs, each an
 * element of an array of structs or of a scalar array (two members of one struct instance
 * are a layout question, not an alignment one).
 */
static void line_boundaries(const struct field_line *l, size_t li, const struct align_objects *objs,
			    struct boundary **v, size_t *nr, size_t *cap)
{
	const struct line_slot *prev = NULL;

	for (size_t i = 0; i < l->nr_slots; i++) {
		const struct line_slot *s = &l->slots[i];
		const struct flat_layout *elem;
		struct align_object oa, ob;
		struct boundary *b;

		if (!slot_owners(s))
			continue;
		if (!prev || !other_slot(prev, s)) {
			prev = s;
			continue;
		}
		if (objs->at(objs->ctx, l->addr + prev->offset, prev->st.first_time, &oa) ||
		    objs->at(objs->ctx, l->addr + s->offset, s->st.first_time, &ob) ||
		    oa.base != ob.base) {
			prev = s;
			continue;
		}
		elem = element_type(prev, s, &ob);
		if (!elem && !same_array(prev, s)) {
			prev = s;
			continue;
		}
		*v = xgrow(*v, cap, *nr + 1, sizeof(**v));
		b = &(*v)[(*nr)++];
		memset(b, 0, sizeof(*b));
		b->obj = ob;
		b->line = li;
		b->lo = prev->offset + (uint32_t)line_slot__size(prev);
		b->hi = s->offset;
		if (b->lo > b->hi)	/* overlapping slots: the boundary is where the next starts */
			b->lo = b->hi;
		b->elem = elem;
		b->written = prev->group >= 0 && s->group >= 0;
		/* where the elements start: after a header (a flexible array member's struct)
		 * where attribution placed them, else on the grid from the object's start */
		if (elem && s->array >= ob.base && s->array < ob.base + ob.size)
			b->first = s->array - ob.base;
		else if (elem)
			b->first = (s->base - ob.base) % elem->size;
		b->name = s->layout ? s->layout->name : NULL;
		prev = s;
	}
}

static bool has_line(const uint64_t *lines, size_t n, uint64_t addr)
{
	for (size_t i = 0; i < n; i++)
		if (lines[i] == addr)
			return true;
	return false;
}

/* Add line @li of @f to @af unless another finding (or @af) has it already. */
static void finding_add_line(struct array_align *a, struct align_finding *af, const struct fields *f,
			     size_t li, struct id_set *cpus)
{
	const struct field_line *l = &f->lines[li];

	if (has_line(af->lines, af->nr_lines, l->addr) || array_align__of_line(a, l->addr))
		return;
	af->lines = xrealloc(af->lines, (af->nr_lines + 1) * sizeof(*af->lines));
	af->lines[af->nr_lines++] = l->addr;
	af->hitm += field_stats__hitm(&l->st);
	af->writes += l->st.writes;
	id_set__merge(cpus, &l->st.cpus_write);
}

/*
 * Whether the boundaries of object @base on line @li lie around line offset @m: one does,
 * and every one between two written slots does.
 */
static bool line_at(const struct boundary *v, size_t n, uint64_t base, size_t li, uint32_t m)
{
	bool any = false;

	for (size_t i = 0; i < n; i++) {
		bool at;

		if (v[i].obj.base != base || v[i].line != li)
			continue;
		at = m >= v[i].lo && m <= v[i].hi;
		if (!at && v[i].written)
			return false;
		any |= at;
	}
	return any;
}

/* A written slot's owner: the thread with two thirds of its sampled writes or more. */
static bool slot_owner(const struct line_slot *s, uint32_t *tid)
{
	uint32_t cand = 0;
	size_t votes = 0, n = 0;

	if (s->group < 0 || !s->nr_writes)
		return false;
	for (size_t i = 0; i < s->nr_writes; i++) {	/* the majority vote, then its count */
		if (!votes)
			cand = s->writes[i].tid;
		votes += s->writes[i].tid == cand ? 1 : -1;
	}
	for (size_t i = 0; i < s->nr_writes; i++)
		n += s->writes[i].tid == cand;
	*tid = cand;
	return 3 * n >= 2 * s->nr_writes;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* One owned element of a scalar array: where it is in the object, whose it is. */
struct owned {
	uint64_t pos;
	uint32_t owner;		/* index into the owners */
};

#define INTERLEAVE_MAX_THREADS 64

/*
 * Whether, with blocks of @b elements of @e bytes, the owners take the blocks in turn: block
 * i is owner (i mod @nr)'s, for 9 in 10 of the elements seen, each residue another owner's.
 */
static bool dealt_in_turn(const struct owned *o, size_t n, uint32_t nr, uint64_t e, uint64_t b)
{
	uint32_t *votes = xcalloc((size_t)nr * nr, sizeof(*votes));	/* residue x owner */
	bool taken[INTERLEAVE_MAX_THREADS] = { false }, ok = true;
	uint64_t agree = 0;

	for (size_t i = 0; i < n; i++)
		votes[(o[i].pos / e / b) % nr * nr + o[i].owner]++;
	for (uint32_t r = 0; r < nr && ok; r++) {
		const uint32_t *row = &votes[(size_t)r * nr];
		uint32_t best = 0;

		for (uint32_t w = 1; w < nr; w++)
			if (row[w] > row[best])
				best = w;
		ok = row[best] && !taken[best];
		taken[best] = true;
		agree += row[best];
	}
	free(votes);
	return ok && agree * 10 >= n * 9;
}

/*
 * Interleaved elements (ALIGN_INTERLEAVED): thread t writes elements t, t+S, t+2S, ... of a
 * scalar array, or blocks of b elements dealt out so, a block smaller than a line.  Every line
 * then holds every thread's elements: where the array starts and how long it is change
 * nothing.  From the written slots on the object's lines: each slot's owner against its block
 * index modulo the S threads owning two elements or more (one element a thread is a
 * per-thread slot, not a progression), on two lines or more, 9 in 10 of them agreeing.
 * Fills @af's stride, threads and block.
 */
static bool interleaved(const struct fields *f, unsigned int line, const struct boundary *v,
			size_t n, size_t k, struct align_finding *af)
{
	uint64_t base = v[k].obj.base, e = 0, first = UINT64_MAX, g = 0;
	uint32_t tids[INTERLEAVE_MAX_THREADS], count[INTERLEAVE_MAX_THREADS] = { 0 }, nr = 0;
	uint32_t keep[INTERLEAVE_MAX_THREADS], nr_keep = 0;
	struct owned *o = NULL;
	size_t no = 0, cap = 0, lines = 0, last = SIZE_MAX, kept = 0;
	bool found = false;

	for (size_t i = k; i < n; i++) {
		const struct field_line *l;

		if (v[i].obj.base != base || v[i].elem || v[i].line == last)
			continue;
		last = v[i].line;
		l = &f->lines[v[i].line];
		lines++;
		for (size_t j = 0; j < l->nr_slots; j++) {
			const struct line_slot *s = &l->slots[j];
			uint32_t tid, w;

			if (!slot_owner(s, &tid) || l->addr + s->offset < base)
				continue;
			for (w = 0; w < nr && tids[w] != tid; w++)
				;
			if (w == nr) {
				if (nr == INTERLEAVE_MAX_THREADS)
					goto out;
				tids[nr++] = tid;
			}
			count[w]++;
			o = xgrow(o, &cap, no + 1, sizeof(*o));
			o[no++] = (struct owned){ l->addr + s->offset - base, w };
			if (line_slot__size(s) > 1)
				e = line_slot__size(s);
			if (o[no - 1].pos < first)
				first = o[no - 1].pos;
		}
	}
	/* the element: the member's, else (unattributed bytes) what the addresses step by */
	for (size_t i = 0; !e && i < no; i++)
		g = gcd(g, o[i].pos - first);
	if (!e)
		e = g;
	/*
	 * The threads: those owning two elements or more, and a quarter of their fair share (a
	 * few elements main set up and the sampling caught it at are noise).
	 */
	for (uint32_t w = 0; w < nr; w++)
		keep[w] = count[w] >= 2 && count[w] * 4 * (uint64_t)nr >= no ? nr_keep++ :
									       UINT32_MAX;
	for (size_t i = 0; i < no; i++)
		if (keep[o[i].owner] != UINT32_MAX)
			o[kept++] = (struct owned){ o[i].pos, keep[o[i].owner] };
	no = kept;
	if (lines < 2 || nr_keep < 2 || !e || e >= line || no < 4 * (size_t)nr_keep)
		goto out;
	for (uint64_t b = 1; b * e < line && !found; b++) {
		if (!dealt_in_turn(o, no, nr_keep, e, b))
			continue;
		found = true;
		af->stride = e;
		af->threads = nr_keep;
		af->block = (uint32_t)b;
	}
out:
	free(o);
	return found;
}

/*
 * The finding for the object of boundary @v[k] (the first of it), from all its boundaries;
 * false when they show no alignment cause.
 */
static bool object_finding(struct array_align *a, const struct fields *f, const struct boundary *v,
			   size_t n, size_t k, struct align_finding *af)
{
	const struct boundary *b0 = &v[k];
	unsigned int line = a->line_size;
	size_t typed = 0, untyped = 0;
	const struct boundary *t0 = NULL;
	struct id_set cpus = { 0 };

	memset(af, 0, sizeof(*af));
	af->obj = b0->obj;
	for (size_t i = k; i < n; i++) {
		if (v[i].obj.base != b0->obj.base)
			continue;
		if (v[i].elem) {
			typed++;
			t0 = t0 ? t0 : &v[i];
		} else {
			untyped++;
		}
	}
	if (typed && typed >= untyped) {
		af->elem = t0->elem;
		af->first = t0->first;
		af->stride = t0->elem->size;
		af->nr_elems = (af->obj.size - af->first) / af->stride;
		af->misalign = (uint32_t)((af->obj.base + af->first) % line);
		/* an array after a header in a line-aligned block (a flexible array member):
		 * aligning the allocation changes nothing there */
		af->causes = (af->stride % line ? ALIGN_PAD : 0) |
			     (af->misalign && af->obj.base % line ? ALIGN_BASE : 0);
		if (!af->causes)
			return false;
		af->new_stride = round_up(af->stride, line);
		af->new_size = round_up(af->obj.size + af->nr_elems * (af->new_stride - af->stride),
					line);
		for (size_t i = k; i < n; i++)
			if (v[i].obj.base == b0->obj.base && v[i].elem == af->elem &&
			    v[i].first == af->first) {
				af->nr_boundaries++;
				finding_add_line(a, af, f, v[i].line, &cpus);
			}
		af->name = af->elem->name;
	} else {
		/* A scalar array: its parts are the threads', sized by the code. */
		uint32_t m = (uint32_t)(af->obj.base % line);
		uint64_t hitm_at = 0, hitm_all = 0;
		size_t last = SIZE_MAX;

		for (size_t i = k; i < n; i++) {
			if (v[i].obj.base != b0->obj.base || v[i].elem || v[i].line == last)
				continue;
			last = v[i].line;
			hitm_all += field_stats__hitm(&f->lines[v[i].line].st);
			if (m && line_at(v, n, b0->obj.base, v[i].line, m))
				hitm_at += field_stats__hitm(&f->lines[v[i].line].st);
		}
		af->misalign = m;
		af->causes = m && hitm_at * 3 >= hitm_all * 2 ? ALIGN_BASE : ALIGN_BLOCKS;
		af->new_size = round_up(af->obj.size, line);
		/* elements dealt out in turn meet at every one: no shift or length explains it */
		if (interleaved(f, line, v, n, k, af)) {
			af->causes = ALIGN_INTERLEAVED;
			af->nr_elems = af->obj.size / af->stride;
			af->new_stride = round_up(af->block * af->stride, line);
			af->new_size = (af->nr_elems + af->block - 1) / af->block * af->new_stride;
		}
		for (size_t i = k; i < n; i++) {
			if (v[i].obj.base != b0->obj.base || v[i].elem)
				continue;
			if (af->causes == ALIGN_BASE && !line_at(v, n, b0->obj.base, v[i].line, m))
				continue;
			af->nr_boundaries++;
			finding_add_line(a, af, f, v[i].line, &cpus);
		}
		/* one line of a scalar array is an ordinary verdict, not a pattern */
		if (af->causes & (ALIGN_BLOCKS | ALIGN_INTERLEAVED) && af->nr_lines < 2) {
			id_set__release(&cpus);
			free(af->lines);
			return false;
		}
		af->name = b0->name;
	}
	af->writer_cpus = cpus.nr;
	id_set__release(&cpus);
	if (!af->nr_lines) {
		free(af->lines);
		return false;
	}
	return true;
}

/*
 * Whether contended line @l, in which sampling caught no boundary between two owners (a store
 * of one side only, or no store), still shows the finding's pattern: slots of two elements
 * of its array, or for a scalar array slots on both sides of the line offset where its
 * parts meet.
 */
static bool line_fits(const struct align_finding *af, const struct field_line *l)
{
	bool before = false, after = false;

	/* interleaved elements: every line of the array shows the pattern */
	if (af->causes & ALIGN_INTERLEAVED)
		return true;
	for (size_t i = 0; i < l->nr_slots; i++) {
		const struct line_slot *s = &l->slots[i];

		if (af->elem) {
			if (s->layout != af->elem || s->base < af->obj.base)
				continue;
			for (size_t k = 0; k < i; k++)
				if (l->slots[k].layout == af->elem && l->slots[k].base != s->base)
					return true;
			continue;
		}
		if (s->offset + line_slot__size(s) <= af->misalign)
			before = true;
		else if (s->offset >= af->misalign)
			after = true;
	}
	return !af->elem && before && after;
}

/* The object's other contended lines that fit the finding (sampling saw less of them). */
static void absorb_lines(struct array_align *a, const struct fields *f,
			 const struct align_objects *objs, struct align_finding *af)
{
	struct id_set cpus = { 0 };

	if (af->causes & ALIGN_BLOCKS || (!af->elem && !af->misalign && !(af->causes &
									    ALIGN_INTERLEAVED)))
		return;
	for (size_t i = 0; i < f->nr_lines; i++) {
		const struct field_line *l = &f->lines[i];
		struct align_object o;

		if (l->verdict == LINE_QUIET || !l->nr_slots ||
		    l->addr + l->slots[0].offset < af->obj.base ||
		    l->addr >= af->obj.base + af->obj.size || !line_fits(af, l) ||
		    objs->at(objs->ctx, l->addr + l->slots[0].offset, l->slots[0].st.first_time, &o) ||
		    o.base != af->obj.base)
			continue;
		finding_add_line(a, af, f, i, &cpus);
	}
	for (size_t i = 0; i < f->nr_lines; i++)
		if (has_line(af->lines, af->nr_lines, f->lines[i].addr))
			id_set__merge(&cpus, &f->lines[i].st.cpus_write);
	af->writer_cpus = cpus.nr;
	id_set__release(&cpus);
}

static int finding_cmp(const void *x, const void *y)
{
	const struct align_finding *a = x, *b = y;

	if (a->hitm != b->hitm)
		return a->hitm > b->hitm ? -1 : 1;
	return a->obj.base < b->obj.base ? -1 : a->obj.base > b->obj.base;
}

struct array_align *array_align__find(const struct fields *f, const struct align_objects *objs)
{
	struct array_align *a = xcalloc(1, sizeof(*a));
	struct boundary *v = NULL;
	size_t nr = 0, cap = 0;

	a->line_size = f->line_size;
	for (size_t i = 0; i < f->nr_lines; i++) {
		const struct field_line *l = &f->lines[i];

		a->total_hitm += field_stats__hitm(&l->st);
		if (l->verdict == LINE_FALSE_SHARING)
			line_boundaries(l, i, objs, &v, &nr, &cap);
	}
	/* one finding per object, objects in the order of their hottest line */
	for (size_t k = 0; k < nr; k++) {
		struct align_finding af;
		bool seen = false;

		for (size_t i = 0; i < k && !seen; i++)
			seen = v[i].obj.base == v[k].obj.base;
		if (seen || !object_finding(a, f, v, nr, k, &af))
			continue;
		absorb_lines(a, f, objs, &af);
		a->findings = xrealloc(a->findings, (a->nr_findings + 1) * sizeof(*a->findings));
		a->findings[a->nr_findings++] = af;
	}
	if (a->nr_findings > 1)
		qsort(a->findings, a->nr_findings, sizeof(*a->findings), finding_cmp);
	free(v);
	return a;
}

void array_align__delete(struct array_align *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nr_findings; i++)
		free(a->findings[i].lines);
	free(a->findings);
	free(a);
}

const struct align_finding *array_align__of_line(const struct array_align *a, uint64_t addr)
{
	for (size_t i = 0; i < a->nr_findings; i++)
		if (has_line(a->findings[i].lines, a->findings[i].nr_lines, addr))
			return &a->findings[i];
	return NULL;
}

const char *align_cause__id(unsigned int cause)
{
	switch (cause) {
	case ALIGN_BASE:
		return "align_base";
	case ALIGN_PAD:
		return "pad_element";
	case ALIGN_BLOCKS:
		return "blocks";
	case ALIGN_INTERLEAVED:
		return "interleaved";
	default:
		return "?";
	}
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* "2nd", "4th", "11th", "23rd": the suffix. */
static const char *ordinal(uint64_t n)
{
	if (n % 100 >= 11 && n % 100 <= 13)
		return "th";
	return n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
}

/* "array of 2 struct worker_stats" or "heap matrix", with its extent. */
static void finding_object(const struct align_finding *af, struct strbuf *out)
{
	if (af->elem && af->first + af->nr_elems * af->stride == af->obj.size)
		strbuf__addf(out, "array of %" PRIu64 " %s", af->nr_elems, af->elem->name);
	else if (af->elem)
		strbuf__addf(out, "array of %s", af->elem->name);
	else
		strbuf__addf(out, "%s", af->name ? af->name : "heap block");
	strbuf__addf(out, " (%" PRIu64 " bytes at %#" PRIx64, af->obj.size, af->obj.base);
	if (af->first)
		strbuf__addf(out, ", the array at offset %" PRIu64, af->first);
	strbuf__addf(out, ")");
}

static void explain_cause(const struct array_align *a, const struct align_finding *af,
			  struct strbuf *out)
{
	unsigned int line = a->line_size;

	if (af->causes & ALIGN_INTERLEAVED) {
		uint64_t part = (uint64_t)af->block * af->stride;

		strbuf__add(out, "  cause: the threads' elements are interleaved: ", 48);
		if (af->block == 1)
			strbuf__addf(out, "each of the %u threads writes every %u%s %" PRIu64
				     "-byte element (thread t: elements t, t+%u, t+%u, ...), ",
				     af->threads, af->threads, ordinal(af->threads), af->stride,
				     af->threads, 2 * af->threads);
		else
			strbuf__addf(out, "each of the %u threads writes every %u%s block of %u "
				     "%" PRIu64 "-byte elements (thread t: blocks t, t+%u, ...), ",
				     af->threads, af->threads, ordinal(af->threads), af->block,
				     af->stride, af->threads);
		strbuf__addf(out, "so a thread's elements lie %" PRIu64 " bytes apart and every "
			     "%u-byte line holds %s threads' elements: each line is written by all "
			     "of them (%zu line%s), wherever the array starts\n", part * af->threads,
			     line, part * af->threads >= line ? "several" : "all", af->nr_lines,
			     plural(af->nr_lines));
		return;
	}
	if (af->causes & ALIGN_BLOCKS) {
		strbuf__addf(out, "  cause: the parts of it that different threads write meet inside "
			     "cache lines, at varying offsets (%u boundar%s seen): the parts are not "
			     "whole lines long\n", af->nr_boundaries,
			     af->nr_boundaries == 1 ? "y" : "ies");
		return;
	}
	if (!af->elem) {
		strbuf__addf(out, "  cause: it starts %u bytes into a cache line (malloc aligns to "
			     "16 bytes), and every boundary between two threads' parts of it falls %u "
			     "bytes into a line (%u seen): the parts are whole lines long, shifted by "
			     "the allocation's misalignment, so each boundary line is written by two "
			     "threads\n", af->misalign, af->misalign, af->nr_boundaries);
		return;
	}
	if (af->causes & ALIGN_PAD) {
		if (af->stride < line)
			strbuf__addf(out, "  cause: %s is %" PRIu64 " bytes, less than the %u-byte "
				     "line: elements written by different threads share each line "
				     "(%u boundaries seen)\n", af->elem->name, af->stride, line,
				     af->nr_boundaries);
		else
			strbuf__addf(out, "  cause: %s is %" PRIu64 " bytes, no multiple of the "
				     "%u-byte line: the tail of each element shares a line with the "
				     "head of the next, which another thread writes (%u boundar%s "
				     "seen)\n", af->elem->name, af->stride, line, af->nr_boundaries,
				     af->nr_boundaries == 1 ? "y" : "ies");
	}
	if (af->causes == ALIGN_BASE)
		strbuf__addf(out, "  cause: the array starts %u bytes into a cache line (malloc "
			     "aligns to 16 bytes): each %" PRIu64 "-byte element straddles %" PRIu64
			     " lines, and the line where one thread's element ends and the next "
			     "one's begins is written by both (%u boundar%s seen)\n", af->misalign,
			     af->stride, af->stride / line + 1, af->nr_boundaries,
			     af->nr_boundaries == 1 ? "y" : "ies");
	else if (af->causes & ALIGN_BASE)
		strbuf__addf(out, "  and: the array starts %u bytes into a cache line (malloc "
			     "aligns to 16 bytes), so padded elements alone would still straddle "
			     "lines\n", af->misalign);
	else if (af->misalign)
		strbuf__addf(out, "  and: the array starts %u bytes into a cache line, after a "
			     "%" PRIu64 "-byte header in a line-aligned block: as a flexible array "
			     "member, the padded element starts on the next line (an array placed by "
			     "hand must be moved there)\n", af->misalign, af->first);
}

static void explain_fix(const struct array_align *a, const struct align_finding *af,
			struct strbuf *out)
{
	unsigned int line = a->line_size;

	if (af->causes & ALIGN_INTERLEAVED) {
		uint64_t per = (af->nr_elems + af->threads - 1) / af->threads;
		uint64_t in_line = line % af->stride ? 0 : line / af->stride;

		strbuf__addf(out, "  fix: block the elements per thread: thread t takes the "
			     "contiguous elements [t*%" PRIu64 ", (t+1)*%" PRIu64 ") of the "
			     "%" PRIu64 " instead of every %u%s %s, so that two threads meet only "
			     "where their ranges do", per, per, af->nr_elems, af->threads,
			     ordinal(af->threads), af->block == 1 ? "one" : "block");
		if (in_line)
			strbuf__addf(out, " (not at all with ranges of whole lines, a multiple of "
				     "%" PRIu64 " elements, from a line boundary)", in_line);
		strbuf__addf(out, "; or pad each %s to a line of its own: %" PRIu64 " bytes "
			     "instead of %" PRIu64 " (%" PRIu64 " bytes instead of %" PRIu64 ", "
			     "%.0fx the memory)\n", af->block == 1 ? "element" : "block", af->new_stride,
			     (uint64_t)af->block * af->stride, af->new_size, af->obj.size,
			     af->obj.size ? (double)af->new_size / (double)af->obj.size : 0.0);
		return;
	}
	if (af->causes & ALIGN_BLOCKS) {
		strbuf__addf(out, "  fix: give each thread's part whole lines: make its length a "
			     "multiple of %u bytes and allocate the object line-aligned "
			     "(aligned_alloc(%u, %" PRIu64 "))\n", line, line, af->new_size);
		return;
	}
	if (af->causes & ALIGN_PAD)
		strbuf__addf(out, "  fix: pad the element to %" PRIu64 " bytes: "
			     "__attribute__((aligned(%u))) on %s (%" PRIu64 " more byte%s per "
			     "element, %" PRIu64 " in all)\n", af->new_stride, line, af->elem->name,
			     af->new_stride - af->stride, plural(af->new_stride - af->stride),
			     af->nr_elems * (af->new_stride - af->stride));
	if (af->causes & ALIGN_BASE) {
		strbuf__addf(out, "  %s: allocate it line-aligned: aligned_alloc(%u, %" PRIu64
			     ") or posix_memalign(&p, %u, %" PRIu64 ")",
			     af->causes & ALIGN_PAD ? "and" : "fix", line, af->new_size, line,
			     af->new_size);
		if (af->first)
			strbuf__addf(out, ", with the array at a line boundary inside it");
		if (af->causes & ALIGN_PAD)
			strbuf__addf(out, " (an aligned type does not align what malloc returns)");
		strbuf__addf(out, "\n");
	} else if (af->obj.site) {
		strbuf__addf(out, "  (the allocation itself is line-aligned already)\n");
	}
}

void align_finding__explain(const struct array_align *a, const struct align_finding *af,
			    fields_ip_namer namer, void *ctx, struct strbuf *out)
{
	finding_object(af, out);
	strbuf__addf(out, ": %zu line%s, %" PRIu64 " HITM", af->nr_lines, plural(af->nr_lines),
		     af->hitm);
	if (a->total_hitm)
		strbuf__addf(out, " (%.0f%% of all)", 100.0 * (double)af->hitm /
						      (double)a->total_hitm);
	strbuf__addf(out, ", written by %u CPU%s\n", af->writer_cpus, plural(af->writer_cpus));
	if (af->obj.site) {
		strbuf__addf(out, "  allocated at ");
		if (namer)
			namer(ctx, af->obj.site, out);
		else
			strbuf__addf(out, "%#" PRIx64, af->obj.site);
		strbuf__addf(out, "\n");
	}
	explain_cause(a, af, out);
	explain_fix(a, af, out);
}
