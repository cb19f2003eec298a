// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * analyzer/attr_engine: the deciding part of field attribution on made-up evidence sources
 * (no recording, no debug info): an operand typed `struct path` inside a filp allocation
 * becomes struct file's f_path; an indexed operand is placed by what places its object (an
 * allocation, an unindexed access), else left ambiguous; a scalar global gets a one-member
 * layout whose elements are told apart; an untyped heap block is typed by its allocating call
 * (an array of structs: one instance per element, after the count new T[n] stores first), or by the operands of its accesses (a
 * void * block: elements named pool[N], the evidence deciding between types); a struct with a
 * flexible array member allocated with room for its elements (its tail named h->tail[N],
 * whether the allocating call or the accesses type the block); a global byte array typed by
 * its accesses as a void * block is (placement new into a static buffer: pool[N]); hints, the
 * kmem cache table, and warnings returned once as data.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/attr_engine.h"
#include "tests/unit/check.h"

static const struct flat_member file_members[] = {
	{ "f_path", "struct path", 16, 16, 0, 0, 0, 0, 0, NULL },
	{ "f_path.mnt", "struct vfsmount *", 16, 8, 0, 0, 0, 1, 0, NULL },
	{ "f_path.dentry", "struct dentry *", 24, 8, 0, 0, 0, 1, 0, NULL },
	{ "f_count", "atomic_long_t", 56, 8, 0, 0, 0, 0, 0, NULL },
};
static const struct flat_layout file_layout = { "struct file", 128, 4, file_members, NULL };

static const struct flat_member path_members[] = {
	{ "mnt", "struct vfsmount *", 0, 8, 0, 0, 0, 0, 0, NULL },
	{ "dentry", "struct dentry *", 8, 8, 0, 0, 0, 0, 0, NULL },
};
static const struct flat_layout path_layout = { "struct path", 16, 2, path_members, NULL };

static const struct flat_member hd_members[] = {
	{ "in_flight", "atomic_t[2]", 0, 8, 4, 0, 0, 0, 0, NULL },
	{ "stamp", "unsigned long", 8, 8, 0, 0, 0, 0, 0, NULL },
};
static const struct flat_layout hd_layout = { "struct hd", 16, 2, hd_members, NULL };

/* A small lock with a counter, and a 16-byte struct holding one at +8. */
static const struct flat_member lock_members[] = {
	{ "locked", "_Bool", 0, 1, 0, 0, 0, 0, 0, NULL },
	{ "count", "int", 4, 4, 0, 0, 0, 0, 0, NULL },
};
static const struct flat_layout lock_layout = { "struct lock8", 8, 2, lock_members, NULL };
static const struct flat_member outer_members[] = {
	{ "n", "long", 0, 8, 0, 0, 0, 0, 0, NULL },
	{ "l", "struct lock8", 8, 8, 0, 0, 0, 0, 0, NULL },
	{ "l.locked", "_Bool", 8, 1, 0, 0, 0, 1, 0, NULL },
	{ "l.count", "int", 12, 4, 0, 0, 0, 1, 0, NULL },
};
static const struct flat_layout outer_layout = { "struct outer", 16, 4, outer_members, NULL };

/* A header and its flexible array of lock8s: struct hdr { long nr; struct lock8 tail[]; }. */
static const struct flat_member hdr_members[] = {
	{ "nr", "long", 0, 8, 0, 0, 0, 0, 0, NULL },
	{ "tail", "struct lock8[]", 8, 0, 8, 0, 0, 0, 0, NULL },
};
static const struct flat_layout hdr_layout = { "struct hdr", 8, 2, hdr_members, NULL };

