// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The suggestion view (tui__suggest) on texts read from files, for tests/tui/suggest.sh: what
 * `lineup suggest --tui` hands the browser, without a recording behind it.
 *
 *	suggest_view TITLE CURRENT PROPOSED COMMENT PATCH PATCH_NAME
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>

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

int main(int argc, char **argv)
{
	struct tui_suggestion s;
	char err[256];
	int rc;

	if (argc != 7) {
		fprintf(stderr, "usage: suggest_view TITLE CURRENT PROPOSED COMMENT PATCH NAME\n");
		return 2;
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
	return rc < 0 ? 2 : 0;
}
