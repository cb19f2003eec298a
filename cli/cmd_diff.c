// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lineup diff: two recordings compared (before a fix, after it), by what their cache lines
 * hold, not by address.  Each recording goes through the fields pipeline (pipeline/fields_load.h);
 * analyzer/fields_diff matches members by type and path and lines by their members; the
 * counts of (after) are scaled to the work (before) did; the tables are
 * analyzer/fields_diff_table.h's, printed as text, JSON or CSV (cli/output.h).
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/fields.h"
#include "analyzer/fields_diff.h"
#include "analyzer/fields_diff_table.h"
#include "analyzer/flat_layout.h"
#include "analyzer/table.h"
#include "cli/command.h"
#include "cli/output.h"
#include "pipeline/fields_load.h"
#include "sampling/perf_file.h"
#include "pipeline/sim_census.h"
#include "sampling/session.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

enum {
	OPT_STRUCT = 'C',
	OPT_VMLINUX = 'k',
	OPT_ATTR = 1000,	/* CLI_ATTR_OPTIONS' long ones */
	OPT_ATTR_LAST = OPT_ATTR + CLI_ATTR__NR_LONG - 1,
	OPT_NORM,
	OPT_PER,
	OPT_LINE_SIZE,
	OPT_ALL_MEMBERS,
	OPT_STDIO,
	OPT_JSON,
	OPT_CSV,
};

static const struct cli_option diff_options[] = {
	{ OPT_STRUCT, 'C', "struct", "NAME", "only this struct ('file' or 'struct file')" },
	{ OPT_NORM, 0, "norm", "BASIS",
	  "compare counts per memory access (accesses, the default: the samples' periods "
	  "summed), per second of recording (time), per unit of --per's progress (progress), "
	  "or as they are (none)" },
	{ OPT_PER, 0, "per", "SYMBOL",
	  "compare counts per sample of the program's own progress: the samples whose code is "
	  "in the function SYMBOL, or whose data is in the variable SYMBOL (a progress counter)" },
	CLI_ATTR_OPTIONS(OPT_ATTR),
	{ OPT_LINE_SIZE, 0, "line-size", "N",
	  "cache-line size of both (default: each recording's own, else 64)" },
	{ OPT_ALL_MEMBERS, 0, "all-members", NULL, "list the members nothing touched too" },
	{ OPT_STDIO, 0, "stdio", NULL, "print text tables (the default)" },
	{ OPT_JSON, 0, "json", NULL, "print JSON" },
	{ OPT_CSV, 0, "csv", NULL, "print the line and member tables as CSV" },
	CLI_OPTION_END
};

enum out_format { OUT_STDIO, OUT_JSON, OUT_CSV };
enum norm { NORM_ACCESSES, NORM_TIME, NORM_NONE, NORM_PROGRESS, NORM__NR };
static const char *const norm_names[] = { "accesses", "time", "none", "progress" };

struct diff_opts {
	const struct command *cmd;
	const char *only_struct;
	struct fields_attr_opts attr;
	enum out_format format;
	const char *format_opt;
	enum norm norm;
	bool norm_set;
	const char *per;	/* --per SYMBOL: the program's progress */
	unsigned long long line_size;
	bool all_members;
};

