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

#include "analyzer/array_align.h"
#include "analyzer/attribution.h"
#include "analyzer/fields.h"
#include "analyzer/fields_table.h"
#include "analyzer/fields_view.h"
#include "analyzer/flat_layout.h"
#include "cli/command.h"
#include "cli/output.h"
#include "pipeline/fields_attr.h"
#include "pipeline/fields_load.h"
#include "sampling/machine.h"
#include "sampling/perf_file.h"
#include "sampling/session.h"
#include "tui/tui.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

enum {
	OPT_INPUT = 'i',
	OPT_VMLINUX = 'k',
	OPT_ATTR = 1000,	/* CLI_ATTR_OPTIONS' long ones */
	OPT_ATTR_LAST = OPT_ATTR + CLI_ATTR__NR_LONG - 1,
	OPT_STRUCT,
	OPT_STDIO,
	OPT_JSON,
	OPT_CSV,
	OPT_TUI,
	OPT_LINE_SIZE,
	OPT_ALL_MEMBERS,
	OPT_DOUBLE_CL,
	OPT_MIN_SHARE,
	OPT_TIME,	/* the filters, in cli's order (CLI_FILTER_OPTIONS) */
	OPT_PID,
	OPT_TID,
	OPT_CPU,
	OPT_COMM,
};

_Static_assert(OPT_COMM - OPT_TIME == CLI_FILTER_COMM, "the filter options are in cli's order");

static const struct cli_option fields_options[] = {
	{ OPT_INPUT, 'i', "input", "FILE", "the recording to read (default perf.data; - for stdin)" },
	CLI_ATTR_OPTIONS(OPT_ATTR),
	{ OPT_STRUCT, 0, "struct", "NAME", "show only this struct ('file' or 'struct file')" },
	{ OPT_LINE_SIZE, 0, "line-size", "N", "cache-line size (default: the recording's, else 64)" },
	{ OPT_DOUBLE_CL, 0, "double-cl", NULL,
	  "lines of twice the size: the adjacent-line prefetcher's 128-byte pairs" },
	{ OPT_MIN_SHARE, 0, "min-share", "PCT",
	  "list the contended lines with at least PCT% of all HITMs each, sum up the rest in one "
	  "line (default 1; 0 lists every one)" },
	{ OPT_ALL_MEMBERS, 0, "all-members", NULL,
	  "list nested members that nothing touched too (default: top-level ones and touched ones)" },
	{ OPT_STDIO, 0, "stdio", NULL, "print text tables (the default)" },
	{ OPT_JSON, 0, "json", NULL, "print JSON" },
	{ OPT_CSV, 0, "csv", NULL, "print the member table as CSV" },
	{ OPT_TUI, 0, "tui", NULL,
	  "browse the member tables in the terminal, and each struct's layout as a heat map" },
	CLI_FILTER_OPTIONS(OPT_TIME),
	CLI_OPTION_END
};

enum out_format { OUT_STDIO, OUT_JSON, OUT_CSV, OUT_TUI };

struct fields_opts {
	const char *input;
	const char *only_struct;
	struct fields_attr_opts attr;
	enum out_format format;
	const char *format_opt;		/* the format option given, for cli__output_format */
	unsigned long long line_size;
	bool all_members;
	bool double_cl;
	double min_share;		/* --min-share, as a fraction */
	struct session_filter filter;	/* --time --pid --tid --cpu --comm */
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
		return cli__attr_option(o->cmd, &o->attr, CLI_ATTR_VMLINUX, arg);
	case OPT_ATTR ... OPT_ATTR_LAST:
		return cli__attr_option(o->cmd, &o->attr, id - OPT_ATTR, arg);
	case OPT_STRUCT:
		o->only_struct = arg;
		break;
	case OPT_LINE_SIZE:
		return cli__parse_line_size(o->cmd, arg, &o->line_size);
	case OPT_ALL_MEMBERS:
		o->all_members = true;
		break;
	case OPT_DOUBLE_CL:
		o->double_cl = true;
		break;
	case OPT_MIN_SHARE: {
		char *end;
		double v = strtod(arg, &end);

		if (end == arg || *end || !(v >= 0) || v > 100)
			return cli__usage_error(o->cmd, "--min-share wants a percentage from 0 to "
						"100, not '%s'", arg);
		o->min_share = v / 100;
		break;
	}
	case OPT_STDIO:
		o->format = OUT_STDIO;
		return cli__output_format(o->cmd, &o->format_opt, "stdio");
	case OPT_TUI:
		o->format = OUT_TUI;
		return cli__tui_option() ?: cli__output_format(o->cmd, &o->format_opt, "tui");
	case OPT_JSON:
		o->format = OUT_JSON;
		return cli__output_format(o->cmd, &o->format_opt, "json");
	case OPT_CSV:
		o->format = OUT_CSV;
		return cli__output_format(o->cmd, &o->format_opt, "csv");
	case OPT_TIME ... OPT_COMM:
		return cli__filter_option(o->cmd, &o->filter, id - OPT_TIME, arg);
	}
	return 0;
}


