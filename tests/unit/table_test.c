// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The table model on a hand-made table: text rows and headers (perf's spans, alignment, the
 * last column unpadded), typed values and their plain JSON/CSV text, a column with its own
 * context, stable sorting by value and by a compare function, searching, drilling down.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "analyzer/table.h"
#include "util/strbuf.h"
#include "tests/unit/check.h"

struct item {
	const char *name;
	unsigned long hits;
	double pct;
	unsigned long addr;
	struct item *kids;
	size_t nr_kids;
};

static void v_name(const struct table *t, const struct table_column *c, const void *row,
		   struct table_cell *out)
{
	table_cell__set_str(out, ((const struct item *)row)->name);
}

static void v_hits(const struct table *t, const struct table_column *c, const void *row,
		   struct table_cell *out)
{
	out->u = ((const struct item *)row)->hits;
}

static void v_pct(const struct table *t, const struct table_column *c, const void *row,
		  struct table_cell *out)
{
	out->d = ((const struct item *)row)->pct;
}

static void v_addr(const struct table *t, const struct table_column *c, const void *row,
		   struct table_cell *out)
{
	out->u = ((const struct item *)row)->addr;
}

static void v_pair(const struct table *t, const struct table_column *c, const void *row,
		   struct table_cell *out)
{
	out->u = ((const struct item *)row)->hits;
	out->u2 = ((const struct item *)row)->addr;
}

/* A column whose context is a prefix string: what report --fields' columns do with theirs. */
static void v_tag(const struct table *t, const struct table_column *c, const void *row,
		  struct table_cell *out)
{
	table_cell__set_strf(out, "%s%s", (const char *)c->ctx, ((const struct item *)row)->name);
}

/* perf-like quirky text: "[x] name" cut at the width. */
static int t_sym(const struct table *t, const struct table_column *c, const void *row, int width,
		 char *buf, size_t size)
{
	return snprintf(buf, size, "[x] %.*s", width > 4 ? width - 4 : 0,
			((const struct item *)row)->name);
}

static int drill(const struct table *t, const void *row, struct table *sub)
{
	const struct item *it = row;

	if (!it->nr_kids)
		return -1;
	table__copy_columns(sub, t);
	sub->parent = it;
	for (size_t i = 0; i < it->nr_kids; i++)
		table__add_row(sub, &it->kids[i]);
	return 0;
}

static const struct table_column c_name = {
	.name = "name", .header = { NULL, "Name" }, .width = 6, .align = TABLE_LEFT,
	.kind = TABLE_STRING, .value = v_name,
};
static const struct table_column c_hits = {
	.name = "hits", .header = { "--- counts ---", "Hits" }, .span = 1, .width = 6,
	.kind = TABLE_COUNT, .value = v_hits,
};
static const struct table_column c_pct = {
	.name = "pct", .header = { NULL, "Pct" }, .width = 7, .kind = TABLE_PERCENT, .prec = 2,
	.text_prec = 1, .value = v_pct,
};
static const struct table_column c_addr = {
	.name = "addr", .header = { NULL, "Addr" }, .width = 6, .kind = TABLE_ADDR,
	.value = v_addr, .flags = TABLE_DATA_ONLY,
};
static const struct table_column c_tag = {
	.name = "tag", .header = { NULL, "Tag" }, .width = 8, .align = TABLE_LEFT,
	.kind = TABLE_STRING, .value = v_tag,
};
static const struct table_column c_sym = {
	.name = "sym", .header = { NULL, "Sym" }, .width = 7, .kind = TABLE_STRING, .text = t_sym,
};

