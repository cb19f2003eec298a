// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The suggestion view (tui__suggest) on texts read from files, for tests/tui/suggest.sh: what
 * `lineup suggest --tui` hands the browser, without a recording behind it.
 *
 *	suggest_view TITLE CURRENT PROPOSED COMMENT PATCH PATCH_NAME [SUMMARY FIGURES]
 *
 * FIGURES: each cache line's, "b" (the current layout's) or "a" (the proposed one's), its
 * offset, HITMs and transfers, comma-separated: "b0:60:2,a0:0:0,a64:0:0" (64-byte lines).
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/tui.h"
#include "util/strbuf.h"

static char *slurp(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		exit(2);
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf__add(&sb, buf, n);
	fclose(f);
	strbuf__add(&sb, "", 0);
	return sb.buf;
}

/* "b0:60:2,a0:0:0" into @before and @after. */
static void figures(const char *arg, struct tui_line_figures *before, size_t *nr_before,
		    struct tui_line_figures *after, size_t *nr_after, size_t max)
{
	const char *p = arg;

	while (*p) {
		struct tui_line_figures f;
		char side;
		int n;

		if (sscanf(p, "%c%" SCNu64 ":%" SCNu64 ":%" SCNu64 "%n", &side, &f.offset, &f.hitm, &f.transfers, &n) != 4 ||
		    (side != 'a' && side != 'b')) {
			fprintf(stderr, "suggest_view: bad figures at '%s'\n", p);
			exit(2);
		}
		if (side == 'b' && *nr_before < max)
			before[(*nr_before)++] = f;
		else if (side == 'a' && *nr_after < max)
			after[(*nr_after)++] = f;
		p += n;
		p += *p == ',';
	}
}

int main(int argc, char **argv)
{
	struct tui_suggestion s = { 0 };
	struct tui_line_figures before[16], after[16];
	char *summary = NULL;
	char err[256];
	int rc;

	if (argc != 7 && argc != 9) {
		fprintf(stderr, "usage: suggest_view TITLE CURRENT PROPOSED COMMENT PATCH NAME "
			"[SUMMARY FIGURES]\n");
		return 2;
	}
	if (argc == 9) {
		s.summary = summary = slurp(argv[7]);
		figures(argv[8], before, &s.nr_before, after, &s.nr_after, 16);
		s.before = before;
		s.after = after;
		s.line_size = 64;
	}
	s.title = argv[1];
	s.current = slurp(argv[2]);
	s.proposed = slurp(argv[3]);
	s.comment = slurp(argv[4]);
	s.patch = slurp(argv[5]);
	s.patch_name = argv[6];
	rc = tui__suggest(&s, err, sizeof(err));
	if (rc < 0)
		fprintf(stderr, "suggest_view: %s\n", err);
	free((char *)s.current);
	free((char *)s.proposed);
	free((char *)s.comment);
	free((char *)s.patch);
	free(summary);
	return rc < 0 ? 2 : 0;
}
