// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Field attribution's deciding part: evidence turned into facts, facts into an answer.
 */
#include <config.h>

#include "analyzer/attr_engine.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/*
 * A heap block whose allocation says nothing of its type (malloc into a void *, a byte
 * buffer for placement new), or a global byte array that code carves into objects
 * (`alignas(64) static char pool[4096]`): the types its accesses' operands name, one vote
 * per type and element grid.
 * @fallback:	the type the allocation gave it (a byte array), NULL for none
 * @chosen:	the vote believed (-1: none yet), recomputed when @dirty
 */
struct attr_block {
	enum attr_evidence kind;	/* ATTR_ALLOC, or ATTR_VARIABLE: a byte array */
	uint64_t base, size;
	const char *var, *origin, *fallback;
	struct attr_vote *votes;
	size_t nr_votes, cap_votes;
	int chosen;
	bool dirty;
	const char *typed_origin;
};

/*
 * A struct whose last member is a flexible array (struct cstats { long nr; struct cstat
 * tail[]; }), allocated with room for its elements (malloc(sizeof(*h) + n * sizeof(h->tail[0]))):
 * what a sample in the tail is.
 * @type:	the struct (borrowed)
 * @elem:	the elements' type (owned by the engine); NULL: @type has no flexible array
 * @member:	the array's member path ("tail", borrowed from the layout)
 * @offset:	where the array starts (sizeof the struct or less: it may take its padding)
 * @scalar:	the elements are no struct (long tail[]): the tail is one indexed member
 */
struct attr_flex {
	const char *type, *elem, *member;
	uint64_t offset, elem_size;
	bool scalar;
};

/* The allocation a sample fell in, as attribution found it (for naming its element). */
struct alloc_view {
	struct attr_block *block;
	uint32_t block_id;		/* 1 + index into blocks */
	const char *var;		/* the variable holding it, NULL when unknown */
	const char *member;		/* elements of its flexible array member: its name */
	const char *elem_type;		/* the type of its elements, NULL when unknown */
	uint64_t grid, elem_size;	/* the first element's address, the element size */
	uint64_t end;			/* the block's end */
};

/* An object of @type at @base, as an unindexed operand placed it; @next: 1 + the next one. */
struct attr_start {
	uint64_t base;
	const char *type;
	size_t next;
};

/* A one-member layout for a scalar variable or heap array. */
struct attr_scalar {
	char *name;
	struct flat_member member;
	struct flat_layout layout;
};

/* kmem caches whose objects are of a known type. */
static const char *const builtin_caches[][2] = {
	{ "filp", "struct file" },
	{ "buffer_head", "struct buffer_head" },
	{ "mbcache", "struct mb_cache_entry" },
	{ "bdev_cache", "struct bdev_inode" },
	{ "inode_cache", "struct inode" },
	{ "dentry", "struct dentry" },
	{ "task_struct", "struct task_struct" },
	{ "mm_struct", "struct mm_struct" },
	{ "files_cache", "struct files_struct" },
	{ "vm_area_struct", "struct vm_area_struct" },
	{ "skbuff_head_cache", "struct sk_buff" },
	{ "sock_inode_cache", "struct socket_alloc" },
	{ "ext4_inode_cache", "struct ext4_inode_info" },
	{ "pid", "struct pid" },
	{ "cred_jar", "struct cred" },
};

void attr_engine__init(struct attr_engine *e)
{
	memset(e, 0, sizeof(*e));
	alloc_index__init(&e->allocs);
	u64map__init(&e->warned);
	u64map__init(&e->block_of);
	u64map__init(&e->var_block);
	u64map__init(&e->start_of);
}

void attr_engine__exit(struct attr_engine *e)
{
	for (size_t i = 0; i < e->nr_scalars; i++) {
		free(e->scalars[i]->name);
		free(e->scalars[i]);
	}
	free(e->scalars);
	for (size_t i = 0; i < e->nr_owned; i++)
		free(e->owned[i]);
	free(e->owned);
	for (size_t i = 0; i < e->nr_warnings; i++)
		free(e->warnings[i]);
	free(e->warnings);
	for (size_t i = 0; i < e->nr_blocks; i++) {
		for (size_t k = 0; k < e->blocks[i]->nr_votes; k++)
			free(e->blocks[i]->votes[k].sites);
		free(e->blocks[i]->votes);
		free(e->blocks[i]);
	}
	free(e->blocks);
	free(e->flex);
	u64map__exit(&e->block_of);
	u64map__exit(&e->var_block);
	u64map__exit(&e->start_of);
	free(e->starts);
	free(e->hints);
	free(e->rmw);
	u64map__exit(&e->warned);
	alloc_index__exit(&e->allocs);
	memset(e, 0, sizeof(*e));
}

