// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lineup ab: time two commands against each other (sampling/timed_run runs them ABBA, after
 * warm-ups) and say whether B is faster than A beyond the noise (analyzer/abstat: the ratio of
 * run times with a 95% interval).  Exit 0 when B is better beyond the interval, 1 when not
 * significant or worse, 2 on bad usage or a command that failed.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyzer/abstat.h"
#include "cli/command.h"
#include "sampling/timed_run.h"
#include "sampling/workload.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define LEVEL 0.95

enum {
	OPT_RUNS = 'n',
	OPT_WARMUP = 'w',
	OPT_MIN_TIME = 't',
	OPT_PRECISION = 'p',
	OPT_JSON = 1000,
	OPT_PLOT,
	OPT_SHOW_OUTPUT,
};

static const struct cli_option ab_options[] = {
	{ OPT_RUNS, 'n', "runs", "N", "runs of each command at most (default 30, at least 2)" },
	{ OPT_WARMUP, 'w', "warmup", "N", "runs of each discarded first (default 1)" },
	{ OPT_MIN_TIME, 't', "min-time", "S",
	  "run for at least S seconds before stopping early (default 0)" },
	{ OPT_PRECISION, 'p', "precision", "PCT",
	  "stop early once the interval is within PCT% of the ratio either way (default 1; 0: "
	  "always run N)" },
	{ OPT_JSON, 0, "json", NULL, "the runs, summaries and verdict as JSON" },
	{ OPT_PLOT, 0, "plot", NULL, "plot both distributions (default: when stdout is a terminal)" },
	{ OPT_SHOW_OUTPUT, 0, "show-output", NULL,
	  "let the commands' standard output through (default: /dev/null)" },
	CLI_OPTION_END
};

struct ab_opts {
	const struct command *cmd;
	unsigned long long runs, warmup;
	double min_time, precision;
	bool json, plot, show_output;
};

static int parse_double(const struct command *cmd, const char *opt, const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(*out) || *out < 0)
		return cli__usage_error(cmd, "%s: '%s' is not a non-negative number", opt, s);
	return 0;
}

static int ab_option(void *ctx, int id, const char *arg)
{
	struct ab_opts *o = ctx;

	switch (id) {
	case OPT_RUNS:
		if (cli__parse_u64(o->cmd, "--runs", arg, &o->runs))
			return EXIT_USAGE;
		if (o->runs < 2 || o->runs > 100000)
			return cli__usage_error(o->cmd, "--runs: %s: at least 2 runs of each are "
					       "needed to compare (and at most 100000)", arg);
		break;
	case OPT_WARMUP:
		if (cli__parse_u64(o->cmd, "--warmup", arg, &o->warmup))
			return EXIT_USAGE;
		if (o->warmup > 1000)
			return cli__usage_error(o->cmd, "--warmup: %s: at most 1000", arg);
		break;
	case OPT_MIN_TIME:
		return parse_double(o->cmd, "--min-time", arg, &o->min_time);
	case OPT_PRECISION:
		return parse_double(o->cmd, "--precision", arg, &o->precision);
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_PLOT:
		o->plot = true;
		break;
	case OPT_SHOW_OUTPUT:
		o->show_output = true;
		break;
	}
	return 0;
}

struct ab_ctx {
	const struct ab_opts *o;
	double elapsed; /* seconds of measured runs so far */
	bool tty;	/* a progress line on stderr */
};

static double sum(const double *x, unsigned n)
{
	double t = 0;

	for (unsigned i = 0; i < n; i++)
		t += x[i];
	return t;
}

/* Early stop: enough runs, enough time, and an interval within the precision asked for. */
static bool ab_enough(void *arg, const struct timed_series s[2])
{
	struct ab_ctx *x = arg;
	struct abstat_compare c;

	x->elapsed = sum(s[0].wall, s[0].n) + sum(s[1].wall, s[1].n);
	if (x->o->precision <= 0 || s[0].n < 5 || x->elapsed < x->o->min_time)
		return false;
	if (abstat__compare(s[0].wall, s[0].n, s[1].wall, s[1].n, LEVEL, &c) || c.too_few)
		return false;
	return sqrt(c.hi / c.lo) <= 1 + x->o->precision / 100;
}

