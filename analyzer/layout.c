// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The layout model's computations: holes and padding and the packed inference as pahole does
 * them on a loaded layout, gcc's placement of members for a layout built from scratch, and the
 * lookups.  The printers are in layout_print.c.
 */
#include <config.h>

#include "analyzer/layout.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/arena.h"
#include "util/hmap.h"
#include "util/strbuf.h"
#include "util/xalloc.h"


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
/* ---- holes and packing (pahole's class__find_holes / class__infer_packed_attributes) ---- */

/*
 * Bit-fields whose storage units overlap form one unit group, named by 1 + the index of its
 * first member: moving one of them alone would change where the others go.
 */
static void mark_bit_units(struct layout_type *t)
{
	uint64_t start = 0, end = 0;
	uint32_t unit = 0;

	for (uint32_t i = 0; i < t->nr_members; i++) {
		struct layout_member *m = &t->members[i];

		if (!m->bit_size || t->kind == LAYOUT_ENUM) {
			m->bit_unit = 0;
			unit = 0;
			continue;
		}
		if (!unit || t->kind == LAYOUT_UNION || m->offset >= end ||
		    m->offset + m->size <= start) {
			unit = i + 1;
			start = m->offset;
			end = m->offset + m->size;
		} else {
			start = m->offset < start ? m->offset : start;
			end = m->offset + m->size > end ? m->offset + m->size : end;
		}
		m->bit_unit = unit;
	}
}

/*
 * Hole arithmetic is pahole's, in signed bits.  Sizes and offsets come from the file, and a
 * hostile one (a member of 2^60 bytes) must not make it undefined: bits and sums wrap as
 * pahole's own would, and the nonsense is printed, not trapped on.
 */
static inline int64_t bits_of(uint64_t bytes)
{
	return (int64_t)(bytes * 8);
}

static inline int64_t wadd(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

static inline int64_t wsub(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a - (uint64_t)b);
}

