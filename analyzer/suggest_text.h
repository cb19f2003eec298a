/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_SUGGEST_TEXT_H
#define LINEUP_ANALYZER_SUGGEST_TEXT_H

/*
 * What the suggester's result says in words: the summary a user reads, the layout comment a
 * reviewer keeps above the struct (seed 003 asked for one), and a net_cachelines-style table
 * (Documentation/networking/net_cachelines/: type, member, who reads and writes it, comment).
 * Pure: text appended to a struct strbuf.  Names of threads and code come from the caller.
 */

#include <stdint.h>

#include "analyzer/suggest.h"

struct strbuf;

/**
 * struct suggest_names - how the caller names what the analyzer only has numbers for.
 * @thread:	a thread id as the reader knows it ("worker 1 (tid 4242)"); NULL: "tid N"
 * @code:	the hottest code writing (@write) or reading unit @unit ("file_inc fs.c:42"), or
 *		NULL when unknown
 * @units:	the units as given to suggest__new()
 * @type:	"struct file"
 * @recording:	what was measured: "perf.data (record --sim, 2 threads)"
 * @line_size:	the line size used
 */
struct suggest_names {
	const char *(*thread)(void *ctx, uint32_t tid);
	const char *(*code)(void *ctx, unsigned int unit, int write);
	void *ctx;
	const struct suggest_unit *units;
	const char *type;
	const char *recording;
	unsigned int line_size;
};

/* The summary: verdict, cost (size, lines, holes), groups, prediction per line, advice. */
void suggest__explain(const struct suggest_result *r, const struct suggest_names *n,
		      struct strbuf *out);

/* The advice alone (true sharing, test-before-set, elements, instances, what was given up),
 * one paragraph per finding. */
void suggest__advice(const struct suggest_result *r, const struct suggest_names *n,
		     struct strbuf *out);

/*
 * The layout comment, as lines without comment delimiters (the patch wraps them in the
 * source's style): which members share a line and why, measured how, from which recording.
 */
void suggest__comment(const struct suggest_result *r, const struct suggest_names *n,
		      struct strbuf *out);

/* The net_cachelines-style table (reStructuredText): one row per member in the new order. */
void suggest__doc(const struct suggest_result *r, const struct suggest_names *n,
		  const char *const *type_names, struct strbuf *out);

#endif
