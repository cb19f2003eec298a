// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lineup report: perf c2c report's tables (Trace Event Information, Global Shared Cache Line
 * Event Information, Shared Data Cache Line Table, Shared Cache Line Distribution Pareto) with
 * perf's numbers, as --stdio (perf's layout, byte for byte), --json or --csv, all three driven
 * by the column tables of analyzer/c2c_columns.h.  The recording is read into the c2c by
 * pipeline/c2c_load.h; this file parses the options and prints.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "analyzer/c2c.h"
#include "analyzer/c2c_columns.h"
#include "analyzer/table.h"
#include "cli/command.h"
#include "cli/output.h"
#include "pipeline/c2c_load.h"
#include "sampling/perf_file.h"
#include "pipeline/report_fields.h"
#include "sampling/session.h"
#include "pipeline/suggest_load.h"
#include "tui/tui.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

enum {
	OPT_INPUT = 'i',
	OPT_DISPLAY = 'd',
	OPT_COALESCE = 'c',
	OPT_NODE = 'N',
	OPT_VMLINUX = 'k',
	OPT_FORCE = 'f',
	OPT_STDIO = 1000,
	OPT_TUI,
	OPT_JSON,
	OPT_CSV,
	OPT_STATS,
	OPT_SHOW_ALL,
	OPT_NO_SOURCE,
	OPT_FULL_SYMBOLS,
	OPT_DOUBLE_CL,
	OPT_LINE_SIZE,
	OPT_SYMFS,
	OPT_TIME,
	OPT_PID,
	OPT_TID,
	OPT_CPU,
	OPT_COMM,
	OPT_FIELDS,
	OPT_DEBUG_FILE,
};

static const struct cli_option report_options[] = {
	{ OPT_INPUT, 'i', "input", "FILE", "the perf.data to read (default: perf.data; - is stdin)" },
	{ OPT_STDIO, 0, "stdio", NULL,
	  "print perf c2c's text tables (the default when standard output is not a terminal)" },
	{ OPT_TUI, 0, "tui", NULL,
	  "browse the tables in the terminal (the default on a terminal): lines, a line's Pareto "
	  "rows with each offset's member, readers and writers, a row's code and source, the "
	  "line's struct as a heat map and its suggested layout; ? there lists the keys" },
	{ OPT_JSON, 0, "json", NULL, "print the same numbers as JSON" },
	{ OPT_CSV, 0, "csv", NULL, "print the lines and the Pareto's entries as one CSV table (its first column, table, says which)" },
	{ OPT_STATS, 0, "stats", NULL, "print only the statistics tables" },
	{ OPT_DISPLAY, 'd', "display", "MODE",
	  "sort and filter lines on tot, lcl or rmt HITMs, or peer snoops (default tot)" },
	{ OPT_COALESCE, 'c', "coalesce", "KEYS",
	  "group a line's samples by offset and these: pid,tid,iaddr,dso (default iaddr)" },
	{ OPT_NODE, 'N', "node-info", NULL,
	  "show more node detail in the Pareto (repeat: CPU counts and shares, CPU lists)" },
	{ OPT_SHOW_ALL, 0, "show-all", NULL, "show every cache line, not only the shared ones" },
	{ OPT_NO_SOURCE, 0, "no-source", NULL, "leave out the Source:Line column" },
	{ OPT_FULL_SYMBOLS, 0, "full-symbols", NULL, "do not cut symbols and source lines at 30" },
	{ OPT_DOUBLE_CL, 0, "double-cl", NULL,
	  "count pairs of adjacent lines as one (adjacent-line prefetch false sharing)" },
	{ OPT_LINE_SIZE, 0, "line-size", "BYTES",
	  "cache-line size (default: the recording's CACHE header, else 64)" },
	{ OPT_VMLINUX, 'k', "vmlinux", "FILE", "kernel image for kernel symbols" },
	{ OPT_SYMFS, 0, "symfs", "DIR", "look for objects under DIR" },
	{ OPT_FORCE, 'f', "force", NULL, "accepted for perf compatibility (no ownership check)" },
	CLI_FILTER_OPTIONS(OPT_TIME),
	{ OPT_FIELDS, 0, "fields", NULL,
	  "add Type and Member columns to the Pareto rows (field attribution; always in --json)" },
	{ OPT_DEBUG_FILE, 0, "debug-file", "FILE",
	  "an object to take types from for the Type/Member columns (a .ko, a binary; repeatable)" },
	CLI_OPTION_END
};

