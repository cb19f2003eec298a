// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The BTF loader: layouts from /sys/kernel/btf/vmlinux, a raw BTF file, or an ELF's .BTF
 * section, read with libbpf.  BTF has no alignment attributes, so alignments are inferred from
 * the offsets, as pahole's BTF loader does; the rendering follows pahole's for the same types.
 *
 * Ownership: the struct btf is freed with the source; layouts of layout_source__find live in
 * the source's arena, those of a for_each callback in a scratch arena reset after each type.
 */
#include <config.h>

#include "dwarf/dwarf_types.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gelf.h>
#include <libelf.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/btf.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

#define MAX_DEPTH LAYOUT_MAX_DEPTH
#define DEFAULT_BTF "/sys/kernel/btf/vmlinux"

struct btf_source {
	struct layout_source base;
	struct btf *btf;
	uint32_t nr_types;
	uint32_t *natural;	/* per type id: natural alignment + 1, 0 = not computed */
	uint32_t *padding;	/* per type id: tail padding + 1, 0 = not computed */
	struct arena scratch;	/* for layouts built only for their padding */
};

struct bbuild {
	struct btf_source *s;
	struct arena *arena;
	unsigned int line_size;
	bool expand;
	struct layout_build_guard guard;
	/* 1 + the id of a type found on a cycle of references (hostile or broken BTF: an array
	 * of itself, a typedef of itself, a struct containing itself), 0 if none */
	uint64_t cycle;
};

/* @id refers back to itself through its types: the type being built is refused. */
static void cycle_at(struct bbuild *b, uint32_t id)
{
	if (!b->cycle)
		b->cycle = (uint64_t)id + 1;
}

static const struct btf_type *type_at(struct bbuild *b, uint32_t id)
{
	if (!id || id >= b->s->nr_types)
		return NULL;
	return btf__type_by_id(b->s->btf, id);
}

static const char *name_of(struct bbuild *b, const struct btf_type *t)
{
	const char *n = t && t->name_off ? btf__name_by_offset(b->s->btf, t->name_off) : NULL;

	return n && *n ? n : NULL;
}

static bool is_modifier(const struct btf_type *t)
{
	switch (btf_kind(t)) {
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		return true;
	default:
		return false;
	}
}

static void cycle_at(struct bbuild *b, uint32_t id);

/* Strip typedefs and qualifiers: the id of what is left, 0 for void (and for a cycle). */
static uint32_t strip(struct bbuild *b, uint32_t id)
{
	for (int i = 0; i < MAX_DEPTH; i++) {
		const struct btf_type *t = type_at(b, id);

		if (!t || !is_modifier(t))
			return t ? id : 0;
		id = t->type;
	}
	cycle_at(b, id);	/* a typedef of itself, const <-> volatile */
	return 0;
}

/* The C qualifiers as bits: those over an array apply to its elements (C11 6.7.3p9). */
enum { QUAL_CONST = 1, QUAL_VOLATILE = 2, QUAL_RESTRICT = 4 };

static unsigned int qual_bit(const struct btf_type *t)
{
	switch (t ? btf_kind(t) : BTF_KIND_UNKN) {
	case BTF_KIND_CONST:
		return QUAL_CONST;
	case BTF_KIND_VOLATILE:
		return QUAL_VOLATILE;
	case BTF_KIND_RESTRICT:
		return QUAL_RESTRICT;
	default:
		return 0;
	}
}

/*
 * Qualifiers over an array (pahole encodes gcc's `volatile int x[8]` as volatile -> array ->
 * volatile int): true when @id is a chain of qualifiers (and type tags) that ends in an array,
 * @arr then that array's id and @quals the chain's qualifiers.
 */
static bool quals_over_array(struct bbuild *b, uint32_t id, uint32_t *arr, unsigned int *quals)
{
	const struct btf_type *t = type_at(b, id);
	unsigned int q = 0;

	for (int i = 0; i < MAX_DEPTH && t && (qual_bit(t) || btf_kind(t) == BTF_KIND_TYPE_TAG);
	     i++) {
		q |= qual_bit(t);
		id = t->type;
		t = type_at(b, id);
		if (t && btf_kind(t) == BTF_KIND_ARRAY) {
			*arr = id;
			*quals = q;
			return q != 0;
		}
	}
	return false;
}

/* The qualifiers an array's element type carries, through typedefs and inner arrays. */
static unsigned int elem_quals(struct bbuild *b, uint32_t id)
{
	const struct btf_type *t = type_at(b, id);
	unsigned int q = 0;

	for (int i = 0; i < MAX_DEPTH && t && (is_modifier(t) || btf_kind(t) == BTF_KIND_ARRAY);
	     i++) {
		q |= qual_bit(t);
		t = type_at(b, btf_kind(t) == BTF_KIND_ARRAY ? btf_array(t)->type : t->type);
	}
	return q;
}