/* What the made-up sources answer, per sample IP. */
static enum attr_reason operand(void *ctx, const struct fields_sample *s, struct attr_answer *a)
{
	switch (s->ip) {
	case 0x10:	/* mov 0x8(%rdi) with rdi a struct path *: f_path.dentry of a file */
		*a = (struct attr_answer){ .type = "struct path", .offset = 8, .origin = "rdi" };
		return ATTR_OK;
	case 0x20:	/* lock incl 0x0(%rdi,%rsi,4): in_flight[rsi] of a struct hd */
		*a = (struct attr_answer){ .type = "struct hd", .offset = 0, .index_scale = 4,
					   .origin = "rdi" };
		return ATTR_OK;
	case 0x21:	/* mov 0x8(%rdi) with rdi a struct hd *: its stamp */
		*a = (struct attr_answer){ .type = "struct hd", .offset = 8, .origin = "rdi" };
		return ATTR_OK;
	case 0x30:	/* incl 0x4(%rdi) with rdi a struct lock8 *: its count */
		*a = (struct attr_answer){ .type = "struct lock8", .offset = 4, .origin = "this" };
		return ATTR_OK;
	case 0x40:	/* mov 0x8(%rdi) with rdi a struct path *: in a block of lock8s */
		*a = (struct attr_answer){ .type = "struct path", .offset = 8, .origin = "p" };
		return ATTR_OK;
	case 0x50:	/* mov (%rdi) with rdi a struct hdr *: its nr */
		*a = (struct attr_answer){ .type = "struct hdr", .offset = 0, .origin = "h" };
		return ATTR_OK;
	}
	return ATTR_NO_VARIABLE;
}

static enum attr_reason variable(void *ctx, const struct fields_sample *s, struct attr_answer *a)
{
	if (s->addr >= 0x5000 && s->addr < 0x5040) {	/* long counters[8] */
		*a = (struct attr_answer){ .type = "long[8]", .offset = (int64_t)(s->addr - 0x5000),
					   .scalar = true, .var = "counters", .size = 64,
					   .elem_size = 8, .origin = "var counters" };
		return ATTR_OK;
	}
	if (s->addr >= 0x6000 && s->addr < 0x6040) {	/* static unsigned char raw[64] */
		*a = (struct attr_answer){ .type = "unsigned char[64]",
					   .offset = (int64_t)(s->addr - 0x6000), .scalar = true,
					   .var = "raw", .size = 64, .elem_size = 1,
					   .origin = "var raw" };
		return ATTR_OK;
	}
	return ATTR_OK;		/* heap: not a question for variables */
}

static int alloc_site(void *ctx, uint32_t pid, uint64_t site, uint64_t size,
		      struct attr_answer *a)
{
	if (site == 0x500) {	/* void *pool = malloc(n): no type, a name */
		*a = (struct attr_answer){ .var = "pool", .origin = "pool = malloc" };
		return 0;
	}
	if (site == 0x600) {	/* struct hdr *h = malloc(sizeof(*h) + n * sizeof(h->tail[0])) */
		*a = (struct attr_answer){ .type = "struct hdr", .size = 8, .var = "h",
					   .origin = "h = malloc" };
		return 0;
	}
	if (site == 0x700) {	/* struct path *v = new path[4] (a destructor): count, then paths */
		*a = (struct attr_answer){ .type = "struct path", .size = 16, .offset = 8,
					   .var = "v", .origin = "v = new" };
		return 0;
	}
	if (site != 0x400)
		return -1;
	*a = (struct attr_answer){ .type = "struct path", .size = 16, .origin = "paths = malloc" };
	return 0;
}

static const struct flat_layout *find(void *ctx, const char *type)
{
	if (flat_layout__same_type(type, "struct file"))
		return &file_layout;
	if (flat_layout__same_type(type, "struct path"))
		return &path_layout;
	if (flat_layout__same_type(type, "struct hd"))
		return &hd_layout;
	if (flat_layout__same_type(type, "struct lock8"))
		return &lock_layout;
	if (flat_layout__same_type(type, "struct outer"))
		return &outer_layout;
	if (flat_layout__same_type(type, "struct hdr"))
		return &hdr_layout;
	return NULL;
}

