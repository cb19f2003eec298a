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

static const struct c2c_stats *row_stats(const struct c2c_line *l, const struct c2c_entry *e)
{
	return e ? &e->stats : &l->stats;
}

/* The totals a percentage is of: the whole recording for lines, the line for entries. */
static const struct c2c_stats *row_total(const struct c2c_view *v, const struct c2c_line *l,
					 const struct c2c_entry *e)
{
	return e ? &l->stats : c2c__total(v->c);
}

static uint64_t line_size(const struct c2c_view *v)
{
	return c2c__config(v->c)->line_size;
}

static int str_cell(const char *s, int width, char *buf, size_t size)
{
	return put(buf, size, "%*s", width, s);
}

static int pct_cell(double per, int width, char *buf, size_t size)
{
	char tmp[10];

	put(tmp, sizeof(tmp), "%.2F%%", per);
	return str_cell(tmp, width, buf, size);
}

/* ---- cells ---- */

static int cell_idx(const struct c2c_view *v, const struct c2c_line *l, const struct c2c_entry *e,
		    int width, char *buf, size_t size)
{
	char tmp[10];

	put(tmp, sizeof(tmp), "%u", l->idx);
	return str_cell(tmp, width, buf, size);
}

static int cell_empty(const struct c2c_view *v, const struct c2c_line *l,
		      const struct c2c_entry *e, int width, char *buf, size_t size)
{
	return str_cell("", width, buf, size);
}

static int cell_dcacheline(const struct c2c_view *v, const struct c2c_line *l,
			   const struct c2c_entry *e, int width, char *buf, size_t size)
{
	char tmp[20];

	put(tmp, sizeof(tmp), "0x%" PRIx64, l->addr & ~(line_size(v) - 1));
	return str_cell(tmp, width, buf, size);
}

static int cell_nodestr(const struct c2c_view *v, const struct c2c_line *l,
			const struct c2c_entry *e, int width, char *buf, size_t size)
{
	const char *s = e ? e->nodestr : l->nodestr;

	return str_cell(s ? s : "", width, buf, size);
}

static int cell_pa_cnt(const struct c2c_view *v, const struct c2c_line *l,
		       const struct c2c_entry *e, int width, char *buf, size_t size)
{
	return put(buf, size, "%*u", width, e ? e->paddr_cnt : l->paddr_cnt);
}

static int cell_offset(const struct c2c_view *v, const struct c2c_line *l,
		       const struct c2c_entry *e, int width, char *buf, size_t size)
{
	char tmp[20];

	put(tmp, sizeof(tmp), "0x%" PRIx64, e ? e->data_rel & (line_size(v) - 1) : 0);
	return str_cell(tmp, width, buf, size);
}

static int cell_iaddr(const struct c2c_view *v, const struct c2c_line *l,
		      const struct c2c_entry *e, int width, char *buf, size_t size)
{
	char tmp[20];

	put(tmp, sizeof(tmp), "0x%" PRIx64, e ? e->iaddr : 0);
	return str_cell(tmp, width, buf, size);
}

static int cell_costly_snoop(const struct c2c_view *v, const struct c2c_line *l,
			     const struct c2c_entry *e, int width, char *buf, size_t size)
{
	const struct c2c_stats *st = row_stats(l, e), *tot = row_total(v, l, e);
	int s = c2c_stats__display_metric(st, v->display);
	int t = c2c_stats__display_metric(tot, v->display);
	double p = t ? (double)s / t : 0;

	return pct_cell(100 * p, width, buf, size);
}

#define STAT_CELL(f)                                                                              \
	static int cell_##f(const struct c2c_view *v, const struct c2c_line *l,                   \
			    const struct c2c_entry *e, int width, char *buf, size_t size)         \
	{                                                                                         \
		return put(buf, size, "%*u", width, row_stats(l, e)->f);                          \
	}

STAT_CELL(rmt_hitm)
STAT_CELL(lcl_hitm)
STAT_CELL(rmt_peer)
STAT_CELL(lcl_peer)
STAT_CELL(tot_peer)
STAT_CELL(store)
STAT_CELL(st_l1hit)
STAT_CELL(st_l1miss)
STAT_CELL(st_na)
STAT_CELL(ld_fbhit)
STAT_CELL(ld_l1hit)
STAT_CELL(ld_l2hit)
STAT_CELL(ld_llchit)
STAT_CELL(rmt_hit)
STAT_CELL(lcl_dram)
STAT_CELL(rmt_dram)