/* The qualifiers of @quals in the chain from @id, outermost first, as prefixes ("const "). */
static void quals_prefix(struct bbuild *b, uint32_t id, unsigned int quals, struct strbuf *sb)
{
	const struct btf_type *t = type_at(b, id);

	for (int i = 0; i < MAX_DEPTH && quals && t && is_modifier(t); i++) {
		unsigned int q = qual_bit(t);

		if (quals & q)
			sb_put(sb, q == QUAL_CONST ? "const " : "volatile ");
		quals &= ~q;
		t = type_at(b, t->type);
	}
}

static bool is_sou(const struct btf_type *t)
{
	return t && (btf_kind(t) == BTF_KIND_STRUCT || btf_kind(t) == BTF_KIND_UNION);
}

static bool is_enum(const struct btf_type *t)
{
	return t && (btf_kind(t) == BTF_KIND_ENUM || btf_kind(t) == BTF_KIND_ENUM64);
}

/* pahole's tag__size */
static uint64_t type_size(struct bbuild *b, uint32_t id, int depth)
{
	const struct btf_type *t = type_at(b, id);

	if (t && depth > MAX_DEPTH)
		cycle_at(b, id);
	if (!t || depth > MAX_DEPTH)
		return 0;
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		return btf_int_bits(t) / 8;
	case BTF_KIND_FLOAT:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		return t->size;
	case BTF_KIND_PTR:
	case BTF_KIND_FUNC_PROTO:
		return b->s->base.addr_size;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return t->size == 1 && !btf_vlen(t) ? 0 : t->size;
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_array(t);

		return (uint64_t)a->nelems * type_size(b, a->type, depth + 1);
	}
	case BTF_KIND_FWD:
		return 0;
	default:
		return type_size(b, t->type, depth + 1);
	}
}

/*
 * The elements of a member whose type is an array however it is spelled, through typedefs
 * and qualifiers on either side, down to the innermost element (BTF nests the dimensions of
 * `int x[2][3]`): what an address inside the member is an element of.  False for no array.
 */
static bool array_shape(struct bbuild *b, uint32_t id, uint64_t *nr, uint64_t *elem_size)
{
	const struct btf_type *t = type_at(b, strip(b, id));
	uint64_t n = 1;
	bool array = false;

	for (int i = 0; i < MAX_DEPTH && t && btf_kind(t) == BTF_KIND_ARRAY; i++) {
		n *= btf_array(t)->nelems;
		id = strip(b, btf_array(t)->type);
		t = type_at(b, id);
		array = true;
	}
	if (!array || !t)
		return false;
	*nr = n;
	*elem_size = type_size(b, id, 0);
	return true;
}

static uint32_t natural_align(struct bbuild *b, uint32_t id, int depth)
{
	const struct btf_type *t = type_at(b, id);
	uint32_t a = 1;

	if (t && depth > MAX_DEPTH)
		cycle_at(b, id);
	if (!t || depth > MAX_DEPTH)
		return 1;
	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
		a = b->s->base.addr_size;
		break;
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		a = (uint32_t)type_size(b, id, depth + 1);
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION: {
		if (b->s->natural[id] == UINT32_MAX) {
			cycle_at(b, id);	/* contains itself (hostile or broken BTF) */
			return 1;
		}
		if (b->s->natural[id])
			return b->s->natural[id] - 1;
		const struct btf_member *m = btf_members(t);

		/* busy while its members are visited: a type containing itself ends here */
		b->s->natural[id] = UINT32_MAX;

		a = 0;
		for (int i = 0; i < btf_vlen(t); i++) {
			uint32_t st = strip(b, m[i].type);
			uint32_t ma = st ? natural_align(b, st, depth + 1) : 1;

			if (ma > a)
				a = ma;
		}
		if (!a)
			a = 1;
		b->s->natural[id] = a + 1;
		return a;
	}
	case BTF_KIND_ARRAY: {
		uint32_t st = strip(b, btf_array(t)->type);

		a = st ? natural_align(b, st, depth + 1) : 1;
		break;
	}
	default:
		break;
	}
	return a ? a : 1;
}

static void tag_name(struct bbuild *b, uint32_t id, struct strbuf *sb, int depth);

