// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lineup fields: which struct members the memory samples of a recording touched, by whom, and
 * what kind of sharing each contended cache line shows.
 *
 * The pipeline: read the recording (samples with a data address, the maps, allocation records:
 * the software collector's alloc/free events and the kernel's kmem tracepoints), ask every
 * evidence source about each sample (dwarf/ for the operand type at the IP and for the global
 * variable at the data address, the allocation index, --type hints), let
 * analyzer/attribution.h decide, count in analyzer/fields.h, and print one column table as
 * text, JSON or CSV.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/attribution.h"
#include "analyzer/fields.h"
#include "analyzer/flat_layout.h"
#include "cli/command.h"
#include "cli/fields_attr.h"
#include "sampling/machine.h"
#include "sampling/perf_file.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

enum {
	OPT_INPUT = 'i',
	OPT_VMLINUX = 'k',
	OPT_DEBUG_FILE = 1000,
	OPT_STRUCT,
	OPT_TYPE,
	OPT_CACHE_TYPE,
	OPT_STDIO,
	OPT_JSON,
	OPT_CSV,
	OPT_LINE_SIZE,
	OPT_ALL_MEMBERS,
	OPT_SYMFS,
	OPT_DOUBLE_CL,
};

static const struct cli_option fields_options[] = {
	{ OPT_INPUT, 'i', "input", "FILE", "the recording to read (default perf.data; - for stdin)" },
	{ OPT_VMLINUX, 'k', "vmlinux", "FILE", "kernel image with debug info, for kernel samples" },
	{ OPT_DEBUG_FILE, 0, "debug-file", "FILE",
	  "an object with debug info to take types from (a .ko, a binary; repeatable)" },
	{ OPT_STRUCT, 0, "struct", "NAME", "show only this struct ('file' or 'struct file')" },
	{ OPT_TYPE, 0, "type", "'struct T'@ADDR",
	  "hint: an instance of type T lives at ADDR (the weakest evidence; repeatable)" },
	{ OPT_CACHE_TYPE, 0, "cache-type", "NAME=TYPE",
	  "objects of kmem cache NAME are of TYPE (adds to the built-in table; repeatable)" },
	{ OPT_LINE_SIZE, 0, "line-size", "N", "cache-line size (default: the recording's, else 64)" },
	{ OPT_DOUBLE_CL, 0, "double-cl", NULL,
	  "lines of twice the size: the adjacent-line prefetcher's 128-byte pairs" },
	{ OPT_ALL_MEMBERS, 0, "all-members", NULL,
	  "list nested members that nothing touched too (default: top-level ones and touched ones)" },
	{ OPT_SYMFS, 0, "symfs", "DIR", "look for objects under DIR (perf's --symfs)" },
	{ OPT_STDIO, 0, "stdio", NULL, "print text tables (the default)" },
	{ OPT_JSON, 0, "json", NULL, "print JSON" },
	{ OPT_CSV, 0, "csv", NULL, "print the member table as CSV" },
	CLI_OPTION_END
};

enum out_format { OUT_STDIO, OUT_JSON, OUT_CSV };

struct fields_opts {
	const char *input;
	const char *only_struct;
	struct fields_attr_opts attr;
	enum out_format format;
	const char *format_opt;		/* the format option given, for cli__output_format */
	unsigned long long line_size;
	bool all_members;
	bool double_cl;
	const struct command *cmd;
};

