// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The layout model without files: holes, bit holes and padding on hand-made layouts, member
 * lookup by offset through anonymous unions and arrays, the pahole-format printer, and the
 * flattening of types that name each other.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/flat_layout.h"
#include "analyzer/layout.h"
#include "util/arena.h"
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
	{
		uint64_t off = 0;

		/* a path: anonymous members searched, offsets from the outer struct */
		CHECK(layout__find_path(&o, "hi", &off) == &inner_m[1] && off == 8 + 2);
		CHECK(layout__find_path(&o, "arr.y", &off) == &e_m[1] && off == 16 + 4);
		CHECK(layout__find_path(&o, "arr.nope", &off) == NULL);
		CHECK(layout__find_path(&o, "kind.x", &off) == NULL);	/* no struct */
		CHECK(layout__find_path(&o, "arr.", &off) == NULL);
	}
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

/* A bit-field member for layout__build: @size is its base type's. */
static struct layout_member bits(const char *name, const char *type, uint64_t size, uint32_t w)
{
	struct layout_member m = member(name, type, 0, size);

	m.bit_size = w;
	return m;
}

/*
 * layout__build against what gcc 12 and clang 14 give on x86-64 (offsets from their DWARF):
 *	struct b { char c; unsigned int a:3, b:16; unsigned int :0; unsigned short s:4;
 *		   long l; unsigned long long w:40; int q:5; unsigned char tail:1; };
 * is 24 bytes: a,b in the unit at 0 (bits 8..26), s in the unit at 4 after the :0, l at 8,
 * w in the unit at 16, q in the int at 20 (bits 8..12), tail in the byte at 21 (bit 5):
 * tests/layout/structs.c's struct bits, as pahole prints it.
 */
static void test_build_bits(void)
{
	struct layout_member m[8] = {
		member("c", "char", 0, 1),	bits("a", "unsigned int", 4, 3),
		bits("b", "unsigned int", 4, 16), bits(NULL, "unsigned int", 4, 0),
		bits("s", "short unsigned int", 2, 4), member("l", "long int", 0, 8),
		bits("w", "long long unsigned int", 8, 40), bits("q", "int", 4, 5),
	};
	struct layout_member all[9];
	struct layout_spec spec = { .kind = LAYOUT_STRUCT, .name = "b", .members = all,
				    .nr_members = 9 };
	struct arena a = { 0 };
	struct layout_type *t;
	char err[128];

	memcpy(all, m, sizeof(m));
	all[8] = bits("tail", "unsigned char", 1, 1);
	all[3].zero_width = true;
	CHECK(layout__build(&a, &spec, &t, err, sizeof(err)) == 0);
	CHECK(t->size == 24 && t->align == 8);
	CHECK(t->members[1].offset == 0 && t->members[1].bit_offset == 8);
	CHECK(t->members[2].offset == 0 && t->members[2].bit_offset == 11);
	CHECK(t->members[4].offset == 4 && t->members[4].bit_offset == 0);
	CHECK(t->members[5].offset == 8);
	CHECK(t->members[6].offset == 16 && t->members[6].bit_offset == 0);
	CHECK(t->members[7].offset == 20 && t->members[7].bit_offset == 8);
	CHECK(t->members[8].offset == 21 && t->members[8].bit_offset == 5);
	CHECK(t->padding == 0 && t->bit_padding == 18);
	CHECK(t->members[1].bit_unit == 2 && t->members[2].bit_unit == 2);
	CHECK(t->members[6].bit_unit == 7 && t->members[7].bit_unit == 7);
	arena__release(&a);
}