static void params(struct bbuild *b, const struct btf_type *fn, struct strbuf *sb, int depth)
{
	const struct btf_param *p = btf_params(fn);
	bool first = true, unspec = false;

	/* A function prototype whose parameter points back to itself (hostile BTF). */
	if (depth > MAX_DEPTH) {
		for (uint32_t id = 1; id < b->s->nr_types; id++)
			if (btf__type_by_id(b->s->btf, id) == fn)
				cycle_at(b, id);
		strbuf__add(sb, "(<type loop>)", 13);
		return;
	}
	strbuf__add(sb, "(", 1);
	for (int i = 0; i < btf_vlen(fn); i++) {
		const struct btf_type *pt;
		const char *pname = p[i].name_off ? btf__name_by_offset(b->s->btf, p[i].name_off) :
						    NULL;

		if (!p[i].type) {
			unspec = true;
			continue;
		}
		if (pname && !*pname)
			pname = NULL;
		if (!layout_build_guard__name(&b->guard, sb->len))
			break;	/* refused at the top (guard.over) */
		if (!first)
			strbuf__add(sb, ", ", 2);
		first = false;
		pt = type_at(b, p[i].type);
		if (pt && btf_kind(pt) == BTF_KIND_PTR) {
			const struct btf_type *target = type_at(b, pt->type);

			if (target && btf_kind(target) == BTF_KIND_FUNC_PROTO) {
				tag_name(b, target->type, sb, depth + 1);
				sb_cat(sb, " (*", pname ? pname : "", ")", NULL);
				params(b, target, sb, depth + 1);
				continue;
			}
		}
		tag_name(b, p[i].type, sb, depth + 1);
		if (pname)
			sb_cat(sb, " ", pname, NULL);
	}
	layout__params_end(sb, first, unspec);
}

static void ptr_name(struct bbuild *b, const struct btf_type *t, const char *suffix,
		     struct strbuf *sb, int depth)
{
	const struct btf_type *target = type_at(b, t->type), *next;
	uint32_t id = t->type;
	const char *const_pointer = "";

	if (!t->type) {
		sb_cat(sb, "void ", suffix, NULL);
		return;
	}
	if (target && btf_kind(target) == BTF_KIND_CONST) {
		next = type_at(b, target->type);
		if (next && btf_kind(next) == BTF_KIND_PTR) {
			const_pointer = "const ";
			id = target->type;
		}
	}
	tag_name(b, id, sb, depth + 1);
	sb_cat(sb, " ", const_pointer, suffix, NULL);
}

static void tag_name(struct bbuild *b, uint32_t id, struct strbuf *sb, int depth)
{
	const struct btf_type *t = type_at(b, id);
	const char *name;

	if (depth > MAX_DEPTH) {
		cycle_at(b, id);
		strbuf__add(sb, "<type loop>", 11);
		return;
	}
	if (!layout_build_guard__name(&b->guard, sb->len))
		return;		/* refused at the top (guard.over) */
	if (!t) {
		strbuf__add(sb, "void", 4);
		return;
	}
	name = name_of(b, t);
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
		sb_put(sb, name ? name : "nameless base type!");
		break;
	case BTF_KIND_PTR:
		ptr_name(b, t, "*", sb, depth);
		break;
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT: {
		int k = btf_kind(t);

		sb_put(sb, k == BTF_KIND_CONST ? "const " : k == BTF_KIND_VOLATILE ? "volatile " : "");
		tag_name(b, t->type, sb, depth + 1);
		sb_cat(sb, k == BTF_KIND_RESTRICT ? " restrict" : "", " ", NULL);
		break;
	}
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_ARRAY:
		tag_name(b, btf_kind(t) == BTF_KIND_ARRAY ? btf_array(t)->type : t->type, sb,
			 depth + 1);
		break;
	case BTF_KIND_FUNC_PROTO:
		tag_name(b, t->type, sb, depth + 1);
		strbuf__add(sb, " ()", 3);
		params(b, t, sb, depth + 1);
		break;
	case BTF_KIND_STRUCT:
		sb_cat(sb, "struct ", name ? name : "", NULL);
		break;
	case BTF_KIND_UNION:
		sb_cat(sb, "union ", name ? name : "", NULL);
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		sb_cat(sb, "enum ", name ? name : "", NULL);
		break;
	case BTF_KIND_FWD:
		sb_cat(sb, btf_kflag(t) ? "union" : "struct", " ", name ? name : "", NULL);
		break;
	default:
		sb_put(sb, name ? name : "");
		break;
	}
}

static struct layout_type *build_type(struct bbuild *b, uint32_t id, int depth, bool in_union);

static struct layout_type *build_enum(struct bbuild *b, const struct btf_type *t)
{
	struct layout_type *lt = arena__zalloc(b->arena, sizeof(*lt));
	int n = btf_vlen(t);