_Static_assert(OPT_COMM - OPT_TIME == CLI_FILTER_COMM, "the filter options are in cli's order");

enum report_format { FMT_DEFAULT, FMT_STDIO, FMT_TUI, FMT_JSON, FMT_CSV };

struct report_opts {
	const struct command *cmd;	/* for usage errors */
	const char *input;
	enum report_format format;
	const char *format_opt;		/* the format option given, for cli__output_format */
	bool stats_only, show_all, no_source, full_symbols, double_cl;
	const char *display;
	const char *coalesce;
	int node_info;
	unsigned long long line_size;
	const char *vmlinux, *symfs;
	struct session_filter filter;	/* --time --pid --tid --cpu --comm */
	bool fields;			/* --fields: Type and Member columns (pipeline/report_fields.h) */
	struct fields_attr_opts fattr;
};

static int report_option(void *ctx, int id, const char *arg)
{
	struct report_opts *o = ctx;

	switch (id) {
	case OPT_INPUT:
		o->input = arg;
		break;
	case OPT_STDIO:
		o->format = FMT_STDIO;
		return cli__output_format(o->cmd, &o->format_opt, "stdio");
	case OPT_TUI:
		o->format = FMT_TUI;
		return cli__tui_option() ?: cli__output_format(o->cmd, &o->format_opt, "tui");
	case OPT_JSON:
		o->format = FMT_JSON;
		return cli__output_format(o->cmd, &o->format_opt, "json");
	case OPT_CSV:
		o->format = FMT_CSV;
		return cli__output_format(o->cmd, &o->format_opt, "csv");
	case OPT_STATS:
		o->stats_only = true;
		break;
	case OPT_DISPLAY:
		o->display = arg;
		break;
	case OPT_COALESCE:
		if (strspn(arg, ",") == strlen(arg))
			return cli__usage_error(o->cmd, "-c: no coalesce key given in '%s' (pid, tid, "
						"iaddr, dso)", arg);
		o->coalesce = arg;
		break;
	case OPT_NODE:
		o->node_info++;
		break;
	case OPT_SHOW_ALL:
		o->show_all = true;
		break;
	case OPT_NO_SOURCE:
		o->no_source = true;
		break;
	case OPT_FULL_SYMBOLS:
		o->full_symbols = true;
		break;
	case OPT_DOUBLE_CL:
		o->double_cl = true;
		break;
	case OPT_LINE_SIZE:
		if (cli__parse_u64(o->cmd, "--line-size", arg, &o->line_size))
			return EXIT_USAGE;
		if (o->line_size < 8 || o->line_size > 4096 || (o->line_size & (o->line_size - 1)))
			return cli__usage_error(o->cmd,
						"--line-size: %s is not a power of two in 8..4096",
						arg);
		break;
	case OPT_VMLINUX: {
		struct stat st;

		if (stat(arg, &st))
			return cli__usage_error(o->cmd, "-k: cannot use '%s': %s", arg,
						strerror(errno));
		if (!S_ISREG(st.st_mode))
			return cli__usage_error(o->cmd, "-k: '%s' is not a regular file", arg);
		o->vmlinux = arg;
		break;
	}
	case OPT_SYMFS: {
		struct stat st;

		if (stat(arg, &st))
			return cli__usage_error(o->cmd, "--symfs: cannot use '%s': %s", arg,
						strerror(errno));
		if (!S_ISDIR(st.st_mode))
			return cli__usage_error(o->cmd, "--symfs: '%s' is not a directory", arg);
		o->symfs = arg;
		break;
	}
	case OPT_FORCE:
		break;
	case OPT_TIME ... OPT_COMM:
		return cli__filter_option(o->cmd, &o->filter, id - OPT_TIME, arg);
	case OPT_FIELDS:
		o->fields = true;
		break;
	case OPT_DEBUG_FILE:
		fields_list__add(&o->fattr.debug_files, arg);
		break;
	}
	return 0;
}

/* What the printers share: the options, the recording's tables. */
struct report {
	struct report_opts *o;
	struct c2c_load *ld;
	struct c2c *c2c;
	const struct perf_header_info *h;
	char *grouping;			/* "offset,iaddr" */
};

