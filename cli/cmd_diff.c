// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lineup diff: two recordings compared (before a fix, after it), by what their cache lines
 * hold, not by address.  Each recording goes through the fields pipeline (sampling/fields_load.h);
 * analyzer/fields_diff matches members by type and path and lines by their members; the
 * counts of (after) are scaled to the work (before) did; the tables are the table model's
 * (analyzer/table.h), printed as text, JSON or CSV (cli/output.h).
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/fields.h"
#include "analyzer/fields_diff.h"
#include "analyzer/flat_layout.h"
#include "analyzer/table.h"
#include "cli/command.h"
#include "cli/output.h"
#include "sampling/fields_load.h"
#include "sampling/perf_file.h"
#include "sampling/sim_census.h"
#include "sampling/session.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

enum {
	OPT_STRUCT = 'C',
	OPT_VMLINUX = 'k',
	OPT_DEBUG_FILE = 1000,
	OPT_NORM,
	OPT_PER,
	OPT_LINE_SIZE,
	OPT_ALL_MEMBERS,
	OPT_SYMFS,
	OPT_STDIO,
	OPT_JSON,
	OPT_CSV,
};

static const struct cli_option diff_options[] = {
	{ OPT_STRUCT, 'C', "struct", "NAME", "only this struct ('file' or 'struct file')" },
	{ OPT_NORM, 0, "norm", "BASIS",
	  "compare counts per memory access (accesses, the default: the samples' periods "
	  "summed), per second of recording (time), per unit of --per's progress (progress), "
	  "or as they are (none)" },
	{ OPT_PER, 0, "per", "SYMBOL",
	  "compare counts per sample of the program's own progress: the samples whose code is "
	  "in the function SYMBOL, or whose data is in the variable SYMBOL (a progress counter)" },
	{ OPT_VMLINUX, 'k', "vmlinux", "FILE", "kernel image with debug info, for kernel samples" },
	{ OPT_DEBUG_FILE, 0, "debug-file", "FILE",
	  "an object with debug info to take types from (repeatable)" },
	{ OPT_SYMFS, 0, "symfs", "DIR", "look for objects under DIR (perf's --symfs)" },
	{ OPT_LINE_SIZE, 0, "line-size", "N",
	  "cache-line size of both (default: each recording's own, else 64)" },
	{ OPT_ALL_MEMBERS, 0, "all-members", NULL, "list the members nothing touched too" },
	{ OPT_STDIO, 0, "stdio", NULL, "print text tables (the default)" },
	{ OPT_JSON, 0, "json", NULL, "print JSON" },
	{ OPT_CSV, 0, "csv", NULL, "print the line and member tables as CSV" },
	CLI_OPTION_END
};

enum out_format { OUT_STDIO, OUT_JSON, OUT_CSV };
enum norm { NORM_ACCESSES, NORM_TIME, NORM_NONE, NORM_PROGRESS, NORM__NR };
static const char *const norm_names[] = { "accesses", "time", "none", "progress" };

struct diff_opts {
	const struct command *cmd;
	const char *only_struct;
	struct fields_attr_opts attr;
	enum out_format format;
	const char *format_opt;
	enum norm norm;
	bool norm_set;
	const char *per;	/* --per SYMBOL: the program's progress */
	unsigned long long line_size;
	bool all_members;
};

static int diff_option(void *ctx, int id, const char *arg)
{
	struct diff_opts *o = ctx;

	switch (id) {
	case OPT_STRUCT:
		o->only_struct = arg;
		break;
	case OPT_NORM:
		for (o->norm = 0; o->norm < NORM__NR && strcmp(arg, norm_names[o->norm]); o->norm++)
			;
		if (o->norm == NORM__NR)
			return cli__usage_error(o->cmd, "--norm: '%s' is not accesses, time, progress "
						"or none", arg);
		o->norm_set = true;
		break;
	case OPT_PER:
		if (!*arg)
			return cli__usage_error(o->cmd, "--per: a symbol is needed");
		o->per = arg;
		break;
	case OPT_VMLINUX:
		return cli__attr_option(o->cmd, &o->attr, CLI_ATTR_VMLINUX, arg);
	case OPT_DEBUG_FILE:
		return cli__attr_option(o->cmd, &o->attr, CLI_ATTR_DEBUG_FILE, arg);
	case OPT_SYMFS:
		return cli__attr_option(o->cmd, &o->attr, CLI_ATTR_SYMFS, arg);
	case OPT_LINE_SIZE:
		return cli__parse_line_size(o->cmd, arg, &o->line_size);
	case OPT_ALL_MEMBERS:
		o->all_members = true;
		break;
	case OPT_STDIO:
		o->format = OUT_STDIO;
		return cli__output_format(o->cmd, &o->format_opt, "stdio");
	case OPT_JSON:
		o->format = OUT_JSON;
		return cli__output_format(o->cmd, &o->format_opt, "json");
	case OPT_CSV:
		o->format = OUT_CSV;
		return cli__output_format(o->cmd, &o->format_opt, "csv");
	}
	return 0;
}

