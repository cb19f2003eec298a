// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A loaded struct cut into the suggester's units and built back in the suggested order:
 *	struct s { char c; unsigned int a:3, b:16; long l; union { int x; float y; };
 *		   long ops; long tail[]; };
 * The bit-fields a and b (bytes 1-3, beside c) move as one unit, the anonymous union as one (named "x|y"), the
 * flexible array stays last, --pin checks its names, and the built layout has the offsets
 * the suggester placed.
 */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/layout.h"
#include "analyzer/srcpatch.h"
#include "analyzer/suggest.h"
#include "analyzer/suggest_layout.h"
#include "tests/unit/check.h"
#include "util/arena.h"

static struct layout_member member(const char *name, const char *type, uint64_t size)
{
	struct layout_member m = {
		.name = name, .type_name = type, .decl_prefix = "", .decl_suffix = "",
		.size = size, .nr_elems = 1, .elem_size = size, .align = (uint32_t)size,
		.natural_align = (uint32_t)size,
	};

	return m;
}

/*
 * struct q { char a; long b; char c; long d __attribute__((aligned(64))); } packed and not:
 * a packed struct's units need no alignment (the suggestion stays packed, groups start lines
 * through the attribute alone), an aligned(64) member keeps its alignment wherever it goes,
 * and a union has no order to suggest.
 */
static void packed_and_aligned(void)
{
	struct arena a = { 0 };
	struct layout_member m[4] = { member("a", "char", 1), member("b", "long int", 8),
				      member("c", "char", 1), member("d", "long int", 8) };
	struct layout_spec spec = { .kind = LAYOUT_STRUCT, .name = "q", .members = m,
				    .nr_members = 4, .packed = true };
	struct layout_type *t;
	struct suggest_plan p;
	char err[256];

	CHECK(layout__build(&a, &spec, &t, err, sizeof(err)) == 0);
	CHECK(suggest_plan__init(&p, t, NULL, 0, err, sizeof(err)) == 0);
	CHECK(p.units[1].align == 1 && p.units[1].offset == 1);
	suggest_plan__release(&p);
	m[3].forced_align = 64;
	spec.packed = false;
	CHECK(layout__build(&a, &spec, &t, err, sizeof(err)) == 0);
	CHECK(suggest_plan__init(&p, t, NULL, 0, err, sizeof(err)) == 0);
	CHECK(p.units[3].align == 64 && p.units[3].forced_align == 64 && p.units[1].align == 8);
	suggest_plan__release(&p);
	spec.kind = LAYOUT_UNION;
	CHECK(layout__build(&a, &spec, &t, err, sizeof(err)) == 0);
	CHECK(suggest_plan__init(&p, t, NULL, 0, err, sizeof(err)) < 0 && strstr(err, "union q"));
	arena__release(&a);
}