const char *attr_engine__own(struct attr_engine *e, char *s)
{
	e->owned = xgrow(e->owned, &e->cap_owned, e->nr_owned + 1, sizeof(*e->owned));
	e->owned[e->nr_owned++] = s;
	return s;
}

const char *attr_hint__check(const char *s)
{
	const char *at = strrchr(s, '@');
	char *end;

	if (!at || at == s || !at[1])
		return "is not 'struct T'@ADDR";
	errno = 0;
	strtoull(at + 1, &end, 0);
	if (*end || errno)
		return "has no valid address after '@'";
	return NULL;
}

int attr_engine__add_hint(struct attr_engine *e, const char *s)
{
	const char *at = strrchr(s, '@');

	if (attr_hint__check(s))
		return -EINVAL;
	e->hints = xrealloc(e->hints, (e->nr_hints + 1) * sizeof(*e->hints));
	e->hints[e->nr_hints++] = (struct attr_fact){
		ATTR_HINT, attr_engine__own(e, xstrndup(s, (size_t)(at - s))),
		strtoull(at + 1, NULL, 0), 0, "--type"
	};
	return 0;
}

int attr_engine__unknown_hint(struct attr_engine *e, bool (*known)(void *ctx, const char *type),
			      void *ctx)
{
	for (size_t i = 0; i < e->nr_hints; i++)
		if (!known(ctx, e->hints[i].type))
			return (int)i;
	return -1;
}

void attr_engine__set_cache_types(struct attr_engine *e, const char *const *v, size_t n)
{
	e->cache_types = v;
	e->nr_cache_types = n;
}

const char *attr_engine__cache_type(const struct attr_engine *e, const char *cache, size_t len)
{
	for (size_t i = e->nr_cache_types; i-- > 0;) {
		const char *s = e->cache_types[i], *eq = strchr(s, '=');

		if (eq && (size_t)(eq - s) == len && !strncmp(s, cache, len))
			return eq + 1;
	}
	for (size_t i = 0; i < sizeof(builtin_caches) / sizeof(builtin_caches[0]); i++)
		if (strlen(builtin_caches[i][0]) == len && !strncmp(builtin_caches[i][0], cache, len))
			return builtin_caches[i][1];
	return NULL;
}

void attr_engine__add_rmw(struct attr_engine *e, uint64_t ip, uint64_t total, uint64_t redundant)
{
	e->rmw = xgrow(e->rmw, &e->cap_rmw, e->nr_rmw + 1, sizeof(*e->rmw));
	e->rmw[e->nr_rmw++] = (struct fields_rmw){ ip, total, redundant };
}

void attr_engine__warn(struct attr_engine *e, uint64_t key, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (key) {
		if (u64map__get(&e->warned, key, NULL))
			return;
		u64map__set(&e->warned, key, 1);
	}
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return;
	e->warnings = xgrow(e->warnings, &e->cap_warnings, e->nr_warnings + 1,
			    sizeof(*e->warnings));
	e->warnings[e->nr_warnings++] = s;
}

const char *attr_engine__next_warning(struct attr_engine *e)
{
	return e->next_warning < e->nr_warnings ? e->warnings[e->next_warning++] : NULL;
}

/*
 * A layout for a scalar variable or heap array: one member named after the variable, with
 * its element size so each element is told apart ("hist[37]").  @name: "var counters",
 * "heap hist".
 */
static const char *scalar_layout(struct attr_engine *e, const char *name, const char *var,
				 const char *ctype, uint64_t size, uint64_t elem_size)
{
	struct attr_scalar *t;

	for (size_t i = 0; i < e->nr_scalars; i++)
		if (!strcmp(e->scalars[i]->name, name) && e->scalars[i]->layout.size >= size)
			return e->scalars[i]->layout.name;
	t = xcalloc(1, sizeof(*t));
	t->name = xstrdup(name);
	t->member = (struct flat_member){ .path = attr_engine__own(e, xstrdup(var)),
					  .type = attr_engine__own(e, xstrdup(ctype)),
					  .size = size ? size : 1, .elem_size = elem_size };
	t->layout = (struct flat_layout){ .name = t->name, .size = size ? size : 1,
					  .nr_members = 1, .members = &t->member };
	/* Newest first, so a larger block of the same name is found before a smaller one. */
	e->scalars = xgrow(e->scalars, &e->cap_scalars, e->nr_scalars + 1, sizeof(*e->scalars));
	memmove(e->scalars + 1, e->scalars, e->nr_scalars * sizeof(*e->scalars));
	e->scalars[0] = t;
	e->nr_scalars++;
	return t->layout.name;
}