static void ab_progress(void *arg, const struct timed_series s[2], bool warming)
{
	struct ab_ctx *x = arg;
	struct abstat_compare c;

	if (!x->tty)
		return;
	fprintf(stderr, "\r\033[K  %s A %u/%llu  B %u/%llu", warming ? "warming up:" : "runs:",
		s[0].n, x->o->runs, s[1].n, x->o->runs);
	if (!warming && s[0].n >= 2 && s[1].n >= 2 &&
	    !abstat__compare(s[0].wall, s[0].n, s[1].wall, s[1].n, LEVEL, &c))
		fprintf(stderr, "  ratio %.3f [%.3f, %.3f]", c.ratio, c.lo, c.hi);
	fflush(stderr);
}

static void argv_text(struct strbuf *sb, char *const *argv)
{
	for (int i = 0; argv[i]; i++) {
		bool plain = argv[i][0] && !strpbrk(argv[i], " \t\n'\"\\$`;&|<>()*?[]{}~#!");

		if (i)
			strbuf__add(sb, " ", 1);
		if (plain) {
			strbuf__addf(sb, "%s", argv[i]);
			continue;
		}
		strbuf__add(sb, "'", 1);
		for (const char *p = argv[i]; *p; p++)
			if (*p == '\'')
				strbuf__add(sb, "'\\''", 4);
			else
				strbuf__add(sb, p, 1);
		strbuf__add(sb, "'", 1);
	}
}

/* The failed run, its status and the end of its standard error. */
static int report_failure(const struct timed_ab *ab)
{
	struct strbuf sb = STRBUF_INIT;
	const struct timed_run *r = &ab->fail;
	const char *side = ab->failed ? "B" : "A";
	char how[96];

	argv_text(&sb, ab->argv[ab->failed]);
	if (r->exec_errno)
		cli__error("ab: command %s cannot be run: %s: %s", side, sb.buf,
			   strerror(r->exec_errno));
	else
		cli__error("ab: command %s %s: %s", side,
			   workload__describe_status(r->status, how, sizeof(how)), sb.buf);
	if (r->err[0] && !r->exec_errno) {
		size_t len = strlen(r->err);

		/* the command's bytes, not the terminal's orders: an escape sequence in them
		 * could retitle the window, clear the screen or worse */
		strbuf__reset(&sb);
		strbuf__add_printable(&sb, r->err, len);
		fprintf(stderr, "its standard error%s:\n%s%s",
			len >= TIMED_RUN_ERR_TAIL ? " (the end)" : "", sb.buf,
			r->err[len - 1] == '\n' ? "" : "\n");
	}
	strbuf__release(&sb);
	return EXIT_USAGE;
}

static double median_of(const double *x, unsigned n)
{
	struct abstat_summary s;

	return n && !abstat__summarize(x, n, &s) ? s.median : 0;
}

/* The per-run CPU time (user + system) of @s into a new array. */
static double *cpu_times(const struct timed_series *s)
{
	double *t = xcalloc(s->n ? s->n : 1, sizeof(*t));

	for (unsigned i = 0; i < s->n; i++)
		t[i] = s->user[i] + s->sys[i];
	return t;
}

static double *counts_of(const uint64_t *v, unsigned n)
{
	double *t = xcalloc(n ? n : 1, sizeof(*t));

	for (unsigned i = 0; i < n; i++)
		t[i] = (double)v[i];
	return t;
}

/* A time with a unit that keeps three significant digits or so. */
static void time_text(char *buf, size_t size, double s)
{
	if (s >= 1)
		snprintf(buf, size, "%.3f s", s);
	else if (s >= 1e-3)
		snprintf(buf, size, "%.2f ms", s * 1e3);
	else
		snprintf(buf, size, "%.1f us", s * 1e6);
}

static bool utf8_terminal(void)
{
	const char *vars[] = { "LC_ALL", "LC_CTYPE", "LANG" };

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);

		if (v && *v)
			return strcasestr(v, "utf-8") || strcasestr(v, "utf8");
	}
	return false;
}

