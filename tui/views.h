/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_TUI_VIEWS_H
#define LINEUP_TUI_VIEWS_H

/*
 * The views more than one command's browser opens: a struct's layout as a heat map (fields.c)
 * and a suggestion (suggest.c), and the suggestion made from the suggesters' answer
 * (suggest_target.c).  fields --tui and suggest --tui open them as their own views; the
 * report's browser reaches them from a cache line (report.c).
 *
 * Ownership: a heat view borrows @f and @fs, a suggestion view its tui_suggestion; the
 * caller keeps them until the browser ends.  A suggestion_text owns its texts.
 */
#include <stdbool.h>

#include "tui/browser.h"
#include "tui/tui.h"

struct field_struct;
struct fields;
struct suggest_load;
struct suggest_target;

/*
 * @fs's layout as a heat map, the cursor on @member's line (NULL: the top).  @enter: what
 * Enter does there (the report's browser: the struct's suggestion), NULL: nothing.  NULL when
 * the struct has no layout to show (said on the status line).
 */
struct view *heat_view__new(struct browser *b, const struct fields *f, const struct field_struct *fs,
			    const char *member,
			    void (*enter)(void *ctx, struct browser *b, const struct field_struct *fs),
			    void *ctx);

/* The suggestion view of @s (tui__suggest's one view). */
struct view *suggest_view__new(const struct tui_suggestion *s);

/**
 * struct suggestion_text - a tui_suggestion made from target @t of a suggest_load, with the
 * texts it points to.
 */
struct suggestion_text {
	struct tui_suggestion s;
	struct strbuf title, summary, current, proposed, comment;
	struct tui_line_figures *fig[2];
};

/*
 * Fill @st from @t, decided (suggest_load__decide): its layouts, words, figures; @patch: the
 * diff (NULL: none), @notes: more to say under what it does (NULL: nothing).
 */
void suggestion_text__fill(struct suggestion_text *st, struct suggest_load *sl,
			   struct suggest_target *t, const char *recording, const char *patch,
			   const char *notes);
void suggestion_text__release(struct suggestion_text *st);

#endif