static int diff_option(void *ctx, int id, const char *arg)
{
	struct diff_opts *o = ctx;

	switch (id) {
	case OPT_STRUCT:
		o->only_struct = arg;
		break;
	case OPT_NORM:
		for (o->norm = 0; o->norm < NORM__NR && strcmp(arg, norm_names[o->norm]); o->norm++)
			;
		if (o->norm == NORM__NR)
			return cli__usage_error(o->cmd, "--norm: '%s' is not accesses, time, progress "
						"or none", arg);
		o->norm_set = true;
		break;
	case OPT_PER:
		if (!*arg)
			return cli__usage_error(o->cmd, "--per: a symbol is needed");
		o->per = arg;
		break;
	case OPT_VMLINUX:
		return cli__attr_option(o->cmd, &o->attr, CLI_ATTR_VMLINUX, arg);
	case OPT_ATTR ... OPT_ATTR_LAST:
		return cli__attr_option(o->cmd, &o->attr, id - OPT_ATTR, arg);
	case OPT_LINE_SIZE:
		return cli__parse_line_size(o->cmd, arg, &o->line_size);
	case OPT_ALL_MEMBERS:
		o->all_members = true;
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

/* One side: its recording, its tables, what its collector said about overlap. */
struct diff_side {
	struct fields_load ld;
	struct sim_census census;
	bool has_census;
	double seconds;
};

struct diff_ctx {
	struct diff_opts *o;
	struct diff_side side[2];
	struct fields_diff d;
	double scale;
	double scales[NORM__NR];	/* every basis's scale, 0 where it has none */
	struct strbuf notes; /* one per line, for text, JSON and CSV alike */
	const struct diff_struct *only;
	struct fields_diff_view view;	/* what the tables show */
};

static const char *const side_names[] = { "before", "after" };

/* --- the text --- */

static unsigned line_of(uint64_t offset, unsigned line_size)
{
	return (unsigned)(offset / line_size);
}

/* Both layouts of a struct side by side, and where each member went. */
static void print_layouts(const struct diff_ctx *c, const struct diff_struct *ds,
			  struct strbuf *sb)
{
	unsigned ls[2];

	for (int k = 0; k < 2; k++)
		ls[k] = c->side[k].ld.fields->line_size;
	strbuf__addf(sb, "  layout, before (size %llu) | after (size %llu):\n",
		     (unsigned long long)ds->layout[0]->size,
		     (unsigned long long)ds->layout[1]->size);
	strbuf__addf(sb, "  %6s %5s %-26s | %6s %5s %-26s  %s\n", "offset", "size", "member",
		     "offset", "size", "member", "move");
	for (size_t i = 0; i < ds->nr; i++) {
		const struct diff_member *m = &c->d.members[ds->first + i];
		char l[2][64];

		if (!m->path)
			continue;
		for (int k = 0; k < 2; k++)
			if (m->in_layout[k])
				snprintf(l[k], sizeof(l[k]), "%6llu %5llu %-26s",
					 (unsigned long long)m->offset[k],
					 (unsigned long long)m->size[k], m->path);
			else
				snprintf(l[k], sizeof(l[k]), "%6s %5s %-26s", "", "", "(none)");
		strbuf__addf(sb, "  %s | %s", l[0], l[1]);
		if (m->in_layout[0] && m->in_layout[1] && m->offset[0] != m->offset[1])
			strbuf__addf(sb, "  %+lld (line %u -> %u)",
				     (long long)(m->offset[1] - m->offset[0]),
				     line_of(m->offset[0], ls[0]), line_of(m->offset[1], ls[1]));
		else if (m->in_layout[0] != m->in_layout[1])
			strbuf__addf(sb, "  %s", m->in_layout[1] ? "added" : "removed");
		while (sb->len && sb->buf[sb->len - 1] == ' ')
			sb->buf[--sb->len] = '\0';
		strbuf__add(sb, "\n", 1);
	}
}

static void print_side_text(const struct diff_ctx *c, int k, struct strbuf *sb)
{
	const struct diff_side *s = &c->side[k];

	strbuf__addf(sb, "# %-6s %s: %zu samples with a data address (%llu accesses), %.3f s, "
			 "%u-byte lines",
		     side_names[k], s->ld.input, s->ld.nr_samples,
		     (unsigned long long)s->ld.period_sum, s->seconds, s->ld.fields->line_size);
	if (c->o->per)
		strbuf__addf(sb, "; progress %llu (%llu samples in %s)",
			     (unsigned long long)s->ld.progress,
			     (unsigned long long)s->ld.progress_samples, c->o->per);
	if (s->has_census && s->census.has_overlap)
		strbuf__addf(sb, "; threads ran at the same time for %.1f ms of %.1f ms modeled",
			     s->census.overlap_ns / 1e6, s->census.observed_ns / 1e6);
	strbuf__add(sb, "\n", 1);
}

static void print_stdio(struct diff_ctx *c, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	struct table t;

	strbuf__addf(&sb, "# lineup diff: lines matched by what they hold, members by type and "
			  "name\n");
	print_side_text(c, 0, &sb);
	print_side_text(c, 1, &sb);
	strbuf__addf(&sb, "# changes: after's counts per %s, x%.4g",
		     c->o->norm == NORM_ACCESSES ? "memory access (sample periods summed)" :
		     c->o->norm == NORM_TIME ? "second of recording" :
		     c->o->norm == NORM_PROGRESS ? "unit of progress (--per's samples' periods "
						   "summed)" : "recording (not scaled)",
		     c->scale);
	/* the other bases, for a reader who doubts this one */
	for (int n = 0; n < NORM__NR; n++)
		if (n != (int)c->o->norm && n != NORM_NONE && c->scales[n] > 0)
			strbuf__addf(&sb, "; per %s x%.4g", norm_names[n], c->scales[n]);
	strbuf__add(&sb, "\n", 1);
	if (c->notes.len)
		strbuf__addf(&sb, "%s", c->notes.buf);
	strbuf__addf(&sb, "\nCache lines:\n");
	fields_diff_table__lines(&t, &c->view);
	fields_diff_table__text(&t, &sb);
	for (size_t i = 0; i < t.nr_rows; i++) {
		const struct diff_group *g = t.rows[i];

		if (g->verdict[0] != g->verdict[1] && g->nr_keys) {
			strbuf__addf(&sb, "  ");
			fields_diff_group__holds(g, &sb);
			strbuf__addf(&sb, ": %s -> %s\n", line_verdict__name(g->verdict[0]),
				     line_verdict__name(g->verdict[1]));
		}
	}
	table__release(&t);
	for (size_t i = 0; i < c->d.nr_structs; i++) {
		const struct diff_struct *ds = &c->d.structs[i];

		if (c->only && ds != c->only)
			continue;
		strbuf__addf(&sb, "\n%s%s%s:\n", ds->name,
			     !ds->layout[0] ? " (after only)" : !ds->layout[1] ? " (before only)" : "",
			     ds->layout_changed ? ", layout changed" : "");
		fields_diff_table__members(&t, &c->view, ds);
		fields_diff_table__text(&t, &sb);
		table__release(&t);
		if (ds->layout_changed)
			print_layouts(c, ds, &sb);
	}
	output__strbuf(out, &sb);
	strbuf__release(&sb);
}

/* --- JSON and CSV --- */

static void json_side(struct json *j, const struct diff_side *s)
{
	const struct perf_header_info *h = session__header(s->ld.session);

	json__begin_object(j);
	json__kstr(j, "input", s->ld.input);
	json__ku64(j, "samples", s->ld.nr_samples);
	json__ku64(j, "accesses", s->ld.period_sum);
	json__key(j, "seconds");
	json__double(j, s->seconds, 6);
	if (s->ld.progress_sym) {
		json__ku64(j, "progress", s->ld.progress);
		json__ku64(j, "progress_samples", s->ld.progress_samples);
	}
	json__ku64(j, "line_size", s->ld.fields->line_size);
	json__kstr(j, "hostname", h->hostname);
	json__kstr(j, "cpudesc", h->cpudesc);
	if (s->has_census && s->census.has_overlap) {
		json__key(j, "overlap_ms");
		json__double(j, s->census.overlap_ns / 1e6, 3);
		json__key(j, "modeled_ms");
		json__double(j, s->census.observed_ns / 1e6, 3);
		json__kstr(j, "overlapped", sim_census__overlap(&s->census) == SIM_OVERLAP_SEEN ?
						    "yes" : "never");
	}
	json__end_object(j);
}

static void print_json(struct diff_ctx *c, FILE *out)
{
	struct json j;
	struct table t;

	json__init(&j, out, false);
	json__begin_object(&j);
	for (int k = 0; k < 2; k++) {
		json__key(&j, side_names[k]);
		json_side(&j, &c->side[k]);
	}
	json__kstr(&j, "norm", norm_names[c->o->norm]);
	if (c->o->per)
		json__kstr(&j, "per", c->o->per);
	json__key(&j, "scale");
	json__double(&j, c->scale, 6);
	json__key(&j, "scales");
	json__begin_object(&j);
	for (int n = 0; n < NORM__NR; n++)
		if (n != NORM_NONE && c->scales[n] > 0) {
			json__key(&j, norm_names[n]);
			json__double(&j, c->scales[n], 6);
		}
	json__end_object(&j);
	json__key(&j, "notes");
	json__begin_array(&j);
	for (const char *p = c->notes.buf; p && *p;) {
		const char *nl = strchr(p, '\n');
		char *line = xstrndup(p + 2, (size_t)(nl - p - 2)); /* without "# " */

		json__str(&j, line);
		free(line);
		p = nl + 1;
	}
	json__end_array(&j);
	json__key(&j, "lines");
	json__begin_array(&j);
	fields_diff_table__lines(&t, &c->view);
	for (size_t i = 0; i < t.nr_rows; i++) {
		json__break(&j, 2);
		json__begin_object(&j);
		json__row(&j, &t, t.rows[i]);
		json__end_object(&j);
	}
	table__release(&t);
	json__end_array(&j);
	json__key(&j, "structs");
	json__begin_array(&j);
	for (size_t i = 0; i < c->d.nr_structs; i++) {
		const struct diff_struct *ds = &c->d.structs[i];

		if (c->only && ds != c->only)
			continue;
		json__begin_object(&j);
		json__kstr(&j, "name", ds->name);
		json__key(&j, "layout_changed");
		json__bool(&j, ds->layout_changed);
		json__key(&j, "members");
		json__begin_array(&j);
		fields_diff_table__members(&t, &c->view, ds);
		for (size_t r = 0; r < t.nr_rows; r++) {
			json__break(&j, 4);
			json__begin_object(&j);
			json__row(&j, &t, t.rows[r]);
			json__end_object(&j);
		}
		table__release(&t);
		json__end_array(&j);
		json__end_object(&j);
	}
	json__end_array(&j);
	json__end_object(&j);
	fputc('\n', out);
	json__release(&j);
}

static void print_csv(struct diff_ctx *c, FILE *out)
{
	struct csv csv;
	struct table lines, *members = xcalloc(c->d.nr_structs + 1, sizeof(*members));
	size_t n = 0;

	csv__init(&csv, out, true);
	fields_diff_table__lines(&lines, &c->view);
	csv__add_columns(&csv, &lines);
	for (size_t i = 0; i < c->d.nr_structs; i++)
		if (!c->only || &c->d.structs[i] == c->only)
			fields_diff_table__members(&members[n++], &c->view, &c->d.structs[i]);
	if (n)
		csv__add_columns(&csv, &members[0]);
	csv__header(&csv);
	for (size_t i = 0; i < lines.nr_rows; i++)
		csv__row(&csv, &lines, lines.rows[i]);
	for (size_t k = 0; k < n; k++) {
		for (size_t i = 0; i < members[k].nr_rows; i++)
			csv__row(&csv, &members[k], members[k].rows[i]);
		table__release(&members[k]);
	}
	table__release(&lines);
	free(members);
	csv__release(&csv);
}

/* --- the comparison --- */

static double basis(const struct diff_side *s, enum norm n)
{
	if (n == NORM_ACCESSES)
		return (double)s->ld.period_sum;
	if (n == NORM_TIME)
		return s->seconds;
	if (n == NORM_PROGRESS)
		return (double)s->ld.progress;
	return 1;
}

static bool same_text(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* What makes the two hard to compare: said, and the comparison goes on. */
static void note_differences(struct diff_ctx *c)
{
	const struct perf_header_info *h[2] = { session__header(c->side[0].ld.session),
						session__header(c->side[1].ld.session) };
	unsigned ls[2] = { c->side[0].ld.fields->line_size, c->side[1].ld.fields->line_size };

	if (!same_text(h[0]->hostname, h[1]->hostname) || !same_text(h[0]->cpudesc, h[1]->cpudesc) ||
	    h[0]->nr_cpus_avail != h[1]->nr_cpus_avail)
		strbuf__addf(&c->notes, "# note: recorded on different machines (%s, %s, %u CPUs; "
					"%s, %s, %u CPUs): the changes include the machine's\n",
			     h[0]->hostname ? h[0]->hostname : "?", h[0]->cpudesc ? h[0]->cpudesc : "?",
			     h[0]->nr_cpus_avail, h[1]->hostname ? h[1]->hostname : "?",
			     h[1]->cpudesc ? h[1]->cpudesc : "?", h[1]->nr_cpus_avail);
	if (ls[0] != ls[1])
		strbuf__addf(&c->notes, "# note: different cache-line sizes (%u and %u bytes): "
					"lines are matched by what they hold, each recording's at "
					"its own size\n", ls[0], ls[1]);
	for (int k = 0; k < 2; k++) {
		const struct diff_side *s = &c->side[k];

		if (s->has_census && sim_census__overlap(&s->census) == SIM_OVERLAP_NONE)
			strbuf__addf(&c->notes, "# inconclusive: in %s (%s) the threads never ran at "
						"the same time: HITMs missing there prove nothing, "
						"not a fix (record again with --sim-turns 100 or "
						"on more free CPUs)\n", side_names[k], s->ld.input);
	}
	if (c->o->norm == NORM_TIME && (!c->side[0].seconds || !c->side[1].seconds))
		strbuf__addf(&c->notes, "# note: a recording without sample times: compared "
					"as they are\n");
}

static int load_side(struct diff_ctx *c, int k, const char *input)
{
	struct diff_side *s = &c->side[k];
	char err[4096];
	int rc;

	s->ld.progress_sym = c->o->per;
	rc = fields_load__run(&s->ld, input, &c->o->attr, NULL, (unsigned)c->o->line_size, false,
			      err, sizeof(err));
	if (s->ld.fa)
		cli__attr_warnings(s->ld.fa);
	if (rc) {
		cli__error("%s", err);
		return rc == -ENODATA ? EXIT_NOTHING : EXIT_USAGE;
	}
	if (c->o->per && !s->ld.progress) {
		cli__error("diff: --per %s: no sample of %s (%s) has its code in %s or its data on "
			   "it: the program's progress cannot be counted there (name a function "
			   "its work loop runs in, or a counter it updates)", c->o->per,
			   side_names[k], input, c->o->per);
		return EXIT_USAGE;
	}
	if (s->ld.fields->last_time > s->ld.fields->first_time)
		s->seconds = (s->ld.fields->last_time - s->ld.fields->first_time) / 1e9;
	/* The collector's overlap account, when it is one of its recordings. */
	s->has_census = strcmp(input, "-") && !sim_census__read(&s->census, input, err, sizeof(err));
	return 0;
}

static const struct diff_struct *find_struct(const struct fields_diff *d, const char *name)
{
	for (size_t i = 0; i < d->nr_structs; i++) {
		const char *n = d->structs[i].name;

		if (!strcmp(n, name) || (!strncmp(n, "struct ", 7) && !strcmp(n + 7, name)) ||
		    (!strncmp(n, "union ", 6) && !strcmp(n + 6, name)))
			return &d->structs[i];
	}
	return NULL;
}

static int diff_run(const struct command *cmd, int argc, char **argv)
{
	struct diff_opts o = { .cmd = cmd };
	struct diff_ctx c = { .o = &o, .notes = STRBUF_INIT };
	int rc, i = cli__parse(cmd, argc, argv, diff_option, &o, &rc);
	double b[2];

	if (i < 0)
		goto out_opts;
	if (o.per && !o.norm_set)
		o.norm = NORM_PROGRESS;
	if (o.norm == NORM_PROGRESS && !o.per) {
		rc = cli__usage_error(cmd, "--norm progress: name the progress with --per SYMBOL");
		goto out_opts;
	}
	if (argc - i != 2) {
		rc = cli__usage_error(cmd, "two recordings are needed: lineup diff BEFORE AFTER");
		goto out_opts;
	}
	if (!strcmp(argv[i], "-") && !strcmp(argv[i + 1], "-")) {
		rc = cli__usage_error(cmd, "only one of the recordings can be standard input");
		goto out_opts;
	}
	for (int k = 0; k < 2; k++) {
		rc = load_side(&c, k, argv[i + k]);
		if (rc)
			goto out;
	}
	for (int n = 0; n < NORM__NR; n++) {
		for (int k = 0; k < 2; k++)
			b[k] = basis(&c.side[k], (enum norm)n);
		c.scales[n] = b[0] > 0 && b[1] > 0 ? b[0] / b[1] : 0;
	}
	c.scale = c.scales[o.norm] > 0 ? c.scales[o.norm] : 1;
	note_differences(&c);
	if (fields_diff__build(&c.d, c.side[0].ld.fields, c.side[1].ld.fields, c.scale)) {
		cli__error("diff: out of memory");
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (o.only_struct && !(c.only = find_struct(&c.d, o.only_struct))) {
		cli__error("diff: no struct '%s' in either recording", o.only_struct);
		rc = EXIT_NOTHING;
		goto out;
	}
	c.view = (struct fields_diff_view){ .d = &c.d, .scale = c.scale, .only = c.only,
					    .all_members = o.all_members };
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
	rc = cli__close_output(stdout, "standard output", c.d.nr_groups ? EXIT_OK : EXIT_NOTHING);
out:
	fields_diff__release(&c.d);
	for (int k = 0; k < 2; k++)
		fields_load__release(&c.side[k].ld);
	strbuf__release(&c.notes);
out_opts:
	fields_attr_opts__release(&o.attr);
	return rc;
}

const struct command cmd_diff = {
	.name = "diff",
	.summary = "compare two recordings by what their cache lines hold (before/after a fix)",
	.usage = "[-C NAME] [--per SYMBOL] [--norm accesses|time|progress|none] [-k VMLINUX] "
		 "[--stdio|--json|--csv] BEFORE AFTER",
	.description =
		"Read both recordings as 'lineup fields' does and compare them: cache lines are "
		"matched by what they hold (the type and member of each sample's data, whether a "
		"global variable's, a heap object's by its allocation or an operand's type), not by "
		"address, so ASLR and a new layout do not get in the way; a line split in two by "
		"the fix is matched with both halves.  Per line group and per member: HITMs, loads, "
		"stores, locked RMWs, mean cycles, reader and writer CPUs, before, after and the "
		"change, with after's counts scaled to the work before did: per sample of the "
		"program's own progress where --per names it (a function its work loop runs in, "
		"or a counter it updates), else per memory access (--norm).  A struct "
		"whose layout differs between the two binaries is shown with both layouts side by "
		"side and each member's move.  Recordings of different machines or line sizes are "
		"compared where they can be, and said; a software-collector recording whose "
		"threads never ran at the same time is said to be inconclusive, never fixed.",
	.options = diff_options,
	.run = diff_run,
};