static const struct attr_sources sources = { operand, variable, alloc_site, find, NULL };

static int resolve(struct attr_engine *e, uint64_t ip, uint64_t addr, struct attr_result *res)
{
	struct fields_sample s = { .ip = ip, .addr = addr, .time = 50 };

	return attr_engine__resolve(e, &sources, &s, res);
}

static void test_resolve(void)
{
	struct attr_engine e;
	struct attr_result res;

	attr_engine__init(&e);
	/* A filp object at 0x1000 (kmem: typed by its cache), a malloc'd array of paths. */
	alloc_index__add(&e.allocs, &(struct alloc_entry){ 0x1000, 256, 10, 0,
		attr_engine__cache_type(&e, "filp", 4), "kmem_cache filp", 0, 0 });
	alloc_index__add(&e.allocs, &(struct alloc_entry){ 0x3000, 64, 10, 0, NULL, "malloc",
							   0x400, 7 });
	alloc_index__add(&e.allocs, &(struct alloc_entry){ 0x2100, 32, 10, 0, NULL, "malloc",
							   0, 7 });

	CHECK(resolve(&e, 0x10, 0x1018, &res) == 0);
	CHECK(res.layout == &file_layout && res.base == 0x1000 && !strcmp(res.path, "f_path.dentry"));
	CHECK(res.kind == ATTR_OPERAND && res.instance_kind == ATTR_ALLOC);

	/*
	 * in_flight[rsi] at 0x200c: in_flight[1] of a hd at 0x2008 or in_flight[0] of one at
	 * 0x200c; nothing says which until an unindexed access (its stamp) places the hd.
	 */
	CHECK(resolve(&e, 0x20, 0x200c, &res) == 1 && res.reason == ATTR_AMBIGUOUS);
	CHECK(resolve(&e, 0x21, 0x2010, &res) == 0 && res.base == 0x2008);
	CHECK(resolve(&e, 0x20, 0x200c, &res) == 0);
	CHECK(res.kind == ATTR_OPERAND && res.base == 0x2008 && !strcmp(res.path, "in_flight[1]"));
	CHECK(resolve(&e, 0x20, 0x2008, &res) == 0);
	CHECK(res.base == 0x2008 && !strcmp(res.path, "in_flight[0]"));
	/* an untyped block of two hds places them; at an address no index reaches, the block */
	CHECK(resolve(&e, 0x20, 0x2114, &res) == 0);
	CHECK(res.base == 0x2110 && !strcmp(res.path, "in_flight[1]"));
	CHECK(resolve(&e, 0x20, 0x2116, &res) == 1 && res.reason == ATTR_UNTYPED_ALLOC &&
	      res.base == 0x2100);

	/* counters[3] */
	CHECK(resolve(&e, 0x99, 0x5018, &res) == 0);
	CHECK(res.kind == ATTR_VARIABLE && !strcmp(res.layout->name, "var counters") &&
	      !strcmp(res.path, "counters[3]"));

	/* the third struct path of the malloc'd array */
	CHECK(resolve(&e, 0x99, 0x3028, &res) == 0);
	CHECK(res.kind == ATTR_ALLOC && res.layout == &path_layout && res.base == 0x3020 &&
	      !strcmp(res.path, "dentry"));

	/* new path[4]: the elements after the count, which is no element's */
	alloc_index__add(&e.allocs, &(struct alloc_entry){ 0x7000, 72, 10, 0, NULL, "malloc",
							   0x700, 7 });
	CHECK(resolve(&e, 0x99, 0x7004, &res) == 1 && res.reason == ATTR_UNTYPED_ALLOC);
	CHECK(resolve(&e, 0x99, 0x7020, &res) == 0);
	CHECK(res.layout == &path_layout && res.base == 0x7018 && !strcmp(res.path, "dentry") &&
	      !strcmp(res.element, "v[1]"));

	/* nothing covers it */
	CHECK(resolve(&e, 0x99, 0x9000, &res) == 1 && res.reason != ATTR_OK);
	CHECK(resolve(&e, 0x99, 0, &res) == 1 && res.reason == ATTR_NO_ADDR);
	attr_engine__exit(&e);
}