	lt->kind = LAYOUT_ENUM;
	lt->size = t->size ? t->size : 4;
	lt->align = lt->natural_align = (uint32_t)lt->size;
	lt->signed_enum = false;	/* pahole 1.24 ignores BTF's signedness flag */
	lt->members = arena__zalloc(b->arena, (n ? n : 1) * sizeof(*lt->members));
	for (int i = 0; i < n; i++) {
		struct layout_member *m = &lt->members[i];
		uint32_t name_off;

		if (btf_kind(t) == BTF_KIND_ENUM64) {
			const struct btf_enum64 *e = btf_enum64(t) + i;

			name_off = e->name_off;
			m->offset = btf_enum64_value(e);
		} else {
			const struct btf_enum *e = btf_enum(t) + i;

			name_off = e->name_off;
			m->offset = (uint32_t)e->val;
		}
		m->name = arena__strdup(b->arena, btf__name_by_offset(b->s->btf, name_off) ?: "");
		m->type_name = m->decl_prefix = m->decl_suffix = "";
		m->nr_elems = 1;
	}
	lt->nr_members = n;
	return lt;
}

/* A pointer member: to a function, to an anonymous struct or enum shown inline, or plain. */
static void describe_pointer(struct bbuild *b, struct layout_member *m, uint32_t id,
			     const struct btf_type *t, struct strbuf *tn, struct strbuf *suffix,
			     int depth, bool in_union)
{
	uint32_t tid = t->type;
	const struct btf_type *target;

	for (int g = 0; (target = type_at(b, tid)) &&
			btf_kind(target) == BTF_KIND_TYPE_TAG; g++) {
		if (g == MAX_DEPTH) {
			cycle_at(b, tid);	/* a type tag of itself */
			target = NULL;
			break;
		}
		tid = target->type;
	}
	if (target && btf_kind(target) == BTF_KIND_FUNC_PROTO) {
		tag_name(b, target->type, tn, depth);
		m->decl_prefix = "(*";
		strbuf__add(suffix, ")", 1);
		params(b, target, suffix, depth);
		return;
	}
	if ((is_sou(target) || is_enum(target)) && !name_of(b, target)) {
		m->decl_prefix = "* ";
		m->inline_type = true;
		m->type = is_enum(target) ? build_enum(b, target) :
					    build_type(b, tid, depth + 1, in_union);
		tag_name(b, tid, tn, depth);
		return;
	}
	tag_name(b, id, tn, depth);
}

