// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The layout model's pure parts: the arena, holes and padding, packed inference, member
 * lookup, and the printers.  The stdio printer reproduces pahole's format (dwarves_fprintf.c,
 * pahole 1.24) character for character, so that the two can be diffed: same column
 * arithmetic, same comments, same quirks.
 */
#include <config.h>

#include "dwarf/layout.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/dwarf_types.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- arena ---- */

struct arena_chunk {
	struct arena_chunk *next;
	size_t size;
	max_align_t data[];
};

#define ARENA_CHUNK (64 * 1024)

void *arena__alloc(struct arena *a, size_t size)
{
	size = (size + 15) & ~(size_t)15;
	if (!a->head || a->used + size > a->cap) {
		size_t cap = size > ARENA_CHUNK ? size : ARENA_CHUNK;
		struct arena_chunk *c = xmalloc(sizeof(*c) + cap);

		c->size = cap;
		c->next = a->head;
		a->head = c;
		a->used = 0;
		a->cap = cap;
	}
	void *p = (char *)a->head->data + a->used;

	a->used += size;
	return p;
}

void *arena__zalloc(struct arena *a, size_t size)
{
	void *p = arena__alloc(a, size);

	memset(p, 0, size);
	return p;
}

char *arena__strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena__alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena__strdup(struct arena *a, const char *s)
{
	return s ? arena__strndup(a, s, strlen(s)) : NULL;
}

void arena__reset(struct arena *a)
{
	struct arena_chunk *c = a->head;

	if (!c)
		return;
	while (c->next) {
		struct arena_chunk *n = c->next;

		c->next = n->next;
		free(n);
	}
	a->used = 0;
	a->cap = c->size;
}

void arena__release(struct arena *a)
{
	while (a->head) {
		struct arena_chunk *n = a->head->next;

		free(a->head);
		a->head = n;
	}
	a->used = a->cap = 0;
}

/* ---- a small open-addressing hash map, string or offset keys ---- */

uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h | 1;
}

uint64_t hash_u64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k | 1;
}

static void hmap_grow(struct hmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 256;
	struct hmap_entry *e = xcalloc(cap, sizeof(*e));

	for (size_t i = 0; i < m->cap; i++) {
		if (!m->e[i].hash)
			continue;
		size_t j = (m->e[i].hash >> 7) & (cap - 1);

		while (e[j].hash)
			j = (j + 1) & (cap - 1);
		e[j] = m->e[i];
	}
	free(m->e);
	m->e = e;
	m->cap = cap;
}

struct hmap_entry *hmap_slot(struct hmap *m, uint64_t h, const char *skey, uint64_t okey,
				    bool insert)
{
	if (insert && (m->n + 1) * 2 > m->cap)
		hmap_grow(m);
	if (!m->cap)
		return NULL;
	/* bit 0 of a hash is always set (0 marks an empty slot): index with higher bits */
	for (size_t j = (h >> 7) & (m->cap - 1);; j = (j + 1) & (m->cap - 1)) {
		struct hmap_entry *e = &m->e[j];

		if (!e->hash) {
			if (!insert)
				return NULL;
			e->hash = h;
			m->n++;
			return e;
		}
		if (e->hash == h && (skey ? e->key && !strcmp(e->key, skey) : e->okey == okey))
			return e;
	}
}

void hmap_clear(struct hmap *m)
{
	if (m->n)
		memset(m->e, 0, m->cap * sizeof(*m->e));
	m->n = 0;
}

void hmap_free(struct hmap *m)
{
	zfree(&m->e);
	m->cap = m->n = 0;
}

/*
 * pahole prints a name again in a full dump only when the type differs: same name, size and
 * members (names, offsets, sizes) count as the same type even if member type names differ.
 */
void layout__signature(const struct layout_type *t, struct strbuf *sb)
{
	/* two independent 64-bit hashes of name, size and every member's name and place */
	uint64_t h1 = 1469598103934665603ull, h2 = 0x9e3779b97f4a7c15ull;
	char buf[40];

#define MIX(v)                                                   \
	do {                                                     \
		uint64_t _v = (v);                               \
		h1 = (h1 ^ _v) * 1099511628211ull;               \
		h2 = (h2 ^ (_v + 0x632be59bd9b4e019ull)) * 0xff51afd7ed558ccdull; \
		h2 ^= h2 >> 29;                                  \
	} while (0)
	MIX((uint64_t)t->kind);
	MIX(t->name ? hash_str(t->name) : 0);
	MIX(t->size);
	MIX(t->nr_members);
	for (uint32_t i = 0; i < t->nr_members; i++) {
		const struct layout_member *m = &t->members[i];

		MIX(m->name ? hash_str(m->name) : 0);
		MIX(m->offset);
		MIX(((uint64_t)m->bit_offset << 32) | m->bit_size);
		MIX(m->size);
	}
#undef MIX
	strbuf__reset(sb);
	snprintf(buf, sizeof(buf), "%016llx%016llx", (unsigned long long)h1,
		 (unsigned long long)h2);
	strbuf__add(sb, buf, 32);
}

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