/* packed, aligned(N) members and types, a nested union, a flexible array, and the errors */
static void test_build_shapes(void)
{
	struct layout_member m[4] = { member("c", "char", 0, 1), member("i", "int", 0, 4),
				      member("l", "long int", 0, 8), member("d", "char", 0, 0) };
	struct layout_spec spec = { .kind = LAYOUT_STRUCT, .name = "p", .members = m,
				    .nr_members = 3, .packed = true };
	struct layout_type *t, *u;
	struct arena a = { 0 };
	char err[128];

	CHECK(layout__build(&a, &spec, &t, err, sizeof(err)) == 0);
	CHECK(t->size == 13 && t->align == 1 && t->members[2].offset == 5 && t->packed);
	m[2].forced_align = 64;		/* long l __attribute__((aligned(64))) */
	spec.packed = false;
	CHECK(layout__build(&a, &spec, &t, err, sizeof(err)) == 0);
	CHECK(t->size == 128 && t->align == 64 && t->members[2].offset == 64);
	CHECK(t->members[1].hole == 56 && t->padding == 56);
	m[2].forced_align = 0;
	spec.forced_align = 32;
	CHECK(layout__build(&a, &spec, &t, err, sizeof(err)) == 0);
	CHECK(t->size == 32 && t->align == 32);

	/* union { char c; int i; long l; } as one member after a char: at 8, 8 bytes */
	spec = (struct layout_spec){ .kind = LAYOUT_UNION, .members = m, .nr_members = 3 };
	CHECK(layout__build(&a, &spec, &u, err, sizeof(err)) == 0);
	CHECK(u->size == 8 && u->align == 8 && u->members[2].offset == 0);
	struct layout_member outer[3] = { member("c", "char", 0, 1), member(NULL, "union", 0, 0),
					  member("tail", "int", 0, 0) };

	outer[1].type = u;
	outer[1].inline_type = true;
	outer[1].natural_align = outer[1].type_align = 0;
	outer[2].decl_suffix = "[]";
	outer[2].nr_elems = 0;
	outer[2].natural_align = 4;
	spec = (struct layout_spec){ .kind = LAYOUT_STRUCT, .name = "o", .members = outer,
				     .nr_members = 3 };
	CHECK(layout__build(&a, &spec, &t, err, sizeof(err)) == 0);
	CHECK(t->members[1].offset == 8 && t->members[2].offset == 16 && t->size == 16);

	/* the flexible array first, and a bit-field wider than its type: refused */
	struct layout_member bad[2] = { outer[2], member("x", "int", 0, 4) };

	spec.members = bad;
	spec.nr_members = 2;
	CHECK(layout__build(&a, &spec, &t, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "tail") && strstr(err, "not the last"));
	bad[0] = bits("w", "char", 1, 9);
	CHECK(layout__build(&a, &spec, &t, err, sizeof(err)) == -EINVAL && strstr(err, "exceeds"));

	/* reorder: the packed example's members reversed, loaded-style */
	spec = (struct layout_spec){ .kind = LAYOUT_STRUCT, .name = "r", .members = m,
				     .nr_members = 3 };
	CHECK(layout__build(&a, &spec, &t, err, sizeof(err)) == 0);
	CHECK(t->size == 16 && t->members[0].hole == 3);
	uint32_t order[3] = { 2, 1, 0 };

	CHECK(layout__reorder(&a, t, order, 3, &u, err, sizeof(err)) == 0);
	CHECK(u->size == 16 && !strcmp(u->members[0].name, "l") && u->members[1].offset == 8 &&
	      u->members[2].offset == 12 && u->padding == 3);
	order[1] = 2;
	CHECK(layout__reorder(&a, t, order, 3, &u, err, sizeof(err)) == -EINVAL);
	arena__release(&a);
}

/* The annotation hooks add text at the end of member and cache-line lines, nothing else. */
static void note_member(void *ctx, const struct layout_member *m, uint64_t offset, int depth,
			struct strbuf *out)
{
	(void)ctx;
	strbuf__addf(out, " <%s@%llu/%d>", m->name, (unsigned long long)offset, depth);
}

static void note_line(void *ctx, uint32_t line, uint64_t offset, struct strbuf *out)
{
	strbuf__addf(out, " [%s %u %llu]", (const char *)ctx, line, (unsigned long long)offset);
}

