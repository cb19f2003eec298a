/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_C2C_COLUMNS_H
#define LINEUP_ANALYZER_C2C_COLUMNS_H

/*
 * The columns of the c2c report, as table model instances (analyzer/table.h; perf's
 * c2c_dimension): each with perf's name, two header lines with perf's spans, a width, a typed
 * value and, where perf's text has quirks (thread, symbol, object, source line, node), a text
 * function that formats exactly as perf's --stdio does.  The same tables drive --stdio,
 * --json, --csv and the TUI.
 *
 * Three tables share the view as their context: the Shared Data Cache Line Table (rows are
 * lines, Enter drills into the line's entries), the Pareto's per-line header row (a line), and
 * the Pareto rows (entries of entries.parent, a line: c2c_view__entries fills them).
 */

#include <stdbool.h>
#include <stddef.h>

#include "analyzer/c2c.h"
#include "analyzer/table.h"

/**
 * struct c2c_view - a c2c's results as shown: the options that change columns and the three
 * tables.
 */
struct c2c_view {
	const struct c2c *c;
	enum c2c_display display;
	bool full_symbols;
	bool stdio;		/* perf's stdio quirks: the empty Num column */
	int node_info;
	bool show_src;
	struct table lines;		/* Shared Data Cache Line Table: the shown lines */
	struct table cl_row;		/* the Pareto's line header row (rows: the caller's) */
	struct table entries;		/* the Pareto's rows (no rows until c2c_view__entries) */
	char cl_hdr0[80];		/* "----- Cacheline -----" filled to its span */
	char off_hdr0[80];		/* "--- Data address ---" */
};

/*
 * Build the tables.  The coalesce keys of @c pick the pid, tid, iaddr, symbol, dso columns;
 * @no_source drops Source:Line.  Call after c2c__finish and c2c__resolve (the Node width and
 * the shown lines depend on them); c2c_view__release after the last use.
 */
void c2c_view__init(struct c2c_view *v, const struct c2c *c, bool stdio, bool full_symbols,
		    bool no_source);
void c2c_view__release(struct c2c_view *v);
/* Whether the view will show Source:Line (c2c__resolve must find the lines then). */
bool c2c_view__wants_source(const struct c2c *c, bool no_source);
/* Make @t (the entries table or a copy of its columns) the Pareto rows of line @l. */
void c2c_view__entries(const struct c2c_view *v, const struct c2c_line *l, struct table *t);

/* Display names of the -d modes, as perf prints them ("Total HITMs"). */
const char *c2c_display__name(enum c2c_display d);

#endif
