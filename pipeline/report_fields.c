// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "pipeline/report_fields.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/c2c.h"
#include "analyzer/c2c_columns.h"
#include "analyzer/table.h"
#include "util/u64map.h"
#include "sampling/event.h"
#include "sampling/machine.h"
#include "util/xalloc.h"

struct entry_name {
	const char *type;	/* "struct file", or "" when unresolved */
	char *member;		/* "f_count", or the reason in brackets */
};

/* A line's entries' names: the modes (bits of enum c2c_display) whose rows are named, widths. */
struct line_names {
	unsigned int named;
	int w_type[4], w_member[4];
};

struct report_fields {
	struct fields_attr *fa;
	struct u64map index;	/* entry index -> names[] */
	struct entry_name *names;
	size_t nr_names, cap_names;
	struct line_names *lines;	/* by c2c_line.serial */
	size_t nr_lines;
	int w_type, w_member;
};

int report_fields__new(struct report_fields **out, struct recording *rec,
		       const struct fields_attr_opts *opts, char *err, size_t errlen)
{
	struct report_fields *rf = xcalloc(1, sizeof(*rf));

	if (fields_attr__new(&rf->fa, opts, rec, err, errlen) < 0) {
		free(rf);
		return -1;
	}
	u64map__init(&rf->index);
	*out = rf;
	return 0;
}

void report_fields__delete(struct report_fields *rf)
{
	if (!rf)
		return;
	for (size_t i = 0; i < rf->nr_names; i++)
		free(rf->names[i].member);
	free(rf->names);
	free(rf->lines);
	u64map__exit(&rf->index);
	fields_attr__delete(rf->fa);
	free(rf);
}

void report_fields__header(struct report_fields *rf, const struct perf_header_info *h,
			   const char *input)
{
	fields_attr__header(rf->fa, h, input);
}

struct fields_attr *report_fields__attr(struct report_fields *rf)
{
	return rf->fa;
}

void report_fields__sample(struct report_fields *rf, const struct perf_header_info *h,
			   const struct sample *s)
{
	fields_attr__side_sample(rf->fa, h, s);
}

static const struct entry_name *name_of(const struct report_fields *rf, const struct c2c_entry *e)
{
	uint64_t i;

	if (!e || !u64map__get(&rf->index, (uint64_t)(uintptr_t)e, &i))
		return NULL;
	return &rf->names[i];
}

/* The Type and Member cells: their column's context is the report_fields. */
static void val_type(const struct table *t, const struct table_column *col, const void *row,
		     struct table_cell *out)
{
	const struct entry_name *n = name_of(col->ctx, t->parent ? row : NULL);

	table_cell__set_str(out, n ? n->type : "");
}

static void val_member(const struct table *t, const struct table_column *col, const void *row,
		       struct table_cell *out)
{
	const struct entry_name *n = name_of(col->ctx, t->parent ? row : NULL);

	table_cell__set_str(out, n ? n->member : "");
}

/* Left in their cells under right-aligned headers, as every header of perf's tables is. */
static int text_type(const struct table *t, const struct table_column *col, const void *row,
		     int width, char *buf, size_t size)
{
	const struct entry_name *n = name_of(col->ctx, t->parent ? row : NULL);

	return snprintf(buf, size, "%-*s", width, n ? n->type : "");
}

static int text_member(const struct table *t, const struct table_column *col, const void *row,
		       int width, char *buf, size_t size)
{
	const struct entry_name *n = name_of(col->ctx, t->parent ? row : NULL);

	return snprintf(buf, size, "%-*s", width, n ? n->member : "");
}

static int width_type(const struct table *t, const struct table_column *col)
{
	const struct report_fields *rf = col->ctx;

	return rf->w_type;
}

static int width_member(const struct table *t, const struct table_column *col)
{
	const struct report_fields *rf = col->ctx;

	return rf->w_member;
}

static const struct table_column col_type = {
	.name = "type", .header = { NULL, "Type" }, .kind = TABLE_STRING,
	.width_of = width_type, .value = val_type, .text = text_type,
};

static const struct table_column col_member = {
	.name = "member", .header = { NULL, "Member" }, .kind = TABLE_STRING,
	.width_of = width_member, .value = val_member, .text = text_member,
};

