/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_DWARF_LAYOUT_H
#define LINEUP_DWARF_LAYOUT_H

/*
 * lineup's model of a struct/union layout, loaded from DWARF (dwarf_types.c) or BTF (btf.c)
 * behind one interface (struct layout_source), as pahole's loaders sit behind its ops table.
 *
 * Ownership: a struct layout_source owns every struct layout_type it hands out and every name in
 * them (an arena freed by layout_source__delete); nothing points into libdw or libbpf memory.
 * Types found with layout_source__find stay valid until layout_source__delete; types handed to
 * a layout_source__for_each callback are valid only during that callback (the loader streams one
 * compilation unit at a time and recycles its memory).
 *
 * Return convention (libdw's): 0 found / done, 1 not found, negative -errno on error with a
 * message naming the file and what was wrong in the caller's buffer.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct layout_type;
struct layout_nested;

enum layout_kind {
	LAYOUT_STRUCT,
	LAYOUT_UNION,
	LAYOUT_CLASS,
	LAYOUT_ENUM,	/* only as an inline anonymous member type: members are the enumerators,
			 * name and value (in layout_member.offset, two's complement) */
};

/**
 * struct layout_member - one data member of a struct or union.
 * @name:	the member's name; NULL for an anonymous struct/union member
 * @type_name:	the type as pahole prints it before the name ("struct list_head *",
 *		"const char  *", "long unsigned int", "spinlock_t"); for an array the element
 *		type; for a function pointer the return type; for an inline anonymous
 *		struct/union "struct" or "union"
 * @decl_prefix: text between the padded type and the name ("(*" for function pointers), or ""
 * @decl_suffix: text after the name: array dimensions ("[16]", "[]"), a function pointer's
 *		")(struct file *, int)", or ""
 * @offset:	byte offset from the start of the enclosing type; for a bitfield, the offset of
 *		its storage unit, as pahole prints it
 * @size:	byte size (of the storage unit for a bitfield)
 * @bit_offset:	bit offset within the storage unit, counted from its least significant bit
 * @bit_size:	width of a bitfield; 0 when the member is not a bitfield
 * @align:	the member's alignment: @forced_align when set, else the natural alignment of its
 *		type (pahole's inference: pointer size, base type size, max of struct members)
 * @forced_align: DW_AT_alignment of the member (`__attribute__((aligned(N)))`), 0 if none; from
 *		BTF, inferred from the offsets as pahole's BTF loader does
 * @natural_align: pahole's natural alignment of the member's type, ignoring forced alignment
 *		(what its __packed__ inference uses)
 * @nr_elems:	total element count for an array (product of dimensions); 0 for a flexible or
 *		zero-length array; 1 for a non-array
 * @elem_size:	size of one element of an array; @size for a non-array
 * @type:	the struct/union this member is (after typedefs, const/volatile, and array
 *		element stripping), or NULL for scalars, pointers and named enums.  Inline
 *		(anonymous) structs, unions and enums (LAYOUT_ENUM) are always filled in, and a
 *		pointer to an anonymous struct too (decl_prefix "* "); named structs only when
 *		the source was asked to expand (LAYOUT_EXPAND): otherwise look them up by
 *		@type_id with layout_source__find
 * @type_id:	the named struct/union's name for lookups ("list_head"), or NULL
 * @hole:	bytes of hole after this member before the next one (pahole's)
 * @bit_hole:	bits of hole after this bitfield before the next one
 * @inline_type: the member's type is defined inline (anonymous or not) and printed in place
 * @ancestor:	a C++ base class subobject (DW_TAG_inheritance), named "<ancestor>" as pahole does
 * @pad_from:	pahole pads @type_name to its column from this index (after qualifiers and the
 *		struct/union/enum keyword, which it prints before padding)
 * @typedef_note: with LAYOUT_EXPAND, the typedefs resolved to reach the printed type, as pahole's
 *		--expand_types shows them in a comment before the type, or NULL
 * @type_padding: when the member's type is a struct itself (not a typedef of one, not an array),
 *		that struct's tail padding (pahole's "XXX last struct has N bytes of padding")
 */
