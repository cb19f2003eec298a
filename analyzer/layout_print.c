// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The layout model's printers: pahole's text format and JSON, into a strbuf.  The text format
 * reproduces pahole's (dwarves_fprintf.c, pahole 1.24) character for character, so that the two
 * can be diffed: same column arithmetic, same comments, same quirks.  The annotation hooks
 * (struct layout_annotate) only ever add text at the end of a member's or a cache-line
 * boundary's line, so that without them the text is pahole's.
 */
#include <config.h>

#include "analyzer/layout.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- pahole's stdio format ---- */

static const char tabs[] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";

struct pctx {
	const struct layout_print_opts *o;
	const struct layout_annotate *an;
	struct strbuf *sb;
	uint32_t line;
	uint32_t *cachelinep;
	bool has_align_info;
};

/* Append, returning the characters appended (pahole's column arithmetic counts them). */
static int __attribute__((format(printf, 2, 3))) out(struct pctx *c, const char *fmt, ...)
{
	size_t before = c->sb->len;
	va_list ap;

	va_start(ap, fmt);
	strbuf__vaddf(c->sb, fmt, ap);
	va_end(ap);
	return (int)(c->sb->len - before);
}

static int put_tabs(struct pctx *c, int n)
{
	if (n > (int)sizeof(tabs) - 1)
		n = sizeof(tabs) - 1;
	if (n > 0)
		strbuf__add(c->sb, tabs, (size_t)n);
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
			printed += out(c, "/* --- cacheline %u boundary (%llu bytes) --- */", cl,
				       (unsigned long long)in_bytes);
		else
			printed += out(c,
				       "/* --- cacheline %u boundary (%llu bytes) was %u byte%s ago --- */",
				       cl, (unsigned long long)in_bytes, pos, pos > 1 ? "s" : "");
		if (c->an && c->an->cacheline)
			c->an->cacheline(c->an->ctx, cl, in_bytes, c->sb);
		printed += out(c, "\n");
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
	int printed = out(c, "enum%s%s", t->name ? " " : "", t->name ? t->name : "");
	int maxlen = 0;

	if (!t->nr_members)
		return printed;
	printed += out(c, " {\n");
	for (uint32_t i = 0; i < t->nr_members; i++) {
		int l = (int)strlen(t->members[i].name);

		if (l > maxlen)
			maxlen = l;
	}
	for (uint32_t i = 0; i < t->nr_members; i++) {
		const struct layout_member *e = &t->members[i];

		printed += put_tabs(c, indent);
		printed += out(c, "\t%-*s = ", maxlen, e->name);
		if (t->signed_enum)
			printed += out(c, "%lld", (long long)e->offset);
		else
			printed += out(c, "%llu", (unsigned long long)e->offset);
		printed += out(c, ",\n");
	}
	printed += put_tabs(c, indent);
	printed += out(c, "}");
	if (t->size != 4)
		printed += out(c, " __attribute__((__packed__))");
	if (suffix)
		printed += out(c, " %s", suffix);
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
		printed += out(c, "/* ");
	if (m->typedef_note)
		printed += out(c, "%s", m->typedef_note);

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

		printed += out(c, "%.*s", plen, m->type_name);
		printed += print_inline(c, m->type, indent, ts - plen, ns, NULL, child_base, stats);
		whole = false;
	} else if (whole) {
		printed += print_inline(c, m->type, indent, ts, ns, NULL, child_base, false);
		if (m->name) {
			if (!m->type->name)
				printed += out(c, " ");
			printed += out(c, "%s", m->name);
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
		printed += out(c, "%s", m->decl_suffix);
	} else {
		int split = (int)m->pad_from;

		printed += out(c, "%.*s%-*s %s%s%s", split, m->type_name, ts - split,
				   m->type_name + split, m->decl_prefix, m->name ? m->name : "",
				   m->decl_suffix);
	}
	if (m->bit_size)
		printed += out(c, ":%u", m->bit_size);
	if (m->forced_align) {
		align_printed = out(c, " __attribute__((__aligned__(%u)))", m->forced_align);
		printed += align_printed;
	}
	out(c, ";");
	printed++;

	if (whole) {
		int slen = align_printed + (m->name ? (int)strlen(m->name) : -1);
		int size_spacing = 5;

		if (m->type->kind != LAYOUT_UNION && m->type->kind != LAYOUT_ENUM && m->type->packed)
			slen += (int)sizeof("__attribute__((__packed__))");
		printed += out(c, "%*s/* %5llu", ts + ns - slen - 3, " ",
				   (unsigned long long)offset);
		if (m->bit_size) {
			printed += out(c, ":%2u", m->bit_offset);
			size_spacing -= 3;
		}
		printed += out(c, " %*llu */", size_spacing, (unsigned long long)m->size);
	} else {
		int spacing = ts + ns - printed;
		int size_spacing = 5;

		if (m->ancestor) {
			out(c, " */");
			printed += 3;
			spacing -= 3;
		}

		printed += out(c, "%*s/* %5llu", spacing > 0 ? spacing : 0, " ",
				   (unsigned long long)offset);
		if (m->bit_size) {
			printed += out(c, ":%2u", m->bit_offset);
			size_spacing -= 3;
		}
		printed += out(c, " %*llu */", size_spacing, (unsigned long long)m->size);
	}
	/* after pahole's text, and not counted: no column depends on it */
	if (c->an && c->an->member)
		c->an->member(c->an->ctx, m, offset, indent - 1, c->sb);
	return printed;
}

