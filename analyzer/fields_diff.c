// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Two recordings' field tables compared (see fields_diff.h).
 */
#include "analyzer/fields_diff.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/flat_layout.h"
#include "analyzer/id_set.h"

double fields_diff__change(uint64_t before, uint64_t after, double scale)
{
	double a = (double)after * scale;

	if (!before)
		return after ? INFINITY : 0;
	return (a - (double)before) * 100.0 / (double)before;
}

static void counts_of(struct diff_counts *c, const struct field_stats *st)
{
	c->present = true;
	c->hitm += field_stats__hitm(st);
	c->loads += st->loads;
	c->stores += st->stores;
	c->locked += st->locked;
	c->weight_sum += st->weight_sum;
	c->weighted += st->weighted;
	if (st->cpus_read.nr > c->readers)
		c->readers = st->cpus_read.nr;
	if (st->cpus_write.nr > c->writers)
		c->writers = st->cpus_write.nr;
}

static const struct field_struct *find_struct(const struct fields *f, const char *name)
{
	for (size_t i = 0; i < f->nr_structs; i++)
		if (!strcmp(f->structs[i].layout->name, name))
			return &f->structs[i];
	return NULL;
}

static int member_index(const struct flat_layout *l, const char *path)
{
	for (unsigned i = 0; l && i < l->nr_members; i++)
		if (!strcmp(l->members[i].path, path))
			return (int)i;
	return -1;
}

/* Append member @path of the struct @ds to @d (its counts and places on both sides). */
static int add_member(struct fields_diff *d, const struct diff_struct *ds,
		      const struct field_struct *fs[2], const char *path)
{
	struct diff_member *m, *grown;

	grown = realloc(d->members, (d->nr_members + 1) * sizeof(*d->members));
	if (!grown)
		return -ENOMEM;
	d->members = grown;
	m = &d->members[d->nr_members++];
	*m = (struct diff_member){ .type = ds->name, .path = path };
	for (int k = 0; k < 2; k++) {
		const struct flat_layout *l = ds->layout[k];
		int i;

		if (!l)
			continue;
		if (!path) {
			/* holes and padding: the entry after the members */
			counts_of(&m->side[k], &fs[k]->members[l->nr_members]);
			continue;
		}
		i = member_index(l, path);
		if (i < 0)
			continue;
		m->in_layout[k] = true;
		m->offset[k] = l->members[i].offset;
		m->size[k] = l->members[i].size;
		counts_of(&m->side[k], &fs[k]->members[i]);
	}
	return 0;
}

static bool layouts_differ(const struct flat_layout *a, const struct flat_layout *b)
{
	if (a->size != b->size || a->nr_members != b->nr_members)
		return true;
	for (unsigned i = 0; i < a->nr_members; i++) {
		int j = member_index(b, a->members[i].path);

		if (j < 0 || b->members[j].offset != a->members[i].offset ||
		    b->members[j].size != a->members[i].size)
			return true;
	}
	return false;
}

/* One struct, as seen by either side (fs[k] NULL where that side has none). */
static int add_struct(struct fields_diff *d, const struct field_struct *fs[2])
{
	struct diff_struct *ds, *grown;
	const struct flat_layout *order;

	grown = realloc(d->structs, (d->nr_structs + 1) * sizeof(*d->structs));
	if (!grown)
		return -ENOMEM;
	d->structs = grown;
	ds = &d->structs[d->nr_structs++];
	*ds = (struct diff_struct){ .first = d->nr_members };
	for (int k = 0; k < 2; k++) {
		if (!fs[k])
			continue;
		ds->layout[k] = fs[k]->layout;
		ds->name = fs[k]->layout->name;
		counts_of(&ds->total[k], &fs[k]->total);
	}
	ds->layout_changed = ds->layout[0] && ds->layout[1] &&
			     layouts_differ(ds->layout[0], ds->layout[1]);
	/* The members in (after)'s order, then those only (before) has. */
	order = ds->layout[1] ? ds->layout[1] : ds->layout[0];
	for (unsigned i = 0; i < order->nr_members; i++)
		if (add_member(d, ds, fs, order->members[i].path))
			return -ENOMEM;
	if (order != ds->layout[0] && ds->layout[0])
		for (unsigned i = 0; i < ds->layout[0]->nr_members; i++)
			if (member_index(order, ds->layout[0]->members[i].path) < 0 &&
			    add_member(d, ds, fs, ds->layout[0]->members[i].path))
				return -ENOMEM;
	if (add_member(d, ds, fs, NULL))
		return -ENOMEM;
	ds->nr = d->nr_members - ds->first;
	return 0;
}

