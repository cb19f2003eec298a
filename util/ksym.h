/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_UTIL_KSYM_H
#define LINEUP_UTIL_KSYM_H

/*
 * The one reader of kallsyms' lines ("ADDR TYPE NAME [MODULE]"): /proc/kallsyms, perf's
 * build-id cache copies, a recording's tracing data.  sampling/, dwarf/ and the tracepoint
 * decoder all parse through it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/**
 * struct ksym - one line of a kallsyms file: "ADDR TYPE NAME [MODULE]".
 * @type:	nm's letter: t/T text, d/D data, b/B bss, r/R read-only data, w/W weak ...
 * @module:	the module's name without brackets, NULL for the kernel proper
 */
struct ksym {
	uint64_t addr;
	char type;
	const char *name;
	const char *module;
};

/* Parse @line in place (NULs end the name and module): 0, or -1 when it is no symbol line. */
int ksym__parse(char *line, struct ksym *out);

/* Text (t, T, w, W) or data (d, D, b, B, r, R) symbol. */
static inline int ksym__is_text(const struct ksym *s)
{
	return s->type == 't' || s->type == 'T' || s->type == 'w' || s->type == 'W';
}

static inline int ksym__is_data(const struct ksym *s)
{
	return s->type == 'd' || s->type == 'D' || s->type == 'b' || s->type == 'B' ||
	       s->type == 'r' || s->type == 'R';
}

/*
 * @fn on each symbol line of @f (a line too long for any symbol is skipped), until it returns
 * non-zero: that, or 0.
 */
int ksym__for_each_in(FILE *f, int (*fn)(const struct ksym *sym, void *arg), void *arg);

/* The same over @len bytes of @text (need not end in a NUL or a newline). */
int ksym__for_each_text(const char *text, size_t len,
			int (*fn)(const struct ksym *sym, void *arg), void *arg);

#endif
