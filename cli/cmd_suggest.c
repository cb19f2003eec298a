// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lineup suggest: a new member order for the structs behind the contended lines of a
 * recording, the layout the compiler will give it, the effect predicted by replaying the
 * recording, the layout comment, and a patch that moves the declarations in the source.
 *
 * The order and the prediction are analyzer/suggest.h's, the words analyzer/suggest_text.h's,
 * the new layout analyzer/layout.h's layout__build, the patch analyzer/srcpatch.h's; the
 * recording is read by sampling/fields_load.h into analyzer/suggest_targets.h's suggesters.
 * This file chooses the structs, finds the source, prints, writes the files, and runs the
 * compiler for --verify.
 */
#include <config.h>

#include <errno.h>
#include <ftw.h>
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
#include "analyzer/u64map.h"
#include "cli/command.h"
#include "dwarf/layout.h"
#include "sampling/event.h"
#include "sampling/fields_attr.h"
#include "sampling/fields_load.h"
#include "sampling/perf_file.h"
#include "sampling/session.h"
#include "sampling/workload.h"
#include "tui/tui.h"
#include "util/arena.h"
#include "util/file.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

enum {
	OPT_INPUT = 'i',
	OPT_VMLINUX = 'k',
	OPT_CLASS = 'C',
	OPT_DEBUG_FILE = 1000,
	OPT_TYPE,
	OPT_CACHE_TYPE,
	OPT_SYMFS,
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
	{ OPT_VMLINUX, 'k', "vmlinux", "FILE", "kernel image with debug info, for kernel samples" },
	{ OPT_DEBUG_FILE, 0, "debug-file", "FILE",
	  "an object with debug info to take types from (a .ko, a binary; repeatable)" },
	{ OPT_TYPE, 0, "type", "'struct T'@ADDR",
	  "hint: an instance of type T lives at ADDR (repeatable)" },
	{ OPT_CACHE_TYPE, 0, "cache-type", "NAME=TYPE", "objects of kmem cache NAME are of TYPE" },
	{ OPT_SYMFS, 0, "symfs", "DIR", "look for objects under DIR (perf's --symfs)" },
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
	  "against the prediction (exit 1 on the first difference)" },
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

