// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "analyzer/table.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* A text-only string column's value is its text at this width, trimmed (nothing cut). */
#define PLAIN_WIDTH 256

void table__init(struct table *t, const char *name, const void *ctx)
{
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->ctx = ctx;
}

void table__release(struct table *t)
{
	zfree(&t->cols);
	zfree(&t->rows);
	t->nr_cols = 0;
	t->cap_cols = 0;
	t->nr_rows = t->cap_rows = 0;
}

struct table_column *table__insert_column(struct table *t, int at, const struct table_column *col,
					  const void *ctx)
{
	struct table_column *c;

	if (!col)
		return NULL;
	if (at < 0 || at > t->nr_cols)
		at = t->nr_cols;
	t->cols = xgrow(t->cols, &t->cap_cols, (size_t)t->nr_cols + 1, sizeof(*t->cols));
	memmove(&t->cols[at + 1], &t->cols[at], (size_t)(t->nr_cols - at) * sizeof(*t->cols));
	c = &t->cols[at];
	*c = *col;
	c->ctx = ctx;
	t->nr_cols++;
	return c;
}

struct table_column *table__add_column(struct table *t, const struct table_column *col,
				       const void *ctx)
{
	return table__insert_column(t, t->nr_cols, col, ctx);
}

const struct table_column *table__column(const struct table *t, const char *name)
{
	for (int i = 0; i < t->nr_cols; i++)
		if (!strcmp(t->cols[i].name, name))
			return &t->cols[i];
	return NULL;
}

void table__copy_columns(struct table *dst, const struct table *src)
{
	dst->name = src->name;
	dst->ctx = src->ctx;
	dst->drill = src->drill;
	dst->nr_cols = 0;
	for (int i = 0; i < src->nr_cols; i++)
		table__add_column(dst, &src->cols[i], src->cols[i].ctx);
}

void table__add_row(struct table *t, const void *row)
{
	t->rows = xgrow(t->rows, &t->cap_rows, t->nr_rows + 1, sizeof(*t->rows));
	t->rows[t->nr_rows++] = row;
}

void table__clear_rows(struct table *t)
{
	t->nr_rows = 0;
}

int table__width(const struct table *t, const struct table_column *col)
{
	return col->width_of ? col->width_of(t, col) : col->width;
}

const char *table__header(const struct table *t, const struct table_column *col, int line)
{
	const char *s = col->header_of ? col->header_of(t, col, line) : col->header[line ? 1 : 0];

	return s ? s : "";
}

void table__column_title(const struct table *t, const struct table_column *col,
			 struct strbuf *out)
{
	const char *h0 = table__header(t, col, 0), *h1 = table__header(t, col, 1);

	while (*h0 == '-' || *h0 == ' ')
		h0++;
	if (*h0 && !col->span) {
		size_t n = strlen(h0);

		while (n && (h0[n - 1] == '-' || h0[n - 1] == ' '))
			n--;
		strbuf__add(out, h0, n);
		strbuf__add(out, " ", 1);
	}
	if (!*h1)
		h1 = col->name;
	strbuf__add(out, h1, strlen(h1));
}

/* ---- values ---- */

void table_cell__init(struct table_cell *c)
{
	memset(c, 0, sizeof(*c));
}

void table_cell__release(struct table_cell *c)
{
	strbuf__release(&c->text);
}

void table_cell__set_str(struct table_cell *c, const char *s)
{
	c->kind = TABLE_STRING;
	c->s = s ? s : "";
}

void table_cell__set_strf(struct table_cell *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf__vaddf(&c->text, fmt, ap);
	va_end(ap);
	c->kind = TABLE_STRING;
	c->s = c->text.buf ? c->text.buf : "";
}

/* The text of a column that has only one, at a wide width, trimmed: its plain value. */
static void plain_text_value(const struct table *t, const struct table_column *col,
			     const void *row, struct table_cell *out)
{
	char buf[PLAIN_WIDTH * 4];
	int n = col->text(t, col, row, PLAIN_WIDTH, buf, sizeof(buf));
	const char *p = buf;

	if (n < 0)
		n = 0;
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	buf[n] = '\0';
	while (*p == ' ')
		p++;
	while (n > (int)(p - buf) && buf[n - 1] == ' ')
		n--;
	strbuf__add(&out->text, p, (size_t)(n - (p - buf)));
	out->kind = TABLE_STRING;
	out->s = out->text.buf ? out->text.buf : "";
}

void table__cell(const struct table *t, const struct table_column *col, const void *row,
		 struct table_cell *out)
{
	strbuf__reset(&out->text);
	out->kind = col->kind;
	out->u = out->u2 = 0;
	out->i = 0;
	out->d = 0;
	out->s = "";
	if (col->value)
		col->value(t, col, row, out);
	else if (col->text)
		plain_text_value(t, col, row, out);
	if (out->kind == TABLE_STRING && !out->s)
		out->s = "";
}