static void describe_member(struct bbuild *b, struct layout_member *m, uint32_t id, bool first,
			    bool last, bool in_union, int depth)
{
	struct strbuf pre = STRBUF_INIT, suffix = STRBUF_INIT, tn = STRBUF_INIT;
	uint32_t kw_len = 0;	/* pahole prints "struct " before padding the name */
	bool done = false;
	const struct btf_type *tt = type_at(b, id);
	unsigned int quals = 0;	/* qualifiers over an array, which its elements take */
	uint32_t quals_top = 0;

	m->nr_elems = 1;
	if (depth > MAX_DEPTH) {
		/* an array of itself, or of an array of ... itself */
		cycle_at(b, id);
		strbuf__add(&tn, "<type loop>", 11);
		layout_member__finish(b->arena, m, &pre, &tn, &suffix, 0);
		return;
	}
	if (b->expand && tt && btf_kind(tt) == BTF_KIND_TYPEDEF) {
		struct strbuf note = STRBUF_INIT;

		for (int g = 0; g < MAX_DEPTH && tt && btf_kind(tt) == BTF_KIND_TYPEDEF; g++) {
			sb_cat(&note, note.len ? " -> " : "/* typedef ", name_of(b, tt) ?: "", NULL);
			id = tt->type;
			tt = type_at(b, id);
		}
		layout_member__typedef_note(b->arena, m, &note);
	}
	for (int guard = 0; !done && guard < MAX_DEPTH; guard++) {
		const struct btf_type *t = type_at(b, id);
		unsigned int q;
		uint32_t arr;

		if (!t) {
			tag_name(b, 0, &tn, depth);
			break;
		}
		/* `volatile int x[8]` as volatile -> array -> volatile int: see dwarf_types.c */
		if (qual_bit(t) && quals_over_array(b, id, &arr, &q)) {
			if (!quals)
				quals_top = id;
			quals |= q;
			id = arr;
			continue;
		}
		switch (btf_kind(t)) {
		case BTF_KIND_TYPE_TAG:
			id = t->type;
			continue;
		case BTF_KIND_CONST:
			strbuf__add(&pre, "const ", 6);
			if (t->type) {
				id = t->type;
				continue;
			}
			tag_name(b, id, &tn, depth);
			done = true;
			break;
		case BTF_KIND_PTR:
			describe_pointer(b, m, id, t, &tn, &suffix, depth, in_union);
			done = true;
			break;
		case BTF_KIND_FUNC_PROTO:
			tag_name(b, t->type, &tn, depth);
			m->decl_prefix = "(";
			strbuf__add(&suffix, ")", 1);
			params(b, t, &suffix, depth);
			done = true;
			break;
		case BTF_KIND_ARRAY: {
			const struct btf_array *a = btf_array(t);
			uint32_t elem = a->type;
			const struct btf_type *et = type_at(b, elem);
			struct layout_member em = { 0 };

			m->nr_elems = a->nelems;
			if (!a->nelems && et && btf_kind(et) == BTF_KIND_CONST)
				elem = et->type;
			/* qualifiers over the array that its element does not say: before it */
			bool restrict_elem = false;

			if (quals) {
				unsigned int missing = quals & ~elem_quals(b, elem);

				restrict_elem = missing & QUAL_RESTRICT;
				quals_prefix(b, quals_top, missing & ~QUAL_RESTRICT, &pre);
				quals = 0;
			}
			describe_member(b, &em, elem, first, last, in_union, depth + 1);
			kw_len = layout_member__take_elem(b->arena, m, &em, &pre, &tn);
			if (restrict_elem)
				sb_put(&tn, " restrict");
			if (a->nelems || !last || (first && last) || in_union) {
				sb_cat(&suffix, em.decl_suffix, "[", NULL);
				sb_u64(&suffix, a->nelems);
				sb_put(&suffix, "]");
			} else {
				sb_cat(&suffix, em.decl_suffix, "[]", NULL);
			}
			m->elem_size = type_size(b, elem, 0);
			m->nr_elems = (uint64_t)a->nelems * (em.nr_elems ? em.nr_elems : 1);
			done = true;
			break;
		}
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			if (!name_of(b, t) || (b->expand && !is_enum(t))) {
				m->inline_type = !name_of(b, t);
				m->type = is_enum(t) ? build_enum(b, t) :
						       build_type(b, id, depth + 1, in_union);
			}
			tag_name(b, id, &tn, depth);
			kw_len = btf_kind(t) == BTF_KIND_UNION ? 6 : is_enum(t) ? 5 : 7;
			done = true;
			break;
		default:
			tag_name(b, id, &tn, depth);
			done = true;
			break;
		}
	}
	if (!done && type_at(b, id))
		cycle_at(b, id);	/* qualifiers without end: const <-> volatile */
	layout_member__finish(b->arena, m, &pre, &tn, &suffix, kw_len);
}

/* pahole's class__infer_alignment for BTF */
static uint32_t infer_alignment(unsigned int line, uint32_t byte_offset, uint32_t natural,
				uint32_t smallest_offset)
{
	uint32_t alignment = 0, delta = byte_offset - smallest_offset;

	if (delta) {
		if (byte_offset % 2 == 0) {
			unsigned int shift = 32 - __builtin_clz(delta);

			alignment = shift >= 32 ? 1 : 1u << shift;	/* x86's shift wraps */
		}
	}
	if (alignment <= natural || alignment == 1)
		alignment = 0;
	else if (alignment < line && line % alignment == 0 && byte_offset % line == 0)
		alignment = line;
	return alignment;
}

static void finalize(struct layout_type *t, bool marked)
{
	uint32_t *nat = xcalloc(t->nr_members ? t->nr_members : 1, sizeof(*nat));

	for (uint32_t i = 0; i < t->nr_members; i++) {
		nat[i] = t->members[i].natural_align;
		if (t->members[i].inline_type && t->members[i].type)
			t->members[i].type->packed = false;
	}
	if (!marked)
		layout__infer_packed(t, nat);
	for (uint32_t i = 0; i < t->nr_members; i++) {
		struct layout_member *m = &t->members[i];

		if (m->type && m->type->kind != LAYOUT_ENUM)
			finalize(m->type, m->type->packed);
	}
	free(nat);
}

/* Tail padding of a named struct used as a member type, cached by type id. */
static uint32_t struct_padding(struct bbuild *b, uint32_t id, int depth)
{
	if (b->s->padding[id])
		return b->s->padding[id] - 1;
	if (depth > MAX_DEPTH)
		return 0;
	struct bbuild sb = *b;

	sb.arena = &b->s->scratch;
	sb.expand = false;
	uint32_t pad = build_type(&sb, id, depth + 1, false)->padding;

	if (depth == 0)
		arena__reset(&b->s->scratch);
	b->s->padding[id] = pad + 1;
	return pad;
}

static struct layout_type *build_type_body(struct bbuild *b, uint32_t id, int depth,
					   bool in_union);

static struct layout_type *build_type(struct bbuild *b, uint32_t id, int depth, bool in_union)
{
	const struct btf_type *t = type_at(b, id);
	struct layout_type *lt;

