// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "cli/output.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/table.h"
#include "cli/command.h"
#include "util/xalloc.h"

/* ---- JSON ---- */

void json__init(struct json *j, FILE *f, bool compact)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->compact = compact;
	j->brk = -1;
}

void json__release(struct json *j)
{
	strbuf__release(&j->sb);
}

void json__break(struct json *j, int indent)
{
	j->brk = indent;
}

static void put_break(struct json *j)
{
	if (j->brk < 0)
		return;
	fprintf(j->f, "\n%*s", j->brk, "");
	j->brk = -1;
}

/* Before an item of the open container: its comma (and line break). */
static void item(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->has_items[j->depth])
		fputs(j->compact || j->brk >= 0 ? "," : ", ", j->f);
	put_break(j);
	j->has_items[j->depth] = true;
}

static void json_open(struct json *j, char c)
{
	item(j);
	fputc(c, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->has_items[j->depth] = false;
}

static void json_close(struct json *j, char c)
{
	put_break(j);
	fputc(c, j->f);
	if (j->depth > 0)
		j->depth--;
}

void json__begin_object(struct json *j)
{
	json_open(j, '{');
}

void json__end_object(struct json *j)
{
	json_close(j, '}');
}

void json__begin_array(struct json *j)
{
	json_open(j, '[');
}

void json__end_array(struct json *j)
{
	json_close(j, ']');
}

static void quoted(struct json *j, const char *s)
{
	strbuf__reset(&j->sb);
	strbuf__add_json(&j->sb, s);
	fputc('"', j->f);
	if (j->sb.len)
		fwrite(j->sb.buf, 1, j->sb.len, j->f);
	fputc('"', j->f);
}

void json__key(struct json *j, const char *key)
{
	item(j);
	quoted(j, key);
	fputs(j->compact ? ":" : ": ", j->f);
	j->after_key = true;
}

void json__str(struct json *j, const char *s)
{
	item(j);
	if (s)
		quoted(j, s);
	else
		fputs("null", j->f);
}

void json__raw(struct json *j, const char *text)
{
	item(j);
	fputs(text, j->f);
}

void json__u64(struct json *j, uint64_t v)
{
	item(j);
	fprintf(j->f, "%" PRIu64, v);
}

void json__i64(struct json *j, int64_t v)
{
	item(j);
	fprintf(j->f, "%" PRId64, v);
}

void json__double(struct json *j, double v, int prec)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*f", prec, v);
	if (strchr(buf, 'n') || strchr(buf, 'N'))	/* nan and inf are no JSON numbers */
		json__str(j, buf);
	else
		json__raw(j, buf);
}

void json__bool(struct json *j, bool v)
{
	json__raw(j, v ? "true" : "false");
}

void json__kstr(struct json *j, const char *key, const char *s)
{
	json__key(j, key);
	json__str(j, s);
}

void json__ku64(struct json *j, const char *key, uint64_t v)
{
	json__key(j, key);
	json__u64(j, v);
}

/* A column whose name an earlier data column of @t already has (perf shows some twice). */
static bool shown_before(const struct table *t, int i)
{
	for (int k = 0; k < i; k++)
		if (!table_column__hidden(&t->cols[k], false) &&
		    !strcmp(t->cols[k].name, t->cols[i].name))
			return true;
	return false;
}

void json__row(struct json *j, const struct table *t, const void *row)
{
	struct table_cell cell;
	struct strbuf sb = STRBUF_INIT;

	table_cell__init(&cell);
	for (int i = 0; i < t->nr_cols; i++) {
		const struct table_column *col = &t->cols[i];

		if (table_column__hidden(col, false) || shown_before(t, i))
			continue;
		table__cell(t, col, row, &cell);
		strbuf__reset(&sb);
		json__key(j, col->name);
		if (table_cell__plain(&cell, col, &sb))
			json__raw(j, sb.buf);
		else
			json__str(j, sb.buf ? sb.buf : "");
		if (cell.kind == TABLE_PAIR && col->name2)
			json__ku64(j, col->name2, cell.u2);
	}
	strbuf__release(&sb);
	table_cell__release(&cell);
}

/* ---- CSV ---- */

