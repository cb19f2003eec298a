/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_FLAT_LAYOUT_H
#define LINEUP_ANALYZER_FLAT_LAYOUT_H

/*
 * The shape of a type as the analyzer needs it: every member at every nesting depth, flat,
 * with its full path from the outermost type.  Part of the layout model (analyzer/layout.h):
 * flat_layout__new() flattens a layout_type (loaded or built), or a test writes one by hand,
 * so attribution and the field tables never see DWARF.
 *
 * Ownership: a flat_layout made by flat_layout__new owns its members and their strings
 * (flat_layout__delete); its members' @member pointers borrow from the layout_type it was
 * made from (and those the resolver returned), which must outlive it.  A hand-made one and its
 * strings belong to whoever built it.  The analyzer only borrows flat layouts, and they must
 * outlive every table that refers to them.
 */

#include <stddef.h>
#include <stdint.h>

struct layout_member;
struct layout_type;

/**
 * struct flat_member - one member of a type, at any depth.
 * @path:	full path from the outermost type: "f_path.dentry", "f_owner.lock"
 * @type:	the member's type name as C spells it: "struct path", "spinlock_t",
 *		"atomic_t[2]"; used to match an inner type against its container
 * @offset:	bytes from the start of the outermost type
 * @size:	bytes (for a bitfield: the storage unit's size)
 * @elem_size:	for an array member, the size of one element (0 otherwise), so an address
 *		inside it is named "in_flight[1]"
 * @bit_offset:	for a bitfield, bits from @offset (0 otherwise)
 * @bit_size:	for a bitfield, its width in bits (0 for a plain member)
 * @depth:	0 for the type's own members, 1 for their members, and so on
 * @align:	the member's alignment (layout_member.align: aligned(N) if given, else natural)
 * @member:	the layout_member it was flattened from (its declaration, type, bit-field unit),
 *		NULL in a hand-made layout
 */
struct flat_member {
	const char *path;
	const char *type;
	uint64_t offset;
	uint64_t size;
	uint64_t elem_size;
	uint16_t bit_offset;
	uint16_t bit_size;
	uint16_t depth;
	uint32_t align;
	const struct layout_member *member;
};

/**
 * struct flat_layout - a type and its members.
 * @name:	"struct file", "struct hd_struct", or for a scalar array the C type ("long[8]")
 * @size:	sizeof the type
 * @members:	in offset order, a container before its own members
 * @type:	the layout_type it was flattened from, NULL in a hand-made layout
 */
struct flat_layout {
	const char *name;
	uint64_t size;
	unsigned int nr_members;
	const struct flat_member *members;
	const struct layout_type *type;
};

/* Deepest nesting flat_layout__new descends to (members of members ...). */
#define FLAT_MAX_DEPTH 8
/*
 * The most members flat_layout__new looks at (and so keeps) for one type: types found by name
 * can nest each other (a hostile or broken object's struct A holds B's that hold A's), and
 * anonymous members add no depth, so the depth alone does not bound the work.
 */
#define FLAT_MAX_MEMBERS (1u << 16)

/*
 * The layout of a named struct member that @t does not hold (layout_member.type NULL, type_id
 * set: loaded without LAYOUT_EXPAND), looked up by its name ("path"); NULL when unknown.
 */
typedef const struct layout_type *(*flat_layout_resolver)(void *ctx, const char *type_id);

/**
 * flat_layout__new - flatten @t: its members at every depth, containers first, in offset
 * order.  Anonymous members add no path component.  Descends into anonymous members and
 * members declared `struct X`/`union X` (f_path.dentry, f_pos_lock.owner), through @resolve
 * when @t does not hold their layout (NULL: no lookups), but not into arrays nor typedef'd
 * wrappers: f_count and f_lock are what people call those fields, not f_count.counter.
 * Never into a type it is already inside of, and no further than FLAT_MAX_MEMBERS members.
 * @name:	the flat layout's name ("struct file"); NULL: from @t's kind and name (or the
 *		typedef naming it)
 */
struct flat_layout *flat_layout__new(const struct layout_type *t, const char *name,
				     flat_layout_resolver resolve, void *ctx);
void flat_layout__delete(struct flat_layout *l);

/*
 * The innermost member that contains byte @offset: its index, or -1 when @offset falls in a
 * hole or the tail padding (or beyond the type).  Bitfields sharing a unit: the first one.
 */
int flat_layout__member_at(const struct flat_layout *l, uint64_t offset);

/*
 * Name the byte at @offset into @buf: the member path, with an array index where the member
 * is an array ("in_flight[1]"), "<hole+N>" in a hole, "<padding>" in the tail padding.
 * Returns the member index as flat_layout__member_at() does.
 */
int flat_layout__name_at(const struct flat_layout *l, uint64_t offset, char *buf, size_t n);

/*
 * A member whose type is @type (compared as C spells it, ignoring const/volatile and
 * whitespace) at exactly @offset, the outermost one first: its index; FLAT_SELF when @offset
 * is 0 and @type is the layout's own type; -1 when there is none.  A container uses this to
 * check that an inner type really sits where the addresses put it.
 */
#define FLAT_SELF (-2)
int flat_layout__find_type_at(const struct flat_layout *l, uint64_t offset, const char *type);

/*
 * The flexible array member that ends @l (struct cstats { long nr; struct cstat tail[]; }):
 * its index, or -1 when @l has none.  Its elements lie from its offset on, past @l->size
 * when the object was allocated with room for them; @elem (@n bytes) gets their type as C
 * spells it ("struct cstat", "long").
 */
int flat_layout__flex(const struct flat_layout *l, char *elem, size_t n);

/* Two type names equal as C would see them (qualifiers and whitespace ignored). */
int flat_layout__same_type(const char *a, const char *b);

/* "file" for "struct file" (also union/class). */
const char *type_name__strip_tag(const char *name);

#endif
