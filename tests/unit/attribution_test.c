// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * attribution__resolve() and the allocation index, on hand-written layouts (struct file's
 * first members as Linux 6.1 lays them out on x86-64, and a struct path inside it).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/attribution.h"
#include "util/u64map.h"
#include "tests/unit/check.h"

static const struct flat_member file_members[] = {
	{ "f_u", "union {...}", 0, 16, 0, 0, 0, 0, 0, NULL },
	{ "f_u.f_llist", "struct llist_node", 0, 8, 0, 0, 0, 1, 0, NULL },
	{ "f_path", "struct path", 16, 16, 0, 0, 0, 0, 0, NULL },
	{ "f_path.mnt", "struct vfsmount *", 16, 8, 0, 0, 0, 1, 0, NULL },
	{ "f_path.dentry", "struct dentry *", 24, 8, 0, 0, 0, 1, 0, NULL },
	{ "f_inode", "struct inode *", 32, 8, 0, 0, 0, 0, 0, NULL },
	{ "f_op", "const struct file_operations *", 40, 8, 0, 0, 0, 0, 0, NULL },
	{ "f_lock", "spinlock_t", 48, 4, 0, 0, 0, 0, 0, NULL },
	{ "f_count", "atomic_long_t", 56, 8, 0, 0, 0, 0, 0, NULL },
	{ "f_flags", "unsigned int", 64, 4, 0, 0, 0, 0, 0, NULL },
	{ "f_mode", "fmode_t", 68, 4, 0, 0, 0, 0, 0, NULL },
	{ "f_pos_lock", "struct mutex", 72, 32, 0, 0, 0, 0, 0, NULL },
	{ "f_pos_lock.owner", "atomic_long_t", 72, 8, 0, 0, 0, 1, 0, NULL },
	{ "f_pos", "loff_t", 104, 8, 0, 0, 0, 0, 0, NULL },
	{ "f_ra", "unsigned char[4]", 116, 4, 1, 0, 0, 0, 0, NULL },
};
static const struct flat_layout file_layout = { "struct file", 128, 15, file_members, NULL };

static const struct flat_member path_members[] = {
	{ "mnt", "struct vfsmount *", 0, 8, 0, 0, 0, 0, 0, NULL },
	{ "dentry", "struct dentry *", 8, 8, 0, 0, 0, 0, 0, NULL },
};
static const struct flat_layout path_layout = { "struct path", 16, 2, path_members, NULL };

static const struct flat_member hd_members[] = {
	{ "in_flight", "atomic_t[2]", 0, 8, 4, 0, 0, 0, 0, NULL },
	{ "flags", "unsigned int", 8, 4, 0, 0, 3, 0, 0, NULL },
	{ "policy", "unsigned int", 8, 4, 0, 3, 1, 0, 0, NULL },
};
static const struct flat_layout hd_layout = { "struct hd", 16, 3, hd_members, NULL };

static const struct flat_layout *find(void *ctx, const char *type)
{
	(void)ctx;
	if (flat_layout__same_type(type, "struct file"))
		return &file_layout;
	if (flat_layout__same_type(type, "struct path"))
		return &path_layout;
	if (flat_layout__same_type(type, "struct hd"))
		return &hd_layout;
	return NULL;
}

static const struct attr_types types = { find, NULL };

static void test_flat_layout(void)
{
	char buf[64];

	CHECK(flat_layout__member_at(&file_layout, 0) == 1);	/* deepest: f_u.f_llist */
	CHECK(flat_layout__member_at(&file_layout, 8) == 0);	/* union, past its member */
	CHECK(flat_layout__member_at(&file_layout, 52) == -1);	/* hole after f_lock */
	CHECK(flat_layout__name_at(&file_layout, 52, buf, sizeof(buf)) == -1);
	CHECK(!strcmp(buf, "<hole+52>"));
	flat_layout__name_at(&file_layout, 126, buf, sizeof(buf));
	CHECK(!strcmp(buf, "<padding+6>"));
	flat_layout__name_at(&file_layout, 118, buf, sizeof(buf));
	CHECK(!strcmp(buf, "f_ra[2]"));
	flat_layout__name_at(&file_layout, 130, buf, sizeof(buf));
	CHECK(!strncmp(buf, "<beyond", 7));
	flat_layout__name_at(&hd_layout, 4, buf, sizeof(buf));
	CHECK(!strcmp(buf, "in_flight[1]"));
	flat_layout__name_at(&hd_layout, 8, buf, sizeof(buf));
	CHECK(!strcmp(buf, "flags"));	/* bitfields sharing a unit: the first */
	CHECK(flat_layout__find_type_at(&file_layout, 16, "struct path") == 2);
	CHECK(flat_layout__find_type_at(&file_layout, 40,
					 "const struct file_operations  *") == 6);	/* pahole's */
	CHECK(flat_layout__find_type_at(&file_layout, 40, "struct file_operations *") == 6);
	CHECK(flat_layout__find_type_at(&file_layout, 40, "struct inode *") == -1);
	CHECK(flat_layout__find_type_at(&file_layout, 40, "const struct file_operations *") == 6);
	CHECK(flat_layout__find_type_at(&file_layout, 0, "struct  file") == FLAT_SELF);
	CHECK(flat_layout__same_type("volatile int", "int"));
	CHECK(!flat_layout__same_type("int", "int *"));
	/* every qualifier, wherever it stands, but only as a whole word */
	CHECK(flat_layout__same_type("volatile int [8]", "int[8]"));
	CHECK(flat_layout__same_type("_Atomic long[2]", "long[2]"));
	CHECK(flat_layout__same_type("int * restrict [2]", "int *[2]"));
	CHECK(flat_layout__same_type("const volatile int", "volatile const int"));
	CHECK(!flat_layout__same_type("constant_t", "ant_t"));
	CHECK(!flat_layout__same_type("myconst int", "my int"));
}

