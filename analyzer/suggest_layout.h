/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_SUGGEST_LAYOUT_H
#define LINEUP_ANALYZER_SUGGEST_LAYOUT_H

/*
 * The suggester meets the layout model: a loaded struct cut into the units the suggester moves
 * (a member; the bit-fields of one storage unit; an anonymous struct or union), the suggested
 * order built back into a layout_type with layout__build (the compiler's offsets), the
 * annotations that print it with its figures, and the patcher's request for the source.
 *
 *	struct suggest_plan p;
 *	suggest_plan__init(&p, type, line_size, pins, nr_pins, err, len)	cut into units
 *	sg = suggest__new(&cfg, p.units, p.nr_units, type->size, type->align) ... suggest__run
 *	suggest_plan__build(&p, &res, arena, &new_type, err, len)		the new layout
 *	suggest_plan__slots(&p, &res, ...)					what the patch moves
 *	suggest_plan__release(&p)
 *
 * Pure (libc only).  Ownership: the plan owns its arrays; names are borrowed from the loaded
 * type, which must outlive the plan; a built layout lives in the caller's arena.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyzer/suggest.h"

struct arena;
struct layout_type;
struct layout_member;
struct layout_annotate;
struct srcpatch_slot;
struct strbuf;

/**
 * struct suggest_plan - a struct cut into movable units.
 * @type:	the loaded struct
 * @units:	the units, in offset order
 * @first, @count: per unit, the members of @type it holds (@type->members[first..+count))
 * @unit_of:	per member of @type, its unit
 * @names:	per unit, the name a source patch uses (anonymous units: their inner names
 *		joined with '|')
 */
struct suggest_plan {
	const struct layout_type *type;
	struct suggest_unit *units;
	unsigned int nr_units;
	unsigned int *first, *count;
	unsigned int *unit_of;
	char **names;
};

/*
 * Cut @type into units; @pins (member names) are kept at their offsets.  Returns 0; -EINVAL
 * with @err saying why no order can be suggested (a union); -ENOENT when a pin names no
 * member (@err lists the members there are).
 */
int suggest_plan__init(struct suggest_plan *p, const struct layout_type *type,
		       const char *const *pins, unsigned int nr_pins, char *err, size_t errlen);
void suggest_plan__release(struct suggest_plan *p);

/*
 * The result's order as a layout_type, placed by layout__build (with an aligned(N) attribute
 * where the result starts a line), in @arena.  @offsets, when not NULL, receives each unit's
 * offset in the built layout (the first member's; a caller compares them with the result's
 * and predicts again when gcc's bit-field rules placed a unit elsewhere).  0, or -EINVAL.
 */
int suggest_plan__build(const struct suggest_plan *p, const struct suggest_result *r,
			struct arena *arena, struct layout_type **out, uint64_t *offsets,
			char *err, size_t errlen);

/*
 * The new order for the source patcher: one slot per member name of each unit (a bit-field
 * unit's members in their order, an anonymous unit by its names joined with '|'), a group
 * name where a group starts, new_line where a line starts.  @expected gets every name the
 * debug info has, as the slots name them.  Both arrays are allocated (free them); the
 * strings are the plan's and the result's.
 */
void suggest_plan__slots(const struct suggest_plan *p, const struct suggest_result *r,
			 struct srcpatch_slot **slots, unsigned int *nr_slots,
			 const char ***expected, unsigned int *nr_expected);

/*
 * Hooks for layout__print: each member of the printed layout (@type: the old layout or
 * @built: the new one) gets its unit's use and figures, each cache-line boundary the
 * modeled transfers of that line before or after.
 */
struct suggest_print_ctx {
	const struct suggest_plan *plan;
	const struct suggest_result *res;
	const struct layout_type *printed;
	bool after;
	unsigned int line_size;
};

void suggest_plan__annotate(struct suggest_print_ctx *ctx, struct layout_annotate *out);

#endif
