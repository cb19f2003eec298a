/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_LAYOUT_H
#define LINEUP_ANALYZER_LAYOUT_H

/*
 * The layout model: a struct/union/class as members with offsets, sizes, alignments and
 * bit-field storage units, the holes and padding between them (pahole's rules), and the
 * pahole-format printer.  libc only: no I/O, no globals, no debug-info library.
 *
 * Three ways a layout comes to exist:
 *  - loaded: the DWARF and BTF loaders (dwarf/layout.h, layout_source__find) fill the members
 *    from debug info, place them where the object says, then call layout__compute_holes() and
 *    layout__infer_packed() (pahole's inference of __packed__ from the offsets);
 *  - built from scratch: layout__build() takes members in a chosen order (name, type text, size,
 *    alignment, aligned(N), bit-field width, nested unit, flexible array last, packed) and
 *    places them as gcc does on x86-64 (SysV ABI): what `suggest` proposes;
 *  - rebuilt: layout__reorder() takes a loaded type's members in another order through
 *    layout__build().
 * A layout is then printed in pahole's format (layout__print, byte-identical to pahole 1.24),
 * with an optional annotation hook per member and per cache-line boundary, or as JSON; and
 * flattened for attribution (analyzer/flat_layout.h).
 *
 * Ownership: every layout_type, its members array, and its nested types live in a struct arena
 * (util/arena.h): the loader's (freed with the layout_source), or the caller's for a built one.
 * Strings (names, type text, decl_file) and nested types a caller hands to layout__build are
 * borrowed, not copied: they must outlive the built layout (a loaded type's strings live as long
 * as its source).  Printers append to a caller's struct strbuf; nothing here writes to a file.
 *
 * Return convention: 0 on success, -EINVAL with a message in the caller's buffer when the input
 * cannot be laid out (what and which member); the lookups return NULL / 0 for nothing found.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct arena;
struct strbuf;
struct layout_type;
struct layout_nested;

/* Nesting the loaders and the flattening follow: hostile debug info can nest without end. */
#define LAYOUT_MAX_DEPTH 48

enum layout_kind {
	LAYOUT_STRUCT,
	LAYOUT_UNION,
	LAYOUT_CLASS,
	LAYOUT_ENUM,	/* only as an inline anonymous member type: members are the enumerators,
			 * name and value (in layout_member.offset, two's complement) */
};