#define PLOT_WIDTH 60

/*
 * Both distributions as one row of bars each over a shared axis, so that overlap (or its absence)
 * shows at a glance; the bar height is the share of that side's runs in the bin.
 */
static void plot(const struct timed_series s[2])
{
	static const char *const bars[] = { " ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	static const char *const ascii[] = { " ", ".", ".", ":", ":", "+", "+", "#", "#" };
	const char *const *glyph = utf8_terminal() ? bars : ascii;
	double lo = INFINITY, hi = -INFINITY;
	char l[32], h[32];

	for (int k = 0; k < 2; k++)
		for (unsigned i = 0; i < s[k].n; i++) {
			lo = fmin(lo, s[k].wall[i]);
			hi = fmax(hi, s[k].wall[i]);
		}
	if (!(hi > lo))
		hi = lo + 1e-9;
	for (int k = 0; k < 2; k++) {
		unsigned bin[PLOT_WIDTH] = { 0 }, top = 0;

		for (unsigned i = 0; i < s[k].n; i++) {
			unsigned b = (unsigned)((s[k].wall[i] - lo) / (hi - lo) * PLOT_WIDTH);

			bin[b < PLOT_WIDTH ? b : PLOT_WIDTH - 1]++;
		}
		for (int b = 0; b < PLOT_WIDTH; b++)
			top = bin[b] > top ? bin[b] : top;
		printf("  %c |", k ? 'B' : 'A');
		for (int b = 0; b < PLOT_WIDTH; b++)
			fputs(glyph[bin[b] ? 1 + (bin[b] * 7 + top - 1) / top : 0], stdout);
		printf("|\n");
	}
	time_text(l, sizeof(l), lo);
	time_text(h, sizeof(h), hi);
	printf("    %-*s%s\n", PLOT_WIDTH + 2 - (int)strlen(h), l, h);
}

static void print_side(const char *name, char *const *argv, const struct timed_series *s)
{
	struct abstat_summary w;
	struct strbuf sb = STRBUF_INIT;
	double *cpu = cpu_times(s);
	char med[32], mad[32], mn[32], mx[32], c[32];

	argv_text(&sb, argv);
	abstat__summarize(s->wall, s->n, &w);
	time_text(med, sizeof(med), w.median);
	time_text(mad, sizeof(mad), w.mad);
	time_text(mn, sizeof(mn), w.min);
	time_text(mx, sizeof(mx), w.max);
	time_text(c, sizeof(c), median_of(cpu, s->n));
	printf("%s: %s\n", name, sb.buf);
	printf("  wall %s ± %s (median ± MAD), range %s to %s, %u runs; user+sys %s\n", med, mad, mn,
	       mx, s->n, c);
	if (s->have_counters) {
		double *cy = counts_of(s->cycles, s->n), *in = counts_of(s->instructions, s->n);

		printf("  cycles %.4g, instructions %.4g (medians)\n", median_of(cy, s->n),
		       median_of(in, s->n));
		free(cy);
		free(in);
	}
	if (w.outliers)
		printf("  %u outlier%s (beyond 3 IQR of the quartiles): another program, an "
		       "interrupt, the cache; the ratio's interval is rank-based and moves by one "
		       "rank at most\n",
		       w.outliers, w.outliers == 1 ? "" : "s");
	free(cpu);
	strbuf__release(&sb);
}

static const char *verdict_name(enum abstat_verdict v)
{
	return v == ABSTAT_BETTER ? "better" : v == ABSTAT_WORSE ? "worse" : "not significant";
}

static void print_verdict(const struct abstat_compare *c)
{
	const char *method = c->exact ? "Hodges-Lehmann ratio, Mann-Whitney interval (exact)"
				       : "Hodges-Lehmann ratio, Mann-Whitney interval (normal "
					 "approximation)";

	if (c->verdict == ABSTAT_BETTER)
		printf("B ran %.3f times faster than A (95%% CI %.3f to %.3f; %s): better\n", c->ratio,
		       c->lo, c->hi, method);
	else if (c->verdict == ABSTAT_WORSE)
		printf("B ran %.3f times slower than A (95%% CI %.3f to %.3f; %s): worse\n",
		       1 / c->ratio, 1 / c->hi, 1 / c->lo, method);
	else if (c->too_few)
		printf("not significant: too few runs for a 95%% interval (ratio A/B %.3f, extremes "
		       "%.3f to %.3f); at least %u more runs of each needed\n",
		       c->ratio, c->lo, c->hi, c->more_runs);
	else {
		printf("not significant: ratio A/B %.3f, 95%% CI %.3f to %.3f contains 1 (%s)\n",
		       c->ratio, c->lo, c->hi, method);
		if (c->more_runs)
			printf("  about %u more runs of each would likely settle a difference of "
			       "%.1f%%, if it is real\n",
			       c->more_runs, fabs(c->ratio - 1) * 100);
		else
			printf("  no difference visible: the interval is centred on 1\n");
	}
}

static void json_array(struct strbuf *sb, const double *x, unsigned n)
{
	strbuf__add(sb, "[", 1);
	for (unsigned i = 0; i < n; i++)
		strbuf__addf(sb, "%s%.9g", i ? ", " : "", x[i]);
	strbuf__add(sb, "]", 1);
}

static void json_side(struct strbuf *sb, char *const *argv, const struct timed_series *s)
{
	struct abstat_summary w;

	abstat__summarize(s->wall, s->n, &w);
	strbuf__add(sb, "{\"command\": [", 13);
	for (int i = 0; argv[i]; i++) {
		strbuf__add(sb, i ? ", \"" : "\"", i ? 3 : 1);
		strbuf__add_json(sb, argv[i]);
		strbuf__add(sb, "\"", 1);
	}
	strbuf__addf(sb, "], \"runs\": %u, \"median\": %.9g, \"mad\": %.9g, \"mean\": %.9g, "
		     "\"sd\": %.9g, \"min\": %.9g, \"max\": %.9g, \"outliers\": %u, \"wall_s\": ",
		     s->n, w.median, w.mad, w.mean, w.sd, w.min, w.max, w.outliers);
	json_array(sb, s->wall, s->n);
	strbuf__add(sb, ", \"user_s\": ", 12);
	json_array(sb, s->user, s->n);
	strbuf__add(sb, ", \"sys_s\": ", 11);
	json_array(sb, s->sys, s->n);
	if (s->have_counters) {
		double *cy = counts_of(s->cycles, s->n), *in = counts_of(s->instructions, s->n);

		strbuf__add(sb, ", \"cycles\": ", 12);
		json_array(sb, cy, s->n);
		strbuf__add(sb, ", \"instructions\": ", 18);
		json_array(sb, in, s->n);
		free(cy);
		free(in);
	}
	strbuf__add(sb, "}", 1);
}

static void print_json(const struct timed_ab *ab, const struct abstat_compare *c)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf__addf(&sb, "{\"method\": \"Hodges-Lehmann ratio of wall times, Mann-Whitney "
		     "(Moses) interval, %s\", \"level\": %.2f, \"a\": ",
		     c->exact ? "exact" : "normal approximation", c->level);
	json_side(&sb, ab->argv[0], &ab->s[0]);
	strbuf__add(&sb, ", \"b\": ", 7);
	json_side(&sb, ab->argv[1], &ab->s[1]);
	strbuf__addf(&sb, ", \"ratio\": %.9g, \"ci\": [%.9g, %.9g], \"too_few\": %s, "
		     "\"verdict\": \"%s\", \"more_runs\": %u}\n",
		     c->ratio, c->lo, c->hi, c->too_few ? "true" : "false",
		     verdict_name(c->verdict), c->more_runs);
	fputs(sb.buf, stdout);
	strbuf__release(&sb);
}