static int fields_option(void *ctx, int id, const char *arg)
{
	struct fields_opts *o = ctx;

	switch (id) {
	case OPT_INPUT:
		o->input = arg;
		break;
	case OPT_VMLINUX:
		o->attr.vmlinux = arg;
		break;
	case OPT_SYMFS:
		o->attr.symfs = arg;
		break;
	case OPT_DEBUG_FILE:
		fields_list__add(&o->attr.debug_files, arg);
		break;
	case OPT_STRUCT:
		o->only_struct = arg;
		break;
	case OPT_TYPE:
		if (fields_attr__check_hint(arg))
			return cli__usage_error(o->cmd, "--type: '%s' %s", arg,
						fields_attr__check_hint(arg));
		fields_list__add(&o->attr.hints, arg);
		break;
	case OPT_CACHE_TYPE:
		if (!strchr(arg, '=') || arg[0] == '=' || !strchr(arg, '=')[1])
			return cli__usage_error(o->cmd, "--cache-type: '%s' is not NAME=TYPE", arg);
		fields_list__add(&o->attr.cache_types, arg);
		break;
	case OPT_LINE_SIZE:
		if (cli__parse_u64(o->cmd, "--line-size", arg, &o->line_size))
			return EXIT_USAGE;
		if (o->line_size < 8 || o->line_size > 4096 || (o->line_size & (o->line_size - 1)))
			return cli__usage_error(o->cmd, "--line-size: %s is not a power of two "
						"between 8 and 4096", arg);
		break;
	case OPT_ALL_MEMBERS:
		o->all_members = true;
		break;
	case OPT_DOUBLE_CL:
		o->double_cl = true;
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


struct fields_ctx {
	struct fields_opts *o;
	const char *input;
	struct perf_file *pf;
	struct machine *machine;
	struct fields_attr *fa;
	struct fields *fields;
	/* Samples with a data address: counted; kept only when the input is a pipe. */
	bool stream;
	struct fields_sample *samples;
	size_t nr_samples, cap_samples;
	/* Loads served by another core's cache without a HITM class (Arm SPE's peer sources). */
	size_t nr_peer;
};

static void sample__fields(const struct sample *s, struct fields_sample *fs)
{
	*fs = (struct fields_sample){
		.ip = s->ip, .addr = s->addr, .time = s->time,
		.weight = s->present & (SF_WEIGHT | SF_WEIGHT_STRUCT) ? s->weight : 0,
		.data_src = s->present & SF_DATA_SRC ? s->data_src : 0,
		.pid = s->pid, .tid = s->tid,
		.cpu = s->present & SF_CPU ? s->cpu : 0, .cpumode = s->cpumode,
	};
}

/* A memory sample of the recording (not an allocation record, not the collector's counts). */
static bool is_mem_sample(struct fields_ctx *c, const struct record *rec, bool side)
{
	const struct perf_header_info *h = perf_file__header(c->pf);

	if (rec->type != REC_SAMPLE)
		return false;
	if (side)
		return !fields_attr__side_sample(c->fa, h, &rec->sample) &&
		       (rec->sample.present & SF_ADDR);
	return !fields_attr__is_side_sample(h, &rec->sample) && (rec->sample.present & SF_ADDR);
}

/*
 * First pass: the maps, the allocation records and the collector's counts, all of which a
 * sample may need that comes before them in the file.  A regular file is read again for the
 * samples (memory stays bounded by the tables, not by the recording); a pipe cannot be, so
 * its samples are kept.
 */
static int read_recording(struct fields_ctx *c)
{
	struct record rec;
	char err[PERF_FILE_ERRMAX];
	int rc;

	c->stream = strcmp(c->input, "-") != 0;
	if (perf_file__open(&c->pf, c->input, err, sizeof(err)) < 0) {
		cli__error("%s", err);
		return EXIT_USAGE;
	}
	fields_attr__header(c->fa, perf_file__header(c->pf), c->input);
	while ((rc = perf_file__next_record(c->pf, &rec)) > 0) {
		if (rec.type != REC_SAMPLE) {
			machine__process_record(c->machine, &rec);
			continue;
		}
		if (!is_mem_sample(c, &rec, true))
			continue;
		c->nr_samples++;
		if (c->stream)
			continue;
		c->samples = xgrow(c->samples, &c->cap_samples, c->nr_samples, sizeof(*c->samples));
		sample__fields(&rec.sample, &c->samples[c->nr_samples - 1]);
	}
	if (rc < 0) {
		cli__error("%s", perf_file__errmsg(c->pf));
		return EXIT_USAGE;
	}
	return 0;
}

static void attribute_one(struct fields_ctx *c, const struct fields_sample *ms)
{
	struct attr_result res;
	struct fields_access a = { 0 };

	fields_attr__resolve(c->fa, ms, &res);
	a.ip = ms->ip;
	a.addr = ms->addr;
	a.time = ms->time;
	a.weight = ms->weight;
	a.cpu = ms->cpu;
	a.tid = ms->tid;
	if (fields_access__classify(&a, ms->data_src, ms->addr))
		c->nr_peer++;	/* said in the header */
	fields__add(c->fields, &res, &a);
}

/* Second pass: every memory sample, attributed and counted. */
static int attribute_samples(struct fields_ctx *c)
{
	struct record rec;
	char err[PERF_FILE_ERRMAX];
	int rc;

	if (!c->stream) {
		for (size_t i = 0; i < c->nr_samples; i++)
			attribute_one(c, &c->samples[i]);
		fields__finish(c->fields);
		return 0;
	}
	perf_file__close(c->pf);
	c->pf = NULL;
	if (perf_file__open(&c->pf, c->input, err, sizeof(err)) < 0) {
		cli__error("%s", err);
		return EXIT_USAGE;
	}
	while ((rc = perf_file__next_record(c->pf, &rec)) > 0) {
		struct fields_sample fs;

		if (!is_mem_sample(c, &rec, false))
			continue;
		sample__fields(&rec.sample, &fs);
		attribute_one(c, &fs);
	}
	if (rc < 0) {
		cli__error("%s", perf_file__errmsg(c->pf));
		return EXIT_USAGE;
	}
	fields__finish(c->fields);
	return 0;
}

/* --- output: one column table for text, JSON and CSV --- */

struct row {
	const struct field_struct *fs;
	const struct flat_member *m;	/* NULL: the "<holes/padding>" row */
	const struct field_stats *st;
	unsigned int line_size;
	struct fields_ctx *c;
};

enum col_kind { COL_NUM, COL_TEXT, COL_FLOAT };

struct column {
	const char *header;
	const char *key;	/* JSON and CSV */
	int width;		/* text width; negative: left-aligned */
	enum col_kind kind;
	/* Fill either *num or @sb. */
	void (*get)(const struct row *r, uint64_t *num, double *fl, struct strbuf *sb);
};

static void col_offset(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->m ? r->m->offset : 0;
}

static void col_size(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->m ? r->m->size : 0;
}

static void col_line(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->m ? r->m->offset / r->line_size : 0;
}

static void col_member(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	if (!r->m) {
		strbuf__addf(sb, "<holes/padding>");
		return;
	}
	strbuf__addf(sb, "%s", r->m->path);
	if (r->m->bit_size)
		strbuf__addf(sb, ":%u", r->m->bit_size);
}

static void col_type(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	strbuf__addf(sb, "%s", r->m ? r->m->type : "");
}

static void col_loads(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->st->loads;
}

static void col_stores(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->st->stores;
}

static void col_locked(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->st->locked;
}

static void col_lcl_hitm(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->st->lcl_hitm;
}

static void col_rmt_hitm(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->st->rmt_hitm;
}

static void col_cycles(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*f = r->st->weighted ? (double)r->st->weight_sum / (double)r->st->weighted : 0.0;
}

static void col_cpus_r(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->st->cpus_read.nr;
}

static void col_cpus_w(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->st->cpus_write.nr;
}

static void col_tids_r(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->st->tids_read.nr;
}

static void col_tids_w(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	*n = r->st->tids_write.nr;
}

/* The member's hot-path use, as Documentation/networking/net_cachelines/ tables say it. */
static void col_use(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	const struct field_stats *st = r->st;

	if (!st->loads && !st->writes)
		strbuf__addf(sb, "-");
	else if (field_stats__read_mostly(st))
		strbuf__addf(sb, "read-mostly");
	else if (!st->loads && !st->locked)	/* an RMW reads as well */
		strbuf__addf(sb, "write-only");
	else
		strbuf__addf(sb, "read-write");
}

static void col_code(const struct row *r, uint64_t *n, double *f, struct strbuf *sb)
{
	for (size_t i = 0; i < r->st->nr_ips && i < 3; i++) {
		if (i)
			strbuf__add(sb, "; ", 2);
		fields_attr__name_ip(r->c->fa, r->st->ips[i].ip, sb);
	}
	if (r->st->nr_ips > 3)
		strbuf__addf(sb, "; +%zu more", r->st->nr_ips - 3);
}

static const struct column member_columns[] = {
	{ "Offset", "offset", 6, COL_NUM, col_offset },
	{ "Size", "size", 5, COL_NUM, col_size },
	{ "CL", "cacheline", 3, COL_NUM, col_line },
	{ "Member", "member", -24, COL_TEXT, col_member },
	{ "Use", "use", -11, COL_TEXT, col_use },
	{ "Type", "type", 0, COL_TEXT, col_type },	/* JSON/CSV only (width 0) */
	{ "Loads", "loads", 7, COL_NUM, col_loads },
	{ "Stores", "stores", 7, COL_NUM, col_stores },
	{ "Locked", "locked", 6, COL_NUM, col_locked },
	{ "LclHITM", "lcl_hitm", 7, COL_NUM, col_lcl_hitm },
	{ "RmtHITM", "rmt_hitm", 7, COL_NUM, col_rmt_hitm },
	{ "Cycles", "mean_cycles", 7, COL_FLOAT, col_cycles },
	{ "CPUr", "cpus_read", 4, COL_NUM, col_cpus_r },
	{ "CPUw", "cpus_write", 4, COL_NUM, col_cpus_w },
	{ "Thr r", "threads_read", 5, COL_NUM, col_tids_r },
	{ "Thr w", "threads_write", 5, COL_NUM, col_tids_w },
	{ "Code", "code", -1, COL_TEXT, col_code },
};
#define NR_MEMBER_COLUMNS (sizeof(member_columns) / sizeof(member_columns[0]))

static void csv_text(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void json_text(FILE *out, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf__add_json(&sb, s);
	fprintf(out, "\"%s\"", sb.buf ? sb.buf : "");
	strbuf__release(&sb);
}

static void print_row(const struct row *r, enum out_format fmt, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	bool first = true;

	if (fmt == OUT_JSON)
		fputs("{", out);
	if (fmt == OUT_CSV) {
		csv_text(out, r->fs->layout->name);
		first = false;
	}
	for (size_t i = 0; i < NR_MEMBER_COLUMNS; i++) {
		const struct column *col = &member_columns[i];
		uint64_t n = 0;
		double f = 0;

		if (fmt == OUT_STDIO && !col->width)
			continue;
		strbuf__reset(&sb);
		if (fmt == OUT_STDIO && col->get == col_member && r->m)
			for (int d = 0; d < r->m->depth; d++)
				strbuf__add(&sb, "  ", 2);	/* nesting, as pahole indents */
		col->get(r, &n, &f, &sb);
		if (col->kind == COL_TEXT && !sb.buf)
			strbuf__add(&sb, "", 0);
		switch (fmt) {
		case OUT_STDIO:
			if (!first)
				fputc(' ', out);
			if (col->kind == COL_NUM)
				fprintf(out, "%*" PRIu64, col->width, n);
			else if (col->kind == COL_FLOAT)
				fprintf(out, "%*.0f", col->width, f);
			else if (i + 1 == NR_MEMBER_COLUMNS)
				fprintf(out, "%s", sb.buf);
			else
				fprintf(out, "%*s", col->width, sb.buf);
			break;
		case OUT_CSV:
			fputc(',', out);
			if (col->kind == COL_NUM)
				fprintf(out, "%" PRIu64, n);
			else if (col->kind == COL_FLOAT)
				fprintf(out, "%.1f", f);
			else
				csv_text(out, sb.buf);
			break;
		case OUT_JSON:
			fprintf(out, "%s\"%s\":", first ? "" : ",", col->key);
			if (col->kind == COL_NUM)
				fprintf(out, "%" PRIu64, n);
			else if (col->kind == COL_FLOAT)
				fprintf(out, "%.1f", f);
			else
				json_text(out, sb.buf);
			break;
		}
		first = false;
	}
	fputs(fmt == OUT_JSON ? "}" : "\n", out);
	strbuf__release(&sb);
}

static void print_header(enum out_format fmt, FILE *out)
{
	bool first = true;

	if (fmt == OUT_CSV)
		fputs("struct", out);
	for (size_t i = 0; i < NR_MEMBER_COLUMNS; i++) {
		const struct column *col = &member_columns[i];

		if (fmt == OUT_STDIO) {
			if (!col->width)
				continue;
			if (!first)
				fputc(' ', out);
			if (i + 1 == NR_MEMBER_COLUMNS)
				fputs(col->header, out);
			else
				fprintf(out, "%*s", col->width, col->header);
		} else {
			fprintf(out, ",%s", col->key);
		}
		first = false;
	}
	fputc('\n', out);
}

static bool member_touched(const struct field_stats *st)
{
	return st->loads || st->stores || st->writes;
}

/* Which members to list: top-level ones always, nested ones when touched (or --all-members). */
static bool member_shown(const struct fields_ctx *c, const struct field_struct *fs, unsigned i)
{
	const struct flat_member *m = &fs->layout->members[i];

	if (c->o->all_members || m->depth == 0 || member_touched(&fs->members[i]))
		return true;
	/* A container whose nested member was touched, so the path reads top-down. */
	for (unsigned k = i + 1; k < fs->layout->nr_members; k++) {
		const struct flat_member *n = &fs->layout->members[k];

		if (n->offset >= m->offset + m->size || n->depth <= m->depth)
			break;
		if (member_touched(&fs->members[k]))
			return true;
	}
	return false;
}

static bool struct_selected(const struct fields_ctx *c, const struct field_struct *fs)
{
	return !c->o->only_struct || flat_layout__same_type(fs->layout->name, c->o->only_struct) ||
	       !strcmp(fields_attr__strip_tag(fs->layout->name), fields_attr__strip_tag(c->o->only_struct));
}

/* A line concerns the selected struct when one of its slots is of it. */
static bool line_selected(const struct fields_ctx *c, const struct field_line *l)
{
	if (!c->o->only_struct)
		return true;
	for (size_t i = 0; i < l->nr_slots; i++)
		if (l->slots[i].layout &&
		    (flat_layout__same_type(l->slots[i].layout->name, c->o->only_struct) ||
		     !strcmp(fields_attr__strip_tag(l->slots[i].layout->name), fields_attr__strip_tag(c->o->only_struct))))
			return true;
	return false;
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static void print_attr_text(const char *what, const struct attr_stats *st, FILE *out)
{
	uint64_t resolved = 0;

	for (int k = ATTR_NONE + 1; k < ATTR__NR; k++)
		resolved += st->by_kind_weight[k];
	fprintf(out, "# %s: %" PRIu64 ", attributed %" PRIu64 " (%.1f%%)", what, st->weight,
		resolved, pct(resolved, st->weight));
	for (int k = ATTR__NR - 1; k > ATTR_NONE; k--)
		if (st->by_kind_weight[k])
			fprintf(out, ", %s %.1f%%", attr_evidence__name(k),
				pct(st->by_kind_weight[k], st->weight));
	fputc('\n', out);
	for (int r = 1; r < ATTR__REASONS; r++)
		if (st->unresolved_weight[r])
			fprintf(out, "#   unresolved %.1f%% (%" PRIu64 "): %s\n",
				pct(st->unresolved_weight[r], st->weight), st->unresolved_weight[r],
				attr_reason__text(r));
}

static void print_attr_json(const char *key, const struct attr_stats *st, FILE *out)
{
	fprintf(out, "\"%s\":{\"total\":%" PRIu64 ",\"share\":%.4f,\"by_evidence\":{", key,
		st->weight, attr_stats__resolved_share(st));
	for (int k = ATTR_NONE + 1, n = 0; k < ATTR__NR; k++)
		fprintf(out, "%s\"%s\":%" PRIu64, n++ ? "," : "", attr_evidence__name(k),
			st->by_kind_weight[k]);
	fputs("},\"unresolved\":{", out);
	for (int r = 1, n = 0; r < ATTR__REASONS; r++)
		if (st->unresolved_weight[r])
			fprintf(out, "%s\"%s\":%" PRIu64, n++ ? "," : "", attr_reason__id(r),
				st->unresolved_weight[r]);
	fputs("}}", out);
}

/* The attributed slot that places a line within its struct, or NULL (unattributed bytes). */
static const struct line_slot *line_key(const struct field_line *l)
{
	for (size_t i = 0; i < l->nr_slots; i++)
		if (l->slots[i].layout)
			return &l->slots[i];
	return NULL;
}

/* Two lines at the same offset of two instances of the same struct. */
static bool same_line(const struct field_line *a, const struct field_line *b)
{
	const struct line_slot *x = line_key(a), *y = line_key(b);

	return x && y && x->layout == y->layout && a->addr - x->base == b->addr - y->base;
}

/* "evidence: operand 97.0%, allocation 3.0%" for one struct. */
static void print_evidence(const struct field_struct *fs, FILE *out)
{
	uint64_t n = 0;
	int k, first = 1;

	for (k = ATTR_NONE + 1; k < ATTR__NR; k++)
		n += fs->by_kind[k];
	fputs("evidence:", out);
	for (k = ATTR__NR - 1; k > ATTR_NONE; k--)
		if (fs->by_kind[k]) {
			fprintf(out, "%s %s %.1f%%", first ? "" : ",", attr_evidence__name(k),
				pct(fs->by_kind[k], n));
			first = 0;
		}
	fputc('\n', out);
}

static void print_stdio(struct fields_ctx *c, FILE *out)
{
	struct fields *f = c->fields;
	struct strbuf sb = STRBUF_INIT;
	int shown = 0;

	fprintf(out, "# lineup fields: %s, %zu samples with a data address, %u-byte lines\n",
		c->input, c->nr_samples, f->line_size);
	print_attr_text("HITM samples", &f->attr_hitm, out);
	if (c->nr_peer)
		fprintf(out, "#   of which %zu peer loads (from another core's cache, state not "
			"reported: Arm SPE), counted as HITMs\n", c->nr_peer);
	print_attr_text("all samples", &f->attr_all, out);
	{
		const struct fields_rmw *rmw;
		size_t nr_rmw = fields_attr__rmw(c->fa, &rmw);

		if (fields_attr__nr_allocs(c->fa) || nr_rmw)
			fprintf(out, "# allocation records: %zu; IPs with RMW counts: %zu\n",
				fields_attr__nr_allocs(c->fa), nr_rmw);
	}
	for (size_t i = 0; i < f->nr_structs; i++) {
		const struct field_struct *fs = &f->structs[i];

		if (!struct_selected(c, fs))
			continue;
		fprintf(out, "\n%s (size %" PRIu64 ", %" PRIu64 " cache line%s, %" PRIu64
			" instance%s; %" PRIu64 " HITM, %" PRIu64 " loads, %" PRIu64 " stores)\n",
			fs->layout->name, fs->layout->size,
			(fs->layout->size + f->line_size - 1) / f->line_size,
			(fs->layout->size + f->line_size - 1) / f->line_size == 1 ? "" : "s",
			fs->nr_instances, fs->nr_instances == 1 ? "" : "s",
			field_stats__hitm(&fs->total), fs->total.loads, fs->total.stores);
		print_evidence(fs, out);
		print_header(OUT_STDIO, out);
		for (unsigned m = 0, line = 0; m < fs->layout->nr_members; m++) {
			struct field_stats st;
			struct row r = { fs, &fs->layout->members[m], &st, f->line_size, c };
			unsigned cl = (unsigned)(fs->layout->members[m].offset / f->line_size);

			if (!member_shown(c, fs, m))
				continue;
			if (cl != line) {	/* pahole's marker, so the lines read at a glance */
				fprintf(out, "%*s/* --- cacheline %u boundary (%u bytes) --- */\n", 16,
					"", cl, cl * f->line_size);
				line = cl;
			}
			field_struct__rollup(fs, m, &st);	/* containers sum their members */
			print_row(&r, OUT_STDIO, out);
			field_stats__release(&st);
		}
		if (member_touched(&fs->members[fs->layout->nr_members])) {
			struct row r = { fs, NULL, &fs->members[fs->layout->nr_members],
					 f->line_size, c };

			print_row(&r, OUT_STDIO, out);
		}
		shown++;
	}
	fprintf(out, "\n# contended cache lines\n");
	for (size_t i = 0; i < f->nr_lines; i++) {
		const struct field_line *l = &f->lines[i];
		const struct line_slot *key = line_key(l);
		size_t same = 0, verdicts[LINE_WRITE_READ + 1] = { 0 };
		bool seen = false;

		if (l->verdict == LINE_QUIET || !line_selected(c, l))
			continue;
		/*
		 * Many instances of one struct (every struct file of a kernel recording) give
		 * the same line again and again: explain the hottest (lines are sorted by
		 * HITMs), count the others.
		 */
		for (size_t k = 0; k < i && key && !seen; k++)
			seen = f->lines[k].verdict != LINE_QUIET && same_line(&f->lines[k], l);
		if (seen)
			continue;
		for (size_t k = i + 1; k < f->nr_lines && key; k++)
			if (f->lines[k].verdict != LINE_QUIET && same_line(&f->lines[k], l)) {
				same++;
				verdicts[f->lines[k].verdict]++;
			}
		strbuf__reset(&sb);
		fields__explain_line(f, l, fields_attr__name_ip, c->fa, &sb);
		fprintf(out, "\n%s", sb.buf);
		if (same)
			fprintf(out, "  and %zu more line%s at the same offsets of other %s instances "
				"(%zu false sharing, %zu true sharing, %zu one writer)\n", same,
				same == 1 ? "" : "s", key->layout->name,
				verdicts[LINE_FALSE_SHARING], verdicts[LINE_TRUE_SHARING],
				verdicts[LINE_WRITE_READ]);
	}
	strbuf__release(&sb);
}

static void print_json(struct fields_ctx *c, FILE *out)
{
	struct fields *f = c->fields;
	struct strbuf sb = STRBUF_INIT;
	int ns = 0, nl = 0;

	fputs("{\"input\":", out);
	json_text(out, c->input);
	fprintf(out, ",\"line_size\":%u,\"samples\":%zu,\"peer_loads_as_hitm\":%zu,"
		"\"attribution\":{", f->line_size, c->nr_samples, c->nr_peer);
	print_attr_json("hitm", &f->attr_hitm, out);
	fputc(',', out);
	print_attr_json("all", &f->attr_all, out);
	fputc(',', out);
	print_attr_json("cycles", &f->attr_cycles, out);
	fputs("},\"structs\":[", out);
	for (size_t i = 0; i < f->nr_structs; i++) {
		const struct field_struct *fs = &f->structs[i];
		int nm = 0;

		if (!struct_selected(c, fs))
			continue;
		fprintf(out, "%s{\"type\":", ns++ ? "," : "");
		json_text(out, fs->layout->name);
		fprintf(out, ",\"size\":%" PRIu64 ",\"instances\":%" PRIu64 ",\"evidence\":{",
			fs->layout->size, fs->nr_instances);
		for (int k = ATTR_NONE + 1, n = 0; k < ATTR__NR; k++)
			fprintf(out, "%s\"%s\":%" PRIu64, n++ ? "," : "", attr_evidence__name(k),
				fs->by_kind[k]);
		fputs("},\"hottest_instances\":[", out);
		for (size_t k = 0; k < fs->nr_instances && k < 10; k++)
			fprintf(out, "%s{\"addr\":\"%#" PRIx64 "\",\"samples\":%" PRIu64
				",\"hitm\":%" PRIu64 ",\"stores\":%" PRIu64 "}", k ? "," : "",
				fs->instances[k].base, fs->instances[k].samples,
				fs->instances[k].hitm, fs->instances[k].stores);
		fputs("],\"members\":[", out);
		for (unsigned m = 0; m <= fs->layout->nr_members; m++) {
			struct field_stats st = { 0 };
			struct row r = { fs, m < fs->layout->nr_members ? &fs->layout->members[m] : NULL,
					 &fs->members[m], f->line_size, c };

			if (m < fs->layout->nr_members ? !member_shown(c, fs, m) :
							 !member_touched(&fs->members[m]))
				continue;
			if (m < fs->layout->nr_members) {
				field_struct__rollup(fs, m, &st);
				r.st = &st;
			}
			fputs(nm++ ? "," : "", out);
			print_row(&r, OUT_JSON, out);
			field_stats__release(&st);
		}
		fputs("]}", out);
	}
	fputs("],\"lines\":[", out);
	for (size_t i = 0; i < f->nr_lines; i++) {
		const struct field_line *l = &f->lines[i];

		if (l->verdict == LINE_QUIET || !line_selected(c, l))
			continue;
		fprintf(out, "%s{\"addr\":\"%#" PRIx64 "\",\"verdict\":", nl++ ? "," : "", l->addr);
		json_text(out, line_verdict__name(l->verdict));
		fprintf(out, ",\"hitm\":%" PRIu64 ",\"writes\":%" PRIu64 ",\"loads\":%" PRIu64
			",\"writer_cpus\":%u,\"writer_groups\":%u,\"victims\":%u,\"slots\":[",
			field_stats__hitm(&l->st), l->st.writes, l->st.loads, l->writer_cpus,
			l->nr_groups, l->victims);
		for (size_t k = 0; k < l->nr_slots; k++) {
			const struct line_slot *s = &l->slots[k];

			fprintf(out, "%s{\"type\":", k ? "," : "");
			json_text(out, s->layout ? s->layout->name : "");
			fputs(",\"member\":", out);
			json_text(out, s->layout ? s->path : "");
			fprintf(out, ",\"instance\":\"%#" PRIx64 "\",\"offset\":%u,\"loads\":%" PRIu64
				",\"stores\":%" PRIu64 ",\"writes\":%" PRIu64 ",\"locked\":%" PRIu64
				",\"hitm\":%" PRIu64
				",\"cpus_read\":%u,\"cpus_write\":%u,\"group\":%d,\"victim\":%s"
				",\"true_shared\":%s,\"redundant_rmw\":%" PRIu64 ",\"rmw\":%" PRIu64 "}",
				s->base, s->offset, s->st.loads, s->st.stores, s->st.writes, s->st.locked,
				field_stats__hitm(&s->st), s->st.cpus_read.nr, s->st.cpus_write.nr,
				s->group, s->victim ? "true" : "false",
				(int)k == l->true_shared ? "true" : "false", s->redundant_rmw,
				s->rmw_checked);
		}
		strbuf__reset(&sb);
		fields__explain_line(f, l, fields_attr__name_ip, c->fa, &sb);
		fputs("],\"explanation\":", out);
		json_text(out, sb.buf ? sb.buf : "");
		fputs("}", out);
	}
	fputs("]}\n", out);
	strbuf__release(&sb);
}

static void print_csv(struct fields_ctx *c, FILE *out)
{
	struct fields *f = c->fields;

	print_header(OUT_CSV, out);
	for (size_t i = 0; i < f->nr_structs; i++) {
		const struct field_struct *fs = &f->structs[i];

		if (!struct_selected(c, fs))
			continue;
		for (unsigned m = 0; m <= fs->layout->nr_members; m++) {
			struct field_stats st = { 0 };
			struct row r = { fs, m < fs->layout->nr_members ? &fs->layout->members[m] : NULL,
					 &fs->members[m], f->line_size, c };

			if (m < fs->layout->nr_members ? !member_shown(c, fs, m) :
							 !member_touched(&fs->members[m]))
				continue;
			if (m < fs->layout->nr_members) {
				field_struct__rollup(fs, m, &st);
				r.st = &st;
			}
			print_row(&r, OUT_CSV, out);
			field_stats__release(&st);
		}
	}
}

/* --struct NAME that matched nothing: does it exist at all?  Say so, with the closest names. */
static int wrong_struct(struct fields_ctx *c)
{
	const char *tag = fields_attr__strip_tag(c->o->only_struct);
	const char *close[5];
	int n;

	if (fields_attr__has_struct(c->fa, tag)) {
		cli__error("%s: no sample was attributed to struct %s", c->input, tag);
		return EXIT_NOTHING;
	}
	n = fields_attr__closest(c->fa, tag, close, 5);
	for (size_t i = 0; !n && i < c->fields->nr_structs && n < 5; i++)
		close[n++] = fields_attr__strip_tag(c->fields->structs[i].layout->name);
	fprintf(stderr, "lineup: no struct named '%s' in the debug info at hand", tag);
	if (n) {
		fputs("; closest:", stderr);
		for (int i = 0; i < n; i++)
			fprintf(stderr, "%s %s", i ? "," : "", close[i]);
	}
	fputc('\n', stderr);
	return EXIT_NOTHING;
}

/* --type 'TYPE'@ADDR whose TYPE no object at hand defines: a typo, or the wrong objects. */
static int unknown_hint(struct fields_ctx *c, const char *hint)
{
	const char *at = strrchr(hint, '@');
	char *type = xstrndup(hint, (size_t)(at - hint));
	const char *close[5];
	int n = fields_attr__closest(c->fa, type, close, 5);

	fprintf(stderr, "lineup: --type '%s': unknown type '%s' (no object at hand defines it",
		hint, type);
	for (int i = 0; i < n; i++)
		fprintf(stderr, "%s %s", i ? "," : "; closest:", close[i]);
	fputs(")\n", stderr);
	free(type);
	return EXIT_USAGE;
}

static bool struct_found(const struct fields_ctx *c)
{
	for (size_t i = 0; i < c->fields->nr_structs; i++)
		if (struct_selected(c, &c->fields->structs[i]))
			return true;
	return false;
}

static void ctx_release(struct fields_ctx *c)
{
	free(c->samples);
	if (c->fields)
		fields__delete(c->fields);
	fields_attr__delete(c->fa);
	if (c->machine)
		machine__delete(c->machine);
	if (c->pf)
		perf_file__close(c->pf);
}

static int fields_run(const struct command *cmd, int argc, char **argv)
{
	struct fields_opts o = { .input = "perf.data", .cmd = cmd };
	struct fields_ctx c = { .o = &o };
	const struct perf_header_info *h;
	const struct fields_rmw *rmw;
	size_t nr_rmw;
	char err[4096];
	int rc, i = cli__parse(cmd, argc, argv, fields_option, &o, &rc);

	if (i < 0)
		goto out_opts;
	if (i < argc) {
		rc = cli__usage_error(cmd, "unexpected argument '%s'", argv[i]);
		goto out_opts;
	}
	c.input = o.input;
	c.machine = machine__new();
	if (fields_attr__new(&c.fa, &o.attr, c.machine, err, sizeof(err)) < 0) {
		cli__error("%s", err);
		rc = EXIT_USAGE;
		goto out;
	}
	rc = read_recording(&c);
	if (rc)
		goto out;
	h = perf_file__header(c.pf);
	c.fields = fields__new((o.line_size ? (unsigned)o.line_size :
				h->cache_line_size ? h->cache_line_size : 64) << (o.double_cl ? 1 : 0));
	nr_rmw = fields_attr__rmw(c.fa, &rmw);
	for (size_t k = 0; k < nr_rmw; k++)
		fields__add_rmw(c.fields, rmw[k].ip, rmw[k].total, rmw[k].redundant);
	if (!c.nr_samples) {
		cli__error("%s: no sample carries a data address (record with perf c2c record, "
			   "perf mem record, or lineup record)", c.input);
		rc = EXIT_NOTHING;
		goto out;
	}
	rc = attribute_samples(&c);
	if (rc)
		goto out;
	if (fields_attr__unknown_hint(c.fa)) {
		rc = unknown_hint(&c, fields_attr__unknown_hint(c.fa));
		goto out;
	}
	if (o.only_struct && !struct_found(&c)) {
		rc = wrong_struct(&c);
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
	rc = c.fields->nr_structs ? EXIT_OK : EXIT_NOTHING;
	if (rc == EXIT_NOTHING)
		cli__error("%s: no sample could be tied to a struct member (see the reasons above)",
			   c.input);
out:
	ctx_release(&c);
out_opts:
	fields_list__release(&o.attr.debug_files);
	fields_list__release(&o.attr.hints);
	fields_list__release(&o.attr.cache_types);
	return rc;
}

const struct command cmd_fields = {
	.name = "fields",
	.summary = "which struct members the samples touch, who writes them, what sharing it is",
	.usage = "[-i FILE] [-k VMLINUX] [--debug-file F ...] [--struct NAME] "
		 "[--type 'struct T'@ADDR] [--cache-type NAME=TYPE] [--stdio|--json|--csv]",
	.description =
		"Tie every memory sample to a struct type, member and instance by the strongest "
		"evidence at hand (the type of the instruction's memory operand at the IP, a global "
		"or per-CPU variable, an allocation record from kmem tracepoints or the software "
		"collector, a --type hint), then list each struct's members with loads, stores, "
		"local and remote HITMs, mean cycles, the CPUs and threads reading and writing them "
		"and the code touching them, and give each contended cache line a verdict: false "
		"sharing, true sharing (with the per-CPU counter advice and how often the summing "
		"reads run), read-mostly victims, and test-before-set for locked RMWs that find the "
		"bits already set.  What stays unresolved is reported with its share and reason.",
	.options = fields_options,
	.run = fields_run,
};
