// SPDX-License-Identifier: GPL-2.0-or-later
/* The build has the browser: tui/none.c says the opposite in a build without ncursesw. */
#include <config.h>

#include "tui/tui.h"

bool tui__available(void)
{
	return true;
}