/* The recording read once (sampling/fields_load.h), its structs' suggesters fed on the way. */
struct suggest_ctx {
	struct suggest_opts *o;
	struct fields_load ld;
	struct suggest_targets ts;
	unsigned int line_size;
	struct arena arena;
	struct array_align *align;	/* arrays whose threads' elements share lines */
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
	case OPT_DEBUG_FILE:
		return cli__attr_option(o->cmd, &o->attr, CLI_ATTR_DEBUG_FILE, arg);
	case OPT_TYPE:
		return cli__attr_option(o->cmd, &o->attr, CLI_ATTR_TYPE, arg);
	case OPT_CACHE_TYPE:
		return cli__attr_option(o->cmd, &o->attr, CLI_ATTR_CACHE_TYPE, arg);
	case OPT_SYMFS:
		return cli__attr_option(o->cmd, &o->attr, CLI_ATTR_SYMFS, arg);
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

/* The suggesters' settings, once the recording has said its line size. */
static void targets_init(struct suggest_ctx *c)
{
	struct suggest_opts *o = c->o;
	struct suggest_targets_config cfg = {
		.pins = (const char *const *)o->pins.v, .nr_pins = (unsigned int)o->pins.nr,
	};

	c->line_size = c->ld.fields->line_size;
	if (o->max_growth_lines)
		o->max_growth = o->max_growth_lines * c->line_size;
	cfg.line_size = c->line_size;
	cfg.max_growth = o->max_growth;
	suggest_targets__init(&c->ts, &cfg);
}

/* Each attributed access, in time order, to its struct's suggester. */
static void on_access(void *ctx, const struct attr_result *res, const struct fields_access *a)
{
	struct suggest_ctx *c = ctx;

	if (!c->line_size)
		targets_init(c);
	suggest_targets__add(&c->ts, res, a);
}

/* -C's structs, or the worst ones: 0, or an exit code after saying what is wrong. */
static int select_targets(struct suggest_ctx *c)
{
	struct suggest_opts *o = c->o;

	suggest_targets__sort(&c->ts);
	if (!o->structs.nr) {
		size_t n = 0;

		for (size_t i = 0; i < c->ts.nr && n < (o->limit ? o->limit : 3); i++)
			if (c->ts.v[i].hitm) {
				c->ts.v[i].selected = true;
				n++;
			}
		if (!n) {
			cli__error("%s: no HITM on any attributed struct (%" PRIu64 " of %" PRIu64
				   " samples attributed): nothing to lay out", c->o->input,
				   c->ts.attributed, (uint64_t)c->ld.nr_samples);
			return EXIT_NOTHING;
		}
		return 0;
	}
	for (size_t s = 0; s < o->structs.nr; s++) {
		const char *want = fields_attr__strip_tag(o->structs.v[s]);
		bool found = false;

		for (size_t i = 0; i < c->ts.nr; i++)
			if (!strcmp(fields_attr__strip_tag(c->ts.v[i].flat->name), want))
				found = c->ts.v[i].selected = true;
		if (found)
			continue;
		if (fields_attr__has_struct(c->ld.fa, want)) {
			cli__error("%s: no sample was attributed to struct %s", o->input, want);
			return EXIT_NOTHING;
		}
		const char *close[5];
		int nc = fields_attr__closest(c->ld.fa, want, close, 5);
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

static const char *unit_code(void *ctx, unsigned int unit, int write);

struct names_ctx {
	struct suggest_ctx *c;
	struct suggest_target *t;
	struct strbuf sb;
};

static const char *unit_code(void *ctx, unsigned int unit, int write)
{
	struct names_ctx *n = ctx;
	uint64_t ip;

	if (!suggest_target__top_ip(n->t, unit, write, &ip))
		return NULL;
	strbuf__reset(&n->sb);
	fields_attr__name_ip(n->c->ld.fa, ip, &n->sb);
	return n->sb.buf;
}

static void names_init(struct suggest_names *n, struct names_ctx *nc, struct suggest_ctx *c,
		       struct suggest_target *t, const char *recording)
{
	memset(nc, 0, sizeof(*nc));
	nc->c = c;
	nc->t = t;
	*n = (struct suggest_names){
		.code = unit_code, .ctx = nc, .units = t->plan.units, .type = t->flat->name,
		.recording = recording, .line_size = c->line_size,
	};
}

/* ---- output ---- */

/* The current layout (@after false) or the suggested one, annotated with its figures. */
static void print_layout(struct suggest_ctx *c, struct suggest_target *t, bool after, struct strbuf *out)
{
	struct layout_print_opts popts = { .line_size = c->line_size, .addr_size = 8 };
	struct suggest_print_ctx pc = {
		.plan = &t->plan, .res = &t->res, .printed = after ? t->built : t->flat->type,
		.after = after, .line_size = c->line_size,
	};
	struct layout_annotate ann;

	suggest_plan__annotate(&pc, &ann);
	popts.annotate = &ann;
	layout__print(pc.printed, &popts, out);
}

static void print_layouts(struct suggest_ctx *c, struct suggest_target *t, struct strbuf *out)
{
	strbuf__addf(out, "\ncurrent layout (measured):\n");
	print_layout(c, t, false, out);
	if (t->res.status != SUGGEST_OK || !t->built)
		return;
	strbuf__addf(out, "\nsuggested layout (offsets as gcc/clang place them on x86-64):\n");
	print_layout(c, t, true, out);
}

/* --tui: the browser's suggestion view on the first struct with a suggestion. */
static int browse(struct suggest_ctx *c, struct suggest_target *t, const struct suggest_names *n,
		  const char *patch)
{
	struct strbuf cur = STRBUF_INIT, prop = STRBUF_INIT, com = STRBUF_INIT, title = STRBUF_INIT;
	struct strbuf sum = STRBUF_INIT;
	struct tui_line_figures *fig[2];
	const struct suggest_prediction *pred[2] = { &t->res.before, &t->res.after };
	char err[256];
	int rc = EXIT_OK;

	print_layout(c, t, false, &cur);
	print_layout(c, t, true, &prop);
	suggest__explain(&t->res, n, &sum);
	suggest__comment(&t->res, n, &com);
	for (int i = 0; i < 2; i++) {
		fig[i] = xcalloc(pred[i]->nr_lines + 1, sizeof(*fig[i]));
		for (unsigned int k = 0; k < pred[i]->nr_lines; k++)
			fig[i][k] = (struct tui_line_figures){ pred[i]->lines[k].offset,
							       pred[i]->lines[k].hitm_measured,
							       pred[i]->lines[k].transfers };
	}
	strbuf__addf(&title, "%s%s%s", t->flat->name, t->flat->type->decl_file ? " (" : "",
		     t->flat->type->decl_file ? t->flat->type->decl_file : "");
	if (t->flat->type->decl_file)
		strbuf__addf(&title, ")");
	struct tui_suggestion ts = {
		.title = title.buf, .summary = sum.buf, .current = cur.buf, .proposed = prop.buf,
		.before = fig[0], .nr_before = pred[0]->nr_lines, .after = fig[1],
		.nr_after = pred[1]->nr_lines, .line_size = c->line_size, .comment = com.buf,
		.patch = patch, .patch_name = "layout.patch",
	};

	if (tui__suggest(&ts, err, sizeof(err)) < 0) {
		cli__error("%s", err);
		rc = EXIT_USAGE;
	}
	strbuf__release(&cur);
	strbuf__release(&prop);
	strbuf__release(&com);
	strbuf__release(&sum);
	strbuf__release(&title);
	free(fig[0]);
	free(fig[1]);
	return rc;
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
	strbuf__addf(sb, ", \"line_size\": %u, \"accesses\": %" PRIu64 ", \"instances\": %" PRIu64
			 ", \"size\": {\"before\": %" PRIu64 ", \"after\": %" PRIu64 "}"
			 ", \"align\": {\"before\": %u, \"after\": %u}"
			 ", \"holes\": {\"before\": %" PRIu64 ", \"after\": %" PRIu64 "}",
		     c->line_size, r->nr_accesses, r->nr_instances, r->old_size,
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

/* ---- the source ---- */

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/*
 * Where the debug info's @decl_file is here: as it is, else under --source-root with its
 * leading directories dropped one by one (a tree built in /build/linux-6.1 read in
 * /usr/src/linux).  Returns a new string, or NULL.
 */
static char *find_source(const char *decl_file, const char *root)
{
	if (!decl_file)
		return NULL;
	if (!root && is_file(decl_file))
		return xstrdup(decl_file);
	if (!root)
		return NULL;
	for (const char *p = decl_file; p; p = strchr(p + 1, '/')) {
		const char *rel = *p == '/' ? p + 1 : p;
		char *path = xasprintf("%s/%s", root, rel);

		if (*rel && is_file(path))
			return path;
		free(path);
	}
	return is_file(decl_file) ? xstrdup(decl_file) : NULL;
}

/* @path relative to @root (or the current directory), for the patch's a/ and b/ names. */
static char *patch_name(const char *path, const char *root)
{
	char rbuf[PATH_MAX], pbuf[PATH_MAX];

	if (realpath(root ? root : ".", rbuf) && realpath(path, pbuf)) {
		size_t n = strlen(rbuf);

		if (!strncmp(pbuf, rbuf, n) && pbuf[n] == '/')
			return xstrdup(pbuf + n + 1);
	}
	while (*path == '/')
		path++;
	return xstrdup(path);
}

/*
 * A layout from BTF has no declaration file: look for "struct NAME {" at the start of a line
 * in the tree's headers (include/ first, then everything), as a reader with grep would.
 */
static const char *search_name;
static char *search_found;

static int search_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	size_t n = strlen(path);
	char err[64], *text, *want;

	(void)st;
	(void)ftw;
	if (type != FTW_F || n < 3 || (strcmp(path + n - 2, ".h") && strcmp(path + n - 2, ".c")))
		return 0;
	if (!(text = file__read_text(path, err, sizeof(err))))
		return 0;
	want = xasprintf("\nstruct %s {", search_name);
	if (strstr(text, want) || !strncmp(text, want + 1, strlen(want + 1)))
		search_found = xstrdup(path);
	free(want);
	free(text);
	return search_found != NULL;
}

static char *find_source_by_name(const char *root, const char *name)
{
	char *inc = xasprintf("%s/include", root);

	search_name = name;
	search_found = NULL;
	if (nftw(inc, search_one, 32, FTW_PHYS) <= 0 && !search_found)
		nftw(root, search_one, 32, FTW_PHYS);
	free(inc);
	return search_found;
}

/* The tree's convention: cacheline groups where include/linux/cache.h has them (6.8+), the
 * kernel's alignment macro in other kernel sources, GNU C's attribute in user space. */
static enum srcpatch_style tree_style(const char *root, const char *text)
{
	char *cache = root ? xasprintf("%s/include/linux/cache.h", root) : NULL;
	enum srcpatch_style style = SRCPATCH_ATTR_ALIGNED;
	char err[64];
	char *ct = cache && is_file(cache) ? file__read_text(cache, err, sizeof(err)) : NULL;

	if (ct)
		style = strstr(ct, "__cacheline_group_begin") ? SRCPATCH_KERNEL_GROUPS :
								SRCPATCH_KERNEL_ALIGNED;
	else if (strstr(text, "#include <linux/"))
		style = SRCPATCH_KERNEL_ALIGNED;
	free(ct);
	free(cache);
	return style;
}

/*
 * struct patch - the source files of the suggested structs and the patcher's answer.
 */
struct patch {
	struct srcpatch_file *files;
	char **paths;		/* where each file is here */
	unsigned int nr_files;
	struct srcpatch_request *reqs;
	struct suggest_target **req_target;
	unsigned int nr_reqs;
	struct srcpatch *sp;
	char **comments;
	char **names;		/* by-name matches: the source's units, the slots' names */
	unsigned int nr_names;
	char **orig;		/* each file as read (files[].text: what srcpatch is given) */
	struct alloc_fix *allocs;	/* the misaligned arrays' allocations */
	unsigned int nr_allocs;
	char *diff;		/* every change, allocations and structs, as one diff */
};

/* One misaligned array's allocating call, rewritten or not (and why). */
struct alloc_fix {
	const struct align_finding *af;
	char *where;		/* "file.c:42" */
	char *message;		/* why not, or NULL when rewritten */
};

static unsigned int patch_file(struct patch *p, const char *path, const char *root,
			       const char *text)
{
	char *name = patch_name(path, root);

	for (unsigned int i = 0; i < p->nr_files; i++)
		if (!strcmp(p->files[i].path, name)) {
			free(name);
			free((char *)text);
			return i;
		}
	p->files = xrealloc(p->files, (p->nr_files + 1) * sizeof(*p->files));
	p->paths = xrealloc(p->paths, (p->nr_files + 1) * sizeof(*p->paths));
	p->orig = xrealloc(p->orig, (p->nr_files + 1) * sizeof(*p->orig));
	p->files[p->nr_files] = (struct srcpatch_file){ .path = name, .text = text };
	p->paths[p->nr_files] = xstrdup(path);
	p->orig[p->nr_files] = xstrdup(text);
	return p->nr_files++;
}

static void patch_release(struct patch *p)
{
	for (unsigned int i = 0; i < p->nr_files; i++) {
		free((char *)p->files[i].path);
		free((char *)p->files[i].text);
		free(p->paths[i]);
		free(p->orig[i]);
	}
	for (unsigned int i = 0; i < p->nr_allocs; i++) {
		free(p->allocs[i].where);
		free(p->allocs[i].message);
	}
	free(p->allocs);
	free(p->orig);
	free(p->diff);
	for (unsigned int i = 0; i < p->nr_reqs; i++) {
		free((void *)p->reqs[i].slots);
		free((void *)p->reqs[i].expected);
		free(p->comments[i]);
	}
	free(p->files);
	free(p->paths);
	free(p->reqs);
	free(p->req_target);
	free(p->comments);
	for (unsigned int i = 0; i < p->nr_names; i++)
		free(p->names[i]);
	free(p->names);
	srcpatch__delete(p->sp);
	memset(p, 0, sizeof(*p));
}

/* Whether '|'-joined @names holds @name. */
static bool names_have(const char *names, const char *name)
{
	size_t len = strlen(name);

	for (const char *x = names; x; x = strchr(x, '|') ? strchr(x, '|') + 1 : NULL)
		if (!strncmp(x, name, len) && (x[len] == '\0' || x[len] == '|'))
			return true;
	return false;
}

/*
 * A layout from BTF (the running kernel) and a source tree of another version: the members
 * are matched by name, unit by unit as the source has them (an anonymous union's names
 * differ between versions: it goes where the first of its names that the kernel has went).
 * Units only the kernel has are left out of the order, those only the source has keep their
 * place after the unit they follow there; both are said.  The offsets predicted are the
 * recorded kernel's, not the source's.
 */
static void match_by_name(struct patch *p, struct srcpatch_request *rq, const char *type,
			  struct srcpatch_slot **slots, const char ***expected)
{
	struct srcpatch_scan *sc;
	struct srcpatch_slot *in = *slots, *out;
	unsigned int n = rq->nr_slots, k = 0, nu = 0;
	struct strbuf only_kernel = STRBUF_INIT, only_source = STRBUF_INIT;

	if (srcpatch__scan(&p->files[rq->file], rq->name, rq->decl_line, &sc) != 0) {
		srcpatch_scan__delete(sc);
		return;	/* srcpatch__make says why */
	}
	/* the source's units: their names joined, in declaration order */
	char **unit = xcalloc(sc->nr_members + 1, sizeof(*unit));
	bool *used = xcalloc(sc->nr_members + 1, sizeof(*used));

	for (unsigned int j = 0; j < sc->nr_members; j++) {
		if (j && sc->members[j - 1].unit == sc->members[j].unit) {
			char *joined = xasprintf("%s|%s", unit[nu - 1], sc->members[j].name);

			free(unit[nu - 1]);
			unit[nu - 1] = joined;
			continue;
		}
		unit[nu++] = xstrdup(sc->members[j].name);
	}
	out = xcalloc(n + nu + 1, sizeof(*out));
	for (unsigned int i = 0; i < n; i++) {
		unsigned int u = nu;
		char *names = xstrdup(in[i].member), *save = NULL;

		for (char *x = strtok_r(names, "|", &save); x && u == nu; x = strtok_r(NULL, "|", &save))
			for (u = 0; u < nu && (used[u] || !names_have(unit[u], x)); u++)
				;
		free(names);
		if (u < nu) {
			used[u] = true;
			out[k] = in[i];
			out[k++].member = unit[u];
			continue;
		}
		strbuf__addf(&only_kernel, "%s%s", only_kernel.len ? ", " : "", in[i].member);
		/* a group start moves to the next member kept */
		if (in[i].group && i + 1 < n && !in[i + 1].group) {
			in[i + 1].group = in[i].group;
			in[i + 1].new_line |= in[i].new_line;
		}
	}
	/* the source's own units, after the unit that precedes them in the source */
	for (unsigned int u = 0; u < nu; u++) {
		unsigned int at = 0;

		if (used[u])
			continue;
		strbuf__addf(&only_source, "%s%s", only_source.len ? ", " : "", unit[u]);
		for (int q = (int)u - 1; q >= 0 && !at; q--)
			for (unsigned int w = 0; w < k; w++)
				if (out[w].member == unit[q])
					at = w + 1;
		memmove(out + at + 1, out + at, (k - at) * sizeof(*out));
		out[at] = (struct srcpatch_slot){ .member = unit[u] };
		used[u] = true;
		k++;
	}
	const char **exp = xcalloc(k + 1, sizeof(*exp));

	for (unsigned int i = 0; i < k; i++)
		exp[i] = out[i].member;
	if (only_kernel.len || only_source.len)
		fprintf(stderr, "lineup suggest: warning: %s: the source's members differ from the "
			"recorded kernel's (BTF): matched by name%s%s%s%s; the offsets above are "
			"the recorded kernel's\n", type,
			only_kernel.len ? "; only in the kernel: " : "",
			only_kernel.len ? only_kernel.buf : "",
			only_source.len ? "; only in the source (kept where they are): " : "",
			only_source.len ? only_source.buf : "");
	strbuf__release(&only_kernel);
	strbuf__release(&only_source);
	srcpatch_scan__delete(sc);
	free(used);
	free(in);
	free(*expected);
	*slots = out;
	*expected = exp;
	rq->nr_slots = rq->nr_expected = k;
	/* the joined names are the slots' until the patch is made */
	p->names = xrealloc(p->names, (p->nr_names + nu) * sizeof(*p->names));
	memcpy(p->names + p->nr_names, unit, nu * sizeof(*unit));
	p->nr_names += nu;
	free(unit);
}

/* Whether finding @af concerns the structs asked for (-C), or any without -C. */
static bool align_selected(const struct suggest_ctx *c, const struct align_finding *af)
{
	if (!c->o->structs.nr)
		return true;
	for (size_t k = 0; k < c->ts.nr; k++)
		if (c->ts.v[k].selected &&
		    (c->ts.v[k].flat == af->elem ||
		     (af->name && !strcmp(c->ts.v[k].flat->name, af->name))))
			return true;
	return false;
}

/* A finding whose fix lineup can write: an aligned allocation, a padded element. */
static bool align_fixable(const struct align_finding *af)
{
	return !(af->causes & ALIGN_BLOCKS) && af->causes;
}

/* The structs whose instances are a misaligned array's elements: padded, or left alone. */
static void array_targets(struct suggest_ctx *c)
{
	for (size_t i = 0; i < c->align->nr_findings; i++) {
		const struct align_finding *af = &c->align->findings[i];

		if (!af->elem || !align_fixable(af))
			continue;
		for (size_t k = 0; k < c->ts.nr; k++)
			if (c->ts.v[k].flat == af->elem && c->ts.v[k].sg)
				suggest__set_array_causes(c->ts.v[k].sg, af->causes);
	}
}

static void alloc_fix_add(struct patch *p, const struct align_finding *af, char *where,
			  char *message)
{
	p->allocs = xrealloc(p->allocs, (p->nr_allocs + 1) * sizeof(*p->allocs));
	p->allocs[p->nr_allocs++] = (struct alloc_fix){ af, where, message };
}

/*
 * The allocating calls of the misaligned arrays rewritten to return line-aligned memory,
 * before the structs are laid out (a struct rewrite of the same file starts from that text;
 * the diff of both is made from the file as read).  EXIT_NOTHING when one could not be.
 */
static int make_alloc_fixes(struct suggest_ctx *c, struct patch *p)
{
	int rc = 0;

	for (size_t i = 0; i < c->align->nr_findings; i++) {
		const struct align_finding *af = &c->align->findings[i];
		const char *file;
		unsigned int line;
		char err[PATH_MAX + 128], *path, *text, *fixed;

		if (!(af->causes & ALIGN_BASE) || !align_fixable(af) || !align_selected(c, af))
			continue;
		rc = EXIT_NOTHING;	/* until it is done */
		if (!af->obj.site || fields_attr__source_line(c->ld.fa, af->obj.site, &file, &line)) {
			alloc_fix_add(p, af, NULL, xstrdup("the debug info gives no source line for "
							   "the allocating call"));
			continue;
		}
		char *where = xasprintf("%s:%u", file, line);

		if (af->first) {
			alloc_fix_add(p, af, where, xasprintf("the array starts %" PRIu64 " bytes "
							      "into its allocation: align it by hand",
							      af->first));
			continue;
		}
		if (!(path = find_source(file, c->o->source_root))) {
			alloc_fix_add(p, af, where, xasprintf("%s not found%s%s", file,
							      c->o->source_root ? " under " : "",
							      c->o->source_root ? c->o->source_root : ""));
			continue;
		}
		if (!(text = file__read_text(path, err, sizeof(err)))) {
			alloc_fix_add(p, af, where, xstrdup(err));
			free(path);
			continue;
		}
		unsigned int f = patch_file(p, path, c->o->source_root, text);

		free(path);
		fixed = srcpatch__align_alloc(&p->files[f], line, c->line_size, err, sizeof(err));
		if (!fixed) {
			alloc_fix_add(p, af, where, xstrdup(err));
			continue;
		}
		free((char *)p->files[f].text);
		p->files[f].text = fixed;
		alloc_fix_add(p, af, where, NULL);
		rc = 0;
	}
	return rc;
}

/* The one diff: each file as read against its final text. */
static void patch_diff(struct patch *p)
{
	struct strbuf sb = STRBUF_INIT;

	for (unsigned int i = 0; i < p->nr_files; i++)
		srcpatch__diff(&sb, p->files[i].path, p->orig[i],
			       p->sp && i < p->sp->nr_texts ? p->sp->texts[i] : p->files[i].text);
	p->diff = sb.buf ? sb.buf : xstrdup("");
}

/* The misaligned arrays, each with its fix and what became of its patch. */
static void print_align(struct suggest_ctx *c, const struct patch *p, struct strbuf *out)
{
	size_t n = 0;

	for (size_t i = 0; i < c->align->nr_findings; i++) {
		const struct align_finding *af = &c->align->findings[i];

		if (!align_selected(c, af))
			continue;
		if (!n++)
			strbuf__addf(out, "arrays whose elements share cache lines across threads:\n");
		align_finding__explain(c->align, af, fields_attr__name_ip, c->ld.fa, out);
		for (unsigned int k = 0; k < p->nr_allocs; k++) {
			const struct alloc_fix *x = &p->allocs[k];

			if (x->af != af)
				continue;
			if (x->message)
				strbuf__addf(out, "  no patch for the allocation: %s%s%s\n",
					     x->where ? x->where : "", x->where ? ": " : "",
					     x->message);
			else
				strbuf__addf(out, "  patch: the allocation at %s made line-aligned\n",
					     x->where);
		}
		strbuf__addf(out, "\n");
	}
}

static void json_align(struct suggest_ctx *c, const struct patch *p, struct strbuf *out)
{
	struct strbuf tmp = STRBUF_INIT;
	size_t n = 0;

	strbuf__addf(out, ", \"alignment\": [");
	for (size_t i = 0; i < c->align->nr_findings; i++) {
		const struct align_finding *af = &c->align->findings[i];

		if (!align_selected(c, af))
			continue;
		strbuf__reset(&tmp);
		align_finding__explain(c->align, af, fields_attr__name_ip, c->ld.fa, &tmp);
		strbuf__addf(out, "%s{", n++ ? ", " : "");
		json_str(out, "object", af->name, false);
		json_str(out, "element", af->elem ? af->elem->name : NULL, true);
		strbuf__addf(out, ", \"causes\": [");
		for (unsigned int bit = 1, k = 0; bit <= ALIGN_BLOCKS; bit <<= 1)
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
			}
		strbuf__addf(out, "}");
	}
	strbuf__addf(out, "]");
	strbuf__release(&tmp);
}

/* One request per suggested struct whose source is found; the others are said. */
static int make_patch(struct suggest_ctx *c, struct patch *p, const char *recording)
{
	struct suggest_opts *o = c->o;
	int rc = 0;

	for (size_t k = 0; k < c->ts.nr; k++) {
		struct suggest_target *t = &c->ts.v[k];
		const struct layout_type *ty = t->planned ? t->flat->type : NULL;
		char err[PATH_MAX + 64];

		if (!t->selected || !ty || t->res.status != SUGGEST_OK)
			continue;
		char *path = find_source(ty->decl_file, o->source_root);

		if (!path && !ty->decl_file && o->source_root && ty->name)
			path = find_source_by_name(o->source_root, ty->name);
		if (!path) {
			cli__error("%s: no source file for the patch: the debug info says %s%s%s",
				   t->flat->name, ty->decl_file ? ty->decl_file : "nothing",
				   o->source_root ? ", not found under " : " (try --source-root)",
				   o->source_root ? o->source_root : "");
			rc = EXIT_NOTHING;
			continue;
		}
		char *text = file__read_text(path, err, sizeof(err));

		if (!text) {
			cli__error("%s", err);
			free(path);
			rc = EXIT_NOTHING;
			continue;
		}
		struct srcpatch_request rq = {
			.file = patch_file(p, path, o->source_root, text),
			.name = ty->name ? ty->name : ty->typedef_name,
			.decl_line = ty->decl_line,
			.style = o->style >= 0 ? (enum srcpatch_style)o->style :
						 tree_style(o->source_root, text),
			.line_size = c->line_size,
		};
		struct srcpatch_slot *slots;
		const char **expected;
		struct suggest_names n;
		struct names_ctx nc;
		struct strbuf cm = STRBUF_INIT;

		free(path);
		suggest_plan__slots(&t->plan, &t->res, &slots, &rq.nr_slots, &expected,
				    &rq.nr_expected);
		if (!ty->decl_file)
			match_by_name(p, &rq, t->flat->name, &slots, &expected);
		rq.slots = slots;
		rq.expected = expected;
		names_init(&n, &nc, c, t, recording);
		suggest__comment(&t->res, &n, &cm);
		strbuf__release(&nc.sb);
		p->reqs = xrealloc(p->reqs, (p->nr_reqs + 1) * sizeof(*p->reqs));
		p->req_target = xrealloc(p->req_target, (p->nr_reqs + 1) * sizeof(*p->req_target));
		p->comments = xrealloc(p->comments, (p->nr_reqs + 1) * sizeof(*p->comments));
		p->comments[p->nr_reqs] = cm.buf;
		rq.comment = cm.buf;
		p->req_target[p->nr_reqs] = t;
		p->reqs[p->nr_reqs++] = rq;
	}
	if (!p->nr_reqs)
		return rc ? rc : EXIT_NOTHING;
	if (srcpatch__make(p->files, p->nr_files, p->reqs, p->nr_reqs, &p->sp) < 0 || !p->sp) {
		cli__error("internal error: a malformed patch request");
		return EXIT_RUNTIME;
	}
	for (unsigned int i = 0; i < p->sp->nr_outcomes; i++) {
		const struct srcpatch_outcome *oc = &p->sp->outcomes[i];

		for (unsigned int w = 0; w < oc->nr_warnings; w++)
			fprintf(stderr, "lineup suggest: warning: %s\n", oc->warnings[w]);
		if (oc->error) {
			cli__error("%s: no patch: %s", p->req_target[i]->flat->name,
				   oc->message ? oc->message : "refused");
			rc = EXIT_NOTHING;
		}
	}
	return rc;
}

/* Write @text to @path ('-': stdout), never through a symlink; 0 or an exit code. */
static int write_out(const char *path, const char *text)
{
	if (!strcmp(path, "-")) {
		fputs(text, stdout);
		return 0;
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	size_t len = strlen(text), off = 0;

	if (fd < 0) {
		cli__error("%s: %s", path, strerror(errno));
		return EXIT_USAGE;
	}
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			cli__error("%s: %s", path, strerror(errno));
			close(fd);
			return EXIT_RUNTIME;
		}
		off += (size_t)w;
	}
	if (close(fd) < 0) {
		cli__error("%s: %s", path, strerror(errno));
		return EXIT_RUNTIME;
	}
	return 0;
}

/* ---- --verify: the compiler's layout of the patched source ---- */

static int mkdirs_for(const char *file)
{
	char *d = xstrdup(file);
	int rc = 0;

	for (char *s = strchr(d + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(d, 0700) < 0 && errno != EEXIST)
			rc = -errno;
		*s = '/';
	}
	free(d);
	return rc;
}

/* Run argv, its output into @log; 0 when it exited 0, 1 when not, -errno. */
static int run_compiler(char *const *argv, const char *log)
{
	struct workload w = WORKLOAD_INIT;
	struct workload_opts o;
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600), rc;

	if (fd < 0)
		return -errno;
	workload_opts__init(&o, argv);
	o.stdio[1] = o.stdio[2] = fd;
	rc = workload__prepare(&w, &o);
	if (rc < 0 && w.err) {
		char msg[PATH_MAX + 64];

		/* said in the log, which the caller shows */
		dprintf(fd, "%s\n", workload__strerror(&w, msg, sizeof(msg)));
		rc = 1;
	} else if (!rc) {
		rc = workload__wait(&w, true, NULL);
		rc = rc < 0 ? rc : WIFEXITED(w.status) && !WEXITSTATUS(w.status) ? 0 : 1;
	}
	workload__end(&w);
	close(fd);
	return rc;
}

/* The first difference between the built layout and the compiled one, into @why. */
static bool same_layout(const struct layout_type *want, const struct layout_type *got, char *why,
			size_t len)
{
	if (want->size != got->size) {
		snprintf(why, len, "size %" PRIu64 " predicted, %" PRIu64 " compiled", want->size,
			 got->size);
		return false;
	}
	for (uint32_t i = 0; i < want->nr_members; i++) {
		const struct layout_member *w = &want->members[i];
		const struct layout_member *g = w->name ? layout__find_member(got, w->name) :
				       i < got->nr_members ? &got->members[i] : NULL;

		if (!g) {
			snprintf(why, len, "member %s missing from the compiled struct",
				 w->name ? w->name : "(anonymous)");
			return false;
		}
		if (g->offset != w->offset || g->size != w->size || g->bit_offset != w->bit_offset ||
		    g->bit_size != w->bit_size) {
			snprintf(why, len, "%s at offset %" PRIu64 " (bit %u) size %" PRIu64
				 " predicted, at %" PRIu64 " (bit %u) size %" PRIu64 " compiled",
				 w->name ? w->name : "(anonymous)", w->offset, w->bit_offset, w->size,
				 g->offset, g->bit_offset, g->size);
			return false;
		}
	}
	return true;
}

struct verify_result {
	bool done, ok, skipped;
	char detail[512];
};

static void verify_one(struct suggest_ctx *c, struct patch *p, unsigned int i,
		       struct verify_result *vr)
{
	const struct srcpatch_request *rq = &p->reqs[i];
	struct suggest_target *t = p->req_target[i];
	char tmpl[] = "/tmp/lineup-verify.XXXXXX";
	char *dir = mkdtemp(tmpl);
	char *src = NULL, *probe = NULL, *obj = NULL, *log = NULL, *inc = NULL, *inc2 = NULL;
	char *orig_dir = NULL, *cflags = NULL, *argv[64];
	int argc = 0;

