// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `lineup report` in the browser: the c2c view's tables (analyzer/c2c_columns.h), the same
 * that --stdio, --json and --csv print.  Cache lines (with the members of each line when
 * report --fields named them) -> one line's Pareto rows -> one row's code address, with the
 * source around it when the file is readable.  d shows the lines in the next -d mode.
 *
 * Below a line, its structs: the first time the user goes into a line, the recording is read
 * again for the field tables and the suggesters (pipeline/suggest_load.h, what `lineup
 * fields` and `lineup suggest` read), never before, so that opening the report costs what
 * --stdio costs.  The line's Pareto rows then get each offset's type, member, readers and
 * writers; l opens the struct's layout as a heat map (views.h), Enter there its suggestion.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/c2c.h"
#include "analyzer/c2c_columns.h"
#include "analyzer/fields.h"
#include "analyzer/fields_view.h"
#include "analyzer/flat_layout.h"
#include "analyzer/suggest.h"
#include "analyzer/table.h"
#include "pipeline/suggest_load.h"
#include "tui/browser.h"
#include "tui/screen.h"
#include "tui/tui.h"
#include "tui/views.h"
#include "util/file.h"
#include "util/xalloc.h"

/* Lines of source shown before and after a code address's line. */
#define SOURCE_CONTEXT 15
/* The most of a source file read to show a line (a path from debug info may name anything). */
#define SOURCE_MAX (64u << 20)

/* A line's members as the Members column shows them, one string per -d mode. */
struct line_members {
	bool done;
	char *names[4];		/* by enum c2c_display */
};

/* A struct's suggestion, made the first time it is asked for. */
struct struct_suggestion {
	bool done;
	struct suggestion_text st;
	struct suggest_patch patch;
	struct strbuf notes;		/* what making it said */
};

/*
 * The recording read again for its structs: the field tables (sl.ld.fields) and the
 * suggesters (sl.ts), the lines by address, the suggestions made so far (by target).
 */
struct report_structs {
	int state;			/* 0: not read yet, 1: read, -1: could not be (err) */
	bool ran;			/* suggest_load__run was called: sl to release */
	char err[4096];
	struct suggest_load_opts o;
	struct suggest_load sl;
	struct strbuf said;		/* what reading (or a suggestion) said */
	const struct field_line **by_addr;
	size_t nr_lines;
	struct struct_suggestion *sugg;
	char *recording;
};

struct report_browser {
	const struct tui_report *r;
	struct report_structs rs;
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
		/* a path from debug info: a regular file only (a FIFO or /dev/zero would never end) */
		int fd = file__open_regular(path.buf);
		FILE *f = fd < 0 ? NULL : fdopen(fd, "r");