static int build_structs(struct fields_diff *d, const struct fields *f[2])
{
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < f[k]->nr_structs; i++) {
			const struct field_struct *fs[2];
			const char *name = f[k]->structs[i].layout->name;

			if (k == 1 && find_struct(f[0], name))
				continue; /* already paired */
			fs[k] = &f[k]->structs[i];
			fs[!k] = find_struct(f[!k], name);
			if (add_struct(d, fs))
				return -ENOMEM;
		}
	return 0;
}

/* --- lines, matched by what they hold --- */

struct slot_key {
	const char *key;
	size_t line; /* (before)'s lines first, then (after)'s */
};

static int cmp_key(const void *a, const void *b)
{
	const struct slot_key *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

static size_t find_root(size_t *parent, size_t i)
{
	while (parent[i] != i) {
		parent[i] = parent[parent[i]];
		i = parent[i];
	}
	return i;
}

/* How bad a verdict is, for a group's worst. */
static int verdict_rank(enum line_verdict v)
{
	switch (v) {
	case LINE_FALSE_SHARING:
		return 3;
	case LINE_TRUE_SHARING:
		return 2;
	case LINE_WRITE_READ:
		return 1;
	default:
		return 0;
	}
}

static int cmp_group(const void *a, const void *b)
{
	const struct diff_group *x = a, *y = b;

	if (!x->nr_keys != !y->nr_keys)
		return x->nr_keys ? -1 : 1; /* the unattributed group last */
	return (x->hot < y->hot) - (x->hot > y->hot);
}

/* The slot keys of every line of both sides into @keys and their text into @d->key_text. */
static int collect_keys(struct fields_diff *d, const struct fields *f[2], struct slot_key **keys,
			size_t *nr)
{
	size_t n = 0, len = 0, line = 0;
	char *p;

	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < f[k]->nr_lines; i++)
			for (size_t s = 0; s < f[k]->lines[i].nr_slots; s++) {
				const struct line_slot *sl = &f[k]->lines[i].slots[s];

				if (!sl->layout)
					continue;
				n++;
				len += strlen(sl->layout->name) + strlen(sl->path) + 2;
			}
	*keys = calloc(n ? n : 1, sizeof(**keys));
	d->key_text = p = malloc(len ? len : 1);
	if (!*keys || !p)
		return -ENOMEM;
	*nr = 0;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < f[k]->nr_lines; i++, line++)
			for (size_t s = 0; s < f[k]->lines[i].nr_slots; s++) {
				const struct line_slot *sl = &f[k]->lines[i].slots[s];

				if (!sl->layout)
					continue;
				(*keys)[(*nr)++] = (struct slot_key){ p, line };
				p += sprintf(p, "%s.%s", sl->layout->name, sl->path) + 1;
			}
	qsort(*keys, *nr, sizeof(**keys), cmp_key);
	return 0;
}

static void group_add_line(struct diff_group *g, int side, const struct field_line *l,
			   struct id_set sets[2])
{
	struct diff_counts *c = &g->side[side];

	counts_of(c, &l->st);
	c->lines++;
	id_set__merge(&sets[0], &l->st.cpus_read);
	id_set__merge(&sets[1], &l->st.cpus_write);
	c->readers = sets[0].nr;
	c->writers = sets[1].nr;
	if (!g->addr[side])
		g->addr[side] = l->addr;
	if (verdict_rank(l->verdict) > verdict_rank(g->verdict[side]))
		g->verdict[side] = l->verdict;
}

