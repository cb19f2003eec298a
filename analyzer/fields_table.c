// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "analyzer/fields_table.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

#define VALUE(name)                                                                               \
	static void name(const struct table *t, const struct table_column *col, const void *row,  \
			 struct table_cell *out)

static const struct fields_table *ft_of(const struct table *t)
{
	return t->ctx;
}

VALUE(val_struct)
{
	table_cell__set_str(out, ((const struct fields_row *)row)->fs->layout->name);
}

VALUE(val_offset)
{
	const struct fields_row *r = row;

	out->u = r->m ? r->m->offset : 0;
}

VALUE(val_size)
{
	const struct fields_row *r = row;

	out->u = r->m ? r->m->size : 0;
}

VALUE(val_line)
{
	out->u = fields_row__line(ft_of(t), row);
}

VALUE(val_member)
{
	const struct fields_row *r = row;

	if (!r->m)
		table_cell__set_str(out, "<holes/padding>");
	else if (r->m->bit_size)
		table_cell__set_strf(out, "%s:%u", r->m->path, r->m->bit_size);
	else
		table_cell__set_str(out, r->m->path);
}

/* The member nested as pahole indents it (text only). */
static int text_member(const struct table *t, const struct table_column *col, const void *row,
		       int width, char *buf, size_t size)
{
	const struct fields_row *r = row;
	int depth = r->m && ft_of(t)->indent ? r->m->depth : 0;
	int n;

	if (!r->m)
		n = snprintf(buf, size, "<holes/padding>");
	else if (r->m->bit_size)
		n = snprintf(buf, size, "%*s%s:%u", 2 * depth, "", r->m->path, r->m->bit_size);
	else
		n = snprintf(buf, size, "%*s%s", 2 * depth, "", r->m->path);
	return n < 0 ? 0 : n;
}

VALUE(val_type)
{
	const struct fields_row *r = row;

	table_cell__set_str(out, r->m ? r->m->type : "");
}

#define STAT_VALUE(name, expr)                                                                    \
	VALUE(name)                                                                               \
	{                                                                                         \
		const struct field_stats *st = &((const struct fields_row *)row)->st;             \
                                                                                                  \
		out->u = (expr);                                                                  \
	}

STAT_VALUE(val_loads, st->loads)
STAT_VALUE(val_stores, st->stores)
STAT_VALUE(val_locked, st->locked)
STAT_VALUE(val_lcl_hitm, st->lcl_hitm)
STAT_VALUE(val_rmt_hitm, st->rmt_hitm)
STAT_VALUE(val_cpus_r, st->cpus_read.nr)
STAT_VALUE(val_cpus_w, st->cpus_write.nr)
STAT_VALUE(val_tids_r, st->tids_read.nr)
STAT_VALUE(val_tids_w, st->tids_write.nr)

VALUE(val_cycles)
{
	const struct field_stats *st = &((const struct fields_row *)row)->st;

	out->d = st->weighted ? (double)st->weight_sum / (double)st->weighted : 0.0;
}

/* The member's hot-path use, as Documentation/networking/net_cachelines/ tables say it. */
VALUE(val_use)
{
	const struct field_stats *st = &((const struct fields_row *)row)->st;

	if (!st->loads && !st->writes)
		table_cell__set_str(out, "-");
	else if (field_stats__read_mostly(st))
		table_cell__set_str(out, "read-mostly");
	else if (!st->loads && !st->locked)	/* an RMW reads as well */
		table_cell__set_str(out, "write-only");
	else
		table_cell__set_str(out, "read-write");
}

VALUE(val_code)
{
	const struct fields_table *ft = ft_of(t);
	const struct field_stats *st = &((const struct fields_row *)row)->st;

	for (size_t i = 0; i < st->nr_ips && i < 3; i++) {
		if (i)
			strbuf__add(&out->text, "; ", 2);
		if (ft->namer)
			ft->namer(ft->namer_ctx, st->ips[i].ip, &out->text);
		else
			strbuf__addf(&out->text, "%#" PRIx64, st->ips[i].ip);
	}
	if (st->nr_ips > 3)
		strbuf__addf(&out->text, "; +%zu more", st->nr_ips - 3);
	table_cell__set_str(out, out->text.buf);
}

#define NUM(n, h, w, fn) { .name = n, .header = { NULL, h }, .width = w, .kind = TABLE_COUNT, \
			   .value = fn }
#define TEXT(n, h, w, fn) { .name = n, .header = { NULL, h }, .width = w, .align = TABLE_LEFT, \
			    .kind = TABLE_STRING, .value = fn }

static const struct table_column columns[] = {
	{ .name = "struct", .kind = TABLE_STRING, .value = val_struct, .flags = TABLE_DATA_ONLY },
	NUM("offset", "Offset", 6, val_offset),
	NUM("size", "Size", 5, val_size),
	NUM("cacheline", "CL", 3, val_line),
	{ .name = "member", .header = { NULL, "Member" }, .width = 24, .align = TABLE_LEFT,
	  .kind = TABLE_STRING, .value = val_member, .text = text_member },
	TEXT("use", "Use", 11, val_use),
	{ .name = "type", .header = { NULL, "Type" }, .kind = TABLE_STRING, .value = val_type,
	  .flags = TABLE_DATA_ONLY },
	NUM("loads", "Loads", 7, val_loads),
	NUM("stores", "Stores", 7, val_stores),
	NUM("locked", "Locked", 6, val_locked),
	NUM("lcl_hitm", "LclHITM", 7, val_lcl_hitm),
	NUM("rmt_hitm", "RmtHITM", 7, val_rmt_hitm),
	{ .name = "mean_cycles", .header = { NULL, "Cycles" }, .width = 7, .kind = TABLE_CYCLES,
	  .prec = 1, .value = val_cycles },
	NUM("cpus_read", "CPUr", 4, val_cpus_r),
	NUM("cpus_write", "CPUw", 4, val_cpus_w),
	NUM("threads_read", "Thr r", 5, val_tids_r),
	NUM("threads_write", "Thr w", 5, val_tids_w),
	TEXT("code", "Code", 1, val_code),
};