/* The value as text, unaligned, in @buf or borrowed from the cell; @prec for real numbers. */
static const char *format_value(const struct table_cell *c, int prec, char *buf, size_t size)
{
	switch (c->kind) {
	case TABLE_COUNT:
		snprintf(buf, size, "%" PRIu64, c->u);
		break;
	case TABLE_INT:
		snprintf(buf, size, "%" PRId64, c->i);
		break;
	case TABLE_PERCENT:
		snprintf(buf, size, "%.*F%%", prec, c->d);
		break;
	case TABLE_CYCLES:
	case TABLE_FLOAT:
		snprintf(buf, size, "%.*f", prec, c->d);
		break;
	case TABLE_ADDR:
		snprintf(buf, size, "0x%" PRIx64, c->u);
		break;
	case TABLE_PAIR:
		snprintf(buf, size, "%" PRIu64 "/%" PRIu64, c->u, c->u2);
		break;
	case TABLE_BOOL:
		return c->u ? "yes" : "no";
	case TABLE_STRING:
		return c->s;
	}
	return buf;
}

static void add_spaces(struct strbuf *out, int n)
{
	static const char spaces[] = "                                ";

	while (n > 0) {
		int k = n < (int)sizeof(spaces) - 1 ? n : (int)sizeof(spaces) - 1;

		strbuf__add(out, spaces, (size_t)k);
		n -= k;
	}
}

void table__cell_text(const struct table *t, const struct table_column *col, const void *row,
		      int width, bool pad, struct strbuf *out)
{
	int n;

	if (col->text) {
		char buf[1024];

		n = col->text(t, col, row, width, buf, sizeof(buf));
		if (n < 0)
			n = 0;
		if (n >= (int)sizeof(buf))
			n = sizeof(buf) - 1;
		strbuf__add(out, buf, (size_t)n);
		if (pad && n < width)
			add_spaces(out, width - n);
		return;
	}
	{
		struct table_cell c;
		char num[64];
		const char *text;

		table_cell__init(&c);
		table__cell(t, col, row, &c);
		text = format_value(&c, col->text_prec, num, sizeof(num));
		n = (int)strlen(text);
		if (col->align == TABLE_RIGHT && n < width)
			add_spaces(out, width - n);
		strbuf__add(out, text, (size_t)n);
		if (col->align == TABLE_LEFT && pad && n < width)
			add_spaces(out, width - n);
		table_cell__release(&c);
	}
}

bool table_cell__plain(const struct table_cell *c, const struct table_column *col,
		       struct strbuf *out)
{
	char num[64];
	const char *text;

	switch (c->kind) {
	case TABLE_PERCENT:
	case TABLE_CYCLES:
	case TABLE_FLOAT:
		strbuf__addf(out, "%.*f", col->prec, c->d);
		return isfinite(c->d);	/* nan and inf: text */
	case TABLE_BOOL:
		strbuf__addf(out, "%s", c->u ? "true" : "false");
		return true;
	case TABLE_PAIR:	/* the first value: the second has a key (@name2) of its own */
		strbuf__addf(out, "%" PRIu64, c->u);
		return true;
	default:
		text = format_value(c, col->prec, num, sizeof(num));
		strbuf__add(out, text, strlen(text));
		return c->kind != TABLE_ADDR && c->kind != TABLE_STRING;
	}
}

/* ---- sorting and searching ---- */

struct sort_ctx {
	const struct table *t;
	const struct table_column *col;
	struct table_cell *cells;	/* one per row, by original index */
	bool desc;
};

static int cell_cmp(const struct table_cell *a, const struct table_cell *b)
{
	if (a->kind != b->kind)
		return (int)a->kind - (int)b->kind;
	switch (a->kind) {
	case TABLE_COUNT:
	case TABLE_ADDR:
	case TABLE_BOOL:
		return a->u < b->u ? -1 : a->u > b->u;
	case TABLE_PAIR:
		if (a->u != b->u)
			return a->u < b->u ? -1 : 1;
		return a->u2 < b->u2 ? -1 : a->u2 > b->u2;
	case TABLE_INT:
		return a->i < b->i ? -1 : a->i > b->i;
	case TABLE_PERCENT:
	case TABLE_CYCLES:
	case TABLE_FLOAT:
		return a->d < b->d ? -1 : a->d > b->d;
	case TABLE_STRING:
		return strcmp(a->s, b->s);
	}
	return 0;
}

static int sort_cmp(const void *pa, const void *pb, void *arg)
{
	const struct sort_ctx *s = arg;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int r;

	if (s->col->compare)
		r = s->col->compare(s->t, s->col, s->t->rows[a], s->t->rows[b]);
	else
		r = cell_cmp(&s->cells[a], &s->cells[b]);
	if (s->desc)
		r = -r;
	return r ? r : a < b ? -1 : a > b;
}

