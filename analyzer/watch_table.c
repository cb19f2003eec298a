// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "analyzer/watch_table.h"

#include <stdio.h>
#include <string.h>

#define VALUE(name)                                                                               \
	static void name(const struct table *t, const struct table_column *col, const void *row,  \
			 struct table_cell *out)

static const struct watch_tables *wt_of(const struct table *t)
{
	return t->ctx;
}

/* ---- the member table ---- */

VALUE(val_name)
{
	table_cell__set_str(out, ((const struct watch_member *)row)->name);
}

VALUE(val_offset)
{
	out->u = ((const struct watch_member *)row)->offset;
}

VALUE(val_line)
{
	out->u = watch_object__line_of(wt_of(t)->o, row);
}

VALUE(val_bytes)
{
	const struct watch_member *m = row;

	out->u = m->wlen;
	out->u2 = m->size;
}

VALUE(val_cover)
{
	/* watch_member__cover is in tenths of a percent */
	out->d = (double)watch_member__cover(row, wt_of(t)->secs) / 10.0;
}

#define MEMBER_VALUE(name, expr)                                                                  \
	VALUE(name)                                                                               \
	{                                                                                         \
		const struct watch_member *m = row;                                               \
                                                                                                  \
		out->u = (expr);                                                                  \
	}

MEMBER_VALUE(val_hits, m->st.hits)
MEMBER_VALUE(val_load, m->st.kinds[WR_LOAD])
MEMBER_VALUE(val_store, m->st.kinds[WR_STORE])
MEMBER_VALUE(val_rmw, m->st.kinds[WR_RMW])
MEMBER_VALUE(val_lrmw, m->st.kinds[WR_LOCKED_RMW])
MEMBER_VALUE(val_unknown, m->st.kinds[WR_UNKNOWN])
MEMBER_VALUE(val_transfers, m->st.transfers)
MEMBER_VALUE(val_addr, m->st.addr)
MEMBER_VALUE(val_hitm, m->st.hitm)
MEMBER_VALUE(val_inval, m->st.invalidations)

VALUE(val_cpus)
{
	const struct watch_member *m = row;

	out->u = m->st.writer_cpus;
	out->u2 = m->st.reader_cpus;
}

#define NUM(n, h, w, fn) { .name = n, .header = { NULL, h }, .width = w, .kind = TABLE_COUNT, \
			   .value = fn }
#define DATA(n, fn) { .name = n, .kind = TABLE_COUNT, .value = fn, .flags = TABLE_DATA_ONLY }

static const struct table_column member_columns[] = {
	{ .name = "member", .header = { NULL, "member" }, .width = 24, .align = TABLE_LEFT,
	  .kind = TABLE_STRING, .value = val_name },
	NUM("offset", "offset", 6, val_offset),
	NUM("line", "line", 4, val_line),
	{ .name = "watched_bytes", .name2 = "size", .header = { NULL, "bytes" }, .width = 5,
	  .kind = TABLE_PAIR, .value = val_bytes },
	{ .name = "cover_pct", .header = { NULL, "cover" }, .width = 6, .kind = TABLE_PERCENT,
	  .prec = 1, .text_prec = 0, .value = val_cover },
	NUM("hits", "hits", 9, val_hits),
	NUM("loads", "load", 8, val_load),
	NUM("stores", "store", 8, val_store),
	NUM("rmw", "rmw", 8, val_rmw),
	NUM("locked_rmw", "lock-rmw", 8, val_lrmw),
	NUM("unknown", "unknown", 8, val_unknown),
	NUM("transfers", "transfers", 9, val_transfers),
	{ .name = "writer_cpus", .name2 = "reader_cpus", .header = { NULL, "cpus" }, .width = 5,
	  .kind = TABLE_PAIR, .value = val_cpus },
	DATA("address", val_addr),
	DATA("hitm", val_hitm),
	DATA("invalidations", val_inval),
};

/* ---- the object columns (a table of several objects' members) ---- */

VALUE(val_onumber)
{
	out->u = wt_of(t)->info->number;
}

VALUE(val_oaddress)
{
	out->u = wt_of(t)->info->address;
}

#define OBJECT_STRING(name, field)                                                                \
	VALUE(name)                                                                               \
	{                                                                                         \
		const char *v = wt_of(t)->info->field;                                            \
                                                                                                  \
		table_cell__set_str(out, v ? v : "");                                             \
	}

