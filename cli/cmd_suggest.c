// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lineup suggest: a new member order for the structs behind the contended lines of a
 * recording, the layout the compiler will give it, the effect predicted by replaying the
 * recording, the layout comment, and a patch that moves the declarations in the source.
 *
 * The order and the prediction are analyzer/suggest.h's, the words analyzer/suggest_text.h's,
 * the new layout analyzer/layout.h's layout__build, the patch analyzer/srcpatch.h's; the
 * recording is read into analyzer/suggest_targets.h's suggesters, and the source found and
 * patched, by pipeline/suggest_load.h (the browser's suggestion view runs it too).  This file
 * chooses the structs, prints, writes the files, and runs the compiler for --verify.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyzer/array_align.h"
#include "analyzer/data_src.h"
#include "analyzer/fields.h"
#include "analyzer/layout.h"
#include "analyzer/srcpatch.h"
#include "analyzer/suggest.h"
#include "analyzer/suggest_layout.h"
#include "analyzer/suggest_targets.h"
#include "analyzer/suggest_text.h"
#include "util/u64map.h"
#include "cli/command.h"
#include "pipeline/suggest_verify.h"
#include "sampling/event.h"
#include "pipeline/fields_attr.h"
#include "pipeline/fields_load.h"
#include "sampling/perf_file.h"
#include "sampling/session.h"
#include "pipeline/suggest_load.h"
#include "tui/tui.h"
#include "util/file.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

enum {
	OPT_INPUT = 'i',
	OPT_VMLINUX = 'k',
	OPT_CLASS = 'C',
	OPT_ATTR = 1000,	/* CLI_ATTR_OPTIONS' long ones */
	OPT_ATTR_LAST = OPT_ATTR + CLI_ATTR__NR_LONG - 1,
	OPT_LINE_SIZE,
	OPT_DOUBLE_CL,
	OPT_MAX_GROWTH,
	OPT_PIN,
	OPT_PATCH,
	OPT_SOURCE_ROOT,
	OPT_STYLE,
	OPT_DOC,
	OPT_VERIFY,
	OPT_CC,
	OPT_CFLAGS,
	OPT_JSON,
	OPT_STDIO,
	OPT_LIMIT,
	OPT_TUI,
	OPT_TIME,	/* the filters, in cli's order (CLI_FILTER_OPTIONS) */
	OPT_PID,
	OPT_TID,
	OPT_CPU,
	OPT_COMM,
};

_Static_assert(OPT_COMM - OPT_TIME == CLI_FILTER_COMM, "the filter options are in cli's order");

static const struct cli_option suggest_options[] = {
	{ OPT_INPUT, 'i', "input", "FILE", "the recording to read (default perf.data)" },
	{ OPT_CLASS, 'C', "struct", "NAME[,NAME...]",
	  "the structs to lay out ('file' or 'struct file'); default: those behind the contended "
	  "lines, worst first" },
	CLI_ATTR_OPTIONS(OPT_ATTR),
	{ OPT_LINE_SIZE, 0, "line-size", "N", "cache-line size (default: the recording's, else 64)" },
	{ OPT_DOUBLE_CL, 0, "double-cl", NULL,
	  "lines of twice the size: keep groups 128 bytes apart (adjacent-line prefetch)" },
	{ OPT_MAX_GROWTH, 0, "max-growth", "BYTES|Nl",
	  "let the struct grow by at most BYTES (or N cache lines: '1l'); boundaries worth least "
	  "are given up first, and said" },
	{ OPT_PIN, 0, "pin", "MEMBER[,..]",
	  "keep these members at their offsets (ABI, container_of users, a list head first)" },
	{ OPT_PATCH, 0, "patch", "FILE",
	  "write a unified diff (-p1) of the struct's source to FILE ('-': stdout)" },
	{ OPT_SOURCE_ROOT, 0, "source-root", "DIR",
	  "the source tree the debug info's paths are under (paths in the patch are relative to "
	  "it; default: the current directory)" },
	{ OPT_STYLE, 0, "style", "STYLE",
	  "how group starts are written: groups (Linux 6.8+ __cacheline_group_begin), kernel "
	  "(____cacheline_aligned_in_smp), attr (__attribute__((aligned))), alignas; default: "
	  "what the tree has" },
	{ OPT_DOC, 0, "doc", "FILE",
	  "write a net_cachelines-style table of the members' use (reStructuredText; '-': stdout)" },
	{ OPT_VERIFY, 0, "verify", NULL,
	  "apply the patch to a copy of the source, compile it, and check every member's offset "
	  "against the prediction (exit 1 on the first difference, or when nothing could be "
	  "checked).  It runs " SUGGEST_VERIFY_RUNS },
	{ OPT_CC, 0, "cc", "COMPILER", "the compiler for --verify (default: $CC, else cc)" },
	{ OPT_CFLAGS, 0, "cflags", "FLAGS", "more flags for --verify's compile (-I, -D ...)" },
	{ OPT_LIMIT, 'N', "limit", "N", "without -C: at most N structs (default 3)" },
	CLI_FILTER_OPTIONS(OPT_TIME),
	{ OPT_STDIO, 0, "stdio", NULL, "text (the default)" },
	{ OPT_JSON, 0, "json", NULL, "JSON: every number, the comment and the patch" },
	{ OPT_TUI, 0, "tui", NULL,
	  "browse the suggestion: the proposed and current layouts, the comment, the patch (w "
	  "writes it to a file)" },
	CLI_OPTION_END
};

enum suggest_format { FMT_STDIO, FMT_JSON, FMT_TUI };

struct suggest_opts {
	const struct command *cmd;
	const char *input;
	struct fields_attr_opts attr;
	struct fields_list structs, pins;
	unsigned long long line_size;
	bool double_cl;
	uint64_t max_growth;
	uint64_t max_growth_lines;	/* "2l": in lines, once the line size is known */
	const char *patch, *doc, *source_root, *cc, *cflags;
	int style;			/* -1: from the tree */
	struct session_filter filter;	/* --time --pid --tid --cpu --comm */
	bool verify;
	unsigned long long limit;
	enum suggest_format format;
};

/* The recording read once (pipeline/suggest_load.h), its structs' suggesters fed on the way. */
struct suggest_ctx {
	struct suggest_opts *o;
	struct suggest_load_opts lo;
	struct suggest_load sl;
	struct suggest_verify *vreq, *valloc;	/* --verify: per request, per allocation */
};

static int parse_growth(struct suggest_opts *o, const char *arg)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || (*end && strcmp(end, "l") && strcmp(end, "lines")))
		return cli__usage_error(o->cmd, "--max-growth: '%s' is not BYTES or N lines "
					"('256', '2l')", arg);
	if (*end)
		o->max_growth_lines = v;
	else
		o->max_growth = v;
	return 0;
}

