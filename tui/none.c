// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tui/tui.h in a build without ncursesw (./configure --without-ncurses, or no libncursesw):
 * every entry point says so, and the commands keep their text output.
 */
#include <config.h>

#include "tui/tui.h"

#include <stdio.h>

#define NO_TUI "this lineup was built without ncursesw: no terminal browser (use --stdio)"

bool tui__available(void)
{
	return false;
}

int tui__report(const struct tui_report *r, char *err, size_t errlen)
{
	snprintf(err, errlen, NO_TUI);
	return -1;
}

int tui__fields(const struct tui_fields *tf, char *err, size_t errlen)
{
	snprintf(err, errlen, NO_TUI);
	return -1;
}

int tui__suggest(const struct tui_suggestion *s, char *err, size_t errlen)
{
	snprintf(err, errlen, NO_TUI);
	return -1;
}

int tui__suggest_target(struct suggest_load *sl, struct suggest_target *t, const char *recording,
			const char *patch, char *err, size_t errlen)
{
	snprintf(err, errlen, NO_TUI);
	return -1;
}