	vr->done = true;
	if (rq->style == SRCPATCH_KERNEL_GROUPS || rq->style == SRCPATCH_KERNEL_ALIGNED) {
		/* a kernel header compiles only inside Kbuild, with the tree's config */
		snprintf(vr->detail, sizeof(vr->detail), "not checked: %s is a kernel source, "
			 "which compiles only inside Kbuild: apply the patch to a copy of the tree "
			 "(or of the installed linux-headers), build a module that uses the struct "
			 "against it, and compare `lineup layout -C %s MODULE.ko` with the offsets "
			 "above", p->files[rq->file].path, rq->name);
		vr->skipped = true;
		if (dir)
			rmdir(dir);
		return;
	}
	if (!dir) {
		snprintf(vr->detail, sizeof(vr->detail), "mkdtemp: %s", strerror(errno));
		return;
	}
	src = xasprintf("%s/%s", dir, p->files[rq->file].path);
	obj = xasprintf("%s/verify.o", dir);
	log = xasprintf("%s/cc.log", dir);
	orig_dir = xstrdup(p->paths[rq->file]);
	if (strrchr(orig_dir, '/'))
		*strrchr(orig_dir, '/') = '\0';
	else
		strcpy(orig_dir, ".");
	if (mkdirs_for(src) < 0 ||
	    write_out(src, p->sp->texts[rq->file]) != 0) {
		snprintf(vr->detail, sizeof(vr->detail), "could not write %s", src);
		goto out;
	}
	const char *cc = c->o->cc ? c->o->cc : getenv("CC") && *getenv("CC") ? getenv("CC") : "cc";
	size_t n = strlen(src);
	bool header = !(n > 2 && !strcmp(src + n - 2, ".c"));