static bool known(void *ctx, const char *type)
{
	return find(ctx, type) != NULL;
}

static void test_hints_caches_warnings(void)
{
	struct attr_engine e;
	struct attr_result res;
	const char *user[] = { "filp=struct my_file", "mine=struct mine" };

	attr_engine__init(&e);
	CHECK(attr_engine__add_hint(&e, "struct path") == -EINVAL);
	CHECK(attr_engine__add_hint(&e, "struct path@0xzz") == -EINVAL);
	CHECK(attr_engine__add_hint(&e, "struct path@0x7000") == 0);
	CHECK(attr_engine__add_hint(&e, "struct nosuch@0x1") == 0);
	CHECK(attr_engine__unknown_hint(&e, known, NULL) == 1);
	CHECK(resolve(&e, 0x99, 0x7008, &res) == 0 && res.kind == ATTR_HINT &&
	      !strcmp(res.path, "dentry"));

	CHECK(!strcmp(attr_engine__cache_type(&e, "dentry", 6), "struct dentry"));
	CHECK(!attr_engine__cache_type(&e, "kmalloc-64", 10));
	attr_engine__set_cache_types(&e, user, 2);
	CHECK(!strcmp(attr_engine__cache_type(&e, "filp", 4), "struct my_file"));
	CHECK(!strcmp(attr_engine__cache_type(&e, "mine", 4), "struct mine"));

	/* Warnings are data: once per key, key 0 every time, oldest first. */
	attr_engine__warn(&e, 5, "[%s]: no symbols", "mod");
	attr_engine__warn(&e, 5, "[%s]: no symbols", "mod");
	attr_engine__warn(&e, 0, "tracing data unreadable");
	attr_engine__warn(&e, 0, "tracing data unreadable");
	CHECK(!strcmp(attr_engine__next_warning(&e), "[mod]: no symbols"));
	CHECK(!strcmp(attr_engine__next_warning(&e), "tracing data unreadable"));
	CHECK(!strcmp(attr_engine__next_warning(&e), "tracing data unreadable"));
	CHECK(!attr_engine__next_warning(&e));
	attr_engine__warn(&e, 5, "[%s]: no symbols", "mod");
	CHECK(!attr_engine__next_warning(&e));
	attr_engine__exit(&e);
}

static int later(struct attr_engine *e, uint64_t ip, uint64_t addr, struct attr_result *res,
		 struct attr_pending *p)
{
	struct fields_sample s = { .ip = ip, .addr = addr, .time = 50 };

	return attr_engine__resolve_later(e, &sources, &s, res, p);
}

/*
 * Heap blocks typed by their accesses: a void * block whose one typed site says struct lock8
 * types every sample in it, those before the typed access too once settled, and names the
 * elements pool[N]; where sites disagree the evidence decides and a warning says so.
 */
