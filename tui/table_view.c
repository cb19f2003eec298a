// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A table view: one more renderer of analyzer/table.h, next to --stdio, JSON and CSV.  Rows are
 * --stdio's text (table_text__row) under the table's own headers; s sorts on a column
 * (table__sort), / searches the shown text (table__row_matches), Enter drills down through the
 * table's drill hook.  The view sorts a copy of the table, never the caller's.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "analyzer/table.h"
#include "tui/browser.h"
#include "tui/screen.h"
#include "util/xalloc.h"

struct table_view {
	struct table t;
	int sort;		/* the sort column, -1: the table's own order */
	bool desc;
	int nr_headers;
	struct strbuf headers[2];
	bool (*enter)(void *ctx, struct browser *b, const struct table *t, const void *row);
	void *ctx;
	enum view_key (*key)(void *ctx, struct browser *b, struct view *v, int key);
	bool (*match)(void *ctx, const void *row, const char *needle);
	struct strbuf help_text;
};

static const struct table_view_style {
	struct table_text_style st;
} style = { { .head_prefix = "", .row_prefix = "", .sep = "  ", .header_lines = 2,
	      .dots = false, .pad_last = true } };

static struct table_view *tv_of(struct view *v)
{
	return v->priv;
}

/* Two header lines when a column has a group header above it (perf's spans), else one. */
static void make_headers(struct table_view *tv)
{
	struct table_text_style st = style.st;
	struct strbuf all = STRBUF_INIT;
	const char *p;

	tv->nr_headers = 1;
	for (int i = 0; i < tv->t.nr_cols; i++)
		if (!table_column__hidden(&tv->t.cols[i], true) &&
		    *table__header(&tv->t, &tv->t.cols[i], 0))
			tv->nr_headers = 2;
	st.header_lines = tv->nr_headers;
	table_text__headers(&tv->t, &st, &all);
	p = all.buf ? all.buf : "";
	for (int i = 0; i < tv->nr_headers; i++) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		strbuf__reset(&tv->headers[i]);
		strbuf__add(&tv->headers[i], p, len);
		p += nl ? len + 1 : len;
	}
	strbuf__release(&all);
}

static size_t tv_nr_rows(struct view *v)
{
	return tv_of(v)->t.nr_rows;
}

static int tv_nr_headers(struct view *v)
{
	return tv_of(v)->nr_headers;
}

static int tv_header(struct view *v, int i, struct strbuf *sb)
{
	struct table_view *tv = tv_of(v);

	if (tv->headers[i].buf)
		strbuf__add(sb, tv->headers[i].buf, tv->headers[i].len);
	return SA_HEADER;
}

static int tv_row(struct view *v, size_t i, struct strbuf *sb)
{
	struct table_view *tv = tv_of(v);

	table_text__row(&tv->t, tv->t.rows[i], &style.st, sb);
	return SA_NORMAL;
}

static bool tv_match(struct view *v, size_t i, const char *needle)
{
	struct table_view *tv = tv_of(v);

	if (tv->match)
		return tv->match(tv->ctx, tv->t.rows[i], needle);
	return table__row_matches(&tv->t, tv->t.rows[i], needle);
}

/* The shown column after @from (wrapping), or -1 when none is shown. */
static int next_column(const struct table *t, int from)
{
	for (int k = 1; k <= t->nr_cols; k++) {
		int i = (from + k + t->nr_cols) % t->nr_cols;

		if (from < 0)
			i = k - 1;
		if (!table_column__hidden(&t->cols[i], true))
			return i;
	}
	return -1;
}

static void sort_on(struct view *v, int col, bool desc)
{
	struct table_view *tv = tv_of(v);
	const void *keep = tv->t.nr_rows ? tv->t.rows[v->cur] : NULL;

	tv->sort = col;
	tv->desc = desc;
	table__sort(&tv->t, &tv->t.cols[col], desc);
	/* the cursor stays on its row */
	for (size_t i = 0; i < tv->t.nr_rows; i++)
		if (tv->t.rows[i] == keep)
			v->cur = i;
}

static void drill(struct view *v, struct browser *b)
{
	struct table_view *tv = tv_of(v);
	const void *row = tv->t.rows[v->cur];
	struct table sub;

	if (tv->enter && tv->enter(tv->ctx, b, &tv->t, row))
		return;
	if (!tv->t.drill) {
		browser__message(b, "nothing below this row");
		return;
	}
	table__init(&sub, NULL, NULL);
	if (tv->t.drill(&tv->t, row, &sub) == 0) {
		struct strbuf title = STRBUF_INIT;
		struct strbuf cell = STRBUF_INIT;
		int key = next_column(&tv->t, -1);

		/* "entries of lines 0x7f0000000000": the row's first address, else first column */
		for (int i = 0; i < tv->t.nr_cols; i++)
			if (tv->t.cols[i].kind == TABLE_ADDR &&
			    !table_column__hidden(&tv->t.cols[i], true)) {
				key = i;
				break;
			}
		if (key >= 0)
			table__cell_text(&tv->t, &tv->t.cols[key], row, 0, false, &cell);
		strbuf__addf(&title, "%s of %s %s", sub.name ? sub.name : "rows",
			     tv->t.name ? tv->t.name : "", cell.buf ? cell.buf : "");
		browser__push(b, table_view__new(&sub, title.buf, tv->enter, tv->ctx));
		strbuf__release(&title);
		strbuf__release(&cell);
	} else {
		browser__message(b, "nothing below this row");
	}
	table__release(&sub);
}

