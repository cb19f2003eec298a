// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The DWARF loader: struct/union layouts from DIEs, through libdwfl (which applies the
 * relocations of ET_REL objects such as kernel modules; plain dwarf_begin would read unrelocated
 * string offsets and give wrong names).
 *
 * It walks one compilation unit at a time and only the DIEs directly under each CU, which is
 * where C puts its struct definitions, so `-C NAME` on a vmlinux touches a small fraction of the
 * DIEs and a full dump holds one CU's layouts at a time (recycled arena).
 *
 * libdw lifetime rules: Dwarf_Die values are only valid while the Dwarf is open; every string
 * taken from them is copied into an arena before the layout leaves this file.
 */
#include <config.h>

#include "dwarf/dwarf_types.h"

#include <dwarf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#include "dwarf/debuginfo.h"
#include "dwarf/srcfile.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Nesting bound: hostile DWARF can make types contain themselves. */
#define MAX_DEPTH LAYOUT_MAX_DEPTH

/* ---- the source ---- */

struct dwarf_source {
	struct layout_source base;
	Dwfl *dwfl;
	Dwarf *dw;
	struct hmap found;	/* name -> struct layout_type * (in base.arena) */
	struct hmap index;	/* name -> DIE offset of its first definition (okey) */
	struct arena index_names;
	Dwarf *alt;		/* the dwz supplementary file (.gnu_debugaltlink), or NULL */
	Dwarf_CU *scan_unit;	/* the last unit indexed (NULL: none yet) */
	bool scan_alt;		/* index_scan is in the supplementary file */
	bool scan_done;
	struct hmap natural;	/* DIE offset -> natural alignment */
	struct hmap padding;	/* DIE offset -> tail padding + 1 */
	struct hmap names;	/* DIE offset -> pahole's name of the type (in names_arena) */
	struct hmap sizes;	/* DIE offset -> type size + 1 */
	struct hmap abi;	/* DIE offset -> _Alignof the type */
	struct arena names_arena;
	struct arena scratch;	/* for types built only to learn their padding */
};

/* What the type builder needs while it works on one CU (the guard: see dwarf/layout.h). */

struct build {
	struct dwarf_source *src;
	struct arena *arena;
	unsigned int addr_size;
	bool expand;
	struct strbuf tmp;
	struct layout_build_guard guard;
	/* the last member's DW_AT_decl_file (its unit and index) and its name in @arena: the
	 * members of a struct are mostly declared in one file */
	Dwarf_CU *file_cu;
	Dwarf_Word file_idx;
	const char *file;
	/* 1 + the key of a DIE found on a cycle of type references (hostile or broken DWARF:
	 * an array of itself, a typedef of itself, a struct containing itself), 0 if none */
	uint64_t cycle;
};

#define KEY_ALT (1ull << 63)	/* the DIE is in the dwz supplementary file */
#define KEY_TYPES (1ull << 62)	/* the DIE is in .debug_types (DWARF 4 type units) */

/* Cache key of a DIE: its offset, and which section of which file it is in. */
static uint64_t die_key(struct dwarf_source *s, Dwarf_Die *die)
{
	uint64_t off = dwarf_dieoffset(die);
	Dwarf_Half version;
	uint8_t unit_type;

	if (s->alt && dwarf_cu_getdwarf(die->cu) == s->alt)
		off |= KEY_ALT;
	if (dwarf_cu_info(die->cu, &version, &unit_type, NULL, NULL, NULL, NULL, NULL) == 0 &&
	    version < 5 && unit_type == DW_UT_type)
		off |= KEY_TYPES;
	return off;
}

/* The DIE of a key made by die_key. */
static Dwarf_Die *key_die(struct dwarf_source *s, uint64_t key, Dwarf_Die *out)
{
	Dwarf *dw = key & KEY_ALT ? s->alt : s->dw;
	Dwarf_Off off = key & ~(KEY_ALT | KEY_TYPES);

	if (!dw)
		return NULL;
	return key & KEY_TYPES ? dwarf_offdie_types(dw, off, out) : dwarf_offdie(dw, off, out);
}

/* @die refers back to itself through its types: the type being built is refused. */
static void cycle_at(struct build *b, Dwarf_Die *die)
{
	if (!b->cycle && die)
		b->cycle = die_key(b->src, die) + 1;
}

static bool die_type(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(die, DW_AT_type, &a) && dwarf_formref_die(&a, out);
}

static uint64_t die_udata(Dwarf_Die *die, unsigned int at, uint64_t dflt)
{
	Dwarf_Attribute a;
	Dwarf_Word w;

	if (!dwarf_attr_integrate(die, at, &a) || dwarf_formudata(&a, &w))
		return dflt;
	return w;
}

static int64_t die_sdata(Dwarf_Die *die, unsigned int at, int64_t dflt)
{
	Dwarf_Attribute a;
	Dwarf_Sword w;

	if (!dwarf_attr_integrate(die, at, &a) || dwarf_formsdata(&a, &w))
		return dflt;
	return w;
}

/* An array bound: DW_FORM_dataN are unsigned here (a char[256] has upper bound 255 in data1) */
static int64_t die_bound(Dwarf_Die *die, unsigned int at, int64_t dflt)
{
	Dwarf_Attribute a;
	Dwarf_Word w;
	Dwarf_Sword sw;

	if (!dwarf_attr_integrate(die, at, &a))
		return dflt;
	if (dwarf_whatform(&a) == DW_FORM_sdata || dwarf_whatform(&a) == DW_FORM_implicit_const)
		return dwarf_formsdata(&a, &sw) ? dflt : sw;
	if (dwarf_formudata(&a, &w))
		return dflt;
	/* all ones in 4 or 8 bytes: a "-1" upper bound (zero-length array) */
	if (w == (Dwarf_Word)-1 || (dwarf_whatform(&a) == DW_FORM_data4 && w == 0xffffffffu))
		return -1;
	return (int64_t)w;
}

static bool die_has(Dwarf_Die *die, unsigned int at)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(die, at, &a) != NULL;
}

static bool is_struct_tag(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type ||
	       tag == DW_TAG_class_type || tag == DW_TAG_interface_type;
}

static bool is_modifier(int tag)
{
	return tag == DW_TAG_const_type || tag == DW_TAG_volatile_type ||
	       tag == DW_TAG_restrict_type || tag == DW_TAG_atomic_type ||
	       tag == DW_TAG_typedef || tag == DW_TAG_immutable_type ||
	       tag == DW_TAG_shared_type;
}

/* Strip typedefs and cv-qualifiers; false when that ends in void. */
static bool strip(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Die cur = *die;

	for (int i = 0; i < MAX_DEPTH; i++) {
		if (!is_modifier(dwarf_tag(&cur))) {
			*out = cur;
			return true;
		}
		if (!die_type(&cur, &cur))
			return false;
	}
	return false;
}

/* The C qualifiers as bits: those over an array apply to its elements (C11 6.7.3p9). */
enum { QUAL_CONST = 1, QUAL_VOLATILE = 2, QUAL_RESTRICT = 4, QUAL_ATOMIC = 8 };

static unsigned int qual_bit(int tag)
{
	switch (tag) {
	case DW_TAG_const_type:
		return QUAL_CONST;
	case DW_TAG_volatile_type:
		return QUAL_VOLATILE;
	case DW_TAG_restrict_type:
		return QUAL_RESTRICT;
	case DW_TAG_atomic_type:
		return QUAL_ATOMIC;
	default:
		return 0;
	}
}

/*
 * Qualifiers over an array: gcc writes `volatile int x[8]` as volatile -> array -> volatile
 * int, clang as array -> volatile int.  True when @die is a chain of qualifiers that ends in an
 * array, @arr then that array and @quals the chain's qualifiers.
 */