/* The browser's view rebuilt: the Type and Member columns again. */
static void fields_columns(void *ctx, struct c2c_view *v, const struct c2c *c)
{
	struct report_fields *rf = c2c_load__fields(ctx);

	report_fields__add_columns(rf, v, c, true);
	cli__attr_warnings(report_fields__attr(rf));
}

static int parse_coalesce(const struct command *cmd, const char *s, struct c2c_config *cfg)
{
	char *dup = xstrdup(s), *save = NULL;
	int ret = 0;

	cfg->nr_keys = 0;
	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		enum c2c_key k;

		if (!strcmp(t, "pid"))
			k = C2C_KEY_PID;
		else if (!strcmp(t, "tid"))
			k = C2C_KEY_TID;
		else if (!strcmp(t, "iaddr"))
			k = C2C_KEY_IADDR;
		else if (!strcmp(t, "dso"))
			k = C2C_KEY_DSO;
		else if (!strcmp(t, "offset"))
			continue;
		else {
			ret = cli__usage_error(cmd, "-c: unknown coalesce key '%s' (pid, tid, "
						  "iaddr, dso)", t);
			break;
		}
		for (unsigned i = 0; i < cfg->nr_keys; i++)
			if (cfg->keys[i] == k) {
				ret = cli__usage_error(cmd, "-c: coalesce key '%s' given twice", t);
				goto out;
			}
		if (cfg->nr_keys < C2C_MAX_KEYS)
			cfg->keys[cfg->nr_keys++] = k;
	}
out:
	free(dup);
	return ret;
}

/* ---- call graphs under the Pareto rows (perf's callchain__fprintf_graph) ---- */

static void cc_margin(FILE *out, int left)
{
	fprintf(out, "            %*s", left, "");
}

static void cc_name(FILE *out, const struct cc_frame *fr)
{
	if (fr->sym)
		fputs(fr->sym, out);
	else
		fprintf(out, "%#" PRIx64, fr->ip);
}

static void cc_graph_line(FILE *out, int depth, int mask, int left)
{
	cc_margin(out, left);
	for (int i = 0; i < depth; i++)
		fputs(mask & (1 << i) ? "|          " : "           ", out);
	fputc('\n', out);
}

static void cc_frame_line(FILE *out, const struct cc_node *n, const struct cc_frame *fr, int depth,
			  int mask, int nth, uint64_t total, int left)
{
	cc_margin(out, left);
	for (int i = 0; i < depth; i++) {
		fputc(mask & (1 << i) ? '|' : ' ', out);
		if (!nth && i == depth - 1)
			fprintf(out, "--%.2f%%--", total ? cc_node__cumul(n) * 100.0 / total : 0.0);
		else
			fputs("          ", out);
	}
	cc_name(out, fr);
	fputc('\n', out);
}

static size_t cc_graph_children(FILE *out, const struct cc_forest *f, uint32_t parent,
				uint64_t total, int depth, int mask, int left)
{
	const struct cc_node *p = &f->nodes[parent];
	int new_mask = mask;
	size_t printed = 0;

	for (uint32_t k = 0; k < p->nr_children; k++) {
		const struct cc_node *c = &f->nodes[p->children[k]];

		/* the pipe of this depth stops at the last child */
		if (k + 1 == p->nr_children)
			new_mask &= ~(1 << (depth - 1));
		cc_graph_line(out, depth, mask, left);
		for (uint32_t i = 0; i < c->nr_frames; i++)
			cc_frame_line(out, c, &f->frames[c->frame + i], depth, new_mask, i, total, left);
		printed += 1 + c->nr_frames;
		printed += cc_graph_children(out, f, p->children[k], total, depth + 1,
					     new_mask | (1 << depth), left);
	}
	return printed;
}

/* @total: the line's period (perf's hists total), @parent: the entry's. */
static void cc_graph(FILE *out, const struct cc_forest *f, uint32_t root, uint64_t total,
		     uint64_t parent)
{
	const struct cc_node *r = &f->nodes[root];
	size_t printed = 0;
	int left = 0;

	/* a single root holding all the entry's period is printed without a percentage */
	if (r->nr_children == 1 && cc_node__cumul(&f->nodes[r->children[0]]) == parent) {
		const struct cc_node *n = &f->nodes[r->children[0]];

		for (uint32_t i = 0; i < n->nr_frames; i++) {
			if (!i) {
				cc_margin(out, left);
				fputs("|\n", out);
				cc_margin(out, left);
				fputs("---", out);
				left += 3;
			} else {
				cc_margin(out, left);
			}
			cc_name(out, &f->frames[n->frame + i]);
			fputc('\n', out);
			printed++;
		}
		root = r->children[0];
	}
	printed += cc_graph_children(out, f, root, total, 1, 1, left);
	if (printed)
		fputc('\n', out);
}