void fields_table__init(struct fields_table *ft, unsigned int line_size, fields_ip_namer namer,
			void *namer_ctx)
{
	memset(ft, 0, sizeof(*ft));
	ft->line_size = line_size;
	ft->namer = namer;
	ft->namer_ctx = namer_ctx;
	ft->indent = true;
	table__init(&ft->t, "members", ft);
	for (size_t i = 0; i < sizeof(columns) / sizeof(columns[0]); i++)
		table__add_column(&ft->t, &columns[i], NULL);
}

static void clear_rows(struct fields_table *ft)
{
	for (size_t i = 0; i < ft->nr_rows; i++)
		if (!ft->rows[i].borrowed)
			field_stats__release(&ft->rows[i].st);
	ft->nr_rows = 0;
	table__clear_rows(&ft->t);
}

void fields_table__release(struct fields_table *ft)
{
	clear_rows(ft);
	free(ft->rows);
	table__release(&ft->t);
}

static bool member_touched(const struct field_stats *st)
{
	return st->loads || st->stores || st->writes;
}

static bool member_shown(const struct field_struct *fs, unsigned int i, bool all)
{
	const struct flat_member *m = &fs->layout->members[i];

	if (all || m->depth == 0 || member_touched(&fs->members[i]))
		return true;
	/* A container whose nested member was touched, so the path reads top-down. */
	for (unsigned int k = i + 1; k < fs->layout->nr_members; k++) {
		const struct flat_member *n = &fs->layout->members[k];

		if (n->offset >= m->offset + m->size || n->depth <= m->depth)
			break;
		if (member_touched(&fs->members[k]))
			return true;
	}
	return false;
}

static struct fields_row *new_row(struct fields_table *ft, const struct field_struct *fs,
				  const struct flat_member *m)
{
	struct fields_row *r;

	ft->rows = xgrow(ft->rows, &ft->cap_rows, ft->nr_rows + 1, sizeof(*ft->rows));
	r = &ft->rows[ft->nr_rows++];
	memset(r, 0, sizeof(*r));
	r->fs = fs;
	r->m = m;
	return r;
}

void fields_table__fill(struct fields_table *ft, const struct field_struct *fs, bool all)
{
	unsigned int n = fs->layout->nr_members;

	clear_rows(ft);
	for (unsigned int m = 0; m < n; m++)
		if (member_shown(fs, m, all))	/* containers sum their members */
			field_struct__rollup(fs, m, &new_row(ft, fs, &fs->layout->members[m])->st);
	if (member_touched(&fs->members[n])) {
		struct fields_row *r = new_row(ft, fs, NULL);

		r->st = fs->members[n];	/* borrowed: the holes have nothing to roll up */
		r->borrowed = true;
	}
	/* rows point into ft->rows, which stopped moving */
	for (size_t i = 0; i < ft->nr_rows; i++)
		table__add_row(&ft->t, &ft->rows[i]);
}

unsigned int fields_row__line(const struct fields_table *ft, const struct fields_row *r)
{
	return r->m ? (unsigned int)(r->m->offset / ft->line_size) : 0;
}

static double share(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

/* "evidence: operand 97.0%, allocation 3.0%" for one struct. */
static void print_evidence(const struct field_struct *fs, struct strbuf *out)
{
	uint64_t n = 0;
	int k, first = 1;

	for (k = ATTR_NONE + 1; k < ATTR__NR; k++)
		n += fs->by_kind[k];
	strbuf__addf(out, "evidence:");
	for (k = ATTR__NR - 1; k > ATTR_NONE; k--)
		if (fs->by_kind[k]) {
			strbuf__addf(out, "%s %s %.1f%%", first ? "" : ",", attr_evidence__name(k),
				     share(fs->by_kind[k], n));
			first = 0;
		}
	strbuf__addf(out, "\n");
}

void fields_table__print_struct(struct fields_table *ft, const struct field_struct *fs,
				bool all, struct strbuf *out)
{
	static const struct table_text_style style = { "", "", " ", 1, false, false };
	unsigned int ls = ft->line_size, lines = (unsigned int)((fs->layout->size + ls - 1) / ls);

	strbuf__addf(out, "\n%s (size %" PRIu64 ", %u cache line%s, %" PRIu64 " instance%s; %"
			  PRIu64 " HITM, %" PRIu64 " loads, %" PRIu64 " stores)\n",
		     fs->layout->name, fs->layout->size, lines, lines == 1 ? "" : "s",
		     fs->nr_instances, fs->nr_instances == 1 ? "" : "s", field_stats__hitm(&fs->total),
		     fs->total.loads, fs->total.stores);
	print_evidence(fs, out);
	fields_table__fill(ft, fs, all);
	table_text__headers(&ft->t, &style, out);
	for (size_t r = 0, line = 0; r < ft->nr_rows; r++) {
		const struct fields_row *row = &ft->rows[r];
		unsigned int cl = fields_row__line(ft, row);

		if (row->m && cl != line) {	/* pahole's marker: lines read at a glance */
			strbuf__addf(out, "%*s/* --- cacheline %u boundary (%u bytes) --- */\n", 16,
				     "", cl, cl * ls);
			line = cl;
		}
		table_text__row(&ft->t, row, &style, out);
		strbuf__add(out, "\n", 1);
	}
}