static int parse_style(struct suggest_opts *o, const char *arg)
{
	static const struct { const char *name; enum srcpatch_style style; } styles[] = {
		{ "groups", SRCPATCH_KERNEL_GROUPS }, { "kernel", SRCPATCH_KERNEL_ALIGNED },
		{ "attr", SRCPATCH_ATTR_ALIGNED }, { "alignas", SRCPATCH_ALIGNAS },
	};

	for (size_t i = 0; i < sizeof(styles) / sizeof(styles[0]); i++)
		if (!strcmp(arg, styles[i].name)) {
			o->style = (int)styles[i].style;
			return 0;
		}
	return cli__usage_error(o->cmd, "--style: '%s' is not groups, kernel, attr or alignas",
				arg);
}

static void add_list(struct fields_list *l, const char *arg)
{
	char *copy = xstrdup(arg), *save = NULL;

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		fields_list__add(l, tok);
	free(copy);
}

static int suggest_option(void *ctx, int id, const char *arg)
{
	struct suggest_opts *o = ctx;

	switch (id) {
	case OPT_INPUT:
		o->input = arg;
		break;
	case OPT_CLASS:
		add_list(&o->structs, arg);
		break;
	case OPT_VMLINUX:
		return cli__attr_option(o->cmd, &o->attr, CLI_ATTR_VMLINUX, arg);
	case OPT_ATTR ... OPT_ATTR_LAST:
		return cli__attr_option(o->cmd, &o->attr, id - OPT_ATTR, arg);
	case OPT_LINE_SIZE:
		return cli__parse_line_size(o->cmd, arg, &o->line_size);
	case OPT_DOUBLE_CL:
		o->double_cl = true;
		break;
	case OPT_MAX_GROWTH:
		return parse_growth(o, arg);
	case OPT_PIN:
		add_list(&o->pins, arg);
		break;
	case OPT_PATCH:
		o->patch = arg;
		break;
	case OPT_DOC:
		o->doc = arg;
		break;
	case OPT_SOURCE_ROOT:
		o->source_root = arg;
		break;
	case OPT_STYLE:
		return parse_style(o, arg);
	case OPT_VERIFY:
		o->verify = true;
		break;
	case OPT_CC:
		o->cc = arg;
		break;
	case OPT_CFLAGS:
		o->cflags = arg;
		break;
	case OPT_LIMIT:
		if (cli__parse_u64(o->cmd, "--limit", arg, &o->limit))
			return EXIT_USAGE;
		break;
	case OPT_STDIO:
		o->format = FMT_STDIO;
		break;
	case OPT_JSON:
		o->format = FMT_JSON;
		break;
	case OPT_TUI:
		o->format = FMT_TUI;
		return cli__tui_option();
	case OPT_TIME ... OPT_COMM:
		return cli__filter_option(o->cmd, &o->filter, id - OPT_TIME, arg);
	}
	return 0;
}

/* ---- reading the recording ---- */