/* ---- output: stdio (perf's layout) ---- */

static void print_stats(FILE *out, const struct c2c_stats *st)
{
	int llc_misses = c2c_stats__llc_misses(st);

	fprintf(out, "=================================================\n");
	fprintf(out, "            Trace Event Information              \n");
	fprintf(out, "=================================================\n");
	fprintf(out, "  Total records                     : %10d\n", (int)st->nr_entries);
	fprintf(out, "  Locked Load/Store Operations      : %10d\n", (int)st->locks);
	fprintf(out, "  Load Operations                   : %10d\n", (int)st->load);
	fprintf(out, "  Loads - uncacheable               : %10d\n", (int)st->ld_uncache);
	fprintf(out, "  Loads - IO                        : %10d\n", (int)st->ld_io);
	fprintf(out, "  Loads - Miss                      : %10d\n", (int)st->ld_miss);
	fprintf(out, "  Loads - no mapping                : %10d\n", (int)st->ld_noadrs);
	fprintf(out, "  Load Fill Buffer Hit              : %10d\n", (int)st->ld_fbhit);
	fprintf(out, "  Load L1D hit                      : %10d\n", (int)st->ld_l1hit);
	fprintf(out, "  Load L2D hit                      : %10d\n", (int)st->ld_l2hit);
	fprintf(out, "  Load LLC hit                      : %10d\n",
		(int)(st->ld_llchit + st->lcl_hitm));
	fprintf(out, "  Load Local HITM                   : %10d\n", (int)st->lcl_hitm);
	fprintf(out, "  Load Remote HITM                  : %10d\n", (int)st->rmt_hitm);
	fprintf(out, "  Load Remote HIT                   : %10d\n", (int)st->rmt_hit);
	fprintf(out, "  Load Local DRAM                   : %10d\n", (int)st->lcl_dram);
	fprintf(out, "  Load Remote DRAM                  : %10d\n", (int)st->rmt_dram);
	fprintf(out, "  Load MESI State Exclusive         : %10d\n", (int)st->ld_excl);
	fprintf(out, "  Load MESI State Shared            : %10d\n", (int)st->ld_shared);
	fprintf(out, "  Load LLC Misses                   : %10d\n", llc_misses);
	fprintf(out, "  Load access blocked by data       : %10d\n", (int)st->blk_data);
	fprintf(out, "  Load access blocked by address    : %10d\n", (int)st->blk_addr);
	fprintf(out, "  Load HIT Local Peer               : %10d\n", (int)st->lcl_peer);
	fprintf(out, "  Load HIT Remote Peer              : %10d\n", (int)st->rmt_peer);
	fprintf(out, "  LLC Misses to Local DRAM          : %10.1f%%\n",
		((double)st->lcl_dram / (double)llc_misses) * 100.);
	fprintf(out, "  LLC Misses to Remote DRAM         : %10.1f%%\n",
		((double)st->rmt_dram / (double)llc_misses) * 100.);
	fprintf(out, "  LLC Misses to Remote cache (HIT)  : %10.1f%%\n",
		((double)st->rmt_hit / (double)llc_misses) * 100.);
	fprintf(out, "  LLC Misses to Remote cache (HITM) : %10.1f%%\n",
		((double)st->rmt_hitm / (double)llc_misses) * 100.);
	fprintf(out, "  Store Operations                  : %10d\n", (int)st->store);
	fprintf(out, "  Store - uncacheable               : %10d\n", (int)st->st_uncache);
	fprintf(out, "  Store - no mapping                : %10d\n", (int)st->st_noadrs);
	fprintf(out, "  Store L1D Hit                     : %10d\n", (int)st->st_l1hit);
	fprintf(out, "  Store L1D Miss                    : %10d\n", (int)st->st_l1miss);
	fprintf(out, "  Store No available memory level   : %10d\n", (int)st->st_na);
	fprintf(out, "  No Page Map Rejects               : %10d\n", (int)st->nomap);
	fprintf(out, "  Unable to parse data source       : %10d\n", (int)st->noparse);
}

