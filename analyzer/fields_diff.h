/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_FIELDS_DIFF_H
#define LINEUP_ANALYZER_FIELDS_DIFF_H

/*
 * Two recordings' field tables compared (`lineup diff`): members matched by type and member
 * path, cache lines by what they hold (the type and member of each slot, whatever the address:
 * ASLR moves every one of them, and a new layout splits or merges lines), and a struct whose
 * layout differs between the two binaries with each member's move.
 *
 * Lines are matched as the connected pieces of "holds a member the other holds": a line of
 * (before) holding a and b, split into two lines of (after) holding a and b apart, is one
 * group of 1 line before and 2 after.  Lines that hold nothing attributed cannot be matched:
 * they are summed per side as the unattributed group.
 *
 * Counts are compared after scaling (after) by @scale (the work done by (before) per work done
 * by (after): the caller's choice of basis, 1 for none), so that recordings of different
 * lengths compare.
 *
 * Pure: no I/O, no globals.  Ownership: a fields_diff owns its arrays and borrows the two
 * struct fields it was built from (and their layouts): they must outlive it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyzer/fields.h"

/**
 * struct diff_counts - what one side shows for a member or a group of lines.
 * @present:	the side has it (a member of a struct it recorded, a line holding it)
 * @hitm, @loads, @stores, @locked: samples
 * @weight_sum, @weighted: cycles (sample weight) summed, and samples that had one
 * @readers, @writers: distinct CPUs reading, writing
 * @lines:	cache lines (groups)
 */
struct diff_counts {
	bool present;
	uint64_t hitm, loads, stores, locked;
	uint64_t weight_sum, weighted;
	uint32_t readers, writers;
	uint32_t lines;
};

/**
 * struct diff_member - one member of a struct, before and after.
 * @type:	the struct's name ("struct file")
 * @path:	the member path ("f_path.dentry"); NULL for the struct's holes and padding
 * @side:	[0] before, [1] after
 * @offset, @size: its place in each side's layout (valid where @side[k].present or the layout
 *		has it: @in_layout)
 * @in_layout:	the member exists in that side's layout
 */
struct diff_member {
	const char *type;
	const char *path;
	struct diff_counts side[2];
	uint64_t offset[2], size[2];
	bool in_layout[2];
};

/**
 * struct diff_struct - a struct seen on either side.
 * @name:	its name
 * @layout:	each side's layout (NULL where that side did not attribute to it)
 * @total:	the whole struct, each side
 * @members:	first..first+nr-1 in fields_diff.members
 * @layout_changed: both layouts known and a member moved, grew, appeared or went, or the size
 *		changed
 */
struct diff_struct {
	const char *name;
	const struct flat_layout *layout[2];
	struct diff_counts total[2];
	size_t first, nr;
	bool layout_changed;
};

/**
 * struct diff_group - lines matched by what they hold.
 * @keys:	"struct T.member" of every slot the group's lines hold, sorted, unique (borrowed
 *		from fields_diff.keys); none for the unattributed group
 * @nr_keys:	how many
 * @side:	each side's lines summed (@side[k].lines: how many lines)
 * @addr:	the first line's address on each side (0: none), for reference only
 * @verdict:	each side's worst line verdict
 * @hot:	the larger of its HITMs before and after (scaled): the groups' order
 */
struct diff_group {
	const char **keys;
	size_t nr_keys;
	struct diff_counts side[2];
	uint64_t addr[2];
	enum line_verdict verdict[2];
	double hot;
};

struct fields_diff {
	double scale;
	struct diff_struct *structs;
	size_t nr_structs;
	struct diff_member *members;
	size_t nr_members;
	struct diff_group *groups; /* the hottest (HITMs on either side) first */
	size_t nr_groups;
	/* private */
	const char **keys; /* every group's keys, one array */
	char *key_text;	   /* the keys' characters */
};

/*
 * Compare @before with @after (both finished: fields__finish), counts of @after scaled by
 * @scale (> 0) for the change.  Returns 0, -EINVAL or -ENOMEM.
 */
int fields_diff__build(struct fields_diff *d, const struct fields *before,
		       const struct fields *after, double scale);
void fields_diff__release(struct fields_diff *d);

/*
 * The change of @before to @after for a count, in percent of @before, @after scaled by @scale;
 * +inf when @before is 0 and @after is not, 0 when both are.
 */
double fields_diff__change(uint64_t before, uint64_t after, double scale);

/* Mean cycles of @c, 0 without weights. */
static inline double diff_counts__cycles(const struct diff_counts *c)
{
	return c->weighted ? (double)c->weight_sum / (double)c->weighted : 0;
}

#endif