/**
 * struct layout_member - one data member of a struct or union.
 * @name:	the member's name; NULL for an anonymous struct/union member (or an unnamed
 *		bit-field of a built layout)
 * @type_name:	the type as pahole prints it before the name ("struct list_head *",
 *		"const char  *", "long unsigned int", "spinlock_t"); for an array the element
 *		type; for a function pointer the return type; for an inline anonymous
 *		struct/union "struct" or "union"
 * @decl_prefix: text between the padded type and the name ("(*" for function pointers), or ""
 * @decl_suffix: text after the name: array dimensions ("[16]", "[]"), a function pointer's
 *		")(struct file *, int)", or ""
 * @decl_file, @decl_line, @decl_column: where the member is declared (DWARF's DW_AT_decl_*;
 *		the column from clang only), NULL/0 when unknown (BTF)
 * @offset:	byte offset from the start of the enclosing type; for a bit-field, the offset of
 *		its storage unit, as pahole prints it
 * @size:	byte size (for a bit-field: of its storage unit, the size of its base type)
 * @bit_offset:	bit offset within the storage unit, counted from its least significant bit
 * @bit_size:	width of a bit-field; 0 when the member is not a bit-field
 * @bit_unit:	for a bit-field, 1 + the index of the first member of its storage unit: the
 *		bit-fields whose bits share bytes (they move together); 0 for other members
 * @zero_width: an unnamed `T :0` bit-field (layout__build input: it aligns the next bit-field
 *		to T's unit; debug info has no member for it)
 * @align:	the member's alignment: @forced_align when set, else the natural alignment of its
 *		type (pahole's inference: pointer size, base type size, max of struct members)
 * @forced_align: DW_AT_alignment of the member (`__attribute__((aligned(N)))`), 0 if none; from
 *		BTF, inferred from the offsets as pahole's BTF loader does
 * @natural_align: pahole's natural alignment of the member's type, ignoring forced alignment
 *		(what its __packed__ inference uses)
 * @type_align:	_Alignof the member's type as the compiler sees it (natural alignment raised by
 *		aligned attributes on the type and inside it): what layout__build places by
 *		(0: @natural_align)
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
	const char *decl_file;
	uint32_t decl_line;
	uint32_t decl_column;
	uint64_t offset;
	uint64_t size;
	uint32_t bit_offset;
	uint32_t bit_size;
	uint32_t bit_unit;
	uint32_t align;
	uint32_t forced_align;
	uint32_t natural_align;
	uint32_t type_align;
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
	bool zero_width;
};

/**
 * struct layout_type - a struct, union or class with its members in declaration order.
 * @kind:	struct, union or class (or LAYOUT_ENUM for an inline anonymous enum)
 * @name:	the tag name, or NULL for an anonymous type
 * @typedef_name: for an anonymous type, the typedef that names it (`typedef struct {...} T`),
 *		by which lookups find it, as pahole does; NULL otherwise
 * @size:	sizeof, in bytes
 * @align:	alignment: @forced_align if set, else the natural alignment pahole infers
 * @forced_align: DW_AT_alignment of the type, 0 if none (BTF: inferred, as pahole does)
 * @natural_align: pahole's natural alignment (largest member natural alignment, 1 if empty)
 * @signed_enum: for LAYOUT_ENUM, the values are signed
 * @packed:	`__attribute__((__packed__))`: inferred for a loaded type (pahole's rules: a
 *		member at an offset unnatural for its type, or a size that is not a multiple of
 *		the alignment), asked for in a built one
 * @built:	laid out by layout__build (lineup's own text), not loaded from debug info
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
	const char *typedef_name;
	uint64_t size;
	uint32_t align;
	uint32_t forced_align;
	uint32_t natural_align;
	bool packed;
	bool built;
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

/*
 * ---- filling a layout (the loaders) ----
 */

/*
 * The derived fields of @type from its placed members, with pahole's rules: holes, bit holes,
 * padding, bit padding (class__find_holes), and the bit-field storage units (bit_unit).
 */
void layout__compute_holes(struct layout_type *type);

/*
 * The inferred packed attribute (pahole's class__infer_packed_attributes) given each member's
 * natural alignment in @natural (one entry per member).  After layout__compute_holes().
 */
void layout__infer_packed(struct layout_type *type, const uint32_t *natural);

/* The identity pahole's full dump prints a type name once by (name, size, members' places). */
void layout__signature(const struct layout_type *t, struct strbuf *sb);

/*
 * ---- building a layout from scratch ----
 */

/**
 * struct layout_spec - a struct or union to lay out, as gcc does on x86-64 (SysV ABI).
 * @kind:	LAYOUT_STRUCT, LAYOUT_CLASS or LAYOUT_UNION
 * @name:	the tag, or NULL
 * @members:	the members in the order wanted; layout__build reads from each:
 *		@name, @type_name, @decl_prefix, @decl_suffix, @decl_file/@decl_line/@decl_column
 *		and @type_id, @typedef_note, @inline_type, @pad_from: carried over as they are;
 *		@size: sizeof the member (the whole array; for a bit-field the size of its base
 *		type: its storage unit); @type_align (or, when 0, @natural_align): _Alignof its
 *		type (for a bit-field, of its base type); @forced_align: aligned(N) on the member,
 *		0 if none; @bit_size: bit-field width (0: not a bit-field); @zero_width: an
 *		unnamed `T :0`; @nr_elems / @elem_size: array elements (nr_elems 0 and size 0: a
 *		flexible array, last); @type: a nested struct/union laid out already (anonymous
 *		struct, union: one unit, @size and alignment its own when left 0)
 * @nr_members:	how many
 * @packed:	__attribute__((packed)) on the type
 * @forced_align: __attribute__((aligned(N))) on the type, 0 if none
 * @typedef_name, @decl_file, @decl_line: carried over (`typedef struct {...} T` prints as such)
 */
struct layout_spec {
	enum layout_kind kind;
	const char *name;
	const char *typedef_name;
	const struct layout_member *members;
	uint32_t nr_members;
	bool packed;
	uint32_t forced_align;
	const char *decl_file;
	uint32_t decl_line;
};