static void test_resolve(void)
{
	struct attr_result r;
	struct attr_fact facts[4];
	struct attr_query q = { 0 };
	const uint64_t file = 0xffff888012345600ULL;

	/* Operand alone: f_count. */
	facts[0] = (struct attr_fact){ ATTR_OPERAND, "struct file", file, 0, "rdi (f)" };
	q.addr = file + 56;
	q.facts = facts;
	q.nr_facts = 1;
	CHECK(attribution__resolve(&types, &q, &r) == 0);
	CHECK(r.kind == ATTR_OPERAND && r.layout == &file_layout && r.base == file);
	CHECK(!strcmp(r.path, "f_count") && r.member == 8 && r.offset == 56);

	/* Operand beats a hint naming another type; the hint cannot contain it. */
	facts[1] = (struct attr_fact){ ATTR_HINT, "struct path", file + 56, 0, "--type" };
	q.nr_facts = 2;
	CHECK(attribution__resolve(&types, &q, &r) == 0);
	CHECK(r.kind == ATTR_OPERAND && r.layout == &file_layout && r.instance_kind == ATTR_OPERAND);

	/* An operand typed struct path inside a filp allocation becomes struct file's f_path. */
	facts[0] = (struct attr_fact){ ATTR_OPERAND, "struct path", file + 16, 0, "rax (path)" };
	facts[1] = (struct attr_fact){ ATTR_ALLOC, "struct file", file, 256, "kmem_cache filp" };
	q.addr = file + 24;
	CHECK(attribution__resolve(&types, &q, &r) == 0);
	CHECK(r.kind == ATTR_OPERAND && r.instance_kind == ATTR_ALLOC);
	CHECK(r.layout == &file_layout && r.base == file && !strcmp(r.path, "f_path.dentry"));
	CHECK(!strcmp(r.origin, "rax (path)"));

	/* ... but not when the offsets disagree. */
	facts[1].base = file + 8;
	CHECK(attribution__resolve(&types, &q, &r) == 0);
	CHECK(r.layout == &path_layout && !strcmp(r.path, "dentry") && r.base == file + 16);

	/* Operand type without a layout: the allocation decides. */
	facts[0] = (struct attr_fact){ ATTR_OPERAND, "struct nosuch", file, 0, "rdi" };
	facts[1] = (struct attr_fact){ ATTR_ALLOC, "struct file", file, 256, "kmem_cache filp" };
	q.addr = file + 72;
	CHECK(attribution__resolve(&types, &q, &r) == 0);
	CHECK(r.kind == ATTR_ALLOC && !strcmp(r.path, "f_pos_lock.owner"));

	/* Nothing typed: the untyped allocation gives the instance; the reason says so. */
	facts[0] = (struct attr_fact){ ATTR_ALLOC, NULL, 0x1000, 100, "malloc" };
	q.nr_facts = 1;
	q.addr = 0x1010;
	CHECK(attribution__resolve(&types, &q, &r) == 1);
	CHECK(r.kind == ATTR_NONE && r.reason == ATTR_UNTYPED_ALLOC && r.base == 0x1000);
	/* ... but an operand that named a type without a layout says why */
	facts[1] = (struct attr_fact){ ATTR_OPERAND, "struct nosuch", 0x1000, 0, "rdi" };
	q.nr_facts = 2;
	CHECK(attribution__resolve(&types, &q, &r) == 1);
	CHECK(r.kind == ATTR_NONE && r.reason == ATTR_NO_LAYOUT && r.base == 0x1000);
	q.nr_facts = 1;

	/* No fact at all: the strongest source's reason. */
	q.nr_facts = 0;
	q.why_not[ATTR_OPERAND] = ATTR_NO_VARIABLE;
	q.why_not[ATTR_VARIABLE] = ATTR_NO_OBJECT;
	CHECK(attribution__resolve(&types, &q, &r) == 1 && r.reason == ATTR_NO_VARIABLE);
	q.why_not[ATTR_OPERAND] = ATTR_OK;
	CHECK(attribution__resolve(&types, &q, &r) == 1 && r.reason == ATTR_NO_OBJECT);
	memset(q.why_not, 0, sizeof(q.why_not));
	CHECK(attribution__resolve(&types, &q, &r) == 1 && r.reason == ATTR_NO_OBJECT);

	/* A variable fact with no layout, nothing stronger asked: no_layout. */
	facts[0] = (struct attr_fact){ ATTR_VARIABLE, "struct gone", 0x2000, 0, "var g" };
	q.nr_facts = 1;
	q.why_not[ATTR_ALLOC] = ATTR_NO_OBJECT;
	CHECK(attribution__resolve(&types, &q, &r) == 1 && r.reason == ATTR_NO_LAYOUT);
	/* An operand fact pointing elsewhere: outside. */
	facts[0] = (struct attr_fact){ ATTR_OPERAND, "struct file", 0x2000, 0, "rdi" };
	q.addr = 0x3000;
	CHECK(attribution__resolve(&types, &q, &r) == 1 && r.reason == ATTR_OUTSIDE);
	CHECK(!strcmp(attr_reason__text(ATTR_OUTSIDE),
		      "address outside the object the evidence names"));
	CHECK(!strcmp(attr_reason__id(ATTR_NO_DEBUGINFO), "no_debuginfo"));
	CHECK(!strcmp(attr_evidence__name(ATTR_VARIABLE), "variable"));
}

