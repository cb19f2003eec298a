// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A suggestion view's content from the suggesters' answer (pipeline/suggest_load.h): the
 * layouts as `lineup suggest` prints them, what it does, the comment, each line's figures.
 * suggest --tui and the report's browser both show a target through here.  A file of its own:
 * suggest.c stays free of sampling/, for the test program that drives it with made-up input.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "analyzer/flat_layout.h"
#include "analyzer/layout.h"
#include "analyzer/suggest.h"
#include "analyzer/suggest_text.h"
#include "pipeline/suggest_load.h"
#include "tui/views.h"
#include "util/xalloc.h"

void suggestion_text__fill(struct suggestion_text *st, struct suggest_load *sl,
			   struct suggest_target *t, const char *recording, const char *patch,
			   const char *notes)
{
	const struct suggest_prediction *pred[2] = { &t->res.before, &t->res.after };
	const struct layout_type *ty = t->flat->type;
	struct suggest_names n;
	struct suggest_load_names nc;

	memset(st, 0, sizeof(*st));
	suggest_load__names(sl, t, recording, &n, &nc);
	suggest_load__print_layout(sl, t, false, &st->current);
	if (t->built)
		suggest_load__print_layout(sl, t, true, &st->proposed);
	suggest__explain(&t->res, &n, &st->summary);
	if (notes && *notes)
		strbuf__addf(&st->summary, "\n%s", notes);
	if (t->res.status == SUGGEST_OK)
		suggest__comment(&t->res, &n, &st->comment);
	strbuf__release(&nc.sb);
	for (int i = 0; i < 2; i++) {
		st->fig[i] = xcalloc(pred[i]->nr_lines + 1, sizeof(*st->fig[i]));
		for (unsigned int k = 0; k < pred[i]->nr_lines; k++)
			st->fig[i][k] = (struct tui_line_figures){ pred[i]->lines[k].offset,
								   pred[i]->lines[k].hitm_measured,
								   pred[i]->lines[k].transfers };
	}
	strbuf__addf(&st->title, "%s", t->flat->name);
	if (ty && ty->decl_file)
		strbuf__addf(&st->title, " (%s)", ty->decl_file);
	st->s = (struct tui_suggestion){
		.title = st->title.buf, .summary = st->summary.buf, .current = st->current.buf,
		.proposed = st->proposed.buf, .before = st->fig[0], .nr_before = pred[0]->nr_lines,
		.after = st->fig[1], .nr_after = t->built ? pred[1]->nr_lines : 0,
		.line_size = sl->line_size, .comment = st->comment.buf, .patch = patch,
		.patch_name = "layout.patch",
	};
}

void suggestion_text__release(struct suggestion_text *st)
{
	strbuf__release(&st->title);
	strbuf__release(&st->summary);
	strbuf__release(&st->current);
	strbuf__release(&st->proposed);
	strbuf__release(&st->comment);
	free(st->fig[0]);
	free(st->fig[1]);
}

int tui__suggest_target(struct suggest_load *sl, struct suggest_target *t, const char *recording,
			const char *patch, char *err, size_t errlen)
{
	struct suggestion_text st;
	int rc;

	suggestion_text__fill(&st, sl, t, recording, patch, NULL);
	rc = tui__suggest(&st.s, err, errlen);
	suggestion_text__release(&st);
	return rc;
}