/* ---- holes and packing (pahole's class__find_holes / class__infer_packed_attributes) ---- */

void layout__compute_holes(struct layout_type *t)
{
	int64_t cur_bitfield_end = (int64_t)t->size * 8, cur_bitfield_size = 0;
	int64_t last_seen_bit = 0;
	bool in_bitfield = false;
	struct layout_member *last = NULL;

	t->pre_hole = t->pre_bit_hole = 0;
	t->nr_holes = t->nr_bit_holes = t->sum_holes = t->sum_bit_holes = 0;
	t->padding = t->bit_padding = 0;
	for (uint32_t i = 0; i < t->nr_members; i++)
		t->members[i].hole = t->members[i].bit_hole = 0;
	if (t->kind == LAYOUT_UNION || t->kind == LAYOUT_ENUM)
		return;

	for (uint32_t i = 0; i < t->nr_members; i++) {
		struct layout_member *pos = &t->members[i];
		int64_t bit_start = (int64_t)pos->offset * 8 + (pos->bit_size ? pos->bit_offset : 0);
		int64_t bit_end = bit_start + (pos->bit_size ? pos->bit_size : (int64_t)pos->size * 8);
		int64_t bit_holes = 0, byte_holes = 0;

		if (in_bitfield) {
			int64_t bitfield_end = bit_start < cur_bitfield_end ? bit_start : cur_bitfield_end;

			bit_holes = bitfield_end - last_seen_bit;
			last_seen_bit = bitfield_end;
		}
		if (pos->bit_size) {
			int64_t aligned_start = (int64_t)pos->offset * 8;

			if (last_seen_bit < aligned_start && aligned_start <= bit_start) {
				byte_holes = (int64_t)pos->offset - last_seen_bit / 8;
				last_seen_bit = aligned_start;
			}
			bit_holes += bit_start - last_seen_bit;
		} else {
			byte_holes = bit_start / 8 - last_seen_bit / 8;
		}
		last_seen_bit = bit_end;

		if (pos->bit_size) {
			int64_t unit = (int64_t)pos->size * 8;

			in_bitfield = true;
			if (bit_end > cur_bitfield_end || unit > cur_bitfield_size) {
				cur_bitfield_size = unit;
				cur_bitfield_end = (int64_t)pos->offset * 8 + cur_bitfield_size;
				if (bit_end > cur_bitfield_end)
					cur_bitfield_end += cur_bitfield_size;
			}
		} else {
			in_bitfield = false;
			cur_bitfield_size = 0;
			cur_bitfield_end = bit_end;
		}

		if (last) {
			last->hole = (uint32_t)byte_holes;
			last->bit_hole = (uint32_t)bit_holes;
		} else {
			t->pre_hole = (uint32_t)byte_holes;
			t->pre_bit_hole = (uint32_t)bit_holes;
		}
		if (bit_holes) {
			t->nr_bit_holes++;
			t->sum_bit_holes += (uint32_t)bit_holes;
		}
		if (byte_holes) {
			t->nr_holes++;
			t->sum_holes += (uint32_t)byte_holes;
		}
		last = pos;
	}
	if (in_bitfield) {
		int64_t end = (int64_t)t->size * 8 < cur_bitfield_end ? (int64_t)t->size * 8 :
									  cur_bitfield_end;

		t->bit_padding = (uint32_t)(end - last_seen_bit);
		last_seen_bit = end;
	}
	t->padding = (uint32_t)((int64_t)t->size - last_seen_bit / 8);
}