void layout__compute_holes(struct layout_type *t)
{
	mark_bit_units(t);

	int64_t cur_bitfield_end = bits_of(t->size), cur_bitfield_size = 0;
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

		if (pos->zero_width)
			continue;	/* `T :0` takes no bits: the next member's place says it */
		int64_t bit_start = wadd(bits_of(pos->offset), pos->bit_size ? pos->bit_offset : 0);
		int64_t bit_end = wadd(bit_start, pos->bit_size ? pos->bit_size : bits_of(pos->size));
		int64_t bit_holes = 0, byte_holes = 0;

		if (in_bitfield) {
			int64_t bitfield_end = bit_start < cur_bitfield_end ? bit_start : cur_bitfield_end;

			bit_holes = wsub(bitfield_end, last_seen_bit);
			last_seen_bit = bitfield_end;
		}
		if (pos->bit_size) {
			int64_t aligned_start = bits_of(pos->offset);

			if (last_seen_bit < aligned_start && aligned_start <= bit_start) {
				byte_holes = wsub((int64_t)pos->offset, last_seen_bit / 8);
				last_seen_bit = aligned_start;
			}
			bit_holes = wadd(bit_holes, wsub(bit_start, last_seen_bit));
		} else {
			byte_holes = wsub(bit_start / 8, last_seen_bit / 8);
		}
		last_seen_bit = bit_end;

		if (pos->bit_size) {
			int64_t unit = bits_of(pos->size);

			in_bitfield = true;
			if (bit_end > cur_bitfield_end || unit > cur_bitfield_size) {
				cur_bitfield_size = unit;
				cur_bitfield_end = wadd(bits_of(pos->offset), cur_bitfield_size);
				if (bit_end > cur_bitfield_end)
					cur_bitfield_end = wadd(cur_bitfield_end, cur_bitfield_size);
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
		int64_t end = bits_of(t->size) < cur_bitfield_end ? bits_of(t->size) :
								     cur_bitfield_end;

		t->bit_padding = (uint32_t)wsub(end, last_seen_bit);
		last_seen_bit = end;
	}
	t->padding = (uint32_t)wsub((int64_t)t->size, last_seen_bit / 8);
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

			if (m->zero_width)
				continue;

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

/* Member @name of @type, searching anonymous members; its offset from @base in *@off. */
static const struct layout_member *find_at(const struct layout_type *type, const char *name,
					   size_t len, uint64_t base, uint64_t *off)
{
	for (uint32_t i = 0; i < type->nr_members; i++) {
		const struct layout_member *m = &type->members[i];

		if (m->name && strlen(m->name) == len && !strncmp(m->name, name, len)) {
			*off = base + m->offset;
			return m;
		}
		if (!m->name && m->type && m->type->kind != LAYOUT_ENUM) {
			const struct layout_member *in = find_at(m->type, name, len, base + m->offset,
								 off);
			if (in)
				return in;
		}
	}
	return NULL;
}

const struct layout_member *layout__find_path(const struct layout_type *type, const char *path,
					      uint64_t *offset)
{
	const struct layout_member *m = NULL;
	size_t n = strlen(path);
	uint64_t base = 0;

	if (!n || path[n - 1] == '.')
		return NULL;
	while (*path) {
		size_t len = strcspn(path, ".");

		if (!type || !len)
			return NULL;
		m = find_at(type, path, len, base, &base);
		if (!m)
			return NULL;
		type = m->type;
		path += len + (path[len] == '.');
	}
	*offset = base;
	return m;
}

const char *layout_kind__name(enum layout_kind k)
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

/* ---- building a layout from scratch: gcc's placement on x86-64 (stor-layout.c) ---- */

static bool is_pow2(uint64_t n)
{
	return n && !(n & (n - 1));
}

static uint64_t round_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

static uint32_t max_u32(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

/* A flexible array member ("name[]"): as opposed to GNU's zero-length "name[0]". */
static bool is_flexible(const struct layout_member *m)
{
	size_t n = strlen(m->decl_suffix);

	return !m->nr_elems && !m->size && n >= 2 && !strcmp(m->decl_suffix + n - 2, "[]");
}

/* Members are named in messages by name, or by position when they have none. */
static const char *member_label(const struct layout_member *m, uint32_t i, char *buf, size_t n)
{
	if (m->name)
		return m->name;
	snprintf(buf, n, "#%u (unnamed)", i);
	return buf;
}

/* Defaults and checks on one input member, before placing it. */
static int build_check(const struct layout_spec *spec, struct layout_member *m, uint32_t i,
		       uint32_t nr_named, char *err, size_t errlen)
{
	char lb[32];
	const char *what = member_label(m, i, lb, sizeof(lb));
	bool is_union = spec->kind == LAYOUT_UNION;

	if (!m->type_name)
		m->type_name = "";
	if (!m->decl_prefix)
		m->decl_prefix = "";
	if (!m->decl_suffix)
		m->decl_suffix = "";
	if (m->type && !m->size)
		m->size = m->type->size;
	if (!m->type_align)
		m->type_align = m->natural_align ? m->natural_align : m->type ? m->type->align : 1;
	if (!m->natural_align)
		m->natural_align = m->type_align;
	if (!m->nr_elems && m->size)
		m->nr_elems = 1;
	if (!m->elem_size)
		m->elem_size = m->nr_elems > 1 ? m->size / m->nr_elems : m->size;
	if (!is_pow2(m->type_align) || (m->forced_align && !is_pow2(m->forced_align))) {
		snprintf(err, errlen, "member %s: alignment %u is not a power of two", what,
			 m->forced_align && !is_pow2(m->forced_align) ? m->forced_align :
									m->type_align);
		return -EINVAL;
	}
	if (m->size > (UINT64_MAX >> 5)) {
		snprintf(err, errlen, "member %s: size %llu does not fit", what,
			 (unsigned long long)m->size);
		return -EINVAL;
	}
	if (m->bit_size || m->zero_width) {
		if (!m->size) {
			snprintf(err, errlen, "bit-field %s has no base type size", what);
			return -EINVAL;
		}
		if (m->bit_size > m->size * 8) {
			snprintf(err, errlen, "width of bit-field %s (%u bits) exceeds its type (%llu "
				 "bits)", what, m->bit_size, (unsigned long long)m->size * 8);
			return -EINVAL;
		}
		if (m->zero_width && (m->name || m->bit_size)) {
			snprintf(err, errlen, "zero-width bit-field %s must be unnamed", what);
			return -EINVAL;
		}
	}
	if (is_flexible(m)) {
		if (is_union) {
			snprintf(err, errlen, "flexible array member %s in a union", what);
			return -EINVAL;
		}
		if (i + 1 != spec->nr_members) {
			snprintf(err, errlen, "flexible array member %s is not the last member", what);
			return -EINVAL;
		}
		if (!nr_named) {
			snprintf(err, errlen, "flexible array member %s in a struct with no named "
				 "members", what);
			return -EINVAL;
		}
	}
	return 0;
}

int layout__build(struct arena *arena, const struct layout_spec *spec, struct layout_type **out,
		  char *err, size_t errlen)
{
	bool is_union = spec->kind == LAYOUT_UNION, packed = spec->packed;
	uint64_t pos = 0, union_end = 0;	/* pos in bits, union_end in bytes */
	uint32_t align = 1, natural = 1, nr_named = 0;
	struct layout_type *t;
	int rc;

	*out = NULL;
	if (spec->kind == LAYOUT_ENUM) {
		snprintf(err, errlen, "an enum has no layout to build");
		return -EINVAL;
	}
	if (spec->forced_align && !is_pow2(spec->forced_align)) {
		snprintf(err, errlen, "%s %s: alignment %u is not a power of two",
			 layout_kind__name(spec->kind), spec->name ? spec->name : "(anonymous)",
			 spec->forced_align);
		return -EINVAL;
	}
	t = arena__zalloc(arena, sizeof(*t));
	t->kind = spec->kind;
	t->name = spec->name;
	t->typedef_name = spec->typedef_name;
	t->decl_file = spec->decl_file;
	t->decl_line = spec->decl_line;
	t->packed = packed;
	t->built = true;
	t->forced_align = spec->forced_align;
	t->nr_members = spec->nr_members;
	t->members = arena__zalloc(arena, (spec->nr_members ? spec->nr_members : 1) *
					  sizeof(*t->members));
	for (uint32_t i = 0; i < spec->nr_members; i++) {
		struct layout_member *m = &t->members[i];
		uint32_t ta, ea;

		*m = spec->members[i];
		m->offset = m->bit_offset = 0;
		m->hole = m->bit_hole = m->bit_unit = 0;
		rc = build_check(spec, m, i, nr_named, err, errlen);
		if (rc)
			return rc;
		ta = m->type_align;
		natural = max_u32(natural, m->natural_align);
		if (m->zero_width) {
			/* `T :0`: to T's next unit whatever the packing; an unnamed bit-field leaves
			 * the type's alignment alone (the x86-64 psABI) */
			if (!is_union)
				pos = round_up(pos, (uint64_t)ta * 8);
			m->offset = pos / 8;
			m->align = ta;
			continue;
		}
		if (m->name || !m->bit_size)
			nr_named++;
		if (m->bit_size) {
			uint64_t a = (uint64_t)ta * 8, s = m->size * 8, start;

			/* excess_unit_span: no more units of its alignment than its type has */
			if (!is_union && !packed && (pos % a + m->bit_size + a - 1) / a > s / a)
				pos = round_up(pos, a);
			if (!is_union && m->forced_align)
				pos = round_up(pos, (uint64_t)m->forced_align * 8);
			start = is_union ? 0 : pos;
			/* pahole's storage unit: the type-sized, type-aligned unit of its first bit */
			m->offset = start / s * m->size;
			m->bit_offset = (uint32_t)(start - m->offset * 8);
			if (is_union) {
				uint64_t bytes = (m->bit_size + 7) / 8;

				union_end = bytes > union_end ? bytes : union_end;
			} else {
				pos = start + m->bit_size;
			}
			ea = packed ? max_u32(1, m->forced_align) : max_u32(ta, m->forced_align);
			m->align = ea;
			if (m->name)
				align = max_u32(align, ea);
			continue;
		}
		/* packed overrides the type's alignment, not one asked for on the member */
		ea = packed ? max_u32(1, m->forced_align) : max_u32(ta, m->forced_align);
		m->align = ea;
		align = max_u32(align, ea);
		if (is_union) {
			union_end = m->size > union_end ? m->size : union_end;
		} else {
			pos = round_up(pos, (uint64_t)ea * 8);
			m->offset = pos / 8;
			pos += m->size * 8;
		}
		if (!m->type_padding && m->inline_type && m->type && m->nr_elems == 1 &&
		    !m->decl_prefix[0] && m->type->kind != LAYOUT_UNION &&
		    m->type->kind != LAYOUT_ENUM)
			m->type_padding = m->type->padding;
	}
	align = max_u32(align, spec->forced_align);
	t->align = align;
	t->natural_align = natural;
	t->size = round_up(is_union ? union_end : (pos + 7) / 8, align);
	layout__compute_holes(t);
	*out = t;
	return 0;
}

int layout__reorder(struct arena *arena, const struct layout_type *t, const uint32_t *order,
		    uint32_t nr, struct layout_type **out, char *err, size_t errlen)
{
	struct layout_spec spec = {
		.kind = t->kind, .name = t->name, .typedef_name = t->typedef_name, .nr_members = nr,
		.packed = t->packed, .forced_align = t->forced_align, .decl_file = t->decl_file,
		.decl_line = t->decl_line,
	};
	struct layout_member *ms;
	uint32_t *where;
	int rc = -EINVAL;

	*out = NULL;
	if (nr != t->nr_members) {
		snprintf(err, errlen, "%u members given for the %u of %s %s", nr, t->nr_members,
			 layout_kind__name(t->kind), t->name ? t->name : "(anonymous)");
		return -EINVAL;
	}
	ms = xcalloc(nr ? nr : 1, sizeof(*ms));
	where = xcalloc(nr ? nr : 1, sizeof(*where));
	for (uint32_t i = 0; i < nr; i++)
		where[i] = UINT32_MAX;
	for (uint32_t i = 0; i < nr; i++) {
		if (order[i] >= nr || where[order[i]] != UINT32_MAX) {
			snprintf(err, errlen, "member order: index %u %s", order[i],
				 order[i] >= nr ? "out of range" : "given twice");
			goto out;
		}
		where[order[i]] = i;
		ms[i] = t->members[order[i]];
	}
	spec.members = ms;
	rc = layout__build(arena, &spec, out, err, errlen);
	if (rc)
		goto out;
	(*out)->typedef_name = t->typedef_name;
	if (t->nr_nested) {
		/* a nested declaration stays before the member it preceded */
		struct layout_nested *nested = arena__zalloc(arena, t->nr_nested * sizeof(*nested));

		for (uint32_t i = 0; i < t->nr_nested; i++) {
			nested[i] = t->nested[i];
			if (nested[i].before < nr)
				nested[i].before = where[nested[i].before];
		}
		/* the printer walks them in member order */
		for (uint32_t i = 1; i < t->nr_nested; i++)
			for (uint32_t k = i; k && nested[k - 1].before > nested[k].before; k--) {
				struct layout_nested x = nested[k];

				nested[k] = nested[k - 1];
				nested[k - 1] = x;
			}
		(*out)->nested = nested;
		(*out)->nr_nested = t->nr_nested;
	}
out:
	free(ms);
	free(where);
	return rc;
}
