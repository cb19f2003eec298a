/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_TABLE_H
#define LINEUP_ANALYZER_TABLE_H

/*
 * The table model: every table lineup prints (the c2c report's, fields' member table, watch's
 * members and lines) is columns + rows + a context, and every output is a renderer of it
 * (perf's c2c_dimension/perf_hpp_fmt, with the context pointer perf's formats carry).
 *
 * A column is data: a name (the JSON/CSV key), up to two header lines with perf's spans, a text
 * width and alignment, a kind, and functions that give a row's typed value (numbers stay
 * numbers: sorting and JSON use them) and, where a format has quirks to keep (perf's padding,
 * call-chain symbols), the cell's text.  Each column carries its own context pointer (@ctx), so
 * a column added by another module (report --fields' Type and Member) finds its data without
 * a registry; the table's @ctx and @parent are what every column of it shares (the c2c view,
 * the cache line whose entries the rows are).
 *
 * A row is a pointer to what it describes (a c2c line, a c2c entry, a member's row): a browser
 * keeps it as the row's key, sorts and searches rows without knowing their type, and drills
 * down through @drill.  The table does not own what its rows point to.
 *
 * How a front end renders a table (the TUI, a new output format):
 *	for each column c (t->cols[0 .. t->nr_cols - 1], skipping table_column__hidden(c, mode)):
 *		table__width(t, c) columns wide, header table__header(t, c, 0 / 1);
 *	for each row r (t->rows[0 .. t->nr_rows - 1]):
 *		table__cell_text(t, c, r, width, &sb)		text as --stdio prints it, or
 *		table__cell(t, c, r, &cell)			the typed value (JSON, sorting);
 *	table__sort(t, c, descending), table__find(t, from, "needle") for the browser's keys,
 *	t->drill(t, r, &sub) for Enter on a row (0 when the row has one), table__release(&sub).
 * table_text__row() and table_text__headers() build --stdio's lines (pure: into a strbuf); the
 * JSON and CSV renderers are in cli/table_out.h, one of each for the whole program.
 *
 * Ownership: a table owns its column and row arrays (table__release frees them), not the
 * objects its rows and contexts point to: those must outlive it.  Pure: no I/O, no globals.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

struct table;
struct table_column;

/* What a cell holds; the JSON and CSV renderers and the default text follow it. */
enum table_kind {
	TABLE_COUNT,	/* unsigned integer (@u): "%*u" */
	TABLE_INT,	/* signed integer (@i) */
	TABLE_PERCENT,	/* a percentage (@d): "12.34%" in text, 12.34 in JSON and CSV */
	TABLE_CYCLES,	/* mean cycles (@d) */
	TABLE_FLOAT,	/* any other real number (@d) */
	TABLE_ADDR,	/* an address or offset (@u): "0x1234", a string in JSON (as perf's hex) */
	TABLE_STRING,	/* text (@s) */
	TABLE_PAIR,	/* two counts (@u, @u2): "3/4" in text, two keys (@name, @name2) in data */
	TABLE_BOOL,	/* yes/no (@u): true/false in JSON */
};

/**
 * struct table_cell - one typed value.
 * @kind:	the column's kind (a value function may set TABLE_STRING for "n/a" and the like)
 * @u, @u2, @i, @d: the number(s), by @kind
 * @s:		TABLE_STRING: the text (borrowed, or @text.buf)
 * @text:	room for a value function that builds its text (owned by whoever made the cell:
 *		table_cell__init/table_cell__release)
 */
struct table_cell {
	enum table_kind kind;
	uint64_t u, u2;
	int64_t i;
	double d;
	const char *s;
	struct strbuf text;
};

enum table_align { TABLE_RIGHT, TABLE_LEFT };

/* Column flags: where a column appears. */
#define TABLE_DATA_ONLY 0x1	/* JSON and CSV only (fields' Type) */
#define TABLE_TEXT_ONLY 0x2	/* --stdio and browsers only (perf's empty Num column) */

/**
 * struct table_column - one column.
 * @name:	the JSON/CSV key (and the browser's column id)
 * @name2:	TABLE_PAIR: the second value's key
 * @header:	the text header's lines 0 and 1 (NULL: blank); tables with one header line use [1]
 * @span:	header line 0 covers this many following columns too (perf's group headers)
 * @width:	text width (see @width_of)
 * @align:	where the default text sits in its width
 * @kind:	the value's kind
 * @prec:	digits after the point of TABLE_PERCENT/CYCLES/FLOAT in JSON and CSV
 * @text_prec:	the same in text
 * @flags:	TABLE_DATA_ONLY, TABLE_TEXT_ONLY
 * @value:	the row's value into @out (kind preset to @kind).  NULL for a text-only column: a
 *		TABLE_STRING column's value is then its @text at width 256, trimmed.
 * @text:	the cell's text at @width into @buf (at most @size bytes, NUL-terminated), for
 *		formats with quirks (perf's); returns its length, which may be short of @width
 *		(the renderer pads).  NULL: the value formatted by kind and aligned.
 * @width_of:	the width when it depends on the table (a line's widest symbol); NULL: @width
 * @header_of:	the header text when it depends on the options; NULL: @header
 * @compare:	sort order of two rows (<0, 0, >0); NULL: by value (numbers, then text)
 * @ctx:	the column's own context (what @value and @text read besides the row)
 */