	if (!t || !layout_build_guard__enter(&b->guard, id, depth)) {
		if (t && !b->guard.over)
			cycle_at(b, id);	/* contains itself, or nests without end */
		lt = arena__zalloc(b->arena, sizeof(*lt));
		lt->kind = t && btf_kind(t) == BTF_KIND_UNION ? LAYOUT_UNION : LAYOUT_STRUCT;
		lt->name = t ? arena__strdup(b->arena, name_of(b, t)) : NULL;
		lt->size = t ? t->size : 0;
		lt->members = arena__zalloc(b->arena, sizeof(*lt->members));
		lt->align = lt->natural_align = 1;
		return lt;
	}
	lt = build_type_body(b, id, depth, in_union);
	layout_build_guard__leave(&b->guard);
	return lt;
}

static struct layout_type *build_type_body(struct bbuild *b, uint32_t id, int depth,
					   bool in_union)
{
	const struct btf_type *t = type_at(b, id);
	struct layout_type *lt = arena__zalloc(b->arena, sizeof(*lt));
	int n = btf_vlen(t);
	const struct btf_member *bm = btf_members(t);
	uint32_t smallest = 0;

	lt->kind = btf_kind(t) == BTF_KIND_UNION ? LAYOUT_UNION : LAYOUT_STRUCT;
	lt->name = arena__strdup(b->arena, name_of(b, t));
	lt->size = t->size;
	if (lt->kind == LAYOUT_UNION)
		in_union = true;
	lt->members = arena__zalloc(b->arena, (n ? n : 1) * sizeof(*lt->members));
	if (depth > MAX_DEPTH || !layout_build_guard__charge(&b->guard, (uint32_t)n, depth))
		n = 0;	/* over budget: refused at the top (guard.over), never printed short */
	for (int i = 0; i < n; i++) {
		struct layout_member *m = &lt->members[i];
		uint32_t bit_off = btf_member_bit_offset(t, i);
		uint32_t st = strip(b, bm[i].type);
		const struct btf_type *stt = type_at(b, st);
		const char *mname = bm[i].name_off ? btf__name_by_offset(b->s->btf, bm[i].name_off) :
						     NULL;

		m->name = arena__strdup(b->arena, mname && *mname ? mname : NULL);
		m->bit_size = btf_member_bitfield_size(t, i);
		describe_member(b, m, bm[i].type, i == 0, i == n - 1, in_union, depth);
		m->offset = bit_off / 8;
		m->size = st ? type_size(b, st, 0) : 0;
		if (m->size && stt && (btf_kind(stt) == BTF_KIND_INT || is_enum(stt)) &&
		    m->bit_size) {
			int64_t bits = (int64_t)m->size * 8;
			int64_t boff = bit_off / bits * bits / 8;
			int64_t bfo = (int64_t)bit_off - boff * 8;

			if (bfo < 0) {
				bfo += bits;
				boff -= (int64_t)m->size;
			}
			m->offset = (uint64_t)boff;
			m->bit_offset = (uint32_t)bfo;
		}
		if (!m->bit_size)
			array_shape(b, bm[i].type, &m->nr_elems, &m->elem_size);
		if (!m->elem_size)
			m->elem_size = m->nr_elems > 1 ? m->size / m->nr_elems : m->size;
		m->natural_align = st ? natural_align(b, st, 0) : 1;
		if (m->size) {
			m->forced_align = infer_alignment(b->line_size, (uint32_t)m->offset,
							  m->natural_align, smallest);
			smallest = (uint32_t)(m->offset + m->size);
		}
		m->align = m->forced_align ? m->forced_align : m->natural_align;
		/* BTF keeps no alignment: what the offsets show (forced_align) stands for it */
		m->type_align = m->natural_align;
		if (stt && is_sou(stt) && name_of(b, stt))
			m->type_id = arena__strdup(b->arena, name_of(b, stt));
		const struct btf_type *direct = type_at(b, bm[i].type);

		if (direct && btf_kind(direct) == BTF_KIND_STRUCT)
			m->type_padding = m->type ? m->type->padding : 0;
		if (m->natural_align > lt->natural_align)
			lt->natural_align = m->natural_align;
	}
	lt->nr_members = n;
	if (!lt->natural_align)
		lt->natural_align = 1;
	lt->forced_align = infer_alignment(b->line_size, (uint32_t)lt->size,
					   natural_align(b, id, 0), smallest);
	lt->align = lt->forced_align ? lt->forced_align : lt->natural_align;
	layout__compute_holes(lt);
	/* the tail padding of named struct members needs their own layout */
	for (int i = 0; i < n; i++) {
		struct layout_member *m = &lt->members[i];
		const struct btf_type *direct = type_at(b, bm[i].type);

		if (direct && btf_kind(direct) == BTF_KIND_STRUCT && !m->type)
			m->type_padding = struct_padding(b, bm[i].type, depth);
	}
	if (depth == 0)
		finalize(lt, false);
	return lt;
}

