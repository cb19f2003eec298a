// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Field attribution's deciding part: evidence turned into facts, facts into an answer.
 */
#include <config.h>

#include "analyzer/attr_engine.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

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

/*
 * An indexed operand (lock incl 0x18(%rdi,%rsi,4)) reaches disp + index * scale into the
 * object, the index unknown: of the array elements that could hold the address, take the
 * first that puts the object's start on an aligned address (8, or 4 for a size that is no
 * multiple of 8), so every sample of one object agrees on its instance.
 */
static uint64_t indexed_part(struct attr_engine *e, const struct attr_answer *a, uint64_t addr)
{
	const struct flat_layout *l;
	uint64_t align, count, base0;
	int m;

	if (!a->index_scale || !(l = attr_engine__find_type(e, a->type)))
		return 0;
	m = flat_layout__member_at(l, (uint64_t)a->offset);
	count = m >= 0 && l->members[m].elem_size ? l->members[m].size / l->members[m].elem_size :
						    1;
	align = l->size % 8 ? 4 : 8;
	base0 = addr - (uint64_t)a->offset;
	for (uint64_t j = 0; j < count && j * a->index_scale <= base0; j++)
		if ((base0 - j * a->index_scale) % align == 0)
			return j * a->index_scale;
	return 0;
}

static void evidence_operand(struct attr_engine *e, const struct fields_sample *s,
			     struct attr_query *q, struct attr_fact *facts)
{
	struct attr_answer a = { 0 };

	q->why_not[ATTR_OPERAND] = e->src->operand(e->src->ctx, s, &a);
	if (q->why_not[ATTR_OPERAND] != ATTR_OK)
		return;
	facts[q->nr_facts++] = (struct attr_fact){
		ATTR_OPERAND, a.type, s->addr - (uint64_t)a.offset - indexed_part(e, &a, s->addr),
		0, a.origin
	};
}

static void evidence_variable(struct attr_engine *e, const struct fields_sample *s,
			      struct attr_query *q, struct attr_fact *facts)
{
	struct attr_answer a = { 0 };
	const char *type;

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
	facts[q->nr_facts++] = (struct attr_fact){ ATTR_VARIABLE, type, s->addr - (uint64_t)a.offset,
						   a.size, a.origin };
}

/* An allocation record; the collector's carry no type: the call site's variables tell it. */
static void evidence_alloc(struct attr_engine *e, const struct fields_sample *s,
			   struct attr_query *q, struct attr_fact *facts)
{
	const struct alloc_entry *ae = alloc_index__find(&e->allocs, s->addr, s->time);
	struct attr_answer a = { 0 };
	struct attr_fact *f;

	if (!ae) {
		if (e->allocs.nr)
			q->why_not[ATTR_ALLOC] = ATTR_NO_OBJECT;
		return;
	}
	f = &facts[q->nr_facts++];
	alloc_entry__fact(ae, f);
	if (f->type || !ae->site || e->src->alloc_site(e->src->ctx, ae->pid, ae->site, ae->size, &a))
		return;
	if (a.scalar) {
		f->type = scalar_layout(e, a.type, a.var, "heap array", ae->size, a.elem_size);
	} else {
		/* An array of structs: each element is an instance. */
		f->type = a.type;
		f->base = ae->base + (s->addr - ae->base) / a.size * a.size;
		f->size = a.size;
	}
	f->origin = a.origin;
}

int attr_engine__resolve(struct attr_engine *e, const struct attr_sources *src,
			 const struct fields_sample *s, struct attr_result *res)
{
	struct attr_types types = { find_type, e };
	struct attr_fact facts[8];
	struct attr_query q = { .addr = s->addr, .facts = facts };

	if (!e->prepared) {
		alloc_index__prepare(&e->allocs);
		e->prepared = true;
	}
	e->src = src;
	if (!s->addr) {
		q.why_not[ATTR_OPERAND] = ATTR_NO_ADDR;
	} else {
		evidence_operand(e, s, &q, facts);
		evidence_variable(e, s, &q, facts);
		evidence_alloc(e, s, &q, facts);
		for (size_t k = 0; k < e->nr_hints && q.nr_facts < 8; k++)
			facts[q.nr_facts++] = e->hints[k];
	}
	return attribution__resolve(&types, &q, res);
}
