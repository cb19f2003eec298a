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
