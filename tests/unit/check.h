/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The CHECK of the unit tests that include it: a failed condition is reported with its file and
 * line and counted in failures (main returns failures != 0), and the test goes on.
 */
#ifndef LINEUP_TESTS_UNIT_CHECK_H
#define LINEUP_TESTS_UNIT_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond)                                                                      \
	do {                                                                             \
		if (!(cond)) {                                                           \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, \
				#cond);                                                  \
			failures++;                                                      \
		}                                                                        \
	} while (0)

#endif
