// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The layout constructor against the compilers: layouts built with layout__build (from scratch)
 * or layout__reorder (a loaded struct in another order) are printed as C, compiled by gcc and
 * clang, and read back with lineup's own DWARF loader; every member's offset, bit offset, size
 * and width and the struct's size must be what the constructor computed.
 *
 *   layout_check shapes                        C for every from-scratch shape, one global each
 *   layout_check check-shapes OBJ              compare OBJ's shapes with the constructor's
 *   layout_check reorder OBJ STRUCT ORDER NEW  C for STRUCT of OBJ reordered, named NEW
 *   layout_check check-reorder OBJ STRUCT ORDER OBJ2 NEW
 *                                              compare NEW of OBJ2 with the constructor's
 * ORDER: identity, reverse, rotN, shuffleN (a seeded permutation); a trailing flexible array
 * stays last.  Exit 0 when equal, 1 on a difference (each printed), 2 on bad use.
 * Used by tests/layout/build.sh.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/layout.h"
#include "dwarf/layout.h"
#include "util/arena.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- printing a layout as C: pahole's text without its comments ---- */

static void print_c(const struct layout_type *t, const char *var)
{
	struct layout_print_opts o = { .line_size = 64, .addr_size = 8 };
	struct strbuf sb = STRBUF_INIT;
	const char *p;

	layout__print(t, &o, &sb);
	for (p = sb.buf; *p;) {
		if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");

			p = e ? e + 2 : p + strlen(p);
			continue;
		}
		putchar(*p++);
	}
	printf("%s %s %s;\n\n", layout_kind__name(t->kind), t->name, var);
	strbuf__release(&sb);
}

/* ---- comparing a constructed layout with the compiler's ---- */

static int diffs;

static void differ(const char *where, const char *what, unsigned long long want,
		   unsigned long long got)
{
	printf("%s: %s: constructor %llu, compiler %llu\n", where, what, want, got);
	diffs++;
}

/* Anonymous members are matched in order, named ones by name; unnamed bit-fields have no DIE. */
static const struct layout_member *counterpart(const struct layout_type *t,
					       const struct layout_member *m, uint32_t nth_anon)
{
	for (uint32_t i = 0, anon = 0; i < t->nr_members; i++) {
		const struct layout_member *c = &t->members[i];

		if (m->name && c->name && !strcmp(m->name, c->name))
			return c;
		if (!m->name && !c->name && anon++ == nth_anon)
			return c;
	}
	return NULL;
}

static void compare(const char *where, const struct layout_type *want,
		    const struct layout_type *got)
{
	uint32_t anon = 0, named = 0;
	char sub[512];

	if (want->size != got->size)
		differ(where, "size", want->size, got->size);
	for (uint32_t i = 0; i < want->nr_members; i++) {
		const struct layout_member *m = &want->members[i], *c;

		if (!m->name && (m->bit_size || m->zero_width))
			continue;
		named++;
		c = counterpart(got, m, m->name ? 0 : anon);
		snprintf(sub, sizeof(sub), "%s.%s", where, m->name ? m->name : "(anonymous)");
		if (!m->name)
			anon++;
		if (!c) {
			printf("%s: not in the compiler's layout\n", sub);
			diffs++;
			continue;
		}
		if (m->offset != c->offset)
			differ(sub, "offset", m->offset, c->offset);
		if (m->bit_offset != c->bit_offset)
			differ(sub, "bit offset", m->bit_offset, c->bit_offset);
		if (m->size != c->size)
			differ(sub, "size", m->size, c->size);
		if (m->bit_size != c->bit_size)
			differ(sub, "bit width", m->bit_size, c->bit_size);
		if (m->type && c->type && m->inline_type)
			compare(sub, m->type, c->type);
	}
	if (named != got->nr_members)
		differ(where, "members", named, got->nr_members);
}

/* ---- the from-scratch shapes ---- */

/* One member: type text, size, _Alignof; then what the shape sets. */
static struct layout_member mem(const char *name, const char *type, uint64_t size, uint32_t align)
{
	return (struct layout_member){ .name = name, .type_name = type, .decl_prefix = "",
				       .decl_suffix = "", .size = size, .type_align = align,
				       .nr_elems = 1 };
}