	argv[argc++] = (char *)cc;
	argv[argc++] = "-g";
	argv[argc++] = "-c";
	argv[argc++] = "-o";
	argv[argc++] = obj;
	inc = xasprintf("-I%s", orig_dir);
	if (header) {
		/* a unit that uses the struct, including the patched header */
		const struct layout_type *ty = t->flat->type;
		char *text;

		probe = xasprintf("%s/lineup-verify.c", dir);
		text = xasprintf("#include \"%s\"\n%s%s lineup_verify_probe;\n", src,
				 ty->name ? "struct " : "", ty->name ? ty->name : ty->typedef_name);
		write_out(probe, text);
		free(text);
		inc2 = xasprintf("-I%s", dir);
		argv[argc++] = probe;
		argv[argc++] = inc2;
	} else {
		argv[argc++] = src;
	}
	argv[argc++] = inc;
	if (c->o->cflags) {
		cflags = xstrdup(c->o->cflags);
		for (char *s = strtok(cflags, " \t"); s && argc < 62; s = strtok(NULL, " \t"))
			argv[argc++] = s;
	}
	argv[argc] = NULL;
	if (run_compiler(argv, log) != 0) {
		char err[128];
		char *msg = file__read_text(log, err, sizeof(err));

		snprintf(vr->detail, sizeof(vr->detail), "%s could not compile the patched %s%s%.300s",
			 cc, p->files[rq->file].path, msg ? ":\n" : "", msg ? msg : "");
		free(msg);
		goto out;
	}
	struct layout_source *ls;
	const struct layout_type *got;
	char err[512];