static int cell_tot_hitm(const struct c2c_view *v, const struct c2c_line *l,
			 const struct c2c_entry *e, int width, char *buf, size_t size)
{
	const struct c2c_stats *st = row_stats(l, e);

	return put(buf, size, "%*u", width, st->lcl_hitm + st->rmt_hitm);
}

static int cell_tot_recs(const struct c2c_view *v, const struct c2c_line *l,
			 const struct c2c_entry *e, int width, char *buf, size_t size)
{
	return put(buf, size, "%*" PRIu64, width, c2c_stats__total_records(row_stats(l, e)));
}

static int cell_tot_loads(const struct c2c_view *v, const struct c2c_line *l,
			  const struct c2c_entry *e, int width, char *buf, size_t size)
{
	return put(buf, size, "%*" PRIu64, width, c2c_stats__total_loads(row_stats(l, e)));
}

#define PCT_CELL(f)                                                                               \
	static int cell_pct_##f(const struct c2c_view *v, const struct c2c_line *l,               \
				const struct c2c_entry *e, int width, char *buf, size_t size)     \
	{                                                                                         \
		return pct_cell(c2c__percent(row_stats(l, e)->f, row_total(v, l, e)->f), width,   \
				buf, size);                                                       \
	}

PCT_CELL(rmt_hitm)
PCT_CELL(lcl_hitm)
PCT_CELL(rmt_peer)
PCT_CELL(lcl_peer)
PCT_CELL(st_l1hit)
PCT_CELL(st_l1miss)
PCT_CELL(st_na)

static int mean_cell(double mean, int width, char *buf, size_t size)
{
	char tmp[10];

	put(tmp, sizeof(tmp), "%6.0f", mean);
	return str_cell(tmp, width, buf, size);
}