int main(void)
{
	packed_and_aligned();
	struct arena a = { 0 };
	struct layout_member um[2] = { member("x", "int", 4), member("y", "float", 4) };
	struct layout_spec us = { .kind = LAYOUT_UNION, .members = um, .nr_members = 2 };
	struct layout_type *u, *t, *built;
	char err[256];

	CHECK(layout__build(&a, &us, &u, err, sizeof(err)) == 0);
	struct layout_member m[7] = {
		member("c", "char", 1), member("a", "unsigned int", 4), member("b", "unsigned int", 4),
		member("l", "long int", 8), member(NULL, "union", 4), member("ops", "long int", 8),
		member("tail", "long int", 0),
	};

	m[1].bit_size = 3;
	m[2].bit_size = 16;
	m[4].type = u;
	m[4].inline_type = true;
	m[6].nr_elems = 0;
	m[6].elem_size = 8;
	m[6].align = m[6].natural_align = 8;
	m[6].decl_suffix = "[]";
	struct layout_spec spec = { .kind = LAYOUT_STRUCT, .name = "s", .members = m,
				    .nr_members = 7 };

	CHECK(layout__build(&a, &spec, &t, err, sizeof(err)) == 0);
	CHECK(t->size == 32);

	/* units */
	struct suggest_plan p;
	const char *bad_pin[] = { "nosuch" };

	CHECK(suggest_plan__init(&p, t, bad_pin, 1, err, sizeof(err)) < 0);
	CHECK(strstr(err, "--pin nosuch") && strstr(err, "x|y"));
	const char *pins[] = { "c" };

	CHECK(suggest_plan__init(&p, t, pins, 1, err, sizeof(err)) == 0);
	CHECK(p.nr_units == 6);
	CHECK(!strcmp(p.units[1].name, "a") && p.count[1] == 2);
	CHECK(!strcmp(p.units[3].name, "x|y") && p.units[3].size == 4);
	CHECK(p.units[5].flex && p.units[0].pinned && !p.units[1].pinned);

	/* thread 1 writes c and ops, thread 2 l, thread 3 reads the union and the bits */
	struct suggest_config cfg = { .line_size = 64, .max_growth = UINT64_MAX,
				      .struct_name = "s" };
	struct suggest *sg = suggest__new(&cfg, p.units, p.nr_units, t->size, t->align);
	struct suggest_result r;
	uint64_t now = 0;

	for (int i = 0; i < 300; i++) {
		struct suggest_access w1 = { .instance = 0x1000, .offset = 24, .time = now += 10,
					     .tid = 1, .store = true };
		struct suggest_access w2 = { .instance = 0x1000, .offset = 8, .time = now += 10,
					     .tid = 2, .store = true };
		struct suggest_access r3 = { .instance = 0x1000, .offset = 16, .time = now += 10,
					     .tid = 3, .load = true };
		struct suggest_access r4 = { .instance = 0x1000, .offset = 1, .time = now += 10,
					     .tid = 3, .load = true };

		suggest__add(sg, &w1);
		w1.offset = 0;
		suggest__add(sg, &w1);
		suggest__add(sg, &w2);
		suggest__add(sg, &r3);
		suggest__add(sg, &r4);
	}
	suggest__run(sg, &r);
	CHECK(r.status == SUGGEST_OK);
	CHECK(r.new_offset[0] == 0);			/* pinned */
	CHECK(r.order[p.nr_units - 1] == 5);		/* the flexible array last */
	uint64_t off[6];

	CHECK(suggest_plan__build(&p, &r, &a, &built, off, err, sizeof(err)) == 0);
	CHECK(!memcmp(off, r.new_offset, sizeof(off)));
	CHECK(built->size == r.size && built->align == r.align);
	/* c, ops (thread 1) / l (thread 2) / the union and the bits (read) on three lines */
	CHECK(off[0] / 64 == off[4] / 64 && off[2] / 64 != off[0] / 64);
	CHECK(off[1] / 64 == off[3] / 64 && off[1] / 64 != off[0] / 64 && off[1] / 64 != off[2] / 64);

	/* what the patch moves: a and b together, the union by its names */
	struct srcpatch_slot *slots;
	const char **expected;
	unsigned int ns, ne, ia = 99, ib = 99, iu = 99;

	suggest_plan__slots(&p, &r, &slots, &ns, &expected, &ne);
	CHECK(ns == 7 && ne == 7);
	for (unsigned int i = 0; i < ns; i++) {
		if (!strcmp(slots[i].member, "a"))
			ia = i;
		if (!strcmp(slots[i].member, "b"))
			ib = i;
		if (!strcmp(slots[i].member, "x|y"))
			iu = i;
	}
	CHECK(ib == ia + 1 && iu < ns);
	CHECK(slots[ia].group && slots[ia].new_line == (r.align_attr[1] != 0));
	free(slots);
	free(expected);
	suggest__delete(sg);
	suggest_plan__release(&p);
	arena__release(&a);
	if (failures)
		fprintf(stderr, "suggest_layout_test: %d checks failed\n", failures);
	return failures != 0;
}