static void print_shared(FILE *out, const struct c2c_stats *st, uint32_t nr_shared)
{
	int hitm_cnt = st->lcl_hitm + st->rmt_hitm;

	fprintf(out, "=================================================\n");
	fprintf(out, "    Global Shared Cache Line Event Information   \n");
	fprintf(out, "=================================================\n");
	fprintf(out, "  Total Shared Cache Lines          : %10d\n", (int)nr_shared);
	fprintf(out, "  Load HITs on shared lines         : %10d\n", (int)st->load);
	fprintf(out, "  Fill Buffer Hits on shared lines  : %10d\n", (int)st->ld_fbhit);
	fprintf(out, "  L1D hits on shared lines          : %10d\n", (int)st->ld_l1hit);
	fprintf(out, "  L2D hits on shared lines          : %10d\n", (int)st->ld_l2hit);
	fprintf(out, "  LLC hits on shared lines          : %10d\n",
		(int)(st->ld_llchit + st->lcl_hitm));
	fprintf(out, "  Load hits on peer cache or nodes  : %10d\n",
		(int)(st->lcl_peer + st->rmt_peer));
	fprintf(out, "  Locked Access on shared lines     : %10d\n", (int)st->locks);
	fprintf(out, "  Blocked Access on shared lines    : %10d\n",
		(int)(st->blk_data + st->blk_addr));
	fprintf(out, "  Store HITs on shared lines        : %10d\n", (int)st->store);
	fprintf(out, "  Store L1D hits on shared lines    : %10d\n", (int)st->st_l1hit);
	fprintf(out, "  Store No available memory level   : %10d\n", (int)st->st_na);
	fprintf(out, "  Total Merged records              : %10d\n", (int)(hitm_cnt + st->store));
}

/* perf's c2c tables: "# " before the headers, two header lines with spans, dots. */
static const struct table_text_style perf_style = {
	.head_prefix = "# ", .row_prefix = "  ", .sep = "  ", .header_lines = 2, .dots = true,
};

/*
 * perf sizes a row's buffer by the sum of the widths, plus room for colour escapes (8 columns'
 * worth of COLOR_MAXLEN + reset, whether or not colour is on): longer rows are cut.
 */
static size_t row_limit(const struct table *t)
{
	size_t w = 0;

	for (int i = 0, n = 0; i < t->nr_cols; i++)
		if (!table_column__hidden(&t->cols[i], true))
			w += table__width(t, &t->cols[i]) + (n++ ? 2 : 0);
	return w + 3 + (24 + 4) * 8;
}

/* One row of @t, cut at @lim, and its newline. */
static void print_row(FILE *out, const struct table *t, const void *row,
		      const struct table_text_style *st, size_t lim, struct strbuf *sb)
{
	strbuf__reset(sb);
	table_text__row(t, row, st, sb);
	if (sb->len > lim) {
		sb->buf[lim] = '\0';
		sb->len = lim;
	}
	strbuf__add(sb, "\n", 1);
	output__strbuf(out, sb);
}

static void print_stdio(FILE *out, struct report *r, struct c2c_view *v)
{
	const struct c2c *c = r->c2c;
	const struct table_text_style cl_style = { "", "  ", "  ", 2, false, true };
	struct strbuf sb = STRBUF_INIT;
	size_t lim;

	print_stats(out, c2c__total(c));
	fputc('\n', out);
	print_shared(out, c2c__shared(c), c2c__nr_shared(c));
	fputc('\n', out);
	fprintf(out, "=================================================\n");
	fprintf(out, "                 c2c details                     \n");
	fprintf(out, "=================================================\n");
	for (uint32_t i = 0; i < r->h->nr_evsels; i++)
		fprintf(out, "%-36s: %s\n", i ? "" : "  Events", r->h->evsels[i].name);
	fprintf(out, "  Cachelines sort on                : %s\n",
		c2c_display__name(c2c__config(c)->display));
	fprintf(out, "  Cacheline data grouping           : %s\n", r->grouping);
	if (r->o->stats_only)
		goto out;

	fputc('\n', out);
	fprintf(out, "=================================================\n");
	fprintf(out, "           Shared Data Cache Line Table          \n");
	fprintf(out, "=================================================\n");
	fprintf(out, "#\n");
	table_text__headers(&v->lines, &perf_style, &sb);
	output__strbuf(out, &sb);
	lim = row_limit(&v->lines);
	for (size_t i = 0; i < v->lines.nr_rows && !ferror(out); i++)
		print_row(out, &v->lines, v->lines.rows[i], &perf_style, lim, &sb);

	fputc('\n', out);
	fprintf(out, "=================================================\n");
	fprintf(out, "      Shared Cache Line Distribution Pareto      \n");
	fprintf(out, "=================================================\n");
	fprintf(out, "#\n");
	for (size_t i = 0; i < v->lines.nr_rows && !ferror(out); i++) {
		const struct c2c_line *l = v->lines.rows[i];
		struct table *et = &v->entries;

		c2c_view__entries(v, l, et);
		if (!i) {
			table_text__headers(et, &perf_style, &sb);
			output__strbuf(out, &sb);
		} else {
			fputc('\n', out);
		}
		fputs("  ----------------------------------------------------------------------\n",
		      out);
		print_row(out, &v->cl_row, l, &cl_style, 999, &sb);
		fputs("  ----------------------------------------------------------------------\n",
		      out);
		lim = row_limit(et);
		for (size_t k = 0; k < et->nr_rows; k++) {
			const struct c2c_entry *e = et->rows[k];

			print_row(out, et, e, &perf_style, lim, &sb);
			if (e->cc_root != UINT32_MAX)
				cc_graph(out, c2c__callchains(c), e->cc_root, l->period, e->period);
		}
	}
out:
	strbuf__release(&sb);
}