static void test_typed_by_accesses(void)
{
	struct attr_engine e;
	struct attr_result res;
	struct attr_pending first, p;
	const char *w;

	attr_engine__init(&e);
	alloc_index__add(&e.allocs, &(struct alloc_entry){ 0x8000, 64, 10, 0, NULL, "malloc",
							   0x500, 7 });
	alloc_index__add(&e.allocs, &(struct alloc_entry){ 0x9000, 64, 10, 0, NULL, "malloc",
							   0x500, 7 });
	/* an untyped site first: nothing says the type yet */
	CHECK(later(&e, 0x31, 0x8010, &res, &first) == 1 && res.reason == ATTR_UNTYPED_ALLOC);
	CHECK(first.block != 0 && first.operand.kind == ATTR_NONE);
	/* the typed site: element 1's count, named */
	CHECK(later(&e, 0x30, 0x800c, &res, &p) == 0 && res.layout == &lock_layout);
	CHECK(!strcmp(res.path, "count") && !strcmp(res.element, "pool[1]") && p.block);
	/* later untyped samples are typed at once */
	CHECK(resolve(&e, 0x31, 0x8038, &res) == 0 && res.kind == ATTR_ALLOC &&
	      res.base == 0x8038 && !strcmp(res.path, "locked") && !strcmp(res.element, "pool[7]"));
	/* block 2: three accesses say struct lock8, one struct path */
	for (int i = 0; i < 3; i++)
		CHECK(later(&e, 0x30, 0x9004 + 8 * (uint64_t)i, &res, &p) == 0);
	CHECK(later(&e, 0x40, 0x9018, &res, &p) == 0 && res.layout == &path_layout);
	attr_engine__finish(&e);
	CHECK(attr_engine__settle(&e, &first, &res) == 0 && res.layout == &lock_layout &&
	      res.kind == ATTR_ALLOC && !strcmp(res.path, "locked") &&
	      !strcmp(res.element, "pool[2]"));
	/* settled, the struct path access keeps its own operand's type */
	CHECK(attr_engine__settle(&e, &p, &res) == 0 && res.layout == &path_layout &&
	      !res.element[0]);
	w = attr_engine__next_warning(&e);
	CHECK(w && strstr(w, "heap block pool") && strstr(w, "struct lock8") &&
	      strstr(w, "struct path") && strstr(w, "taken as struct lock8, the most accesses"));
	CHECK(!attr_engine__next_warning(&e));
	attr_engine__exit(&e);
}

/*
 * A struct with a flexible array member, allocated with room for 4 elements: the samples past
 * its header are the array's elements (h->tail[N], the array placed after the header), typed
 * by the allocating call or, in a void * block, by the header's accesses, which the
 * elements' own support.
 */
static void test_flexible_tail(void)
{
	struct attr_engine e;
	struct attr_result res;
	struct attr_pending p;
	char elem[32];

	CHECK(flat_layout__flex(&hdr_layout, elem, sizeof(elem)) == 1 &&
	      !strcmp(elem, "struct lock8"));
	CHECK(flat_layout__flex(&outer_layout, elem, sizeof(elem)) == -1);
	attr_engine__init(&e);
	alloc_index__add(&e.allocs, &(struct alloc_entry){ 0xa000, 40, 10, 0, NULL, "malloc",
							   0x600, 7 });
	alloc_index__add(&e.allocs, &(struct alloc_entry){ 0xb000, 40, 10, 0, NULL, "malloc",
							   0x500, 7 });
	CHECK(resolve(&e, 0x31, 0xa000, &res) == 0 && res.layout == &hdr_layout &&
	      !strcmp(res.path, "nr") && !res.element[0]);
	CHECK(resolve(&e, 0x31, 0xa014, &res) == 0 && res.layout == &lock_layout &&
	      res.base == 0xa010 && !strcmp(res.path, "count") &&
	      !strcmp(res.element, "h->tail[1]") && res.array == 0xa008);
	/* the void * block: one access says struct hdr, three the elements' struct lock8 */
	CHECK(later(&e, 0x50, 0xb000, &res, &p) == 0 && res.layout == &hdr_layout);
	for (int i = 0; i < 3; i++)
		CHECK(later(&e, 0x30, 0xb00c + 8 * (uint64_t)i, &res, &p) == 0);
	attr_engine__finish(&e);
	CHECK(attr_engine__settle(&e, &p, &res) == 0 && res.layout == &lock_layout &&
	      !strcmp(res.element, "pool->tail[2]") && res.array == 0xb008);
	CHECK(!attr_engine__next_warning(&e));
	attr_engine__exit(&e);
}