const struct flat_layout *attr_engine__find_type(struct attr_engine *e, const char *type)
{
	for (size_t i = 0; i < e->nr_scalars; i++)
		if (flat_layout__same_type(e->scalars[i]->name, type))
			return &e->scalars[i]->layout;
	return e->src ? e->src->find_type(e->src->ctx, type) : NULL;
}

static const struct flat_layout *find_type(void *ctx, const char *type)
{
	return attr_engine__find_type(ctx, type);
}

/* --- indexed operands --- */

/* Bytes of address space per bucket of known starts. */
#define START_GRAIN 64

/* Remember that an object of @type starts at @base (once). */
static void start_add(struct attr_engine *e, const char *type, uint64_t base)
{
	uint64_t head = 0;
	struct attr_start *st;

	u64map__get(&e->start_of, base / START_GRAIN, &head);
	for (uint64_t i = head; i; i = e->starts[i - 1].next)
		if (e->starts[i - 1].base == base &&
		    (e->starts[i - 1].type == type ||
		     flat_layout__same_type(e->starts[i - 1].type, type)))
			return;
	e->starts = xgrow(e->starts, &e->cap_starts, e->nr_starts + 1, sizeof(*e->starts));
	st = &e->starts[e->nr_starts++];
	*st = (struct attr_start){ base, type, (size_t)head };
	u64map__set(&e->start_of, base / START_GRAIN, e->nr_starts);
}

/*
 * Whether @start can be where the object of indexed operand @ix starts, for an access at
 * @addr: the object holds @addr, and @addr lies disp + a multiple of the scale from it.
 */
static bool start_fits(const struct attr_indexed *ix, uint64_t size, uint64_t start,
		       uint64_t addr)
{
	int64_t rest;

	if (addr < start || addr - start >= size)
		return false;
	rest = (int64_t)(addr - start) - ix->disp;
	return rest % (int64_t)ix->scale == 0;
}

/*
 * Where an object of @ix's type (@size bytes) holding @addr starts, from a fact that covers
 * @addr: a member (or an element of an array member) of that type in a typed fact, the fact
 * itself, or for an untyped block a whole number of them, one after the other.  1 with
 * *start, 0 when @f says nothing, -1 when what it says does not fit the operand.
 */
static int start_in_fact(struct attr_engine *e, const struct attr_indexed *ix, uint64_t size,
			 const struct attr_fact *f, uint64_t addr, uint64_t *start)
{
	const struct flat_layout *l;
	char elem[128];

	if (!f->type) {
		if (!f->size || addr < f->base || addr - f->base >= f->size || f->size % size)
			return 0;
		*start = f->base + (addr - f->base) / size * size;
		return start_fits(ix, size, *start, addr) ? 1 : -1;
	}
	l = attr_engine__find_type(e, f->type);
	if (!l || addr < f->base || addr - f->base >= l->size)
		return 0;
	if (flat_layout__same_type(l->name, ix->type)) {
		*start = f->base;
		return start_fits(ix, size, *start, addr) ? 1 : -1;
	}
	for (unsigned int i = 0; i < l->nr_members; i++) {
		const struct flat_member *m = &l->members[i];
		const char *br = strchr(m->type, '[');
		uint64_t at = addr - f->base;

		if (at < m->offset || at - m->offset >= m->size)
			continue;
		if (flat_layout__same_type(m->type, ix->type)) {
			*start = f->base + m->offset;
		} else if (br && m->elem_size == size && (size_t)(br - m->type) < sizeof(elem)) {
			/* struct pair pairs[4]: the element holding the address */
			snprintf(elem, sizeof(elem), "%.*s", (int)(br - m->type), m->type);
			if (!flat_layout__same_type(elem, ix->type))
				continue;
			*start = f->base + m->offset + (at - m->offset) / size * size;
		} else {
			continue;
		}
		return start_fits(ix, size, *start, addr) ? 1 : -1;
	}
	return 0;
}

/*
 * Where the object of an indexed operand (addq $1,(%rcx,%rax,1): a.b or a.a, by the index)
 * starts.  The operand names its type, but without the index's value the data address tells
 * the member only against the object's start: a variable or allocation that holds the address
 * gives it, or else another access, whose operand had no index, to an object of that type.
 * Adds the operand's fact and returns true; false when nothing places the object, or two
 * places are possible: the answer is then ambiguous, never guessed.
 */