/* ---- output: JSON and CSV, from the same tables ---- */

#define STAT_FIELDS(X)                                                                            \
	X(nr_entries) X(locks) X(store) X(st_uncache) X(st_noadrs) X(st_l1hit) X(st_l1miss)      \
	X(st_na) X(load) X(ld_excl) X(ld_shared) X(ld_uncache) X(ld_io) X(ld_miss) X(ld_noadrs)  \
	X(ld_fbhit) X(ld_l1hit) X(ld_l2hit) X(ld_llchit) X(lcl_hitm) X(rmt_hitm) X(tot_hitm)     \
	X(lcl_peer) X(rmt_peer) X(tot_peer) X(rmt_hit) X(lcl_dram) X(rmt_dram) X(blk_data)       \
	X(blk_addr) X(nomap) X(noparse)

static void json_stats(struct json *j, const struct c2c_stats *st)
{
	json__begin_object(j);
#define X(f) json__ku64(j, #f, st->f);
	STAT_FIELDS(X)
#undef X
	json__ku64(j, "llc_misses", c2c_stats__llc_misses(st));
	json__end_object(j);
}

static void print_json(FILE *out, struct report *r, struct c2c_view *v)
{
	const struct c2c *c = r->c2c;
	struct json j;

	json__init(&j, out, false);
	json__begin_object(&j);
	json__break(&j, 2);
	json__key(&j, "trace_event_information");
	json_stats(&j, c2c__total(c));
	json__break(&j, 2);
	json__ku64(&j, "shared_cache_lines", c2c__nr_shared(c));
	json__break(&j, 2);
	json__key(&j, "shared_line_stats");
	json_stats(&j, c2c__shared(c));
	json__break(&j, 2);
	json__key(&j, "events");
	json__begin_array(&j);
	for (uint32_t i = 0; i < r->h->nr_evsels; i++)
		json__str(&j, r->h->evsels[i].name);
	json__end_array(&j);
	json__break(&j, 2);
	json__kstr(&j, "sort_on", c2c_display__name(c2c__config(c)->display));
	json__break(&j, 2);
	json__kstr(&j, "grouping", r->grouping);
	json__break(&j, 2);
	json__ku64(&j, "line_size", c2c__config(c)->line_size);
	if (!r->o->stats_only) {
		json__break(&j, 2);
		json__key(&j, "lines");
		json__begin_array(&j);
		for (size_t i = 0; i < v->lines.nr_rows && !ferror(out); i++) {
			const struct c2c_line *l = v->lines.rows[i];

			c2c_view__entries(v, l, &v->entries);
			json__break(&j, 4);
			json__begin_object(&j);
			json__row(&j, &v->lines, l);
			json__key(&j, "entries");
			json__begin_array(&j);
			for (size_t k = 0; k < v->entries.nr_rows; k++) {
				json__break(&j, 6);
				json__begin_object(&j);
				json__row(&j, &v->entries, v->entries.rows[k]);
				json__end_object(&j);
			}
			json__end_array(&j);
			json__end_object(&j);
		}
		json__break(&j, 2);
		json__end_array(&j);
	}
	json__break(&j, 0);
	json__end_object(&j);
	fputc('\n', out);
	json__release(&j);
}