static int build_groups(struct fields_diff *d, const struct fields *f[2])
{
	size_t nl = f[0]->nr_lines + f[1]->nr_lines, nr_keys = 0, *parent, *group_of;
	struct slot_key *keys = NULL;
	struct id_set (*sets)[2][2] = NULL;
	int rc = -ENOMEM;

	parent = calloc(nl + 1, sizeof(*parent));
	group_of = calloc(nl + 1, sizeof(*group_of));
	if (!parent || !group_of || collect_keys(d, f, &keys, &nr_keys))
		goto out;
	for (size_t i = 0; i < nl; i++)
		parent[i] = i;
	for (size_t i = 1; i < nr_keys; i++)
		if (!strcmp(keys[i].key, keys[i - 1].key))
			parent[find_root(parent, keys[i].line)] = find_root(parent, keys[i - 1].line);
	/* One group per root that holds a key, and the unattributed one. */
	d->groups = calloc(nl + 1, sizeof(*d->groups));
	d->keys = calloc(nr_keys + 1, sizeof(*d->keys));
	sets = calloc(nl + 1, sizeof(*sets));
	if (!d->groups || !d->keys || !sets)
		goto out;
	for (size_t i = 0; i < nl; i++)
		group_of[i] = SIZE_MAX;
	for (size_t i = 0; i < nr_keys; i++) {
		size_t r = find_root(parent, keys[i].line);

		if (group_of[r] == SIZE_MAX)
			group_of[r] = d->nr_groups++;
	}
	/* Keys: per group, in sorted order (equal keys are adjacent and in one group). */
	{
		size_t *at = calloc(d->nr_groups + 1, sizeof(*at));

		if (!at)
			goto out;
		for (size_t j = 0; j < nr_keys; j++)
			if (!j || strcmp(keys[j].key, keys[j - 1].key))
				at[group_of[find_root(parent, keys[j].line)] + 1]++;
		for (size_t i = 0; i < d->nr_groups; i++) {
			at[i + 1] += at[i];
			d->groups[i].keys = &d->keys[at[i]];
		}
		for (size_t j = 0; j < nr_keys; j++) {
			struct diff_group *g = &d->groups[group_of[find_root(parent, keys[j].line)]];

			if (!j || strcmp(keys[j].key, keys[j - 1].key))
				g->keys[g->nr_keys++] = keys[j].key;
		}
		free(at);
	}
	/* The unattributed group: lines that hold no attributed slot. */
	d->nr_groups++;
	for (size_t i = 0, line = 0; i < 2; i++)
		for (size_t j = 0; j < f[i]->nr_lines; j++, line++) {
			size_t r = find_root(parent, line);
			size_t g = group_of[r] == SIZE_MAX ? d->nr_groups - 1 : group_of[r];

			group_add_line(&d->groups[g], (int)i, &f[i]->lines[j], sets[g][i]);
		}
	if (!d->groups[d->nr_groups - 1].side[0].lines && !d->groups[d->nr_groups - 1].side[1].lines)
		d->nr_groups--;
	for (size_t i = 0; i < d->nr_groups; i++)
		d->groups[i].hot = fmax((double)d->groups[i].side[0].hitm,
					(double)d->groups[i].side[1].hitm * d->scale);
	qsort(d->groups, d->nr_groups, sizeof(*d->groups), cmp_group);
	rc = 0;
out:
	if (sets)
		for (size_t i = 0; i <= nl; i++)
			for (int a = 0; a < 2; a++)
				for (int b = 0; b < 2; b++)
					id_set__release(&sets[i][a][b]);
	free(sets);
	free(keys);
	free(parent);
	free(group_of);
	return rc;
}

int fields_diff__build(struct fields_diff *d, const struct fields *before,
		       const struct fields *after, double scale)
{
	const struct fields *f[2] = { before, after };

	*d = (struct fields_diff){ .scale = scale };
	if (!(scale > 0) || !isfinite(scale))
		return -EINVAL;
	if (build_structs(d, f) || build_groups(d, f)) {
		fields_diff__release(d);
		return -ENOMEM;
	}
	return 0;
}

void fields_diff__release(struct fields_diff *d)
{
	free(d->structs);
	free(d->members);
	free(d->groups);
	free(d->keys);
	free(d->key_text);
	*d = (struct fields_diff){ 0 };
}