static struct layout_member bf(const char *name, const char *type, uint64_t size, uint32_t w)
{
	struct layout_member m = mem(name, type, size, (uint32_t)size);

	m.bit_size = w;
	m.zero_width = !w;
	return m;
}

static struct layout_member arr(const char *name, const char *type, uint64_t elem,
				uint32_t align, uint64_t n, const char *suffix)
{
	struct layout_member m = mem(name, type, elem * n, align);

	m.nr_elems = n;
	m.elem_size = elem;
	m.decl_suffix = suffix;
	return m;
}

static struct layout_member aligned(struct layout_member m, uint32_t n)
{
	m.forced_align = n;
	return m;
}

static struct layout_member nested(struct layout_type *t)
{
	struct layout_member m = mem(NULL, layout_kind__name(t->kind), 0, 0);

	m.type = t;
	m.inline_type = true;
	return m;
}

struct shape {
	const char *name;
	enum layout_kind kind;
	bool packed;
	uint32_t forced_align;
	uint32_t nr;
	struct layout_member m[12];
};

#define SHAPE(n, k, pk, fa, ...)                                                          \
	{ .name = n, .kind = k, .packed = pk, .forced_align = fa,                           \
	  .nr = sizeof((struct layout_member[]){ __VA_ARGS__ }) / sizeof(struct layout_member), \
	  .m = { __VA_ARGS__ } }

static struct layout_type *build(struct arena *a, const struct shape *s, const char *name)
{
	struct layout_spec spec = { .kind = s->kind, .name = name, .members = s->m,
				    .nr_members = s->nr, .packed = s->packed,
				    .forced_align = s->forced_align };
	struct layout_type *t;
	char err[256];

	if (layout__build(a, &spec, &t, err, sizeof(err))) {
		fprintf(stderr, "layout_check: %s: %s\n", s->name, err);
		exit(2);
	}
	return t;
}

