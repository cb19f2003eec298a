// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `lineup diff`'s tables as table model instances (see fields_diff_table.h).
 */
#include <config.h>

#include "analyzer/fields_diff_table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analyzer/fields.h"
#include "util/strbuf.h"

/* The two sides, as the verdict and address columns' contexts. */
static const char *const sides[] = { "before", "after" };

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
	const struct fields_diff_view *c = t->ctx;
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

void fields_diff_group__holds(const struct diff_group *g, struct strbuf *sb)
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
	fields_diff_group__holds(row, &out->text);
	out->s = out->text.buf;
}

static void col_verdict(const struct table *t, const struct table_column *col, const void *row,
			struct table_cell *out)
{
	const struct diff_group *g = row;
	int k = col->ctx == &sides[1];

	(void)t;
	table_cell__set_str(out, line_verdict__name(g->verdict[k]));
}

static void col_addr(const struct table *t, const struct table_column *col, const void *row,
		     struct table_cell *out)
{
	const struct diff_group *g = row;

	(void)t;
	out->u = g->addr[col->ctx == &sides[1]];
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

void fields_diff_table__lines(struct table *t, const struct fields_diff_view *c)
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

	table__init(t, "lines", (void *)c);
	for (enum metric m = M_HITM; m <= M_LINES; m++)
		if (m != M_READERS && m != M_WRITERS)
			add_metric(t, m);
	table__add_column(t, &verdict, &sides[0]);
	v2.name = "verdict_after";
	table__add_column(t, &v2, &sides[1]);
	a1 = addr;
	table__add_column(t, &a1, &sides[0]);
	a2 = addr;
	a2.name = "addr_after";
	table__add_column(t, &a2, &sides[1]);
	table__add_column(t, &holds, NULL);
	for (size_t i = 0; i < c->d->nr_groups; i++) {
		const struct diff_group *g = &c->d->groups[i];
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

void fields_diff_table__members(struct table *t, const struct fields_diff_view *c,
				const struct diff_struct *ds)
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

	table__init(t, "members", (void *)c);
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
		const struct diff_member *m = &c->d->members[ds->first + i];

		if (c->all_members || member_touched(m))
			table__add_row(t, m);
	}
}

static const struct table_text_style text_style = { "  ", "  ", text_sep, 2, false, false };

void fields_diff_table__text(const struct table *t, struct strbuf *sb)
{
	table_text__headers(t, &text_style, sb);
	for (size_t i = 0; i < t->nr_rows; i++) {
		table_text__row(t, t->rows[i], &text_style, sb);
		strbuf__add(sb, "\n", 1);
	}
}