static bool indexed_fact(struct attr_engine *e, const struct attr_indexed *ix, uint64_t addr,
			 struct attr_query *q, struct attr_fact *facts)
{
	const struct flat_layout *l = attr_engine__find_type(e, ix->type);
	uint64_t start = 0, first, last, found = 0;
	int rc = 0;

	if (!l || !l->size) {
		/* no layout to place it in: say so as an unindexed operand would */
		facts[q->nr_facts++] = (struct attr_fact){
			ATTR_OPERAND, ix->type, addr - (uint64_t)ix->disp, 0, ix->origin
		};
		return true;
	}
	for (int k = ATTR_VARIABLE; k > ATTR_NONE && !rc; k--)
		for (unsigned int i = 0; i < q->nr_facts && !rc; i++)
			if ((int)facts[i].kind == k)
				rc = start_in_fact(e, ix, l->size, &facts[i], addr, &start);
	if (rc < 0)
		return false;
	if (!rc) {
		/* objects of that type that unindexed operands placed, one holding the address */
		first = addr >= l->size ? (addr - l->size + 1) / START_GRAIN : 0;
		last = addr / START_GRAIN;
		if (last - first > 1024)
			return false;	/* too large to search: say so rather than guess */
		for (uint64_t b = first; b <= last; b++) {
			uint64_t i = 0;

			u64map__get(&e->start_of, b, &i);
			for (; i; i = e->starts[i - 1].next) {
				const struct attr_start *st = &e->starts[i - 1];

				if (!start_fits(ix, l->size, st->base, addr) ||
				    !flat_layout__same_type(st->type, ix->type) ||
				    (found && start == st->base))
					continue;
				start = st->base;
				found++;
			}
		}
		if (found != 1)
			return false;
	}
	facts[q->nr_facts++] = (struct attr_fact){ ATTR_OPERAND, ix->type, start, 0, ix->origin };
	return true;
}

static void evidence_operand(struct attr_engine *e, const struct fields_sample *s,
			     struct attr_query *q, struct attr_fact *facts,
			     struct attr_indexed *ix)
{
	struct attr_answer a = { 0 };

	q->why_not[ATTR_OPERAND] = e->src->operand(e->src->ctx, s, &a);
	if (q->why_not[ATTR_OPERAND] != ATTR_OK)
		return;
	if (a.index_scale) {
		/* placed once the other sources have spoken (indexed_fact) */
		*ix = (struct attr_indexed){ a.type, a.origin, a.offset, a.index_scale };
		return;
	}
	facts[q->nr_facts++] = (struct attr_fact){
		ATTR_OPERAND, a.type, s->addr - (uint64_t)a.offset, 0, a.origin
	};
	start_add(e, a.type, s->addr - (uint64_t)a.offset);
}

static void raw_variable(struct attr_engine *e, const struct fields_sample *s,
			 const struct attr_answer *a, struct attr_fact *f, const struct attr_fact *op,
			 struct alloc_view *av);

static void evidence_variable(struct attr_engine *e, const struct fields_sample *s,
			      struct attr_query *q, struct attr_fact *facts,
			      const struct attr_fact *op, struct alloc_view *av)
{
	struct attr_answer a = { 0 };
	const char *type;
	struct attr_fact *f;

	q->why_not[ATTR_VARIABLE] = e->src->variable(e->src->ctx, s, &a);
	if (q->why_not[ATTR_VARIABLE] != ATTR_OK || !a.type)
		return;
	if (a.scalar) {
		char *n = xasprintf("var %s", a.var);

		type = scalar_layout(e, n, a.var, a.type, a.size, a.elem_size);
		free(n);
	} else {
		type = a.type;
	}
	f = &facts[q->nr_facts++];
	*f = (struct attr_fact){ ATTR_VARIABLE, type, s->addr - (uint64_t)a.offset, a.size, a.origin };
	if (a.scalar && a.elem_size == 1 && a.size > 1)
		raw_variable(e, s, &a, f, op, av);	/* bytes: storage for objects */
}

/* --- structs with a flexible array member --- */

/* What @type's flexible array member is, NULL when it has none (each type looked at once). */
static const struct attr_flex *flex_of(struct attr_engine *e, const char *type)
{
	const struct flat_layout *l, *el;
	struct attr_flex *x;
	char elem[128];
	int m;

	for (size_t i = 0; i < e->nr_flex; i++)
		if (e->flex[i].type == type || flat_layout__same_type(e->flex[i].type, type))
			return e->flex[i].elem ? &e->flex[i] : NULL;
	l = attr_engine__find_type(e, type);
	m = flat_layout__flex(l, elem, sizeof(elem));
	e->flex = xgrow(e->flex, &e->cap_flex, e->nr_flex + 1, sizeof(*e->flex));
	x = &e->flex[e->nr_flex++];
	*x = (struct attr_flex){ .type = type };
	if (m < 0)
		return NULL;
	el = attr_engine__find_type(e, elem);
	x->elem = attr_engine__own(e, xstrdup(elem));
	x->member = l->members[m].path;
	x->offset = l->members[m].offset;
	x->elem_size = l->members[m].elem_size;
	x->scalar = !el || el->size != x->elem_size;
	return x;
}