/* One side: its recording, its tables, what its collector said about overlap. */
struct diff_side {
	struct fields_load ld;
	struct sim_census census;
	bool has_census;
	double seconds;
};

struct diff_ctx {
	struct diff_opts *o;
	struct diff_side side[2];
	struct fields_diff d;
	double scale;
	double scales[NORM__NR];	/* every basis's scale, 0 where it has none */
	struct strbuf notes; /* one per line, for text, JSON and CSV alike */
	const struct diff_struct *only;
};

static const char *const side_names[] = { "before", "after" };

/* --- the columns: each metric's before, after and change --- */

/* Between the text's cells. */
static const char text_sep[] = "  ";

enum metric { M_HITM, M_LOADS, M_STORES, M_LOCKED, M_CYCLES, M_READERS, M_WRITERS, M_LINES };

struct metric_col {
	enum metric m;
	int part; /* 0 before, 1 after, 2 change */
};

/* The row's counts on side @k: a line group's or a member's. */
static const struct diff_counts *row_counts(const struct table *t, const void *row, int k)
{
	if (!strcmp(t->name, "lines"))
		return &((const struct diff_group *)row)->side[k];
	return &((const struct diff_member *)row)->side[k];
}

static uint64_t metric_count(const struct diff_counts *c, enum metric m)
{
	switch (m) {
	case M_HITM:
		return c->hitm;
	case M_LOADS:
		return c->loads;
	case M_STORES:
		return c->stores;
	case M_LOCKED:
		return c->locked;
	case M_READERS:
		return c->readers;
	case M_WRITERS:
		return c->writers;
	case M_LINES:
		return c->lines;
	default:
		return 0;
	}
}

/* Counts of samples scale with the work done; CPUs, lines and mean cycles do not. */
static bool metric_scaled(enum metric m)
{
	return m <= M_LOCKED;
}

static void col_metric(const struct table *t, const struct table_column *col, const void *row,
		       struct table_cell *out)
{
	const struct metric_col *mc = col->ctx;
	const struct diff_ctx *c = t->ctx;
	const struct diff_counts *b = row_counts(t, row, 0), *a = row_counts(t, row, 1);
	double ch;

	if (mc->part < 2) {
		const struct diff_counts *s = mc->part ? a : b;

		if (mc->m == M_CYCLES) {
			out->kind = TABLE_CYCLES;
			out->d = diff_counts__cycles(s);
		} else {
			out->u = metric_count(s, mc->m);
		}
		return;
	}
	if (mc->m == M_CYCLES) {
		double cb = diff_counts__cycles(b), ca = diff_counts__cycles(a);

		ch = cb ? (ca - cb) * 100 / cb : ca ? INFINITY : 0;
	} else if (!metric_scaled(mc->m)) {
		/* CPUs and lines: how many more or fewer */
		out->kind = TABLE_INT;
		out->i = (int64_t)metric_count(a, mc->m) - (int64_t)metric_count(b, mc->m);
		return;
	} else {
		ch = fields_diff__change(metric_count(b, mc->m), metric_count(a, mc->m),
					 metric_scaled(mc->m) ? c->scale : 1);
	}
	if (isinf(ch))
		table_cell__set_str(out, "new");
	else
		out->d = ch;
}

static int text_change(const struct table *t, const struct table_column *col, const void *row,
		       int width, char *buf, size_t size)
{
	struct table_cell cell;
	int n;

	table_cell__init(&cell);
	cell.kind = col->kind;
	col_metric(t, col, row, &cell);
	if (cell.kind == TABLE_STRING)
		n = snprintf(buf, size, "%*s", width, cell.s);
	else if (cell.kind == TABLE_INT)
		n = snprintf(buf, size, "%+*lld", width, (long long)cell.i);
	else
		n = snprintf(buf, size, "%+*.1f%%", width - 1, cell.d);
	table_cell__release(&cell);
	return n < 0 ? 0 : n;
}