/* The error for a type refused for a cycle in its types: the type id where it was seen. */
static int cycle_error(struct bbuild *b, const char *name, char *err, size_t errlen)
{
	if (b->guard.over)
		return layout_build_guard__error(&b->guard, b->s->base.path ? b->s->base.path :
						 DEFAULT_BTF, name, err, errlen);
	snprintf(err, errlen, "%s: BTF type %llu: a type that refers back to itself (a cycle in "
		 "the BTF of %s)", b->s->base.path ? b->s->base.path : DEFAULT_BTF,
		 (unsigned long long)(b->cycle - 1), name ? name : "an anonymous type");
	return -EINVAL;
}

/* The layout of struct @id, looked up as @name. */
static int btf_found(struct bbuild *b, uint32_t id, const char *name,
		     const struct layout_type **out, char *err, size_t errlen)
{
	struct layout_type *t = build_type(b, id, 0, false);

	*out = NULL;
	if (b->cycle || b->guard.over)
		return cycle_error(b, name, err, errlen);
	if (!t->name)
		t->typedef_name = arena__strdup(b->arena, name);
	*out = t;
	return 0;
}

static int btf_find(struct layout_source *src, const char *name,
		    const struct layout_type **out, char *err, size_t errlen)
{
	struct btf_source *s = (struct btf_source *)src;
	struct bbuild b = { .s = s, .arena = &src->arena, .line_size = 64,
			    .guard.walk_limit = LAYOUT_WALK_BUDGET(src->type_bytes),
			    .expand = src->flags & LAYOUT_EXPAND };

	for (uint32_t id = 1; id < s->nr_types; id++) {
		const struct btf_type *t = btf__type_by_id(s->btf, id);
		const char *n;

		if (!is_sou(t) || !t->name_off)
			continue;
		n = btf__name_by_offset(s->btf, t->name_off);
		if (n && !strcmp(n, name))
			return btf_found(&b, id, name, out, err, errlen);
	}
	/* `typedef struct { ... } T;`: the struct goes by T, as pahole names it */
	for (uint32_t id = 1; id < s->nr_types; id++) {
		const struct btf_type *t = btf__type_by_id(s->btf, id), *st;
		const char *n;

		if (btf_kind(t) != BTF_KIND_TYPEDEF || !t->name_off)
			continue;
		st = type_at(&b, t->type);
		n = btf__name_by_offset(s->btf, t->name_off);
		if (is_sou(st) && !name_of(&b, st) && n && !strcmp(n, name))
			return btf_found(&b, t->type, name, out, err, errlen);
	}
	return 1;
}

static int btf_for_each(struct layout_source *src, bool unions,
			int (*cb)(const struct layout_type *type, void *arg), void *arg,
			char *err, size_t errlen)
{
	struct btf_source *s = (struct btf_source *)src;
	struct arena scratch = { 0 };
	struct arena keys = { 0 };
	struct hmap seen = { 0 };
	struct strbuf sig = STRBUF_INIT;
	struct bbuild b = { .s = s, .arena = &scratch, .line_size = 64,
			    .guard.walk_limit = LAYOUT_WALK_BUDGET(src->type_bytes),
			    .expand = src->flags & LAYOUT_EXPAND };
	int ret = 0;

	for (uint32_t id = 1; id < s->nr_types && !ret; id++) {
		const struct btf_type *t = btf__type_by_id(s->btf, id);
		struct layout_type *lt;
		struct hmap_entry *e;

		if (!is_sou(t) || !t->name_off || (!unions && btf_kind(t) == BTF_KIND_UNION))
			continue;
		lt = build_type(&b, id, 0, false);
		if (b.cycle || b.guard.over) {
			ret = cycle_error(&b, name_of(&b, t), err, errlen);
			break;
		}
		layout__signature(lt, &sig);
		e = hmap__slot(&seen, hash_str(sig.buf), sig.buf, 0, true);
		if (!e->key) {
			e->key = arena__strdup(&keys, sig.buf);
			ret = cb(lt, arg);
		}
		arena__reset(&scratch);
	}
	arena__release(&scratch);
	arena__release(&keys);
	hmap__free(&seen);
	strbuf__release(&sig);
	return ret;
}

