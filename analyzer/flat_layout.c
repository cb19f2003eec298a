// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "analyzer/flat_layout.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/layout.h"
#include "util/arena.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static bool member_contains(const struct flat_member *m, uint64_t offset)
{
	return offset >= m->offset && offset - m->offset < (m->size ? m->size : 1);
}

int flat_layout__member_at(const struct flat_layout *l, uint64_t offset)
{
	int best = -1;

	if (!l || offset >= l->size)
		return -1;
	for (unsigned int i = 0; i < l->nr_members; i++) {
		const struct flat_member *m = &l->members[i];

		if (m->offset > offset)
			break;
		/* Deeper wins; at equal depth the first (bitfields sharing a unit) wins. */
		if (member_contains(m, offset) && (best < 0 || m->depth > l->members[best].depth))
			best = (int)i;
	}
	return best;
}

int flat_layout__name_at(const struct flat_layout *l, uint64_t offset, char *buf, size_t n)
{
	int i = flat_layout__member_at(l, offset);
	const struct flat_member *m;

	if (!n)
		return i;
	if (i < 0) {
		uint64_t end = 0;

		if (!l || offset >= l->size) {
			snprintf(buf, n, "<beyond+%llu>", (unsigned long long)offset);
			return i;
		}
		for (unsigned int k = 0; k < l->nr_members; k++)
			if (l->members[k].offset + l->members[k].size > end)
				end = l->members[k].offset + l->members[k].size;
		if (offset >= end)
			snprintf(buf, n, "<padding+%llu>", (unsigned long long)(offset - end));
		else
			snprintf(buf, n, "<hole+%llu>", (unsigned long long)offset);
		return i;
	}
	m = &l->members[i];
	if (m->elem_size && m->size > m->elem_size)
		snprintf(buf, n, "%s[%llu]", m->path,
			 (unsigned long long)((offset - m->offset) / m->elem_size));
	else
		snprintf(buf, n, "%s", m->path);
	return i;
}