static const struct metric_col metric_cols[][3] = {
#define METRIC(m) { { m, 0 }, { m, 1 }, { m, 2 } }
	METRIC(M_HITM),	   METRIC(M_LOADS),   METRIC(M_STORES),	 METRIC(M_LOCKED),
	METRIC(M_CYCLES), METRIC(M_READERS), METRIC(M_WRITERS), METRIC(M_LINES),
#undef METRIC
};

static const struct {
	const char *names[3], *header;
	int width;
} metric_info[] = {
#define NAMES(n) { n "_before", n "_after", n "_change" }
	[M_HITM] = { NAMES("hitm"), "HITM", 8 },
	[M_LOADS] = { NAMES("loads"), "Loads", 8 },
	[M_STORES] = { NAMES("stores"), "Stores", 8 },
	[M_LOCKED] = { NAMES("locked"), "Locked", 7 },
	[M_CYCLES] = { NAMES("cycles"), "Cycles", 7 },
	[M_READERS] = { NAMES("readers"), "Readers", 6 },
	[M_WRITERS] = { NAMES("writers"), "Writers", 6 },
	[M_LINES] = { NAMES("lines"), "Lines", 6 },
#undef NAMES
};

/* A metric's group header over its three columns, "------ HITM ------" as perf draws them. */
static const char *group_header(const struct table *t, const struct table_column *col, int line)
{
	static char text[M_LINES + 1][80];
	const struct metric_col *mc = col->ctx;
	const char *h = metric_info[mc->m].header;
	int at = (int)(col - t->cols), len = (int)strlen(h), w = 2 * (int)strlen(text_sep);
	int left, right;

	for (int k = at; k < at + 3 && k < t->nr_cols; k++)
		w += table__width(t, &t->cols[k]);
	left = (w - len - 2) / 2;
	right = w - len - 2 - left;
	if (line)
		return col->header[1];
	snprintf(text[mc->m], sizeof(text[mc->m]), "%.*s %s %.*s", left,
		 "------------------------------------", h, right,
		 "------------------------------------");
	return text[mc->m];
}

static void add_metric(struct table *t, enum metric m)
{
	static const char *const parts[] = { "before", "after", "change" };

	for (int p = 0; p < 3; p++) {
		struct table_column col = {
			.name = metric_info[m].names[p],
			.header = { p ? NULL : metric_info[m].header, parts[p] },
			.header_of = p ? NULL : group_header,
			.span = p ? 0 : 2,
			.width = p == 2 ? 7 : metric_info[m].width,
			.kind = p == 2 ? TABLE_FLOAT : m == M_CYCLES ? TABLE_CYCLES : TABLE_COUNT,
			.prec = 1,
			.text_prec = 1,
			.value = col_metric,
			.text = p == 2 ? text_change : NULL,
		};

		table__add_column(t, &col, &metric_cols[m][p]);
	}
}

/* "struct counters: a, b; struct file: f_count" from a group's sorted keys. */
static void holds_text(const struct diff_group *g, struct strbuf *sb)
{
	size_t prev_len = 0;
	const char *prev = NULL;

	if (!g->nr_keys) {
		strbuf__addf(sb, "(lines holding nothing attributed)");
		return;
	}
	for (size_t i = 0; i < g->nr_keys; i++) {
		const char *dot = strchr(g->keys[i], '.');
		size_t tl = dot ? (size_t)(dot - g->keys[i]) : strlen(g->keys[i]);

		if (prev && tl == prev_len && !strncmp(prev, g->keys[i], tl)) {
			strbuf__addf(sb, ", %s", dot ? dot + 1 : "");
			continue;
		}
		strbuf__addf(sb, "%s%.*s: %s", prev ? "; " : "", (int)tl, g->keys[i],
			     dot ? dot + 1 : "");
		prev = g->keys[i];
		prev_len = tl;
	}
}

static void col_holds(const struct table *t, const struct table_column *col, const void *row,
		      struct table_cell *out)
{
	(void)t;
	(void)col;
	holds_text(row, &out->text);
	out->s = out->text.buf;
}

static void col_verdict(const struct table *t, const struct table_column *col, const void *row,
			struct table_cell *out)
{
	const struct diff_group *g = row;
	int k = col->ctx == &side_names[1];

	(void)t;
	table_cell__set_str(out, line_verdict__name(g->verdict[k]));
}

static void col_addr(const struct table *t, const struct table_column *col, const void *row,
		     struct table_cell *out)
{
	const struct diff_group *g = row;

	(void)t;
	out->u = g->addr[col->ctx == &side_names[1]];
}

static void col_member(const struct table *t, const struct table_column *col, const void *row,
		       struct table_cell *out)
{
	const struct diff_member *m = row;