static void test_stats(void)
{
	struct attr_stats st = { 0 };
	struct attr_result ok = { .kind = ATTR_OPERAND }, bad = { .reason = ATTR_NO_DEBUGINFO };

	attr_stats__add(&st, &ok, 9);
	attr_stats__add(&st, &bad, 1);
	CHECK(st.samples == 2 && st.weight == 10);
	CHECK(st.by_kind_weight[ATTR_OPERAND] == 9 && st.unresolved_weight[ATTR_NO_DEBUGINFO] == 1);
	CHECK(attr_stats__resolved_share(&st) > 0.899 && attr_stats__resolved_share(&st) < 0.901);
}

static void test_alloc_index(void)
{
	struct alloc_index ix;
	const struct alloc_entry *e;
	struct attr_fact f;

	alloc_index__init(&ix);
	alloc_index__add(&ix, &(struct alloc_entry){ 0x1000, 256, 10, 0, "struct file", "filp" });
	alloc_index__add(&ix, &(struct alloc_entry){ 0x1100, 64, 11, 0, NULL, "malloc" });
	CHECK(alloc_index__free(&ix, 0x1000, 20) == 0);
	CHECK(alloc_index__free(&ix, 0x9999, 20) == -1);
	/* The same address reused for another type. */
	alloc_index__add(&ix, &(struct alloc_entry){ 0x1000, 32, 30, 0, "struct path", "x" });
	alloc_index__prepare(&ix);

	e = alloc_index__find(&ix, 0x1010, 15);
	CHECK(e && e->type && !strcmp(e->type, "struct file"));
	CHECK(!alloc_index__find(&ix, 0x1010, 25));	/* freed at 20, not yet reused */
	e = alloc_index__find(&ix, 0x1010, 35);
	CHECK(e && !strcmp(e->type, "struct path"));
	CHECK(!alloc_index__find(&ix, 0x1040, 35));	/* past the 32-byte object */
	e = alloc_index__find(&ix, 0x1010, 0);		/* any time: the newest */
	CHECK(e && !strcmp(e->type, "struct path"));
	e = alloc_index__find(&ix, 0x113f, 12);
	CHECK(e && !e->type);
	CHECK(!alloc_index__find(&ix, 0x1140, 12));
	CHECK(!alloc_index__find(&ix, 0xfff, 12));
	alloc_entry__fact(e, &f);
	CHECK(f.kind == ATTR_ALLOC && f.base == 0x1100 && f.size == 64);
	alloc_index__exit(&ix);
}

