/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_FIELDS_DIFF_TABLE_H
#define LINEUP_ANALYZER_FIELDS_DIFF_TABLE_H

/*
 * `lineup diff`'s two tables as table model instances (analyzer/table.h), so that --stdio,
 * --json, --csv and a browser render the same: the line groups (each metric before, after and
 * the change, after's counts scaled; the verdicts and addresses of both sides; what the lines
 * hold) and one struct's members (their places in both layouts and the same metrics).
 *
 *	struct fields_diff_view v = { &d, scale, only, all_members };
 *	struct table t;
 *	fields_diff_table__lines(&t, &v);		... render t ... table__release(&t);
 *	fields_diff_table__members(&t, &v, &d.structs[i]);
 *	fields_diff_table__text(&t, &sb);		the text, headers and rows
 *
 * Ownership: the view, and the fields_diff it points to, must outlive the tables.
 */
#include <stdbool.h>

#include "analyzer/fields_diff.h"
#include "analyzer/table.h"

struct strbuf;

/**
 * struct fields_diff_view - what the tables show.
 * @d:		the comparison
 * @scale:	after's counts times @scale are comparable with before's
 * @only:	the struct -C named (its line groups only), or NULL
 * @all_members: members nothing touched are rows too
 */
struct fields_diff_view {
	const struct fields_diff *d;
	double scale;
	const struct diff_struct *only;
	bool all_members;
};

void fields_diff_table__lines(struct table *t, const struct fields_diff_view *v);
void fields_diff_table__members(struct table *t, const struct fields_diff_view *v,
				const struct diff_struct *ds);
/* @t's headers and rows as text, into @sb. */
void fields_diff_table__text(const struct table *t, struct strbuf *sb);

/* "struct counters: a, b; struct file: f_count" from a group's sorted keys. */
void fields_diff_group__holds(const struct diff_group *g, struct strbuf *sb);

#endif