	(void)t;
	(void)col;
	table_cell__set_str(out, m->path ? m->path : "<holes/padding>");
}

static void col_place(const struct table *t, const struct table_column *col, const void *row,
		      struct table_cell *out)
{
	const struct diff_member *m = row;
	const char *what = col->ctx;
	int k = what[0] == 'a';

	(void)t;
	if (!m->in_layout[k]) {
		table_cell__set_str(out, "-");
		return;
	}
	out->u = strstr(what, "size") ? m->size[k] : m->offset[k];
}

static void col_type(const struct table *t, const struct table_column *col, const void *row,
		     struct table_cell *out)
{
	(void)t;
	(void)col;
	table_cell__set_str(out, ((const struct diff_member *)row)->type);
}

static void lines_table(struct diff_ctx *c, struct table *t)
{
	static const struct table_column holds = {
		.name = "holds", .header = { NULL, "Holds" }, .width = 1, .align = TABLE_LEFT,
		.kind = TABLE_STRING, .value = col_holds,
	};
	static const struct table_column verdict = {
		.name = "verdict_before", .header = { NULL, "Verdict before" }, .width = 14,
		.align = TABLE_LEFT, .kind = TABLE_STRING, .value = col_verdict,
		.flags = TABLE_DATA_ONLY,
	};
	struct table_column v2 = verdict, a1, a2;
	static const struct table_column addr = {
		.name = "addr_before", .kind = TABLE_ADDR, .value = col_addr,
		.flags = TABLE_DATA_ONLY,
	};

	table__init(t, "lines", c);
	for (enum metric m = M_HITM; m <= M_LINES; m++)
		if (m != M_READERS && m != M_WRITERS)
			add_metric(t, m);
	table__add_column(t, &verdict, &side_names[0]);
	v2.name = "verdict_after";
	table__add_column(t, &v2, &side_names[1]);
	a1 = addr;
	table__add_column(t, &a1, &side_names[0]);
	a2 = addr;
	a2.name = "addr_after";
	table__add_column(t, &a2, &side_names[1]);
	table__add_column(t, &holds, NULL);
	for (size_t i = 0; i < c->d.nr_groups; i++) {
		const struct diff_group *g = &c->d.groups[i];
		bool keep = !c->only;

		for (size_t k = 0; !keep && k < g->nr_keys; k++)
			keep = !strncmp(g->keys[k], c->only->name, strlen(c->only->name)) &&
			       g->keys[k][strlen(c->only->name)] == '.';
		if (keep)
			table__add_row(t, g);
	}
}

static bool member_touched(const struct diff_member *m)
{
	for (int k = 0; k < 2; k++)
		if (m->side[k].loads || m->side[k].stores)
			return true;
	return false;
}

static void members_table(struct diff_ctx *c, const struct diff_struct *ds, struct table *t)
{
	static const struct table_column member = {
		.name = "member", .header = { NULL, "Member" }, .width = 24, .align = TABLE_LEFT,
		.kind = TABLE_STRING, .value = col_member,
	};
	static const struct table_column type = {
		.name = "type", .kind = TABLE_STRING, .value = col_type, .flags = TABLE_DATA_ONLY,
	};
	static const char *const places[] = { "before_offset", "before_size", "after_offset",
					      "after_size" };

	table__init(t, "members", c);
	table__add_column(t, &type, NULL);
	table__add_column(t, &member, NULL);
	for (int p = 0; p < 4; p++) {
		struct table_column col = {
			.name = places[p], .kind = TABLE_COUNT, .value = col_place,
			.flags = TABLE_DATA_ONLY,
		};

		table__add_column(t, &col, places[p]);
	}
	for (enum metric m = M_HITM; m <= M_WRITERS; m++)
		add_metric(t, m);
	for (size_t i = 0; i < ds->nr; i++) {
		const struct diff_member *m = &c->d.members[ds->first + i];

		if (c->o->all_members || member_touched(m))
			table__add_row(t, m);
	}
}

/* --- the text --- */

static const struct table_text_style text_style = { "  ", "  ", text_sep, 2, false, false };

static void print_table(const struct table *t, struct strbuf *sb)
{
	table_text__headers(t, &text_style, sb);
	for (size_t i = 0; i < t->nr_rows; i++) {
		table_text__row(t, t->rows[i], &text_style, sb);
		strbuf__add(sb, "\n", 1);
	}
}

static unsigned line_of(uint64_t offset, unsigned line_size)
{
	return (unsigned)(offset / line_size);
}