/* -C's structs, or the worst ones: 0, or an exit code after saying what is wrong. */
static int select_targets(struct suggest_ctx *c)
{
	struct suggest_opts *o = c->o;

	suggest_targets__sort(&c->sl.ts);
	if (!o->structs.nr) {
		size_t n = 0;

		for (size_t i = 0; i < c->sl.ts.nr && n < (o->limit ? o->limit : 3); i++)
			if (c->sl.ts.v[i].hitm) {
				c->sl.ts.v[i].selected = true;
				n++;
			}
		if (!n) {
			cli__error("%s: no HITM on any attributed struct (%" PRIu64 " of %" PRIu64
				   " samples attributed): nothing to lay out", c->o->input,
				   c->sl.ts.attributed, (uint64_t)c->sl.ld.nr_samples);
			return EXIT_NOTHING;
		}
		return 0;
	}
	for (size_t s = 0; s < o->structs.nr; s++) {
		const char *want = fields_attr__strip_tag(o->structs.v[s]);
		bool found = false;

		for (size_t i = 0; i < c->sl.ts.nr; i++)
			if (!strcmp(fields_attr__strip_tag(c->sl.ts.v[i].flat->name), want))
				found = c->sl.ts.v[i].selected = true;
		if (found)
			continue;
		if (fields_attr__has_struct(c->sl.ld.fa, want)) {
			cli__error("%s: no sample was attributed to struct %s", o->input, want);
			return EXIT_NOTHING;
		}
		const char *close[5];
		int nc = fields_attr__closest(c->sl.ld.fa, want, close, 5);
		struct strbuf sb = STRBUF_INIT;

		for (int i = 0; i < nc; i++)
			strbuf__addf(&sb, "%s%s", i ? ", " : "", close[i]);
		cli__error("%s: no object at hand defines struct %s%s%s", o->input, want,
			   nc ? "; did you mean " : "", nc ? sb.buf : "");
		strbuf__release(&sb);
		return EXIT_USAGE;
	}
	return 0;
}

/* ---- output ---- */

static void print_layouts(struct suggest_ctx *c, struct suggest_target *t, struct strbuf *out)
{
	strbuf__addf(out, "\ncurrent layout (measured):\n");
	suggest_load__print_layout(&c->sl, t, false, out);
	if (t->res.status != SUGGEST_OK || !t->built)
		return;
	strbuf__addf(out, "\nsuggested layout (offsets as gcc/clang place them on x86-64):\n");
	suggest_load__print_layout(&c->sl, t, true, out);
}

