// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `lineup report` in the browser: the c2c view's tables (analyzer/c2c_columns.h), the same
 * that --stdio, --json and --csv print.  Cache lines (with the members of each line when
 * report --fields named them) -> one line's Pareto rows -> one row's code address, with the
 * source around it when the file is readable.  d shows the lines in the next -d mode.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/c2c.h"
#include "analyzer/c2c_columns.h"
#include "analyzer/table.h"
#include "tui/browser.h"
#include "tui/screen.h"
#include "tui/tui.h"
#include "util/xalloc.h"

/* Lines of source shown before and after a code address's line. */
#define SOURCE_CONTEXT 15

/* A line's members as the Members column shows them, one string per -d mode. */
struct line_members {
	bool done;
	char *names[4];		/* by enum c2c_display */
};

struct report_browser {
	const struct tui_report *r;
	struct c2c_view view;
	struct table lines;	/* the view's lines table, with Members when there are names */
	struct line_members *members;	/* by c2c_line.serial; NULL: no names */
	size_t nr_members;
	int w_members;		/* the Members column's width for the lines shown now */
	char **symbols;		/* by c2c_line.serial: its code's symbols, for / */
};

static const enum c2c_display display_cycle[] = { C2C_DISPLAY_TOT, C2C_DISPLAY_LCL,
						  C2C_DISPLAY_RMT, C2C_DISPLAY_PEER };

static void members_free(struct report_browser *rb)
{
	for (size_t i = 0; i < rb->nr_members; i++)
		for (int m = 0; m < 4; m++)
			free(rb->members[i].names[m]);
	zfree(&rb->members);
	rb->nr_members = 0;
}

/* One named Pareto row of a line: its member, where, and the modes it is a row in. */
struct member_row {
	uint32_t offset;
	const char *name;
	unsigned int modes;
};

static int member_row_cmp(const void *pa, const void *pb)
{
	const struct member_row *a = pa, *b = pb;

	if (a->offset != b->offset)
		return a->offset < b->offset ? -1 : 1;
	return strcmp(a->name, b->name);
}

/*
 * The distinct members of line @l's Pareto rows in each mode, in the order of their offsets
 * (the layout's order: a mode changes which rows there are, not where they are), all modes
 * at once: the d key then has them.  @et: a table with the entries table's columns.
 */
static void line_members(struct report_browser *rb, const struct c2c_line *l,
			 const struct table_column *member, struct table *et)
{
	struct line_members *lm = &rb->members[l->serial];
	struct member_row *rows = xcalloc(l->nr_entries + 1, sizeof(*rows));
	struct table_cell *cells = xcalloc(l->nr_entries + 1, sizeof(*cells));
	const char **seen_names = xcalloc(l->nr_entries + 1, sizeof(*seen_names));
	size_t nr = 0;

	et->parent = l;
	for (uint32_t k = 0; k < l->nr_entries; k++) {
		const struct c2c_entry *e = c2c__entry(rb->r->c, l->entries[k]);
		unsigned int modes = 0;

		for (int m = 0; m < 4; m++)
			if (c2c_entry__shown(e, m))
				modes |= 1u << m;
		if (!modes)
			continue;
		table_cell__init(&cells[nr]);
		table__cell(et, member, e, &cells[nr]);
		/* unnamed entries carry their reason in brackets: not a member */
		if (cells[nr].kind != TABLE_STRING || !cells[nr].s || !cells[nr].s[0] ||
		    cells[nr].s[0] == '(') {
			table_cell__release(&cells[nr]);
			continue;
		}
		rows[nr] = (struct member_row){ e->offset, cells[nr].s, modes };
		nr++;
	}
	qsort(rows, nr, sizeof(*rows), member_row_cmp);
	for (int m = 0; m < 4; m++) {
		struct strbuf sb = STRBUF_INIT;
		size_t nr_seen = 0;

		for (size_t i = 0; i < nr; i++) {
			bool seen = false;

			if (!(rows[i].modes & 1u << m))
				continue;
			/* a member's name again (another offset in it): the few names so far */
			for (size_t j = 0; j < nr_seen && !seen; j++)
				seen = !strcmp(seen_names[j], rows[i].name);
			if (seen)
				continue;
			seen_names[nr_seen++] = rows[i].name;
			strbuf__addf(&sb, "%s%s", sb.len ? ", " : "", rows[i].name);
		}
		lm->names[m] = xstrdup(sb.buf ? sb.buf : "");
		strbuf__release(&sb);
	}
	lm->done = true;
	for (size_t i = 0; i < nr; i++)
		table_cell__release(&cells[i]);
	free(seen_names);
	free(cells);
	free(rows);
}

