/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_PIPELINE_SUGGEST_VERIFY_H
#define LINEUP_PIPELINE_SUGGEST_VERIFY_H

/*
 * --verify: the patched sources copied into a directory of lineup's own (util/privdir.h:
 * names from the patch can never climb out of it), each patched unit compiled there with a
 * clean environment, and the compiled layouts compared with the predicted ones.  What runs is
 * SUGGEST_VERIFY_RUNS, said in `suggest --help`.
 */
#include <stdbool.h>
#include <stddef.h>

struct suggest_patch;

#define SUGGEST_VERIFY_RUNS                                                                     \
	"CC -g -c -o verify.o UNIT -I<the source's directory> [--cflags], in a new directory "    \
	"$TMPDIR/lineup-verify.XXXXXX (mode 0700) holding copies of the patched files (UNIT: the " \
	"patched .c, or for a header a one-line unit that includes it and defines the struct), " \
	"with PATH, LC_ALL=C and TMPDIR (that directory) as its only environment; nothing from "  \
	"the binary or the recording goes on its command line"

struct suggest_verify_opts {
	const char *cc;		/* NULL: $CC, else cc */
	const char *cflags;	/* the user's, split at blanks */
};

/* What became of one check; @done false: not tried (the request was refused). */
struct suggest_verify {
	bool done, ok, skipped;
	char detail[512];
};

/*
 * Check every request of @p (@reqs: one per request) and every rewritten allocation (@allocs:
 * one per p->allocs entry).  0 when the checks could run (each result says how it went), or
 * -errno when the directory could not be made (@reqs[0].detail says why).  @warn: "" or what
 * was left behind (a file the compiler made that lineup did not create is not removed).
 */
int suggest_verify__run(const struct suggest_patch *p, const struct suggest_verify_opts *o,
			struct suggest_verify *reqs, struct suggest_verify *allocs, char *warn,
			size_t warnlen);

#endif