void layout__infer_packed(struct layout_type *t, const uint32_t *natural)
{
	uint32_t max_natural = 1;

	if (t->kind == LAYOUT_UNION) {
		/* A struct in a union whose size breaks the struct's alignment must be packed. */
		for (uint32_t i = 0; i < t->nr_members; i++) {
			struct layout_member *m = &t->members[i];

			if (m->inline_type && m->type && m->type->kind != LAYOUT_UNION &&
			    m->type->kind != LAYOUT_ENUM && natural[i] && t->size % natural[i])
				m->type->packed = true;
		}
		return;
	}
	if (t->kind == LAYOUT_ENUM)
		return;
	t->packed = false;
	if (t->padding || t->nr_holes) {
		/* Structs placed at offsets unnatural for them must be packed themselves. */
		for (uint32_t i = 0; i < t->nr_members; i++) {
			struct layout_member *m = &t->members[i];

			if (m->inline_type && m->type && m->type->kind != LAYOUT_UNION &&
			    m->type->kind != LAYOUT_ENUM && m->nr_elems == 1 && natural[i] &&
			    m->offset % natural[i])
				m->type->packed = true;
		}
		return;
	}
	for (uint32_t i = 0; i < t->nr_members; i++) {
		uint32_t a = natural[i] ? natural[i] : 1;

		if (a == 1)
			continue;
		if (max_natural < a)
			max_natural = a;
		if (t->members[i].offset % a) {
			t->packed = true;
			return;
		}
	}
	if ((max_natural != 1 && t->forced_align == 1) || t->size % max_natural)
		t->packed = true;
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

/* ---- lookups ---- */

int layout__member_at(const struct layout_type *type, uint64_t offset,
		      const struct layout_member **path, int max)
{
	int depth = 0;
	uint64_t base = 0;

	while (type && depth < max) {
		const struct layout_member *hit = NULL;

		for (uint32_t i = 0; i < type->nr_members; i++) {
			const struct layout_member *m = &type->members[i];
			uint64_t start = base + m->offset;

			if (offset >= start && offset < start + (m->size ? m->size : 1) &&
			    (m->size || offset == start)) {
				hit = m;
				if (type->kind != LAYOUT_UNION || m->type)
					break;
			}
		}
		if (!hit)
			break;
		path[depth++] = hit;
		if (!hit->type || hit->type->kind == LAYOUT_ENUM)
			break;
		base += hit->offset;
		if (hit->nr_elems > 1 && hit->elem_size)
			base += (offset - base) / hit->elem_size * hit->elem_size;
		type = hit->type;
	}
	return depth;
}

const struct layout_member *layout__find_member(const struct layout_type *type, const char *name)
{
	for (uint32_t i = 0; i < type->nr_members; i++) {
		const struct layout_member *m = &type->members[i];

		if (m->name && !strcmp(m->name, name))
			return m;
		if (!m->name && m->type && m->type->kind != LAYOUT_ENUM) {
			const struct layout_member *r = layout__find_member(m->type, name);

			if (r)
				return r;
		}
	}
	return NULL;
}

/* ---- pahole's stdio format ---- */

static const char tabs[] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";

struct pctx {
	const struct layout_print_opts *o;
	FILE *fp;
	uint32_t line;
	uint32_t *cachelinep;
	bool has_align_info;
};

static int put_tabs(struct pctx *c, int n)
{
	if (n > (int)sizeof(tabs) - 1)
		n = sizeof(tabs) - 1;
	if (n > 0)
		fwrite(tabs, 1, n, c->fp);
	return n > 0 ? n : 0;
}

static int print_cacheline_boundary(struct pctx *c, uint64_t offset, int indent)
{
	uint32_t cl = (uint32_t)(offset / c->line);
	int printed = 0;

	if (cl > *c->cachelinep) {
		uint32_t pos = (uint32_t)(offset % c->line);
		uint64_t in_bytes = offset - pos;

		if (!pos)
			printed += fprintf(c->fp, "/* --- cacheline %u boundary (%llu bytes) --- */\n",
					   cl, (unsigned long long)in_bytes);
		else
			printed += fprintf(c->fp,
					   "/* --- cacheline %u boundary (%llu bytes) was %u byte%s ago --- */\n",
					   cl, (unsigned long long)in_bytes, pos, pos > 1 ? "s" : "");
		printed += put_tabs(c, indent);
		*c->cachelinep = cl;
	}
	return printed;
}

static int print_struct(struct pctx *c, const struct layout_type *t, int indent, int ts, int ns,
			const char *suffix, uint64_t base, bool stats);
static int print_union(struct pctx *c, const struct layout_type *t, int indent, int ts, int ns,
		       const char *suffix, uint64_t base, bool stats);

static int print_enum(struct pctx *c, const struct layout_type *t, int indent, const char *suffix)
{
	int printed = fprintf(c->fp, "enum%s%s", t->name ? " " : "", t->name ? t->name : "");
	int maxlen = 0;

	if (!t->nr_members)
		return printed;
	printed += fprintf(c->fp, " {\n");
	for (uint32_t i = 0; i < t->nr_members; i++) {
		int l = (int)strlen(t->members[i].name);

		if (l > maxlen)
			maxlen = l;
	}
	for (uint32_t i = 0; i < t->nr_members; i++) {
		const struct layout_member *e = &t->members[i];

		printed += put_tabs(c, indent);
		printed += fprintf(c->fp, "\t%-*s = ", maxlen, e->name);
		if (t->signed_enum)
			printed += fprintf(c->fp, "%lld", (long long)e->offset);
		else
			printed += fprintf(c->fp, "%llu", (unsigned long long)e->offset);
		printed += fprintf(c->fp, ",\n");
	}
	printed += put_tabs(c, indent);
	printed += fprintf(c->fp, "}");
	if (t->size != 4)
		printed += fprintf(c->fp, " __attribute__((__packed__))");
	if (suffix)
		printed += fprintf(c->fp, " %s", suffix);
	return printed;
}

/* An inline type (anonymous struct/union/enum, or any with --expand), with @suffix after '}'. */
static int print_inline(struct pctx *c, const struct layout_type *t, int indent, int ts, int ns,
			const char *suffix, uint64_t base, bool stats)
{
	switch (t->kind) {
	case LAYOUT_UNION:
		return print_union(c, t, indent, ts - 8, ns, suffix, base, stats);
	case LAYOUT_ENUM:
		return print_enum(c, t, indent, suffix);
	default:
		return print_struct(c, t, indent, ts - 8, ns, suffix, base, stats);
	}
}

static bool member_prints_inline(const struct pctx *c, const struct layout_member *m)
{
	return m->type && (m->inline_type || c->o->expand);
}

/*
 * One member, from its type to the offset/size comment (pahole's class_member__fprintf); the
 * caller has printed the indentation.  Returns the characters printed, not counting a cache-line
 * boundary comment, as pahole counts them.
 */
static int print_member(struct pctx *c, const struct layout_member *m, bool union_member,
			int indent, int ts, int ns, uint64_t base, bool stats)
{
	uint64_t offset = m->offset + base;
	uint64_t child_base = union_member ? base : offset;
	int printed = 0, align_printed = 0;
	bool inl = member_prints_inline(c, m);
	/* struct/union/enum itself (not an array of, nor a pointer to, one) */
	bool whole = inl && !m->decl_suffix[0] && !m->decl_prefix[0];

	print_cacheline_boundary(c, offset, indent);
	if (m->ancestor)
		printed += fprintf(c->fp, "/* ");
	if (m->typedef_note)
		printed += fprintf(c->fp, "%s", m->typedef_note);

	if (whole && m->typedef_note) {
		/* --expand through a typedef: pahole names the member after the '}' */
		printed += print_inline(c, m->type, indent, ts, ns, m->name, child_base, false);
		whole = false;
	} else if (whole && strncmp(m->type_name, "struct", 6) &&
		   strncmp(m->type_name, "union", 5) && strncmp(m->type_name, "enum", 4) &&
		   strncmp(m->type_name, "class", 5)) {
		/*
		 * A qualified inline type ("const struct { ... }"): pahole prints the qualifier,
		 * then the type with its statistics, loses the member name, and comments it like
		 * a plain member.
		 */
		const char *kw = strstr(m->type_name, m->type->kind == LAYOUT_UNION ? "union" :
						      m->type->kind == LAYOUT_ENUM ? "enum" :
						      m->type->kind == LAYOUT_CLASS ? "class" : "struct");
		int plen = kw ? (int)(kw - m->type_name) : 0;

		printed += fprintf(c->fp, "%.*s", plen, m->type_name);
		printed += print_inline(c, m->type, indent, ts - plen, ns, NULL, child_base, stats);
		whole = false;
	} else if (whole) {
		printed += print_inline(c, m->type, indent, ts, ns, NULL, child_base, false);
		if (m->name) {
			if (!m->type->name)
				printed += fprintf(c->fp, " ");
			printed += fprintf(c->fp, "%s", m->name);
		}
		/* a named type shown inline (--expand) is commented like a plain member */
		whole = !m->type->name;
	} else if (inl) {
		/* array of, or pointer to, an inline type: "struct { ... } name[N]" */
		char *sfx = xasprintf("%s%s", m->decl_prefix, m->name ? m->name : "");
		bool ptr = m->decl_prefix[0] != '\0';

		printed += print_inline(c, m->type, indent, ptr ? ts - 8 : ts, ns, sfx,
					ptr ? 0 : child_base, false);
		free(sfx);
		printed += fprintf(c->fp, "%s", m->decl_suffix);
	} else {
		int split = (int)m->pad_from;

		printed += fprintf(c->fp, "%.*s%-*s %s%s%s", split, m->type_name, ts - split,
				   m->type_name + split, m->decl_prefix, m->name ? m->name : "",
				   m->decl_suffix);
	}
	if (m->bit_size)
		printed += fprintf(c->fp, ":%u", m->bit_size);
	if (m->forced_align) {
		align_printed = fprintf(c->fp, " __attribute__((__aligned__(%u)))", m->forced_align);
		printed += align_printed;
	}
	fputc(';', c->fp);
	printed++;

	if (whole) {
		int slen = align_printed + (m->name ? (int)strlen(m->name) : -1);
		int size_spacing = 5;

		if (m->type->kind != LAYOUT_UNION && m->type->kind != LAYOUT_ENUM && m->type->packed)
			slen += (int)sizeof("__attribute__((__packed__))");
		printed += fprintf(c->fp, "%*s/* %5llu", ts + ns - slen - 3, " ",
				   (unsigned long long)offset);
		if (m->bit_size) {
			printed += fprintf(c->fp, ":%2u", m->bit_offset);
			size_spacing -= 3;
		}
		printed += fprintf(c->fp, " %*llu */", size_spacing, (unsigned long long)m->size);
	} else {
		int spacing = ts + ns - printed;
		int size_spacing = 5;

		if (m->ancestor) {
			fputs(" */", c->fp);
			printed += 3;
			spacing -= 3;
		}

		printed += fprintf(c->fp, "%*s/* %5llu", spacing > 0 ? spacing : 0, " ",
				   (unsigned long long)offset);
		if (m->bit_size) {
			printed += fprintf(c->fp, ":%2u", m->bit_offset);
			size_spacing -= 3;
		}
		printed += fprintf(c->fp, " %*llu */", size_spacing, (unsigned long long)m->size);
	}
	return printed;
}

static int print_union(struct pctx *c, const struct layout_type *t, int indent, int ts, int ns,
		       const char *suffix, uint64_t base, bool stats)
{
	int printed = fprintf(c->fp, "union%s%s {\n", t->name ? " " : "", t->name ? t->name : "");
	uint32_t initial = *c->cachelinep;

	for (uint32_t i = 0; i < t->nr_members; i++) {
		printed += put_tabs(c, indent + 1);
		printed += print_member(c, &t->members[i], true, indent + 1, ts, ns, base, stats);
		fputc('\n', c->fp);
		printed++;
		*c->cachelinep = initial;
	}
	printed += put_tabs(c, indent);
	printed += fprintf(c->fp, "}%s%s", suffix ? " " : "", suffix ? suffix : "");
	return printed;
}

static bool is_power_of_2(uint64_t n)
{
	return n && !(n & (n - 1));
}

static int print_struct(struct pctx *c, const struct layout_type *t, int indent, int ts, int ns,
			const char *suffix, uint64_t base, bool stats)
{
	FILE *fp = c->fp;
	int ci = indent + 1, newline = 0;
	int printed = fprintf(fp, "%s%s%s {\n", t->kind == LAYOUT_CLASS ? "class" : "struct",
			      t->name ? " " : "", t->name ? t->name : "");
	uint32_t nr_forced = 0, nr_forced_holes = 0, sum_forced_holes = 0;
	uint32_t sum_bytes = 0, sum_bits = 0, sum_holes = 0, sum_bit_holes = 0;
	uint32_t nr_paddings = 0, sum_paddings = 0;
	const struct layout_member *last = NULL;
	uint64_t last_size = 0;

	if (t->pre_bit_hole) {
		if (!newline++)
			printed += fprintf(fp, "\n");
		printed += put_tabs(c, ci);
		printed += fprintf(fp, "/* XXX %u bit%s hole, try to pack */\n", t->pre_bit_hole,
				   t->pre_bit_hole != 1 ? "s" : "");
		sum_bit_holes += t->pre_bit_hole;
	}
	if (t->pre_hole) {
		if (!newline++)
			printed += fprintf(fp, "\n");
		printed += put_tabs(c, ci);
		printed += fprintf(fp, "/* XXX %u byte%s hole, try to pack */\n", t->pre_hole,
				   t->pre_hole != 1 ? "s" : "");
		sum_holes += t->pre_hole;
	}

	uint32_t nest = 0;

	for (uint32_t i = 0; i <= t->nr_members; i++) {
		for (; nest < t->nr_nested && t->nested[nest].before <= i; nest++) {
			const struct layout_type *nt = t->nested[nest].type;

			/* pahole prints them with the enclosing struct's settings, suffix included */
			printed += put_tabs(c, ci);
			if (nt->kind == LAYOUT_UNION)
				printed += print_union(c, nt, ci, ts, ns, suffix, base, stats);
			else if (nt->kind == LAYOUT_ENUM)
				printed += print_enum(c, nt, ci, suffix);
			else
				printed += print_struct(c, nt, ci, ts, ns, suffix, base, stats);
			printed += fprintf(fp, ";\n\n");
		}
		if (i == t->nr_members)
			break;
		const struct layout_member *pos = &t->members[i];

		if (pos->forced_align) {
			uint32_t fh = last ? last->hole : t->pre_hole;

			if (fh) {
				nr_forced_holes++;
				sum_forced_holes += fh;
			}
			nr_forced++;
		}
		if (last && last_size) {
			if (last->bit_hole && pos->bit_size) {
				uint32_t bits = last->bit_hole;

				if (last->offset != pos->offset) {
					printed += fprintf(fp, "\n");
					printed += put_tabs(c, ci);
					printed += fprintf(fp,
						"/* Force alignment to the next boundary: */\n");
					bits = 0;
				}
				printed += put_tabs(c, ci);
				if (pos->typedef_note)
					printed += fprintf(fp, "%s", pos->typedef_note);
				printed += fprintf(fp, "%.*s%-*s %s:%u;\n", (int)pos->pad_from,
						   pos->type_name, ts - (int)pos->pad_from,
						   pos->type_name + pos->pad_from, "", bits);
			}
			if (pos->offset < last->offset ||
			    (pos->offset == last->offset && !last->bit_size && pos->bit_size)) {
				if (!newline++)
					printed += fprintf(fp, "\n");
				printed += put_tabs(c, ci);
				printed += fprintf(fp, "/* Bitfield combined with previous fields */\n");
			} else {
				int64_t cc = (int64_t)pos->offset - (int64_t)last->offset;

				if (cc > 0 && (uint64_t)cc < last_size) {
					if (!newline++)
						printed += fprintf(fp, "\n");
					printed += put_tabs(c, ci);
					printed += fprintf(fp,
						"/* Bitfield combined with next fields */\n");
				}
			}
		}
		if (newline) {
			fputc('\n', fp);
			newline = 0;
			printed++;
		}
		printed += put_tabs(c, ci);
		printed += print_member(c, pos, false, ci, ts, ns, base, stats);
		if (pos->type_padding) {
			nr_paddings++;
			sum_paddings += pos->type_padding;
			if (!newline++)
				printed += fprintf(fp, "\n");
			printed += fprintf(fp, "\n");
			printed += put_tabs(c, ci);
			printed += fprintf(fp, "/* XXX last struct has %u byte%s of padding */",
					   pos->type_padding, pos->type_padding != 1 ? "s" : "");
		}
		if (pos->bit_hole) {
			if (!newline++)
				printed += fprintf(fp, "\n");
			printed += fprintf(fp, "\n");
			printed += put_tabs(c, ci);
			printed += fprintf(fp, "/* XXX %u bit%s hole, try to pack */", pos->bit_hole,
					   pos->bit_hole != 1 ? "s" : "");
			sum_bit_holes += pos->bit_hole;
		}
		if (pos->hole) {
			if (!newline++)
				printed += fprintf(fp, "\n");
			printed += fprintf(fp, "\n");
			printed += put_tabs(c, ci);
			printed += fprintf(fp, "/* XXX %u byte%s hole, try to pack */", pos->hole,
					   pos->hole != 1 ? "s" : "");
			sum_holes += pos->hole;
		}
		fputc('\n', fp);
		printed++;

		if (pos->bit_size)
			sum_bits += pos->bit_size;
		else
			sum_bytes += (uint32_t)pos->size;
		if (!last || !last_size || last->offset != pos->offset)
			last_size = pos->size;
		else if (!last->bit_size && pos->bit_size)
			last_size = pos->size;
		last = pos;
	}

	/* pahole shows tail padding it cannot explain by an alignment as explicit filler */
	if (t->padding && !t->forced_align && c->has_align_info && last) {
		uint64_t size = last->size;

		/* (hostile DWARF can claim gigabytes of padding: bound the filler lines) */
		if (is_power_of_2(size) && t->padding > c->o->addr_size &&
		    t->padding / size <= 65536) {
			printed += fprintf(fp, "\n");
			printed += put_tabs(c, ci);
			printed += fprintf(fp, "/* Force padding: */\n");
			for (uint64_t added = 0; added < t->padding; added += size) {
				printed += put_tabs(c, ci);
				if (last->typedef_note)
					printed += fprintf(fp, "%s", last->typedef_note);
				printed += fprintf(fp, "%.*s%-*s %s%s:%llu;\n", (int)last->pad_from,
						   last->type_name, ts - (int)last->pad_from,
						   last->type_name + last->pad_from, "",
						   last->decl_suffix, (unsigned long long)size * 8);
			}
		}
	}

	if (stats) {
		printed += fprintf(fp, "\n");
		printed += put_tabs(c, ci);
		printed += fprintf(fp, "/* size: %llu, cachelines: %llu, members: %u */\n",
				   (unsigned long long)t->size,
				   (unsigned long long)((t->size + c->line - 1) / c->line),
				   t->nr_members);
		if (sum_holes || sum_bit_holes) {
			if (sum_bytes) {
				printed += put_tabs(c, ci);
				printed += fprintf(fp, "/* sum members: %u", sum_bytes);
				if (sum_holes)
					printed += fprintf(fp, ", holes: %u, sum holes: %u",
							   t->nr_holes, sum_holes);
				printed += fprintf(fp, " */\n");
			}
			if (sum_bits) {
				printed += put_tabs(c, ci);
				printed += fprintf(fp, "/* sum bitfield members: %u bits", sum_bits);
				if (sum_bit_holes)
					printed += fprintf(fp,
							   ", bit holes: %u, sum bit holes: %u bits",
							   t->nr_bit_holes, sum_bit_holes);
				else
					printed += fprintf(fp, " (%u bytes)", sum_bits / 8);
				printed += fprintf(fp, " */\n");
			}
		}
		if (t->padding) {
			printed += put_tabs(c, ci);
			printed += fprintf(fp, "/* padding: %u */\n", t->padding);
		}
		if (nr_paddings) {
			printed += put_tabs(c, ci);
			printed += fprintf(fp, "/* paddings: %u, sum paddings: %u */\n", nr_paddings,
					   sum_paddings);
		}
		if (t->bit_padding) {
			printed += put_tabs(c, ci);
			printed += fprintf(fp, "/* bit_padding: %u bits */\n", t->bit_padding);
		}
		if (nr_forced) {
			printed += put_tabs(c, ci);
			printed += fprintf(fp, "/* forced alignments: %u", nr_forced);
			if (nr_forced_holes)
				printed += fprintf(fp, ", forced holes: %u, sum forced holes: %u",
						   nr_forced_holes, sum_forced_holes);
			printed += fprintf(fp, " */\n");
		}
		uint32_t lastcl = (uint32_t)((base + t->size) % c->line);

		if (lastcl) {
			printed += put_tabs(c, ci);
			printed += fprintf(fp, "/* last cacheline: %u bytes */\n", lastcl);
		}
		int64_t diff = (int64_t)t->size * 8 -
			       ((int64_t)sum_bytes * 8 + sum_bits + (int64_t)sum_holes * 8 +
				sum_bit_holes + (int64_t)t->padding * 8 + t->bit_padding);

		if (diff && t->nr_members) {
			printed += fprintf(fp, "\n");
			printed += put_tabs(c, ci);
			/* pahole's own name for sizes that do not add up */
			printed += fprintf(fp,
				"/* BRAIN FART ALERT! %llu bytes != %u (member bytes) + %u (member bits) "
				"+ %u (byte holes) + %u (bit holes), diff = %lld bits */\n",
				(unsigned long long)t->size, sum_bytes, sum_bits, sum_holes,
				sum_bit_holes, (long long)diff);
		}
	}
	printed += put_tabs(c, indent);
	printed += fprintf(fp, "}");
	if (t->packed)
		printed += fprintf(fp, " __attribute__((__packed__))");
	if (suffix)
		printed += fprintf(fp, " %s", suffix);
	if (t->forced_align && !t->packed)
		printed += fprintf(fp, " __attribute__((__aligned__(%u)))", t->forced_align);
	return printed;
}

void layout__fprintf(const struct layout_type *type, const struct layout_print_opts *opts,
		     FILE *fp)
{
	uint32_t cacheline = 0;
	struct pctx c = {
		.o = opts,
		.fp = fp,
		.line = (opts->line_size ? opts->line_size : 64) * (opts->double_cl ? 2 : 1),
		.cachelinep = &cacheline,
		.has_align_info = !opts->no_forced_align,
	};

	/* pahole's name column: 23, 21 for a union, 55 when expanding types */
	if (type->kind == LAYOUT_UNION)
		print_union(&c, type, 0, 26, opts->expand ? 55 : 21, NULL, 0, true);
	else if (type->kind == LAYOUT_ENUM)
		print_enum(&c, type, 0, NULL);
	else
		print_struct(&c, type, 0, 26, opts->expand ? 55 : 23, NULL, 0, true);
	fputs(";\n", fp);
}

/* ---- JSON ---- */

static void json_str(FILE *fp, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	if (!s) {
		fputs("null", fp);
		return;
	}
	strbuf__add_json(&sb, s);
	fprintf(fp, "\"%s\"", sb.buf ? sb.buf : "");
	strbuf__release(&sb);
}

static const char *kind_name(enum layout_kind k)
{
	switch (k) {
	case LAYOUT_UNION:
		return "union";
	case LAYOUT_CLASS:
		return "class";
	case LAYOUT_ENUM:
		return "enum";
	default:
		return "struct";
	}
}

static void json_type(const struct layout_type *t, unsigned int line, uint64_t base, FILE *fp)
{
	fprintf(fp, "{\"kind\":\"%s\",\"name\":", kind_name(t->kind));
	json_str(fp, t->name);
	fprintf(fp, ",\"size\":%llu,\"align\":%u,\"packed\":%s,\"cachelines\":%llu",
		(unsigned long long)t->size, t->align, t->packed ? "true" : "false",
		(unsigned long long)((t->size + line - 1) / line));
	fprintf(fp, ",\"holes\":%u,\"sum_holes\":%u,\"bit_holes\":%u,\"sum_bit_holes\":%u"
		    ",\"padding\":%u,\"bit_padding\":%u,\"members\":[",
		t->nr_holes, t->sum_holes, t->nr_bit_holes, t->sum_bit_holes, t->padding,
		t->bit_padding);
	for (uint32_t i = 0; i < t->nr_members; i++) {
		const struct layout_member *m = &t->members[i];

		if (i)
			fputc(',', fp);
		fputs("{\"name\":", fp);
		json_str(fp, m->name);
		if (t->kind == LAYOUT_ENUM) {
			fprintf(fp, ",\"value\":%lld}", (long long)m->offset);
			continue;
		}
		char *decl = xasprintf("%s%s%s", m->type_name, m->decl_prefix[0] ? " " : "",
				       m->decl_suffix);

		fputs(",\"type\":", fp);
		json_str(fp, decl);
		free(decl);
		fprintf(fp, ",\"offset\":%llu,\"size\":%llu,\"align\":%u,\"cacheline\":%llu",
			(unsigned long long)(base + m->offset), (unsigned long long)m->size, m->align,
			(unsigned long long)((base + m->offset) / line));
		if (m->bit_size)
			fprintf(fp, ",\"bit_offset\":%u,\"bit_size\":%u", m->bit_offset, m->bit_size);
		if (m->nr_elems != 1)
			fprintf(fp, ",\"elements\":%llu,\"element_size\":%llu",
				(unsigned long long)m->nr_elems, (unsigned long long)m->elem_size);
		if (m->hole)
			fprintf(fp, ",\"hole\":%u", m->hole);
		if (m->bit_hole)
			fprintf(fp, ",\"bit_hole\":%u", m->bit_hole);
		if (m->type) {
			fputs(",\"layout\":", fp);
			json_type(m->type, line, base + m->offset, fp);
		}
		fputc('}', fp);
	}
	fputs("]}", fp);
}

void layout__fprintf_json(const struct layout_type *type, const struct layout_print_opts *opts,
			  FILE *fp)
{
	unsigned int line = (opts->line_size ? opts->line_size : 64) * (opts->double_cl ? 2 : 1);

	json_type(type, line, 0, fp);
}