static const char *members_of(const struct report_browser *rb, const struct c2c_line *l)
{
	enum c2c_display d = c2c__config(rb->r->c)->display;

	if (l->serial >= rb->nr_members || !rb->members[l->serial].done)
		return "";
	return rb->members[l->serial].names[d];
}

static void val_members(const struct table *t, const struct table_column *col, const void *row,
			struct table_cell *out)
{
	table_cell__set_str(out, members_of(col->ctx, row));
}

/* Asked for each cell drawn: the width found once for the lines shown (build). */
static int width_members(const struct table *t, const struct table_column *col)
{
	const struct report_browser *rb = col->ctx;

	return rb->w_members;
}

static void members_width(struct report_browser *rb)
{
	rb->w_members = 7;
	for (size_t i = 0; i < rb->lines.nr_rows; i++) {
		int len = (int)strlen(members_of(rb, rb->lines.rows[i]));

		if (len > rb->w_members)
			rb->w_members = len;
	}
	if (rb->w_members > 40)
		rb->w_members = 40;
}

static int text_members(const struct table *t, const struct table_column *col, const void *row,
			int width, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%-*.*s", width, width, members_of(col->ctx, row));

	return n < 0 ? 0 : n;
}

static const struct table_column col_members = {
	.name = "members", .header = { NULL, "Members" }, .kind = TABLE_STRING, .align = TABLE_LEFT,
	.value = val_members, .text = text_members, .width_of = width_members,
	.flags = TABLE_TEXT_ONLY,
};

/*
 * The view (again, after d), and the lines table with a Members column when names exist.
 * What a line needs is computed the first time it is shown, for every mode (c2c__resolve,
 * the add_columns hook and line_members each keep theirs): d costs the lines' sort.
 */
static void build(struct report_browser *rb)
{
	const struct tui_report *r = rb->r;
	const struct table_column *member;

	c2c_view__release(&rb->view);
	table__release(&rb->lines);
	c2c_view__init(&rb->view, r->c, false, r->full_symbols, r->no_source);
	if (r->add_columns)
		r->add_columns(r->ctx, &rb->view, r->c);
	table__init(&rb->lines, NULL, NULL);
	table__copy_columns(&rb->lines, &rb->view.lines);
	for (size_t i = 0; i < rb->view.lines.nr_rows; i++)
		table__add_row(&rb->lines, rb->view.lines.rows[i]);
	member = table__column(&rb->view.entries, "member");
	if (member) {
		struct table et;
		int at = rb->lines.nr_cols;

		table__init(&et, NULL, NULL);
		table__copy_columns(&et, &rb->view.entries);
		if (!rb->members) {
			rb->nr_members = c2c__nr_lines(r->c);
			rb->members = xcalloc(rb->nr_members + 1, sizeof(*rb->members));
		}
		for (size_t i = 0; i < rb->lines.nr_rows; i++) {
			const struct c2c_line *l = rb->lines.rows[i];

			if (l->serial < rb->nr_members && !rb->members[l->serial].done)
				line_members(rb, l, table__column(&et, "member"), &et);
		}
		table__release(&et);
		members_width(rb);
		/* beside the line's address (after the columns its group header spans) */
		for (int i = 0; i < rb->lines.nr_cols; i++)
			if (!strcmp(rb->lines.cols[i].name, "dcacheline_count"))
				at = i + 1;
		table__insert_column(&rb->lines, at, &col_members, rb);
	}
}

static void lines_title(const struct report_browser *rb, struct strbuf *sb)
{
	const struct c2c_config *cfg = c2c__config(rb->r->c);

	strbuf__addf(sb, "Shared Data Cache Line Table (%zu entries, sorted on %s) - %s",
		     rb->lines.nr_rows, c2c_display__name(cfg->display), rb->r->input);
}