static void test_annotate(void)
{
	struct layout_member m[2] = { member("a", "long int", 0, 8), member("b", "int", 0, 4) };
	struct layout_spec spec = { .kind = LAYOUT_STRUCT, .name = "h", .members = m,
				    .nr_members = 2 };
	struct layout_annotate an = { note_member, note_line, "line" };
	struct layout_print_opts o = { .line_size = 8, .addr_size = 8, .annotate = &an };
	struct strbuf sb = STRBUF_INIT;
	struct arena a = { 0 };
	struct layout_type *t;
	char err[128];

	CHECK(layout__build(&a, &spec, &t, err, sizeof(err)) == 0);
	layout__print(t, &o, &sb);
	const char *want =
		"struct h {\n"
		"\tlong int                   a;                    /*     0     8 */ <a@0/0>\n"
		"\t/* --- cacheline 1 boundary (8 bytes) --- */ [line 1 8]\n"
		"\tint                        b;                    /*     8     4 */ <b@8/0>\n"
		"\n"
		"\t/* size: 16, cachelines: 2, members: 2 */\n"
		"\t/* padding: 4 */\n"
		"};\n";

	if (strcmp(sb.buf, want)) {
		fprintf(stderr, "printed:\n%s\nexpected:\n%s\n", sb.buf, want);
		failures++;
	}
	/* without hooks: pahole's text */
	o.annotate = NULL;
	strbuf__reset(&sb);
	layout__print(t, &o, &sb);
	CHECK(!strstr(sb.buf, "<") && !strstr(sb.buf, "[line"));
	strbuf__release(&sb);
	arena__release(&a);
}

/* An array member of @n elements of @size bytes. */
static struct layout_member array(const char *name, const char *type, const char *dims,
				  uint64_t n, uint64_t size)
{
	struct layout_member m = member(name, type, 0, n * size);

	m.decl_suffix = dims;
	m.nr_elems = n;
	m.elem_size = size;
	m.align = m.natural_align = (uint32_t)size;
	return m;
}

static void check_text(const char *what, const char *got, const char *want)
{
	if (strcmp(got, want)) {
		fprintf(stderr, "%s: printed:\n%s\nexpected:\n%s\n", what, got, want);
		failures++;
	}
}

/*
 * struct s { long x __attribute__((aligned(64))); char c[16]; int a[256]; }: 40 bytes of tail
 * padding after an array.  Loaded from clang 14's DWARF (no DW_AT_alignment on the struct)
 * pahole 1.24 fills it with the array's type, one 1024-byte "bit-field" for 40 bytes; lineup's
 * own layout of it fills it with the element, ten ints.
 */
static void test_array_padding(void)
{
	struct layout_member m[3] = { member("x", "long", 0, 8), array("c", "char", "[16]", 16, 1),
				      array("a", "int", "[256]", 256, 4) };
	struct layout_spec spec = { .kind = LAYOUT_STRUCT, .name = "s", .members = m,
				    .nr_members = 3 };
	struct layout_print_opts o = { .line_size = 64, .addr_size = 8 };
	struct strbuf sb = STRBUF_INIT;
	struct arena a = { 0 };
	struct layout_type *t;
	char err[128];

	m[0].forced_align = 64;
	CHECK(layout__build(&a, &spec, &t, err, sizeof(err)) == 0);
	CHECK(t->size == 1088 && t->padding == 40 && t->built);
	const char *head =
		"struct s {\n"
		"\tlong                       x __attribute__((__aligned__(64))); /*     0     8 */\n"
		"\tchar                       c[16];                /*     8    16 */\n"
		"\tint                        a[256];               /*    24  1024 */\n"
		"\n"
		"\t/* Force padding: */\n";
	const char *tail =
		"\n"
		"\t/* size: 1088, cachelines: 17, members: 3 */\n"
		"\t/* padding: 40 */\n"
		"\t/* forced alignments: 1 */\n"
		"};\n";
	struct strbuf want = STRBUF_INIT;

	strbuf__addf(&want, "%s", head);
	for (int i = 0; i < 10; i++)
		strbuf__addf(&want, "\tint                        :32;\n");
	strbuf__addf(&want, "%s", tail);
	layout__print(t, &o, &sb);
	check_text("built", sb.buf, want.buf);

	/* the same layout as loaded from debug info: pahole's text, byte for byte */
	t->built = false;
	strbuf__reset(&sb);
	strbuf__reset(&want);
	strbuf__addf(&want, "%s\tint                        [256]:8192;\n%s", head, tail);
	layout__print(t, &o, &sb);
	check_text("loaded", sb.buf, want.buf);

	/* an element that does not divide the padding: no filler, the padding line says it */
	m[2] = array("a", "struct pair", "[3]", 3, 16);
	m[2].align = m[2].natural_align = 8;
	CHECK(layout__build(&a, &spec, &t, err, sizeof(err)) == 0);
	CHECK(t->padding == 56);	/* 16-byte elements: 3.5 of them */
	strbuf__reset(&sb);
	layout__print(t, &o, &sb);
	CHECK(!strstr(sb.buf, "Force padding") && strstr(sb.buf, "/* padding: 56 */"));
	strbuf__release(&want);
	strbuf__release(&sb);
	arena__release(&a);
}