static int print_union(struct pctx *c, const struct layout_type *t, int indent, int ts, int ns,
		       const char *suffix, uint64_t base, bool stats)
{
	int printed = out(c, "union%s%s {\n", t->name ? " " : "", t->name ? t->name : "");
	uint32_t initial = *c->cachelinep;

	for (uint32_t i = 0; i < t->nr_members; i++) {
		printed += put_tabs(c, indent + 1);
		printed += print_member(c, &t->members[i], true, indent + 1, ts, ns, base, stats);
		out(c, "\n");
		printed++;
		*c->cachelinep = initial;
	}
	printed += put_tabs(c, indent);
	printed += out(c, "}%s%s", suffix ? " " : "", suffix ? suffix : "");
	return printed;
}

static bool is_power_of_2(uint64_t n)
{
	return n && !(n & (n - 1));
}

static int print_struct(struct pctx *c, const struct layout_type *t, int indent, int ts, int ns,
			const char *suffix, uint64_t base, bool stats)
{
	int ci = indent + 1, newline = 0;
	int printed = out(c, "%s%s%s {\n", t->kind == LAYOUT_CLASS ? "class" : "struct",
			      t->name ? " " : "", t->name ? t->name : "");
	uint32_t nr_forced = 0, nr_forced_holes = 0, sum_forced_holes = 0;
	uint32_t sum_bytes = 0, sum_bits = 0, sum_holes = 0, sum_bit_holes = 0;
	uint32_t nr_paddings = 0, sum_paddings = 0;
	const struct layout_member *last = NULL;
	uint64_t last_size = 0;

	if (t->pre_bit_hole) {
		if (!newline++)
			printed += out(c, "\n");
		printed += put_tabs(c, ci);
		printed += out(c, "/* XXX %u bit%s hole, try to pack */\n", t->pre_bit_hole,
				   t->pre_bit_hole != 1 ? "s" : "");
		sum_bit_holes += t->pre_bit_hole;
	}
	if (t->pre_hole) {
		if (!newline++)
			printed += out(c, "\n");
		printed += put_tabs(c, ci);
		printed += out(c, "/* XXX %u byte%s hole, try to pack */\n", t->pre_hole,
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
			printed += out(c, ";\n\n");
		}
		if (i == t->nr_members)
			break;
		const struct layout_member *pos = &t->members[i];

		if (pos->zero_width) {
			/* only in a built layout (debug info has no member for it) */
			printed += put_tabs(c, ci);
			printed += out(c, "%.*s%-*s :0;\n", (int)pos->pad_from, pos->type_name,
				       ts - (int)pos->pad_from, pos->type_name + pos->pad_from);
			continue;
		}

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
					printed += out(c, "\n");
					printed += put_tabs(c, ci);
					printed += out(c,
						"/* Force alignment to the next boundary: */\n");
					bits = 0;
				}
				printed += put_tabs(c, ci);
				if (pos->typedef_note)
					printed += out(c, "%s", pos->typedef_note);
				printed += out(c, "%.*s%-*s %s:%u;\n", (int)pos->pad_from,
						   pos->type_name, ts - (int)pos->pad_from,
						   pos->type_name + pos->pad_from, "", bits);
			}
			if (pos->offset < last->offset ||
			    (pos->offset == last->offset && !last->bit_size && pos->bit_size)) {
				if (!newline++)
					printed += out(c, "\n");
				printed += put_tabs(c, ci);
				printed += out(c, "/* Bitfield combined with previous fields */\n");
			} else {
				int64_t cc = (int64_t)pos->offset - (int64_t)last->offset;

				if (cc > 0 && (uint64_t)cc < last_size) {
					if (!newline++)
						printed += out(c, "\n");
					printed += put_tabs(c, ci);
					printed += out(c,
						"/* Bitfield combined with next fields */\n");
				}
			}
		}
		if (newline) {
			out(c, "\n");
			newline = 0;
			printed++;
		}
		printed += put_tabs(c, ci);
		printed += print_member(c, pos, false, ci, ts, ns, base, stats);
		if (pos->type_padding) {
			nr_paddings++;
			sum_paddings += pos->type_padding;
			if (!newline++)
				printed += out(c, "\n");
			printed += out(c, "\n");
			printed += put_tabs(c, ci);
			printed += out(c, "/* XXX last struct has %u byte%s of padding */",
					   pos->type_padding, pos->type_padding != 1 ? "s" : "");
		}
		if (pos->bit_hole) {
			if (!newline++)
				printed += out(c, "\n");
			printed += out(c, "\n");
			printed += put_tabs(c, ci);
			printed += out(c, "/* XXX %u bit%s hole, try to pack */", pos->bit_hole,
					   pos->bit_hole != 1 ? "s" : "");
			sum_bit_holes += pos->bit_hole;
		}
		if (pos->hole) {
			if (!newline++)
				printed += out(c, "\n");
			printed += out(c, "\n");
			printed += put_tabs(c, ci);
			printed += out(c, "/* XXX %u byte%s hole, try to pack */", pos->hole,
					   pos->hole != 1 ? "s" : "");
			sum_holes += pos->hole;
		}
		out(c, "\n");
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
		const char *dims = last->decl_suffix;
		uint64_t size = last->size;

		/*
		 * pahole fills with the last member's type, an array's too: "int [256]:8192;"
		 * beside 40 bytes of padding.  A layout of lineup's own is C to be read: an
		 * array's element fills it, in units that add up to the padding.
		 */
		if (t->built && last->nr_elems && dims[0] == '[') {
			size = last->elem_size;
			dims = "";
		}
		/* (hostile DWARF can claim gigabytes of padding: bound the filler lines) */
		if (is_power_of_2(size) && t->padding > c->o->addr_size &&
		    t->padding / size <= 65536 && (!t->built || t->padding % size == 0)) {
			printed += out(c, "\n");
			printed += put_tabs(c, ci);
			printed += out(c, "/* Force padding: */\n");
			for (uint64_t added = 0; added < t->padding; added += size) {
				printed += put_tabs(c, ci);
				if (last->typedef_note)
					printed += out(c, "%s", last->typedef_note);
				printed += out(c, "%.*s%-*s %s%s:%llu;\n", (int)last->pad_from,
						   last->type_name, ts - (int)last->pad_from,
						   last->type_name + last->pad_from, "", dims,
						   (unsigned long long)size * 8);
			}
		}
	}

	if (stats) {
		printed += out(c, "\n");
		printed += put_tabs(c, ci);
		printed += out(c, "/* size: %llu, cachelines: %llu, members: %u */\n",
				   (unsigned long long)t->size,
				   (unsigned long long)((t->size + c->line - 1) / c->line),
				   t->nr_members);
		if (sum_holes || sum_bit_holes) {
			if (sum_bytes) {
				printed += put_tabs(c, ci);
				printed += out(c, "/* sum members: %u", sum_bytes);
				if (sum_holes)
					printed += out(c, ", holes: %u, sum holes: %u",
							   t->nr_holes, sum_holes);
				printed += out(c, " */\n");
			}
			if (sum_bits) {
				printed += put_tabs(c, ci);
				printed += out(c, "/* sum bitfield members: %u bits", sum_bits);
				if (sum_bit_holes)
					printed += out(c,
							   ", bit holes: %u, sum bit holes: %u bits",
							   t->nr_bit_holes, sum_bit_holes);
				else
					printed += out(c, " (%u bytes)", sum_bits / 8);
				printed += out(c, " */\n");
			}
		}
		if (t->padding) {
			printed += put_tabs(c, ci);
			printed += out(c, "/* padding: %u */\n", t->padding);
		}
		if (nr_paddings) {
			printed += put_tabs(c, ci);
			printed += out(c, "/* paddings: %u, sum paddings: %u */\n", nr_paddings,
					   sum_paddings);
		}
		if (t->bit_padding) {
			printed += put_tabs(c, ci);
			printed += out(c, "/* bit_padding: %u bits */\n", t->bit_padding);
		}
		if (nr_forced) {
			printed += put_tabs(c, ci);
			printed += out(c, "/* forced alignments: %u", nr_forced);
			if (nr_forced_holes)
				printed += out(c, ", forced holes: %u, sum forced holes: %u",
						   nr_forced_holes, sum_forced_holes);
			printed += out(c, " */\n");
		}
		uint32_t lastcl = (uint32_t)((base + t->size) % c->line);

		if (lastcl) {
			printed += put_tabs(c, ci);
			printed += out(c, "/* last cacheline: %u bytes */\n", lastcl);
		}
		int64_t diff = (int64_t)t->size * 8 -
			       ((int64_t)sum_bytes * 8 + sum_bits + (int64_t)sum_holes * 8 +
				sum_bit_holes + (int64_t)t->padding * 8 + t->bit_padding);

		if (diff && t->nr_members) {
			printed += out(c, "\n");
			printed += put_tabs(c, ci);
			/* pahole's own name for sizes that do not add up */
			printed += out(c,
				"/* BRAIN FART ALERT! %llu bytes != %u (member bytes) + %u (member bits) "
				"+ %u (byte holes) + %u (bit holes), diff = %lld bits */\n",
				(unsigned long long)t->size, sum_bytes, sum_bits, sum_holes,
				sum_bit_holes, (long long)diff);
		}
	}
	printed += put_tabs(c, indent);
	printed += out(c, "}");
	if (t->packed)
		printed += out(c, " __attribute__((__packed__))");
	if (suffix)
		printed += out(c, " %s", suffix);
	if (t->forced_align && !t->packed)
		printed += out(c, " __attribute__((__aligned__(%u)))", t->forced_align);
	return printed;
}