static const struct entry_name *name_entry(struct report_fields *rf, const struct c2c_line *l,
					   const struct c2c_entry *e, unsigned int line_size)
{
	const struct map *map = e->code_map;
	struct fields_sample fs = { 0 };
	struct attr_result res;
	struct entry_name *n;
	uint64_t i;

	/* an entry is a row in several modes: named once */
	if (u64map__get(&rf->index, (uint64_t)(uintptr_t)e, &i))
		return &rf->names[i];
	fs.ip = map ? map__unmap_ip(map, e->ip_rel) : e->iaddr;
	fs.addr = (l->addr & ~(uint64_t)(line_size - 1)) + (e->data_rel & (line_size - 1));
	fs.pid = (uint32_t)e->pid;
	fs.tid = (uint32_t)e->tid;
	fs.cpumode = l->cpumode;
	rf->names = xgrow(rf->names, &rf->cap_names, rf->nr_names + 1, sizeof(*rf->names));
	n = &rf->names[rf->nr_names];
	if (fields_attr__resolve(rf->fa, &fs, &res) == 0) {
		n->type = res.layout->name;
		n->member = xstrdup(res.path);
	} else {
		n->type = "";
		n->member = xasprintf("(%s)", attr_reason__text(res.reason));
	}
	u64map__set(&rf->index, (uint64_t)(uintptr_t)e, rf->nr_names++);
	return n;
}

/* Name the entries of line @l that are Pareto rows in the modes @modes (bits); their widths. */
static void name_line(struct report_fields *rf, const struct c2c *c, const struct c2c_line *l,
		      unsigned int modes)
{
	unsigned int line_size = c2c__config(c)->line_size;
	struct line_names *ln = &rf->lines[l->serial];

	for (uint32_t k = 0; k < l->nr_entries; k++) {
		const struct c2c_entry *e = c2c__entry(c, l->entries[k]);
		const struct entry_name *n = NULL;

		for (int m = 0; m < 4; m++) {
			if (!(modes & 1u << m) || !c2c_entry__shown(e, m))
				continue;
			if (!n)
				n = name_entry(rf, l, e, line_size);
			if ((int)strlen(n->type) > ln->w_type[m])
				ln->w_type[m] = (int)strlen(n->type);
			if ((int)strlen(n->member) > ln->w_member[m])
				ln->w_member[m] = (int)strlen(n->member);
		}
	}
	ln->named |= modes;
}

void report_fields__add_columns(struct report_fields *rf, struct c2c_view *v, const struct c2c *c,
				bool every_mode)
{
	struct table *t = &v->entries;
	enum c2c_display d = c2c__config(c)->display;
	int at = t->nr_cols;

	if (!rf->lines) {
		rf->nr_lines = c2c__nr_lines(c);
		rf->lines = xcalloc(rf->nr_lines + 1, sizeof(*rf->lines));
	}
	rf->w_type = 4;
	rf->w_member = 6;
	/*
	 * Every mode's rows, in the lines' own order: what one sample's attribution learns (an
	 * indexed operand's object placed by another access) must not hang on the display order.
	 */
	(void)every_mode;
	for (uint32_t i = 0; i < c2c__nr_lines(c); i++) {
		const struct c2c_line *l = c2c__line_by_serial(c, i);

		if (!l->filtered && rf->lines[l->serial].named != 0xfu)
			name_line(rf, c, l, 0xfu & ~rf->lines[l->serial].named);
	}
	for (uint32_t i = 0; i < c2c__nr_lines(c); i++) {
		const struct c2c_line *l = c2c__line(c, i);
		const struct line_names *ln = &rf->lines[l->serial];

		if (l->filtered)
			continue;
		if (ln->w_type[d] > rf->w_type)
			rf->w_type = ln->w_type[d];
		if (ln->w_member[d] > rf->w_member)
			rf->w_member = ln->w_member[d];
	}
	/* After the data address (and its Node column), before the code address. */
	for (int i = 0; i < t->nr_cols; i++)
		if (!strcmp(t->cols[i].name, "offset") || !strcmp(t->cols[i].name, "offset_node"))
			at = i + 1;
	table__insert_column(t, at, &col_type, rf);
	table__insert_column(t, at + 1, &col_member, rf);
}