/* Enter on a Pareto row: its cells, one a line, then the source around its code address. */
static void code_view(struct report_browser *rb, struct browser *b, const struct table *t,
		      const struct c2c_entry *e)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	const struct c2c_line *l = t->parent;
	unsigned int line = 0;
	struct view *v;
	int w = 0;

	strbuf__addf(&sb, "Code address 0x%" PRIx64 " at offset 0x%" PRIx64 " of line 0x%" PRIx64,
		     e->iaddr, e->data_rel & (c2c__config(rb->r->c)->line_size - 1),
		     l->addr & ~(uint64_t)(c2c__config(rb->r->c)->line_size - 1));
	v = text_view__new(sb.buf);
	for (int i = 0; i < t->nr_cols; i++) {
		strbuf__reset(&sb);
		table__column_title(t, &t->cols[i], &sb);
		if (!table_column__hidden(&t->cols[i], true) && (int)sb.len > w)
			w = (int)sb.len;
	}
	for (int i = 0; i < t->nr_cols; i++) {
		const struct table_column *col = &t->cols[i];
		struct strbuf cell = STRBUF_INIT;
		const char *p;

		if (table_column__hidden(col, true))
			continue;
		strbuf__reset(&sb);
		table__column_title(t, col, &sb);
		table__cell_text(t, col, e, table__width(t, col), false, &cell);
		p = cell.buf ? cell.buf : "";
		while (*p == ' ')
			p++;
		text_view__add(v, SA_NORMAL, "%-*s  %s", w, sb.buf, p);
		strbuf__release(&cell);
	}
	text_view__add(v, SA_NORMAL, "%s", "");
	if (!rb->r->source || rb->r->source(rb->r->ctx, e, &path, &line) < 0 || !path.len) {
		text_view__add(v, SA_BOUNDARY, "(no source line for this address)");
	} else {
		FILE *f = fopen(path.buf, "r");

		if (!f) {
			text_view__add(v, SA_BOUNDARY, "%s:%u: cannot read the source: %s", path.buf,
				       line, strerror(errno));
		} else {
			char buf[4096];
			unsigned int n = 0;
			size_t mark = 0;

			text_view__add(v, SA_HEADER, "%s:%u", path.buf, line);
			while (fgets(buf, sizeof(buf), f)) {
				size_t len = strlen(buf);
				bool whole = len && buf[len - 1] == '\n';

				if (whole)
					buf[--len] = '\0';
				n++;
				if (n + SOURCE_CONTEXT >= line && n <= line + SOURCE_CONTEXT) {
					if (n == line)
						mark = text_view__rows(v);
					text_view__add(v, n == line ? SA_MARK : SA_NORMAL, "%6u%c %s",
						       n, n == line ? '>' : ' ', buf);
				}
				/* a longer line: its rest is not a line of its own */
				while (!whole && fgets(buf, sizeof(buf), f)) {
					len = strlen(buf);
					whole = len && buf[len - 1] == '\n';
				}
				if (n > line + SOURCE_CONTEXT)
					break;
			}
			if (ferror(f))
				text_view__add(v, SA_BOUNDARY, "%s: read error", path.buf);
			else if (!mark)
				text_view__add(v, SA_BOUNDARY, "%s has no line %u", path.buf, line);
			fclose(f);
			if (mark)
				text_view__goto(v, mark);
		}
	}
	browser__push(b, v);
	strbuf__release(&sb);
	strbuf__release(&path);
}

static bool report_enter(void *ctx, struct browser *b, const struct table *t, const void *row);

/* Enter on a cache line: its Pareto rows, the line's own numbers in the title. */
static void pareto_view(struct report_browser *rb, struct browser *b, const struct table *t,
			const struct c2c_line *l)
{
	const struct c2c_config *cfg = c2c__config(rb->r->c);
	bool peer = cfg->display == C2C_DISPLAY_PEER;
	struct strbuf title = STRBUF_INIT;
	struct table sub;

	table__init(&sub, NULL, NULL);
	if (t->drill(t, l, &sub) < 0) {
		browser__message(b, "no Pareto rows for this line");
	} else {
		strbuf__addf(&title, "Cacheline 0x%" PRIx64 " (Index %u): %s rmt %u lcl %u, "
			     "stores %u", l->addr & ~(uint64_t)(cfg->line_size - 1), l->idx,
			     peer ? "Peer" : "HITM", peer ? l->stats.rmt_peer : l->stats.rmt_hitm,
			     peer ? l->stats.lcl_peer : l->stats.lcl_hitm, l->stats.store);
		browser__push(b, table_view__new(&sub, title.buf, report_enter, rb));
	}
	strbuf__release(&title);
	table__release(&sub);
}

/* The lines table drills into a line's Pareto rows; a Pareto row (it has a parent) into code. */
static bool report_enter(void *ctx, struct browser *b, const struct table *t, const void *row)
{
	struct report_browser *rb = ctx;

	if (t->parent)
		code_view(rb, b, t, row);
	else
		pareto_view(rb, b, t, row);
	return true;
}

