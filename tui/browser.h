/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_TUI_BROWSER_H
#define LINEUP_TUI_BROWSER_H

/*
 * The browser: a stack of views (perf's ui/browser, tig's view_ops), the top one on screen
 * between a title line and a status line.  The browser owns the keys every view shares
 * (moving, paging, searching, help, going back and quitting) and gives a view the others
 * (Enter, s, d, w ...) through its ops.
 *
 * A view is rows of text under a few fixed header rows; the two kinds here are a table view
 * (analyzer/table.h rendered as --stdio renders it, sortable, drilled into through the
 * table's drill hook) and a text view (lines with one attribute each: help, source, the
 * layout heat map, the suggestion and its patch).
 *
 *	struct browser b;
 *	browser__init(&b);
 *	browser__push(&b, table_view__new(&t, "title", NULL));
 *	rc = browser__run(&b);		// until q at the top view
 *	browser__release(&b);
 *
 * Ownership: the browser owns its views (view->ops->release frees them); a table view owns
 * the copy of the table it was given by table_view__new (columns and rows), never the
 * objects its rows point to.
 */
#include <stdbool.h>
#include <stddef.h>

#include "util/strbuf.h"

struct browser;
struct table;
struct view;

/* What a view's key function did with a key. */
enum view_key {
	VIEW_KEY_UNUSED,	/* not the view's: the browser's meaning (or none) */
	VIEW_KEY_DONE,		/* handled; redraw */
	VIEW_KEY_QUIT,		/* leave the browser */
};

/**
 * struct view_ops - what a kind of view does.
 * @nr_rows:	the rows below the headers
 * @nr_headers:	fixed rows at the top (column headers)
 * @header:	header row @i's text into @sb; its attribute returned
 * @row:	row @i's text into @sb; its attribute returned (SA_NORMAL, SA_HOT ...)
 * @match:	whether row @i holds @needle (the / search)
 * @key:	the view's own keys (Enter, s, d ...), with the row under the cursor
 * @status:	the view's part of the status line ("sorted on Total (desc)")
 * @help:	the view's own keys for the help screen, one "KEY  what" a line
 * @release:	free the view
 */
struct view_ops {
	size_t (*nr_rows)(struct view *v);
	int (*nr_headers)(struct view *v);
	int (*header)(struct view *v, int i, struct strbuf *sb);
	int (*row)(struct view *v, size_t i, struct strbuf *sb);
	bool (*match)(struct view *v, size_t i, const char *needle);
	enum view_key (*key)(struct view *v, struct browser *b, int key);
	void (*status)(struct view *v, struct strbuf *sb);
	const char *(*help)(struct view *v);
	void (*release)(struct view *v);
};

/**
 * struct view - one screen of the browser.
 * @title:	the top line
 * @top:	first row shown
 * @cur:	the cursor's row
 * @xoff:	horizontal scroll, in columns
 * @priv:	the kind's data
 */
struct view {
	const struct view_ops *ops;
	struct strbuf title;
	size_t top, cur;
	int xoff;
	void *priv;
};

#define BROWSER_MAX_DEPTH 16

/**
 * struct browser - the view stack and what is shared between views.
 * @search:	the last / search (n and N repeat it)
 * @message:	a one-time message for the status line (cleared at the next key)
 * @script:	keys from LINEUP_TUI_SCRIPT instead of the terminal (@scripted), and @times,
 *		the milliseconds each took to answer (browser.c says more)
 */
struct browser {
	struct view *views[BROWSER_MAX_DEPTH];
	int depth;
	struct strbuf search;
	struct strbuf message;
	bool scripted;
	int *script;
	size_t nr_script, cap_script, at_script;
	double *times;
	size_t nr_times, cap_times;
};

void browser__init(struct browser *b);
void browser__release(struct browser *b);
/* Push @v on top (the browser owns it from here); false when the stack is full (v freed). */
bool browser__push(struct browser *b, struct view *v);
/* Start curses and run until the top view is left; 0, or -1 with @err. */
int browser__run(struct browser *b, char *err, size_t errlen);
/* A browser of its own with @v as its first view: run, then released (v with it). */
int browser__browse(struct view *v, char *err, size_t errlen);
/* A message on the status line until the next key. */
void browser__message(struct browser *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Ask for a line on the status line (the / prompt, a file name), @out's text offered first:
 * true with the answer in @out, false when cancelled (Esc, ^G).
 */
bool browser__prompt(struct browser *b, const char *question, struct strbuf *out);
/* Draw the whole screen (after a key, a resize; the benchmark calls it too). */
void browser__draw(struct browser *b);
/* What one key does (the loop's body; the benchmark replays keys through it): false to quit. */
bool browser__key(struct browser *b, int key);

/* ---- table views ---- */

/*
 * A view of @t: its columns and rows are copied (the view sorts its own copy); @t's rows' objects
 * must outlive the view.  @enter: what Enter does on a row when @t has no drill (or the drill
 * finds nothing below): push a view and return true, or return false.
 */
struct view *table_view__new(const struct table *t, const char *title,
			     bool (*enter)(void *ctx, struct browser *b, const struct table *t,
					   const void *row),
			     void *ctx);
/* Show @t instead (the report's d): a new copy; the order, cursor and scroll start again. */
void table_view__set_table(struct view *v, const struct table *t, const char *title);
/* The table behind a table view, and the row under the cursor (NULL when empty). */
struct table *table_view__table(struct view *v);
const void *table_view__row(struct view *v);
/*
 * What / finds in a table view's rows, instead of their text (the report's lines: their
 * address, members and code's symbols): whether @row holds @needle.
 */
void table_view__set_match(struct view *v,
			   bool (*match)(void *ctx, const void *row, const char *needle));
/* Whether @v is a table view. */
bool view__is_table(const struct view *v);
/*
 * Extra keys of a table view (the report's d): @key returns VIEW_KEY_UNUSED for the rest;
 * @help lists them.
 */
void table_view__set_keys(struct view *v,
			  enum view_key (*key)(void *ctx, struct browser *b, struct view *v, int key),
			  const char *help);

/* ---- text views ---- */

struct view *text_view__new(const char *title);
/* Append a line (its text copied) in attribute @attr (enum screen_attr). */
void text_view__add(struct view *v, int attr, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Append each line of @text. */
void text_view__add_text(struct view *v, int attr, const char *text);
size_t text_view__rows(struct view *v);
/* Empty the view (to fill it again: another measure, another mode). */
void text_view__clear(struct view *v);
/* Put the cursor on line @i (the source line of a code address). */
void text_view__goto(struct view *v, size_t i);
/*
 * A text view whose lines depend on the terminal's width (the suggestion's layouts side by
 * side): @fill (with the context of text_view__set_keys) fills the emptied view for @cols
 * columns, before the view is first drawn and again after each change of width; the cursor
 * stays where it was.  text_view__refill: fill it again now (another choice of the view's).
 */
void text_view__set_fill(struct view *v, void (*fill)(void *ctx, struct view *v, int cols));
void text_view__refill(struct view *v);
/* Extra keys of a text view (the suggestion's w); @ctx freed by @free_ctx with the view. */
void text_view__set_keys(struct view *v,
			 enum view_key (*key)(void *ctx, struct browser *b, struct view *v, int key),
			 const char *help, void *ctx, void (*free_ctx)(void *ctx));

#endif
