/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_FIELDS_VIEW_H
#define LINEUP_ANALYZER_FIELDS_VIEW_H

/*
 * Which of a recording's field tables a report shows: the structs and lines of the struct
 * asked for, the lines worth listing (--min-share), the lines an array finding stands for, and
 * what the run found in all.  The rules of `lineup fields`, for every front end.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyzer/array_align.h"
#include "analyzer/fields.h"

/**
 * struct fields_view - what is looked at.
 * @f, @align:	the tables and the array findings (borrowed)
 * @only_struct: the struct asked for ("file" or "struct file"), NULL: all
 * @min_share:	the share of all HITMs a contended line needs to be listed (a fraction)
 */
struct fields_view {
	const struct fields *f;
	const struct array_align *align;
	const char *only_struct;
	double min_share;
};

bool fields_view__struct_selected(const struct fields_view *v, const struct field_struct *fs);
/* A line concerns the struct asked for when one of its slots is of it. */
bool fields_view__line_selected(const struct fields_view *v, const struct field_line *l);
/* A finding is about the struct asked for when its element type is, or any of its lines. */
bool fields_view__align_selected(const struct fields_view *v, const struct align_finding *af);
/*
 * The lines of an array that starts inside a line, or whose elements the threads take in
 * turn, are that finding's, not listed one by one: their verdicts would advise aligning the
 * type, which does not move the array, or give every element a line of its own.
 */
bool fields_view__align_hides(const struct fields_view *v, uint64_t addr);
/* A contended line of the struct asked for with enough of the HITMs to be listed. */
bool fields_view__line_shown(const struct fields_view *v, const struct field_line *l);

/* What the run found, counted once for every output. */
struct fields_view_result {
	size_t arrays;		/* alignment findings (their lines are not counted again) */
	size_t listed, by_verdict[LINE_WRITE_READ + 1];
	size_t below;		/* contended, under min_share */
	uint64_t below_hitm;
	const char *attribution;	/* "complete", "partial" or "none" */
};

void fields_view__result(const struct fields_view *v, struct fields_view_result *r);

/* The bytes a slot covers from its offset: its member's (an array's element), else one. */
uint64_t line_slot__size(const struct line_slot *s);

#endif