struct table_column {
	const char *name, *name2;
	const char *header[2];
	int span;
	int width;
	enum table_align align;
	enum table_kind kind;
	int prec, text_prec;
	unsigned int flags;
	void (*value)(const struct table *t, const struct table_column *col, const void *row,
		      struct table_cell *out);
	int (*text)(const struct table *t, const struct table_column *col, const void *row,
		    int width, char *buf, size_t size);
	int (*width_of)(const struct table *t, const struct table_column *col);
	const char *(*header_of)(const struct table *t, const struct table_column *col, int line);
	int (*compare)(const struct table *t, const struct table_column *col, const void *a,
		       const void *b);
	const void *ctx;
};

/**
 * struct table - columns, rows and their context.
 * @name:	what the rows are ("lines", "entries", "members"): the CSV table column, a
 *		browser's title
 * @cols:	the columns, in order (copies: table__add_column)
 * @rows:	what each row describes (borrowed pointers, in display order)
 * @ctx:	what every column shares (the c2c view, the fields report)
 * @parent:	the object the rows belong to (the c2c line of an entries table), or NULL
 * @drill:	the table one level down from row @row into @sub (a line's entries, a struct's
 *		members); 0 when there is one, -1 when not.  NULL: no level below.
 */
struct table {
	const char *name;
	struct table_column *cols;
	int nr_cols;
	size_t cap_cols;
	const void **rows;
	size_t nr_rows, cap_rows;
	const void *ctx;
	const void *parent;
	int (*drill)(const struct table *t, const void *row, struct table *sub);
};

#define TABLE_INIT(n) { .name = (n) }

void table__init(struct table *t, const char *name, const void *ctx);
void table__release(struct table *t);

/* Append a copy of @col with @ctx as its context; returns the copy (NULL when @col is NULL). */
struct table_column *table__add_column(struct table *t, const struct table_column *col,
				       const void *ctx);
/* Insert a copy at @at (0 .. nr_cols). */
struct table_column *table__insert_column(struct table *t, int at, const struct table_column *col,
					  const void *ctx);
/* The first column named @name, or NULL. */
const struct table_column *table__column(const struct table *t, const char *name);
/* Copy @src's columns, context, name and drill into @dst (rows not copied). */
void table__copy_columns(struct table *dst, const struct table *src);

void table__add_row(struct table *t, const void *row);
void table__clear_rows(struct table *t);

/* Whether @col is left out of text (@text true) or of JSON/CSV (@text false). */
static inline bool table_column__hidden(const struct table_column *col, bool text)
{
	return col->flags & (text ? TABLE_DATA_ONLY : TABLE_TEXT_ONLY);
}

int table__width(const struct table *t, const struct table_column *col);
/* Header line @line (0 or 1), never NULL. */
const char *table__header(const struct table *t, const struct table_column *col, int line);
/*
 * The column's name as a reader says it (a browser's status line, a row shown as a list):
 * its header, after the group header above it when that heads this column alone ("Total
 * records", "cpu cnt"); the column's name when it has no header.
 */
void table__column_title(const struct table *t, const struct table_column *col,
			 struct strbuf *out);

/* A cell's value: table_cell__init first, table_cell__release after the last use. */
void table_cell__init(struct table_cell *c);
void table_cell__release(struct table_cell *c);
void table__cell(const struct table *t, const struct table_column *col, const void *row,
		 struct table_cell *out);
/* Set helpers for value functions. */
void table_cell__set_str(struct table_cell *c, const char *s);
void table_cell__set_strf(struct table_cell *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The cell's text (appended to @out): the column's @text, or the value formatted by kind
 * ("%*u", "12.34%", "0x1f", "3/4") and aligned in @width.  @pad: pad a short text to @width
 * (false leaves a left-aligned last column unpadded, as perf and most tools do).
 */
void table__cell_text(const struct table *t, const struct table_column *col, const void *row,
		      int width, bool pad, struct strbuf *out);

/*
 * A value as JSON and CSV write it (no quotes, no escaping): "12", "12.34", "0x1f"; of a pair
 * the first value (the second is @u2, under @name2).  Returns false for text (the caller
 * quotes it; non-finite numbers are text too).
 */
bool table_cell__plain(const struct table_cell *c, const struct table_column *col,
		       struct strbuf *out);

/* Order rows by @col (stable: equal rows keep their order). */
void table__sort(struct table *t, const struct table_column *col, bool descending);
/* The first row at or after @from whose text in any shown column contains @needle, or -1. */
long table__find(const struct table *t, size_t from, const char *needle);
/* Whether a shown column's text of @row contains @needle (a browser's search backwards). */
bool table__row_matches(const struct table *t, const void *row, const char *needle);

/**
 * struct table_text_style - how --stdio lays a table out.
 * @head_prefix: before each header line ("# " in perf's tables)
 * @row_prefix:	before each row ("  " in perf's)
 * @sep:	between cells
 * @header_lines: 1 (line 1 of the headers only) or 2 (with line 0's spans)
 * @dots:	perf's "# ....  ...." line and "#" after the headers
 * @pad_last:	pad the last cell to its width
 */
struct table_text_style {
	const char *head_prefix, *row_prefix, *sep;
	int header_lines;
	bool dots, pad_last;
};

/* The header lines (each ending in '\n') and the row @row (without '\n'), appended to @out. */
void table_text__headers(const struct table *t, const struct table_text_style *st,
			 struct strbuf *out);
void table_text__row(const struct table *t, const void *row, const struct table_text_style *st,
		     struct strbuf *out);

#endif