/*
 * A global byte array carved into objects: bytes until an access says the type, then its
 * elements named raw[N], the samples without a typed operand too (as variable evidence).
 */
static void test_raw_variable(void)
{
	struct attr_engine e;
	struct attr_result res;

	attr_engine__init(&e);
	CHECK(resolve(&e, 0x31, 0x6008, &res) == 0 && res.kind == ATTR_VARIABLE &&
	      !strcmp(res.path, "raw[8]"));
	CHECK(resolve(&e, 0x30, 0x600c, &res) == 0 && res.layout == &lock_layout &&
	      res.base == 0x6008 && !strcmp(res.element, "raw[1]"));
	CHECK(resolve(&e, 0x31, 0x6010, &res) == 0 && res.layout == &lock_layout &&
	      res.kind == ATTR_VARIABLE && !strcmp(res.path, "locked") &&
	      !strcmp(res.element, "raw[2]"));
	attr_engine__exit(&e);
}

/* The choice among votes: tiling first, a member's struct counting for its container. */
static void test_votes(void)
{
	struct attr_types types = { find, NULL };
	struct attr_vote v[2] = {
		{ .type = "struct path", .size = 16, .phase = 0, .accesses = 5, .nr_sites = 2 },
		{ .type = "struct lock8", .size = 8, .phase = 0, .accesses = 2, .nr_sites = 1 },
	};
	struct attr_vote nested[2] = {
		{ .type = "struct outer", .size = 16, .phase = 0, .accesses = 1, .nr_sites = 1 },
		{ .type = "struct lock8", .size = 8, .phase = 8, .accesses = 5, .nr_sites = 1 },
	};
	struct attr_vote flex[2] = {
		{ .type = "struct lock8", .size = 8, .phase = 0, .accesses = 5, .nr_sites = 1 },
		{ .type = "struct hdr", .size = 8, .phase = 0, .accesses = 1, .nr_sites = 1 },
	};

	CHECK(attr_votes__choose(v, 0, 64, &types) == -1);
	CHECK(attr_votes__choose(v, 2, 64, &types) == 0);	/* both tile: most accesses */
	CHECK(attr_votes__choose(v, 2, 24, &types) == 1);	/* 16 does not tile 24 bytes */
	CHECK(attr_votes__choose(nested, 2, 64, &types) == 0);	/* lock8 is outer's l */
	nested[1].phase = 0;	/* at +0 no outer holds a lock8: the accesses decide */
	CHECK(attr_votes__choose(nested, 2, 64, &types) == 1);
	/* the elements of its flexible array member count for the header's struct */
	CHECK(attr_votes__choose(flex, 2, 40, &types) == 1);
}

/*
 * An indexed access that comes before the one that places its object waits for it: settled
 * against it, or still ambiguous where no access placed one.
 */
static void test_indexed_later(void)
{
	struct attr_engine e;
	struct attr_result res;
	struct attr_pending p, q;

	attr_engine__init(&e);
	CHECK(later(&e, 0x20, 0x4004, &res, &p) == 1 && res.reason == ATTR_AMBIGUOUS);
	CHECK(attr_pending__waits(&p));
	CHECK(later(&e, 0x20, 0x4804, &res, &q) == 1 && attr_pending__waits(&q));
	CHECK(later(&e, 0x21, 0x4008, &res, &(struct attr_pending){ 0 }) == 0);
	attr_engine__finish(&e);
	CHECK(attr_engine__settle(&e, &p, &res) == 0);
	CHECK(res.base == 0x4000 && !strcmp(res.path, "in_flight[1]"));
	CHECK(attr_engine__settle(&e, &q, &res) == 1 && res.reason == ATTR_AMBIGUOUS);
	attr_engine__exit(&e);
}

int main(void)
{
	test_resolve();
	test_indexed_later();
	test_typed_by_accesses();
	test_votes();
	test_flexible_tail();
	test_raw_variable();
	test_hints_caches_warnings();
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
