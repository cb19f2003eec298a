// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "analyzer/c2c_columns.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define SYMBOL_WIDTH 30

/* snprintf that returns what it wrote (perf's scnprintf). */
static int put(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int put(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!size)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	return (size_t)n >= size ? (int)size - 1 : n;
}

/* A row of the lines and cl_row tables is a line; of the entries table an entry of @t->parent. */
static const struct c2c_line *row_line(const struct table *t, const void *row)
{
	return t->parent ? t->parent : row;
}

static const struct c2c_entry *row_entry(const struct table *t, const void *row)
{
	return t->parent ? row : NULL;
}

static const struct c2c_view *view(const struct table *t)
{
	return t->ctx;
}

static const struct c2c_stats *row_stats(const struct table *t, const void *row)
{
	const struct c2c_entry *e = row_entry(t, row);

	return e ? &e->stats : &row_line(t, row)->stats;
}

/* The totals a percentage is of: the whole recording for lines, the line for entries. */
static const struct c2c_stats *row_total(const struct table *t, const void *row)
{
	return t->parent ? &row_line(t, row)->stats : c2c__total(view(t)->c);
}

static uint64_t line_size(const struct table *t)
{
	return c2c__config(view(t)->c)->line_size;
}

#define VALUE(name)                                                                               \
	static void name(const struct table *t, const struct table_column *col, const void *row,  \
			 struct table_cell *out)
#define TEXT(name)                                                                                \
	static int name(const struct table *t, const struct table_column *col, const void *row,   \
			int width, char *buf, size_t size)

/* ---- values ---- */

VALUE(val_idx)
{
	out->u = row_line(t, row)->idx;
}

/* The entries' own copy of their line's index (JSON and CSV; --stdio shows it in the line row) */
VALUE(val_line_idx)
{
	out->u = row_line(t, row)->idx;
}

VALUE(val_dcacheline)
{
	out->u = row_line(t, row)->addr & ~(line_size(t) - 1);
}

VALUE(val_nodestr)
{
	const struct c2c_entry *e = row_entry(t, row);

	table_cell__set_str(out, e ? e->nodestr : row_line(t, row)->nodestr);
}

VALUE(val_pa_cnt)
{
	const struct c2c_entry *e = row_entry(t, row);

	out->u = e ? e->paddr_cnt : row_line(t, row)->paddr_cnt;
}

VALUE(val_offset)
{
	const struct c2c_entry *e = row_entry(t, row);

	out->u = e ? e->data_rel & (line_size(t) - 1) : 0;
}

VALUE(val_iaddr)
{
	const struct c2c_entry *e = row_entry(t, row);

	out->u = e ? e->iaddr : 0;
}

VALUE(val_costly_snoop)
{
	const struct c2c_view *v = view(t);
	int s = c2c_stats__display_metric(row_stats(t, row), v->display);
	int tot = c2c_stats__display_metric(row_total(t, row), v->display);

	out->d = 100 * (tot ? (double)s / tot : 0);
}