/* Split the operands CMD_A ... --- CMD_B ... into two NULL-terminated argument vectors. */
static int split_commands(const struct command *cmd, int argc, char **argv, char **cmds[2])
{
	int sep = -1;

	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "---")) {
			if (sep >= 0)
				return cli__usage_error(cmd, "more than one '---': give two commands");
			sep = i;
		}
	if (sep < 0)
		return cli__usage_error(cmd, "two commands are needed: lineup ab [options] -- "
					     "CMD_A ... --- CMD_B ...");
	if (sep == 0 || sep == argc - 1)
		return cli__usage_error(cmd, "command %s is empty: lineup ab [options] -- CMD_A "
					     "... --- CMD_B ...", sep == 0 ? "A" : "B");
	cmds[0] = xcalloc(sep + 1, sizeof(char *));
	cmds[1] = xcalloc(argc - sep, sizeof(char *));
	memcpy(cmds[0], argv, sep * sizeof(char *));
	memcpy(cmds[1], argv + sep + 1, (argc - sep - 1) * sizeof(char *));
	return 0;
}

static int ab_run(const struct command *cmd, int argc, char **argv)
{
	struct ab_opts o = { .cmd = cmd, .runs = 30, .warmup = 1, .precision = 1 };
	struct ab_ctx x = { .o = &o };
	struct timed_ab ab = { 0 };
	struct abstat_compare c;
	char **cmds[2] = { NULL, NULL };
	int rc, i = cli__parse(cmd, argc, argv, ab_option, &o, &rc);

	if (i < 0)
		return rc;
	if (split_commands(cmd, argc - i, argv + i, cmds))
		return EXIT_USAGE;
	x.tty = isatty(2) && !o.json;
	ab = (struct timed_ab){
		.argv = { cmds[0], cmds[1] },
		.warmup = (unsigned)o.warmup,
		.max_runs = (unsigned)o.runs,
		.show_output = o.show_output,
		.enough = ab_enough,
		.progress = ab_progress,
		.ctx = &x,
	};
	rc = timed_ab__run(&ab);
	if (x.tty)
		fprintf(stderr, "\r\033[K");
	if (rc < 0) {
		cli__error("ab: cannot measure the runs: %s", strerror(-rc));
		rc = EXIT_USAGE;
		goto out;
	}
	if (rc) {
		rc = report_failure(&ab);
		goto out;
	}
	if (abstat__compare(ab.s[0].wall, ab.s[0].n, ab.s[1].wall, ab.s[1].n, LEVEL, &c)) {
		cli__error("ab: the run times cannot be compared (a time of 0?)");
		rc = EXIT_USAGE;
		goto out;
	}
	if (o.json) {
		print_json(&ab, &c);
	} else {
		print_side("A", cmds[0], &ab.s[0]);
		print_side("B", cmds[1], &ab.s[1]);
		if (o.plot || isatty(1))
			plot(ab.s);
		print_verdict(&c);
	}
	rc = c.verdict == ABSTAT_BETTER ? EXIT_OK : EXIT_NOTHING;
out:
	timed_ab__release(&ab);
	free(cmds[0]);
	free(cmds[1]);
	return rc;
}

const struct command cmd_ab = {
	.name = "ab",
	.summary = "time two commands A/B and say whether B is faster beyond the noise",
	.usage = "[-n N] [-w N] [-t S] [-p PCT] [--json] -- CMD_A [ARGS] --- CMD_B [ARGS]",
	.description = "Run CMD_A and CMD_B alternately (ABBA order, after warm-up runs that are "
		       "discarded) and report each one's wall time (median, MAD, range, outliers), "
		       "CPU time and, where the PMU allows, cycles and instructions; then the ratio "
		       "A/B of wall times (how many times faster B ran) with its 95% confidence "
		       "interval: the Hodges-Lehmann estimate and the Mann-Whitney (Moses) "
		       "interval, distribution-free and unmoved by a few outliers.  When the "
		       "interval contains 1 the difference is 'not significant', and the number of "
		       "runs that would likely settle it is said.  Stops after N runs of each, or "
		       "earlier once the interval is tight.  Exit status: 0 when B is faster beyond "
		       "the interval, 1 when not significant or slower, 2 on bad usage or when a "
		       "command fails (its status and standard error are shown).",
	.options = ab_options,
	.run = ab_run,
};
