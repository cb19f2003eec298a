// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The structs a recording's accesses fall on, each with its suggester (see suggest_targets.h).
 */
#include <config.h>

#include "analyzer/suggest_targets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/attribution.h"
#include "analyzer/attr_engine.h"
#include "analyzer/fields.h"
#include "analyzer/flat_layout.h"
#include "analyzer/layout.h"
#include "util/xalloc.h"

/* A (unit, write, ip) key of the per-target ip counts. */
static uint64_t ip_key(unsigned int unit, bool write, uint64_t ip)
{
	return ((uint64_t)unit << 1 | write) * 0x9e3779b97f4a7c15ull ^ ip;
}

/* "file" of "struct file": the name the suggester's words use. */
static const char *bare_name(const char *name)
{
	if (!strncmp(name, "struct ", 7))
		return name + 7;
	if (!strncmp(name, "union ", 6))
		return name + 6;
	return name;
}

void suggest_targets__init(struct suggest_targets *ts, const struct suggest_targets_config *cfg)
{
	memset(ts, 0, sizeof(*ts));
	ts->cfg = *cfg;
	u64map__init(&ts->index);
}

static void target_release(struct suggest_target *t)
{
	suggest__delete(t->sg);
	if (t->planned)
		suggest_plan__release(&t->plan);
	u64map__exit(&t->ip_count);
	if (t->top_write.cap)
		u64map__exit(&t->top_write);
	if (t->top_read.cap)
		u64map__exit(&t->top_read);
}

void suggest_targets__release(struct suggest_targets *ts)
{
	for (size_t i = 0; i < ts->nr; i++)
		target_release(&ts->v[i]);
	free(ts->v);
	u64map__exit(&ts->index);
	memset(ts, 0, sizeof(*ts));
}

static struct suggest_target *target_of(struct suggest_targets *ts, const struct flat_layout *flat)
{
	struct suggest_target *t;
	uint64_t i;

	if (u64map__get(&ts->index, (uintptr_t)flat, &i))
		return &ts->v[i];
	ts->v = xgrow(ts->v, &ts->cap, ts->nr + 1, sizeof(*ts->v));
	t = &ts->v[ts->nr];
	memset(t, 0, sizeof(*t));
	t->flat = flat;
	u64map__init(&t->ip_count);
	u64map__set(&ts->index, (uintptr_t)flat, ts->nr++);
	if (!flat->type) {
		snprintf(t->plan_err, sizeof(t->plan_err), "%s: no layout to reorder (a type "
			 "known only by its size)", flat->name);
		return t;
	}
	t->plan_rc = suggest_plan__init(&t->plan, flat->type, ts->cfg.pins, ts->cfg.nr_pins,
					t->plan_err, sizeof(t->plan_err));
	if (t->plan_rc < 0)
		return t;
	t->planned = true;
	struct suggest_config cfg = {
		.line_size = ts->cfg.line_size, .max_growth = ts->cfg.max_growth,
		.struct_name = bare_name(flat->name),
	};

	t->sg = suggest__new(&cfg, t->plan.units, t->plan.nr_units, flat->type->size,
			     flat->type->align);
	return t;
}

/* The hottest ip writing and reading each unit, for the comment and the doc table. */
static void count_ip(struct suggest_target *t, unsigned int unit, bool write, uint64_t ip)
{
	struct u64map *top = write ? &t->top_write : &t->top_read;
	uint64_t n = 0, best, best_n = 0;

	u64map__get(&t->ip_count, ip_key(unit, write, ip), &n);
	u64map__set(&t->ip_count, ip_key(unit, write, ip), ++n);
	if (!top->cap)
		u64map__init(top);
	if (u64map__get(top, unit, &best))
		u64map__get(&t->ip_count, ip_key(unit, write, best), &best_n);
	if (n > best_n)
		u64map__set(top, unit, ip);
}

void suggest_targets__add(struct suggest_targets *ts, const struct attr_result *res,
			  const struct fields_access *a)
{
	struct suggest_target *t;
	int u;

	if (!res->layout || (!a->load && !a->store))
		return;
	ts->attributed++;
	t = target_of(ts, res->layout);
	t->samples++;
	t->hitm += a->lcl_hitm || a->rmt_hitm;
	if (!t->sg)
		return;
	struct suggest_access sa = {
		.instance = res->base, .offset = res->offset, .time = a->time, .weight = a->weight,
		.tid = a->tid, .cpu = a->cpu, .load = a->load, .store = a->store,
		.locked = a->locked, .hitm = a->lcl_hitm || a->rmt_hitm,
	};

	suggest__add(t->sg, &sa);
	u = suggest__unit_at(t->sg, res->offset);
	if (u >= 0)
		count_ip(t, (unsigned int)u, a->store || (a->load && a->locked), a->ip);
}