/* Frees match by base through the live chains, before and after prepare. */
static void test_alloc_free_chains(void)
{
	struct alloc_index ix;
	const struct alloc_entry *e;

	alloc_index__init(&ix);
	/* Two live at one base (a lost free): a free at time 15 closes the one made by then. */
	alloc_index__add(&ix, &(struct alloc_entry){ 0x2000, 64, 10, 0, "a", "x" });
	alloc_index__add(&ix, &(struct alloc_entry){ 0x2000, 64, 20, 0, "b", "x" });
	CHECK(alloc_index__free(&ix, 0x2000, 15) == 0);
	CHECK(alloc_index__free(&ix, 0x2000, 15) == -1);	/* "b" is not allocated yet */
	CHECK(alloc_index__free(&ix, 0x2000, 25) == 0);
	CHECK(alloc_index__free(&ix, 0x2000, 30) == -1);
	/* Thousands of live blocks freed oldest first: each finds its own. */
	for (uint64_t i = 0; i < 20000; i++)
		alloc_index__add(&ix, &(struct alloc_entry){ 0x100000 + i * 64, 64, 100 + i, 0,
							     NULL, "malloc" });
	for (uint64_t i = 0; i < 20000; i += 2)
		CHECK(alloc_index__free(&ix, 0x100000 + i * 64, 50000 + i) == 0);
	alloc_index__prepare(&ix);
	e = alloc_index__find(&ix, 0x2010, 12);
	CHECK(e && !strcmp(e->type, "a"));
	e = alloc_index__find(&ix, 0x2010, 22);
	CHECK(e && !strcmp(e->type, "b"));
	CHECK(!alloc_index__find(&ix, 0x2010, 26));
	CHECK(!alloc_index__find(&ix, 0x100000 + 4 * 64 + 8, 60000));	/* freed */
	e = alloc_index__find(&ix, 0x100000 + 5 * 64 + 8, 60000);	/* still live */
	CHECK(e && e->base == 0x100000 + 5 * 64);
	/* After prepare, frees still find their entries. */
	CHECK(alloc_index__free(&ix, 0x100000 + 5 * 64, 70000) == 0);
	CHECK(!alloc_index__find(&ix, 0x100000 + 5 * 64 + 8, 70001));
	e = alloc_index__find(&ix, 0x100000 + 5 * 64 + 8, 69999);
	CHECK(e && e->base == 0x100000 + 5 * 64);
	alloc_index__exit(&ix);
}

static void test_u64map(void)
{
	struct u64map m;
	uint64_t v;

	u64map__init(&m);
	for (uint64_t i = 0; i < 5000; i++)
		u64map__set(&m, i * 64, i);
	CHECK(m.nr == 5000);
	for (uint64_t i = 0; i < 5000; i += 2)
		u64map__del(&m, i * 64);
	CHECK(m.nr == 2500);
	for (uint64_t i = 0; i < 5000; i++)
		CHECK(u64map__get(&m, i * 64, &v) == (int)(i & 1) && (!(i & 1) || v == i));
	u64map__exit(&m);
}

/*
 * A session hands out allocations, frees and the samples they explain in time order: after
 * prepare, adds, frees and finds interleave, and each find must see every allocation made
 * before it (a model: a plain scan for the latest live allocation covering the address).
 */
static void test_alloc_interleaved(void)
{
	enum { N = 5000 };
	static struct alloc_entry model[N];
	struct alloc_index ix;
	unsigned int seed = 7;
	size_t n = 0;

	alloc_index__init(&ix);
	alloc_index__prepare(&ix);	/* the first sample comes before any allocation */
	for (uint64_t t = 1; n < N; t++) {
		const struct alloc_entry *e, *want = NULL;
		uint64_t addr;

		seed = seed * 1103515245 + 12345;
		if ((seed >> 16) % 4 == 0 && n) {
			/* free a random live one */
			struct alloc_entry *m = &model[(seed >> 8) % n];

			if (m->free_time == UINT64_MAX) {
				CHECK(alloc_index__free(&ix, m->base, t) == 0);
				m->free_time = t;
			}
			continue;
		}
		/* bases reused at random, in no order: runs get merged in any pattern */
		model[n] = (struct alloc_entry){ .base = 0x10000 + ((seed >> 4) % 512) * 64,
						 .size = 32 + (seed % 3) * 16, .alloc_time = t,
						 .free_time = UINT64_MAX, .origin = "malloc" };
		for (size_t i = 0; i < n; i++)	/* a base holds one live allocation */
			if (model[i].base == model[n].base && model[i].free_time == UINT64_MAX) {
				CHECK(alloc_index__free(&ix, model[i].base, t) == 0);
				model[i].free_time = t;
			}
		alloc_index__add(&ix, &model[n]);
		n++;
		addr = 0x10000 + ((seed >> 12) % (512 * 64));
		for (size_t i = 0; i < n; i++)
			if (model[i].base <= addr && addr < model[i].base + model[i].size &&
			    model[i].free_time > t && (!want || model[i].alloc_time > want->alloc_time))
				want = &model[i];
		e = alloc_index__find(&ix, addr, t);
		CHECK(!want == !e && (!e || (e->base == want->base && e->alloc_time == want->alloc_time)));
	}
	alloc_index__exit(&ix);
}

int main(void)
{
	test_flat_layout();
	test_resolve();
	test_stats();
	test_alloc_index();
	test_alloc_free_chains();
	test_alloc_interleaved();
	test_u64map();
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