struct layout_member {
	const char *name;
	const char *type_name;
	const char *decl_prefix;
	const char *decl_suffix;
	uint64_t offset;
	uint64_t size;
	uint32_t bit_offset;
	uint32_t bit_size;
	uint32_t align;
	uint32_t forced_align;
	uint32_t natural_align;
	uint64_t nr_elems;
	uint64_t elem_size;
	struct layout_type *type;
	const char *type_id;
	uint32_t hole;
	uint32_t bit_hole;
	uint32_t type_padding;
	uint32_t pad_from;
	const char *typedef_note;
	bool inline_type;
	bool ancestor;
};

/**
 * struct layout_type - a struct, union or class with its members in declaration order.
 * @kind:	struct, union or class (or LAYOUT_ENUM for an inline anonymous enum)
 * @name:	the tag name, or NULL for an anonymous type
 * @size:	sizeof, in bytes
 * @align:	alignment: @forced_align if set, else the natural alignment pahole infers
 * @forced_align: DW_AT_alignment of the type, 0 if none (BTF: inferred, as pahole does)
 * @natural_align: pahole's natural alignment (largest member natural alignment, 1 if empty)
 * @signed_enum: for LAYOUT_ENUM, the values are signed
 * @packed:	inferred `__attribute__((__packed__))` (pahole's rules: a member at an offset
 *		unnatural for its type, or a size that is not a multiple of the alignment)
 * @nr_members:	number of data members
 * @members:	the data members
 * @pre_hole:	bytes of hole before the first member
 * @pre_bit_hole: bits of hole before the first member
 * @nr_holes, @nr_bit_holes: number of byte / bit holes between members
 * @sum_holes, @sum_bit_holes: their total
 * @padding:	tail padding in bytes
 * @bit_padding: unused bits at the end of a trailing bitfield unit
 * @decl_file, @decl_line: where the type is declared, when known (NULL/0 otherwise)
 * @nested, @nr_nested: types declared inside this one (clang emits them there), which pahole
 *		prints between the members where they are declared
 */
struct layout_type {
	enum layout_kind kind;
	const char *name;
	uint64_t size;
	uint32_t align;
	uint32_t forced_align;
	uint32_t natural_align;
	bool packed;
	bool signed_enum;
	uint32_t nr_members;
	struct layout_member *members;
	uint32_t pre_hole;
	uint32_t pre_bit_hole;
	uint32_t nr_holes;
	uint32_t nr_bit_holes;
	uint32_t sum_holes;
	uint32_t sum_bit_holes;
	uint32_t padding;
	uint32_t bit_padding;
	const char *decl_file;
	uint32_t decl_line;
	struct layout_nested *nested;
	uint32_t nr_nested;
};

/* A type declared inside another, printed before member @before (== nr_members: after all). */
struct layout_nested {
	uint32_t before;
	struct layout_type *type;
};

/* Options to layout_source__open(). */
enum {
	LAYOUT_EXPAND = 1 << 0,	/* fill layout_member.type for named struct/union members too */
	LAYOUT_BTF = 1 << 1,	/* read BTF: a raw BTF file or an ELF's .BTF section */
};

struct layout_source;

/**
 * layout_source__open - open an object to read layouts from.
 * @out:	the source, on success
 * @path:	ELF file (executable, shared library, .o, .ko, vmlinux, separate debuginfo), or
 *		with LAYOUT_BTF a raw BTF file (/sys/kernel/btf/vmlinux) or an ELF with .BTF;
 *		NULL with LAYOUT_BTF means /sys/kernel/btf/vmlinux
 * @flags:	LAYOUT_* flags
 * @err, @errlen: message buffer for failures: names the file and what was wrong, and for a
 *		missing debuginfo every place that was looked at
 *
 * Returns 0, -ENOENT when the file does not exist, -ENODATA when it has no debug info (or no
 * BTF), -EINVAL when it is not a valid ELF/BTF (truncated, corrupt), other -errno otherwise.
 */
int layout_source__open(struct layout_source **out, const char *path, unsigned int flags,
			char *err, size_t errlen);
void layout_source__delete(struct layout_source *src);

/* Whether the layouts come from BTF (alignments inferred, no "Force padding" in the text). */
bool layout_source__is_btf(const struct layout_source *src);

/*
 * The nested-type builders' guard against hostile debug info (DWARF and BTF alike): a type can
 * be made to contain itself (a cycle) or to share one type among many members at every level
 * (exponential).  Types being built sit on a stack of keys (a repeat is a cycle), and a budget
 * bounds the types built per top-level type.  No real C type comes near either limit.
 */