static bool quals_over_array(Dwarf_Die *die, Dwarf_Die *arr, unsigned int *quals)
{
	Dwarf_Die cur = *die;
	unsigned int q = 0;

	for (int i = 0; i < MAX_DEPTH && qual_bit(dwarf_tag(&cur)); i++) {
		q |= qual_bit(dwarf_tag(&cur));
		if (!die_type(&cur, &cur))
			return false;
		if (dwarf_tag(&cur) == DW_TAG_array_type) {
			*arr = cur;
			*quals = q;
			return true;
		}
	}
	return false;
}

/* The qualifiers an array's element type carries, through typedefs and inner arrays. */
static unsigned int elem_quals(Dwarf_Die *die)
{
	Dwarf_Die cur = *die;
	unsigned int q = 0;

	for (int i = 0; i < MAX_DEPTH; i++) {
		int tag = dwarf_tag(&cur);

		if (!qual_bit(tag) && tag != DW_TAG_typedef && tag != DW_TAG_array_type)
			break;
		q |= qual_bit(tag);
		if (!die_type(&cur, &cur))
			break;
	}
	return q;
}

/* The qualifiers of @quals in the chain from @top, outermost first, as prefixes ("const "). */
static void quals_prefix(Dwarf_Die *top, unsigned int quals, struct strbuf *sb)
{
	Dwarf_Die cur = *top;

	for (int i = 0; i < MAX_DEPTH && quals && qual_bit(dwarf_tag(&cur)); i++) {
		unsigned int q = qual_bit(dwarf_tag(&cur));

		if (quals & q)
			sb_put(sb, q == QUAL_CONST ? "const " : q == QUAL_VOLATILE ? "volatile " :
				   "_Atomic ");
		quals &= ~q;
		if (!die_type(&cur, &cur))
			break;
	}
}

/* Array dimensions: element counts into @dims (at most @max), returns how many. */
static int array_dims(Dwarf_Die *array, uint64_t *dims, int max)
{
	Dwarf_Die child;
	int n = 0;

	if (dwarf_child(array, &child))
		return 0;
	do {
		int tag = dwarf_tag(&child);

		if (tag != DW_TAG_subrange_type && tag != DW_TAG_enumeration_type)
			continue;
		uint64_t count = 0;

		if (die_has(&child, DW_AT_count)) {
			count = die_udata(&child, DW_AT_count, 0);
		} else if (die_has(&child, DW_AT_upper_bound)) {
			int64_t lo = die_bound(&child, DW_AT_lower_bound, 0);
			int64_t hi = die_bound(&child, DW_AT_upper_bound, -1);

			count = hi >= lo ? (uint64_t)(hi - lo + 1) : 0;
		}
		if (n < max)
			dims[n++] = count;
	} while (dwarf_siblingof(&child, &child) == 0);
	return n;
}

static uint64_t type_size_uncached(struct build *b, Dwarf_Die *die, int depth);

/* pahole's tag__size: the byte size of a type, arrays included, void 0; cached by DIE. */
static uint64_t type_size(struct build *b, Dwarf_Die *die, int depth)
{
	uint64_t off = die_key(b->src, die), size;
	struct hmap_entry *e = hmap__slot(&b->src->sizes, hash_u64(off), NULL, off, false);

	if (e)
		return (uint64_t)(uintptr_t)e->val - 1;
	size = type_size_uncached(b, die, depth);
	if (b->cycle)
		return size;	/* not cached: the next type through here must see the cycle too */
	e = hmap__slot(&b->src->sizes, hash_u64(off), NULL, off, true);
	e->okey = off;
	e->val = (void *)(uintptr_t)(size + 1);
	return size;
}

static uint64_t type_size_uncached(struct build *b, Dwarf_Die *die, int depth)
{
	Dwarf_Die t;
	Dwarf_Word size;

	if (depth > MAX_DEPTH) {
		cycle_at(b, die);
		return 0;
	}
	switch (dwarf_tag(die)) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
	case DW_TAG_ptr_to_member_type:
		return die_udata(die, DW_AT_byte_size, b->addr_size);
	case DW_TAG_subroutine_type:
		return die_udata(die, DW_AT_byte_size, b->addr_size);
	case DW_TAG_array_type: {
		uint64_t dims[16], n = 1;
		int nd = array_dims(die, dims, 16);

		if (!die_type(die, &t))
			return 0;
		for (int i = 0; i < nd; i++)
			n *= dims[i];
		return n * type_size(b, &t, depth + 1);
	}
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
	case DW_TAG_interface_type: {
		Dwarf_Die child;
		bool members = false;

		size = die_udata(die, DW_AT_byte_size, 0);
		if (size == 1 && dwarf_child(die, &child) == 0) {
			do {
				if (dwarf_tag(&child) == DW_TAG_member)
					members = true;
			} while (!members && dwarf_siblingof(&child, &child) == 0);
		}
		return size == 1 && !members ? 0 : size;
	}
	case DW_TAG_base_type:
	case DW_TAG_enumeration_type:
		if (die_has(die, DW_AT_byte_size))
			return die_udata(die, DW_AT_byte_size, 0);
		return (die_udata(die, DW_AT_bit_size, 0) + 7) / 8;
	default:
		if (!die_type(die, &t))
			return 0;
		return type_size(b, &t, depth + 1);
	}
}

/*
 * The elements of a member whose type is an array however it is spelled, through typedefs
 * and qualifiers on either side (`volatile int x[8]`, `volatile arr8 x`, `arr8 x[2]`), down
 * to the innermost element: what an address inside the member is an element of.  False when
 * the type is no array (a GNU vector is one value).
 */
static bool array_shape(struct build *b, Dwarf_Die *die, uint64_t *nr, uint64_t *elem_size)
{
	uint64_t dims[16], n = 1;
	Dwarf_Die cur, t;
	bool array = false;

	if (!strip(die, &cur))
		return false;
	for (int i = 0; i < MAX_DEPTH && dwarf_tag(&cur) == DW_TAG_array_type &&
			!die_has(&cur, DW_AT_GNU_vector); i++) {
		int nd = array_dims(&cur, dims, 16);

		for (int k = 0; k < nd; k++)
			n *= dims[k];
		array = true;
		if (!die_type(&cur, &t) || !strip(&t, &cur))
			return false;
	}
	if (!array)
		return false;
	*nr = n;
	*elem_size = type_size(b, &cur, 0);
	return true;
}

/* pahole's tag__natural_alignment on a stripped type. */
static uint32_t natural_align(struct build *b, Dwarf_Die *die, int depth)
{
	Dwarf_Die t;
	uint32_t a = 1;

	if (depth > MAX_DEPTH) {
		cycle_at(b, die);
		return 1;
	}
	switch (dwarf_tag(die)) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		a = b->addr_size;
		break;
	case DW_TAG_base_type:
	case DW_TAG_enumeration_type:
		a = (uint32_t)type_size(b, die, depth + 1);
		break;
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
	case DW_TAG_interface_type: {
		uint64_t off = die_key(b->src, die);
		struct hmap_entry *e = hmap__slot(&b->src->natural, hash_u64(off), NULL, off, false);
		Dwarf_Die child;

		if (e && !e->val) {
			cycle_at(b, die);	/* contains itself (hostile or broken DWARF) */
			return 1;
		}
		if (e)
			return (uint32_t)(uintptr_t)e->val;
		/* 0 while its members are visited: a type containing itself ends here */
		e = hmap__slot(&b->src->natural, hash_u64(off), NULL, off, true);
		e->okey = off;
		e->val = NULL;
		a = 0;
		if (dwarf_child(die, &child) == 0) {
			do {
				/* (a C++ static member may be of the type itself) */
				if (dwarf_tag(&child) != DW_TAG_member ||
				    die_has(&child, DW_AT_declaration))
					continue;
				if (!die_type(&child, &t) || !strip(&t, &t))
					continue;
				uint32_t m = natural_align(b, &t, depth + 1);

				if (m > a)
					a = m;
			} while (dwarf_siblingof(&child, &child) == 0);
		}
		if (!a)
			a = 1;
		e = hmap__slot(&b->src->natural, hash_u64(off), NULL, off, true);
		e->val = (void *)(uintptr_t)a;
		return a;
	}
	case DW_TAG_array_type:
		if (die_type(die, &t) && strip(&t, &t))
			a = natural_align(b, &t, depth + 1);
		break;
	default:
		break;
	}
	return a ? a : 1;
}