void suggest_targets__add_rmw(struct suggest_targets *ts, const struct fields_rmw *rmw, size_t n)
{
	uint64_t cnt;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < ts->nr; k++) {
			struct suggest_target *t = &ts->v[k];

			for (unsigned int u = 0; t->sg && u < t->plan.nr_units; u++)
				if (u64map__get(&t->ip_count, ip_key(u, true, rmw[i].ip), &cnt))
					suggest__add_rmw(t->sg, u, rmw[i].total, rmw[i].redundant);
		}
}

static int hitm_cmp(const void *a, const void *b)
{
	const struct suggest_target *x = a, *y = b;

	if (x->hitm != y->hitm)
		return x->hitm > y->hitm ? -1 : 1;
	return x->samples > y->samples ? -1 : x->samples < y->samples;
}

void suggest_targets__sort(struct suggest_targets *ts)
{
	/* a recording with no attributed struct has no array: qsort(NULL, 0) is undefined */
	if (ts->nr > 1)
		qsort(ts->v, ts->nr, sizeof(*ts->v), hitm_cmp);
	u64map__exit(&ts->index);
	u64map__init(&ts->index);
	for (size_t i = 0; i < ts->nr; i++)
		u64map__set(&ts->index, (uintptr_t)ts->v[i].flat, i);
}

void suggest_targets__set_verdicts(struct suggest_targets *ts, const struct fields *f)
{
	struct suggest_verdicts *v = xcalloc(ts->nr + 1, sizeof(*v));
	size_t *held = xcalloc(ts->nr + 1, sizeof(*held));	/* the targets on one line */

	for (size_t i = 0; i < ts->nr; i++)
		if (ts->v[i].sg) {
			v[i].units = xcalloc(ts->v[i].plan.nr_units + 1, sizeof(*v[i].units));
			v[i].unit_hitm = xcalloc(ts->v[i].plan.nr_units + 1,
						 sizeof(*v[i].unit_hitm));
		}
	for (size_t li = 0; li < f->nr_lines; li++) {
		const struct field_line *l = &f->lines[li];
		size_t nr_held = 0;

		if (l->verdict == LINE_QUIET)
			continue;
		for (size_t k = 0; k < l->nr_slots; k++) {
			const struct line_slot *s = &l->slots[k];
			const struct flat_member *m;
			uint64_t ti;
			size_t h;
			int u;

			if (!s->layout || s->member < 0 ||
			    !u64map__get(&ts->index, (uintptr_t)s->layout, &ti) || !ts->v[ti].sg)
				continue;
			for (h = 0; h < nr_held && held[h] != ti; h++)
				;
			if (h == nr_held && nr_held < ts->nr)
				held[nr_held++] = ti;
			m = &s->layout->members[s->member];
			u = suggest__unit_at(ts->v[ti].sg, m->offset + s->elem * m->elem_size);
			if (u < 0)
				continue;
			v[ti].units[u] |= fields__slot_sharing(l, k);
			v[ti].unit_hitm[u] += field_stats__hitm(&s->st);
		}
		for (size_t h = 0; h < nr_held; h++) {
			v[held[h]].lines[l->verdict]++;
			v[held[h]].hitm[l->verdict] += field_stats__hitm(&l->st);
		}
	}
	for (size_t i = 0; i < ts->nr; i++) {
		if (ts->v[i].sg)
			suggest__set_verdicts(ts->v[i].sg, &v[i]);
		free(v[i].units);
		free(v[i].unit_hitm);
	}
	free(held);
	free(v);
}

void suggest_target__decide(struct suggest_target *t, struct arena *arena)
{
	char err[160];
	uint64_t *off;

	if (!t->planned)
		return;
	suggest__run(t->sg, &t->res);
	if (t->res.status != SUGGEST_OK)
		return;
	off = xcalloc(t->plan.nr_units + 1, sizeof(*off));
	if (suggest_plan__build(&t->plan, &t->res, arena, &t->built, off, err, sizeof(err)) < 0) {
		snprintf(t->res.message, sizeof(t->res.message), "the new order cannot be laid "
			 "out: %s", err);
		t->res.status = SUGGEST_REFUSED;
		free(off);
		return;
	}
	/* gcc's bit-field rules may place a unit elsewhere than whole units would: its offsets
	 * are the truth, and the prediction follows them */
	if (memcmp(off, t->res.new_offset, t->plan.nr_units * sizeof(*off)) ||
	    t->built->size != t->res.size) {
		free(t->res.after.lines);
		memcpy(t->res.new_offset, off, t->plan.nr_units * sizeof(*off));
		t->res.size = t->built->size;
		t->res.align = t->built->align;
		suggest__predict(t->sg, off, t->built->align, &t->res.after);
	}
	free(off);
}

bool suggest_target__top_ip(const struct suggest_target *t, unsigned int unit, bool write,
			    uint64_t *ip)
{
	const struct u64map *top = write ? &t->top_write : &t->top_read;

	return top->cap && u64map__get(top, unit, ip);
}