/* Every shape the constructor takes; nested ones are built first and referred to by index. */
static int shapes(struct arena *a, struct layout_type **out, const char **names)
{
	struct layout_member fnp = mem("fn", "int", 8, 8);
	int n = 0;

	fnp.decl_prefix = "(*";
	fnp.decl_suffix = ")(int, const char *)";
	/* anonymous pieces first */
	struct shape inner_s = SHAPE(NULL, LAYOUT_STRUCT, false, 0, mem("lo", "short int", 2, 2),
				     mem("hi", "short int", 2, 2));
	struct layout_type *inner = build(a, &inner_s, NULL);
	struct shape un_s = SHAPE(NULL, LAYOUT_UNION, false, 0, mem("l", "long int", 8, 8),
				  nested(inner), arr("b", "char", 1, 1, 3, "[3]"));
	struct layout_type *un = build(a, &un_s, NULL);
	struct shape bitsu_s = SHAPE(NULL, LAYOUT_STRUCT, false, 0, bf("x", "unsigned int", 4, 3),
				     bf("y", "unsigned int", 4, 29), mem("z", "char", 1, 1));
	struct layout_type *bitsu = build(a, &bitsu_s, NULL);
	const struct shape all[] = {
		SHAPE("lc_basic", LAYOUT_STRUCT, false, 0, mem("c", "char", 1, 1),
		      mem("l", "long int", 8, 8), mem("s", "short int", 2, 2),
		      mem("i", "int", 4, 4), mem("tail", "char", 1, 1)),
		SHAPE("lc_bits", LAYOUT_STRUCT, false, 0, mem("c", "char", 1, 1),
		      bf("a", "unsigned int", 4, 3), bf("b", "unsigned int", 4, 16),
		      bf(NULL, "unsigned int", 4, 0), bf("s", "short unsigned int", 2, 4),
		      mem("l", "long int", 8, 8), bf("w", "long long unsigned int", 8, 40),
		      bf("q", "int", 4, 5), bf("tail", "unsigned char", 1, 1)),
		SHAPE("lc_bits_mix", LAYOUT_STRUCT, false, 0, bf("a", "short int", 2, 9),
		      bf("b", "char", 1, 7), bf("c", "int", 4, 17), bf("d", "long int", 8, 33),
		      mem("e", "char", 1, 1), bf("f", "unsigned int", 4, 1),
		      bf("g", "long long unsigned int", 8, 63), bf("h", "_Bool", 1, 1)),
		SHAPE("lc_bits_unnamed", LAYOUT_STRUCT, false, 0, bf("a", "int", 4, 3),
		      bf(NULL, "int", 4, 5), mem("b", "char", 1, 1), bf(NULL, "long int", 8, 0),
		      mem("c", "char", 1, 1), bf(NULL, "char", 1, 3), bf("d", "char", 1, 6)),
		SHAPE("lc_aligned", LAYOUT_STRUCT, false, 0, mem("flag", "char", 1, 1),
		      aligned(mem("counter", "long int", 8, 8), 64), mem("tail", "char", 1, 1)),
		SHAPE("lc_aligned_type", LAYOUT_STRUCT, false, 32, mem("a", "int", 4, 4),
		      mem("b", "char", 1, 1)),
		SHAPE("lc_packed", LAYOUT_STRUCT, true, 0, mem("c", "char", 1, 1),
		      mem("i", "int", 4, 4), mem("s", "short int", 2, 2)),
		SHAPE("lc_packed_aligned", LAYOUT_STRUCT, true, 0, mem("c", "char", 1, 1),
		      aligned(mem("i", "int", 4, 4), 4), mem("l", "long int", 8, 8),
		      aligned(mem("s", "short int", 2, 2), 8), mem("t", "char", 1, 1)),
		SHAPE("lc_packed_bits", LAYOUT_STRUCT, true, 0, mem("c", "char", 1, 1),
		      bf("a", "unsigned int", 4, 12), bf("b", "unsigned int", 4, 30),
		      bf("d", "long int", 8, 40), mem("e", "short int", 2, 2)),
		SHAPE("lc_nested", LAYOUT_STRUCT, false, 0, mem("kind", "int", 4, 4), nested(un),
		      mem("tail", "char", 1, 1), nested(bitsu), mem("end", "short int", 2, 2)),
		SHAPE("lc_flex", LAYOUT_STRUCT, false, 0, mem("n", "int", 4, 4),
		      mem("c", "char", 1, 1), arr("data", "long int", 8, 8, 0, "[]")),
		SHAPE("lc_flex_small", LAYOUT_STRUCT, false, 0, mem("c", "char", 1, 1),
		      arr("arr", "short int", 2, 2, 0, "[]")),
		SHAPE("lc_arrays", LAYOUT_STRUCT, false, 0, arr("a", "char", 1, 1, 3, "[3]"),
		      arr("b", "int", 4, 4, 5, "[5]"), mem("c", "char", 1, 1),
		      arr("d", "double", 8, 8, 2, "[2]"), arr("m", "short int", 2, 2, 6, "[2][3]")),
		SHAPE("lc_pointers", LAYOUT_STRUCT, false, 0, mem("c", "char", 1, 1),
		      mem("p", "void *", 8, 8), mem("d", "char", 1, 1), fnp),
		SHAPE("lc_long_double", LAYOUT_STRUCT, false, 0, mem("c", "char", 1, 1),
		      mem("ld", "long double", 16, 16), mem("tail", "int", 4, 4)),
		SHAPE("lc_union_bits", LAYOUT_UNION, false, 0, bf("a", "int", 4, 3),
		      mem("c", "char", 1, 1), bf("l", "long int", 8, 40)),
		SHAPE("lc_union", LAYOUT_UNION, false, 0, mem("c", "char", 1, 1),
		      arr("s", "short int", 2, 2, 3, "[3]"), aligned(mem("i", "int", 4, 4), 16)),
		SHAPE("lc_empty_tail", LAYOUT_STRUCT, false, 0, mem("l", "long int", 8, 8),
		      bf("a", "unsigned char", 1, 1)),
	};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		names[n] = all[i].name;
		out[n++] = build(a, &all[i], all[i].name);
	}
	return n;
}

/* ---- reordering a loaded struct ---- */