#define LAYOUT_MAX_DEPTH 48 /* nesting the DWARF and BTF builders follow */
#define LAYOUT_BUILD_DEPTH (LAYOUT_MAX_DEPTH + 2)
#define LAYOUT_BUILD_BUDGET (1u << 18)

struct layout_build_guard {
	uint32_t budget;
	int sp;
	uint64_t stack[LAYOUT_BUILD_DEPTH];
};

/* Enter type @key at nesting @depth (0: a top-level type, which resets the guard): false when
 * it must be built as an empty stub (a cycle, too deep, or the budget spent).  A true return
 * is paired with layout_build_guard__leave() once the type is built. */
static inline bool layout_build_guard__enter(struct layout_build_guard *g, uint64_t key,
					     int depth)
{
	if (depth == 0) {
		g->budget = LAYOUT_BUILD_BUDGET;
		g->sp = 0;
	}
	if (!g->budget || g->sp >= LAYOUT_BUILD_DEPTH)
		return false;
	for (int i = 0; i < g->sp; i++)
		if (g->stack[i] == key)
			return false;
	g->budget--;
	g->stack[g->sp++] = key;
	return true;
}

static inline void layout_build_guard__leave(struct layout_build_guard *g)
{
	g->sp--;
}

/* Pointer size of the object (8 on x86-64); pahole's notion of natural pointer alignment. */
unsigned int layout_source__addr_size(const struct layout_source *src);

/**
 * layout_source__find - the first complete (non-declaration) struct/union/class named @name.
 * Returns 0 and *out (valid until layout_source__delete), 1 when there is none, -errno on error.
 */
int layout_source__find(struct layout_source *src, const char *name,
			const struct layout_type **out, char *err, size_t errlen);

/**
 * layout_source__for_each - every named struct/union/class once, by name, in the order pahole
 * prints them (first definition wins).  @cb returns 0 to go on, non-zero to stop (returned).
 * @unions selects whether unions are visited too (pahole's full dump shows structs and classes
 * only).  The type is valid only during the callback.
 */
int layout_source__for_each(struct layout_source *src, bool unions,
			    int (*cb)(const struct layout_type *type, void *arg), void *arg,
			    char *err, size_t errlen);

/**
 * layout_source__closest - up to @max names of structs closest to @name by edit distance,
 * best first, into @out (strings owned by the source).  Returns how many were stored.
 */
int layout_source__closest(struct layout_source *src, const char *name, const char **out,
			   int max);

/*
 * Pure functions on the model.
 */

/**
 * layout__member_at - the innermost member covering byte @offset of @type.
 * @path:	filled with the member chain from outer to inner (anonymous members included),
 *		at most @max entries; nested named structs are descended only when their
 *		layout is present in layout_member.type
 * Returns the depth stored (0 when @offset falls in a hole or past the end).  For an array
 * member the element index is (offset - member offset) / elem_size.
 */
int layout__member_at(const struct layout_type *type, uint64_t offset,
		      const struct layout_member **path, int max);

/* The member called @name (searching anonymous members too), or NULL. */
const struct layout_member *layout__find_member(const struct layout_type *type, const char *name);

/* Number of cache lines of @line_size bytes the type spans when it starts line-aligned. */
static inline uint64_t layout__nr_cachelines(const struct layout_type *type, unsigned int line_size)
{
	return (type->size + line_size - 1) / line_size;
}

/**
 * struct layout_print_opts - how to print a layout.
 * @line_size:	cache-line size for the boundary comments and summary (64)
 * @double_cl:	mark 128-byte pair boundaries too (perf c2c's --double-cl)
 * @expand:	print named nested structs inline (pahole --expand_types)
 * @addr_size:	pointer size of the object
 * @no_forced_align: the source has no alignment information (BTF): alignments were inferred,
 *		and pahole then prints no "Force padding" fillers
 */
struct layout_print_opts {
	unsigned int line_size;
	bool double_cl;
	bool expand;
	unsigned int addr_size;
	bool no_forced_align;
};

/* Print @type in pahole's format ("struct NAME {" ... "};\n"). */
void layout__fprintf(const struct layout_type *type, const struct layout_print_opts *opts,
		     FILE *fp);

/* Print @type as one JSON object (no trailing newline). */
void layout__fprintf_json(const struct layout_type *type, const struct layout_print_opts *opts,
			  FILE *fp);

#endif