struct fields_ctx {
	struct fields_opts *o;
	struct fields_load ld;	/* the recording and its tables (pipeline/fields_load.h) */
	struct array_align *align;	/* arrays whose threads' elements share lines */
	struct fields_view view;	/* which of them are shown (analyzer/fields_view.h) */
};

/* --- output: the member table (analyzer/fields_table.h) as text, JSON or CSV --- */

/* --tui: the selected structs in the browser (tui/tui.h). */
static int browse(struct fields_ctx *c)
{
	const struct field_struct **sel = xcalloc(c->ld.fields->nr_structs, sizeof(*sel));
	struct tui_fields tf = {
		.input = c->ld.input, .f = c->ld.fields, .structs = sel,
		.all_members = c->o->all_members, .namer = fields_attr__name_ip, .namer_ctx = c->ld.fa,
	};
	char err[256];
	int rc = EXIT_OK;

	for (size_t i = 0; i < c->ld.fields->nr_structs; i++)
		if (fields_view__struct_selected(&c->view, &c->ld.fields->structs[i]))
			sel[tf.nr_structs++] = &c->ld.fields->structs[i];
	if (tui__fields(&tf, err, sizeof(err)) < 0) {
		cli__error("%s", err);
		rc = EXIT_USAGE;
	}
	free(sel);
	return rc;
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

static void print_attr_json(struct json *j, const char *key, const struct attr_stats *st)
{
	json__key(j, key);
	json__begin_object(j);
	json__ku64(j, "total", st->weight);
	json__key(j, "share");
	json__double(j, attr_stats__resolved_share(st), 4);
	json__key(j, "by_evidence");
	json__begin_object(j);
	for (int k = ATTR_NONE + 1; k < ATTR__NR; k++)
		json__ku64(j, attr_evidence__name(k), st->by_kind_weight[k]);
	json__end_object(j);
	json__key(j, "unresolved");
	json__begin_object(j);
	for (int r = 1; r < ATTR__REASONS; r++)
		if (st->unresolved_weight[r])
			json__ku64(j, attr_reason__id(r), st->unresolved_weight[r]);
	json__end_object(j);
	json__end_object(j);
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

/* Arrays whose threads' elements meet inside lines: one finding each, before the lines. */
static void print_align_stdio(struct fields_ctx *c, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;

	for (size_t i = 0; i < c->align->nr_findings; i++) {
		const struct align_finding *af = &c->align->findings[i];

		if (!fields_view__align_selected(&c->view, af))
			continue;
		if (!n++)
			fprintf(out, "\n# arrays whose elements share cache lines across threads "
				"(the lines of one that starts inside a line, or whose elements the "
				"threads take in turn, are not listed again below)\n");
		strbuf__reset(&sb);
		align_finding__explain(c->align, af, fields_attr__name_ip, c->ld.fa, &sb);
		fprintf(out, "\n%s", sb.buf);
	}
	strbuf__release(&sb);
}

/* "1", "0.5": a share as a percentage, without trailing zeros. */
static const char *share_text(double share, char *buf, size_t size)
{
	snprintf(buf, size, "%.4g", share * 100);
	return buf;
}

/*
 * The end of the text: the lines below --min-share in one line, then what was found, in
 * words a script can grep: "no contended line" when nothing is listed, and whether every
 * sample was tied to a member.
 */
static void print_result_text(const struct fields_ctx *c, FILE *out)
{
	const struct fields *f = c->ld.fields;
	struct fields_view_result r;
	char buf[32];

	fields_view__result(&c->view, &r);
	if (r.below)
		fprintf(out, "\n# %zu%s contended line%s below %s%% of all HITMs each (%" PRIu64
			" HITM in all, %.1f%% of all HITMs): not listed; --min-share 0 lists them\n",
			r.below, r.listed ? " more" : "", r.below == 1 ? "" : "s",
			share_text(c->o->min_share, buf, sizeof(buf)), r.below_hitm,
			pct(r.below_hitm, f->hitm));
	if (!r.listed && !r.arrays)
		fprintf(out, "\nno contended line%s\n", r.below ? " at or above --min-share" : "");
	else
		fprintf(out, "\n# %zu contended line%s: %zu false sharing, %zu true sharing, %zu "
			"one writer with readers\n", r.listed, r.listed == 1 ? "" : "s",
			r.by_verdict[LINE_FALSE_SHARING], r.by_verdict[LINE_TRUE_SHARING],
			r.by_verdict[LINE_WRITE_READ]);
	if (r.arrays)
		fprintf(out, "# %zu arra%s whose elements share lines across threads (above)\n",
			r.arrays, r.arrays == 1 ? "y" : "ys");
	if (fields__too_few_samples(f)) {
		struct strbuf sb = STRBUF_INIT;

		fields__explain_samples(f, &sb);
		fprintf(out, "# warning: %s", sb.buf);
		strbuf__release(&sb);
	}
	fprintf(out, "# attribution: %s (%.1f%% of the samples, %.1f%% of the HITMs tied to a "
		"member)\n", r.attribution, 100 * attr_stats__resolved_share(&f->attr_all),
		100 * attr_stats__resolved_share(&f->attr_hitm));
}

/* The member table's text: one header line, cells apart by a space, the last unpadded. */
static void print_stdio(struct fields_ctx *c, FILE *out)
{
	struct fields *f = c->ld.fields;
	struct strbuf sb = STRBUF_INIT;
	struct fields_table ft;
	char pct_buf[32];

	fields_table__init(&ft, f->line_size, fields_attr__name_ip, c->ld.fa);

	fprintf(out, "# lineup fields: %s, %zu samples with a data address, %u-byte lines\n",
		c->ld.input, c->ld.nr_samples, f->line_size);
	print_attr_text("HITM samples", &f->attr_hitm, out);
	if (c->ld.nr_peer)
		fprintf(out, "#   of which %zu peer loads (from another core's cache, state not "
			"reported: Arm SPE), counted as HITMs\n", c->ld.nr_peer);
	print_attr_text("all samples", &f->attr_all, out);
	{
		const struct fields_rmw *rmw;
		size_t nr_rmw = fields_attr__rmw(c->ld.fa, &rmw);

		if (fields_attr__nr_allocs(c->ld.fa) || nr_rmw)
			fprintf(out, "# allocation records: %zu; IPs with RMW counts: %zu\n",
				fields_attr__nr_allocs(c->ld.fa), nr_rmw);
	}
	for (size_t i = 0; i < f->nr_structs; i++) {
		const struct field_struct *fs = &f->structs[i];

		if (!fields_view__struct_selected(&c->view, fs))
			continue;
		strbuf__reset(&sb);
		fields_table__print_struct(&ft, fs, c->o->all_members, &sb);
		output__strbuf(out, &sb);
	}
	fields_table__release(&ft);
	print_align_stdio(c, out);
	fprintf(out, "\n# contended cache lines (each with %s%% of all HITMs or more; --min-share "
		"changes it)\n", share_text(c->o->min_share, pct_buf, sizeof(pct_buf)));
	for (size_t i = 0; i < f->nr_lines; i++) {
		const struct field_line *l = &f->lines[i];
		const struct line_slot *key = line_key(l);
		size_t same = 0, verdicts[LINE_WRITE_READ + 1] = { 0 };
		bool seen = false;

		if (!fields_view__line_shown(&c->view, l) || fields_view__align_hides(&c->view, l->addr))
			continue;
		/*
		 * Many instances of one struct (every struct file of a kernel recording) give
		 * the same line again and again: explain the hottest (lines are sorted by
		 * HITMs), count the others.
		 */
		for (size_t k = 0; k < i && key && !seen; k++)
			seen = fields_view__line_shown(&c->view, &f->lines[k]) && same_line(&f->lines[k], l);
		if (seen)
			continue;
		for (size_t k = i + 1; k < f->nr_lines && key; k++)
			if (fields_view__line_shown(&c->view, &f->lines[k]) && same_line(&f->lines[k], l)) {
				same++;
				verdicts[f->lines[k].verdict]++;
			}
		strbuf__reset(&sb);
		fields__explain_line(f, l, fields_attr__name_ip, c->ld.fa, &sb);
		fprintf(out, "\n%s", sb.buf);
		if (same)
			fprintf(out, "  and %zu more line%s at the same offsets of other %s instances "
				"(%zu false sharing, %zu true sharing, %zu one writer)\n", same,
				same == 1 ? "" : "s", key->layout->name,
				verdicts[LINE_FALSE_SHARING], verdicts[LINE_TRUE_SHARING],
				verdicts[LINE_WRITE_READ]);
	}
	strbuf__release(&sb);
	print_result_text(c, out);
}

static void json_addr(struct json *j, const char *key, uint64_t addr)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%#" PRIx64, addr);
	json__kstr(j, key, buf);
}

/* A line's verdict part by part (analyzer/fields.h, struct field_verdict). */
static void print_verdict_json(struct json *j, struct fields_ctx *c, const struct field_line *l)
{
	struct field_verdict v;
	struct strbuf sb = STRBUF_INIT;

	fields__verdict(c->ld.fields, l, &v);
	json__key(j, "parts");
	json__begin_object(j);
	json__kstr(j, "kind", line_verdict__name(v.kind));
	json__kstr(j, "advice", verdict_advice__name(v.advice));
	json__kstr(j, "instances_of", v.instances_of ? v.instances_of->name : NULL);
	json__key(j, "writer_groups");
	json__begin_array(j);
	for (int g = 0; g < (int)v.nr_groups; g++) {
		json__begin_array(j);
		for (size_t k = 0; k < l->nr_slots; k++)
			if (l->slots[k].group == g)
				json__str(j, line_slot__member(&l->slots[k]));
		json__end_array(j);
	}
	json__end_array(j);
	json__key(j, "victims");
	json__begin_array(j);
	for (size_t k = 0; k < l->nr_slots; k++)
		if (l->slots[k].victim)
			json__str(j, line_slot__member(&l->slots[k]));
	json__end_array(j);
	json__kstr(j, "true_shared",
		   v.true_shared >= 0 ? line_slot__member(&l->slots[v.true_shared]) : NULL);
	json__ku64(j, "true_shared_writer_cpus",
		   v.true_shared >= 0 ? l->slots[v.true_shared].st.cpus_write.nr : 0);
	json__key(j, "no_store");
	json__bool(j, v.no_store);
	json__key(j, "in_time");
	json__begin_object(j);
	json__key(j, "timed");
	json__bool(j, v.timed);
	json__ku64(j, "line_handoffs", v.handoffs);
	json__ku64(j, "max_member_handoffs", v.max_handoffs);
	json__ku64(j, "members_held", v.nr_held); /* written, not shared in time */
	json__ku64(j, "rotating_members", v.nr_rotating);
	json__ku64(j, "writer_threads", v.nr_threads);
	json__key(j, "threads");
	json__begin_array(j);
	for (unsigned int i = 0; i < v.nr_threads && i < VERDICT_MAX_THREADS; i++)
		json__u64(j, v.threads[i]);
	json__end_array(j);
	json__end_object(j);
	if (v.advice == ADVICE_PER_CPU) {
		json__key(j, "sum_side");
		json__begin_object(j);
		json__ku64(j, "reads", v.sum_reads);
		if (v.span_ns) {
			json__key(j, "seconds");
			json__double(j, (double)v.span_ns / 1e9, 3);
			json__key(j, "per_second");
			json__double(j, (double)v.sum_reads * 1e9 / (double)v.span_ns, 1);
		}
		json__key(j, "readers");
		json__begin_array(j);
		for (unsigned int i = 0; i < v.nr_readers; i++) {
			json__begin_object(j);
			json_addr(j, "ip", v.readers[i].ip);
			strbuf__reset(&sb);
			fields_attr__name_ip(c->ld.fa, v.readers[i].ip, &sb);
			json__kstr(j, "code", sb.buf ? sb.buf : "");
			json__ku64(j, "reads", v.readers[i].count);
			json__end_object(j);
		}
		json__end_array(j);
		json__end_object(j);
	}
	json__key(j, "redundant_rmws");
	json__begin_array(j);
	for (size_t k = 0; k < l->nr_slots; k++) {
		const struct line_slot *s = &l->slots[k];

		if (!s->redundant_rmw)
			continue;
		json__begin_object(j);
		json__kstr(j, "member", line_slot__member(s));
		json__ku64(j, "redundant", s->redundant_rmw);
		json__ku64(j, "checked", s->rmw_checked);
		json__key(j, "code");
		json__begin_array(j);
		for (size_t i = 0, n = 0; i < s->st.nr_ips && n < VERDICT_MAX_IPS; i++) {
			if (!s->st.ips[i].locked)
				continue;
			strbuf__reset(&sb);
			fields_attr__name_ip(c->ld.fa, s->st.ips[i].ip, &sb);
			json__str(j, sb.buf ? sb.buf : "");
			n++;
		}
		json__end_array(j);
		json__end_object(j);
	}
	json__end_array(j);
	json__end_object(j);
	strbuf__release(&sb);
}

static void print_slot_json(struct json *j, const struct field_line *l, size_t k)
{
	const struct line_slot *s = &l->slots[k];

	json__begin_object(j);
	json__kstr(j, "type", s->layout ? s->layout->name : "");
	json__kstr(j, "member", s->layout ? s->path : "");
	json__kstr(j, "element", s->layout ? s->element : "");
	json_addr(j, "instance", s->base);
	json__ku64(j, "offset", s->offset);
	json__ku64(j, "loads", s->st.loads);
	json__ku64(j, "stores", s->st.stores);
	json__ku64(j, "writes", s->st.writes);
	json__ku64(j, "locked", s->st.locked);
	json__ku64(j, "hitm", field_stats__hitm(&s->st));
	json__ku64(j, "cpus_read", s->st.cpus_read.nr);
	json__ku64(j, "cpus_write", s->st.cpus_write.nr);
	json__key(j, "writer_threads");
	json__begin_array(j);
	for (uint32_t i = 0; i < s->st.tids_write.nr; i++)
		json__u64(j, s->st.tids_write.ids[i]);
	json__end_array(j);
	json__ku64(j, "handoffs", s->handoffs);
	json__key(j, "shared_in_time");
	json__bool(j, s->shared_in_time);
	json__key(j, "group");
	json__i64(j, s->group);
	json__key(j, "victim");
	json__bool(j, s->victim);
	json__key(j, "true_shared");
	json__bool(j, (int)k == l->true_shared);
	json__ku64(j, "redundant_rmw", s->redundant_rmw);
	json__ku64(j, "rmw", s->rmw_checked);
	json__end_object(j);
}

/* The index in "alignment" of the finding that explains the line at @addr, or -1. */
static int64_t align_index(const struct fields_ctx *c, uint64_t addr)
{
	const struct align_finding *af = array_align__of_line(c->align, addr);

	return af ? af - c->align->findings : -1;
}

static void print_align_json(struct json *j, struct fields_ctx *c)
{
	struct strbuf sb = STRBUF_INIT;

	json__key(j, "alignment");
	json__begin_array(j);
	for (size_t i = 0; i < c->align->nr_findings; i++) {
		const struct align_finding *af = &c->align->findings[i];

		json__begin_object(j);
		json__kstr(j, "object", af->name);
		json__kstr(j, "element", af->elem ? af->elem->name : NULL);
		json_addr(j, "base", af->obj.base);
		json__ku64(j, "size", af->obj.size);
		strbuf__reset(&sb);
		if (af->obj.site)
			fields_attr__name_ip(c->ld.fa, af->obj.site, &sb);
		json__kstr(j, "allocated_at", af->obj.site ? sb.buf : NULL);
		json__ku64(j, "first", af->first);
		json__ku64(j, "stride", af->stride);
		json__ku64(j, "elements", af->nr_elems);
		json__ku64(j, "misalign", af->misalign);
		json__key(j, "causes");
		json__begin_array(j);
		for (unsigned int bit = 1; bit <= ALIGN_CAUSE_LAST; bit <<= 1)
			if (af->causes & bit)
				json__str(j, align_cause__id(bit));
		json__end_array(j);
		json__ku64(j, "new_stride", af->new_stride);
		json__ku64(j, "new_size", af->new_size);
		json__ku64(j, "threads", af->threads);	/* interleaved: who takes turns */
		json__ku64(j, "block", af->block);
		json__ku64(j, "hitm", af->hitm);
		json__ku64(j, "writes", af->writes);
		json__ku64(j, "boundaries", af->nr_boundaries);
		json__ku64(j, "writer_cpus", af->writer_cpus);
		json__key(j, "lines");
		json__begin_array(j);
		for (size_t k = 0; k < af->nr_lines; k++) {
			char buf[24];

			snprintf(buf, sizeof(buf), "%#" PRIx64, af->lines[k]);
			json__str(j, buf);
		}
		json__end_array(j);
		strbuf__reset(&sb);
		align_finding__explain(c->align, af, fields_attr__name_ip, c->ld.fa, &sb);
		json__kstr(j, "explanation", sb.buf);
		json__end_object(j);
	}
	json__end_array(j);
	strbuf__release(&sb);
}

/* fields_result as JSON: "result": {"contended_lines": 0, "text": "no contended line", ...}. */
static void print_result_json(struct json *j, const struct fields_ctx *c)
{
	struct fields_view_result r;

	fields_view__result(&c->view, &r);
	json__key(j, "result");
	json__begin_object(j);
	json__kstr(j, "text", r.listed || r.arrays ? "contended lines" : "no contended line");
	json__ku64(j, "contended_lines", r.listed);
	json__ku64(j, "misaligned_arrays", r.arrays);
	json__ku64(j, "false_sharing", r.by_verdict[LINE_FALSE_SHARING]);
	json__ku64(j, "true_sharing", r.by_verdict[LINE_TRUE_SHARING]);
	json__ku64(j, "one_writer", r.by_verdict[LINE_WRITE_READ]);
	json__key(j, "min_share");
	json__double(j, c->o->min_share, 4);
	json__ku64(j, "below_min_share", r.below);
	json__ku64(j, "below_min_share_hitm", r.below_hitm);
	json__kstr(j, "attribution", r.attribution);
	json__key(j, "too_few_samples");
	if (fields__too_few_samples(c->ld.fields)) {
		struct strbuf sb = STRBUF_INIT;

		fields__explain_samples(c->ld.fields, &sb);
		json__begin_object(j);
		json__ku64(j, "loads", c->ld.fields->loads);
		json__ku64(j, "hitm", c->ld.fields->hitm);
		json__ku64(j, "min_loads", FIELDS_MIN_LOADS);
		json__kstr(j, "text", sb.buf);
		json__end_object(j);
		strbuf__release(&sb);
	} else {
		json__raw(j, "null");
	}
	json__end_object(j);
}

static void print_json(struct fields_ctx *c, FILE *out)
{
	struct fields *f = c->ld.fields;
	struct strbuf sb = STRBUF_INIT;
	struct fields_table ft;
	struct json j;

	fields_table__init(&ft, f->line_size, fields_attr__name_ip, c->ld.fa);
	json__init(&j, out, true);
	json__begin_object(&j);
	json__kstr(&j, "input", c->ld.input);
	json__ku64(&j, "line_size", f->line_size);
	json__ku64(&j, "samples", c->ld.nr_samples);
	json__ku64(&j, "peer_loads_as_hitm", c->ld.nr_peer);
	json__key(&j, "attribution");
	json__begin_object(&j);
	print_attr_json(&j, "hitm", &f->attr_hitm);
	print_attr_json(&j, "all", &f->attr_all);
	print_attr_json(&j, "cycles", &f->attr_cycles);
	json__end_object(&j);
	json__key(&j, "structs");
	json__begin_array(&j);
	for (size_t i = 0; i < f->nr_structs; i++) {
		const struct field_struct *fs = &f->structs[i];

		if (!fields_view__struct_selected(&c->view, fs))
			continue;
		json__begin_object(&j);
		json__kstr(&j, "type", fs->layout->name);
		json__ku64(&j, "size", fs->layout->size);
		json__ku64(&j, "instances", fs->nr_instances);
		json__key(&j, "evidence");
		json__begin_object(&j);
		for (int k = ATTR_NONE + 1; k < ATTR__NR; k++)
			json__ku64(&j, attr_evidence__name(k), fs->by_kind[k]);
		json__end_object(&j);
		json__key(&j, "hottest_instances");
		json__begin_array(&j);
		for (size_t k = 0; k < fs->nr_instances && k < 10; k++) {
			json__begin_object(&j);
			json_addr(&j, "addr", fs->instances[k].base);
			json__kstr(&j, "element", fs->instances[k].element);
			json__ku64(&j, "samples", fs->instances[k].samples);
			json__ku64(&j, "hitm", fs->instances[k].hitm);
			json__ku64(&j, "stores", fs->instances[k].stores);
			json__end_object(&j);
		}
		json__end_array(&j);
		json__key(&j, "members");
		json__begin_array(&j);
		fields_table__fill(&ft, fs, c->o->all_members);
		for (size_t r = 0; r < ft.t.nr_rows; r++) {
			json__begin_object(&j);
			json__row(&j, &ft.t, ft.t.rows[r]);
			json__end_object(&j);
		}
		json__end_array(&j);
		json__end_object(&j);
	}
	json__end_array(&j);
	json__key(&j, "lines");
	json__begin_array(&j);
	for (size_t i = 0; i < f->nr_lines && !ferror(out); i++) {
		const struct field_line *l = &f->lines[i];

		if (!fields_view__line_shown(&c->view, l))
			continue;
		json__begin_object(&j);
		json_addr(&j, "addr", l->addr);
		json__kstr(&j, "verdict", line_verdict__name(l->verdict));
		json__key(&j, "alignment");
		json__i64(&j, align_index(c, l->addr));
		json__ku64(&j, "hitm", field_stats__hitm(&l->st));
		json__ku64(&j, "writes", l->st.writes);
		json__ku64(&j, "loads", l->st.loads);
		json__ku64(&j, "writer_cpus", l->writer_cpus);
		json__ku64(&j, "writer_groups", l->nr_groups);
		json__ku64(&j, "victims", l->victims);
		json__key(&j, "slots");
		json__begin_array(&j);
		for (size_t k = 0; k < l->nr_slots; k++)
			print_slot_json(&j, l, k);
		json__end_array(&j);
		strbuf__reset(&sb);
		fields__explain_line(f, l, fields_attr__name_ip, c->ld.fa, &sb);
		json__kstr(&j, "explanation", sb.buf ? sb.buf : "");
		print_verdict_json(&j, c, l);
		json__end_object(&j);
	}
	json__end_array(&j);
	print_align_json(&j, c);
	print_result_json(&j, c);
	json__end_object(&j);
	fputc('\n', out);
	json__release(&j);
	fields_table__release(&ft);
	strbuf__release(&sb);
}

static void print_csv(struct fields_ctx *c, FILE *out)
{
	struct fields *f = c->ld.fields;
	struct fields_table ft;
	struct csv csv;

	fields_table__init(&ft, f->line_size, fields_attr__name_ip, c->ld.fa);
	csv__init(&csv, out, false);
	csv__add_columns(&csv, &ft.t);
	csv__header(&csv);
	for (size_t i = 0; i < f->nr_structs && !ferror(out); i++) {
		const struct field_struct *fs = &f->structs[i];

		if (!fields_view__struct_selected(&c->view, fs))
			continue;
		fields_table__fill(&ft, fs, c->o->all_members);
		for (size_t r = 0; r < ft.t.nr_rows; r++)
			csv__row(&csv, &ft.t, ft.t.rows[r]);
	}
	csv__release(&csv);
	fields_table__release(&ft);
}

/* --struct NAME that matched nothing: does it exist at all?  Say so, with the closest names. */
static int wrong_struct(struct fields_ctx *c)
{
	const char *tag = fields_attr__strip_tag(c->o->only_struct);
	const char *close[5];
	int n;

	if (fields_attr__has_struct(c->ld.fa, tag)) {
		cli__error("%s: no sample was attributed to struct %s", c->ld.input, tag);
		return EXIT_NOTHING;
	}
	n = fields_attr__closest(c->ld.fa, tag, close, 5);
	for (size_t i = 0; !n && i < c->ld.fields->nr_structs && n < 5; i++)
		close[n++] = fields_attr__strip_tag(c->ld.fields->structs[i].layout->name);
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
	int n = fields_attr__closest(c->ld.fa, type, close, 5);

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
	for (size_t i = 0; i < c->ld.fields->nr_structs; i++)
		if (fields_view__struct_selected(&c->view, &c->ld.fields->structs[i]))
			return true;
	return false;
}

static int fields_run(const struct command *cmd, int argc, char **argv)
{
	struct fields_opts o = { .input = "perf.data", .cmd = cmd, .min_share = 0.01 };
	struct fields_ctx c = { .o = &o };
	char err[4096];
	int rc, i = cli__parse(cmd, argc, argv, fields_option, &o, &rc);

	if (i < 0)
		goto out_opts;
	if (i < argc) {
		rc = cli__usage_error(cmd, "unexpected argument '%s'", argv[i]);
		goto out_opts;
	}
	rc = fields_load__run(&c.ld, o.input, &o.attr, &o.filter, (unsigned)o.line_size,
			      o.double_cl, err, sizeof(err));
	if (c.ld.fa)
		cli__attr_warnings(c.ld.fa);
	if (rc) {
		cli__error("%s", err);
		rc = rc == -ENODATA ? EXIT_NOTHING : EXIT_USAGE;
		goto out;
	}
	if (fields_attr__unknown_hint(c.ld.fa)) {
		rc = unknown_hint(&c, fields_attr__unknown_hint(c.ld.fa));
		goto out;
	}
	c.view = (struct fields_view){ .f = c.ld.fields, .only_struct = o.only_struct,
				       .min_share = o.min_share };
	if (o.only_struct && !struct_found(&c)) {
		rc = wrong_struct(&c);
		goto out;
	}
	{
		struct align_objects objs = { fields_attr__object_at, c.ld.fa };

		c.view.align = c.align = array_align__find(c.ld.fields, &objs);
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
	case OUT_TUI:
		if (c.ld.fields->nr_structs) {
			rc = browse(&c);
			goto out;
		}
		break;
	}
	rc = c.ld.fields->nr_structs ? EXIT_OK : EXIT_NOTHING;
	if (rc == EXIT_NOTHING)
		cli__error("%s: no sample could be tied to a struct member (see the reasons above)",
			   c.ld.input);
	rc = cli__close_output(stdout, "standard output", rc);
out:
	array_align__delete(c.align);
	fields_load__release(&c.ld);
out_opts:
	fields_attr_opts__release(&o.attr);
	session_filter__release(&o.filter);
	return rc;
}

const struct command cmd_fields = {
	.name = "fields",
	.summary = "which struct members the samples touch, who writes them, what sharing it is",
	.usage = "[-i FILE] [-k VMLINUX] [--debug-file F ...] [--struct NAME] "
		 "[--type 'struct T'@ADDR] [--cache-type NAME=TYPE] [--stdio|--json|--csv|--tui] "
		 "[--time START,END] [--pid|--tid|--cpu|--comm LIST]",
	.description =
		"Tie every memory sample to a struct type, member and instance by the strongest "
		"evidence at hand (the type of the instruction's memory operand at the IP, a global "
		"or per-CPU variable, an allocation record from kmem tracepoints or the software "
		"collector, a --type hint), then list each struct's members with loads, stores, "
		"local and remote HITMs, mean cycles, the CPUs and threads reading and writing them "
		"and the code touching them, and give each contended cache line a verdict: false "
		"sharing, true sharing (with the per-CPU counter advice and how often the summing "
		"reads run), read-mostly victims, and test-before-set for locked RMWs that find the "
		"bits already set.  Where the samples carry times, the writers are compared per "
		"window between sampled writes: members that several threads write over the run "
		"but one at a time (a pool of locks, reference counts that move with their threads) "
		"are false sharing, not true sharing, and the verdict says how often the line and "
		"each member changed writer.  A line without two HITMs gets no verdict; contended "
		"lines under --min-share of all HITMs are summed up in one line.  The text ends "
		"with what was found (\"no contended line\" when nothing is) and whether the "
		"attribution was complete or partial; what stays unresolved is reported with its "
		"share and reason.  Exit status: 0 when it ran, contended lines or not, complete "
		"attribution or partial; 1 when no sample could be tied to a member at all.",
	.options = fields_options,
	.run = fields_run,
};