/*
 * One CSV table: the lines and the Pareto's entries are rows of it, told apart by the table
 * column ("lines", "entries"); each row fills the columns of its table (an entry's cl_idx is
 * its line's).
 */
static void print_csv(FILE *out, struct report *r, struct c2c_view *v)
{
	struct csv csv;

	csv__init(&csv, out, true);
	csv__add_columns(&csv, &v->lines);
	if (!r->o->stats_only)
		csv__add_columns(&csv, &v->entries);
	csv__header(&csv);
	for (size_t i = 0; i < v->lines.nr_rows && !ferror(out); i++)
		csv__row(&csv, &v->lines, v->lines.rows[i]);
	for (size_t i = 0; i < v->lines.nr_rows && !r->o->stats_only && !ferror(out); i++) {
		c2c_view__entries(v, v->lines.rows[i], &v->entries);
		for (size_t k = 0; k < v->entries.nr_rows; k++)
			csv__row(&csv, &v->entries, v->entries.rows[k]);
	}
	csv__release(&csv);
}

/* ---- the command ---- */

/* c2c_load's word while the recording is read (memory that will not last). */
static void report_warn(void *ctx, const char *msg)
{
	(void)ctx;
	cli__error("%s", msg);
}

static int report_run(const struct command *cmd, int argc, char **argv)
{
	struct report_opts o = { .cmd = cmd, .input = "perf.data", .format = FMT_DEFAULT };
	struct report r = { .o = &o };
	struct c2c_load_opts lo = { 0 };
	struct c2c_config cfg = { 0 };
	char err[PERF_FILE_ERRMAX];
	struct c2c_view view = { 0 };
	struct report_fields *rf;
	int rc, ret = EXIT_USAGE;
	int i;

	i = cli__parse(cmd, argc, argv, report_option, &o, &rc);
	if (i < 0) {
		ret = rc;
		goto out_opts;
	}
	if (i < argc) {
		ret = cli__usage_error(cmd, "unexpected argument '%s'", argv[i]);
		goto out_opts;
	}
	/* as perf: the browser on a terminal, text into a pipe or a file */
	if (o.format == FMT_DEFAULT)
		o.format = tui__available() && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO) &&
			   !o.stats_only ? FMT_TUI : FMT_STDIO;
	if (o.format == FMT_TUI && o.stats_only) {
		ret = cli__usage_error(cmd, "--stats prints text: use it with --stdio");
		goto out_opts;
	}

	cfg.display = C2C_DISPLAY_TOT;
	if (o.display) {
		if (!strcmp(o.display, "tot"))
			cfg.display = C2C_DISPLAY_TOT;
		else if (!strcmp(o.display, "lcl"))
			cfg.display = C2C_DISPLAY_LCL;
		else if (!strcmp(o.display, "rmt"))
			cfg.display = C2C_DISPLAY_RMT;
		else if (!strcmp(o.display, "peer"))
			cfg.display = C2C_DISPLAY_PEER;
		else {
			ret = cli__usage_error(cmd, "-d: unknown display '%s' (tot, lcl, rmt, peer)",
					       o.display);
			goto out_opts;
		}
	}
	if (parse_coalesce(cmd, o.coalesce ? o.coalesce : "iaddr", &cfg))
		goto out_opts;
	r.grouping = xasprintf("offset,%s", o.coalesce ? o.coalesce : "iaddr");

	lo = (struct c2c_load_opts){
		.input = o.input, .vmlinux = o.vmlinux, .symfs = o.symfs, .filter = &o.filter,
		.cfg = cfg, .display_set = o.display != NULL, .line_size = (unsigned int)o.line_size,
		.double_cl = o.double_cl, .show_all = o.show_all, .node_info = o.node_info,
		.fields = (o.fields || o.format == FMT_JSON) && !o.stats_only, .fattr = &o.fattr,
		.warn = report_warn,
	};
	o.fattr.vmlinux = o.vmlinux;
	o.fattr.symfs = o.symfs;
	rc = c2c_load__run(&r.ld, &lo, err, sizeof(err));
	rf = c2c_load__fields(r.ld);
	if (rf)
		cli__attr_warnings(report_fields__attr(rf));
	if (rc < 0) {
		cli__error("%s", err);
		if (rc == -ENOMEM)
			ret = EXIT_RUNTIME;	/* the recording is fine, memory ran short */
		goto out;
	}
	if (session__callchain_mode(c2c_load__session(r.ld)) == SESSION_CC_UNSUPPORTED &&
	    !o.stats_only)
		cli__error("%s: the call chains are DWARF or LBR ones; perf c2c report unwinds "
			   "them into call graphs under the Pareto rows, lineup report does not (the "
			   "numbers are the same)", o.input);
	r.c2c = c2c_load__c2c(r.ld);
	r.h = c2c_load__header(r.ld);

	/* Filters that let nothing through: nothing found, said, not empty tables and exit 0. */
	if ((o.filter.has_time || o.filter.nr_pids || o.filter.nr_tids || o.filter.nr_cpus ||
	     o.filter.nr_comms) && !c2c__total(r.c2c)->nr_entries) {
		cli__error("report: no sample of %s passes%s%s%s%s%s: nothing found", o.input,
			   o.filter.has_time ? " --time" : "", o.filter.nr_pids ? " --pid" : "",
			   o.filter.nr_tids ? " --tid" : "", o.filter.nr_cpus ? " --cpu" : "",
			   o.filter.nr_comms ? " --comm" : "");
		ret = EXIT_NOTHING;
		goto out;
	}
	if (!o.stats_only) {
		c2c__resolve(r.c2c, c2c_load__resolver(r.ld),
			     c2c_view__wants_source(r.c2c, o.no_source));
	}
	if (o.format == FMT_TUI) {
		/* the structs below the lines, read with the same options when first asked */
		struct suggest_load_opts so = {
			.input = o.input, .attr = &o.fattr, .filter = &o.filter,
			.line_size = (unsigned int)o.line_size, .double_cl = o.double_cl,
			.max_growth = UINT64_MAX, .style = -1, .by_name = true,
		};
		struct tui_report tr = {
			.input = o.input, .c = r.c2c, .resolver = c2c_load__resolver(r.ld),
			.full_symbols = o.full_symbols, .no_source = o.no_source,
			.add_columns = rf ? fields_columns : NULL, .source = c2c_load__source,
			.ctx = r.ld, .structs = &so,
		};

		if (tui__report(&tr, err, sizeof(err)) < 0) {
			cli__error("%s", err);
			ret = EXIT_USAGE;
			goto out;
		}
		ret = EXIT_OK;
		goto out;
	}
	/* after resolve: the Data address header spans the Node column, whose width it found */
	c2c_view__init(&view, r.c2c, o.format == FMT_STDIO, o.full_symbols, o.no_source);
	if (rf && !o.stats_only) {
		report_fields__add_columns(rf, &view, r.c2c, false);
		cli__attr_warnings(report_fields__attr(rf));
	}
	switch (o.format) {
	case FMT_STDIO:
		print_stdio(stdout, &r, &view);
		break;
	case FMT_JSON:
		print_json(stdout, &r, &view);
		break;
	case FMT_CSV:
		print_csv(stdout, &r, &view);
		break;
	default:
		break;
	}
	ret = cli__close_output(stdout, "standard output", EXIT_OK);
