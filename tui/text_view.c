// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A text view: lines with one attribute each (help, a source file around a line, the layout
 * heat map, the suggestion and its patch).  The view owns copies of its lines.
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/browser.h"
#include "tui/screen.h"
#include "util/xalloc.h"

struct text_line {
	char *text;
	int attr;
};

struct text_view {
	struct text_line *lines;
	size_t nr, cap;
	enum view_key (*key)(void *ctx, struct browser *b, struct view *v, int key);
	const char *help;
	void *ctx;
	void (*free_ctx)(void *ctx);
	void (*fill)(void *ctx, struct view *v, int cols);
	int filled;		/* the width @fill filled the view for, -1: none yet */
};

static struct text_view *xv_of(struct view *v)
{
	return v->priv;
}

static void free_lines(struct text_view *xv)
{
	for (size_t i = 0; i < xv->nr; i++)
		free(xv->lines[i].text);
	xv->nr = 0;
}

/* Every look at the view's rows starts here: the lines filled for the terminal's width. */
static size_t xv_nr_rows(struct view *v)
{
	struct text_view *xv = xv_of(v);

	if (xv->fill && xv->filled != screen__cols()) {
		free_lines(xv);
		xv->filled = screen__cols();
		xv->fill(xv->ctx, v, xv->filled);
	}
	return xv->nr;
}

static int xv_nr_headers(struct view *v)
{
	return 0;
}

static int xv_header(struct view *v, int i, struct strbuf *sb)
{
	return SA_NORMAL;
}

static int xv_row(struct view *v, size_t i, struct strbuf *sb)
{
	const struct text_line *l = &xv_of(v)->lines[i];

	strbuf__add(sb, l->text, strlen(l->text));
	return l->attr;
}

static bool xv_match(struct view *v, size_t i, const char *needle)
{
	return strstr(xv_of(v)->lines[i].text, needle) != NULL;
}

static enum view_key xv_key(struct view *v, struct browser *b, int key)
{
	struct text_view *xv = xv_of(v);

	return xv->key ? xv->key(xv->ctx, b, v, key) : VIEW_KEY_UNUSED;
}

static const char *xv_help(struct view *v)
{
	const char *h = xv_of(v)->help;

	return h ? h : "";
}

static void xv_release(struct view *v)
{
	struct text_view *xv = xv_of(v);

	free_lines(xv);
	free(xv->lines);
	if (xv->free_ctx)
		xv->free_ctx(xv->ctx);
	free(xv);
	free(v);
}

static const struct view_ops text_ops = {
	.nr_rows = xv_nr_rows,
	.nr_headers = xv_nr_headers,
	.header = xv_header,
	.row = xv_row,
	.match = xv_match,
	.key = xv_key,
	.help = xv_help,
	.release = xv_release,
};

struct view *text_view__new(const char *title)
{
	struct view *v = xcalloc(1, sizeof(*v));

	v->ops = &text_ops;
	v->priv = xcalloc(1, sizeof(struct text_view));
	strbuf__add(&v->title, title, strlen(title));
	return v;
}

static void add_line(struct text_view *xv, int attr, const char *s, size_t len)
{
	struct text_line *l;

	xv->lines = xgrow(xv->lines, &xv->cap, xv->nr + 1, sizeof(*xv->lines));
	l = &xv->lines[xv->nr++];
	l->text = xmalloc(len + 1);
	memcpy(l->text, s, len);
	l->text[len] = '\0';
	l->attr = attr;
}

void text_view__add(struct view *v, int attr, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf__vaddf(&sb, fmt, ap);
	va_end(ap);
	add_line(xv_of(v), attr, sb.buf ? sb.buf : "", sb.len);
	strbuf__release(&sb);
}

void text_view__add_text(struct view *v, int attr, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		add_line(xv_of(v), attr, p, len);
		p += nl ? len + 1 : len;
	}
}

void text_view__clear(struct view *v)
{
	free_lines(xv_of(v));
	v->cur = v->top = 0;
}

void text_view__set_fill(struct view *v, void (*fill)(void *ctx, struct view *v, int cols))
{
	xv_of(v)->fill = fill;
	xv_of(v)->filled = -1;
}

void text_view__refill(struct view *v)
{
	xv_of(v)->filled = -1;
}

size_t text_view__rows(struct view *v)
{
	return xv_of(v)->nr;
}

void text_view__goto(struct view *v, size_t i)
{
	v->cur = i;
	/* the line in the middle of the screen, as an editor shows a jump */
	v->top = i > 8 ? i - 8 : 0;
}

void text_view__set_keys(struct view *v,
			 enum view_key (*key)(void *ctx, struct browser *b, struct view *v, int key),
			 const char *help, void *ctx, void (*free_ctx)(void *ctx))
{
	struct text_view *xv = xv_of(v);

	xv->key = key;
	xv->help = help;
	xv->ctx = ctx;
	xv->free_ctx = free_ctx;
}