/*
 * @f names a struct with a flexible array member at f->base, in a block that ends at @end (the
 * allocation's end): a sample at @addr past the array's start is one of its elements, named
 * VAR->tail[N] through @av (@var: the block's variable, NULL when unknown); one before it is
 * the struct's own.  Elements of no struct type make one indexed member, "tail[N]".
 */
static void flex_fact(struct attr_engine *e, struct attr_fact *f, uint64_t addr, uint64_t end,
		      const char *var, struct alloc_view *av)
{
	const struct attr_flex *x = f->type ? flex_of(e, f->type) : NULL;
	uint64_t tail;

	if (!x || addr < f->base + x->offset || end <= f->base + x->offset)
		return;
	tail = f->base + x->offset;
	if (x->scalar) {
		char *name = xasprintf("%s in %s", x->member, f->type);

		f->type = scalar_layout(e, name, x->member, x->elem, end - tail, x->elem_size);
		free(name);
		f->base = tail;
		f->size = end - tail;
		return;
	}
	f->type = x->elem;
	f->base = tail + (addr - tail) / x->elem_size * x->elem_size;
	f->size = x->elem_size;
	av->var = var;
	av->member = x->member;
	av->elem_type = x->elem;
	av->grid = tail;
	av->elem_size = x->elem_size;
	av->end = end;
}

/* --- heap blocks typed by their accesses --- */

/* Whether vote @in lies inside @out's elements, at the place it was seen. */
static bool vote_inside(const struct attr_vote *out, const struct attr_vote *in,
			const struct attr_types *types)
{
	const struct flat_layout *l = types->find(types->ctx, out->type);
	uint64_t at;
	char elem[128];
	int m = flat_layout__flex(l, elem, sizeof(elem));

	if (m >= 0 && in->size == l->members[m].elem_size &&
	    flat_layout__same_type(in->type, elem) &&
	    (in->phase + in->size - (out->phase + l->members[m].offset) % in->size) % in->size == 0)
		return true;	/* the elements of its flexible array member */
	if (!l || in->size >= out->size)
		return false;
	/* @in's first element relative to an element of @out */
	at = (in->phase + out->size - out->phase % out->size) % out->size;
	return at + in->size <= out->size && flat_layout__find_type_at(l, at, in->type) != -1;
}

/*
 * Whether @v's elements fill the block from their phase to its end: for a struct with a
 * flexible array member, one of it and its array's elements do.
 */
static bool vote_tiles(const struct attr_vote *v, uint64_t block_size,
		       const struct attr_types *types)
{
	const struct flat_layout *l = types->find(types->ctx, v->type);
	char elem[128];
	int m = flat_layout__flex(l, elem, sizeof(elem));

	if (m >= 0)
		return block_size >= v->phase + l->members[m].offset &&
		       (block_size - v->phase - l->members[m].offset) % l->members[m].elem_size == 0;
	return v->size && block_size > v->phase && (block_size - v->phase) % v->size == 0;
}

int attr_votes__choose(const struct attr_vote *v, size_t nr, uint64_t block_size,
		       const struct attr_types *types)
{
	int best = -1;
	uint64_t best_score = 0;
	size_t best_sites = 0;

	for (size_t i = 0; i < nr; i++) {
		uint64_t score = v[i].accesses;
		size_t sites = v[i].nr_sites;
		bool better;

		for (size_t k = 0; k < nr; k++)
			if (k != i && vote_inside(&v[i], &v[k], types)) {
				score += v[k].accesses;
				sites += v[k].nr_sites;
			}
		if (best < 0)
			better = true;
		else if (vote_tiles(&v[i], block_size, types) !=
			 vote_tiles(&v[best], block_size, types))
			better = vote_tiles(&v[i], block_size, types);
		else if (score != best_score)
			better = score > best_score;
		else
			better = sites > best_sites;
		if (better) {
			best = (int)i;
			best_score = score;
			best_sites = sites;
		}
	}
	return best;
}

