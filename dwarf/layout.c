// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The layout sources' common side: opening a file with the right loader (DWARF or BTF), the
 * ops table calls, the closest-name search, and the pieces both loaders build a member's
 * declaration text from (pahole's type__fprintf).  The model itself is analyzer/layout.h.
 */
#include <config.h>

#include "dwarf/layout.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/dwarf_types.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- the source interface ---- */

int layout_source__open(struct layout_source **out, const char *path, unsigned int flags,
			char *err, size_t errlen)
{
	*out = NULL;
	if (flags & LAYOUT_BTF)
		return btf_source__open(out, path, flags, err, errlen);
	/* a raw BTF file given as FILE (/sys/kernel/btf/vmlinux) needs no --btf */
	FILE *fp = fopen(path, "rb");
	unsigned char magic[2] = { 0 };

	if (fp) {
		size_t n = fread(magic, 1, sizeof(magic), fp);

		fclose(fp);
		if (n == 2 && ((magic[0] == 0x9f && magic[1] == 0xeb) ||
			       (magic[0] == 0xeb && magic[1] == 0x9f)))
			return btf_source__open(out, path, flags | LAYOUT_BTF, err, errlen);
	}
	return dwarf_source__open(out, path, flags, err, errlen);
}

void layout_source__delete(struct layout_source *src)
{
	if (src)
		src->ops->delete(src);
}

bool layout_source__is_btf(const struct layout_source *src)
{
	return src->flags & LAYOUT_BTF;
}

unsigned int layout_source__addr_size(const struct layout_source *src)
{
	return src->addr_size;
}

int layout_source__find(struct layout_source *src, const char *name,
			const struct layout_type **out, char *err, size_t errlen)
{
	return src->ops->find(src, name, out, err, errlen);
}

int layout_source__for_each(struct layout_source *src, bool unions,
			    int (*cb)(const struct layout_type *type, void *arg), void *arg,
			    char *err, size_t errlen)
{
	return src->ops->for_each(src, unions, cb, arg, err, errlen);
}

struct closest {
	const char *want;
	size_t want_len;
	const char **out;
	int *dist;
	int max, n;
	unsigned int *row;
	size_t row_cap;
	struct arena *arena;
};

/* Levenshtein distance, two rows; bounded by the longer string. */
static int edit_distance(struct closest *c, const char *s)
{
	size_t n = strlen(s), m = c->want_len;

	if (c->row_cap < 2 * (m + 1)) {
		c->row = xrealloc(c->row, 2 * (m + 1) * sizeof(*c->row));
		c->row_cap = 2 * (m + 1);
	}
	unsigned int *prev = c->row, *cur = c->row + m + 1;

	for (size_t j = 0; j <= m; j++)
		prev[j] = j;
	for (size_t i = 1; i <= n; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= m; j++) {
			unsigned int sub = prev[j - 1] + (s[i - 1] != c->want[j - 1]);
			unsigned int del = prev[j] + 1, ins = cur[j - 1] + 1;

			cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		unsigned int *t = prev;

		prev = cur;
		cur = t;
	}
	return prev[m];
}

static void closest_name(const char *name, void *arg)
{
	struct closest *c = arg;
	int d = edit_distance(c, name), i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->out[i], name))
			return;
	if (c->n == c->max && d >= c->dist[c->n - 1])
		return;
	i = c->n < c->max ? c->n++ : c->n - 1;
	while (i > 0 && (c->dist[i - 1] > d ||
			 (c->dist[i - 1] == d && strcmp(c->out[i - 1], name) > 0))) {
		c->out[i] = c->out[i - 1];
		c->dist[i] = c->dist[i - 1];
		i--;
	}
	c->out[i] = arena__strdup(c->arena, name);
	c->dist[i] = d;
}

int layout_source__closest(struct layout_source *src, const char *name, const char **out,
			   int max)
{
	struct closest c = { .want = name, .want_len = strlen(name), .out = out, .max = max,
			     .arena = &src->arena };

	if (max <= 0)
		return 0;
	c.dist = xcalloc(max, sizeof(*c.dist));
	src->ops->names(src, closest_name, &c);
	free(c.dist);
	free(c.row);
	return c.n;
}

int layout_build_guard__error(const struct layout_build_guard *g, const char *path,
			       const char *name, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s: its types expand beyond the builder's budget (%u types "
		 "and members per struct, %llu in this file, %u bytes per type name): one type "
		 "shared by many members or parameters at every level (damaged or hostile debug "
		 "info?)", path, name ? name : "an anonymous type", LAYOUT_BUILD_BUDGET,
		 (unsigned long long)g->walk_limit, LAYOUT_NAME_BUDGET);
	return -E2BIG;
}

void sb_cat(struct strbuf *sb, ...)
{
	va_list ap;
	const char *s;

	va_start(ap, sb);
	while ((s = va_arg(ap, const char *)))
		strbuf__add(sb, s, strlen(s));
	va_end(ap);
}

void sb_u64(struct strbuf *sb, uint64_t v)
{
	char buf[24];
	int i = sizeof(buf);

	do
		buf[--i] = (char)('0' + v % 10);
	while ((v /= 10));
	strbuf__add(sb, buf + i, sizeof(buf) - i);
}

void layout_member__typedef_note(struct arena *a, struct layout_member *m, struct strbuf *note)
{
	sb_put(note, " */ ");
	m->typedef_note = arena__strdup(a, note->buf);
	strbuf__release(note);
}

uint32_t layout_member__take_elem(struct arena *a, struct layout_member *m,
				  const struct layout_member *em, struct strbuf *pre,
				  struct strbuf *tn)
{
	uint32_t kw_len = (uint32_t)pre->len + em->pad_from;

	sb_cat(tn, pre->buf ? pre->buf : "", em->type_name, NULL);
	strbuf__reset(pre);
	m->decl_prefix = em->decl_prefix;
	m->type = em->type;
	m->inline_type = em->inline_type;
	if (em->typedef_note && m->typedef_note) {
		/* a typedef of an array of a typedef: pahole shows both */
		struct strbuf nb = STRBUF_INIT;

		sb_cat(&nb, m->typedef_note, em->typedef_note, NULL);
		m->typedef_note = arena__strdup(a, nb.buf);
		strbuf__release(&nb);
	} else if (em->typedef_note) {
		m->typedef_note = em->typedef_note;
	}
	return kw_len;
}

void layout_member__finish(struct arena *a, struct layout_member *m, struct strbuf *pre,
			   struct strbuf *tn, struct strbuf *suffix, uint32_t kw_len)
{
	struct strbuf full = STRBUF_INIT;

	if (!m->decl_prefix)
		m->decl_prefix = "";
	sb_cat(&full, pre->buf ? pre->buf : "", tn->buf ? tn->buf : "", NULL);
	m->pad_from = (uint32_t)pre->len + kw_len;
	m->type_name = arena__strdup(a, full.buf ? full.buf : "");
	m->decl_suffix = arena__strdup(a, suffix->buf ? suffix->buf : "");
	strbuf__release(&full);
	strbuf__release(pre);
	strbuf__release(suffix);
	strbuf__release(tn);
}

void layout__params_end(struct strbuf *sb, bool none, bool variadic)
{
	if (none)
		strbuf__add(sb, "void)", 5);
	else if (variadic)
		strbuf__add(sb, ", ...)", 6);
	else
		strbuf__add(sb, ")", 1);
}