		if (!f) {
			text_view__add(v, SA_BOUNDARY, "%s:%u: cannot read the source: %s", path.buf,
				       line, fd == -EINVAL ? "not a regular file" :
				       strerror(fd < 0 ? -fd : errno));
			if (fd >= 0)
				close(fd);
		} else {
			char buf[4096];
			unsigned int n = 0;
			size_t mark = 0, bytes = 0;

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
				bytes += len;
				while (!whole && bytes < SOURCE_MAX && fgets(buf, sizeof(buf), f)) {
					len = strlen(buf);
					bytes += len;
					whole = len && buf[len - 1] == '\n';
				}
				if (n > line + SOURCE_CONTEXT || bytes >= SOURCE_MAX)
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

/* ---- the structs below the lines: read when first asked ---- */

static void structs_say(void *ctx, bool warning, const char *msg)
{
	struct report_structs *rs = ctx;

	strbuf__addf(&rs->said, "%s%s\n", warning ? "warning: " : "", msg);
}

static int line_addr_cmp(const void *a, const void *b)
{
	uint64_t x = (*(const struct field_line *const *)a)->addr;
	uint64_t y = (*(const struct field_line *const *)b)->addr;

	return x < y ? -1 : x > y;
}

/*
 * The recording read again for its field tables and suggesters, once: true when they are
 * there.  It can take as long as `lineup fields` on the recording: the status line says so
 * first.
 */
static bool structs_load(struct report_browser *rb, struct browser *b)
{
	struct report_structs *rs = &rb->rs;
	const struct tui_report *r = rb->r;
	const struct fields *f;

	if (rs->state)
		return rs->state > 0;
	rs->state = -1;
	if (!r->structs) {
		snprintf(rs->err, sizeof(rs->err), "the structs are not available here");
		return false;
	}
	if (!strcmp(r->structs->input, "-")) {
		snprintf(rs->err, sizeof(rs->err), "the recording came through standard input and "
			 "cannot be read a second time for its structs: save it to a file and open "
			 "that");
		return false;
	}
	browser__message(b, "reading %s for its structs (once) ...", r->input);
	browser__draw(b);
	rs->o = *r->structs;
	rs->o.say = structs_say;
	rs->o.say_ctx = rs;
	rs->ran = true;
	if (suggest_load__run(&rs->sl, &rs->o, rs->err, sizeof(rs->err)) < 0)
		return false;
	strbuf__reset(&b->message);
	f = rs->sl.ld.fields;
	rs->by_addr = xcalloc(f->nr_lines + 1, sizeof(*rs->by_addr));
	for (size_t i = 0; i < f->nr_lines; i++)
		rs->by_addr[i] = &f->lines[i];
	rs->nr_lines = f->nr_lines;
	qsort(rs->by_addr, rs->nr_lines, sizeof(*rs->by_addr), line_addr_cmp);
	rs->sugg = xcalloc(rs->sl.ts.nr + 1, sizeof(*rs->sugg));
	rs->recording = xasprintf("%s (%zu samples, %" PRIu64 " attributed)", r->structs->input,
				  rs->sl.ld.nr_samples, rs->sl.ts.attributed);
	rs->state = 1;
	return true;
}

static void structs_release(struct report_structs *rs)
{
	for (size_t i = 0; rs->sugg && i < rs->sl.ts.nr; i++) {
		suggestion_text__release(&rs->sugg[i].st);
		suggest_patch__release(&rs->sugg[i].patch);
		strbuf__release(&rs->sugg[i].notes);
	}
	free(rs->sugg);
	free(rs->by_addr);
	free(rs->recording);
	strbuf__release(&rs->said);
	if (rs->ran)
		suggest_load__release(&rs->sl);
}

/* The field tables' line of c2c line @l (NULL: none of its samples reached them). */
static const struct field_line *field_line_of(const struct report_browser *rb,
					      const struct c2c_line *l)
{
	const struct report_structs *rs = &rb->rs;
	size_t lo = 0, hi = rs->nr_lines;
	uint64_t addr;

	if (rs->state <= 0)
		return NULL;
	addr = l->addr & ~(uint64_t)(rs->sl.ld.fields->line_size - 1);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (rs->by_addr[mid]->addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < rs->nr_lines && rs->by_addr[lo]->addr == addr ? rs->by_addr[lo] : NULL;
}

/* Whether a struct's member is on line @fl. */
static bool line_has_struct(const struct field_line *fl)
{
	for (size_t i = 0; fl && i < fl->nr_slots; i++)
		if (fl->slots[i].layout)
			return true;
	return false;
}

/* The slot of @fl at line offset @off: the innermost member there, NULL when none. */
static const struct line_slot *slot_at(const struct field_line *fl, uint32_t off)
{
	const struct line_slot *best = NULL;

	for (size_t i = 0; fl && i < fl->nr_slots; i++) {
		const struct line_slot *s = &fl->slots[i];

		if (s->offset > off || off >= s->offset + line_slot__size(s))
			continue;
		if (!best || (s->layout && !best->layout) || s->offset > best->offset ||
		    (s->offset == best->offset && line_slot__size(s) < line_slot__size(best)))
			best = s;
	}
	return best;
}

static const struct line_slot *entry_slot(const struct report_browser *rb,
					  const struct c2c_entry *e)
{
	const struct c2c_line *l = c2c__line(rb->r->c, e->line);
	unsigned int ls = c2c__config(rb->r->c)->line_size;

	return slot_at(field_line_of(rb, l), (uint32_t)(e->data_rel & (ls - 1)));
}

/* Ids as "0,1,3" (the first few, then how many more). */
static void add_ids(struct strbuf *sb, const struct id_set *ids)
{
	for (uint32_t i = 0; i < ids->nr && i < 6; i++)
		strbuf__addf(sb, "%s%" PRIu32, i ? "," : "", ids->ids[i]);
	if (ids->nr > 6)
		strbuf__addf(sb, "+%" PRIu32, ids->nr - 6);
	if (!ids->nr)
		strbuf__addf(sb, "-");
}

enum slot_col { SLOT_TYPE, SLOT_MEMBER, SLOT_READERS, SLOT_WRITERS };

/* A slot's cell: its type, member, or the CPUs/threads that read (wrote) it. */
static void slot_text(const struct line_slot *s, enum slot_col which, struct strbuf *sb)
{
	if (!s) {
		strbuf__addf(sb, "%s", which == SLOT_MEMBER ? "(no member)" : "-");
		return;
	}
	switch (which) {
	case SLOT_TYPE:
		strbuf__addf(sb, "%s", s->layout ? s->layout->name : "-");
		break;
	case SLOT_MEMBER:
		strbuf__addf(sb, "%s", s->layout ? s->path : "(unattributed)");
		break;
	case SLOT_READERS:
	case SLOT_WRITERS:
		add_ids(sb, which == SLOT_READERS ? &s->st.cpus_read : &s->st.cpus_write);
		strbuf__add(sb, "/", 1);
		add_ids(sb, which == SLOT_READERS ? &s->st.tids_read : &s->st.tids_write);
		break;
	}
}

static void val_slot(const struct table_column *col, const void *row, enum slot_col which,
		     struct table_cell *out)
{
	struct strbuf sb = STRBUF_INIT;

	slot_text(entry_slot(col->ctx, row), which, &sb);
	table_cell__set_strf(out, "%s", sb.buf ? sb.buf : "");
	strbuf__release(&sb);
}

#define SLOT_VALUE(fn, which)                                                                   \
	static void fn(const struct table *t, const struct table_column *col, const void *row,   \
		       struct table_cell *out)                                                    \
	{                                                                                         \
		val_slot(col, row, which, out);                                                   \
	}
SLOT_VALUE(val_type, SLOT_TYPE)
SLOT_VALUE(val_member, SLOT_MEMBER)
SLOT_VALUE(val_readers, SLOT_READERS)
SLOT_VALUE(val_writers, SLOT_WRITERS)

static const struct table_column col_slot[] = {
	[SLOT_TYPE] = { .name = "struct", .header = { NULL, "Struct" }, .kind = TABLE_STRING,
			.align = TABLE_LEFT, .value = val_type },
	[SLOT_MEMBER] = { .name = "struct_member", .header = { NULL, "Member" },
			  .kind = TABLE_STRING, .align = TABLE_LEFT, .value = val_member },
	[SLOT_READERS] = { .name = "readers", .header = { "Readers", "cpu/tid" },
			   .kind = TABLE_STRING, .align = TABLE_LEFT, .value = val_readers },
	[SLOT_WRITERS] = { .name = "writers", .header = { "Writers", "cpu/tid" },
			   .kind = TABLE_STRING, .align = TABLE_LEFT, .value = val_writers },
};

/*
 * A line's Pareto table with each offset's struct and member (unless report --fields named
 * them already), readers and writers, after the data address: each column as wide as its
 * widest cell on this line.
 */
static void add_slot_columns(struct report_browser *rb, struct table *t)
{
	int at = t->nr_cols;
	bool named = table__column(t, "member") != NULL;
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < t->nr_cols; i++)
		if (!strcmp(t->cols[i].name, "offset") || !strcmp(t->cols[i].name, "offset_node") ||
		    !strcmp(t->cols[i].name, "member"))
			at = i + 1;
	for (int c = named ? SLOT_READERS : SLOT_TYPE; c <= SLOT_WRITERS; c++) {
		struct table_column col = col_slot[c];

		col.width = (int)strlen(col.header[1]);
		if (col.header[0] && (int)strlen(col.header[0]) > col.width)
			col.width = (int)strlen(col.header[0]);
		for (size_t i = 0; i < t->nr_rows; i++) {
			strbuf__reset(&sb);
			slot_text(entry_slot(rb, t->rows[i]), (enum slot_col)c, &sb);
			if ((int)sb.len > col.width)
				col.width = sb.len > 40 ? 40 : (int)sb.len;
		}
		table__insert_column(t, at++, &col, rb);
	}
	strbuf__release(&sb);
}

/* The text view that says why a line has no struct to show. */
static void no_struct_view(struct report_browser *rb, struct browser *b, const struct c2c_line *l,
			   const struct field_line *fl)
{
	const struct report_structs *rs = &rb->rs;
	unsigned int ls = c2c__config(rb->r->c)->line_size;
	struct view *v = text_view__new("");
	uint64_t addr = l->addr & ~(uint64_t)(ls - 1);

	strbuf__addf(&v->title, "Cacheline 0x%" PRIx64 ": no attributed struct", addr);
	if (rs->state < 0) {
		text_view__add(v, SA_HEADER, "The structs cannot be shown:");
		text_view__add_text(v, SA_NORMAL, rs->err);
	} else {
		const struct attr_stats *st = &rs->sl.ld.fields->attr_all;

		text_view__add(v, SA_HEADER, "No struct member is attributed on line 0x%" PRIx64 ".",
			       addr);
		if (!fl)
			text_view__add(v, SA_NORMAL, "None of its samples has a data address that "
				       "lineup fields could read.");
		else
			text_view__add(v, SA_NORMAL, "Its %" PRIu64 " samples (%" PRIu64 " HITM) "
				       "fall in no struct that the debug info at hand describes.",
				       fl->st.loads + fl->st.stores, field_stats__hitm(&fl->st));
		text_view__add(v, SA_NORMAL, "%s", "");
		text_view__add(v, SA_NORMAL, "Why samples of %s stay unattributed (all lines):",
			       rb->r->input);
		for (int k = 1; k < ATTR__REASONS; k++)
			if (st->unresolved_samples[k])
				text_view__add(v, SA_NORMAL, "  %10" PRIu64 "  %s",
					       st->unresolved_samples[k],
					       attr_reason__text((enum attr_reason)k));
		text_view__add(v, SA_NORMAL, "%s", "");
		text_view__add(v, SA_NORMAL, "Debug info for the program (built with -g; "
			       "--debug-file, -k for the kernel) names the structs.");
	}
	if (rs->said.len) {
		text_view__add(v, SA_NORMAL, "%s", "");
		text_view__add_text(v, SA_BOUNDARY, rs->said.buf);
	}
	browser__push(b, v);
}

static void suggestion(void *ctx, struct browser *b, const struct field_struct *fs);

/*
 * l on a line (or a Pareto row): the layout of the struct of the row under the cursor, else
 * the hottest struct on the line, as a heat map at its member; or why there is none.
 */
static void struct_of_line(struct report_browser *rb, struct browser *b, const struct c2c_line *l,
			   const struct c2c_entry *e)
{
	const struct line_slot *s = e ? entry_slot(rb, e) : NULL;
	const struct field_line *fl;
	const struct fields *f;
	struct view *v;

	if (!structs_load(rb, b)) {
		no_struct_view(rb, b, l, NULL);
		return;
	}
	fl = field_line_of(rb, l);
	/* the line's slots are hottest first after fields__finish */
	for (size_t i = 0; fl && (!s || !s->layout) && i < fl->nr_slots; i++)
		if (fl->slots[i].layout)
			s = &fl->slots[i];
	if (!s || !s->layout) {
		no_struct_view(rb, b, l, fl);
		return;
	}
	f = rb->rs.sl.ld.fields;
	for (size_t i = 0; i < f->nr_structs; i++)
		if (f->structs[i].layout == s->layout) {
			const char *dot = strrchr(s->path, '.');

			v = heat_view__new(b, f, &f->structs[i], dot ? dot + 1 : s->path,
					   suggestion, rb);
			if (v)
				browser__push(b, v);
			return;
		}
	no_struct_view(rb, b, l, fl);
}

/* Enter on a struct's heat map: its suggestion, made the first time. */
static void suggestion(void *ctx, struct browser *b, const struct field_struct *fs)
{
	struct report_browser *rb = ctx;
	struct report_structs *rs = &rb->rs;
	struct suggest_target *t = NULL;
	struct struct_suggestion *ss;

	for (size_t k = 0; k < rs->sl.ts.nr && !t; k++)
		if (rs->sl.ts.v[k].flat == fs->layout)
			t = &rs->sl.ts.v[k];
	if (!t) {
		browser__message(b, "%s: no suggester saw its accesses", fs->layout->name);
		return;
	}
	ss = &rs->sugg[t - rs->sl.ts.v];
	if (!ss->done) {
		browser__message(b, "laying out %s ...", fs->layout->name);
		browser__draw(b);
		for (size_t i = 0; i < rs->sl.ts.nr; i++)
			rs->sl.ts.v[i].selected = &rs->sl.ts.v[i] == t;
		strbuf__reset(&rs->said);
		if (t->planned) {
			suggest_load__decide(&rs->sl);
			if (t->res.status == SUGGEST_OK && t->built)
				suggest_load__patch(&rs->sl, &ss->patch, rs->recording);
		} else {
			strbuf__addf(&rs->said, "no suggestion: %s\n", t->plan_err);
		}
		if (rs->said.len)
			strbuf__add(&ss->notes, rs->said.buf, rs->said.len);
		strbuf__reset(&rs->said);
		if (t->planned)
			suggestion_text__fill(&ss->st, &rs->sl, t, rs->recording,
					      ss->patch.diff && *ss->patch.diff ? ss->patch.diff : NULL,
					      ss->notes.buf);
		ss->done = true;
	}
	strbuf__reset(&b->message);
	if (!t->planned) {
		struct view *v = text_view__new("");

		strbuf__addf(&v->title, "%s: no suggestion", fs->layout->name);
		text_view__add_text(v, SA_NORMAL, ss->notes.buf ? ss->notes.buf : "");
		browser__push(b, v);
		return;
	}
	browser__push(b, suggest_view__new(&ss->st.s));
}

/* l in the Pareto rows: the struct of the row under the cursor. */
static enum view_key pareto_key(void *ctx, struct browser *b, struct view *v, int key)
{
	const struct table *t = table_view__table(v);

	if (key != 'l')
		return VIEW_KEY_UNUSED;
	struct_of_line(ctx, b, t->parent, table_view__row(v));
	return VIEW_KEY_DONE;
}

static const char pareto_help[] =
	"l                 the struct of this row's member (else the line's hottest\n"
	"                  struct): its layout as a heat map; Enter there: its\n"
	"                  suggestion (layouts side by side, the comment, the patch)\n";

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
		struct view *v;

		strbuf__addf(&title, "Cacheline 0x%" PRIx64 " (Index %u): %s rmt %u lcl %u, "
			     "stores %u", l->addr & ~(uint64_t)(cfg->line_size - 1), l->idx,
			     peer ? "Peer" : "HITM", peer ? l->stats.rmt_peer : l->stats.rmt_hitm,
			     peer ? l->stats.lcl_peer : l->stats.lcl_hitm, l->stats.store);
		/* the first line gone into reads the structs: each offset's member, who uses it */
		if (structs_load(rb, b))
			add_slot_columns(rb, &sub);
		v = table_view__new(&sub, title.buf, report_enter, rb);
		table_view__set_keys(v, pareto_key, pareto_help);
		browser__push(b, v);
		if (rb->rs.state < 0)
			browser__message(b, "no structs: %s", rb->rs.err);
		else if (!line_has_struct(field_line_of(rb, l)))
			browser__message(b, "no struct is attributed on this line (l says why)");
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

	if (key == 'l') {
		if (table_view__row(v))
			struct_of_line(rb, b, table_view__row(v), NULL);
		return VIEW_KEY_DONE;
	}
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
	"Enter             the line's Pareto rows, with each offset's struct, member,\n"
	"                  readers and writers (the first time: the recording is read\n"
	"                  again for its structs); Enter on a row there: its code\n"
	"                  address and the source around it\n"
	"l                 the line's hottest struct: its layout as a heat map, and\n"
	"                  (Enter there) its suggestion\n"
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
	structs_release(&rb.rs);
	return rc;
}