int flat_layout__flex(const struct flat_layout *l, char *elem, size_t n)
{
	const struct flat_member *m = NULL;
	size_t len;

	if (!l)
		return -1;
	for (unsigned int i = 0; i < l->nr_members; i++)
		if (!l->members[i].depth)
			m = &l->members[i];
	/* the last member of the outermost type, of no size, an array of unknown bound */
	if (!m || m->size || !m->elem_size || m->bit_size || !m->type)
		return -1;
	/* "[]", or GNU's "[0]" that older code (the kernel's) ends such structs with */
	len = strlen(m->type);
	if (len > 2 && !strcmp(m->type + len - 2, "[]"))
		len -= 2;
	else if (len > 3 && !strcmp(m->type + len - 3, "[0]"))
		len -= 3;
	else
		return -1;
	if (len >= n)
		return -1;
	memcpy(elem, m->type, len);
	elem[len] = 0;
	return (int)(m - l->members);
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/*
 * Skip blanks, and qualifiers that start a word of @start, so "const struct file_operations *"
 * matches its DWARF name and "volatile int [8]" (gcc's volatile array) matches "int[8]".
 */
static const char *skip_noise(const char *s, const char *start)
{
	static const char *const quals[] = { "const", "volatile", "restrict", "_Atomic" };

	for (;;) {
		size_t n = 0;

		while (*s == ' ' || *s == '\t')
			s++;
		if (s > start && ident_char(s[-1]))
			return s;	/* inside a name: "myconst" */
		for (size_t i = 0; i < sizeof(quals) / sizeof(quals[0]) && !n; i++) {
			size_t len = strlen(quals[i]);

			if (!strncmp(s, quals[i], len) && !ident_char(s[len]))
				n = len;
		}
		if (!n)
			return s;
		s += n;
	}
}

int flat_layout__same_type(const char *a, const char *b)
{
	const char *a0 = a, *b0 = b;

	if (!a || !b)
		return 0;
	for (;;) {
		a = skip_noise(a, a0);
		b = skip_noise(b, b0);
		if (!*a || !*b)
			return !*a && !*b;
		if (*a != *b)
			return 0;
		a++;
		b++;
	}
}

int flat_layout__find_type_at(const struct flat_layout *l, uint64_t offset, const char *type)
{
	if (!l)
		return -1;
	if (offset == 0 && flat_layout__same_type(l->name, type))
		return FLAT_SELF;
	for (unsigned int i = 0; i < l->nr_members; i++) {
		const struct flat_member *m = &l->members[i];

		if (m->offset > offset)
			break;
		if (m->offset == offset && flat_layout__same_type(m->type, type))
			return (int)i;
	}
	return -1;
}

/* ---- flattening a layout_type ---- */

struct flat_owned {
	struct flat_layout l;	/* first: a flat_layout * of flat_layout__new is one of these */
	struct arena arena;
	struct flat_member *members;
	size_t nr, cap;
	flat_layout_resolver resolve;
	void *ctx;
	/* the types being flattened, outermost first: a member of one of them is not entered */
	const struct layout_type *inside[64];
	unsigned int nr_inside;
	unsigned int budget;	/* members still to look at (FLAT_MAX_MEMBERS) */
};

static void flat_add(struct flat_owned *o, const char *path, const char *type, uint64_t offset,
		     const struct layout_member *m, uint16_t depth)
{
	struct flat_member *f;

	o->members = xgrow(o->members, &o->cap, o->nr + 1, sizeof(*o->members));
	f = &o->members[o->nr++];
	memset(f, 0, sizeof(*f));
	f->path = path;
	f->type = type;
	f->offset = offset;
	f->size = m->size;
	f->elem_size = m->nr_elems != 1 ? m->elem_size : 0;
	f->bit_offset = (uint16_t)m->bit_offset;
	f->bit_size = (uint16_t)m->bit_size;
	f->depth = depth;
	f->align = m->align;
	f->member = m;
}

static bool declared_struct(const struct layout_member *m)
{
	return m->type_name && (!strncmp(m->type_name, "struct", 6) ||
				!strncmp(m->type_name, "union", 5));
}

static bool flat_inside(const struct flat_owned *o, const struct layout_type *lt)
{
	for (unsigned int i = 0; i < o->nr_inside; i++)
		if (o->inside[i] == lt)
			return true;
	return false;
}

static void flatten(struct flat_owned *o, const struct layout_type *lt, const char *prefix,
		    uint64_t base, uint16_t depth)
{
	/* (anonymous members add no depth: the path of types bounds those) */
	if (depth > FLAT_MAX_DEPTH || lt->kind == LAYOUT_ENUM ||
	    o->nr_inside == sizeof(o->inside) / sizeof(o->inside[0]))
		return;
	o->inside[o->nr_inside++] = lt;
	for (uint32_t i = 0; i < lt->nr_members && o->budget; i++, o->budget--) {
		const struct layout_member *m = &lt->members[i];
		const struct layout_type *sub = m->type;
		const char *path = prefix;

		if (m->name) {
			struct strbuf sb = STRBUF_INIT;

			if (prefix[0])
				strbuf__addf(&sb, "%s.%s", prefix, m->name);
			else
				strbuf__add(&sb, m->name, strlen(m->name));
			path = arena__strdup(&o->arena, sb.buf);
			strbuf__reset(&sb);
			strbuf__addf(&sb, "%s%s", m->type_name ? m->type_name : "?",
				     m->decl_suffix && m->decl_suffix[0] == '[' ? m->decl_suffix : "");
			flat_add(o, path, arena__strdup(&o->arena, sb.buf), base + m->offset, m,
				 depth);
			strbuf__release(&sb);
		}
		if (m->nr_elems != 1 || (m->name && !declared_struct(m)))
			continue;
		if (!sub && m->type_id && o->resolve)
			sub = o->resolve(o->ctx, m->type_id);
		if (sub && !flat_inside(o, sub))
			flatten(o, sub, path, base + m->offset,
				(uint16_t)(m->name ? depth + 1 : depth));
	}
	o->nr_inside--;
}

static int member_cmp(const void *a, const void *b)
{
	const struct flat_member *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	if (x->bit_offset != y->bit_offset)
		return x->bit_offset < y->bit_offset ? -1 : 1;
	return 0;
}

struct flat_layout *flat_layout__new(const struct layout_type *t, const char *name,
				     flat_layout_resolver resolve, void *ctx)
{
	struct flat_owned *o = xcalloc(1, sizeof(*o));

	o->resolve = resolve;
	o->ctx = ctx;
	o->budget = FLAT_MAX_MEMBERS;
	flatten(o, t, "", 0, 0);
	/* Union members share offsets: sort so lookups can stop at the first member past. */
	if (o->nr)
		qsort(o->members, o->nr, sizeof(*o->members), member_cmp);
	if (name) {
		o->l.name = arena__strdup(&o->arena, name);
	} else {
		struct strbuf sb = STRBUF_INIT;

		if (t->name || !t->typedef_name)
			strbuf__addf(&sb, "%s %s", layout_kind__name(t->kind),
				     t->name ? t->name : "(anonymous)");
		else
			strbuf__add(&sb, t->typedef_name, strlen(t->typedef_name));
		o->l.name = arena__strdup(&o->arena, sb.buf);
		strbuf__release(&sb);
	}
	o->l.size = t->size;
	o->l.members = o->members;
	o->l.nr_members = (unsigned int)o->nr;
	o->l.type = t;
	return &o->l;
}

void flat_layout__delete(struct flat_layout *l)
{
	struct flat_owned *o = (struct flat_owned *)l;

	if (!o)
		return;
	arena__release(&o->arena);
	free(o->members);
	free(o);
}

const char *type_name__strip_tag(const char *name)
{
	if (!strncmp(name, "struct ", 7))
		return name + 7;
	if (!strncmp(name, "union ", 6))
		return name + 6;
	if (!strncmp(name, "class ", 6))
		return name + 6;
	return name;
}