#define STAT_VALUE(f)                                                                             \
	VALUE(val_##f)                                                                            \
	{                                                                                         \
		out->u = row_stats(t, row)->f;                                                    \
	}

STAT_VALUE(rmt_hitm)
STAT_VALUE(lcl_hitm)
STAT_VALUE(rmt_peer)
STAT_VALUE(lcl_peer)
STAT_VALUE(tot_peer)
STAT_VALUE(store)
STAT_VALUE(st_l1hit)
STAT_VALUE(st_l1miss)
STAT_VALUE(st_na)
STAT_VALUE(ld_fbhit)
STAT_VALUE(ld_l1hit)
STAT_VALUE(ld_l2hit)
STAT_VALUE(ld_llchit)
STAT_VALUE(rmt_hit)
STAT_VALUE(lcl_dram)
STAT_VALUE(rmt_dram)

VALUE(val_tot_hitm)
{
	const struct c2c_stats *st = row_stats(t, row);

	out->u = st->lcl_hitm + st->rmt_hitm;
}

VALUE(val_tot_recs)
{
	out->u = c2c_stats__total_records(row_stats(t, row));
}

VALUE(val_tot_loads)
{
	out->u = c2c_stats__total_loads(row_stats(t, row));
}

#define PCT_VALUE(f)                                                                              \
	VALUE(val_pct_##f)                                                                        \
	{                                                                                         \
		out->d = c2c__percent(row_stats(t, row)->f, row_total(t, row)->f);                \
	}

PCT_VALUE(rmt_hitm)
PCT_VALUE(lcl_hitm)
PCT_VALUE(rmt_peer)
PCT_VALUE(lcl_peer)
PCT_VALUE(st_l1hit)
PCT_VALUE(st_l1miss)
PCT_VALUE(st_na)

#define MEAN_VALUE(f)                                                                             \
	VALUE(val_mean_##f)                                                                       \
	{                                                                                         \
		const struct c2c_entry *e = row_entry(t, row);                                    \
                                                                                                  \
		out->d = e ? e->mean_##f.mean : 0;                                                \
	}

MEAN_VALUE(rmt_hitm)
MEAN_VALUE(lcl_hitm)
MEAN_VALUE(rmt_peer)
MEAN_VALUE(lcl_peer)
MEAN_VALUE(load)

VALUE(val_cpucnt)
{
	const struct c2c_entry *e = row_entry(t, row);

	out->u = c2c__cpuset_weight(view(t)->c, e ? e->cpuset : row_line(t, row)->cpuset);
}

VALUE(val_pid)
{
	const struct c2c_entry *e = row_entry(t, row);

	out->i = e ? e->pid : 0;
}

/* ---- text with perf's quirks (their JSON/CSV value: the text at a wide width, trimmed) ---- */

TEXT(text_empty)
{
	return put(buf, size, "%*s", width, "");
}

/* perf's hist_entry__thread_snprintf: "%7d:%-*.*s" at max(7, width) - 8. */
TEXT(text_tid)
{
	const struct c2c_entry *e = row_entry(t, row);
	unsigned int w = (width > 7 ? width : 7) - 8;
	const char *comm = e && e->info.comm ? e->info.comm : "";

	return put(buf, size, "%7d:%-*.*s", e ? e->tid : 0, (int)w, (int)w, comm);
}

/* perf's _hist_entry__sym_snprintf (verbose off). */
TEXT(text_symbol)
{
	const struct c2c_entry *e = row_entry(t, row);
	int n = put(buf, size, "[%c] ", e ? e->level : '.');
	uint64_t addr = !e ? 0 : e->info.have_addr ? e->info.addr : e->ip_rel;

	if (e && e->info.sym && e->code_map && !e->info.no_map) {
		if (e->info.sym_object) {
			n += put(buf + n, size - n, "%s", e->info.sym);
			n += put(buf + n, size - n, "+0x%" PRIx64, addr - e->info.sym_start);
		} else {
			n += put(buf + n, size - n, "%.*s", width - n, e->info.sym);
		}
	} else {
		n += put(buf + n, size - n, "%-#.*" PRIx64, 16, addr);
	}
	return n;
}

TEXT(text_dso)
{
	const struct c2c_entry *e = row_entry(t, row);
	const char *dso = e && e->code_map && !e->info.no_map && e->info.dso ? e->info.dso :
			  "[unknown]";

	return put(buf, size, "%-*.*s", width, width, dso);
}

TEXT(text_srcline)
{
	const struct c2c_entry *e = row_entry(t, row);
	const char *s = e && e->info.srcline ? e->info.srcline : "??:0";

	return put(buf, size, "%-.*s", width, s);
}

static int metrics(char *buf, size_t size, uint32_t val, uint32_t sum)
{
	if (sum)
		return put(buf, size, "%5.1f%% ", c2c__percent(val, sum));
	return put(buf, size, "%6s ", "n/a");
}

/* perf's node_entry: the nodes of the CPUs that touched the entry, three levels of detail. */
TEXT(text_node)
{
	const struct c2c_view *v = view(t);
	const struct c2c_entry *e = row_entry(t, row);
	const struct c2c_config *cfg = c2c__config(v->c);
	uint32_t set = e ? e->cpuset : row_line(t, row)->cpuset;
	bool first = true;
	int n = 0;

	for (uint32_t node = 0; node < cfg->nr_nodes; node++) {
		uint32_t num = 0;

		for (uint32_t cpu = 0; cpu < cfg->nr_cpus; cpu++)
			if (cfg->cpu2node[cpu] == (int)node && c2c__cpuset_test(v->c, set, cpu))
				num++;
		if (!num) {
			if (v->node_info == 1)
				n += put(buf + n, size - n, "%21s", " ");
			continue;
		}
		if (!first)
			n += put(buf + n, size - n, " ");
		switch (v->node_info) {
		case 0:
			n += put(buf + n, size - n, "%2d", node);
			break;
		case 1: {
			const struct c2c_stats *ns = e ? c2c__node_stats(v->c, e, node) : NULL;
			const struct c2c_stats *st = row_stats(t, row);
			static const struct c2c_stats zero;

			if (!ns)
				ns = &zero;
			n += put(buf + n, size - n, "%2d{%2d ", node, num);
			n += metrics(buf + n, size - n, c2c_stats__display_metric(ns, v->display),
				     c2c_stats__display_metric(st, v->display));
			if (st->store > 0)
				n += put(buf + n, size - n, "%5.1f%%}",
					 c2c__percent(ns->store, st->store));
			else
				n += put(buf + n, size - n, "%6s}", "n/a");
			break;
		}
		default: {
			bool f2 = true;

			n += put(buf + n, size - n, "%2d{", node);
			/* perf's bitmap_scnprintf of the node's CPUs */
			for (uint32_t cpu = 0; cpu < cfg->nr_cpus; cpu++) {
				uint32_t top = cpu;

				if (!(cfg->cpu2node[cpu] == (int)node &&
				      c2c__cpuset_test(v->c, set, cpu)))
					continue;
				while (top + 1 < cfg->nr_cpus && cfg->cpu2node[top + 1] == (int)node &&
				       c2c__cpuset_test(v->c, set, top + 1))
					top++;
				n += put(buf + n, size - n, f2 ? "%u" : ",%u", cpu);
				if (top > cpu)
					n += put(buf + n, size - n, "-%u", top);
				f2 = false;
				cpu = top;
			}
			n += put(buf + n, size - n, "}");
			break;
		}
		}
		first = false;
	}
	return n;
}

/* ---- widths and headers ---- */

#define WIDTH(name) static int name(const struct table *t, const struct table_column *col)
#define HEADER(name)                                                                              \
	static const char *name(const struct table *t, const struct table_column *col, int line)

/* The widths of the entries tables are their line's (the lines table has none). */
WIDTH(width_symbol)
{
	const struct c2c_line *l = t->parent;
	int w = l ? l->w_symbol : 0;

	return view(t)->full_symbols || w < SYMBOL_WIDTH ? w : SYMBOL_WIDTH;
}

WIDTH(width_srcline)
{
	const struct c2c_line *l = t->parent;
	int w = l ? l->w_srcline : 0;

	return view(t)->full_symbols || w < SYMBOL_WIDTH ? w : SYMBOL_WIDTH;
}

WIDTH(width_dso)
{
	const struct c2c_line *l = t->parent;

	return l ? l->w_dso : 0;
}

WIDTH(width_thread)
{
	const struct c2c_line *l = t->parent;

	return l ? l->w_thread : 0;
}

WIDTH(width_offset_node)
{
	return c2c__offset_node_width(view(t)->c);
}

HEADER(hdr_cacheline)
{
	return line ? "Address" : view(t)->cl_hdr0;
}

HEADER(hdr_offset)
{
	return line ? "Offset" : view(t)->off_hdr0;
}

HEADER(hdr_costly_snoop)
{
	static const char *const h[4][2] = {
		[C2C_DISPLAY_LCL] = { "Lcl", "Hitm" },
		[C2C_DISPLAY_RMT] = { "Rmt", "Hitm" },
		[C2C_DISPLAY_TOT] = { "Tot", "Hitm" },
		[C2C_DISPLAY_PEER] = { "Peer", "Snoop" },
	};

	return h[view(t)->display][line];
}

HEADER(hdr_node)
{
	const struct c2c_view *v = view(t);

	if (!line)
		return NULL;
	switch (v->node_info) {
	case 0:
		return "Node";
	case 1:
		return v->display == C2C_DISPLAY_PEER ? "Node{cpus %peers %stores}" :
							"Node{cpus %hitms %stores}";
	default:
		return "Node{cpu list}";
	}
}

/* ---- the columns ---- */

#define COL(n, h0, h1, sp, w, k, fn)                                                              \
	{ .name = n, .header = { h0, h1 }, .span = sp, .width = w, .kind = k, .value = fn }
#define INT_COL(n, h0, h1, sp, w, fn) COL(n, h0, h1, sp, w, TABLE_COUNT, fn)
#define PCT_COL(n, h0, h1, sp, fn)                                                                \
	{ .name = n, .header = { h0, h1 }, .span = sp, .width = 7, .kind = TABLE_PERCENT,         \
	  .prec = 2, .text_prec = 2, .value = fn }
#define MEAN_COL(n, h0, h1, sp, fn) COL(n, h0, h1, sp, 8, TABLE_CYCLES, fn)

static const struct table_column col_cl_idx = INT_COL("cl_idx", NULL, "Index", 0, 5, val_idx);
static const struct table_column col_cl_num = INT_COL("cl_num", NULL, "Num", 0, 5, val_idx);
static const struct table_column col_cl_num_empty = {
	.name = "cl_num_empty", .header = { NULL, "Num" }, .width = 5, .kind = TABLE_STRING,
	.text = text_empty, .flags = TABLE_TEXT_ONLY,
};
static const struct table_column col_entry_cl_idx = {
	.name = "cl_idx", .kind = TABLE_COUNT, .value = val_line_idx, .flags = TABLE_DATA_ONLY,
};
static const struct table_column col_dcacheline = {
	.name = "dcacheline", .span = 2, .width = 18, .kind = TABLE_ADDR,
	.value = val_dcacheline, .header_of = hdr_cacheline,
};
static const struct table_column col_dcacheline_node = COL("dcacheline_node", NULL, "Node", 0,
							   4, TABLE_STRING, val_nodestr);
static const struct table_column col_dcacheline_count = INT_COL("dcacheline_count", NULL,
								"PA cnt", 0, 6, val_pa_cnt);
static const struct table_column col_offset = {
	.name = "offset", .span = 2, .width = 18, .kind = TABLE_ADDR, .value = val_offset,
	.header_of = hdr_offset,
};
static const struct table_column col_offset_node = {
	.name = "offset_node", .header = { NULL, "Node" }, .kind = TABLE_STRING,
	.value = val_nodestr, .width_of = width_offset_node,
};
static const struct table_column col_iaddr = COL("iaddr", NULL, "Code address", 0, 18,
						 TABLE_ADDR, val_iaddr);
static const struct table_column col_tot_hitm = INT_COL("tot_hitm", "------- Load Hitm -------",
							"Total", 2, 7, val_tot_hitm);
static const struct table_column col_lcl_hitm = INT_COL("lcl_hitm", NULL, "LclHitm", 0, 7,
							val_lcl_hitm);
static const struct table_column col_rmt_hitm = INT_COL("rmt_hitm", NULL, "RmtHitm", 0, 7,
							val_rmt_hitm);
static const struct table_column col_tot_peer = INT_COL("tot_peer", "------- Load Peer -------",
							"Total", 2, 7, val_tot_peer);
static const struct table_column col_lcl_peer = INT_COL("lcl_peer", NULL, "Local", 0, 7,
							val_lcl_peer);
static const struct table_column col_rmt_peer = INT_COL("rmt_peer", NULL, "Remote", 0, 7,
							val_rmt_peer);
static const struct table_column col_cl_rmt_hitm = INT_COL("cl_rmt_hitm", "----- HITM -----",
							   "Rmt", 1, 7, val_rmt_hitm);
static const struct table_column col_cl_lcl_hitm = INT_COL("cl_lcl_hitm", NULL, "Lcl", 0, 7,
							   val_lcl_hitm);
static const struct table_column col_cl_rmt_peer = INT_COL("cl_rmt_peer", "----- Peer -----",
							   "Rmt", 1, 7, val_rmt_peer);
static const struct table_column col_cl_lcl_peer = INT_COL("cl_lcl_peer", NULL, "Lcl", 0, 7,
							   val_lcl_peer);
static const struct table_column col_tot_stores = INT_COL("tot_stores", "Total", "Stores", 0, 7,
							  val_store);
static const struct table_column col_stores_l1hit = INT_COL("stores_l1hit",
							    "--------- Stores --------", "L1Hit",
							    2, 7, val_st_l1hit);
static const struct table_column col_stores_l1miss = INT_COL("stores_l1miss", NULL, "L1Miss", 0,
							     7, val_st_l1miss);
static const struct table_column col_stores_na = INT_COL("stores_na", NULL, "N/A", 0, 7,
							 val_st_na);
static const struct table_column col_cl_stores_l1hit = INT_COL("cl_stores_l1hit",
							       "------- Store Refs ------",
							       "L1 Hit", 2, 7, val_st_l1hit);
static const struct table_column col_cl_stores_l1miss = INT_COL("cl_stores_l1miss", NULL,
								"L1 Miss", 0, 7, val_st_l1miss);
static const struct table_column col_cl_stores_na = INT_COL("cl_stores_na", NULL, "N/A", 0, 7,
							    val_st_na);
static const struct table_column col_ld_fbhit = INT_COL("ld_fbhit", "----- Core Load Hit -----",
							"FB", 2, 7, val_ld_fbhit);
static const struct table_column col_ld_l1hit = INT_COL("ld_l1hit", NULL, "L1", 0, 7,
							val_ld_l1hit);
static const struct table_column col_ld_l2hit = INT_COL("ld_l2hit", NULL, "L2", 0, 7,
							val_ld_l2hit);
static const struct table_column col_ld_lclhit = INT_COL("ld_lclhit", "- LLC Load Hit --",
							 "LclHit", 1, 8, val_ld_llchit);
static const struct table_column col_ld_rmthit = INT_COL("ld_rmthit", "- RMT Load Hit --",
							 "RmtHit", 1, 8, val_rmt_hit);
static const struct table_column col_tot_recs = INT_COL("tot_recs", "Total", "records", 0, 7,
							val_tot_recs);
static const struct table_column col_tot_loads = INT_COL("tot_loads", "Total", "Loads", 0, 7,
							 val_tot_loads);
static const struct table_column col_costly_snoop = {
	.name = "percent_costly_snoop", .width = 7, .kind = TABLE_PERCENT, .prec = 2,
	.text_prec = 2, .value = val_costly_snoop, .header_of = hdr_costly_snoop,
};
static const struct table_column col_pct_rmt_hitm = PCT_COL("percent_rmt_hitm",
							    "----- HITM -----", "RmtHitm", 1,
							    val_pct_rmt_hitm);
static const struct table_column col_pct_lcl_hitm = PCT_COL("percent_lcl_hitm", NULL, "LclHitm",
							    0, val_pct_lcl_hitm);
static const struct table_column col_pct_rmt_peer = PCT_COL("percent_rmt_peer",
							    "-- Peer Snoop --", "Rmt", 1,
							    val_pct_rmt_peer);
static const struct table_column col_pct_lcl_peer = PCT_COL("percent_lcl_peer", NULL, "Lcl", 0,
							    val_pct_lcl_peer);
static const struct table_column col_pct_st_l1hit = PCT_COL("percent_stores_l1hit",
							    "------- Store Refs ------", "L1 Hit",
							    2, val_pct_st_l1hit);
static const struct table_column col_pct_st_l1miss = PCT_COL("percent_stores_l1miss", NULL,
							     "L1 Miss", 0, val_pct_st_l1miss);
static const struct table_column col_pct_st_na = PCT_COL("percent_stores_na", NULL, "N/A", 0,
							 val_pct_st_na);
static const struct table_column col_dram_lcl = INT_COL("dram_lcl", "--- Load Dram ----", "Lcl",
							1, 8, val_lcl_dram);
static const struct table_column col_dram_rmt = INT_COL("dram_rmt", NULL, "Rmt", 0, 8,
							val_rmt_dram);
static const struct table_column col_pid = COL("pid", NULL, "Pid", 0, 7, TABLE_INT, val_pid);
static const struct table_column col_tid = {
	.name = "tid", .header = { NULL, "Tid" }, .kind = TABLE_STRING, .text = text_tid,
	.width_of = width_thread,
};
static const struct table_column col_symbol = {
	.name = "symbol", .header = { NULL, "Symbol" }, .kind = TABLE_STRING,
	.text = text_symbol, .width_of = width_symbol,
};
static const struct table_column col_dso = {
	.name = "dso", .header = { "Shared", "Object" }, .kind = TABLE_STRING, .text = text_dso,
	.width_of = width_dso,
};
static const struct table_column col_srcline = {
	.name = "cl_srcline", .header = { NULL, "Source:Line" }, .kind = TABLE_STRING,
	.text = text_srcline, .width_of = width_srcline,
};
static const struct table_column col_node = {
	.name = "node", .width = 4, .kind = TABLE_STRING, .text = text_node,
	.header_of = hdr_node,
};
static const struct table_column col_mean_rmt = MEAN_COL("mean_rmt",
							 "---------- cycles ----------",
							 "rmt hitm", 2, val_mean_rmt_hitm);
static const struct table_column col_mean_lcl = MEAN_COL("mean_lcl", NULL, "lcl hitm", 0,
							 val_mean_lcl_hitm);
static const struct table_column col_mean_load = MEAN_COL("mean_load", NULL, "load", 0,
							  val_mean_load);
static const struct table_column col_mean_rmt_peer = MEAN_COL("mean_rmt_peer",
							      "---------- cycles ----------",
							      "rmt peer", 2, val_mean_rmt_peer);
static const struct table_column col_mean_lcl_peer = MEAN_COL("mean_lcl_peer", NULL, "lcl peer",
							      0, val_mean_lcl_peer);
static const struct table_column col_cpucnt = INT_COL("cpucnt", "cpu", "cnt", 0, 8, val_cpucnt);

/* perf's fill_line: @orig centred in dashes over @len columns. */
static void fill_line(char *buf, size_t size, const char *orig, int len)
{
	int olen = strlen(orig), j = len / 2 - olen / 2, i;

	if ((size_t)len + 1 > size)
		len = size - 1;
	for (i = 0; i < j - 1 && i < len; i++)
		buf[i] = '-';
	buf[i++] = ' ';
	memcpy(buf + i, orig, olen);
	i += olen;
	buf[i++] = ' ';
	for (; i < len; i++)
		buf[i] = '-';
	buf[i] = '\0';
}

static int drill_line(const struct table *t, const void *row, struct table *sub)
{
	const struct c2c_view *v = view(t);

	table__copy_columns(sub, &v->entries);
	c2c_view__entries(v, row, sub);
	return sub->nr_rows ? 0 : -1;
}

bool c2c_view__wants_source(const struct c2c *c, bool no_source)
{
	const struct c2c_config *cfg = c2c__config(c);

	for (unsigned int i = 0; i < cfg->nr_keys; i++)
		if (cfg->keys[i] == C2C_KEY_IADDR)
			return !no_source;
	return false;
}

void c2c_view__init(struct c2c_view *v, const struct c2c *c, bool stdio, bool full_symbols,
		    bool no_source)
{
	const struct c2c_config *cfg = c2c__config(c);
	bool peer = cfg->display == C2C_DISPLAY_PEER;
	bool pid = false, tid = false, iaddr = false, dso = false;
	struct table *lt = &v->lines, *rt = &v->cl_row, *et = &v->entries;

	memset(v, 0, sizeof(*v));
	v->c = c;
	v->display = cfg->display;
	v->full_symbols = full_symbols;
	v->stdio = stdio;
	v->node_info = cfg->node_info > 2 ? 2 : cfg->node_info;

	for (unsigned int i = 0; i < cfg->nr_keys; i++) {
		pid |= cfg->keys[i] == C2C_KEY_PID;
		tid |= cfg->keys[i] == C2C_KEY_TID;
		iaddr |= cfg->keys[i] == C2C_KEY_IADDR;
		dso |= cfg->keys[i] == C2C_KEY_DSO;
	}
	v->show_src = c2c_view__wants_source(c, no_source);
	table__init(lt, "lines", v);
	table__init(rt, "lines", v);
	table__init(et, "entries", v);
	lt->drill = drill_line;

	/* Shared Data Cache Line Table */
	table__add_column(lt, &col_cl_idx, NULL);
	table__add_column(lt, &col_dcacheline, NULL);
	table__add_column(lt, &col_dcacheline_node, NULL);
	table__add_column(lt, &col_dcacheline_count, NULL);
	table__add_column(lt, &col_costly_snoop, NULL);
	table__add_column(lt, peer ? &col_tot_peer : &col_tot_hitm, NULL);
	table__add_column(lt, peer ? &col_lcl_peer : &col_lcl_hitm, NULL);
	table__add_column(lt, peer ? &col_rmt_peer : &col_rmt_hitm, NULL);
	table__add_column(lt, &col_tot_recs, NULL);
	table__add_column(lt, &col_tot_loads, NULL);
	table__add_column(lt, &col_tot_stores, NULL);
	table__add_column(lt, &col_stores_l1hit, NULL);
	table__add_column(lt, &col_stores_l1miss, NULL);
	table__add_column(lt, &col_stores_na, NULL);
	table__add_column(lt, &col_ld_fbhit, NULL);
	table__add_column(lt, &col_ld_l1hit, NULL);
	table__add_column(lt, &col_ld_l2hit, NULL);
	table__add_column(lt, &col_ld_lclhit, NULL);
	table__add_column(lt, &col_lcl_hitm, NULL);
	table__add_column(lt, &col_ld_rmthit, NULL);
	table__add_column(lt, &col_rmt_hitm, NULL);
	table__add_column(lt, &col_dram_lcl, NULL);
	table__add_column(lt, &col_dram_rmt, NULL);
	for (uint32_t i = 0; i < c2c__nr_lines(c); i++) {
		const struct c2c_line *l = c2c__line(c, i);

		if (!l->filtered)
			table__add_row(lt, l);
	}

	/* the Pareto's line row */
	table__add_column(rt, &col_cl_num, NULL);
	table__add_column(rt, peer ? &col_cl_rmt_peer : &col_cl_rmt_hitm, NULL);
	table__add_column(rt, peer ? &col_cl_lcl_peer : &col_cl_lcl_hitm, NULL);
	table__add_column(rt, &col_cl_stores_l1hit, NULL);
	table__add_column(rt, &col_cl_stores_l1miss, NULL);
	table__add_column(rt, &col_cl_stores_na, NULL);
	table__add_column(rt, &col_dcacheline, NULL);

	/* the Pareto's rows (perf's build_cl_output) */
	table__add_column(et, &col_entry_cl_idx, NULL);
	if (stdio)
		table__add_column(et, &col_cl_num_empty, NULL);
	table__add_column(et, peer ? &col_pct_rmt_peer : &col_pct_rmt_hitm, NULL);
	table__add_column(et, peer ? &col_pct_lcl_peer : &col_pct_lcl_hitm, NULL);
	table__add_column(et, &col_pct_st_l1hit, NULL);
	table__add_column(et, &col_pct_st_l1miss, NULL);
	table__add_column(et, &col_pct_st_na, NULL);
	table__add_column(et, &col_offset, NULL);
	table__add_column(et, &col_offset_node, NULL);
	table__add_column(et, &col_dcacheline_count, NULL);
	if (pid)
		table__add_column(et, &col_pid, NULL);
	if (tid)
		table__add_column(et, &col_tid, NULL);
	if (iaddr)
		table__add_column(et, &col_iaddr, NULL);
	table__add_column(et, peer ? &col_mean_rmt_peer : &col_mean_rmt, NULL);
	table__add_column(et, peer ? &col_mean_lcl_peer : &col_mean_lcl, NULL);
	table__add_column(et, &col_mean_load, NULL);
	table__add_column(et, &col_tot_recs, NULL);
	table__add_column(et, &col_cpucnt, NULL);
	if (iaddr)
		table__add_column(et, &col_symbol, NULL);
	if (iaddr || dso)
		table__add_column(et, &col_dso, NULL);
	if (v->show_src)
		table__add_column(et, &col_srcline, NULL);
	table__add_column(et, &col_node, NULL);

	/* perf's ui_quirks: the group headers that span address, node and PA cnt */
	fill_line(v->cl_hdr0, sizeof(v->cl_hdr0), "Cacheline", 18 + 4 + 6 + 4);
	fill_line(v->off_hdr0, sizeof(v->off_hdr0), "Data address",
		  18 + c2c__offset_node_width(c) + 6 + 4);
}

void c2c_view__release(struct c2c_view *v)
{
	table__release(&v->lines);
	table__release(&v->cl_row);
	table__release(&v->entries);
}

void c2c_view__entries(const struct c2c_view *v, const struct c2c_line *l, struct table *t)
{
	uint32_t nr;
	const uint32_t *entries = c2c__line_entries(v->c, l, &nr);

	table__clear_rows(t);
	t->parent = l;
	for (uint32_t k = 0; k < nr; k++) {
		const struct c2c_entry *e = c2c__entry(v->c, entries[k]);

		if (!e->filtered)
			table__add_row(t, e);
	}
}

const char *c2c_display__name(enum c2c_display d)
{
	static const char *const names[] = {
		[C2C_DISPLAY_LCL] = "Local HITMs",
		[C2C_DISPLAY_RMT] = "Remote HITMs",
		[C2C_DISPLAY_TOT] = "Total HITMs",
		[C2C_DISPLAY_PEER] = "Peer Snoop",
	};

	return names[d];
}