static void btf_names(struct layout_source *src, void (*cb)(const char *name, void *arg),
		      void *arg)
{
	struct btf_source *s = (struct btf_source *)src;

	for (uint32_t id = 1; id < s->nr_types; id++) {
		const struct btf_type *t = btf__type_by_id(s->btf, id);
		/* NULL for a name offset past the strings (a fuzzer find: strlen(NULL) then) */
		const char *n = is_sou(t) && t->name_off ? btf__name_by_offset(s->btf, t->name_off)
							  : NULL;

		if (n)
			cb(n, arg);
	}
}

static void btf_delete(struct layout_source *src)
{
	struct btf_source *s = (struct btf_source *)src;

	btf__free(s->btf);
	free(s->natural);
	free(s->padding);
	arena__release(&s->scratch);
	arena__release(&src->arena);
	free(src->path);
	free(s);
}

static const struct layout_source_ops btf_ops = {
	.find = btf_find,
	.for_each = btf_for_each,
	.names = btf_names,
	.delete = btf_delete,
};

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

/*
 * The .BTF section of an ELF file, checked here because libbpf 1.1 trusts a section header
 * that the file does not back (the fuzzer found a NULL dereference in btf__parse).
 */
static struct btf *btf_from_elf(const char *path, char *err, size_t errlen, int *ret)
{
	int fd = open(path, O_RDONLY);
	struct btf *btf = NULL;
	Elf *elf = NULL;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	struct stat st;

	*ret = -EINVAL;
	if (fd < 0 || fstat(fd, &st)) {
		*ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx)) {
		snprintf(err, errlen, "%s: not a valid ELF file: %s", path, elf_errmsg(-1));
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || strcmp(name, ".BTF"))
			continue;
		if (sh.sh_type != SHT_PROGBITS || sh.sh_offset > (uint64_t)st.st_size ||
		    sh.sh_size > (uint64_t)st.st_size - sh.sh_offset) {
			snprintf(err, errlen, "%s: offset %llu: .BTF section header points outside the file",
				 path, (unsigned long long)sh.sh_offset);
			goto out;
		}
		data = elf_getdata(scn, NULL);
		if (!data || !data->d_buf || data->d_size != sh.sh_size) {
			snprintf(err, errlen, "%s: offset %llu: unreadable .BTF section", path,
				 (unsigned long long)sh.sh_offset);
			goto out;
		}
		btf = btf__new(data->d_buf, data->d_size);
		if (libbpf_get_error(btf)) {
			snprintf(err, errlen, "%s: offset %llu: .BTF is not valid BTF", path,
				 (unsigned long long)sh.sh_offset);
			btf = NULL;
			goto out;
		}
		*ret = 0;
		goto out;
	}
	snprintf(err, errlen, "%s: no .BTF section", path);
	*ret = -ENODATA;
out:
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	return btf;
}

int btf_source__open(struct layout_source **out, const char *path, unsigned int flags,
		     char *err, size_t errlen)
{
	unsigned char magic[4] = { 0 };
	struct btf_source *s;
	struct btf *btf;
	struct stat st;
	int ret, fd;

	*out = NULL;
	if (!path)
		path = DEFAULT_BTF;
	if (stat(path, &st)) {
		int en = errno;

		snprintf(err, errlen, "%s: %s", path, strerror(en));
		return -en;
	}
	libbpf_set_print(quiet);
	fd = open(path, O_RDONLY);
	if (fd < 0 || read(fd, magic, sizeof(magic)) < 0) {
		int en = errno;

		if (fd >= 0)
			close(fd);
		snprintf(err, errlen, "%s: %s", path, strerror(en));
		return -en;
	}
	close(fd);
	if (!memcmp(magic, ELFMAG, SELFMAG)) {
		btf = btf_from_elf(path, err, errlen, &ret);
		if (!btf)
			return ret;
	} else {
		btf = btf__parse_raw(path);
		if (libbpf_get_error(btf)) {
			snprintf(err, errlen, "%s: not BTF (and not an ELF file with a .BTF section)",
				 path);
			return -EINVAL;
		}
	}
	s = xcalloc(1, sizeof(*s));
	s->base.ops = &btf_ops;
	s->base.flags = flags;
	s->base.path = xstrdup(path);
	s->base.addr_size = btf__pointer_size(btf) ? (unsigned int)btf__pointer_size(btf) : 8;
	s->btf = btf;
	s->nr_types = btf__type_cnt(btf);
	uint32_t raw_size = 0;

	if (btf__raw_data(btf, &raw_size))
		s->base.type_bytes = raw_size;
	s->natural = xcalloc(s->nr_types ? s->nr_types : 1, sizeof(*s->natural));
	s->padding = xcalloc(s->nr_types ? s->nr_types : 1, sizeof(*s->padding));
	*out = &s->base;
	return 0;
}