/* Both layouts of a struct side by side, and where each member went. */
static void print_layouts(const struct diff_ctx *c, const struct diff_struct *ds,
			  struct strbuf *sb)
{
	unsigned ls[2];

	for (int k = 0; k < 2; k++)
		ls[k] = c->side[k].ld.fields->line_size;
	strbuf__addf(sb, "  layout, before (size %llu) | after (size %llu):\n",
		     (unsigned long long)ds->layout[0]->size,
		     (unsigned long long)ds->layout[1]->size);
	strbuf__addf(sb, "  %6s %5s %-26s | %6s %5s %-26s  %s\n", "offset", "size", "member",
		     "offset", "size", "member", "move");
	for (size_t i = 0; i < ds->nr; i++) {
		const struct diff_member *m = &c->d.members[ds->first + i];
		char l[2][64];

		if (!m->path)
			continue;
		for (int k = 0; k < 2; k++)
			if (m->in_layout[k])
				snprintf(l[k], sizeof(l[k]), "%6llu %5llu %-26s",
					 (unsigned long long)m->offset[k],
					 (unsigned long long)m->size[k], m->path);
			else
				snprintf(l[k], sizeof(l[k]), "%6s %5s %-26s", "", "", "(none)");
		strbuf__addf(sb, "  %s | %s", l[0], l[1]);
		if (m->in_layout[0] && m->in_layout[1] && m->offset[0] != m->offset[1])
			strbuf__addf(sb, "  %+lld (line %u -> %u)",
				     (long long)(m->offset[1] - m->offset[0]),
				     line_of(m->offset[0], ls[0]), line_of(m->offset[1], ls[1]));
		else if (m->in_layout[0] != m->in_layout[1])
			strbuf__addf(sb, "  %s", m->in_layout[1] ? "added" : "removed");
		while (sb->len && sb->buf[sb->len - 1] == ' ')
			sb->buf[--sb->len] = '\0';
		strbuf__add(sb, "\n", 1);
	}
}

static void print_side_text(const struct diff_ctx *c, int k, struct strbuf *sb)
{
	const struct diff_side *s = &c->side[k];

	strbuf__addf(sb, "# %-6s %s: %zu samples with a data address (%llu accesses), %.3f s, "
			 "%u-byte lines",
		     side_names[k], s->ld.input, s->ld.nr_samples,
		     (unsigned long long)s->ld.period_sum, s->seconds, s->ld.fields->line_size);
	if (c->o->per)
		strbuf__addf(sb, "; progress %llu (%llu samples in %s)",
			     (unsigned long long)s->ld.progress,
			     (unsigned long long)s->ld.progress_samples, c->o->per);
	if (s->has_census && s->census.has_overlap)
		strbuf__addf(sb, "; threads ran at the same time for %.1f ms of %.1f ms modeled",
			     s->census.overlap_ns / 1e6, s->census.observed_ns / 1e6);
	strbuf__add(sb, "\n", 1);
}

static void print_stdio(struct diff_ctx *c, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	struct table t;

	strbuf__addf(&sb, "# lineup diff: lines matched by what they hold, members by type and "
			  "name\n");
	print_side_text(c, 0, &sb);
	print_side_text(c, 1, &sb);
	strbuf__addf(&sb, "# changes: after's counts per %s, x%.4g",
		     c->o->norm == NORM_ACCESSES ? "memory access (sample periods summed)" :
		     c->o->norm == NORM_TIME ? "second of recording" :
		     c->o->norm == NORM_PROGRESS ? "unit of progress (--per's samples' periods "
						   "summed)" : "recording (not scaled)",
		     c->scale);
	/* the other bases, for a reader who doubts this one */
	for (int n = 0; n < NORM__NR; n++)
		if (n != (int)c->o->norm && n != NORM_NONE && c->scales[n] > 0)
			strbuf__addf(&sb, "; per %s x%.4g", norm_names[n], c->scales[n]);
	strbuf__add(&sb, "\n", 1);
	if (c->notes.len)
		strbuf__addf(&sb, "%s", c->notes.buf);
	strbuf__addf(&sb, "\nCache lines:\n");
	lines_table(c, &t);
	print_table(&t, &sb);
	for (size_t i = 0; i < t.nr_rows; i++) {
		const struct diff_group *g = t.rows[i];

		if (g->verdict[0] != g->verdict[1] && g->nr_keys) {
			strbuf__addf(&sb, "  ");
			holds_text(g, &sb);
			strbuf__addf(&sb, ": %s -> %s\n", line_verdict__name(g->verdict[0]),
				     line_verdict__name(g->verdict[1]));
		}
	}
	table__release(&t);
	for (size_t i = 0; i < c->d.nr_structs; i++) {
		const struct diff_struct *ds = &c->d.structs[i];

		if (c->only && ds != c->only)
			continue;
		strbuf__addf(&sb, "\n%s%s%s:\n", ds->name,
			     !ds->layout[0] ? " (after only)" : !ds->layout[1] ? " (before only)" : "",
			     ds->layout_changed ? ", layout changed" : "");
		members_table(c, ds, &t);
		print_table(&t, &sb);
		table__release(&t);
		if (ds->layout_changed)
			print_layouts(c, ds, &sb);
	}
	output__strbuf(out, &sb);
	strbuf__release(&sb);
}