#define MEAN_CELL(f)                                                                              \
	static int cell_mean_##f(const struct c2c_view *v, const struct c2c_line *l,              \
				 const struct c2c_entry *e, int width, char *buf, size_t size)    \
	{                                                                                         \
		return mean_cell(e ? e->mean_##f.mean : 0, width, buf, size);                     \
	}

MEAN_CELL(rmt_hitm)
MEAN_CELL(lcl_hitm)
MEAN_CELL(rmt_peer)
MEAN_CELL(lcl_peer)
MEAN_CELL(load)

static int cell_cpucnt(const struct c2c_view *v, const struct c2c_line *l,
		       const struct c2c_entry *e, int width, char *buf, size_t size)
{
	char tmp[10];

	put(tmp, sizeof(tmp), "%u", c2c__cpuset_weight(v->c, e ? e->cpuset : l->cpuset));
	return str_cell(tmp, width, buf, size);
}

static int cell_pid(const struct c2c_view *v, const struct c2c_line *l, const struct c2c_entry *e,
		    int width, char *buf, size_t size)
{
	return put(buf, size, "%*d", width, e ? e->pid : 0);
}

/* perf's hist_entry__thread_snprintf: "%7d:%-*.*s" at max(7, width) - 8. */
static int cell_tid(const struct c2c_view *v, const struct c2c_line *l, const struct c2c_entry *e,
		    int width, char *buf, size_t size)
{
	unsigned int w = (width > 7 ? width : 7) - 8;
	const char *comm = e && e->info.comm ? e->info.comm : "";

	return put(buf, size, "%7d:%-*.*s", e ? e->tid : 0, (int)w, (int)w, comm);
}

/* perf's _hist_entry__sym_snprintf (verbose off). */
static int cell_symbol(const struct c2c_view *v, const struct c2c_line *l,
		       const struct c2c_entry *e, int width, char *buf, size_t size)
{
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

static int cell_dso(const struct c2c_view *v, const struct c2c_line *l, const struct c2c_entry *e,
		    int width, char *buf, size_t size)
{
	const char *dso = e && e->code_map && !e->info.no_map && e->info.dso ? e->info.dso :
			  "[unknown]";

	return put(buf, size, "%-*.*s", width, width, dso);
}

static int cell_srcline(const struct c2c_view *v, const struct c2c_line *l,
			const struct c2c_entry *e, int width, char *buf, size_t size)
{
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
static int cell_node(const struct c2c_view *v, const struct c2c_line *l, const struct c2c_entry *e,
		     int width, char *buf, size_t size)
{
	const struct c2c_config *cfg = c2c__config(v->c);
	uint32_t set = e ? e->cpuset : l->cpuset;
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
			const struct c2c_stats *st = row_stats(l, e);
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

static int width_symbol(const struct c2c_view *v, const struct c2c_line *l)
{
	int w = l ? l->w_symbol : 0;

	return v->full_symbols || w < SYMBOL_WIDTH ? w : SYMBOL_WIDTH;
}

static int width_srcline(const struct c2c_view *v, const struct c2c_line *l)
{
	int w = l ? l->w_srcline : 0;

	return v->full_symbols || w < SYMBOL_WIDTH ? w : SYMBOL_WIDTH;
}

static int width_dso(const struct c2c_view *v, const struct c2c_line *l)
{
	return l ? l->w_dso : 0;
}

static int width_thread(const struct c2c_view *v, const struct c2c_line *l)
{
	return l ? l->w_thread : 0;
}

static int width_offset_node(const struct c2c_view *v, const struct c2c_line *l)
{
	return c2c__offset_node_width(v->c);
}

static const char *hdr_cacheline(const struct c2c_view *v, int line)
{
	return line ? "Address" : v->cl_hdr0;
}

static const char *hdr_offset(const struct c2c_view *v, int line)
{
	return line ? "Offset" : v->off_hdr0;
}

static const char *hdr_costly_snoop(const struct c2c_view *v, int line)
{
	static const char *const h[4][2] = {
		[C2C_DISPLAY_LCL] = { "Lcl", "Hitm" },
		[C2C_DISPLAY_RMT] = { "Rmt", "Hitm" },
		[C2C_DISPLAY_TOT] = { "Tot", "Hitm" },
		[C2C_DISPLAY_PEER] = { "Peer", "Snoop" },
	};

	return h[v->display][line];
}

static const char *hdr_node(const struct c2c_view *v, int line)
{
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

#define COL(n, h0, h1, sp, w, k, fn) { .name = n, .hdr = { h0, h1 }, .span = sp, .width = w, \
				       .kind = k, .cell = fn }

static const struct c2c_column col_cl_idx = COL("cl_idx", NULL, "Index", 0, 5, C2C_COL_INT,
						cell_idx);
static const struct c2c_column col_cl_num = COL("cl_num", NULL, "Num", 0, 5, C2C_COL_INT,
						cell_idx);
static const struct c2c_column col_cl_num_empty = COL("cl_num_empty", NULL, "Num", 0, 5,
						      C2C_COL_STRING, cell_empty);
static const struct c2c_column col_dcacheline = {
	.name = "dcacheline", .span = 2, .width = 18, .kind = C2C_COL_HEX,
	.cell = cell_dcacheline, .hdr_fn = hdr_cacheline,
};
static const struct c2c_column col_dcacheline_node = COL("dcacheline_node", NULL, "Node", 0, 4,
							 C2C_COL_STRING, cell_nodestr);
static const struct c2c_column col_dcacheline_count = COL("dcacheline_count", NULL, "PA cnt", 0,
							  6, C2C_COL_INT, cell_pa_cnt);
static const struct c2c_column col_offset = {
	.name = "offset", .span = 2, .width = 18, .kind = C2C_COL_HEX, .cell = cell_offset,
	.hdr_fn = hdr_offset,
};
static const struct c2c_column col_offset_node = {
	.name = "offset_node", .hdr = { NULL, "Node" }, .kind = C2C_COL_STRING,
	.cell = cell_nodestr, .width_fn = width_offset_node,
};
static const struct c2c_column col_iaddr = COL("iaddr", NULL, "Code address", 0, 18, C2C_COL_HEX,
					       cell_iaddr);
static const struct c2c_column col_tot_hitm = COL("tot_hitm", "------- Load Hitm -------",
						  "Total", 2, 7, C2C_COL_INT, cell_tot_hitm);
static const struct c2c_column col_lcl_hitm = COL("lcl_hitm", NULL, "LclHitm", 0, 7, C2C_COL_INT,
						  cell_lcl_hitm);
static const struct c2c_column col_rmt_hitm = COL("rmt_hitm", NULL, "RmtHitm", 0, 7, C2C_COL_INT,
						  cell_rmt_hitm);
static const struct c2c_column col_tot_peer = COL("tot_peer", "------- Load Peer -------",
						  "Total", 2, 7, C2C_COL_INT, cell_tot_peer);
static const struct c2c_column col_lcl_peer = COL("lcl_peer", NULL, "Local", 0, 7, C2C_COL_INT,
						  cell_lcl_peer);
static const struct c2c_column col_rmt_peer = COL("rmt_peer", NULL, "Remote", 0, 7, C2C_COL_INT,
						  cell_rmt_peer);
static const struct c2c_column col_cl_rmt_hitm = COL("cl_rmt_hitm", "----- HITM -----", "Rmt", 1,
						     7, C2C_COL_INT, cell_rmt_hitm);
static const struct c2c_column col_cl_lcl_hitm = COL("cl_lcl_hitm", NULL, "Lcl", 0, 7,
						     C2C_COL_INT, cell_lcl_hitm);
static const struct c2c_column col_cl_rmt_peer = COL("cl_rmt_peer", "----- Peer -----", "Rmt", 1,
						     7, C2C_COL_INT, cell_rmt_peer);
static const struct c2c_column col_cl_lcl_peer = COL("cl_lcl_peer", NULL, "Lcl", 0, 7,
						     C2C_COL_INT, cell_lcl_peer);
static const struct c2c_column col_tot_stores = COL("tot_stores", "Total", "Stores", 0, 7,
						    C2C_COL_INT, cell_store);
static const struct c2c_column col_stores_l1hit = COL("stores_l1hit", "--------- Stores --------",
						      "L1Hit", 2, 7, C2C_COL_INT, cell_st_l1hit);
static const struct c2c_column col_stores_l1miss = COL("stores_l1miss", NULL, "L1Miss", 0, 7,
						       C2C_COL_INT, cell_st_l1miss);
static const struct c2c_column col_stores_na = COL("stores_na", NULL, "N/A", 0, 7, C2C_COL_INT,
						   cell_st_na);
static const struct c2c_column col_cl_stores_l1hit = COL("cl_stores_l1hit",
							 "------- Store Refs ------", "L1 Hit",
							 2, 7, C2C_COL_INT, cell_st_l1hit);
static const struct c2c_column col_cl_stores_l1miss = COL("cl_stores_l1miss", NULL, "L1 Miss", 0,
							  7, C2C_COL_INT, cell_st_l1miss);
static const struct c2c_column col_cl_stores_na = COL("cl_stores_na", NULL, "N/A", 0, 7,
						      C2C_COL_INT, cell_st_na);
static const struct c2c_column col_ld_fbhit = COL("ld_fbhit", "----- Core Load Hit -----", "FB",
						  2, 7, C2C_COL_INT, cell_ld_fbhit);
static const struct c2c_column col_ld_l1hit = COL("ld_l1hit", NULL, "L1", 0, 7, C2C_COL_INT,
						  cell_ld_l1hit);
static const struct c2c_column col_ld_l2hit = COL("ld_l2hit", NULL, "L2", 0, 7, C2C_COL_INT,
						  cell_ld_l2hit);
static const struct c2c_column col_ld_lclhit = COL("ld_lclhit", "- LLC Load Hit --", "LclHit",
						   1, 8, C2C_COL_INT, cell_ld_llchit);
static const struct c2c_column col_ld_rmthit = COL("ld_rmthit", "- RMT Load Hit --", "RmtHit",
						   1, 8, C2C_COL_INT, cell_rmt_hit);
static const struct c2c_column col_tot_recs = COL("tot_recs", "Total", "records", 0, 7,
						  C2C_COL_INT, cell_tot_recs);
static const struct c2c_column col_tot_loads = COL("tot_loads", "Total", "Loads", 0, 7,
						   C2C_COL_INT, cell_tot_loads);
static const struct c2c_column col_costly_snoop = {
	.name = "percent_costly_snoop", .width = 7, .kind = C2C_COL_PERCENT,
	.cell = cell_costly_snoop, .hdr_fn = hdr_costly_snoop,
};
static const struct c2c_column col_pct_rmt_hitm = COL("percent_rmt_hitm", "----- HITM -----",
						      "RmtHitm", 1, 7, C2C_COL_PERCENT,
						      cell_pct_rmt_hitm);
static const struct c2c_column col_pct_lcl_hitm = COL("percent_lcl_hitm", NULL, "LclHitm", 0, 7,
						      C2C_COL_PERCENT, cell_pct_lcl_hitm);
static const struct c2c_column col_pct_rmt_peer = COL("percent_rmt_peer", "-- Peer Snoop --",
						      "Rmt", 1, 7, C2C_COL_PERCENT,
						      cell_pct_rmt_peer);
static const struct c2c_column col_pct_lcl_peer = COL("percent_lcl_peer", NULL, "Lcl", 0, 7,
						      C2C_COL_PERCENT, cell_pct_lcl_peer);
static const struct c2c_column col_pct_st_l1hit = COL("percent_stores_l1hit",
						      "------- Store Refs ------", "L1 Hit", 2, 7,
						      C2C_COL_PERCENT, cell_pct_st_l1hit);
static const struct c2c_column col_pct_st_l1miss = COL("percent_stores_l1miss", NULL, "L1 Miss",
						       0, 7, C2C_COL_PERCENT, cell_pct_st_l1miss);
static const struct c2c_column col_pct_st_na = COL("percent_stores_na", NULL, "N/A", 0, 7,
						   C2C_COL_PERCENT, cell_pct_st_na);
static const struct c2c_column col_dram_lcl = COL("dram_lcl", "--- Load Dram ----", "Lcl", 1, 8,
						  C2C_COL_INT, cell_lcl_dram);
static const struct c2c_column col_dram_rmt = COL("dram_rmt", NULL, "Rmt", 0, 8, C2C_COL_INT,
						  cell_rmt_dram);
static const struct c2c_column col_pid = COL("pid", NULL, "Pid", 0, 7, C2C_COL_INT, cell_pid);
static const struct c2c_column col_tid = {
	.name = "tid", .hdr = { NULL, "Tid" }, .kind = C2C_COL_STRING, .cell = cell_tid,
	.width_fn = width_thread,
};
static const struct c2c_column col_symbol = {
	.name = "symbol", .hdr = { NULL, "Symbol" }, .kind = C2C_COL_STRING, .cell = cell_symbol,
	.width_fn = width_symbol,
};
static const struct c2c_column col_dso = {
	.name = "dso", .hdr = { "Shared", "Object" }, .kind = C2C_COL_STRING, .cell = cell_dso,
	.width_fn = width_dso,
};
static const struct c2c_column col_srcline = {
	.name = "cl_srcline", .hdr = { NULL, "Source:Line" }, .kind = C2C_COL_STRING,
	.cell = cell_srcline, .width_fn = width_srcline,
};
static const struct c2c_column col_node = {
	.name = "node", .width = 4, .kind = C2C_COL_STRING, .cell = cell_node,
	.hdr_fn = hdr_node,
};
static const struct c2c_column col_mean_rmt = COL("mean_rmt", "---------- cycles ----------",
						  "rmt hitm", 2, 8, C2C_COL_MEAN, cell_mean_rmt_hitm);
static const struct c2c_column col_mean_lcl = COL("mean_lcl", NULL, "lcl hitm", 0, 8,
						  C2C_COL_MEAN, cell_mean_lcl_hitm);
static const struct c2c_column col_mean_load = COL("mean_load", NULL, "load", 0, 8, C2C_COL_MEAN,
						   cell_mean_load);
static const struct c2c_column col_mean_rmt_peer = COL("mean_rmt_peer",
						       "---------- cycles ----------", "rmt peer",
						       2, 8, C2C_COL_MEAN, cell_mean_rmt_peer);
static const struct c2c_column col_mean_lcl_peer = COL("mean_lcl_peer", NULL, "lcl peer", 0, 8,
						       C2C_COL_MEAN, cell_mean_lcl_peer);
static const struct c2c_column col_cpucnt = COL("cpucnt", "cpu", "cnt", 0, 8, C2C_COL_INT,
						cell_cpucnt);

static void add(struct c2c_table *t, const struct c2c_column *col)
{
	if (t->nr < C2C_MAX_COLS)
		t->cols[t->nr++] = col;
}

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

void c2c_view__init(struct c2c_view *v, const struct c2c *c, bool stdio, bool full_symbols,
		    bool no_source)
{
	const struct c2c_config *cfg = c2c__config(c);
	bool peer = cfg->display == C2C_DISPLAY_PEER;
	bool pid = false, tid = false, iaddr = false, dso = false;

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
	v->show_src = iaddr && !no_source;

	/* Shared Data Cache Line Table */
	add(&v->lines, &col_cl_idx);
	add(&v->lines, &col_dcacheline);
	add(&v->lines, &col_dcacheline_node);
	add(&v->lines, &col_dcacheline_count);
	add(&v->lines, &col_costly_snoop);
	if (!peer) {
		add(&v->lines, &col_tot_hitm);
		add(&v->lines, &col_lcl_hitm);
		add(&v->lines, &col_rmt_hitm);
	} else {
		add(&v->lines, &col_tot_peer);
		add(&v->lines, &col_lcl_peer);
		add(&v->lines, &col_rmt_peer);
	}
	add(&v->lines, &col_tot_recs);
	add(&v->lines, &col_tot_loads);
	add(&v->lines, &col_tot_stores);
	add(&v->lines, &col_stores_l1hit);
	add(&v->lines, &col_stores_l1miss);
	add(&v->lines, &col_stores_na);
	add(&v->lines, &col_ld_fbhit);
	add(&v->lines, &col_ld_l1hit);
	add(&v->lines, &col_ld_l2hit);
	add(&v->lines, &col_ld_lclhit);
	add(&v->lines, &col_lcl_hitm);
	add(&v->lines, &col_ld_rmthit);
	add(&v->lines, &col_rmt_hitm);
	add(&v->lines, &col_dram_lcl);
	add(&v->lines, &col_dram_rmt);

	/* the Pareto's line row */
	add(&v->cl_row, &col_cl_num);
	add(&v->cl_row, peer ? &col_cl_rmt_peer : &col_cl_rmt_hitm);
	add(&v->cl_row, peer ? &col_cl_lcl_peer : &col_cl_lcl_hitm);
	add(&v->cl_row, &col_cl_stores_l1hit);
	add(&v->cl_row, &col_cl_stores_l1miss);
	add(&v->cl_row, &col_cl_stores_na);
	add(&v->cl_row, &col_dcacheline);

	/* the Pareto's rows (perf's build_cl_output) */
	if (stdio)
		add(&v->entries, &col_cl_num_empty);
	add(&v->entries, peer ? &col_pct_rmt_peer : &col_pct_rmt_hitm);
	add(&v->entries, peer ? &col_pct_lcl_peer : &col_pct_lcl_hitm);
	add(&v->entries, &col_pct_st_l1hit);
	add(&v->entries, &col_pct_st_l1miss);
	add(&v->entries, &col_pct_st_na);
	add(&v->entries, &col_offset);
	add(&v->entries, &col_offset_node);
	add(&v->entries, &col_dcacheline_count);
	if (pid)
		add(&v->entries, &col_pid);
	if (tid)
		add(&v->entries, &col_tid);
	if (iaddr)
		add(&v->entries, &col_iaddr);
	add(&v->entries, peer ? &col_mean_rmt_peer : &col_mean_rmt);
	add(&v->entries, peer ? &col_mean_lcl_peer : &col_mean_lcl);
	add(&v->entries, &col_mean_load);
	add(&v->entries, &col_tot_recs);
	add(&v->entries, &col_cpucnt);
	if (iaddr)
		add(&v->entries, &col_symbol);
	if (iaddr || dso)
		add(&v->entries, &col_dso);
	if (v->show_src)
		add(&v->entries, &col_srcline);
	add(&v->entries, &col_node);

	/* perf's ui_quirks: the group headers that span address, node and PA cnt */
	fill_line(v->cl_hdr0, sizeof(v->cl_hdr0), "Cacheline", 18 + 4 + 6 + 4);
	fill_line(v->off_hdr0, sizeof(v->off_hdr0), "Data address",
		  18 + c2c__offset_node_width(c) + 6 + 4);
}

int c2c_column__width(const struct c2c_view *v, const struct c2c_column *col,
		      const struct c2c_line *l)
{
	return col->width_fn ? col->width_fn(v, l) : col->width;
}

const char *c2c_column__header(const struct c2c_view *v, const struct c2c_column *col, int line)
{
	const char *s = col->hdr_fn ? col->hdr_fn(v, line) : col->hdr[line];

	return s ? s : "";
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
