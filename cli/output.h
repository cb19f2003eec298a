/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_CLI_OUTPUT_H
#define LINEUP_CLI_OUTPUT_H

/*
 * The program's renderers of the table model (analyzer/table.h) besides --stdio's text (which
 * is pure and lives with the model): one JSON writer and one CSV writer, the only places that
 * escape JSON strings and CSV fields (through util/strbuf's one escaper of each), and the check
 * that a command's output was written whole.
 *
 *	struct json j;
 *	json__init(&j, stdout, false);
 *	json__begin_object(&j);
 *	json__key(&j, "lines"); json__begin_array(&j);
 *	for each row: json__begin_object(&j); json__row(&j, t, row); json__end_object(&j);
 *	json__end_array(&j); json__end_object(&j);
 *	...
 *	return cli__close_output(stdout, "standard output", rc);
 *
 * Ownership: a writer borrows its FILE; json__release/csv__release free what it holds.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/strbuf.h"

struct table;

#define JSON_MAX_DEPTH 32

/**
 * struct json - a streaming JSON writer that places the commas.
 * @compact:	"," and ":" between items (else ", " and ": ")
 * @brk:	the indentation of a line break before the next item or closing bracket, -1
 *		for none (json__break)
 */
struct json {
	FILE *f;
	bool compact;
	int depth;
	bool has_items[JSON_MAX_DEPTH];
	bool after_key;
	int brk;
	struct strbuf sb;
};

void json__init(struct json *j, FILE *f, bool compact);
void json__release(struct json *j);
/* Start the next item (or the closing bracket) on a new line indented by @indent spaces. */
void json__break(struct json *j, int indent);
void json__begin_object(struct json *j);
void json__end_object(struct json *j);
void json__begin_array(struct json *j);
void json__end_array(struct json *j);
void json__key(struct json *j, const char *key);
/* Values; json__str(j, NULL) writes null. */
void json__str(struct json *j, const char *s);
void json__u64(struct json *j, uint64_t v);
void json__i64(struct json *j, int64_t v);
void json__double(struct json *j, double v, int prec);
void json__bool(struct json *j, bool v);
/* @text as it is: a number or literal the caller formatted. */
void json__raw(struct json *j, const char *text);
/* Key and value at once. */
void json__kstr(struct json *j, const char *key, const char *s);
void json__ku64(struct json *j, const char *key, uint64_t v);
/*
 * The cells of @row as members of the open object ("name": value, ...), in column order;
 * text-only columns, and a name already written (a column shown twice), left out.
 */
void json__row(struct json *j, const struct table *t, const void *row);

/**
 * struct csv - a CSV writer (RFC 4180) for one or more tables in one stream.  The header is
 * the union of the tables' columns by name, in order of first appearance; with @table_column,
 * a leading "table" column says which table a row is of (report --csv: lines and entries),
 * and a row leaves the columns of other tables empty.
 */
struct csv {
	FILE *f;
	bool table_column;
	const char **names;
	int nr_names;
	size_t cap_names;
	const struct table *map_of;	/* the table @map is for */
	int *map;			/* per name: the column of @map_of, or -1 */
	struct strbuf sb;
};

void csv__init(struct csv *c, FILE *f, bool table_column);
void csv__release(struct csv *c);
/* Add @t's data columns to the header (before csv__header). */
void csv__add_columns(struct csv *c, const struct table *t);
void csv__header(struct csv *c);
void csv__row(struct csv *c, const struct table *t, const void *row);

/* Write @sb and clear it. */
void output__strbuf(FILE *f, struct strbuf *sb);

/*
 * Flush @f and check that every write to it succeeded: if not, say so on stderr naming @name
 * ("lineup: writing standard output: No space left on device") and return EXIT_USAGE, else
 * return @rc.
 */
int cli__close_output(FILE *f, const char *name, int rc);

#endif