/* --- JSON and CSV --- */

static void json_side(struct json *j, const struct diff_side *s)
{
	const struct perf_header_info *h = session__header(s->ld.session);

	json__begin_object(j);
	json__kstr(j, "input", s->ld.input);
	json__ku64(j, "samples", s->ld.nr_samples);
	json__ku64(j, "accesses", s->ld.period_sum);
	json__key(j, "seconds");
	json__double(j, s->seconds, 6);
	if (s->ld.progress_sym) {
		json__ku64(j, "progress", s->ld.progress);
		json__ku64(j, "progress_samples", s->ld.progress_samples);
	}
	json__ku64(j, "line_size", s->ld.fields->line_size);
	json__kstr(j, "hostname", h->hostname);
	json__kstr(j, "cpudesc", h->cpudesc);
	if (s->has_census && s->census.has_overlap) {
		json__key(j, "overlap_ms");
		json__double(j, s->census.overlap_ns / 1e6, 3);
		json__key(j, "modeled_ms");
		json__double(j, s->census.observed_ns / 1e6, 3);
		json__kstr(j, "overlapped", sim_census__overlap(&s->census) == SIM_OVERLAP_SEEN ?
						    "yes" : "never");
	}
	json__end_object(j);
}

static void print_json(struct diff_ctx *c, FILE *out)
{
	struct json j;
	struct table t;

	json__init(&j, out, false);
	json__begin_object(&j);
	for (int k = 0; k < 2; k++) {
		json__key(&j, side_names[k]);
		json_side(&j, &c->side[k]);
	}
	json__kstr(&j, "norm", norm_names[c->o->norm]);
	if (c->o->per)
		json__kstr(&j, "per", c->o->per);
	json__key(&j, "scale");
	json__double(&j, c->scale, 6);
	json__key(&j, "scales");
	json__begin_object(&j);
	for (int n = 0; n < NORM__NR; n++)
		if (n != NORM_NONE && c->scales[n] > 0) {
			json__key(&j, norm_names[n]);
			json__double(&j, c->scales[n], 6);
		}
	json__end_object(&j);
	json__key(&j, "notes");
	json__begin_array(&j);
	for (const char *p = c->notes.buf; p && *p;) {
		const char *nl = strchr(p, '\n');
		char *line = xstrndup(p + 2, (size_t)(nl - p - 2)); /* without "# " */

		json__str(&j, line);
		free(line);
		p = nl + 1;
	}
	json__end_array(&j);
	json__key(&j, "lines");
	json__begin_array(&j);
	lines_table(c, &t);
	for (size_t i = 0; i < t.nr_rows; i++) {
		json__break(&j, 2);
		json__begin_object(&j);
		json__row(&j, &t, t.rows[i]);
		json__end_object(&j);
	}
	table__release(&t);
	json__end_array(&j);
	json__key(&j, "structs");
	json__begin_array(&j);
	for (size_t i = 0; i < c->d.nr_structs; i++) {
		const struct diff_struct *ds = &c->d.structs[i];

		if (c->only && ds != c->only)
			continue;
		json__begin_object(&j);
		json__kstr(&j, "name", ds->name);
		json__key(&j, "layout_changed");
		json__bool(&j, ds->layout_changed);
		json__key(&j, "members");
		json__begin_array(&j);
		members_table(c, ds, &t);
		for (size_t r = 0; r < t.nr_rows; r++) {
			json__break(&j, 4);
			json__begin_object(&j);
			json__row(&j, &t, t.rows[r]);
			json__end_object(&j);
		}
		table__release(&t);
		json__end_array(&j);
		json__end_object(&j);
	}
	json__end_array(&j);
	json__end_object(&j);
	fputc('\n', out);
	json__release(&j);
}