/**
 * layout__build - lay out @spec in @arena: every member's offset (the storage unit's for a
 * bit-field) and bit offset, alignment, holes, padding, the type's size and alignment, exactly
 * as gcc and clang place them on x86-64: each member at the next multiple of its alignment
 * (_Alignof its type raised by aligned(N); 1 when packed, unless aligned(N)); a bit-field in
 * the current unit unless it would span more units of its base type's alignment than the type
 * has, then at the next one (packed: at the next bit); a named bit-field aligns the whole type
 * by its base type, an unnamed one does not; `T :0` moves to the next unit of T; a flexible
 * array adds its alignment, not its size; the size rounded up to the alignment.
 *
 * Returns 0 and *@out, or -EINVAL with @err saying which member cannot be laid out (a flexible
 * array not last or alone, a bit-field wider than its type, an alignment not a power of two,
 * a size that does not fit).
 */
int layout__build(struct arena *arena, const struct layout_spec *spec, struct layout_type **out,
		  char *err, size_t errlen);

/**
 * layout__reorder - rebuild loaded type @t with its members in the order @order (indices into
 * t->members, each once; @nr must be t->nr_members), through layout__build: same packed and
 * aligned attributes, members carry their names, types and declarations along.
 * Returns as layout__build, or -EINVAL when @order is not a permutation.
 */
int layout__reorder(struct arena *arena, const struct layout_type *t, const uint32_t *order,
		    uint32_t nr, struct layout_type **out, char *err, size_t errlen);

/*
 * ---- lookups ----
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

/*
 * The member at @path ("f_path.dentry": named members of nested structs, whose layouts must be
 * present in layout_member.type; anonymous members searched at each step), its offset from
 * the start of @type in *@offset; NULL when there is none.
 */
const struct layout_member *layout__find_path(const struct layout_type *type, const char *path,
					      uint64_t *offset);

/* Number of cache lines of @line_size bytes the type spans when it starts line-aligned. */
static inline uint64_t layout__nr_cachelines(const struct layout_type *type, unsigned int line_size)
{
	return (type->size + line_size - 1) / line_size;
}

/* "struct", "union", "class" or "enum" */
const char *layout_kind__name(enum layout_kind kind);

/*
 * ---- printing ----
 */

/**
 * struct layout_annotate - text a caller adds to the printed layout (heat, counts, groups).
 * @member:	called for each member line after pahole's "offset size" comment, with the
 *		member, its offset from the start of the printed type, and its nesting depth
 *		(0: a member of the printed type); appends to @out (nothing: the line as pahole's)
 * @cacheline:	called at each cache-line boundary comment, with the line's number and byte
 *		offset; appends to @out after the comment
 * @ctx:	passed to both
 * Either may be NULL.
 */
struct layout_annotate {
	void (*member)(void *ctx, const struct layout_member *m, uint64_t offset, int depth,
		       struct strbuf *out);
	void (*cacheline)(void *ctx, uint32_t line, uint64_t offset, struct strbuf *out);
	void *ctx;
};

/**
 * struct layout_print_opts - how to print a layout.
 * @line_size:	cache-line size for the boundary comments and summary (64)
 * @double_cl:	mark 128-byte pair boundaries too (perf c2c's --double-cl)
 * @expand:	print named nested structs inline (pahole --expand_types)
 * @addr_size:	pointer size of the object
 * @no_forced_align: the source has no alignment information (BTF): alignments were inferred,
 *		and pahole then prints no "Force padding" fillers
 * @annotate:	hooks adding text, or NULL: pahole's text exactly
 */
struct layout_print_opts {
	unsigned int line_size;
	bool double_cl;
	bool expand;
	unsigned int addr_size;
	bool no_forced_align;
	const struct layout_annotate *annotate;
};

/* Append @type in pahole's format ("struct NAME {" ... "};\n") to @out. */
void layout__print(const struct layout_type *type, const struct layout_print_opts *opts,
		   struct strbuf *out);

/* Append @type as one JSON object (no trailing newline) to @out. */
void layout__print_json(const struct layout_type *type, const struct layout_print_opts *opts,
			struct strbuf *out);

#endif