/* The permutation ORDER names, a trailing flexible array kept last; false when unknown. */
static bool make_order(const struct layout_type *t, const char *how, uint32_t *order)
{
	uint32_t n = t->nr_members, movable = n;
	unsigned long k = 0;

	if (n && !t->members[n - 1].nr_elems && !t->members[n - 1].size)
		movable = n - 1;
	for (uint32_t i = 0; i < n; i++)
		order[i] = i;
	if (!strcmp(how, "identity"))
		return true;
	if (!strcmp(how, "reverse")) {
		for (uint32_t i = 0; i < movable; i++)
			order[i] = movable - 1 - i;
		return true;
	}
	if (sscanf(how, "rot%lu", &k) == 1) {
		for (uint32_t i = 0; movable && i < movable; i++)
			order[i] = (uint32_t)((i + k) % movable);
		return true;
	}
	if (sscanf(how, "shuffle%lu", &k) == 1) {
		unsigned long long x = k * 2654435761u + 1;

		for (uint32_t i = movable; i > 1; i--) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			uint32_t j = (uint32_t)((x >> 33) % i), tmp = order[i - 1];

			order[i - 1] = order[j];
			order[j] = tmp;
		}
		return true;
	}
	return false;
}

static const struct layout_type *load(struct layout_source **src, const char *obj,
				       const char *name)
{
	const struct layout_type *t;
	char err[1024];

	if (layout_source__open(src, obj, 0, err, sizeof(err))) {
		fprintf(stderr, "layout_check: %s\n", err);
		exit(2);
	}
	if (layout_source__find(*src, name, &t, err, sizeof(err))) {
		fprintf(stderr, "layout_check: no struct %s in %s\n", name, obj);
		exit(2);
	}
	return t;
}

static struct layout_type *reordered(struct arena *a, const struct layout_type *t,
				     const char *how, const char *name)
{
	uint32_t *order = xcalloc(t->nr_members + 1, sizeof(*order));
	struct layout_type *r;
	char err[256];

	if (!make_order(t, how, order)) {
		fprintf(stderr, "layout_check: unknown order '%s'\n", how);
		exit(2);
	}
	if (layout__reorder(a, t, order, t->nr_members, &r, err, sizeof(err))) {
		fprintf(stderr, "layout_check: %s: %s\n", t->name, err);
		exit(2);
	}
	free(order);
	r->name = name;
	r->nested = NULL;	/* declared with the original: not again */
	r->nr_nested = 0;
	return r;
}

int main(int argc, char **argv)
{
	struct layout_type *built[64];
	const char *names[64];
	struct layout_source *src = NULL, *src2 = NULL;
	struct arena a = { 0 };
	int n;

	if (argc == 2 && !strcmp(argv[1], "shapes")) {
		n = shapes(&a, built, names);
		for (int i = 0; i < n; i++) {
			char var[64];

			snprintf(var, sizeof(var), "v_%s", names[i]);
			print_c(built[i], var);
		}
	} else if (argc == 3 && !strcmp(argv[1], "check-shapes")) {
		n = shapes(&a, built, names);
		for (int i = 0; i < n; i++) {
			const struct layout_type *got;
			char err[256];

			if (!src && layout_source__open(&src, argv[2], 0, err, sizeof(err))) {
				fprintf(stderr, "layout_check: %s\n", err);
				return 2;
			}
			if (layout_source__find(src, names[i], &got, err, sizeof(err))) {
				printf("%s: not in %s\n", names[i], argv[2]);
				diffs++;
				continue;
			}
			compare(names[i], built[i], got);
		}
		printf("%d shapes, %d difference(s)\n", n, diffs);
	} else if (argc == 6 && !strcmp(argv[1], "reorder")) {
		const struct layout_type *t = load(&src, argv[2], argv[3]);
		char var[128];

		snprintf(var, sizeof(var), "v_%s", argv[5]);
		print_c(reordered(&a, t, argv[4], argv[5]), var);
	} else if (argc == 7 && !strcmp(argv[1], "check-reorder")) {
		const struct layout_type *t = load(&src, argv[2], argv[3]);
		const struct layout_type *got = load(&src2, argv[5], argv[6]);

		compare(argv[6], reordered(&a, t, argv[4], argv[6]), got);
	} else {
		fprintf(stderr, "usage: layout_check shapes | check-shapes OBJ | reorder OBJ STRUCT "
				"ORDER NEW | check-reorder OBJ STRUCT ORDER OBJ2 NEW\n");
		return 2;
	}
	layout_source__delete(src);
	layout_source__delete(src2);
	arena__release(&a);
	return diffs ? 1 : 0;
}
