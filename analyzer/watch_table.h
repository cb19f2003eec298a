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

struct watch_tables {
	const struct watch_object *o;
	double secs;			/* the run's length, for the cover column */
	struct table members;		/* rows: const struct watch_member * */
	struct table lines;		/* rows: const struct watch_line * */
	struct watch_line *line_rows;
	size_t nr_lines;
};

void watch_tables__init(struct watch_tables *wt, const struct watch_object *o, double secs);
void watch_tables__release(struct watch_tables *wt);

#endif
