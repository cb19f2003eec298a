// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The entry points of tui/tui.h that are one view each: a table (fields' member table) and a
 * layout as a heat map.
 */
#include <config.h>

#include "tui/tui.h"

#include "analyzer/table.h"
#include "tui/browser.h"
#include "tui/screen.h"

bool tui__available(void)
{
	return true;
}

static int run_one(struct view *v, char *err, size_t errlen)
{
	struct browser b;
	int rc;

	browser__init(&b);
	browser__push(&b, v);
	rc = browser__run(&b, err, errlen);
	browser__release(&b);
	return rc;
}

int tui__table(const struct table *t, const char *title, char *err, size_t errlen)
{
	return run_one(table_view__new(t, title, NULL, NULL), err, errlen);
}

/* The heat map's gutter: the heat as marks too, so that it reads without colour. */
static const char *const heat_mark[] = { "    ", "#   ", "##  ", "### " };

static int heat_attr(int heat)
{
	switch (heat) {
	case 3:
		return SA_HOT;
	case 2:
		return SA_WARM;
	case 1:
		return SA_COOL;
	case 0:
		return SA_NORMAL;
	default:
		return SA_BOUNDARY;
	}
}

struct layout_ctx {
	const struct table *t;
	const char *title;
};

static enum view_key layout_key(void *ctx, struct browser *b, struct view *v, int key)
{
	const struct layout_ctx *lc = ctx;

	if (key != '\n')
		return VIEW_KEY_UNUSED;
	if (!lc->t)
		browser__message(b, "no member table for this layout");
	else
		browser__push(b, table_view__new(lc->t, lc->title, NULL, NULL));
	return VIEW_KEY_DONE;
}

int tui__layout(const struct tui_layout_line *lines, size_t nr, const char *title,
		const struct table *t, char *err, size_t errlen)
{
	struct view *v = text_view__new(title);
	struct layout_ctx lc = { t, title };

	for (size_t i = 0; i < nr; i++) {
		int heat = lines[i].heat;

		text_view__add(v, heat_attr(heat), "%s%s", heat >= 0 && heat <= 3 ?
			       heat_mark[heat] : "    ", lines[i].text);
	}
	text_view__set_keys(v, layout_key,
			    "Enter             the member table (loads, stores, HITMs per member)\n"
			    "#, ##, ###        a member's share of the HITMs or writes\n",
			    &lc, NULL);
	return run_one(v, err, errlen);
}