void layout__print(const struct layout_type *type, const struct layout_print_opts *opts,
		   struct strbuf *sb)
{
	uint32_t cacheline = 0;
	struct pctx c = {
		.o = opts,
		.an = opts->annotate,
		.sb = sb,
		.line = (opts->line_size ? opts->line_size : 64) * (opts->double_cl ? 2 : 1),
		.cachelinep = &cacheline,
		.has_align_info = !opts->no_forced_align,
	};

	/* `typedef struct { ... } T;` as pahole prints it (-C T) */
	const char *td = !type->name ? type->typedef_name : NULL;

	if (td)
		out(&c, "typedef ");
	/* pahole's name column: 23, 21 for a union, 55 when expanding types */
	if (type->kind == LAYOUT_UNION)
		print_union(&c, type, 0, 26, opts->expand ? 55 : 21, td, 0, true);
	else if (type->kind == LAYOUT_ENUM)
		print_enum(&c, type, 0, td);
	else
		print_struct(&c, type, 0, 26, opts->expand ? 55 : 23, td, 0, true);
	out(&c, ";\n");
}

/* ---- JSON ---- */

static void json_str(struct strbuf *sb, const char *s)
{
	if (!s) {
		strbuf__add(sb, "null", 4);
		return;
	}
	strbuf__add(sb, "\"", 1);
	strbuf__add_json(sb, s);
	strbuf__add(sb, "\"", 1);
}