static void print_csv(struct diff_ctx *c, FILE *out)
{
	struct csv csv;
	struct table lines, *members = xcalloc(c->d.nr_structs + 1, sizeof(*members));
	size_t n = 0;

	csv__init(&csv, out, true);
	lines_table(c, &lines);
	csv__add_columns(&csv, &lines);
	for (size_t i = 0; i < c->d.nr_structs; i++)
		if (!c->only || &c->d.structs[i] == c->only)
			members_table(c, &c->d.structs[i], &members[n++]);
	if (n)
		csv__add_columns(&csv, &members[0]);
	csv__header(&csv);
	for (size_t i = 0; i < lines.nr_rows; i++)
		csv__row(&csv, &lines, lines.rows[i]);
	for (size_t k = 0; k < n; k++) {
		for (size_t i = 0; i < members[k].nr_rows; i++)
			csv__row(&csv, &members[k], members[k].rows[i]);
		table__release(&members[k]);
	}
	table__release(&lines);
	free(members);
	csv__release(&csv);
}

/* --- the comparison --- */

static double basis(const struct diff_side *s, enum norm n)
{
	if (n == NORM_ACCESSES)
		return (double)s->ld.period_sum;
	if (n == NORM_TIME)
		return s->seconds;
	if (n == NORM_PROGRESS)
		return (double)s->ld.progress;
	return 1;
}

