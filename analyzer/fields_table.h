/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_FIELDS_TABLE_H
#define LINEUP_ANALYZER_FIELDS_TABLE_H

/*
 * `lineup fields`' member table as a table model instance (analyzer/table.h): one row per
 * shown member of a struct (offset, size, cache line, member, hot-path use, type, loads,
 * stores, locked, local/remote HITMs, mean cycles, CPUs and threads reading and writing, the
 * code touching it), then "<holes/padding>" when bytes in no member were touched.  --stdio,
 * --json, --csv and a browser render the same table.
 *
 *	struct fields_table ft;
 *	fields_table__init(&ft, f->line_size, namer, namer_ctx);
 *	fields_table__fill(&ft, fs, all_members);	rows of struct @fs (again for the next one)
 *	... render ft.t ...
 *	fields_table__release(&ft);
 *
 * Ownership: the fields_table owns its rows (rolled-up stats included); the field_struct it was
 * filled from and the namer's context must outlive the rendering.
 */
#include <stdbool.h>
#include <stddef.h>

#include "analyzer/fields.h"
#include "analyzer/table.h"

/**
 * struct fields_row - one row: a member with its counts, nested members rolled up.
 * @m:		the member, NULL for the "<holes/padding>" row
 * @st:		its counts, nested members included (@borrowed: a copy of the struct's own,
 *		not to be released)
 */
struct fields_row {
	const struct field_struct *fs;
	const struct flat_member *m;
	struct field_stats st;
	bool borrowed;
};

struct fields_table {
	struct table t;			/* rows: struct fields_row */
	unsigned int line_size;
	fields_ip_namer namer;
	void *namer_ctx;
	bool indent;			/* text: nested members indented, as pahole does */
	struct fields_row *rows;
	size_t nr_rows, cap_rows;
};

void fields_table__init(struct fields_table *ft, unsigned int line_size, fields_ip_namer namer,
			void *namer_ctx);
void fields_table__release(struct fields_table *ft);
/*
 * The rows of @fs: top-level members always, nested ones when touched (all with @all), a
 * container when one of its nested members was touched, and the holes when touched.
 */
void fields_table__fill(struct fields_table *ft, const struct field_struct *fs, bool all);

/* The cache line of a row's member (0 for the holes row). */
unsigned int fields_row__line(const struct fields_table *ft, const struct fields_row *r);

/*
 * One struct as `lineup fields` prints it: its heading, its evidence, its member table with
 * pahole's cache-line markers, appended to @out.  Every text front end prints it so.
 */
void fields_table__print_struct(struct fields_table *ft, const struct field_struct *fs,
				bool all, struct strbuf *out);

#endif