int main(void)
{
	struct item kids[] = { { "k1", 1, 0, 0, NULL, 0 }, { "k2", 2, 0, 0, NULL, 0 } };
	struct item items[] = {
		{ "alpha", 5, 12.345, 0x40, NULL, 0 },
		{ "beta", 30, 50.0, 0x80, kids, 2 },
		{ "gamma", 5, 1.5, 0xc0, NULL, 0 },
	};
	const struct table_text_style perf = { "# ", "  ", "  ", 2, true, false };
	const struct table_text_style plain = { "", "", " ", 1, false, false };
	struct strbuf sb = STRBUF_INIT;
	struct table t, sub;
	struct table_cell cell;

	table__init(&t, "items", NULL);
	t.drill = drill;
	table__add_column(&t, &c_name, NULL);
	table__add_column(&t, &c_hits, NULL);
	table__add_column(&t, &c_pct, NULL);
	table__add_column(&t, &c_addr, NULL);
	table__insert_column(&t, 1, &c_tag, "T:");
	table__add_column(&t, &c_sym, NULL);
	for (size_t i = 0; i < 3; i++)
		table__add_row(&t, &items[i]);
	CHECK(t.nr_cols == 6 && !strcmp(t.cols[1].name, "tag"));
	CHECK(table__column(&t, "pct") == &t.cols[3]);

	/* headers: the span covers Hits and Pct, the data-only column is left out */
	table_text__headers(&t, &perf, &sb);
	CHECK(!strcmp(sb.buf, "#                   --- counts ---         \n"
			      "# Name    Tag         Hits      Pct      Sym\n"
			      "# ......  ........  ......  .......  .......\n#\n"));
	strbuf__reset(&sb);
	table_text__row(&t, &items[0], &perf, &sb);
	CHECK(!strcmp(sb.buf, "  alpha   T:alpha        5    12.3%  [x] alp"));
	strbuf__reset(&sb);
	table_text__headers(&t, &plain, &sb);
	table_text__row(&t, &items[1], &plain, &sb);
	CHECK(!strcmp(sb.buf, "Name   Tag        Hits     Pct     Sym\n"
			      "beta   T:beta       30   50.0% [x] bet"));

	/* values and their plain text */
	table_cell__init(&cell);
	table__cell(&t, table__column(&t, "pct"), &items[0], &cell);
	strbuf__reset(&sb);
	CHECK(cell.kind == TABLE_PERCENT && table_cell__plain(&cell, table__column(&t, "pct"), &sb));
	CHECK(!strcmp(sb.buf, "12.35") || !strcmp(sb.buf, "12.34"));
	table__cell(&t, table__column(&t, "addr"), &items[2], &cell);
	strbuf__reset(&sb);
	CHECK(!table_cell__plain(&cell, table__column(&t, "addr"), &sb) && !strcmp(sb.buf, "0xc0"));
	table__cell(&t, table__column(&t, "sym"), &items[1], &cell);
	CHECK(cell.kind == TABLE_STRING && !strcmp(cell.s, "[x] beta"));
	table__cell(&t, table__column(&t, "tag"), &items[2], &cell);
	CHECK(!strcmp(cell.s, "T:gamma"));
	/* a pair: "3/4" in text, its first value plain (the second has a key of its own) */
	{
		static const struct table_column pair = { .name = "a", .name2 = "b",
							  .kind = TABLE_PAIR, .width = 5,
							  .value = v_pair };

		strbuf__reset(&sb);
		table__cell_text(&t, &pair, &items[0], 5, true, &sb);
		CHECK(!strcmp(sb.buf, " 5/64"));
		table__cell(&t, &pair, &items[0], &cell);
		strbuf__reset(&sb);
		CHECK(table_cell__plain(&cell, &pair, &sb) && !strcmp(sb.buf, "5") && cell.u2 == 0x40);
	}
	table_cell__release(&cell);

	/* sorting: by value, descending, stable among equals; by name ascending */
	table__sort(&t, table__column(&t, "hits"), true);
	CHECK(t.rows[0] == &items[1] && t.rows[1] == &items[0] && t.rows[2] == &items[2]);
	table__sort(&t, table__column(&t, "name"), false);
	CHECK(t.rows[0] == &items[0] && t.rows[1] == &items[1] && t.rows[2] == &items[2]);
	table__sort(&t, table__column(&t, "sym"), true);
	CHECK(t.rows[0] == &items[2] && t.rows[2] == &items[0]);

	/* searching the shown text */
	CHECK(table__find(&t, 0, "T:beta") == 1);
	CHECK(table__find(&t, 2, "beta") == -1);
	CHECK(table__find(&t, 0, "0xc0") == -1);	/* data-only */

	/* drilling down */
	table__init(&sub, NULL, NULL);
	CHECK(t.drill(&t, &items[0], &sub) == -1);
	CHECK(t.drill(&t, &items[1], &sub) == 0 && sub.nr_rows == 2 && sub.parent == &items[1]);
	CHECK(sub.nr_cols == t.nr_cols && !strcmp(sub.cols[1].ctx, "T:"));
	table__release(&sub);

	/* the one CSV escaper */
	strbuf__reset(&sb);
	strbuf__add_csv(&sb, "a,b \"c\"");
	strbuf__add(&sb, ";", 1);
	strbuf__add_csv(&sb, "plain");
	CHECK(!strcmp(sb.buf, "\"a,b \"\"c\"\"\";plain"));

	table__release(&t);
	strbuf__release(&sb);
	return failures != 0;
}