OBJECT_STRING(val_ostatus, status)
OBJECT_STRING(val_opath, path)
OBJECT_STRING(val_oalloc, allocated_at)
OBJECT_STRING(val_ouser, user_caller)

#define OBJ_STR(n, fn) { .name = n, .kind = TABLE_STRING, .value = fn, .flags = TABLE_DATA_ONLY }

static const struct table_column object_columns[] = {
	DATA("object", val_onumber),
	OBJ_STR("status", val_ostatus),
	DATA("object_address", val_oaddress),
	OBJ_STR("path", val_opath),
	OBJ_STR("allocated_at", val_oalloc),
	OBJ_STR("user_caller", val_ouser),
};

/* ---- the line table ---- */

VALUE(val_lline)
{
	out->u = ((const struct watch_line *)row)->line;
}

VALUE(val_lmembers)
{
	const struct watch_line *l = row;
	const struct watch_object *o = wt_of(t)->o;

	for (size_t k = 0; k < l->nr_members; k++)
		strbuf__addf(&out->text, "%s%s", k ? " " : "", o->members[l->members[k]].name);
	table_cell__set_str(out, out->text.buf);
}

/* "(none)" in text for a line none of whose members was watched (empty in data). */
static int text_lmembers(const struct table *t, const struct table_column *col, const void *row,
			 int width, char *buf, size_t size)
{
	struct table_cell c;
	int n;

	table_cell__init(&c);
	val_lmembers(t, col, row, &c);
	n = snprintf(buf, size, "%s", c.s[0] ? c.s : "(none)");
	table_cell__release(&c);
	return n < 0 ? 0 : n;
}

#define LINE_VALUE(name, expr)                                                                    \
	VALUE(name)                                                                               \
	{                                                                                         \
		const struct watch_line *l = row;                                                 \
                                                                                                  \
		out->u = (expr);                                                                  \
	}

LINE_VALUE(val_lhits, l->hits)
LINE_VALUE(val_lwrites, l->writes)
LINE_VALUE(val_ltransfers, l->transfers)
LINE_VALUE(val_lwcpus, l->writer_cpus)

static const struct table_column line_columns[] = {
	{ .name = "line", .header = { NULL, "line" }, .width = 6, .align = TABLE_LEFT,
	  .kind = TABLE_COUNT, .value = val_lline },
	{ .name = "members", .header = { NULL, "members watched" }, .width = 40,
	  .align = TABLE_LEFT, .kind = TABLE_STRING, .value = val_lmembers,
	  .text = text_lmembers },
	NUM("hits", "hits", 9, val_lhits),
	NUM("writes", "writes", 9, val_lwrites),
	NUM("transfers", "transfers", 9, val_ltransfers),
	NUM("writer_cpus", "writer-cpus", 9, val_lwcpus),
};

void watch_tables__init(struct watch_tables *wt, const struct watch_object *o, double secs)
{
	watch_tables__init_section(wt, o, secs, NULL);
}

void watch_tables__init_section(struct watch_tables *wt, const struct watch_object *o,
				double secs, const struct watch_section_info *info)
{
	memset(wt, 0, sizeof(*wt));
	wt->o = o;
	wt->info = info;
	wt->secs = secs;
	table__init(&wt->members, "members", wt);
	table__init(&wt->lines, "lines", wt);
	for (size_t i = 0; info && i < sizeof(object_columns) / sizeof(object_columns[0]); i++)
		table__add_column(&wt->members, &object_columns[i], NULL);
	for (size_t i = 0; i < sizeof(member_columns) / sizeof(member_columns[0]); i++)
		table__add_column(&wt->members, &member_columns[i], NULL);
	for (size_t i = 0; i < sizeof(line_columns) / sizeof(line_columns[0]); i++)
		table__add_column(&wt->lines, &line_columns[i], NULL);
	for (size_t k = 0; k < o->nr_order; k++)
		table__add_row(&wt->members, &o->members[o->order[k]]);
	wt->nr_lines = watch_object__lines(o, &wt->line_rows);
	for (size_t i = 0; i < wt->nr_lines; i++)
		table__add_row(&wt->lines, &wt->line_rows[i]);
}

void watch_tables__release(struct watch_tables *wt)
{
	watch_lines__free(wt->line_rows, wt->nr_lines);
	table__release(&wt->members);
	table__release(&wt->lines);
}