static enum view_key tv_key(struct view *v, struct browser *b, int key)
{
	struct table_view *tv = tv_of(v);

	if (tv->key) {
		enum view_key k = tv->key(tv->ctx, b, v, key);

		if (k != VIEW_KEY_UNUSED)
			return k;
	}
	switch (key) {
	case '\n':
		if (tv->t.nr_rows)
			drill(v, b);
		return VIEW_KEY_DONE;
	case 's': {
		int col = next_column(&tv->t, tv->sort);
		struct table_cell c;

		if (col < 0 || !tv->t.nr_rows)
			return VIEW_KEY_DONE;
		/* numbers biggest first, text in alphabetical order */
		table_cell__init(&c);
		table__cell(&tv->t, &tv->t.cols[col], tv->t.rows[0], &c);
		sort_on(v, col, c.kind != TABLE_STRING);
		table_cell__release(&c);
		return VIEW_KEY_DONE;
	}
	case 'S':
		if (tv->sort >= 0)
			sort_on(v, tv->sort, !tv->desc);
		return VIEW_KEY_DONE;
	}
	return VIEW_KEY_UNUSED;
}

static void tv_status(struct view *v, struct strbuf *sb)
{
	struct table_view *tv = tv_of(v);

	if (tv->sort < 0)
		return;
	strbuf__add(sb, "sort: ", 6);
	table__column_title(&tv->t, &tv->t.cols[tv->sort], sb);
	strbuf__add(sb, tv->desc ? " (desc)" : " (asc)", tv->desc ? 7 : 6);
}

static void tv_release(struct view *v)
{
	struct table_view *tv = tv_of(v);

	table__release(&tv->t);
	strbuf__release(&tv->headers[0]);
	strbuf__release(&tv->headers[1]);
	strbuf__release(&tv->help_text);
	free(tv);
	free(v);
}

static const char table_help[] =
	"s                 sort on the next column (S: the other way)\n";

static const char *tv_help(struct view *v)
{
	struct table_view *tv = tv_of(v);

	return tv->help_text.len ? tv->help_text.buf : table_help;
}

static const struct view_ops table_ops = {
	.nr_rows = tv_nr_rows,
	.nr_headers = tv_nr_headers,
	.header = tv_header,
	.row = tv_row,
	.match = tv_match,
	.key = tv_key,
	.status = tv_status,
	.help = tv_help,
	.release = tv_release,
};

struct view *table_view__new(const struct table *t, const char *title,
			     bool (*enter)(void *ctx, struct browser *b, const struct table *t,
					   const void *row),
			     void *ctx)
{
	struct view *v = xcalloc(1, sizeof(*v));
	struct table_view *tv = xcalloc(1, sizeof(*tv));

	tv->enter = enter;
	tv->ctx = ctx;
	v->ops = &table_ops;
	v->priv = tv;
	table_view__set_table(v, t, title);
	return v;
}

void table_view__set_table(struct view *v, const struct table *t, const char *title)
{
	struct table_view *tv = tv_of(v);

	table__release(&tv->t);
	table__init(&tv->t, t->name, t->ctx);
	table__copy_columns(&tv->t, t);
	tv->t.parent = t->parent;
	for (size_t i = 0; i < t->nr_rows; i++)
		table__add_row(&tv->t, t->rows[i]);
	tv->sort = -1;
	tv->desc = false;
	make_headers(tv);
	v->cur = v->top = 0;
	v->xoff = 0;
	strbuf__reset(&v->title);
	strbuf__add(&v->title, title, strlen(title));
}

void table_view__set_match(struct view *v,
			   bool (*match)(void *ctx, const void *row, const char *needle))
{
	tv_of(v)->match = match;
}

bool view__is_table(const struct view *v)
{
	return v->ops == &table_ops;
}

struct table *table_view__table(struct view *v)
{
	return &tv_of(v)->t;
}

const void *table_view__row(struct view *v)
{
	struct table_view *tv = tv_of(v);

	return tv->t.nr_rows ? tv->t.rows[v->cur] : NULL;
}

void table_view__set_keys(struct view *v,
			  enum view_key (*key)(void *ctx, struct browser *b, struct view *v, int key),
			  const char *help)
{
	struct table_view *tv = tv_of(v);

	tv->key = key;
	strbuf__reset(&tv->help_text);
	strbuf__add(&tv->help_text, table_help, strlen(table_help));
	strbuf__add(&tv->help_text, help, strlen(help));
}