void table__sort(struct table *t, const struct table_column *col, bool descending)
{
	struct sort_ctx s = { t, col, NULL, descending };
	size_t *order;
	const void **rows;

	if (t->nr_rows < 2)
		return;
	order = xmalloc(t->nr_rows * sizeof(*order));
	for (size_t i = 0; i < t->nr_rows; i++)
		order[i] = i;
	if (!col->compare) {
		s.cells = xcalloc(t->nr_rows, sizeof(*s.cells));
		for (size_t i = 0; i < t->nr_rows; i++) {
			table__cell(t, col, t->rows[i], &s.cells[i]);
			/* a borrowed string may be another cell's buffer: keep a copy */
			if (s.cells[i].kind == TABLE_STRING && s.cells[i].s != s.cells[i].text.buf) {
				const char *p = s.cells[i].s;

				strbuf__reset(&s.cells[i].text);
				strbuf__add(&s.cells[i].text, p, strlen(p));
				s.cells[i].s = s.cells[i].text.buf ? s.cells[i].text.buf : "";
			}
		}
	}
	qsort_r(order, t->nr_rows, sizeof(*order), sort_cmp, &s);
	rows = xmalloc(t->nr_rows * sizeof(*rows));
	for (size_t i = 0; i < t->nr_rows; i++)
		rows[i] = t->rows[order[i]];
	memcpy(t->rows, rows, t->nr_rows * sizeof(*rows));
	free(rows);
	if (s.cells)
		for (size_t i = 0; i < t->nr_rows; i++)
			table_cell__release(&s.cells[i]);
	free(s.cells);
	free(order);
}

static bool row_matches(const struct table *t, const void *row, const char *needle,
			struct strbuf *sb)
{
	for (int i = 0; i < t->nr_cols; i++) {
		const struct table_column *col = &t->cols[i];

		if (table_column__hidden(col, true))
			continue;
		strbuf__reset(sb);
		table__cell_text(t, col, row, table__width(t, col), false, sb);
		if (sb->buf && strstr(sb->buf, needle))
			return true;
	}
	return false;
}

bool table__row_matches(const struct table *t, const void *row, const char *needle)
{
	struct strbuf sb = STRBUF_INIT;
	bool found = row_matches(t, row, needle, &sb);

	strbuf__release(&sb);
	return found;
}

long table__find(const struct table *t, size_t from, const char *needle)
{
	struct strbuf sb = STRBUF_INIT;
	long found = -1;

	for (size_t r = from; r < t->nr_rows && found < 0; r++)
		if (row_matches(t, t->rows[r], needle, &sb))
			found = (long)r;
	strbuf__release(&sb);
	return found;
}

/* ---- text ---- */

/* perf's fprintf_line: one header line; line 0's group headers span the following columns. */
static void header_line(const struct table *t, const struct table_text_style *st, int line,
			struct strbuf *out)
{
	struct strbuf cell = STRBUF_INIT;
	bool first = true;
	int span = 0;

	strbuf__add(out, st->head_prefix, strlen(st->head_prefix));
	for (int i = 0; i < t->nr_cols; i++) {
		const struct table_column *col = &t->cols[i];
		bool last = i + 1 == t->nr_cols;

		if (table_column__hidden(col, true))
			continue;
		if (!first && !span)
			strbuf__add(out, st->sep, strlen(st->sep));
		first = false;
		if (span) {
			span--;
		} else {
			int w = table__width(t, col);
			const char *h = table__header(t, col, line);
			int len = (int)strlen(h);

			span = line == 0 ? col->span : 0;
			strbuf__reset(&cell);
			if (col->align == TABLE_LEFT) {
				strbuf__add(&cell, h, (size_t)len);
				if (!last || st->pad_last)
					add_spaces(&cell, w - len);
			} else {
				add_spaces(&cell, w - len);
				strbuf__add(&cell, h, (size_t)len);
			}
		}
		if (!span && cell.buf)
			strbuf__add(out, cell.buf, cell.len);
	}
	strbuf__add(out, "\n", 1);
	strbuf__release(&cell);
}

void table_text__headers(const struct table *t, const struct table_text_style *st,
			 struct strbuf *out)
{
	bool first = true;

	if (st->header_lines > 1)
		header_line(t, st, 0, out);
	header_line(t, st, 1, out);
	if (!st->dots)
		return;
	strbuf__add(out, st->head_prefix, strlen(st->head_prefix));
	for (int i = 0; i < t->nr_cols; i++) {
		const struct table_column *col = &t->cols[i];

		if (table_column__hidden(col, true))
			continue;
		if (!first)
			strbuf__add(out, st->sep, strlen(st->sep));
		first = false;
		for (int k = table__width(t, col); k > 0; k--)
			strbuf__add(out, ".", 1);
	}
	strbuf__add(out, "\n#\n", 3);
}

void table_text__row(const struct table *t, const void *row, const struct table_text_style *st,
		     struct strbuf *out)
{
	int last = t->nr_cols - 1;
	bool first = true;

	while (last >= 0 && table_column__hidden(&t->cols[last], true))
		last--;
	strbuf__add(out, st->row_prefix, strlen(st->row_prefix));
	for (int i = 0; i <= last; i++) {
		const struct table_column *col = &t->cols[i];

		if (table_column__hidden(col, true))
			continue;
		if (!first)
			strbuf__add(out, st->sep, strlen(st->sep));
		first = false;
		table__cell_text(t, col, row, table__width(t, col), st->pad_last || i < last, out);
	}
}