static bool same_text(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* What makes the two hard to compare: said, and the comparison goes on. */
static void note_differences(struct diff_ctx *c)
{
	const struct perf_header_info *h[2] = { session__header(c->side[0].ld.session),
						session__header(c->side[1].ld.session) };
	unsigned ls[2] = { c->side[0].ld.fields->line_size, c->side[1].ld.fields->line_size };

	if (!same_text(h[0]->hostname, h[1]->hostname) || !same_text(h[0]->cpudesc, h[1]->cpudesc) ||
	    h[0]->nr_cpus_avail != h[1]->nr_cpus_avail)
		strbuf__addf(&c->notes, "# note: recorded on different machines (%s, %s, %u CPUs; "
					"%s, %s, %u CPUs): the changes include the machine's\n",
			     h[0]->hostname ? h[0]->hostname : "?", h[0]->cpudesc ? h[0]->cpudesc : "?",
			     h[0]->nr_cpus_avail, h[1]->hostname ? h[1]->hostname : "?",
			     h[1]->cpudesc ? h[1]->cpudesc : "?", h[1]->nr_cpus_avail);
	if (ls[0] != ls[1])
		strbuf__addf(&c->notes, "# note: different cache-line sizes (%u and %u bytes): "
					"lines are matched by what they hold, each recording's at "
					"its own size\n", ls[0], ls[1]);
	for (int k = 0; k < 2; k++) {
		const struct diff_side *s = &c->side[k];

		if (s->has_census && sim_census__overlap(&s->census) == SIM_OVERLAP_NONE)
			strbuf__addf(&c->notes, "# inconclusive: in %s (%s) the threads never ran at "
						"the same time: HITMs missing there prove nothing, "
						"not a fix (record again with LINEUP_SIM_YIELD=500 or "
						"on more free CPUs)\n", side_names[k], s->ld.input);
	}
	if (c->o->norm == NORM_TIME && (!c->side[0].seconds || !c->side[1].seconds))
		strbuf__addf(&c->notes, "# note: a recording without sample times: compared "
					"as they are\n");
}

static int load_side(struct diff_ctx *c, int k, const char *input)
{
	struct diff_side *s = &c->side[k];
	char err[4096];
	int rc;

	s->ld.progress_sym = c->o->per;
	rc = fields_load__run(&s->ld, input, &c->o->attr, NULL, (unsigned)c->o->line_size, false,
			      err, sizeof(err));
	if (s->ld.fa)
		cli__attr_warnings(s->ld.fa);
	if (rc) {
		cli__error("%s", err);
		return rc == -ENODATA ? EXIT_NOTHING : EXIT_USAGE;
	}
	if (c->o->per && !s->ld.progress) {
		cli__error("diff: --per %s: no sample of %s (%s) has its code in %s or its data on "
			   "it: the program's progress cannot be counted there (name a function "
			   "its work loop runs in, or a counter it updates)", c->o->per,
			   side_names[k], input, c->o->per);
		return EXIT_USAGE;
	}
	if (s->ld.fields->last_time > s->ld.fields->first_time)
		s->seconds = (s->ld.fields->last_time - s->ld.fields->first_time) / 1e9;
	/* The collector's overlap account, when it is one of its recordings. */
	s->has_census = strcmp(input, "-") && !sim_census__read(&s->census, input, err, sizeof(err));
	return 0;
}

static const struct diff_struct *find_struct(const struct fields_diff *d, const char *name)
{
	for (size_t i = 0; i < d->nr_structs; i++) {
		const char *n = d->structs[i].name;

		if (!strcmp(n, name) || (!strncmp(n, "struct ", 7) && !strcmp(n + 7, name)) ||
		    (!strncmp(n, "union ", 6) && !strcmp(n + 6, name)))
			return &d->structs[i];
	}
	return NULL;
}

static int diff_run(const struct command *cmd, int argc, char **argv)
{
	struct diff_opts o = { .cmd = cmd };
	struct diff_ctx c = { .o = &o, .notes = STRBUF_INIT };
	int rc, i = cli__parse(cmd, argc, argv, diff_option, &o, &rc);
	double b[2];

	if (i < 0)
		goto out_opts;
	if (o.per && !o.norm_set)
		o.norm = NORM_PROGRESS;
	if (o.norm == NORM_PROGRESS && !o.per) {
		rc = cli__usage_error(cmd, "--norm progress: name the progress with --per SYMBOL");
		goto out_opts;
	}
	if (argc - i != 2) {
		rc = cli__usage_error(cmd, "two recordings are needed: lineup diff BEFORE AFTER");
		goto out_opts;
	}
	if (!strcmp(argv[i], "-") && !strcmp(argv[i + 1], "-")) {
		rc = cli__usage_error(cmd, "only one of the recordings can be standard input");
		goto out_opts;
	}
	for (int k = 0; k < 2; k++) {
		rc = load_side(&c, k, argv[i + k]);
		if (rc)
			goto out;
	}
	for (int n = 0; n < NORM__NR; n++) {
		for (int k = 0; k < 2; k++)
			b[k] = basis(&c.side[k], (enum norm)n);
		c.scales[n] = b[0] > 0 && b[1] > 0 ? b[0] / b[1] : 0;
	}
	c.scale = c.scales[o.norm] > 0 ? c.scales[o.norm] : 1;
	note_differences(&c);
	if (fields_diff__build(&c.d, c.side[0].ld.fields, c.side[1].ld.fields, c.scale)) {
		cli__error("diff: out of memory");
		rc = EXIT_USAGE;
		goto out;
	}
	if (o.only_struct && !(c.only = find_struct(&c.d, o.only_struct))) {
		cli__error("diff: no struct '%s' in either recording", o.only_struct);
		rc = EXIT_NOTHING;
		goto out;
	}
	switch (o.format) {
	case OUT_STDIO:
		print_stdio(&c, stdout);
		break;
	case OUT_JSON:
		print_json(&c, stdout);
		break;
	case OUT_CSV:
		print_csv(&c, stdout);
		break;
	}
	rc = cli__close_output(stdout, "standard output", c.d.nr_groups ? EXIT_OK : EXIT_NOTHING);
out:
	fields_diff__release(&c.d);
	for (int k = 0; k < 2; k++)
		fields_load__release(&c.side[k].ld);
	strbuf__release(&c.notes);
out_opts:
	fields_list__release(&o.attr.debug_files);
	return rc;
}

const struct command cmd_diff = {
	.name = "diff",
	.summary = "compare two recordings by what their cache lines hold (before/after a fix)",
	.usage = "[-C NAME] [--per SYMBOL] [--norm accesses|time|progress|none] [-k VMLINUX] "
		 "[--stdio|--json|--csv] BEFORE AFTER",
	.description =
		"Read both recordings as 'lineup fields' does and compare them: cache lines are "
		"matched by what they hold (the type and member of each sample's data, whether a "
		"global variable's, a heap object's by its allocation or an operand's type), not by "
		"address, so ASLR and a new layout do not get in the way; a line split in two by "
		"the fix is matched with both halves.  Per line group and per member: HITMs, loads, "
		"stores, locked RMWs, mean cycles, reader and writer CPUs, before, after and the "
		"change, with after's counts scaled to the work before did: per sample of the "
		"program's own progress where --per names it (a function its work loop runs in, "
		"or a counter it updates), else per memory access (--norm).  A struct "
		"whose layout differs between the two binaries is shown with both layouts side by "
		"side and each member's move.  Recordings of different machines or line sizes are "
		"compared where they can be, and said; a software-collector recording whose "
		"threads never ran at the same time is said to be inconclusive, never fixed.",
	.options = diff_options,
	.run = diff_run,
};
