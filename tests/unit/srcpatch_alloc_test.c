// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * srcpatch__align_alloc: malloc(SIZE) made aligned_alloc(ALIGN, SIZE rounded up) on the line
 * asked for, the size in parentheses where an operator binds looser than '+', a size over
 * several lines kept as written; refused with the reason: calloc, two calls on a line, none,
 * a line past the end; a malloc in a comment or a string is no call.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "analyzer/srcpatch.h"
#include "tests/unit/check.h"

static char err[256];

static char *rewrite(const char *text, unsigned int line)
{
	struct srcpatch_file f = { "a.c", text };

	err[0] = '\0';
	return srcpatch__align_alloc(&f, line, 64, err, sizeof(err));
}

static void check_text(const char *text, unsigned int line, const char *want)
{
	char *got = rewrite(text, line);

	CHECK(got && !strcmp(got, want));
	if (got && strcmp(got, want))
		fprintf(stderr, "got:\n%s\nwant:\n%s\n", got, want);
	free(got);
}

static void check_refused(const char *text, unsigned int line, const char *why)
{
	char *got = rewrite(text, line);

	CHECK(!got && strstr(err, why));
	if (got || !strstr(err, why))
		fprintf(stderr, "want a refusal with '%s', got '%s'\n", why, err);
	free(got);
}

int main(void)
{
	check_text("int x;\n\tp = malloc(n * sizeof(*p));\n", 2,
		   "int x;\n\tp = aligned_alloc(64, (n * sizeof(*p) + 63) & ~(size_t)63);\n");
	check_text("p = (struct s *)malloc (big ? n : m); /* malloc(1) */\n", 1,
		   "p = (struct s *)aligned_alloc(64, ((big ? n : m) + 63) & ~(size_t)63); "
		   "/* malloc(1) */\n");
	check_text("p = malloc(n *\n\t   sizeof(struct s));\nq();\n", 1,
		   "p = aligned_alloc(64, (n *\n\t   sizeof(struct s) + 63) & ~(size_t)63);\nq();\n");
	check_text("puts(\"malloc(1)\"); p = malloc(8 << k);\n", 1,
		   "puts(\"malloc(1)\"); p = aligned_alloc(64, ((8 << k) + 63) & ~(size_t)63);\n");
	check_refused("p = calloc(n, sizeof(*p));\n", 1, "calloc() is not rewritten");
	check_refused("p = malloc(8); q = malloc(8);\n", 1, "more than one allocating call");
	check_refused("p = get(8); /* malloc(8) */\n", 1, "no allocating call");
	check_refused("x;\n", 3, "a.c:3: no such line");
	check_refused("p = my_malloc(8);\n", 1, "no allocating call");
	return failures != 0;
}
