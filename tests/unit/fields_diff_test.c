// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fields_diff on hand-made field tables: the false-sharing pair of (before), fixed in (after)
 * by a layout that moves b to the next line at another address: one line group, 1 line then 2,
 * HITMs gone, b's move and the layout change seen; a table against itself changes nothing;
 * unattributed lines make a group of their own; a struct only one side has; the change's
 * scaling.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analyzer/fields.h"
#include "analyzer/fields_diff.h"
#include "tests/unit/check.h"

static const struct flat_member pair_m[] = {
	{ "a", "long", 0, 8, 0, 0, 0, 0, 0, NULL },
	{ "b", "long", 8, 8, 0, 0, 0, 0, 0, NULL },
};
static const struct flat_layout pair = { "struct pair", 16, 2, pair_m, NULL };

/* The fix: b on a line of its own. */
static const struct flat_member padded_m[] = {
	{ "a", "long", 0, 8, 0, 0, 0, 0, 0, NULL },
	{ "b", "long", 64, 8, 0, 0, 0, 0, 0, NULL },
};
static const struct flat_layout padded = { "struct pair", 128, 2, padded_m, NULL };

static const struct flat_member solo_m[] = { { "n", "int", 0, 4, 0, 0, 0, 0, 0, NULL } };
static const struct flat_layout solo = { "struct solo", 4, 1, solo_m, NULL };

static void add(struct fields *f, const struct flat_layout *l, uint64_t base, int member,
		uint32_t cpu, int store, int hitm)
{
	struct attr_result r = { 0 };
	struct fields_access a = { 0 };

	if (l) {
		r.kind = ATTR_VARIABLE;
		r.layout = l;
		r.base = base;
		r.member = member;
		snprintf(r.path, sizeof(r.path), "%s", l->members[member].path);
		a.addr = base + l->members[member].offset;
	} else {
		r.reason = ATTR_NO_DEBUGINFO;
		r.member = -1;
		a.addr = base;
	}
	r.offset = a.addr - base;
	a.ip = 0x400000;
	a.cpu = cpu;
	a.tid = 100 + cpu;
	a.weight = hitm ? 300 : 30;
	a.store = store;
	a.load = !store;
	a.lcl_hitm = hitm && !store;
	fields__add(f, &r, &a);
}

/* Two threads on CPUs 0 and 1, each writing its counter and reading the other's. */
static struct fields *pair_table(const struct flat_layout *l, uint64_t base, int hitm)
{
	struct fields *f = fields__new(64);

	for (int i = 0; i < 10; i++) {
		add(f, l, base, 0, 0, 1, 0);
		add(f, l, base, 1, 1, 1, 0);
		add(f, l, base, 1, 0, 0, hitm);
		add(f, l, base, 0, 1, 0, hitm);
	}
	return f;
}

static const struct diff_group *group_with(const struct fields_diff *d, const char *key)
{
	for (size_t i = 0; i < d->nr_groups; i++)
		for (size_t k = 0; k < d->groups[i].nr_keys; k++)
			if (!strcmp(d->groups[i].keys[k], key))
				return &d->groups[i];
	return NULL;
}

static const struct diff_member *member(const struct fields_diff *d, const char *type,
					const char *path)
{
	for (size_t i = 0; i < d->nr_members; i++)
		if (!strcmp(d->members[i].type, type) && d->members[i].path &&
		    !strcmp(d->members[i].path, path))
			return &d->members[i];
	return NULL;
}

static void test_fix(void)
{
	struct fields *before = pair_table(&pair, 0x1000, 1), *after = pair_table(&padded, 0x9000, 0);
	const struct diff_group *g;
	const struct diff_member *b;
	struct fields_diff d;

	/* (after) also touches a struct (before) never did, and bytes nothing names. */
	add(after, &solo, 0x20000, 0, 0, 1, 0);
	add(after, NULL, 0x30000, -1, 1, 1, 0);
	fields__finish(before);
	fields__finish(after);
	CHECK(!fields_diff__build(&d, before, after, 1.0));
	g = group_with(&d, "struct pair.a");
	CHECK(g && g == group_with(&d, "struct pair.b") && g->nr_keys == 2);
	CHECK(g && g == &d.groups[0]); /* the hottest first */
	CHECK(g && g->side[0].lines == 1 && g->side[1].lines == 2);
	CHECK(g && g->side[0].hitm == 20 && g->side[1].hitm == 0);
	CHECK(g && g->addr[0] == 0x1000 && g->addr[1] == 0x9000);
	CHECK(g && g->verdict[0] == LINE_FALSE_SHARING && g->verdict[1] != LINE_FALSE_SHARING);
	CHECK(g && g->side[0].writers == 2 && g->side[1].writers == 2);
	b = member(&d, "struct pair", "b");
	CHECK(b && b->in_layout[0] && b->in_layout[1] && b->offset[0] == 8 && b->offset[1] == 64);
	CHECK(b && b->side[0].hitm == 10 && b->side[1].hitm == 0 && b->side[1].stores == 10);
	CHECK(d.nr_structs == 2 && d.structs[0].layout_changed && !d.structs[1].layout_changed);
	CHECK(d.nr_structs == 2 && !d.structs[1].layout[0] && d.structs[1].layout[1] == &solo);
	CHECK(group_with(&d, "struct solo.n") && group_with(&d, "struct solo.n")->side[0].lines == 0);
	/* The unattributed group, last. */
	CHECK(d.nr_groups == 3 && !d.groups[2].nr_keys && d.groups[2].side[1].lines == 1 &&
	      d.groups[2].side[0].lines == 0);
	fields_diff__release(&d);

	/* Against itself: no change, no layout change. */
	CHECK(!fields_diff__build(&d, before, before, 1.0));
	for (size_t i = 0; i < d.nr_groups; i++)
		CHECK(!memcmp(&d.groups[i].side[0], &d.groups[i].side[1], sizeof(d.groups[i].side[0])));
	for (size_t i = 0; i < d.nr_members; i++)
		CHECK(fields_diff__change(d.members[i].side[0].hitm, d.members[i].side[1].hitm,
					  1.0) == 0);
	CHECK(d.nr_structs == 1 && !d.structs[0].layout_changed);
	fields_diff__release(&d);
	CHECK(fields_diff__build(&d, before, after, 0) == -EINVAL);
	fields__delete(before);
	fields__delete(after);
}

static void test_change(void)
{
	/* (after) did twice the work: its counts are halved before they are compared. */
	CHECK(fields_diff__change(100, 200, 0.5) == 0);
	CHECK(fields_diff__change(100, 0, 0.5) == -100);
	CHECK(fields_diff__change(100, 150, 1.0) == 50);
	CHECK(isinf(fields_diff__change(0, 3, 1.0)));
	CHECK(fields_diff__change(0, 0, 1.0) == 0);
}

int main(void)
{
	test_fix();
	test_change();
	return failures != 0;
}