/* The block @key of @map (made on first use, of @kind, at @base). */
static struct attr_block *block_at(struct attr_engine *e, struct u64map *map, uint64_t key,
				   enum attr_evidence kind, uint64_t base, uint64_t size,
				   const char *origin, uint32_t *id)
{
	uint64_t i;
	struct attr_block *b;

	if (!u64map__get(map, key, &i)) {
		i = e->nr_blocks;
		e->blocks = xgrow(e->blocks, &e->cap_blocks, i + 1, sizeof(*e->blocks));
		b = xcalloc(1, sizeof(*b));
		b->kind = kind;
		b->base = base;
		b->size = size;
		b->origin = origin;
		b->chosen = -1;
		e->blocks[e->nr_blocks++] = b;
		u64map__set(map, key, i);
	}
	*id = (uint32_t)i + 1;
	return e->blocks[i];
}

/* The block of allocation @ae. */
static struct attr_block *block_of(struct attr_engine *e, const struct alloc_entry *ae,
				   uint32_t *id)
{
	return block_at(e, &e->block_of, (uint64_t)(ae - e->allocs.entries), ATTR_ALLOC, ae->base,
			ae->size, ae->origin, id);
}

/* Count an access whose operand names @type at @base as a vote for the block's elements. */
static void block_vote(struct attr_engine *e, struct attr_block *b, const struct attr_fact *op,
		       uint64_t ip)
{
	const struct flat_layout *l = op->type ? attr_engine__find_type(e, op->type) : NULL;
	struct attr_vote *v = NULL;
	uint64_t phase;

	if (!l || !l->size || op->base < b->base || op->base - b->base + l->size > b->size)
		return;
	phase = (op->base - b->base) % l->size;
	for (size_t i = 0; i < b->nr_votes && !v; i++)
		if (b->votes[i].size == l->size && b->votes[i].phase == phase &&
		    flat_layout__same_type(b->votes[i].type, op->type))
			v = &b->votes[i];
	if (!v) {
		b->votes = xgrow(b->votes, &b->cap_votes, b->nr_votes + 1, sizeof(*b->votes));
		v = &b->votes[b->nr_votes++];
		*v = (struct attr_vote){ .type = op->type, .size = l->size, .phase = phase };
	}
	v->accesses++;
	b->dirty = true;
	for (size_t i = 0; i < v->nr_sites; i++)
		if (v->sites[i] == ip)
			return;
	v->sites = xgrow(v->sites, &v->cap_sites, v->nr_sites + 1, sizeof(*v->sites));
	v->sites[v->nr_sites++] = ip;
}

static const struct attr_vote *block_type(struct attr_engine *e, struct attr_block *b)
{
	struct attr_types types = { find_type, e };

	if (b->dirty) {
		b->chosen = attr_votes__choose(b->votes, b->nr_votes, b->size, &types);
		b->dirty = false;
	}
	return b->chosen >= 0 ? &b->votes[b->chosen] : NULL;
}

/* The allocation fact of block @b for @addr: its elements' type where its accesses tell it. */
static void block_fact(struct attr_engine *e, struct attr_block *b, uint64_t addr,
		       struct attr_fact *f, struct alloc_view *av)
{
	const struct attr_vote *v = block_type(e, b);
	uint64_t grid;

	*f = (struct attr_fact){ b->kind, b->fallback, b->base, b->size, b->origin };
	av->block = b;
	av->var = b->var;
	if (!v || addr < b->base + v->phase)
		return;		/* a header before the first element stays untyped */
	grid = b->base + v->phase;
	if (!b->typed_origin)
		b->typed_origin = attr_engine__own(e, xasprintf("%s, typed by its accesses",
								b->origin ? b->origin : "heap"));
	if (flex_of(e, v->type)) {
		/* one struct, then the elements of its flexible array member */
		f->type = v->type;
		f->base = grid;
		f->size = v->size;
		f->origin = b->typed_origin;
		flex_fact(e, f, addr, b->base + b->size, b->var, av);
		return;
	}
	f->type = v->type;
	f->base = grid + (addr - grid) / v->size * v->size;
	f->size = v->size;
	f->origin = b->typed_origin;
	av->elem_type = v->type;
	av->grid = grid;
	av->elem_size = v->size;
	av->end = b->base + b->size;
}

/*
 * A global byte array (`alignas(64) static char pool[4096]`, storage that placement new or
 * casts carve into objects) is typed as a heap block of unknown type is: by the operands of
 * its accesses (@op: this access's), its elements named after it (pool[3]).
 */
static void raw_variable(struct attr_engine *e, const struct fields_sample *s,
			 const struct attr_answer *a, struct attr_fact *f, const struct attr_fact *op,
			 struct alloc_view *av)
{
	struct attr_block *b = block_at(e, &e->var_block, f->base, ATTR_VARIABLE, f->base, f->size,
					f->origin, &av->block_id);

