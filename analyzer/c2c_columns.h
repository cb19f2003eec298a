/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_C2C_COLUMNS_H
#define LINEUP_ANALYZER_C2C_COLUMNS_H

/*
 * The columns of the c2c report, as data (perf's c2c_dimension): a name, two header lines with
 * perf's spans, a width and a cell function that formats exactly as perf's --stdio does.  The
 * same tables drive --stdio, --json, --csv (a cell printed at width 0 and trimmed is the plain
 * value) and the TUI.
 *
 * Three tables: the Shared Data Cache Line Table (rows are lines), the Pareto's per-line header
 * row (a line), and the Pareto rows (entries).  c2c_view__init builds them from the options.
 */

#include <stdbool.h>
#include <stddef.h>

#include "analyzer/c2c.h"

enum c2c_col_kind {
	C2C_COL_INT,		/* unsigned count */
	C2C_COL_PERCENT,	/* "12.34%" */
	C2C_COL_HEX,		/* "0x1234" */
	C2C_COL_MEAN,		/* mean cycles, "%.0f" */
	C2C_COL_STRING,
};

struct c2c_view;

/**
 * struct c2c_column - one column.
 * @name:	perf's dimension name, also the JSON/CSV key
 * @hdr:	header text of line 0 and line 1 (NULL: blank)
 * @span:	line 0's text covers this many following columns too
 * @width:	fixed width; width_fn, when set, decides instead (per line for symbols)
 * @cell:	format the cell into @buf (at most @size bytes), padded to @width the way perf
 *		pads it; @l is the row's line, @e the entry (NULL for line rows).  Returns the
 *		length written.
 */
struct c2c_column {
	const char *name;
	const char *hdr[2];
	int span;
	int width;
	enum c2c_col_kind kind;
	int (*width_fn)(const struct c2c_view *v, const struct c2c_line *l);
	int (*cell)(const struct c2c_view *v, const struct c2c_line *l, const struct c2c_entry *e,
		    int width, char *buf, size_t size);
	/* the header text when it depends on the options (NULL: @hdr) */
	const char *(*hdr_fn)(const struct c2c_view *v, int line);
};

#define C2C_MAX_COLS 32

struct c2c_table {
	const struct c2c_column *cols[C2C_MAX_COLS];
	int nr;
};

/**
 * struct c2c_view - a c2c's results as shown: the options that change columns and the three
 * column tables.
 */
struct c2c_view {
	const struct c2c *c;
	enum c2c_display display;
	bool full_symbols;
	bool stdio;		/* perf's stdio quirks: the empty Num column */
	int node_info;
	bool show_src;
	struct c2c_table lines;		/* Shared Data Cache Line Table */
	struct c2c_table cl_row;	/* the Pareto's line header row */
	struct c2c_table entries;	/* the Pareto's rows */
	char cl_hdr0[80];		/* "----- Cacheline -----" filled to its span */
	char off_hdr0[80];		/* "--- Data address ---" */
};

/*
 * Build the tables.  @keys/@nr_keys are the coalesce keys (their presence picks the pid, tid,
 * iaddr, symbol, dso columns); @no_source drops Source:Line.  Call after c2c__finish and
 * c2c__resolve (the Node width depends on them).
 */
void c2c_view__init(struct c2c_view *v, const struct c2c *c, bool stdio, bool full_symbols,
		    bool no_source);

int c2c_column__width(const struct c2c_view *v, const struct c2c_column *col,
		      const struct c2c_line *l);
/* The header text of @line (0 or 1), never NULL. */
const char *c2c_column__header(const struct c2c_view *v, const struct c2c_column *col, int line);

/* Display names of the -d modes, as perf prints them ("Total HITMs"). */
const char *c2c_display__name(enum c2c_display d);

#endif
