/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_TUI_TUI_H
#define LINEUP_TUI_TUI_H

/*
 * tui/ -- the terminal browser, the second front end (curses is used here and nowhere else).
 * screen.h owns the terminal (started on /dev/tty, put back on every way out, signals too);
 * browser.h is a stack of views with one key loop (perf's ui/browser, tig's view_ops);
 * table_view.c renders analyzer/table.h's tables, the same ones --stdio, --json and --csv
 * print; text_view.c shows text (a layout, a patch).  report.c, fields.c and suggest.c build
 * each command's views from the models below; views.h holds the views more than one of them
 * opens (a struct's heat map, a suggestion), so that the report's browser goes from a cache
 * line down to its struct's layout and suggestion without leaving.  This header is what cli/
 * calls.  Built without ncursesw, none.c answers that the browser is not there.
 */

/*
 * The terminal browser's entry points, for cli/ (no curses type here: cli/ builds the same
 * with and without ncursesw).  Each runs the browser until the user quits and puts the
 * terminal back, on every way out.  They return 0, or -1 with @err saying why the browser
 * could not run (no terminal, an unknown TERM, a build without ncursesw); the caller then
 * prints @err and exits non-zero.
 *
 *	report:   if (tui__available() && isatty(1)) tui__report(&tr, err, sizeof(err));
 *	fields:   tui__fields(&tf, err, sizeof(err));
 *	suggest:  tui__suggest(&ts, err, sizeof(err));
 *
 * Ownership: everything passed in is borrowed for the call.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyzer/fields.h"
#include "util/strbuf.h"

struct c2c;
struct c2c_entry;
struct c2c_resolver;
struct c2c_view;
struct field_struct;
struct fields;
struct suggest_load;
struct suggest_load_opts;
struct suggest_target;
struct table;

/* Whether this build has the browser (ncursesw was found at configure time). */
bool tui__available(void);

/**
 * struct tui_report - what `lineup report` hands the browser: the c2c after c2c__finish and
 * c2c__resolve, and what the browser needs to show it again in another -d mode.
 * @input:	the recording's name (the title)
 * @c:		the c2c; the browser's d key changes its display (c2c__set_display)
 * @resolver:	names the code addresses of lines that a new display mode shows
 * @full_symbols, @no_source: as report's options (c2c_view__init)
 * @add_columns: after each build of the view, more columns (report --fields' Type and
 *		Member, which also name each line's members in the cache-line table); NULL: none
 * @source:	the source file (full path, into @path) and line of an entry's code address:
 *		0, or -1 when there is none; NULL: the browser shows no source
 * @ctx:	handed to @add_columns and @source
 * @structs:	how to read the recording again for its structs (the field tables and the
 *		suggesters of `lineup suggest`): when the user first goes into a line, never
 *		before; NULL: the browser shows no struct
 */
struct tui_report {
	const char *input;
	struct c2c *c;
	const struct c2c_resolver *resolver;
	bool full_symbols, no_source;
	void (*add_columns)(void *ctx, struct c2c_view *v, const struct c2c *c);
	int (*source)(void *ctx, const struct c2c_entry *e, struct strbuf *path,
		      unsigned int *line);
	void *ctx;
	const struct suggest_load_opts *structs;
};

int tui__report(const struct tui_report *r, char *err, size_t errlen);

/**
 * struct tui_fields - `lineup fields --tui`: the attributed structs.
 * @input:	the recording's name (titles)
 * @f:		the fields report (after fields__finish)
 * @structs:	the structs to show, hottest first (one: its member table opens at once)
 * @all_members: list untouched nested members too (fields --all-members)
 * @namer, @namer_ctx: how code addresses are named in the member table
 */
struct tui_fields {
	const char *input;
	const struct fields *f;
	const struct field_struct *const *structs;
	size_t nr_structs;
	bool all_members;
	fields_ip_namer namer;
	void *namer_ctx;
};

/*
 * The member table of each struct (analyzer/fields_table.h), and from it (Enter, l) the
 * struct's layout as a heat map: pahole's format, each member coloured and marked by its share
 * of the HITMs (or writes), the cache-line boundaries marked with each line's verdict.
 */
int tui__fields(const struct tui_fields *tf, char *err, size_t errlen);

/**
 * struct tui_line_figures - one cache line of a layout, as the suggestion view marks it.
 * @offset:	the line's start in the struct
 * @hitm:	HITM samples: measured on it (the current layout), or predicted to stay (proposed)
 * @transfers:	line transfers, modeled by replaying the recording
 */
struct tui_line_figures {
	uint64_t offset, hitm, transfers;
};

/**
 * struct tui_suggestion - `lineup suggest --tui`: the suggestion view.
 * @title:	"struct file (include/linux/fs.h)"
 * @summary:	what the suggestion does and why (suggest's explanation), NULL: none
 * @current, @proposed: the two layouts as printed (pahole's format), each '\n'-separated
 * @before, @after: per cache line of @current and @proposed, its figures (@nr_before,
 *		@nr_after of them; matched to pahole's "cacheline N boundary" by @line_size)
 * @comment:	the layout comment
 * @patch:	the unified diff, NULL when there is none
 * @patch_name:	the file name offered when writing the patch ("file.patch")
 */
struct tui_suggestion {
	const char *title;
	const char *summary;
	const char *current, *proposed;
	const struct tui_line_figures *before, *after;
	size_t nr_before, nr_after;
	unsigned int line_size;
	const char *comment;
	const char *patch;
	const char *patch_name;
};

/*
 * Show the suggestion: what it does, the current layout and the proposed one with each line's
 * HITMs (side by side where the terminal is wide enough, else one above the other; v
 * chooses), the comment and the patch (Tab goes from one to the next).  w writes the patch to
 * a file: it asks the name, and asks again before writing over a file that exists.
 */
int tui__suggest(const struct tui_suggestion *s, char *err, size_t errlen);

/*
 * The suggestion view of target @t of @sl, decided (pipeline/suggest_load.h), as the report's
 * browser shows it: @recording names the recording in the words, @patch is the diff (NULL:
 * none).
 */
int tui__suggest_target(struct suggest_load *sl, struct suggest_target *t, const char *recording,
			const char *patch, char *err, size_t errlen);

#endif