	if (!b->var) {
		b->var = a->var;
		b->fallback = f->type;
	}
	if (op)
		block_vote(e, b, op, s->ip);
	block_fact(e, b, s->addr, f, av);
}

/*
 * An allocation record; the collector's carry no type: the call site's variables tell it,
 * else (a void *, a byte buffer) the operands of the accesses to it (@op: this access's).
 */
static void evidence_alloc(struct attr_engine *e, const struct fields_sample *s,
			   struct attr_query *q, struct attr_fact *facts,
			   const struct attr_fact *op, struct alloc_view *av)
{
	const struct alloc_entry *ae = alloc_index__find(&e->allocs, s->addr, s->time);
	struct attr_answer a = { 0 };
	struct attr_fact *f;
	struct attr_block *b;
	uint64_t grid;
	bool site;

	if (!ae) {
		if (e->allocs.nr)
			q->why_not[ATTR_ALLOC] = ATTR_NO_OBJECT;
		return;
	}
	f = &facts[q->nr_facts++];
	alloc_entry__fact(ae, f);
	if (f->type)
		return;
	site = ae->site && !e->src->alloc_site(e->src->ctx, ae->pid, ae->site, ae->size, &a);
	/* where the variable points: past the element count new T[n] stores first */
	grid = ae->base + (site && a.offset > 0 && (uint64_t)a.offset < ae->size ?
				   (uint64_t)a.offset : 0);
	if (site && a.type && s->addr < grid) {
		f->size = grid - ae->base;	/* the count: no element's */
		return;
	}
	if (site && a.type && !a.scalar && flex_of(e, a.type)) {
		/* A struct and the elements of its flexible array member after it */
		f->type = a.type;
		f->base = grid;
		f->size = a.size;
		f->origin = a.origin;
		flex_fact(e, f, s->addr, ae->base + ae->size, a.var, av);
		return;
	}
	if (site && a.type && !a.scalar) {
		/* An array of structs: each element is an instance. */
		f->type = a.type;
		f->base = grid + (s->addr - grid) / a.size * a.size;
		f->size = a.size;
		f->origin = a.origin;
		*av = (struct alloc_view){ .var = a.var, .elem_type = a.type, .grid = grid,
					   .elem_size = a.size, .end = ae->base + ae->size };
		return;
	}
	if (site && a.type && a.elem_size > 1) {
		f->type = scalar_layout(e, a.type, a.var, "heap array", ae->base + ae->size - grid,
					a.elem_size);
		f->base = grid;
		f->size = ae->base + ae->size - grid;
		f->origin = a.origin;
		return;
	}
	/* untyped (a void *), or bytes (placement new into a char buffer): ask its accesses */
	b = block_of(e, ae, &av->block_id);
	if (site && !b->var) {
		b->var = a.var;
		b->origin = a.origin;
		if (a.type)
			b->fallback = scalar_layout(e, a.type, a.var, "heap array", ae->size,
						    a.elem_size);
	}
	if (op)
		block_vote(e, b, op, s->ip);
	block_fact(e, b, s->addr, f, av);
}

/*
 * "stats[3]" for a result that is an element of a heap array whose variable is known (an
 * array: a block of one object keeps the type's name).
 */
static void name_element(const struct alloc_view *av, struct attr_result *res)
{
	uint64_t k;

	if (!(av->var || av->member) || !av->elem_type || !av->elem_size || !res->layout ||
	    (!av->member && av->end < av->grid + 2 * av->elem_size) ||
	    !flat_layout__same_type(res->layout->name, av->elem_type) || res->base < av->grid ||
	    (res->base - av->grid) % av->elem_size)
		return;
	k = (res->base - av->grid) / av->elem_size;
	res->array = av->grid;
	if (!av->member)
		snprintf(res->element, sizeof(res->element), "%s[%" PRIu64 "]", av->var, k);
	else if (av->var)	/* a flexible array member's element: hdr->tail[3] */
		snprintf(res->element, sizeof(res->element), "%s->%s[%" PRIu64 "]", av->var,
			 av->member, k);
	else
		snprintf(res->element, sizeof(res->element), "%s[%" PRIu64 "]", av->member, k);
}

int attr_engine__resolve_later(struct attr_engine *e, const struct attr_sources *src,
			       const struct fields_sample *s, struct attr_result *res,
			       struct attr_pending *p)
{
	struct attr_types types = { find_type, e };
	struct attr_fact facts[8];
	struct attr_query q = { .addr = s->addr, .facts = facts };
	struct alloc_view av = { 0 };
	int rc;