/* --tui: the browser's suggestion view on the first struct with a suggestion. */
static int browse(struct suggest_ctx *c, struct suggest_target *t, const char *recording,
		  const char *patch)
{
	char err[256];

	if (tui__suggest_target(&c->sl, t, recording, patch, err, sizeof(err)) < 0) {
		cli__error("%s", err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static void json_str(struct strbuf *sb, const char *key, const char *v, bool comma)
{
	strbuf__addf(sb, "%s\"%s\": ", comma ? ", " : "", key);
	if (!v) {
		strbuf__addf(sb, "null");
		return;
	}
	strbuf__addf(sb, "\"");
	strbuf__add_json(sb, v);
	strbuf__addf(sb, "\"");
}

static void json_ids(struct strbuf *sb, const char *key, const struct id_set *s)
{
	strbuf__addf(sb, ", \"%s\": [", key);
	for (uint32_t i = 0; i < s->nr; i++)
		strbuf__addf(sb, "%s%" PRIu32, i ? ", " : "", s->ids[i]);
	strbuf__addf(sb, "]");
}

static void json_prediction(struct strbuf *sb, const char *key, const struct suggest_prediction *p)
{
	strbuf__addf(sb, ", \"%s\": {\"transfers\": %" PRIu64 ", \"hitm_measured\": %" PRIu64
			 ", \"lines\": [", key, p->transfers, p->hitm_measured);
	for (unsigned int i = 0; i < p->nr_lines; i++)
		strbuf__addf(sb, "%s{\"offset\": %" PRIu64 ", \"transfers\": %" PRIu64
				 ", \"hitm_measured\": %" PRIu64 ", \"accesses\": %" PRIu64 "}",
			     i ? ", " : "", p->lines[i].offset, p->lines[i].transfers,
			     p->lines[i].hitm_measured, p->lines[i].accesses);
	strbuf__addf(sb, "]}");
}

/* A member's share of lineup fields' verdicts: ["false_elements", "true"]. */
static void json_sharing(struct strbuf *sb, unsigned int bits)
{
	strbuf__addf(sb, ", \"sharing\": [");
	for (unsigned int bit = 1, k = 0; bit <= SHARING_ONE_WRITER; bit <<= 1)
		if (bits & bit)
			strbuf__addf(sb, "%s\"%s\"", k++ ? ", " : "", slot_sharing__id(bit));
	strbuf__addf(sb, "]");
}

/* lineup fields' verdict on the struct's lines, as fields' JSON names the verdicts. */
static void json_verdict(struct strbuf *sb, const struct suggest_result *r)
{
	if (!r->have_verdicts) {
		strbuf__addf(sb, ", \"verdict\": null");
		return;
	}
	strbuf__addf(sb, ", \"verdict\": {\"kind\": \"%s\", \"lines\": {",
		     line_verdict__name(r->verdict));
	for (int k = LINE_QUIET + 1, n = 0; k <= LINE_WRITE_READ; k++)
		strbuf__addf(sb, "%s\"%s\": %u", n++ ? ", " : "",
			     line_verdict__name((enum line_verdict)k), r->verdicts.lines[k]);
	strbuf__addf(sb, "}, \"hitm\": {");
	for (int k = LINE_QUIET + 1, n = 0; k <= LINE_WRITE_READ; k++)
		strbuf__addf(sb, "%s\"%s\": %" PRIu64, n++ ? ", " : "",
			     line_verdict__name((enum line_verdict)k), r->verdicts.hitm[k]);
	strbuf__addf(sb, "}}");
}

static const char *status_id(enum suggest_status s)
{
	return s == SUGGEST_OK ? "ok" : s == SUGGEST_NOTHING ? "nothing to do" : "refused";
}

static const char *finding_id(enum suggest_finding_kind k)
{
	static const char *const ids[] = {
		[SUGGEST_TRUE_SHARING] = "true_sharing", [SUGGEST_TEST_BEFORE_SET] = "test_before_set",
		[SUGGEST_ELEMENTS] = "pad_elements", [SUGGEST_INSTANCES] = "align_instances",
		[SUGGEST_GAVE_UP] = "max_growth", [SUGGEST_ARRAY_ELEMENT] = "pad_array_element",
	};
	return ids[k];
}

static void json_target(struct suggest_ctx *c, struct suggest_target *t, const struct suggest_names *n,
			struct strbuf *sb)
{
	const struct suggest_result *r = &t->res;
	struct strbuf tmp = STRBUF_INIT;

	strbuf__addf(sb, "{");
	json_str(sb, "type", t->flat->name, false);
	if (!t->planned) {
		json_str(sb, "status", "refused", true);
		json_str(sb, "message", t->plan_err, true);
		strbuf__addf(sb, "}");
		return;
	}
	json_str(sb, "status", status_id(r->status), true);
	json_str(sb, "message", r->status == SUGGEST_OK ? NULL : r->message, true);
	json_verdict(sb, r);
	strbuf__addf(sb, ", \"line_size\": %u, \"accesses\": %" PRIu64 ", \"instances\": %" PRIu64
			 ", \"size\": {\"before\": %" PRIu64 ", \"after\": %" PRIu64 "}"
			 ", \"align\": {\"before\": %u, \"after\": %u}"
			 ", \"holes\": {\"before\": %" PRIu64 ", \"after\": %" PRIu64 "}",
		     c->sl.line_size, r->nr_accesses, r->nr_instances, r->old_size,
		     r->status == SUGGEST_OK ? r->size : r->old_size, r->old_align,
		     r->status == SUGGEST_OK ? r->align : r->old_align, r->old_holes,
		     r->status == SUGGEST_OK ? r->holes : r->old_holes);
	strbuf__addf(sb, ", \"members\": [");
	for (unsigned int u = 0; u < t->plan.nr_units; u++) {
		const struct suggest_profile *p = &r->profiles[u];

		strbuf__addf(sb, "%s{", u ? ", " : "");
		json_str(sb, "name", t->plan.units[u].name, false);
		strbuf__addf(sb, ", \"size\": %" PRIu64 ", \"offset\": %" PRIu64
				 ", \"new_offset\": %" PRIu64 ", \"align_attr\": %u",
			     t->plan.units[u].size, t->plan.units[u].offset, r->new_offset[u],
			     r->align_attr[u]);
		json_str(sb, "use", suggest_use__name(p->use), true);
		json_str(sb, "group", p->group >= 0 ? r->groups[p->group].name : NULL, true);
		strbuf__addf(sb, ", \"loads\": %" PRIu64 ", \"stores\": %" PRIu64 ", \"locked\": %"
				 PRIu64 ", \"writes\": %" PRIu64 ", \"hitm\": %" PRIu64,
			     p->loads, p->stores, p->locked, p->writes, p->hitm);
		json_ids(sb, "writers", &p->writers);
		json_ids(sb, "readers", &p->readers);
		json_sharing(sb, p->sharing);
		if (p->elem_writers)
			strbuf__addf(sb, ", \"elements\": {\"writers\": %" PRIu64 ", \"part\": %"
					 PRIu64 ", \"interleaved\": %s}", p->elem_writers,
				     p->elem_part, p->elem_interleaved ? "true" : "false");
		strbuf__addf(sb, ", \"pinned\": %s}", t->plan.units[u].pinned ? "true" : "false");
	}
	strbuf__addf(sb, "], \"order\": [");
	for (unsigned int k = 0; k < r->nr_units; k++) {
		strbuf__addf(sb, "%s\"", k ? ", " : "");
		strbuf__add_json(sb, t->plan.units[r->order[k]].name);
		strbuf__addf(sb, "\"");
	}
	strbuf__addf(sb, "], \"groups\": [");
	for (unsigned int g = 0; g < r->nr_groups; g++) {
		const struct suggest_group *gr = &r->groups[g];

		strbuf__addf(sb, "%s{", g ? ", " : "");
		json_str(sb, "name", gr->name, false);
		json_str(sb, "kind", gr->kind == SUGGEST_GROUP_WRITTEN ? "written" : "read-mostly",
			 true);
		strbuf__addf(sb, ", \"starts_line\": %s, \"hitm\": %" PRIu64 ", \"writes\": %" PRIu64
				 ", \"loads\": %" PRIu64, gr->aligned ? "true" : "false", gr->hitm,
			     gr->writes, gr->loads);
		json_ids(sb, "writers", &gr->writers);
		json_ids(sb, "readers", &gr->readers);
		strbuf__addf(sb, "}");
	}
	strbuf__addf(sb, "]");
	json_prediction(sb, "before", &r->before);
	if (r->status == SUGGEST_OK)
		json_prediction(sb, "after", &r->after);
	strbuf__addf(sb, ", \"findings\": [");
	for (unsigned int i = 0; i < r->nr_findings; i++) {
		const struct suggest_finding *f = &r->findings[i];
		struct suggest_result one = *r;

		one.findings = (struct suggest_finding *)f;
		one.nr_findings = 1;
		strbuf__reset(&tmp);
		suggest__advice(&one, n, &tmp);
		strbuf__addf(sb, "%s{", i ? ", " : "");
		json_str(sb, "kind", finding_id(f->kind), false);
		json_str(sb, "member", f->unit >= 0 ? t->plan.units[f->unit].name : NULL, true);
		strbuf__addf(sb, ", \"a\": %" PRIu64 ", \"b\": %" PRIu64 ", \"rate\": %.1f", f->a,
			     f->b, f->rate);
		json_str(sb, "text", tmp.buf ? tmp.buf : "", true);
		strbuf__addf(sb, "}");
	}
	strbuf__addf(sb, "]");
	if (r->status == SUGGEST_OK) {
		strbuf__reset(&tmp);
		suggest__comment(r, n, &tmp);
		json_str(sb, "comment", tmp.buf, true);
	}
	strbuf__release(&tmp);
}

/* The misaligned arrays, each with its fix and what became of its patch. */
static void print_align(struct suggest_ctx *c, const struct suggest_patch *p, struct strbuf *out)
{
	size_t n = 0;

	for (size_t i = 0; i < c->sl.align->nr_findings; i++) {
		const struct align_finding *af = &c->sl.align->findings[i];

		if (!suggest_load__align_selected(&c->sl, af))
			continue;
		if (!n++)
			strbuf__addf(out, "arrays whose elements share cache lines across threads:\n");
		align_finding__explain(c->sl.align, af, fields_attr__name_ip, c->sl.ld.fa, out);
		for (unsigned int k = 0; k < p->nr_allocs; k++) {
			const struct suggest_alloc_fix *x = &p->allocs[k];

			if (x->af != af)
				continue;
			if (x->message)
				strbuf__addf(out, "  no patch for the allocation: %s%s%s\n",
					     x->where ? x->where : "", x->where ? ": " : "",
					     x->message);
			else
				strbuf__addf(out, "  patch: the allocation at %s made line-aligned\n",
					     x->where);
			if (c->valloc && c->valloc[k].done)
				strbuf__addf(out, "  verify: %s: %s\n",
					     c->valloc[k].ok ? "ok" : "FAILED", c->valloc[k].detail);
		}
		strbuf__addf(out, "\n");
	}
}

static void json_verify(struct strbuf *out, const struct suggest_verify *v)
{
	strbuf__addf(out, ", \"verify\": {\"ok\": %s, \"skipped\": %s", v->ok ? "true" : "false",
		     v->skipped ? "true" : "false");
	json_str(out, "detail", v->detail, true);
	strbuf__addf(out, "}");
}

static void json_align(struct suggest_ctx *c, const struct suggest_patch *p, struct strbuf *out)
{
	struct strbuf tmp = STRBUF_INIT;
	size_t n = 0;

	strbuf__addf(out, ", \"alignment\": [");
	for (size_t i = 0; i < c->sl.align->nr_findings; i++) {
		const struct align_finding *af = &c->sl.align->findings[i];

		if (!suggest_load__align_selected(&c->sl, af))
			continue;
		strbuf__reset(&tmp);
		align_finding__explain(c->sl.align, af, fields_attr__name_ip, c->sl.ld.fa, &tmp);
		strbuf__addf(out, "%s{", n++ ? ", " : "");
		json_str(out, "object", af->name, false);
		json_str(out, "element", af->elem ? af->elem->name : NULL, true);
		strbuf__addf(out, ", \"causes\": [");
		for (unsigned int bit = 1, k = 0; bit <= ALIGN_CAUSE_LAST; bit <<= 1)
			if (af->causes & bit)
				strbuf__addf(out, "%s\"%s\"", k++ ? ", " : "", align_cause__id(bit));
		strbuf__addf(out, "], \"misalign\": %u, \"stride\": %" PRIu64 ", \"new_stride\": %"
				  PRIu64 ", \"new_size\": %" PRIu64 ", \"hitm\": %" PRIu64,
			     af->misalign, af->stride, af->new_stride, af->new_size, af->hitm);
		json_str(out, "text", tmp.buf, true);
		for (unsigned int k = 0; k < p->nr_allocs; k++)
			if (p->allocs[k].af == af) {
				json_str(out, "allocation", p->allocs[k].where, true);
				json_str(out, "allocation_patch_refused", p->allocs[k].message, true);
				if (c->valloc && c->valloc[k].done)
					json_verify(out, &c->valloc[k]);
			}
		strbuf__addf(out, "}");
	}
	strbuf__addf(out, "]");
	strbuf__release(&tmp);
}

/* Write @text to @path ('-': stdout) through util/file.h's safe writer; 0 or an exit code. */
static int write_out(const char *path, const char *text)
{
	if (!strcmp(path, "-")) {
		fputs(text, stdout);
		return 0;
	}
	char err[PATH_MAX + 128];
	int rc = file__write_atomic(path, text, strlen(text), true, err, sizeof(err));

	if (rc < 0) {
		cli__error("%s", err);
		return rc == -ELOOP || rc == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
	}
	return 0;
}

/* ---- --verify ---- */

/* A destination of --patch or --doc, before any work: 0, or an exit code after saying why. */
static int check_out(const char *path)
{
	struct stat st;

	if (!strcmp(path, "-") || lstat(path, &st) < 0)
		return 0;	/* a missing file is made; other errors said when it is written */
	if (S_ISLNK(st.st_mode)) {
		cli__error("%s: a symbolic link: not written through (name the file itself)", path);
		return EXIT_USAGE;
	}
	if (!S_ISREG(st.st_mode)) {
		cli__error("%s: not a regular file: not written", path);
		return EXIT_USAGE;
	}
	return 0;
}

/* Each struct and allocation of the patch compiled (pipeline/suggest_verify.h): whether one
 * check failed. */
static bool verify(struct suggest_ctx *c, struct suggest_patch *p)
{
	struct suggest_verify_opts vo = { .cc = c->o->cc, .cflags = c->o->cflags };
	char warn[PATH_MAX + 128] = "";
	bool failed = false;

	c->vreq = xcalloc(p->nr_reqs + 1, sizeof(*c->vreq));
	c->valloc = xcalloc(p->nr_allocs + 1, sizeof(*c->valloc));
	if (!p->nr_files)
		return false;
	suggest_verify__run(p, &vo, c->vreq, c->valloc, warn, sizeof(warn));
	if (*warn)
		fprintf(stderr, "lineup suggest: warning: %s\n", warn);
	for (unsigned int i = 0; i < p->nr_reqs; i++)
		failed |= c->vreq[i].done && !c->vreq[i].ok && !c->vreq[i].skipped;
	for (unsigned int k = 0; k < p->nr_allocs; k++)
		failed |= c->valloc[k].done && !c->valloc[k].ok;
	return failed;
}

/* Whether --verify checked anything (a kernel source's "not checked" counts: it is said). */
static bool verified_any(const struct suggest_ctx *c, const struct suggest_patch *p)
{
	for (unsigned int i = 0; c->vreq && i < p->nr_reqs; i++)
		if (c->vreq[i].done)
			return true;
	for (unsigned int k = 0; c->valloc && k < p->nr_allocs; k++)
		if (c->valloc[k].done)
			return true;
	return false;
}

/* The selected structs with a layout that the patch does not hold, "a, b" to free, or NULL. */
static char *missing_structs(const struct suggest_ctx *c, const struct suggest_patch *p)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t k = 0; k < c->sl.ts.nr; k++) {
		const struct suggest_target *t = &c->sl.ts.v[k];
		bool in = false;

		if (!t->selected || !t->planned || t->res.status != SUGGEST_OK)
			continue;
		for (unsigned int i = 0; i < p->nr_reqs && !in; i++)
			in = p->req_target[i] == t && p->sp && !p->sp->outcomes[i].error;
		if (!in)
			strbuf__addf(&sb, "%s%s", sb.len ? ", " : "", t->flat->name);
	}
	if (sb.len)
		strbuf__addf(&sb, " (see above)");
	return sb.buf;
}

/* ---- the command ---- */

/* What the pipeline says, as lineup suggest always said it. */
static void say(void *ctx, bool warning, const char *msg)
{
	if (warning)
		fprintf(stderr, "lineup suggest: warning: %s\n", msg);
	else
		cli__error("%s", msg);
}

static int open_recording(struct suggest_ctx *c)
{
	struct suggest_opts *o = c->o;
	char err[4096];
	int rc;

	c->lo = (struct suggest_load_opts){
		.input = o->input, .attr = &o->attr, .filter = &o->filter,
		.line_size = (unsigned int)o->line_size, .double_cl = o->double_cl,
		.max_growth = o->max_growth, .max_growth_lines = o->max_growth_lines,
		.pins = &o->pins, .source_root = o->source_root, .style = o->style,
		.by_name = o->structs.nr > 0, .say = say,
	};
	rc = suggest_load__run(&c->sl, &c->lo, err, sizeof(err));
	if (rc) {
		cli__error("%s", err);
		return rc == -ENODATA ? EXIT_NOTHING : EXIT_USAGE;
	}
	return 0;
}

/*
 * `lineup verify PATCH`: the patch under review must be the one lineup suggests for the
 * recording (the same structs, order, groups and comment), and the patched source must
 * compile to the predicted layout.  0 when both hold; 1 with the first difference.
 */
static int check_patch(const char *path, const char *theirs, const char *ours)
{
	unsigned int line = 1;
	const char *a, *b;

	for (a = theirs, b = ours; *a && *a == *b; a++, b++)
		line += *a == '\n';
	if (*a || *b) {
		const char *end = strchr(a, '\n');

		cli__error("%s: line %u differs from the patch lineup suggests for this recording: "
			   "'%.*s'", path, line, end ? (int)(end - a) : (int)strlen(a), a);
		return EXIT_NOTHING;
	}
	return 0;
}

static int suggest_run(const struct command *cmd, int argc, char **argv, bool verify_cmd);

static int suggest_main(const struct command *cmd, int argc, char **argv)
{
	return suggest_run(cmd, argc, argv, false);
}

static int verify_main(const struct command *cmd, int argc, char **argv)
{
	return suggest_run(cmd, argc, argv, true);
}

/* Each selected struct's suggestion, as text or JSON, into @out; --doc written.  0, or -1
 * when --doc could not be written (said). */
static int report_targets(struct suggest_ctx *c, const struct suggest_patch *p,
			  const char *recording, struct strbuf *out)
{
	int rc = 0;

	for (size_t k = 0, n = 0; k < c->sl.ts.nr; k++) {
		struct suggest_target *t = &c->sl.ts.v[k];
		struct suggest_names nm;
		struct suggest_load_names nc;
		int req = -1;

		if (!t->selected)
			continue;
		for (unsigned int i = 0; i < p->nr_reqs; i++)
			if (p->req_target[i] == t)
				req = (int)i;
		suggest_load__names(&c->sl, t, recording, &nm, &nc);
		if (c->o->format == FMT_JSON) {
			strbuf__addf(out, "%s\n", n++ ? "," : "");
			json_target(c, t, &nm, out);
			if (t->planned) {
				if (req >= 0 && !p->sp->outcomes[req].error)
					json_str(out, "patch", p->diff, true);
				if (c->vreq && req >= 0 && c->vreq[req].done)
					json_verify(out, &c->vreq[req]);
				strbuf__addf(out, "}");
			}
		} else {
			if (n++)
				strbuf__addf(out, "\n");
			if (!t->planned) {
				strbuf__addf(out, "%s: no suggestion: %s\n", t->flat->name, t->plan_err);
				strbuf__release(&nc.sb);
				continue;
			}
			suggest__explain(&t->res, &nm, out);
			if (t->res.status != SUGGEST_REFUSED)
				print_layouts(c, t, out);
			if (t->res.status == SUGGEST_OK) {
				strbuf__addf(out, "\nlayout comment:\n");
				suggest__comment(&t->res, &nm, out);
			}
			if (c->vreq && req >= 0 && c->vreq[req].done)
				strbuf__addf(out, "\nverify: %s: %s\n",
					     c->vreq[req].ok ? "ok" : c->vreq[req].skipped ? "skipped" :
					     "FAILED", c->vreq[req].detail);
		}
		if (c->o->doc && t->res.status == SUGGEST_OK) {
			struct strbuf doc = STRBUF_INIT;

			suggest__doc(&t->res, &nm, NULL, &doc);
			if (write_out(c->o->doc, doc.buf))
				rc = -1;
			strbuf__release(&doc);
		}
		strbuf__release(&nc.sb);
	}
	return rc;
}

/* --patch: the diff written, and what it lacks said.  0, or -1 (said). */
static int write_patch(const struct suggest_ctx *c, const struct suggest_patch *p, FILE *rep)
{
	char *missing = missing_structs(c, p);
	const char *lacks = missing ? ": incomplete, it lacks " : "";
	int rc = 0;

	if (write_out(c->o->patch, p->diff))
		rc = -1;
	else if (strcmp(c->o->patch, "-") && c->o->format == FMT_JSON)
		fprintf(stderr, "lineup suggest: wrote %s%s%s\n", c->o->patch, lacks,
			missing ? missing : "");
	else if (strcmp(c->o->patch, "-"))
		fprintf(rep, "\nwrote %s%s%s\n", c->o->patch, lacks, missing ? missing : "");
	else if (missing)
		fprintf(stderr, "lineup suggest: the patch is incomplete: it lacks %s\n", missing);
	free(missing);
	return rc;
}

static int suggest_run(const struct command *cmd, int argc, char **argv, bool verify_cmd)
{
	struct suggest_opts o = { .cmd = cmd, .input = "perf.data", .max_growth = UINT64_MAX,
				  .style = -1 };
	struct suggest_ctx c = { .o = &o };
	struct suggest_patch patch = { 0 };
	struct strbuf out = STRBUF_INIT;
	int rc, first = cli__parse(cmd, argc, argv, suggest_option, &o, &rc);
	bool any_ok = false, verify_failed = false, any_align = false;

	const char *under_review = NULL;
	char *theirs = NULL;

	if (first < 0)
		return rc;
	if (verify_cmd) {
		if (first >= argc)
			return cli__usage_error(cmd, "which patch? (lineup verify PATCH)");
		under_review = argv[first++];
		o.verify = true;
		if (o.patch)
			return cli__usage_error(cmd, "--patch: verify checks the PATCH it is given");
	}
	if (first < argc)
		return cli__usage_error(cmd, "unexpected argument '%s'", argv[first]);
	if (under_review) {
		/* read before the work: a patch that cannot be read is said at once */
		char err[PATH_MAX + 128];

		if (!(theirs = file__read_text(under_review, FILE_PATCH, err, sizeof(err)))) {
			cli__error("%s", err);
			return EXIT_USAGE;
		}
	}
	if (o.verify && o.patch && !strcmp(o.patch, "-") && o.format == FMT_JSON)
		return cli__usage_error(cmd, "--patch - and --json both write to stdout");
	/* the destinations before the work: a link or a directory there is refused at once */
	if ((o.patch && (rc = check_out(o.patch))) || (o.doc && (rc = check_out(o.doc))))
		return rc;
	rc = open_recording(&c);
	if (rc)
		goto out;
	rc = select_targets(&c);
	if (rc)
		goto out;
	for (size_t k = 0; k < c.sl.ts.nr; k++)
		if (c.sl.ts.v[k].selected && c.sl.ts.v[k].plan_rc == -ENOENT) {
			cli__error("%s", c.sl.ts.v[k].plan_err);
			rc = EXIT_USAGE;
			goto out;
		}
	char *recording = xasprintf("%s (%" PRIu64 " samples, %" PRIu64 " attributed)", o.input,
				    (uint64_t)c.sl.ld.nr_samples, c.sl.ts.attributed);

	any_ok = suggest_load__decide(&c.sl);
	int prc = 0;

	for (size_t i = 0; i < c.sl.align->nr_findings; i++)
		any_align |= suggest_load__align_fixable(&c.sl.align->findings[i]) &&
			     suggest_load__align_selected(&c.sl, &c.sl.align->findings[i]);
	if ((o.patch || o.verify || o.format == FMT_TUI) && (any_ok || any_align)) {
		prc = suggest_load__patch(&c.sl, &patch, recording);
	}
	if (o.format == FMT_TUI) {
		rc = EXIT_NOTHING;
		for (size_t k = 0; k < c.sl.ts.nr && rc == EXIT_NOTHING; k++) {
			struct suggest_target *t = &c.sl.ts.v[k];

			if (!t->selected || t->res.status != SUGGEST_OK || !t->built)
				continue;
			rc = browse(&c, t, recording, patch.diff && *patch.diff ? patch.diff : NULL);
		}
		if (rc == EXIT_NOTHING)
			cli__error("%s: nothing to suggest for the selected structs", o.input);
		free(recording);
		goto out;
	}
	if (under_review) {
		int crc = patch.diff ? check_patch(under_review, theirs, patch.diff) : EXIT_NOTHING;

		if (!patch.diff)
			cli__error("%s: lineup suggests no patch for this recording", under_review);
		if (crc) {
			free(recording);
			rc = crc;
			goto out;
		}
	}
	if (o.verify)
		verify_failed = verify(&c, &patch);
	/* the report: --patch - keeps stdout for the diff */
	FILE *rep = o.patch && !strcmp(o.patch, "-") ? stderr : stdout;

	if (o.format == FMT_JSON)
		strbuf__addf(&out, "{\"input\": \"%s\", \"line_size\": %u, \"structs\": [",
			     o.input, c.sl.line_size);
	else
		print_align(&c, &patch, &out);
	if (report_targets(&c, &patch, recording, &out))
		prc = EXIT_USAGE;
	if (o.format == FMT_JSON) {
		strbuf__addf(&out, "\n]");
		json_align(&c, &patch, &out);
		strbuf__addf(&out, "}\n");
	}
	if (o.verify && !verified_any(&c, &patch)) {
		if (o.format != FMT_JSON)
			strbuf__addf(&out, "\nverify: not checked: %s\n", patch.diff && *patch.diff ?
				     "no struct or allocation of the patch could be compiled" :
				     "there is no patch to check (see above)");
		verify_failed = true;
	}
	fputs(out.buf ? out.buf : "", rep);
	if (o.patch && patch.diff && *patch.diff && write_patch(&c, &patch, rep))
		prc = EXIT_USAGE;
	free(recording);
	rc = prc ? prc : verify_failed ? EXIT_NOTHING : any_ok || any_align ? EXIT_OK : EXIT_NOTHING;
out:
	free(theirs);
	free(c.vreq);
	free(c.valloc);
	strbuf__release(&out);
	suggest_patch__release(&patch);
	suggest_load__release(&c.sl);
	fields_list__release(&o.structs);
	fields_list__release(&o.pins);
	fields_attr_opts__release(&o.attr);
	session_filter__release(&o.filter);
	return rc;
}

const struct command cmd_suggest = {
	.name = "suggest",
	.summary = "propose a struct layout that removes the false sharing, with its predicted "
		   "effect, a comment and a patch",
	.usage = "[-i perf.data] [-C STRUCT] [--patch FILE] [--source-root DIR] [--verify]",
	.description =
		"Reads a recording (lineup record, record --sim, watch, or perf c2c record), ties "
		"each sample to a struct member as `lineup fields` does, and for each struct behind "
		"the contended lines (or those named with -C) proposes a member order: members "
		"written by the same threads share a cache line, read-mostly members get a line no "
		"write invalidates, members used together stay together, cold members fill the "
		"gaps.  It prints the new layout as the compiler will place it, the line transfers "
		"predicted by replaying the recording on it, advice where no order helps (true "
		"sharing, redundant atomic RMWs, array elements written by different threads), and "
		"a layout comment; --patch writes a diff of the source that moves the declarations, "
		"--verify compiles the patched source and checks every offset.  Exit status: 0 a "
		"layout was suggested (and verified), 1 nothing to do or a check failed, 2 bad "
		"usage or input.",
	.options = suggest_options,
	.run = suggest_main,
};

const struct command cmd_verify = {
	.name = "verify",
	.summary = "check a layout patch: lineup's suggestion for the recording, compiled to the "
		   "predicted offsets",
	.usage = "[-i perf.data] [-C STRUCT] [--source-root DIR] [--cc CC] [--cflags F] PATCH",
	.description =
		"Takes the options of 'lineup suggest' and a patch under review (one that "
		"'lineup suggest --patch' wrote, perhaps on another machine): suggests again for "
		"the recording, checks that the patch is exactly the suggestion (the same structs, "
		"order, groups, comment and checks), applies it to a copy of the source, compiles "
		"the unit that defines each struct, and compares every member's offset and size "
		"with the prediction.  Exit status: 0 all equal, 1 the first difference (said), 2 "
		"bad usage or input.",
	.options = suggest_options,
	.run = verify_main,
};