static enum view_key lines_key(void *ctx, struct browser *b, struct view *v, int key)
{
	struct report_browser *rb = ctx;
	const struct tui_report *r = rb->r;
	enum c2c_display d = c2c__config(r->c)->display;
	struct strbuf title = STRBUF_INIT;
	size_t i = 0, n = sizeof(display_cycle) / sizeof(display_cycle[0]);

	if (key != 'd')
		return VIEW_KEY_UNUSED;
	while (i < n && display_cycle[i] != d)
		i++;
	d = display_cycle[(i + 1) % n];
	c2c__set_display(r->c, d);
	c2c__resolve(r->c, r->resolver, c2c_view__wants_source(r->c, r->no_source));
	build(rb);
	lines_title(rb, &title);
	table_view__set_table(v, &rb->lines, title.buf);
	browser__message(b, "lines sorted and filtered on %s", c2c_display__name(d));
	strbuf__release(&title);
	return VIEW_KEY_DONE;
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const char *const *)a, y = (uintptr_t)*(const char *const *)b;

	return x < y ? -1 : x > y;
}

/* Line @l's code's symbols, each once ("a b c"): made the first time / looks at the line. */
static const char *line_symbols(struct report_browser *rb, const struct c2c_line *l)
{
	const char **syms;
	struct strbuf sb = STRBUF_INIT;
	size_t nr = 0;

	if (!rb->symbols)
		rb->symbols = xcalloc(c2c__nr_lines(rb->r->c) + 1, sizeof(char *));
	if (rb->symbols[l->serial])
		return rb->symbols[l->serial];
	syms = xcalloc(l->nr_entries + 1, sizeof(*syms));
	for (uint32_t k = 0; k < l->nr_entries; k++) {
		const struct c2c_entry *e = c2c__entry(rb->r->c, l->entries[k]);

		if (e->info.sym)
			syms[nr++] = e->info.sym;
	}
	/* the resolver hands one name per symbol: equal pointers are the same name */
	qsort(syms, nr, sizeof(*syms), cmp_ptr);
	for (size_t i = 0; i < nr; i++)
		if (!i || syms[i] != syms[i - 1])
			strbuf__addf(&sb, " %s", syms[i]);
	free(syms);
	rb->symbols[l->serial] = sb.buf ? sb.buf : xstrdup("");
	return rb->symbols[l->serial];
}

/*
 * / in the lines: a line is found by its address, its members and its code's symbols (not
 * by its counts: rendering 10,000 rows' numbers for each search made a search slow).
 */
static bool line_match(void *ctx, const void *row, const char *needle)
{
	struct report_browser *rb = ctx;
	const struct c2c_line *l = row;
	const struct table_column *addr = table__column(&rb->lines, "dcacheline");
	struct strbuf sb = STRBUF_INIT;
	bool found;

	if (addr)
		table__cell_text(&rb->lines, addr, l, 0, false, &sb);
	found = (sb.buf && strstr(sb.buf, needle)) || strstr(members_of(rb, l), needle) ||
		strstr(line_symbols(rb, l), needle);
	strbuf__release(&sb);
	return found;
}

static const char lines_help[] =
	"d                 the next display mode, as report -d: the lines sorted and\n"
	"                  filtered on Total, Local or Remote HITMs or Peer snoops\n"
	"Enter             the line's Pareto rows; Enter on a row there: its code\n"
	"                  address and the source around it\n"
	"/                 finds a line by its address, members or code's symbols\n";

int tui__report(const struct tui_report *r, char *err, size_t errlen)
{
	struct report_browser rb = { .r = r };
	struct strbuf title = STRBUF_INIT;
	struct view *v;
	int rc;

	build(&rb);
	lines_title(&rb, &title);
	v = table_view__new(&rb.lines, title.buf, report_enter, &rb);
	table_view__set_keys(v, lines_key, lines_help);
	table_view__set_match(v, line_match);
	/* what / looks in, made with the tables rather than at the first search */
	for (size_t i = 0; i < rb.lines.nr_rows; i++)
		line_symbols(&rb, rb.lines.rows[i]);
	rc = browser__browse(v, err, errlen);
	strbuf__release(&title);
	members_free(&rb);
	for (size_t i = 0; rb.symbols && i < c2c__nr_lines(r->c); i++)
		free(rb.symbols[i]);
	free(rb.symbols);
	table__release(&rb.lines);
	c2c_view__release(&rb.view);
	return rc;
}