out:
	c2c_view__release(&view);
	c2c_load__delete(r.ld);
out_opts:
	free(r.grouping);
	session_filter__release(&o.filter);
	fields_list__release(&o.fattr.debug_files);
	return ret;
}

const struct command cmd_report = {
	.name = "report",
	.summary = "perf c2c's cache-line tables, with perf's numbers (browser, stdio, JSON, CSV)",
	.usage = "[-i FILE] [--tui|--stdio|--json|--csv] [-d MODE] [-c KEYS] [-N] [options]",
	.description = "Read a perf.data recorded with memory samples (perf c2c record, perf mem "
		       "record, lineup record) and print perf c2c report's tables: Trace Event "
		       "Information, Global Shared Cache Line Event Information, the Shared Data "
		       "Cache Line Table and the Shared Cache Line Distribution Pareto.  --stdio "
		       "prints perf c2c report --stdio's layout with the same numbers; --json and "
		       "--csv print the same columns for scripts: --csv as one table whose first "
		       "column, table, says whether a row is a cache line (lines) or a Pareto "
		       "entry (entries, with its line's cl_idx).  On a terminal the same tables "
		       "open in a browser (--tui; ? lists its keys), as perf c2c report does; "
		       "--tui, --stdio, --json and --csv exclude each other.",
	.options = report_options,
	.run = report_run,
};