static void json_type(const struct layout_type *t, unsigned int line, uint64_t base,
		      struct strbuf *sb)
{
	strbuf__addf(sb, "{\"kind\":\"%s\",\"name\":", layout_kind__name(t->kind));
	json_str(sb, t->name);
	if (t->typedef_name) {
		strbuf__add(sb, ",\"typedef\":", 11);
		json_str(sb, t->typedef_name);
	}
	if (t->decl_file) {
		strbuf__add(sb, ",\"decl_file\":", 13);
		json_str(sb, t->decl_file);
		strbuf__addf(sb, ",\"decl_line\":%u", t->decl_line);
	}
	strbuf__addf(sb, ",\"size\":%llu,\"align\":%u,\"packed\":%s,\"cachelines\":%llu",
		(unsigned long long)t->size, t->align, t->packed ? "true" : "false",
		(unsigned long long)((t->size + line - 1) / line));
	strbuf__addf(sb, ",\"holes\":%u,\"sum_holes\":%u,\"bit_holes\":%u,\"sum_bit_holes\":%u"
		    ",\"padding\":%u,\"bit_padding\":%u,\"members\":[",
		t->nr_holes, t->sum_holes, t->nr_bit_holes, t->sum_bit_holes, t->padding,
		t->bit_padding);
	for (uint32_t i = 0; i < t->nr_members; i++) {
		const struct layout_member *m = &t->members[i];

		if (i)
			strbuf__add(sb, ",", 1);
		strbuf__add(sb, "{\"name\":", 8);
		json_str(sb, m->name);
		if (t->kind == LAYOUT_ENUM) {
			strbuf__addf(sb, ",\"value\":%lld}", (long long)m->offset);
			continue;
		}
		char *decl = xasprintf("%s%s%s", m->type_name, m->decl_prefix[0] ? " " : "",
				       m->decl_suffix);

		strbuf__add(sb, ",\"type\":", 8);
		json_str(sb, decl);
		free(decl);
		strbuf__addf(sb, ",\"offset\":%llu,\"size\":%llu,\"align\":%u,\"cacheline\":%llu",
			(unsigned long long)(base + m->offset), (unsigned long long)m->size, m->align,
			(unsigned long long)((base + m->offset) / line));
		if (m->bit_size)
			strbuf__addf(sb, ",\"bit_offset\":%u,\"bit_size\":%u", m->bit_offset, m->bit_size);
		if (m->zero_width)
			strbuf__add(sb, ",\"bit_size\":0", 13);
		if (m->nr_elems != 1)
			strbuf__addf(sb, ",\"elements\":%llu,\"element_size\":%llu",
				(unsigned long long)m->nr_elems, (unsigned long long)m->elem_size);
		if (m->hole)
			strbuf__addf(sb, ",\"hole\":%u", m->hole);
		if (m->bit_hole)
			strbuf__addf(sb, ",\"bit_hole\":%u", m->bit_hole);
		if (m->decl_file) {
			strbuf__add(sb, ",\"decl_file\":", 13);
			json_str(sb, m->decl_file);
			strbuf__addf(sb, ",\"decl_line\":%u", m->decl_line);
			if (m->decl_column)
				strbuf__addf(sb, ",\"decl_column\":%u", m->decl_column);
		}
		if (m->type) {
			strbuf__add(sb, ",\"layout\":", 10);
			json_type(m->type, line, base + m->offset, sb);
		}
		strbuf__add(sb, "}", 1);
	}
	strbuf__add(sb, "]}", 2);
}

void layout__print_json(const struct layout_type *type, const struct layout_print_opts *opts,
			struct strbuf *sb)
{
	unsigned int line = (opts->line_size ? opts->line_size : 64) * (opts->double_cl ? 2 : 1);

	json_type(type, line, 0, sb);
}