static uint32_t abi_align(struct build *b, Dwarf_Die *die, int depth);
static bool member_location(Dwarf_Die *die, uint64_t *off);

/* _Alignof a struct/union: its members', raised by aligned attributes, 1 when packed. */
static uint32_t abi_align_struct(struct build *b, Dwarf_Die *die, int depth)
{
	uint32_t a = 1, forced = (uint32_t)die_udata(die, DW_AT_alignment, 0);
	uint64_t size = die_udata(die, DW_AT_byte_size, 0);
	bool packed = false;
	Dwarf_Die child, t;

	if (dwarf_child(die, &child) == 0) {
		do {
			uint64_t off = 0;
			uint32_t m;

			if (dwarf_tag(&child) != DW_TAG_member || die_has(&child, DW_AT_declaration) ||
			    !die_type(&child, &t))
				continue;
			m = abi_align(b, &t, depth + 1);
			if (die_udata(&child, DW_AT_alignment, 0) > m)
				m = (uint32_t)die_udata(&child, DW_AT_alignment, 0);
			/* DWARF says nothing of __packed__: infer it from a misplaced member */
			if (!die_has(&child, DW_AT_bit_size) && member_location(&child, &off) &&
			    off % m)
				packed = true;
			a = m > a ? m : a;
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	if (packed || (size && size % a))
		a = 1;
	return forced > a ? forced : a;
}

/*
 * _Alignof the type at @die as the compiler placed it: pahole's natural alignment raised by
 * DW_AT_alignment on the type, its typedefs and qualifiers, and inside structs; what
 * layout__build() needs to place a member where gcc would.  Cached by DIE.
 */
static uint32_t abi_align(struct build *b, Dwarf_Die *die, int depth)
{
	uint32_t a, forced = 0;
	Dwarf_Die cur = *die, t;
	struct hmap_entry *e;
	uint64_t key;

	if (depth > MAX_DEPTH) {
		cycle_at(b, die);
		return 1;
	}
	for (int i = 0; i < MAX_DEPTH && is_modifier(dwarf_tag(&cur)); i++) {
		uint32_t f = (uint32_t)die_udata(&cur, DW_AT_alignment, 0);

		forced = f > forced ? f : forced;
		if (!die_type(&cur, &t))
			return forced ? forced : 1;
		cur = t;
	}
	key = die_key(b->src, &cur);
	e = hmap__slot(&b->src->abi, hash_u64(key), NULL, key, false);
	if (e) {
		a = (uint32_t)(uintptr_t)e->val;
	} else {
		/* provisional entry first: a (hostile) type containing itself ends here */
		e = hmap__slot(&b->src->abi, hash_u64(key), NULL, key, true);
		e->okey = key;
		e->val = (void *)(uintptr_t)1;
		if (is_struct_tag(dwarf_tag(&cur)))
			a = abi_align_struct(b, &cur, depth);
		else if (dwarf_tag(&cur) == DW_TAG_array_type)
			a = die_type(&cur, &t) ? abi_align(b, &t, depth + 1) : 1;
		else
			a = natural_align(b, &cur, depth);
		e = hmap__slot(&b->src->abi, hash_u64(key), NULL, key, true);
		e->val = (void *)(uintptr_t)a;
	}
	return forced > a ? forced : a;
}

static const char *struct_prefix(int tag)
{
	switch (tag) {
	case DW_TAG_enumeration_type:
		return "enum ";
	case DW_TAG_structure_type:
		return "struct ";
	case DW_TAG_class_type:
		return "class ";
	case DW_TAG_union_type:
		return "union ";
	default:
		return "";
	}
}

static void tag_name(struct build *b, Dwarf_Die *die, struct strbuf *sb, int depth);
static void tag_name_uncached(struct build *b, Dwarf_Die *die, struct strbuf *sb, int depth);

/* pahole's ftype__fprintf_parms: "(int, const char  *)" */
static void params(struct build *b, Dwarf_Die *fn, struct strbuf *sb, int depth)
{
	Dwarf_Die child, t, pt;
	bool first = true, unspec = false;

	/* A subroutine type whose parameter points back to itself (hostile DWARF) recurses here
	 * without going through tag_name's depth check. */
	if (depth > MAX_DEPTH) {
		cycle_at(b, fn);
		strbuf__add(sb, "(<type loop>)", 13);
		return;
	}
	strbuf__add(sb, "(", 1);
	if (dwarf_child(fn, &child) == 0) {
		do {
			int tag = dwarf_tag(&child);

			if (tag == DW_TAG_unspecified_parameters) {
				unspec = true;
				continue;
			}
			if (tag != DW_TAG_formal_parameter)
				continue;
			if (!layout_build_guard__name(&b->guard, sb->len))
				break;	/* refused at the top (guard.over) */
			if (!first)
				strbuf__add(sb, ", ", 2);
			first = false;
			if (!die_type(&child, &t)) {
				strbuf__add(sb, "void", 4);
				continue;
			}
			if (dwarf_tag(&t) == DW_TAG_pointer_type && die_type(&t, &pt) &&
			    dwarf_tag(&pt) == DW_TAG_subroutine_type) {
				Dwarf_Die rt;

				if (die_type(&pt, &rt))
					tag_name(b, &rt, sb, depth + 1);
				else
					strbuf__add(sb, "void", 4);
				strbuf__add(sb, " (*)", 4);
				params(b, &pt, sb, depth + 1);
				continue;
			}
			tag_name(b, &t, sb, depth + 1);
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	layout__params_end(sb, first, unspec);
}

/* pahole's tag__ptr_name */
static void ptr_name(struct build *b, Dwarf_Die *die, const char *suffix, struct strbuf *sb,
		     int depth)
{
	Dwarf_Die t, n;
	const char *const_pointer = "";

	if (!die_type(die, &t)) {
		sb_cat(sb, "void ", suffix, NULL);
		return;
	}
	if (dwarf_tag(&t) == DW_TAG_const_type && die_type(&t, &n) &&
	    dwarf_tag(&n) == DW_TAG_pointer_type) {
		const_pointer = "const ";
		t = n;
	}
	tag_name(b, &t, sb, depth + 1);
	sb_cat(sb, " ", const_pointer, suffix, NULL);
}

/* pahole's __tag__name: the name of a type as it appears in declarations. */
static void tag_name_uncached(struct build *b, Dwarf_Die *die, struct strbuf *sb, int depth)
{
	Dwarf_Die t;
	const char *name;

	if (depth > MAX_DEPTH) {
		cycle_at(b, die);
		strbuf__add(sb, "<type loop>", 11);
		return;
	}
	if (!layout_build_guard__name(&b->guard, sb->len))
		return;		/* refused at the top (guard.over) */
	if (!die) {
		strbuf__add(sb, "void", 4);
		return;
	}
	switch (dwarf_tag(die)) {
	case DW_TAG_base_type:
		name = dwarf_diename(die);
		sb_put(sb, name ? name : "nameless base type!");
		break;
	case DW_TAG_pointer_type:
	case DW_TAG_ptr_to_member_type:
		ptr_name(b, die, "*", sb, depth);
		break;
	case DW_TAG_reference_type:
		ptr_name(b, die, "&", sb, depth);
		break;
	case DW_TAG_volatile_type:
	case DW_TAG_const_type:
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
	case DW_TAG_unspecified_type: {
		int tag = dwarf_tag(die);

		sb_put(sb, tag == DW_TAG_volatile_type ? "volatile " :
			   tag == DW_TAG_const_type ? "const " :
			   tag == DW_TAG_atomic_type ? "_Atomic " : "");
		tag_name(b, die_type(die, &t) ? &t : NULL, sb, depth + 1);
		sb_cat(sb, tag == DW_TAG_restrict_type ? " restrict" : "", " ", NULL);
		break;
	}
	case DW_TAG_array_type:
		tag_name(b, die_type(die, &t) ? &t : NULL, sb, depth + 1);
		break;
	case DW_TAG_subroutine_type:
		tag_name(b, die_type(die, &t) ? &t : NULL, sb, depth + 1);
		strbuf__add(sb, " ()", 3);
		params(b, die, sb, depth + 1);
		break;
	default:
		name = dwarf_diename(die);
		sb_cat(sb, struct_prefix(dwarf_tag(die)), name ? name : "", NULL);
		break;
	}
}

/* Type names repeat across members and structs: cache them by DIE. */
static void tag_name(struct build *b, Dwarf_Die *die, struct strbuf *sb, int depth)
{
	struct hmap *map = &b->src->names;
	struct hmap_entry *e;
	uint64_t off;
	size_t start;

	if (!die || depth > MAX_DEPTH) {
		tag_name_uncached(b, die, sb, depth);
		return;
	}
	off = die_key(b->src, die);
	e = hmap__slot(map, hash_u64(off), NULL, off, false);
	if (e) {
		sb_put(sb, e->val);
		return;
	}
	start = sb->len;
	tag_name_uncached(b, die, sb, depth);
	if (b->cycle || b->guard.over)
		return;
	e = hmap__slot(map, hash_u64(off), NULL, off, true);
	e->okey = off;
	e->val = arena__strndup(&b->src->names_arena, sb->buf ? sb->buf + start : "",
				sb->len - start);
}

static struct layout_type *build_type(struct build *b, Dwarf_Die *die, int depth,
				      bool in_union);

/* An anonymous enum printed inline: its enumerators as members. */
static struct layout_type *build_enum(struct build *b, Dwarf_Die *die)
{
	struct layout_type *t = arena__zalloc(b->arena, sizeof(*t));
	Dwarf_Die child, ut;
	uint32_t n = 0, i = 0;

	t->kind = LAYOUT_ENUM;
	t->size = type_size(b, die, 0);
	t->align = t->natural_align = (uint32_t)(t->size ? t->size : 1);
	if (die_type(die, &ut) && strip(&ut, &ut)) {
		Dwarf_Word enc = die_udata(&ut, DW_AT_encoding, 0);

		t->signed_enum = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
	}
	if (dwarf_child(die, &child) == 0) {
		do
			n += dwarf_tag(&child) == DW_TAG_enumerator;
		while (dwarf_siblingof(&child, &child) == 0);
	}
	t->members = arena__zalloc(b->arena, (n ? n : 1) * sizeof(*t->members));
	if (n && dwarf_child(die, &child) == 0) {
		do {
			Dwarf_Attribute a;
			Dwarf_Sword sv = 0;
			Dwarf_Word uv = 0;

			if (dwarf_tag(&child) != DW_TAG_enumerator || i >= n)
				continue;
			struct layout_member *m = &t->members[i++];

			m->name = arena__strdup(b->arena, dwarf_diename(&child) ?: "");
			if (dwarf_attr(&child, DW_AT_const_value, &a)) {
				if (dwarf_whatform(&a) == DW_FORM_sdata || dwarf_whatform(&a) == DW_FORM_implicit_const ||
				    t->signed_enum) {
					if (!dwarf_formsdata(&a, &sv))
						m->offset = (uint64_t)sv;
				} else if (!dwarf_formudata(&a, &uv)) {
					m->offset = uv;
				}
			}
			m->type_name = m->decl_prefix = m->decl_suffix = "";
			m->nr_elems = 1;
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	t->nr_members = i;
	if (!t->signed_enum) {
		/* pahole prints a negative constant of an unsigned-typed enum as signed */
		for (uint32_t k = 0; k < i; k++)
			if ((int64_t)t->members[k].offset < 0 && t->size <= 4)
				t->signed_enum = true;
	}
	return t;
}

/*
 * pahole's type__fprintf, for a member: fill the declaration pieces of @m from its type @die.
 */
static void describe_member(struct build *b, struct layout_member *m, Dwarf_Die *die,
			    bool first, bool last, bool in_union, int depth)
{
	struct strbuf pre = STRBUF_INIT, suffix = STRBUF_INIT, tn = STRBUF_INIT;
	uint32_t kw_len = 0;	/* pahole prints "struct " before padding the name */
	Dwarf_Die cur = *die, t, quals_top;
	unsigned int quals = 0;	/* qualifiers over an array, which its elements take */
	bool done = false;

	m->nr_elems = 1;
	if (depth > MAX_DEPTH) {
		/* an array of itself, or of an array of ... itself */
		cycle_at(b, die);
		strbuf__add(&tn, "<type loop>", 11);
		layout_member__finish(b->arena, m, &pre, &tn, &suffix, 0);
		return;
	}
	if (b->expand && dwarf_tag(&cur) == DW_TAG_typedef) {
		struct strbuf note = STRBUF_INIT;

		for (int g = 0; g < MAX_DEPTH && dwarf_tag(&cur) == DW_TAG_typedef; g++) {
			sb_cat(&note, note.len ? " -> " : "/* typedef ", dwarf_diename(&cur) ?: "",
			       NULL);
			if (!die_type(&cur, &t))
				break;
			cur = t;
		}
		layout_member__typedef_note(b->arena, m, &note);
	}
	for (int guard = 0; !done && guard < MAX_DEPTH; guard++) {
		int tag = dwarf_tag(&cur);
		unsigned int q;

		/*
		 * Declared `volatile int x[8]`, in gcc's words volatile -> array -> volatile int:
		 * the array is what the member is (its dimensions, its elements), and its
		 * elements say the qualifiers; pahole, taking the qualifier first, prints
		 * "volatile volatile int x;" with neither.
		 */
		if (qual_bit(tag) && quals_over_array(&cur, &t, &q)) {
			if (!quals)
				quals_top = cur;
			quals |= q;
			cur = t;
			continue;
		}
		switch (tag) {
		case DW_TAG_const_type:
		case DW_TAG_atomic_type:
			sb_cat(&pre, tag == DW_TAG_const_type ? "const" : "_Atomic", " ", NULL);
			if (die_type(&cur, &t)) {
				cur = t;
				continue;
			}
			tag_name(b, &cur, &tn, depth);
			done = true;
			break;
		case DW_TAG_pointer_type:
			if (die_type(&cur, &t)) {
				int ttag = dwarf_tag(&t);

				if (ttag == DW_TAG_subroutine_type) {
					Dwarf_Die rt;

					tag_name(b, die_type(&t, &rt) ? &rt : NULL, &tn, depth);
					m->decl_prefix = "(*";
					strbuf__add(&suffix, ")", 1);
					params(b, &t, &suffix, depth);
					done = true;
					break;
				}
				if ((is_struct_tag(ttag) || ttag == DW_TAG_enumeration_type) &&
				    !dwarf_diename(&t)) {
					m->decl_prefix = "* ";
					m->inline_type = true;
					m->type = ttag == DW_TAG_enumeration_type ?
							  build_enum(b, &t) :
							  build_type(b, &t, depth + 1, in_union);
					tag_name(b, &t, &tn, depth);
					done = true;
					break;
				}
			}
			tag_name(b, &cur, &tn, depth);
			done = true;
			break;
		case DW_TAG_subroutine_type: {
			Dwarf_Die rt;

			tag_name(b, die_type(&cur, &rt) ? &rt : NULL, &tn, depth);
			m->decl_prefix = "(";
			strbuf__add(&suffix, ")", 1);
			params(b, &cur, &suffix, depth);
			done = true;
			break;
		}
		case DW_TAG_array_type: {
			uint64_t dims[16];
			int nd = array_dims(&cur, dims, 16);
			bool single = first && last;
			struct strbuf d = STRBUF_INIT;
			uint64_t n = 1;

			bool vector = die_has(&cur, DW_AT_GNU_vector);
			uint64_t flat = 0;

			for (int i = 0; i < nd; i++) {
				if (vector) {
					/* a vector type prints its size in bytes, no dimensions */
					if (!dims[i] && !i)
						break;
					flat = flat ? flat * dims[i] : dims[i];
				} else if (dims[i] || !last || single || in_union) {
					sb_put(&d, "[");
					sb_u64(&d, (unsigned int)dims[i]);
					sb_put(&d, "]");
				} else {
					strbuf__add(&d, "[]", 2);
				}
				n *= dims[i];
			}
			if (vector && die_type(&cur, &t)) {
				Dwarf_Die et;
				uint64_t esize = strip(&t, &et) ? type_size(b, &et, 0) : 0;

				sb_put(&d, " __attribute__ ((__vector_size__ (");
				sb_u64(&d, (flat ? flat : 1) * esize);
				sb_put(&d, ")))");
			}
			m->nr_elems = n;
			if (!die_type(&cur, &t)) {
				strbuf__release(&d);
				tag_name(b, NULL, &tn, depth);
				done = true;
				break;
			}
			if (nd && !dims[0] && dwarf_tag(&t) == DW_TAG_const_type) {
				Dwarf_Die u;

				if (die_type(&t, &u))
					t = u;
			}
			/* qualifiers over the array that its element does not say: before it */
			bool restrict_elem = false;

			if (quals) {
				unsigned int missing = quals & ~elem_quals(&t);

				restrict_elem = missing & QUAL_RESTRICT;
				quals_prefix(&quals_top, missing & ~QUAL_RESTRICT, &pre);
				quals = 0;
			}
			/* dimensions come after whatever the element type prints */
			struct layout_member em = { 0 };

			describe_member(b, &em, &t, first, last, in_union, depth + 1);
			kw_len = layout_member__take_elem(b->arena, m, &em, &pre, &tn);
			if (restrict_elem)
				sb_put(&tn, " restrict");
			sb_cat(&suffix, em.decl_suffix, d.buf ? d.buf : "", NULL);
			m->elem_size = type_size(b, &t, 0);
			strbuf__release(&d);
			done = true;
			break;
		}
		case DW_TAG_structure_type:
		case DW_TAG_class_type:
		case DW_TAG_union_type:
		case DW_TAG_interface_type:
		case DW_TAG_enumeration_type: {
			bool anon = !dwarf_diename(&cur);

			/* pahole's --expand_types leaves named enums alone */
			if (anon || (b->expand && tag != DW_TAG_enumeration_type)) {
				m->inline_type = anon;
				m->type = tag == DW_TAG_enumeration_type ?
						  build_enum(b, &cur) :
						  build_type(b, &cur, depth + 1, in_union);
			}
			tag_name(b, &cur, &tn, depth);
			kw_len = tag == DW_TAG_union_type ? 6 : tag == DW_TAG_enumeration_type ? 5 :
				 tag == DW_TAG_structure_type ? 7 : 6;
			done = true;
			break;
		}
		default:
			tag_name(b, &cur, &tn, depth);
			done = true;
			break;
		}
	}
	if (!done)
		cycle_at(b, &cur);	/* qualifiers without end: const <-> volatile */
	layout_member__finish(b->arena, m, &pre, &tn, &suffix, kw_len);
}

/* DW_AT_data_member_location as a constant, or the DW_OP_plus_uconst of DWARF 2 */
static bool member_location(Dwarf_Die *die, uint64_t *off)
{
	Dwarf_Attribute a;
	Dwarf_Word w;
	Dwarf_Op *expr;
	size_t len;

	if (!dwarf_attr_integrate(die, DW_AT_data_member_location, &a))
		return false;
	if (dwarf_formudata(&a, &w) == 0) {
		*off = w;
		return true;
	}
	if (dwarf_getlocation(&a, &expr, &len) == 0 && len >= 1) {
		if (expr[0].atom == DW_OP_plus_uconst || expr[0].atom == DW_OP_constu) {
			*off = expr[0].number;
			return true;
		}
	}
	*off = 0;
	return true;
}

/* pahole's class_member__cache_byte_size: storage unit, its offset, and the bit offset in it */
static void member_bitfield(struct layout_member *m, Dwarf_Die *die, bool has_data_bit_offset,
			    uint64_t data_bit_offset, uint64_t byte_offset, uint64_t unit_size)
{
	int64_t byte_size = (int64_t)die_udata(die, DW_AT_byte_size, 0);
	int64_t bit_size, bitfield_offset, bit_offset, bf_size = m->bit_size;

	if (!byte_size)
		byte_size = (int64_t)unit_size;
	if (!byte_size) {
		m->offset = byte_offset;
		m->bit_offset = 0;
		m->size = 0;
		return;
	}
	bit_size = byte_size * 8;
	if (!has_data_bit_offset) {
		bitfield_offset = die_sdata(die, DW_AT_bit_offset, 0);
		bitfield_offset = bit_size - bitfield_offset - bf_size;	/* little endian */
		bit_offset = (int64_t)byte_offset * 8 + bitfield_offset;
	} else {
		bit_offset = (int64_t)data_bit_offset;
		byte_offset = data_bit_offset / 8;
		bitfield_offset = bit_offset - (int64_t)byte_offset * 8;
	}
	int64_t boff = (int64_t)byte_offset;

	if (bitfield_offset < 0) {
		bitfield_offset += bit_size;
		boff -= byte_size;
		bit_offset = boff * 8 + bitfield_offset;
	}
	bitfield_offset += (boff % byte_size) * 8;
	boff = bit_offset / bit_size * bit_size / 8;
	if (bitfield_offset >= bit_size) {
		bitfield_offset -= bit_size;
		boff += byte_size;
	}
	m->offset = boff < 0 ? 0 : (uint64_t)boff;
	m->bit_offset = (uint32_t)bitfield_offset;
	m->size = (uint64_t)byte_size;
}

/* @die's DW_AT_decl_file, in @arena, or NULL (dwarf/srcfile.h: DWARF 5's file 0 too). */
static const char *decl_file(struct arena *arena, Dwarf_Die *die)
{
	struct strbuf sb = STRBUF_INIT;
	const char *file = srcfile__of(die, DW_AT_decl_file, &sb);
	char *copy = file ? arena__strdup(arena, file) : NULL;

	strbuf__release(&sb);
	return copy;
}

/* Where the member is declared: DW_AT_decl_file (named once per file), line, column. */
static void member_decl(struct build *b, struct layout_member *m, Dwarf_Die *die)
{
	Dwarf_Die cudie;
	Dwarf_Word idx;

	m->decl_file = NULL;
	if (!srcfile__index(die, DW_AT_decl_file, &cudie, &idx)) {
		if (cudie.cu != b->file_cu || idx != b->file_idx) {
			struct strbuf sb = STRBUF_INIT;
			const char *file = srcfile__name(&cudie, idx, &sb);

			b->file_cu = cudie.cu;
			b->file_idx = idx;
			b->file = file ? arena__strdup(b->arena, file) : NULL;
			strbuf__release(&sb);
		}
		m->decl_file = b->file;
	}
	m->decl_line = (uint32_t)die_udata(die, DW_AT_decl_line, 0);
	m->decl_column = (uint32_t)die_udata(die, DW_AT_decl_column, 0);
}

static void finalize(struct layout_type *t, const uint32_t *natural, bool marked);
static struct layout_type *build_type(struct build *b, Dwarf_Die *die, int depth, bool in_union);

/*
 * The members' names and places only, in the scratch arena: enough for the tail padding and for
 * the identity pahole's full dump dedups on, without the cost of type names and nested layouts.
 * Members are chosen and placed exactly as build_type does.
 */
static void light_layout(struct build *b, Dwarf_Die *die, struct layout_type *t)
{
	int tag = dwarf_tag(die);
	Dwarf_Die child, type, st;
	uint32_t n = 0, cap = 0;

	memset(t, 0, sizeof(*t));
	t->kind = tag == DW_TAG_union_type ? LAYOUT_UNION :
		  tag == DW_TAG_class_type ? LAYOUT_CLASS : LAYOUT_STRUCT;
	t->name = dwarf_diename(die);
	t->size = die_udata(die, DW_AT_byte_size, 0);
	if (dwarf_child(die, &child))
		return;
	do {
		uint64_t moff = 0, dbo = 0;
		bool has_dbo;

		if (dwarf_tag(&child) != DW_TAG_member && dwarf_tag(&child) != DW_TAG_inheritance)
			continue;
		has_dbo = die_has(&child, DW_AT_data_bit_offset);
		if (has_dbo)
			dbo = die_udata(&child, DW_AT_data_bit_offset, 0);
		else if (!member_location(&child, &moff) && t->kind != LAYOUT_UNION)
			continue;
		if (n == cap) {
			struct layout_member *nm = arena__zalloc(&b->src->scratch,
							(cap ? cap * 2 : 16) * sizeof(*nm));

			if (n)
				memcpy(nm, t->members, n * sizeof(*nm));
			t->members = nm;
			cap = cap ? cap * 2 : 16;
		}
		struct layout_member *m = &t->members[n++];
		bool have_type = die_type(&child, &type);

		m->name = dwarf_diename(&child);
		m->bit_size = (uint32_t)die_udata(&child, DW_AT_bit_size, 0);
		m->size = have_type ? type_size(b, &type, 0) : 0;
		m->offset = has_dbo ? dbo / 8 : moff;
		if (m->bit_size)
			member_bitfield(m, &child, has_dbo, dbo, moff,
					have_type && strip(&type, &st) ? type_size(b, &st, 0) : 0);
	} while (dwarf_siblingof(&child, &child) == 0);
	t->nr_members = n;
}

/* Tail padding of a named struct used as a member type, cached by DIE. */
static uint32_t struct_padding(struct build *b, Dwarf_Die *die, int depth)
{
	uint64_t off = die_key(b->src, die);
	struct hmap *map = &b->src->padding;
	struct hmap_entry *e = hmap__slot(map, hash_u64(off), NULL, off, false);
	struct layout_type t;
	uint32_t pad;

	if (e)
		return (uint32_t)(uintptr_t)e->val - 1;
	light_layout(b, die, &t);
	layout__compute_holes(&t);
	pad = t.padding;
	arena__reset(&b->src->scratch);
	e = hmap__slot(map, hash_u64(off), NULL, off, true);
	e->okey = off;
	e->val = (void *)(uintptr_t)(pad + 1);
	return pad;
}

static struct layout_type *build_type_body(struct build *b, Dwarf_Die *die, int depth,
					   bool in_union);

static struct layout_type *build_type(struct build *b, Dwarf_Die *die, int depth, bool in_union)
{
	uint64_t key = die_key(b->src, die);
	struct layout_type *t;

	if (!layout_build_guard__enter(&b->guard, key, depth)) {
		if (!b->guard.over)
			cycle_at(b, die);	/* contains itself, or nests without end */
		t = arena__zalloc(b->arena, sizeof(*t));
		t->kind = dwarf_tag(die) == DW_TAG_union_type ? LAYOUT_UNION : LAYOUT_STRUCT;
		t->name = arena__strdup(b->arena, dwarf_diename(die));
		t->size = die_udata(die, DW_AT_byte_size, 0);
		t->members = arena__zalloc(b->arena, sizeof(*t->members));
		t->align = t->natural_align = 1;
		return t;
	}
	t = build_type_body(b, die, depth, in_union);
	layout_build_guard__leave(&b->guard);
	return t;
}

static struct layout_type *build_type_body(struct build *b, Dwarf_Die *die, int depth,
					   bool in_union)
{
	struct layout_type *t = arena__zalloc(b->arena, sizeof(*t));
	int tag = dwarf_tag(die);
	Dwarf_Die child;
	uint32_t n = 0, i = 0;
	const char *name = dwarf_diename(die);

	t->kind = tag == DW_TAG_union_type ? LAYOUT_UNION :
		  tag == DW_TAG_class_type ? LAYOUT_CLASS : LAYOUT_STRUCT;
	t->name = arena__strdup(b->arena, name);
	t->size = die_udata(die, DW_AT_byte_size, 0);
	t->forced_align = (uint32_t)die_udata(die, DW_AT_alignment, 0);
	t->decl_line = (uint32_t)die_udata(die, DW_AT_decl_line, 0);
	t->decl_file = decl_file(b->arena, die);
	if (depth > MAX_DEPTH)
		return t;
	if (t->kind == LAYOUT_UNION)
		in_union = true;

	uint32_t nn = 0;

	if (dwarf_child(die, &child) == 0) {
		do {
			int ct = dwarf_tag(&child);

			n += ct == DW_TAG_member || ct == DW_TAG_inheritance;
			nn += (is_struct_tag(ct) || ct == DW_TAG_enumeration_type) &&
			      !die_has(&child, DW_AT_declaration);
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	if (!layout_build_guard__charge(&b->guard, n + nn, depth))
		n = nn = 0;	/* refused at the top (guard.over): an error, not a short struct */
	t->members = arena__zalloc(b->arena, (n ? n : 1) * sizeof(*t->members));
	if (nn)
		t->nested = arena__zalloc(b->arena, nn * sizeof(*t->nested));
	uint32_t *natural = xcalloc(n ? n : 1, sizeof(*natural));

	if (n && dwarf_child(die, &child) == 0) {
		uint32_t seen = 0;

		do {
			Dwarf_Die type, st;
			uint64_t off = 0, dbo = 0;
			bool has_dbo;

			int ct = dwarf_tag(&child);

			if ((is_struct_tag(ct) || ct == DW_TAG_enumeration_type) &&
			    !die_has(&child, DW_AT_declaration) && t->nr_nested < nn) {
				struct layout_nested *ne = &t->nested[t->nr_nested++];

				ne->before = i;
				ne->type = ct == DW_TAG_enumeration_type ?
						   build_enum(b, &child) :
						   build_type(b, &child, depth + 1, false);
				continue;
			}
			if (ct != DW_TAG_member && ct != DW_TAG_inheritance)
				continue;
			seen++;
			has_dbo = die_has(&child, DW_AT_data_bit_offset);
			if (has_dbo)
				dbo = die_udata(&child, DW_AT_data_bit_offset, 0);
			else if (!member_location(&child, &off) && t->kind != LAYOUT_UNION)
				continue;	/* a static member (C++) */
			if (i >= n)
				break;
			struct layout_member *m = &t->members[i];
			bool have_type = die_type(&child, &type);

			m->ancestor = ct == DW_TAG_inheritance;
			m->name = m->ancestor ? "<ancestor>" :
						arena__strdup(b->arena, dwarf_diename(&child));
			member_decl(b, m, &child);
			m->forced_align = (uint32_t)die_udata(&child, DW_AT_alignment, 0);
			m->bit_size = (uint32_t)die_udata(&child, DW_AT_bit_size, 0);
			if (have_type) {
				describe_member(b, m, &type, i == 0, seen == n, in_union, depth);
				m->size = type_size(b, &type, 0);
				if (strip(&type, &st))
					natural[i] = natural_align(b, &st, 0);
				else
					natural[i] = 1;
			} else {
				m->type_name = "void";
				m->decl_prefix = m->decl_suffix = "";
				m->nr_elems = 1;
				natural[i] = 1;
			}
			if (have_type && !m->bit_size)
				array_shape(b, &type, &m->nr_elems, &m->elem_size);
			if (!m->elem_size)
				m->elem_size = m->nr_elems > 1 ? m->size / m->nr_elems : m->size;
			m->offset = has_dbo ? dbo / 8 : off;
			if (m->bit_size) {
				uint64_t unit = have_type && strip(&type, &st) ?
							type_size(b, &st, 0) : 0;

				member_bitfield(m, &child, has_dbo, dbo, off, unit);
			}
			if (have_type && (dwarf_tag(&type) == DW_TAG_structure_type ||
					  dwarf_tag(&type) == DW_TAG_class_type ||
					  dwarf_tag(&type) == DW_TAG_interface_type))
				m->type_padding = m->type ? m->type->padding :
							    struct_padding(b, &type, depth);
			m->natural_align = natural[i];
			m->align = m->forced_align ? m->forced_align : natural[i];
			m->type_align = have_type ? abi_align(b, &type, 0) : 1;
			if (have_type && strip(&type, &st) && is_struct_tag(dwarf_tag(&st)) &&
			    dwarf_diename(&st))
				m->type_id = arena__strdup(b->arena, dwarf_diename(&st));
			i++;
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	t->nr_members = i;
	for (uint32_t k = 0; k < i; k++)
		if (natural[k] > t->natural_align)
			t->natural_align = natural[k];
	if (!t->natural_align)
		t->natural_align = 1;
	t->align = t->forced_align ? t->forced_align : t->natural_align;
	layout__compute_holes(t);
	if (depth == 0)
		finalize(t, natural, false);
	else
		layout__infer_packed(t, natural);	/* redone top-down by finalize */
	free(natural);
	return t;
}

/*
 * pahole infers __packed__ top-down as it prints: a parent's inference can mark an inline
 * member type packed, and then that type's own inference is skipped.
 */
static void finalize(struct layout_type *t, const uint32_t *natural, bool marked)
{
	uint32_t *nat = NULL;

	if (!natural) {
		nat = xcalloc(t->nr_members ? t->nr_members : 1, sizeof(*nat));
		for (uint32_t i = 0; i < t->nr_members; i++)
			nat[i] = t->members[i].natural_align;
		natural = nat;
	}
	for (uint32_t i = 0; i < t->nr_members; i++)
		if (t->members[i].inline_type && t->members[i].type)
			t->members[i].type->packed = false;
	if (!marked)
		layout__infer_packed(t, natural);
	for (uint32_t i = 0; i < t->nr_members; i++) {
		struct layout_member *m = &t->members[i];

		if (m->type && m->type->kind != LAYOUT_ENUM)
			finalize(m->type, NULL, m->type->packed);
	}
	for (uint32_t i = 0; i < t->nr_nested; i++)
		if (t->nested[i].type->kind != LAYOUT_ENUM)
			finalize(t->nested[i].type, NULL, false);
	free(nat);
}

/* ---- walking CUs ---- */

typedef int (*die_fn)(struct build *b, Dwarf_Die *die, void *arg);

/* Call @fn on every complete struct/union/class directly under each CU; stops on non-zero. */
static int walk_types(struct dwarf_source *s, struct build *b, die_fn fn, void *arg,
		      bool per_cu_reset)
{
	Dwarf *dws[2] = { s->dw, s->alt };
	int ret = 0;

	/* the object's units (type units too), then those of its dwz supplementary file */
	for (int k = 0; k < 2 && dws[k]; k++) {
		Dwarf_CU *unit = NULL, *next;
		Dwarf_Half version;
		uint8_t unit_type;
		Dwarf_Die cu, sub;

		while (dwarf_get_units(dws[k], unit, &next, &version, &unit_type, &cu, &sub) == 0) {
			Dwarf_Die child, cudie;
			uint8_t asize = 0;

			unit = next;
			if (dwarf_tag(&cu) > 0 && dwarf_child(&cu, &child) == 0) {
				if (dwarf_diecu(&cu, &cudie, &asize, NULL))
					b->addr_size = asize ? asize : 8;
				do {
					int tag = dwarf_tag(&child);

					if (!is_struct_tag(tag) ||
					    die_has(&child, DW_AT_declaration))
						continue;
					ret = fn(b, &child, arg);
					if (ret)
						return ret;
				} while (dwarf_siblingof(&child, &child) == 0);
			}
			if (per_cu_reset) {
				/*
				 * DIEs of different CUs are different types (short of LTO's
				 * cross-CU references, which only miss the caches): keep the
				 * caches one CU big.
				 */
				arena__reset(b->arena);
				hmap__clear(&s->names);
				hmap__clear(&s->sizes);
				hmap__clear(&s->natural);
				hmap__clear(&s->padding);
				hmap__clear(&s->abi);
				arena__reset(&s->names_arena);
				b->file_cu = NULL;
				b->file = NULL;
			}
		}
	}
	return 0;
}

/* The anonymous struct/union/class that typedef @td names directly, into @out. */
static bool anon_struct(Dwarf_Die *td, Dwarf_Die *out)
{
	return die_type(td, out) && is_struct_tag(dwarf_tag(out)) && !dwarf_diename(out) &&
	       !die_has(out, DW_AT_declaration);
}

/*
 * Index the struct names defined in the scope @parent (a CU, a C++ namespace or class: pahole's
 * -C finds `namespace svc { struct Stats }` and `struct List { struct Node }` by their own
 * names, as vartype names the types of operands), the first definition of a name winning.
 * True when @want is among them.
 */
static bool index_scope(struct dwarf_source *s, Dwarf_Die *parent, const char *want, int depth)
{
	Dwarf_Die child;
	bool hit = false;

	if (depth > MAX_DEPTH || dwarf_child(parent, &child))
		return false;
	do {
		struct hmap_entry *e;
		const char *name;
		Dwarf_Die def = child;
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_namespace) {
			hit |= index_scope(s, &child, want, depth + 1);
			continue;
		}
		/* `typedef struct { ... } T;`: the struct goes by T, as pahole names it */
		if (tag == DW_TAG_typedef && !anon_struct(&child, &def))
			continue;
		if (!is_struct_tag(dwarf_tag(&def)) || die_has(&def, DW_AT_declaration))
			continue;
		name = dwarf_diename(&child);
		if (name) {
			e = hmap__slot(&s->index, hash_str(name), name, 0, true);
			if (!e->key) {
				e->key = arena__strdup(&s->index_names, name);
				e->okey = die_key(s, &def);
				if (want && !strcmp(name, want))
					hit = true;
			}
		}
		/* the types a class declares (clang puts a C struct's nested ones there too) */
		if (tag != DW_TAG_typedef)
			hit |= index_scope(s, &def, want, depth + 1);
	} while (dwarf_siblingof(&child, &child) == 0);
	return hit;
}

/*
 * Index struct names CU by CU from where the last lookup stopped, up to the CU that defines
 * @want (NULL: to the end): a -C lookup reads only the CUs up to its struct, several lookups
 * read each CU once, and the closest-name search reuses the index.
 */
static void index_scan(struct dwarf_source *s, const char *want)
{
	while (!s->scan_done) {
		Dwarf *dw = s->scan_alt ? s->alt : s->dw;
		Dwarf_CU *next;
		Dwarf_Half version;
		uint8_t unit_type;
		Dwarf_Die cu, sub;

		if (dwarf_get_units(dw, s->scan_unit, &next, &version, &unit_type, &cu, &sub) != 0) {
			if (!s->scan_alt && s->alt) {
				s->scan_alt = true;
				s->scan_unit = NULL;
				continue;
			}
			s->scan_done = true;
			break;
		}
		s->scan_unit = next;
		if (dwarf_tag(&cu) > 0 && index_scope(s, &cu, want, 0))
			break;
	}
}

/* The error for a type refused for a cycle in its types (the DIE where it was seen) or for
 * expanding beyond the guard's budgets. */
static int cycle_error(struct build *b, const char *name, char *err, size_t errlen)
{
	uint64_t key = b->cycle - 1;

	if (b->guard.over)
		return layout_build_guard__error(&b->guard, b->src->base.path, name, err, errlen);
	snprintf(err, errlen, "%s: DIE %#llx%s: a type that refers back to itself (a cycle in the "
		 "DWARF of %s)", b->src->base.path,
		 (unsigned long long)(key & ~(KEY_ALT | KEY_TYPES)),
		 key & KEY_ALT ? " of the supplementary file" :
		 key & KEY_TYPES ? " in .debug_types" : "", name ? name : "an anonymous type");
	return -EINVAL;
}

static int dwarf_find(struct layout_source *src, const char *name,
		      const struct layout_type **out, char *err, size_t errlen)
{
	struct dwarf_source *s = (struct dwarf_source *)src;
	struct hmap_entry *e = hmap__slot(&s->found, hash_str(name), name, 0, false);
	struct build b = { .src = s, .arena = &src->arena, .addr_size = src->addr_size,
			   .guard.walk_limit = LAYOUT_WALK_BUDGET(src->type_bytes),
			   .expand = src->flags & LAYOUT_EXPAND };
	struct layout_type *t;
	Dwarf_Die die;

	if (e) {
		*out = e->val;
		return 0;
	}
	e = hmap__slot(&s->index, hash_str(name), name, 0, false);
	if (!e && !s->scan_done) {
		index_scan(s, name);
		e = hmap__slot(&s->index, hash_str(name), name, 0, false);
	}
	if (!e)
		return 1;
	if (!key_die(s, e->okey, &die)) {
		snprintf(err, errlen, "%s: offset %llu: unreadable DIE of struct %s", src->path,
			 (unsigned long long)e->okey, name);
		return -EINVAL;
	}
	t = build_type(&b, &die, 0, false);
	strbuf__release(&b.tmp);
	if (b.cycle || b.guard.over)
		return cycle_error(&b, name, err, errlen);
	if (!t->name)
		t->typedef_name = arena__strdup(&src->arena, name);
	e = hmap__slot(&s->found, hash_str(name), name, 0, true);
	e->key = arena__strdup(&src->arena, name);
	e->val = t;
	*out = t;
	return 0;
}

struct each_arg {
	struct hmap seen;
	struct arena names;
	bool unions;
	int (*cb)(const struct layout_type *type, void *arg);
	void *arg;
	char *err;
	size_t errlen;
};

static int each_one(struct build *b, Dwarf_Die *die, void *arg)
{
	struct each_arg *ea = arg;
	const char *name = dwarf_diename(die);
	struct layout_type *t;
	struct hmap_entry *e;

	struct layout_type light;

	if (!name || (!ea->unions && dwarf_tag(die) == DW_TAG_union_type))
		return 0;
	/* most structs of a kernel are repeats from other CUs: decide before building */
	light_layout(b, die, &light);
	layout__signature(&light, &b->tmp);
	arena__reset(&b->src->scratch);
	e = hmap__slot(&ea->seen, hash_str(b->tmp.buf), b->tmp.buf, 0, true);
	if (e->key)
		return 0;
	e->key = arena__strdup(&ea->names, b->tmp.buf);
	t = build_type(b, die, 0, false);
	if (b->cycle || b->guard.over)
		return cycle_error(b, name, ea->err, ea->errlen);
	return ea->cb(t, ea->arg);
}

static int dwarf_for_each(struct layout_source *src, bool unions,
			  int (*cb)(const struct layout_type *type, void *arg), void *arg,
			  char *err, size_t errlen)
{
	struct dwarf_source *s = (struct dwarf_source *)src;
	struct arena scratch = { 0 };
	struct build b = { .src = s, .arena = &scratch, .addr_size = src->addr_size,
			   .guard.walk_limit = LAYOUT_WALK_BUDGET(src->type_bytes),
			   .expand = src->flags & LAYOUT_EXPAND };
	struct each_arg ea = { .unions = unions, .cb = cb, .arg = arg, .err = err,
			       .errlen = errlen };
	int ret = walk_types(s, &b, each_one, &ea, true);

	arena__release(&scratch);
	arena__release(&ea.names);
	hmap__free(&ea.seen);
	strbuf__release(&b.tmp);
	return ret;
}

static void dwarf_names(struct layout_source *src, void (*cb)(const char *name, void *arg),
			void *arg)
{
	struct dwarf_source *s = (struct dwarf_source *)src;

	index_scan(s, NULL);
	for (size_t i = 0; i < s->index.cap; i++)
		if (s->index.e[i].key)
			cb(s->index.e[i].key, arg);
}

static void dwarf_delete(struct layout_source *src)
{
	struct dwarf_source *s = (struct dwarf_source *)src;

	if (s->dwfl)
		dwfl_end(s->dwfl);
	hmap__free(&s->found);
	hmap__free(&s->index);
	arena__release(&s->index_names);
	hmap__free(&s->natural);
	hmap__free(&s->padding);
	hmap__free(&s->names);
	hmap__free(&s->sizes);
	hmap__free(&s->abi);
	arena__release(&s->names_arena);
	arena__release(&s->scratch);
	arena__release(&src->arena);
	free(src->path);
	free(s);
}

static const struct layout_source_ops dwarf_ops = {
	.find = dwarf_find,
	.for_each = dwarf_for_each,
	.names = dwarf_names,
	.delete = dwarf_delete,
};

/* The bytes of type information in @dw (.debug_info and .debug_types): what the builder's
 * budget scales with. */
static uint64_t type_bytes(Dwarf *dw)
{
	Elf *elf = dwarf_getelf(dw);
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	uint64_t n = 0;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			continue;
		if (!strcmp(name, ".debug_info") || !strcmp(name, ".debug_types") ||
		    !strcmp(name, ".zdebug_info"))
			n += sh.sh_size;
	}
	return n;
}

int dwarf_source__open(struct layout_source **out, const char *path, unsigned int flags,
		       char *err, size_t errlen)
{
	struct dwarf_source *s;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf *dw;
	int ret = debuginfo__open(path, &dwfl, &mod, &dw, err, errlen);

	*out = NULL;
	if (ret) {
		if (dwfl)
			dwfl_end(dwfl);
		return ret;
	}
	s = xcalloc(1, sizeof(*s));
	s->base.ops = &dwarf_ops;
	s->base.flags = flags;
	s->base.path = xstrdup(path);
	s->dwfl = dwfl;
	s->dw = dw;
	s->alt = dwarf_getalt(dw);

	/* the address size of the first CU stands for the object's */
	Dwarf_Off next;
	size_t hsize;
	uint8_t asize = 0;

	if (dwarf_nextcu(dw, 0, &next, &hsize, NULL, &asize, NULL) != 0) {
		snprintf(err, errlen, "%s: DWARF has no compilation units", path);
		dwarf_delete(&s->base);
		return -ENODATA;
	}
	s->base.addr_size = asize ? asize : 8;
	s->base.type_bytes = type_bytes(dw) + (s->alt ? type_bytes(s->alt) : 0);
	*out = &s->base;
	return 0;
}
