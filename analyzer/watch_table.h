/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_WATCH_TABLE_H
#define LINEUP_ANALYZER_WATCH_TABLE_H

/*
 * `lineup watch`'s tables as table model instances (analyzer/table.h), kept apart from the
 * analysis they show (analyzer/watch_object.h):
 *  - the member table: one row per watched member (struct watch_member): offset, cache line,
 *    watched/total bytes, how long it was watched, hits by access kind, transfers, writer and
 *    reader CPUs (and, in data only, the word's address, HITM loads, invalidations);
 *  - the line table: one row per cache line of the object (struct watch_line): the watched
 *    members on it and what they add up to.
 * --stdio and --json (and a browser) render them.
 *
 *	struct watch_tables wt;
 *	watch_tables__init(&wt, &object, seconds);	rows: the watch order, every line
 *	... render wt.members and wt.lines ...
 *	watch_tables__release(&wt);
 *
 * Ownership: the tables own their row arrays and the line table's lines; the object must
 * outlive them.
 */
#include <stddef.h>

#include "analyzer/table.h"
#include "analyzer/watch_object.h"

/**
 * struct watch_section_info - the object a member table's rows are of, for one table of
 * several objects' members (--csv): its leading data-only columns.
 * @number:	1 for the first object followed
 * @status:	"watched", "skipped"
 * @path, @allocated_at, @user_caller: what the object is ("" when not known)
 */
struct watch_section_info {
	unsigned int number;
	const char *status;
	uint64_t address;
	const char *path, *allocated_at, *user_caller;
};

struct watch_tables {
	const struct watch_object *o;
	const struct watch_section_info *info;	/* NULL: no object columns */
	double secs;			/* the run's length, for the cover column */
	struct table members;		/* rows: const struct watch_member * */
	struct table lines;		/* rows: const struct watch_line * */
	struct watch_line *line_rows;
	size_t nr_lines;
};

void watch_tables__init(struct watch_tables *wt, const struct watch_object *o, double secs);
/* The same, the member table led by data-only columns saying which object (@info outlives
 * the tables). */
void watch_tables__init_section(struct watch_tables *wt, const struct watch_object *o,
				double secs, const struct watch_section_info *info);
void watch_tables__release(struct watch_tables *wt);

#endif
