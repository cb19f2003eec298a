// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The layout model without files: holes, bit holes and padding on hand-made layouts, member
 * lookup by offset through anonymous unions and arrays, and the pahole-format printer.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/layout.h"
#include "util/strbuf.h"

static int failures;

#define CHECK(cond)                                                                      \
	do {                                                                             \
		if (!(cond)) {                                                           \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
				#cond);                                                  \
			failures++;                                                      \
		}                                                                        \
	} while (0)

static struct layout_member member(const char *name, const char *type, uint64_t off,
				   uint64_t size)
{
	struct layout_member m = {
		.name = name, .type_name = type, .decl_prefix = "", .decl_suffix = "",
		.offset = off, .size = size, .nr_elems = 1, .elem_size = size,
		.align = (uint32_t)size, .natural_align = (uint32_t)size,
	};

	return m;
}

/*
 * struct s { char a; long b; unsigned int c:3, d:5; char e; }  (x86-64); the expected text is
 * what pahole 1.24 prints for it compiled by gcc 12 (gcc -g -c).
 */
static void test_holes(void)
{
	struct layout_member m[5] = {
		member("a", "char", 0, 1),
		member("b", "long int", 8, 8),
		member("c", "unsigned int", 16, 4),
		member("d", "unsigned int", 16, 4),
		member("e", "char", 17, 1),
	};
	struct layout_type t = { .kind = LAYOUT_STRUCT, .name = "s", .size = 24,
				 .nr_members = 5, .members = m };
	uint32_t nat[5] = { 1, 8, 4, 4, 1 };

	m[2].bit_size = 3;
	m[3].bit_offset = 3;
	m[3].bit_size = 5;
	layout__compute_holes(&t);
	layout__infer_packed(&t, nat);
	CHECK(m[0].hole == 7);
	CHECK(t.nr_holes == 1 && t.sum_holes == 7);
	CHECK(m[3].bit_hole == 0 && m[3].hole == 0);
	CHECK(t.padding == 6);
	CHECK(!t.packed);

	struct strbuf sb = STRBUF_INIT;
	struct layout_print_opts o = { .line_size = 64, .addr_size = 8 };
	const char *buf;

	layout__print(&t, &o, &sb);
	buf = sb.buf;
	const char *want =
		"struct s {\n"
		"\tchar                       a;                    /*     0     1 */\n"
		"\n"
		"\t/* XXX 7 bytes hole, try to pack */\n"
		"\n"
		"\tlong int                   b;                    /*     8     8 */\n"
		"\tunsigned int               c:3;                  /*    16: 0  4 */\n"
		"\tunsigned int               d:5;                  /*    16: 3  4 */\n"
		"\n"
		"\t/* Bitfield combined with next fields */\n"
		"\n"
		"\tchar                       e;                    /*    17     1 */\n"
		"\n"
		"\t/* size: 24, cachelines: 1, members: 5 */\n"
		"\t/* sum members: 10, holes: 1, sum holes: 7 */\n"
		"\t/* sum bitfield members: 8 bits (1 bytes) */\n"
		"\t/* padding: 6 */\n"
		"\t/* last cacheline: 24 bytes */\n"
		"};\n";
	if (strcmp(buf, want)) {
		fprintf(stderr, "printed:\n%s\nexpected:\n%s\n", buf, want);
		failures++;
	}
	strbuf__release(&sb);
}

/* struct o { int kind; union { long l; struct { short lo, hi; }; }; struct e arr[3]; } */
static void test_member_at(void)
{
	struct layout_member inner_m[2] = { member("lo", "short int", 8, 2),
					    member("hi", "short int", 10, 2) };
	struct layout_type inner = { .kind = LAYOUT_STRUCT, .size = 4, .nr_members = 2,
				     .members = inner_m };
	struct layout_member u_m[2] = { member("l", "long int", 0, 8), member(NULL, "struct", 0, 4) };
	struct layout_type un = { .kind = LAYOUT_UNION, .size = 8, .nr_members = 2, .members = u_m };
	struct layout_member e_m[2] = { member("x", "int", 0, 4), member("y", "int", 4, 4) };
	struct layout_type elem = { .kind = LAYOUT_STRUCT, .name = "e", .size = 8, .nr_members = 2,
				    .members = e_m };
	struct layout_member o_m[3] = { member("kind", "int", 0, 4), member(NULL, "union", 8, 8),
					member("arr", "struct e", 16, 24) };
	struct layout_type o = { .kind = LAYOUT_STRUCT, .name = "o", .size = 40, .nr_members = 3,
				 .members = o_m };
	const struct layout_member *path[4];
	int n;

	/* inner struct members are relative to the union, which sits at 8 */
	inner_m[0].offset = 0;
	inner_m[1].offset = 2;
	u_m[1].type = &inner;
	u_m[1].inline_type = true;
	o_m[1].type = &un;
	o_m[1].inline_type = true;
	o_m[2].type = &elem;
	o_m[2].nr_elems = 3;
	o_m[2].elem_size = 8;

	n = layout__member_at(&o, 2, path, 4);
	CHECK(n == 1 && !strcmp(path[0]->name, "kind"));
	n = layout__member_at(&o, 6, path, 4);
	CHECK(n == 0);	/* the hole */
	n = layout__member_at(&o, 10, path, 4);
	CHECK(n == 3 && path[0] == &o_m[1] && path[1] == &u_m[1] && !strcmp(path[2]->name, "hi"));
	n = layout__member_at(&o, 12, path, 4);
	CHECK(n == 2 && !strcmp(path[1]->name, "l"));
	n = layout__member_at(&o, 16 + 8 + 4, path, 4);	/* arr[1].y */
	CHECK(n == 2 && !strcmp(path[0]->name, "arr") && !strcmp(path[1]->name, "y"));
	CHECK(layout__find_member(&o, "hi") == &inner_m[1]);
	CHECK(layout__find_member(&o, "nope") == NULL);
	CHECK(layout__nr_cachelines(&o, 64) == 1 && layout__nr_cachelines(&o, 32) == 2);
}

/* pahole's packed inference: a member at an offset unnatural for its type */
static void test_packed(void)
{
	struct layout_member m[2] = { member("c", "char", 0, 1), member("i", "int", 1, 4) };
	struct layout_type t = { .kind = LAYOUT_STRUCT, .name = "p", .size = 5, .nr_members = 2,
				 .members = m };
	uint32_t nat[2] = { 1, 4 };

	layout__compute_holes(&t);
	layout__infer_packed(&t, nat);
	CHECK(t.packed && t.padding == 0 && t.nr_holes == 0);
}

int main(void)
{
	test_holes();
	test_member_at();
	test_packed();
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