	if (layout_source__open(&ls, obj, 0, err, sizeof(err)) < 0) {
		snprintf(vr->detail, sizeof(vr->detail), "%s", err);
		goto out;
	}
	if (layout_source__find(ls, rq->name, &got, err, sizeof(err)) != 0) {
		snprintf(vr->detail, sizeof(vr->detail), "the compiled unit has no %s", rq->name);
	} else {
		vr->ok = same_layout(t->built, got, vr->detail, sizeof(vr->detail));
		if (vr->ok)
			snprintf(vr->detail, sizeof(vr->detail), "%s compiled the patched %s: every "
				 "member at its predicted offset, size %" PRIu64, cc,
				 p->files[rq->file].path, got->size);
	}
	layout_source__delete(ls);
out:
	unlink(obj);
	unlink(log);
	if (probe)
		unlink(probe);
	if (src) {
		unlink(src);
		/* the directories made for it, innermost first */
		for (char *s = strrchr(src, '/'); s && s > src + strlen(dir); s = strrchr(src, '/')) {
			*s = '\0';
			rmdir(src);
		}
	}
	rmdir(dir);
	free(src);
	free(probe);
	free(obj);
	free(log);
	free(inc);
	free(inc2);
	free(orig_dir);
	free(cflags);
}

/* ---- the command ---- */

static int open_recording(struct suggest_ctx *c)
{
	struct suggest_opts *o = c->o;
	const struct fields_rmw *rmw;
	char err[4096];
	int rc;

	c->ld.access = on_access;
	c->ld.ctx = c;
	rc = fields_load__run(&c->ld, o->input, &o->attr, &o->filter, (unsigned int)o->line_size,
			      o->double_cl, err, sizeof(err));
	if (c->ld.fa)
		cli__attr_warnings(c->ld.fa);
	if (rc) {
		cli__error("%s", err);
		return rc == -ENODATA ? EXIT_NOTHING : EXIT_USAGE;
	}
	struct align_objects objs = { fields_attr__object_at, c->ld.fa };

	c->align = array_align__find(c->ld.fields, &objs);
	if (!c->line_size)	/* nothing attributed: the line size all the same */
		targets_init(c);
	suggest_targets__add_rmw(&c->ts, rmw, fields_attr__rmw(c->ld.fa, &rmw));
	return 0;
}

static void ctx_release(struct suggest_ctx *c)
{
	suggest_targets__release(&c->ts);
	array_align__delete(c->align);
	fields_load__release(&c->ld);
	arena__release(&c->arena);
}

/*
 * `lineup verify PATCH`: the patch under review must be the one lineup suggests for the
 * recording (the same structs, order, groups and comment), and the patched source must
 * compile to the predicted layout.  0 when both hold; 1 with the first difference.
 */
static int check_patch(const char *path, const char *ours)
{
	char err[PATH_MAX + 64];
	char *theirs = file__read_text(path, err, sizeof(err));
	unsigned int line = 1;
	const char *a, *b;

	if (!theirs) {
		cli__error("%s", err);
		return EXIT_USAGE;
	}
	for (a = theirs, b = ours; *a && *a == *b; a++, b++)
		line += *a == '\n';
	if (*a || *b) {
		const char *end = strchr(a, '\n');

		cli__error("%s: line %u differs from the patch lineup suggests for this recording: "
			   "'%.*s'", path, line, end ? (int)(end - a) : (int)strlen(a), a);
		free(theirs);
		return EXIT_NOTHING;
	}
	free(theirs);
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

static int suggest_run(const struct command *cmd, int argc, char **argv, bool verify_cmd)
{
	struct suggest_opts o = { .cmd = cmd, .input = "perf.data", .max_growth = UINT64_MAX,
				  .style = -1 };
	struct suggest_ctx c = { .o = &o };
	struct patch patch = { 0 };
	struct verify_result *vr = NULL;
	struct strbuf out = STRBUF_INIT;
	int rc, first = cli__parse(cmd, argc, argv, suggest_option, &o, &rc);
	bool any_ok = false, verify_failed = false, any_align = false;

	const char *under_review = NULL;

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
	if (o.verify && o.patch && !strcmp(o.patch, "-") && o.format == FMT_JSON)
		return cli__usage_error(cmd, "--patch - and --json both write to stdout");
	rc = open_recording(&c);
	if (rc)
		goto out;
	rc = select_targets(&c);
	if (rc)
		goto out;
	for (size_t k = 0; k < c.ts.nr; k++)
		if (c.ts.v[k].selected && c.ts.v[k].plan_rc == -ENOENT) {
			cli__error("%s", c.ts.v[k].plan_err);
			rc = EXIT_USAGE;
			goto out;
		}
	char *recording = xasprintf("%s (%" PRIu64 " samples, %" PRIu64 " attributed)", o.input,
				    (uint64_t)c.ld.nr_samples, c.ts.attributed);

	array_targets(&c);
	for (size_t k = 0; k < c.ts.nr; k++)
		if (c.ts.v[k].selected) {
			suggest_target__decide(&c.ts.v[k], &c.arena);
			any_ok |= c.ts.v[k].res.status == SUGGEST_OK && c.ts.v[k].planned;
		}
	int prc = 0;

	for (size_t i = 0; i < c.align->nr_findings; i++)
		any_align |= align_fixable(&c.align->findings[i]) &&
			     align_selected(&c, &c.align->findings[i]);
	if ((o.patch || o.verify || o.format == FMT_TUI) && (any_ok || any_align)) {
		int arc = make_alloc_fixes(&c, &patch);

		prc = any_ok ? make_patch(&c, &patch, recording) : 0;
		prc = prc ? prc : arc;
		patch_diff(&patch);
	}
	if (o.format == FMT_TUI) {
		rc = EXIT_NOTHING;
		for (size_t k = 0; k < c.ts.nr && rc == EXIT_NOTHING; k++) {
			struct suggest_target *t = &c.ts.v[k];
			struct suggest_names nm;
			struct names_ctx nc;

			if (!t->selected || t->res.status != SUGGEST_OK || !t->built)
				continue;
			names_init(&nm, &nc, &c, t, recording);
			rc = browse(&c, t, &nm, patch.diff && *patch.diff ? patch.diff : NULL);
			strbuf__release(&nc.sb);
		}
		if (rc == EXIT_NOTHING)
			cli__error("%s: nothing to suggest for the selected structs", o.input);
		free(recording);
		goto out;
	}
	if (under_review) {
		int crc = patch.diff ? check_patch(under_review, patch.diff) : EXIT_NOTHING;

		if (!patch.diff)
			cli__error("%s: lineup suggests no patch for this recording", under_review);
		if (crc) {
			free(recording);
			rc = crc;
			goto out;
		}
	}
	if (o.verify && patch.sp) {
		vr = xcalloc(patch.nr_reqs + 1, sizeof(*vr));
		for (unsigned int i = 0; i < patch.nr_reqs; i++)
			if (!patch.sp->outcomes[i].error) {
				verify_one(&c, &patch, i, &vr[i]);
				verify_failed |= !vr[i].ok && !vr[i].skipped;
			}
	}
	/* the report: --patch - keeps stdout for the diff */
	FILE *rep = o.patch && !strcmp(o.patch, "-") ? stderr : stdout;

	if (o.format == FMT_JSON)
		strbuf__addf(&out, "{\"input\": \"%s\", \"line_size\": %u, \"structs\": [",
			     o.input, c.line_size);
	else
		print_align(&c, &patch, &out);
	for (size_t k = 0, n = 0; k < c.ts.nr; k++) {
		struct suggest_target *t = &c.ts.v[k];
		struct suggest_names nm;
		struct names_ctx nc;
		int req = -1;

		if (!t->selected)
			continue;
		for (unsigned int i = 0; i < patch.nr_reqs; i++)
			if (patch.req_target[i] == t)
				req = (int)i;
		names_init(&nm, &nc, &c, t, recording);
		if (o.format == FMT_JSON) {
			strbuf__addf(&out, "%s\n", n++ ? "," : "");
			json_target(&c, t, &nm, &out);
			if (t->planned) {
				if (req >= 0 && !patch.sp->outcomes[req].error)
					json_str(&out, "patch", patch.diff, true);
				if (vr && req >= 0 && vr[req].done) {
					strbuf__addf(&out, ", \"verify\": {\"ok\": %s, "
							   "\"skipped\": %s",
						     vr[req].ok ? "true" : "false",
						     vr[req].skipped ? "true" : "false");
					json_str(&out, "detail", vr[req].detail, true);
					strbuf__addf(&out, "}");
				}
				strbuf__addf(&out, "}");
			}
		} else {
			if (n++)
				strbuf__addf(&out, "\n");
			if (!t->planned) {
				strbuf__addf(&out, "%s: no suggestion: %s\n", t->flat->name, t->plan_err);
				strbuf__release(&nc.sb);
				continue;
			}
			suggest__explain(&t->res, &nm, &out);
			if (t->res.status != SUGGEST_REFUSED)
				print_layouts(&c, t, &out);
			if (t->res.status == SUGGEST_OK) {
				strbuf__addf(&out, "\nlayout comment:\n");
				suggest__comment(&t->res, &nm, &out);
			}
			if (vr && req >= 0 && vr[req].done)
				strbuf__addf(&out, "\nverify: %s: %s\n",
					     vr[req].ok ? "ok" : vr[req].skipped ? "skipped" : "FAILED",
					     vr[req].detail);
		}
		if (o.doc && t->res.status == SUGGEST_OK) {
			struct strbuf doc = STRBUF_INIT;

			suggest__doc(&t->res, &nm, NULL, &doc);
			if (write_out(o.doc, doc.buf))
				prc = EXIT_USAGE;
			strbuf__release(&doc);
		}
		strbuf__release(&nc.sb);
	}
	if (o.format == FMT_JSON) {
		strbuf__addf(&out, "\n]");
		json_align(&c, &patch, &out);
		strbuf__addf(&out, "}\n");
	}
	fputs(out.buf ? out.buf : "", rep);
	if (o.patch && patch.diff && *patch.diff) {
		if (write_out(o.patch, patch.diff))
			prc = EXIT_USAGE;
		else if (strcmp(o.patch, "-") && o.format == FMT_JSON)
			fprintf(stderr, "lineup suggest: wrote %s\n", o.patch);
		else if (strcmp(o.patch, "-"))
			fprintf(rep, "\nwrote %s\n", o.patch);
	}
	free(recording);
	rc = prc ? prc : verify_failed ? EXIT_NOTHING : any_ok || any_align ? EXIT_OK : EXIT_NOTHING;
out:
	free(vr);
	strbuf__release(&out);
	patch_release(&patch);
	ctx_release(&c);
	fields_list__release(&o.structs);
	fields_list__release(&o.pins);
	fields_list__release(&o.attr.debug_files);
	fields_list__release(&o.attr.hints);
	fields_list__release(&o.attr.cache_types);
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