void csv__init(struct csv *c, FILE *f, bool table_column)
{
	memset(c, 0, sizeof(*c));
	c->f = f;
	c->table_column = table_column;
}

void csv__release(struct csv *c)
{
	free(c->names);
	free(c->map);
	strbuf__release(&c->sb);
}

static void add_name(struct csv *c, const char *name)
{
	for (int i = 0; i < c->nr_names; i++)
		if (!strcmp(c->names[i], name))
			return;
	c->names = xgrow(c->names, &c->cap_names, (size_t)c->nr_names + 1, sizeof(*c->names));
	c->names[c->nr_names++] = name;
}

void csv__add_columns(struct csv *c, const struct table *t)
{
	for (int i = 0; i < t->nr_cols; i++) {
		const struct table_column *col = &t->cols[i];

		if (table_column__hidden(col, false))
			continue;
		add_name(c, col->name);
		if (col->kind == TABLE_PAIR && col->name2)
			add_name(c, col->name2);
	}
	zfree(&c->map);
	c->map_of = NULL;
}

void csv__header(struct csv *c)
{
	strbuf__reset(&c->sb);
	if (c->table_column)
		strbuf__add(&c->sb, "table", 5);
	for (int i = 0; i < c->nr_names; i++) {
		if (i || c->table_column)
			strbuf__add(&c->sb, ",", 1);
		strbuf__add_csv(&c->sb, c->names[i]);
	}
	strbuf__add(&c->sb, "\n", 1);
	output__strbuf(c->f, &c->sb);
}

/*
 * Which column of @t each header name is (-1: none; a pair's second name: the pair's column
 * with the index negated minus 2).
 */
static void map_table(struct csv *c, const struct table *t)
{
	if (c->map_of == t && c->map)
		return;
	if (!c->map)
		c->map = xmalloc((size_t)(c->nr_names ? c->nr_names : 1) * sizeof(*c->map));
	for (int n = 0; n < c->nr_names; n++) {
		c->map[n] = -1;
		for (int i = 0; i < t->nr_cols && c->map[n] == -1; i++) {
			const struct table_column *col = &t->cols[i];

			if (table_column__hidden(col, false))
				continue;
			if (!strcmp(col->name, c->names[n]))
				c->map[n] = i;
			else if (col->kind == TABLE_PAIR && col->name2 &&
				 !strcmp(col->name2, c->names[n]))
				c->map[n] = -2 - i;
		}
	}
	c->map_of = t;
}

void csv__row(struct csv *c, const struct table *t, const void *row)
{
	struct table_cell cell;
	struct strbuf v = STRBUF_INIT;

	map_table(c, t);
	table_cell__init(&cell);
	strbuf__reset(&c->sb);
	if (c->table_column)
		strbuf__add_csv(&c->sb, t->name ? t->name : "");
	for (int n = 0; n < c->nr_names; n++) {
		int i = c->map[n];

		if (n || c->table_column)
			strbuf__add(&c->sb, ",", 1);
		if (i == -1)
			continue;
		table__cell(t, &t->cols[i < 0 ? -2 - i : i], row, &cell);
		strbuf__reset(&v);
		if (i < 0)
			strbuf__addf(&v, "%" PRIu64, cell.u2);
		else
			table_cell__plain(&cell, &t->cols[i], &v);
		strbuf__add_csv(&c->sb, v.buf ? v.buf : "");
	}
	strbuf__add(&c->sb, "\n", 1);
	output__strbuf(c->f, &c->sb);
	strbuf__release(&v);
	table_cell__release(&cell);
}

/* ---- the output as a whole ---- */

void output__strbuf(FILE *f, struct strbuf *sb)
{
	if (sb->len)
		fwrite(sb->buf, 1, sb->len, f);
	strbuf__reset(sb);
}

int cli__close_output(FILE *f, const char *name, int rc)
{
	/*
	 * stdio keeps what it could not write and reports the error again at the flush, with
	 * its errno; an error flagged earlier and not repeated is still an error.
	 */
	errno = 0;
	if (fflush(f) == 0 && !ferror(f))
		return rc;
	cli__error("writing %s: %s", name, strerror(errno ? errno : EIO));
	return EXIT_RUNTIME;
}