/* `typedef struct { int p; char q; } pair_t;` built and reordered keeps its typedef's name. */
static void test_typedef_built(void)
{
	struct layout_member m[2] = { member("p", "int", 0, 4), member("q", "char", 0, 1) };
	struct layout_spec spec = { .kind = LAYOUT_STRUCT, .typedef_name = "pair_t",
				    .members = m, .nr_members = 2 };
	struct layout_print_opts o = { .line_size = 64, .addr_size = 8 };
	struct strbuf sb = STRBUF_INIT;
	struct arena a = { 0 };
	struct layout_type *t, *r;
	uint32_t order[2] = { 1, 0 };
	char err[128];

	CHECK(layout__build(&a, &spec, &t, err, sizeof(err)) == 0);
	CHECK(layout__reorder(&a, t, order, 2, &r, err, sizeof(err)) == 0);
	CHECK(r->typedef_name && !strcmp(r->typedef_name, "pair_t") && !r->name);
	layout__print(t, &o, &sb);
	/* pahole 1.24 -C pair_t on it compiled by gcc 12 and clang 14 */
	check_text("typedef", sb.buf,
		   "typedef struct {\n"
		   "\tint                        p;                    /*     0     4 */\n"
		   "\tchar                       q;                    /*     4     1 */\n"
		   "\n"
		   "\t/* size: 8, cachelines: 1, members: 2 */\n"
		   "\t/* padding: 3 */\n"
		   "\t/* last cacheline: 8 bytes */\n"
		   "} pair_t;\n");
	strbuf__reset(&sb);
	layout__print(r, &o, &sb);
	CHECK(!strncmp(sb.buf, "typedef struct {\n", 17) && strstr(sb.buf, "\n} pair_t;\n"));
	strbuf__release(&sb);
	arena__release(&a);
}

/*
 * Types found by name that hold each other (struct a { struct b b0, b1; }, struct b { struct a
 * a0, a1; }), as a broken or hostile object's DWARF can say: tests/fuzz/seeds/
 * debuginfo-name-cycle.bin had type_index__find flatten a, b, a, ... 8 levels deep, 8 members
 * each, for ever.  Each is entered once on a path.
 */
static const struct layout_type *cycle[2];

static const struct layout_type *resolve_cycle(void *ctx, const char *id)
{
	(void)ctx;
	return !strcmp(id, "a") ? cycle[0] : !strcmp(id, "b") ? cycle[1] : NULL;
}

static void test_flat_name_cycle(void)
{
	struct layout_member a_m[2] = { member("b0", "struct b", 0, 16),
					member("b1", "struct b", 16, 16) };
	struct layout_member b_m[2] = { member("a0", "struct a", 0, 8),
					member("a1", "struct a", 8, 8) };
	struct layout_type a = { .kind = LAYOUT_STRUCT, .name = "a", .size = 32, .nr_members = 2,
				 .members = a_m };
	struct layout_type b = { .kind = LAYOUT_STRUCT, .name = "b", .size = 16, .nr_members = 2,
				 .members = b_m };
	struct flat_layout *fl;
	char name[64];

	for (int i = 0; i < 2; i++) {
		a_m[i].type_id = "b";
		b_m[i].type_id = "a";
	}
	cycle[0] = &a;
	cycle[1] = &b;
	fl = flat_layout__new(&a, NULL, resolve_cycle, NULL);
	/* b0, b0.a0, b0.a1, b1, b1.a0, b1.a1: no a inside a b inside a */
	CHECK(fl->nr_members == 6);
	CHECK(flat_layout__name_at(fl, 24, name, sizeof(name)) >= 0 && !strcmp(name, "b1.a1"));
	flat_layout__delete(fl);
}

int main(void)
{
	test_holes();
	test_member_at();
	test_packed();
	test_build_bits();
	test_build_shapes();
	test_annotate();
	test_array_padding();
	test_typedef_built();
	test_flat_name_cycle();
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