	if (!e->prepared) {
		alloc_index__prepare(&e->allocs);
		e->prepared = true;
	}
	e->src = src;
	memset(p, 0, sizeof(*p));
	p->addr = s->addr;
	if (!s->addr) {
		q.why_not[ATTR_OPERAND] = ATTR_NO_ADDR;
	} else {
		struct attr_indexed ix = { 0 };

		evidence_operand(e, s, &q, facts, &ix);
		if (q.nr_facts)
			p->operand = facts[0];
		const struct attr_fact *op = q.nr_facts && facts[0].kind == ATTR_OPERAND ?
					     &facts[0] : NULL;

		evidence_variable(e, s, &q, facts, op, &av);
		evidence_alloc(e, s, &q, facts, op, &av);
		if (ix.type && !indexed_fact(e, &ix, s->addr, &q, facts))
			q.why_not[ATTR_OPERAND] = ATTR_AMBIGUOUS;
		else if (!av.block_id)
			ix.type = NULL;	/* placed for good; in a block, again once it is typed */
		p->indexed = ix;
		for (size_t k = 0; k < e->nr_hints && q.nr_facts < 8; k++)
			facts[q.nr_facts++] = e->hints[k];
	}
	p->block = av.block_id;
	rc = attribution__resolve(&types, &q, res);
	name_element(&av, res);
	return rc;
}

int attr_engine__resolve(struct attr_engine *e, const struct attr_sources *src,
			 const struct fields_sample *s, struct attr_result *res)
{
	struct attr_pending p;

	return attr_engine__resolve_later(e, src, s, res, &p);
}

void attr_engine__finish(struct attr_engine *e)
{
	for (size_t i = 0; i < e->nr_blocks; i++) {
		struct attr_block *b = e->blocks[i];
		struct attr_types types = { find_type, e };
		const struct attr_vote *v = block_type(e, b);
		uint64_t against = 0;
		size_t nr_against = 0;
		const struct attr_vote *other = NULL;

		if (!v)
			continue;
		for (size_t k = 0; k < b->nr_votes; k++) {
			const struct attr_vote *w = &b->votes[k];

			if (w == v || vote_inside(v, w, &types))
				continue;
			against += w->accesses;
			nr_against++;
			if (!other || w->accesses > other->accesses)
				other = w;
		}
		if (!other)
			continue;
		attr_engine__warn(e, 0, "heap block %s (%s): its accesses disagree on its type: "
				  "%s (%" PRIu64 "-byte elements from +%" PRIu64 ") by %" PRIu64
				  " access%s at %zu site%s, %zu other type%s by %" PRIu64
				  " (the most: %s, %" PRIu64 " at %zu site%s); taken as %s, %s",
				  b->var ? b->var : "?", b->origin ? b->origin : "malloc", v->type,
				  v->size, v->phase, v->accesses, v->accesses == 1 ? "" : "es",
				  v->nr_sites, v->nr_sites == 1 ? "" : "s", nr_against,
				  nr_against == 1 ? "" : "s", against, other->type, other->accesses,
				  other->nr_sites, other->nr_sites == 1 ? "" : "s", v->type,
				  vote_tiles(v, b->size, &types) &&
						  !vote_tiles(other, b->size, &types) ?
					  "whose elements tile the block" : "the most accesses");
	}
}

int attr_engine__settle(struct attr_engine *e, const struct attr_pending *p,
			struct attr_result *res)
{
	struct attr_types types = { find_type, e };
	struct attr_fact facts[8];
	struct attr_query q = { .addr = p->addr, .facts = facts };
	struct alloc_view av = { 0 };
	int rc;

	if (p->operand.kind != ATTR_NONE)
		facts[q.nr_facts++] = p->operand;
	if (p->block && p->block <= e->nr_blocks)
		block_fact(e, e->blocks[p->block - 1], p->addr, &facts[q.nr_facts++], &av);
	if (p->indexed.type && !indexed_fact(e, &p->indexed, p->addr, &q, facts))
		q.why_not[ATTR_OPERAND] = ATTR_AMBIGUOUS;
	for (size_t k = 0; k < e->nr_hints && q.nr_facts < 8; k++)
		facts[q.nr_facts++] = e->hints[k];
	if (!q.nr_facts && q.why_not[ATTR_OPERAND] == ATTR_OK)
		q.why_not[ATTR_OPERAND] = ATTR_NO_OBJECT;
	rc = attribution__resolve(&types, &q, res);
	name_element(&av, res);
	return rc;
}
