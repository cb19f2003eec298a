/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_SRCPATCH_INT_H
#define LINEUP_ANALYZER_SRCPATCH_INT_H

/* Between srcpatch.c and srcpatch_diff.c: not for other modules. */

struct strbuf;

/*
 * Append to @out the unified diff (context 3, "--- a/PATH" "+++ b/PATH") that turns @old into
 * @new, as `git apply` and `patch -p1` read it; nothing when they are equal.
 */
void srcpatch__diff(struct strbuf *out, const char *path, const char *old, const char *new);

#endif
