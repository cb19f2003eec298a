// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "cli/command.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/fields_attr.h"
#include "sampling/session.h"
#include "tui/tui.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define HELP_ID (-1000)

int cli__usage_error(const struct command *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "lineup %s: ", cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'lineup %s --help'.\n", cmd->name);
	return EXIT_USAGE;
}

void cli__error(const char *fmt, ...)
{
	va_list ap;

	fputs("lineup: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli__output_format(const struct command *cmd, const char **chosen, const char *opt)
{
	if (*chosen && strcmp(*chosen, opt))
		return cli__usage_error(cmd, "--%s and --%s exclude each other: choose one output "
					"format", *chosen, opt);
	*chosen = opt;
	return 0;
}

int cli__tui_option(void)
{
	if (tui__available())
		return 0;
	cli__error("--tui: this lineup was built without ncursesw (configure found no libncursesw): "
		   "use --stdio");
	return EXIT_USAGE;
}

int cli__parse_u64(const struct command *cmd, const char *opt, const char *s,
		   unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	if (!*s || *end || errno || *s == '-') {
		cli__usage_error(cmd, "%s: '%s' is not a non-negative integer", opt, s);
		return -EINVAL;
	}
	return 0;
}

int cli__filter_option(const struct command *cmd, struct session_filter *f, int which,
		       const char *arg)
{
	static const char *const names[CLI_FILTER__NR] = { "--time", "--pid", "--tid", "--cpu",
							   "--comm" };
	int rc;

	switch (which) {
	case CLI_FILTER_TIME:
		rc = session_filter__parse_time(f, arg);
		if (rc == -ERANGE)
			return cli__usage_error(cmd, "--time: '%s': START is after END", arg);
		if (rc)
			return cli__usage_error(cmd, "--time: '%s' is not START,END in seconds", arg);
		return 0;
	case CLI_FILTER_PID:
		rc = session_filter__parse_list(arg, &f->pids, &f->nr_pids);
		break;
	case CLI_FILTER_TID:
		rc = session_filter__parse_list(arg, &f->tids, &f->nr_tids);
		break;
	case CLI_FILTER_CPU:
		rc = session_filter__parse_list(arg, &f->cpus, &f->nr_cpus);
		break;
	case CLI_FILTER_COMM:
		session_filter__add_comms(f, arg);
		return 0;
	default:
		return 0;
	}
	if (rc)
		return cli__usage_error(cmd, "%s: '%s' is not a list like 0-3,8", names[which], arg);
	return 0;
}

static int option_count(const struct cli_option *o)
{
	int n = 0;

	while (o && (o[n].short_name || o[n].long_name))
		n++;
	return n;
}

int cli__parse(const struct command *cmd, int argc, char **argv,
	       int (*handle)(void *ctx, int id, const char *arg), void *ctx, int *exit_code)
{
	int n = option_count(cmd->options), nl = 0, ret = -1;
	struct option *lo = xcalloc(n + 2, sizeof(*lo));
	struct strbuf so = STRBUF_INIT;

	strbuf__add(&so, "+:h", 3);	/* '+': stop at the first operand, '--' ends options */
	for (int i = 0; i < n; i++) {
		const struct cli_option *o = &cmd->options[i];
		int optional = o->arg && o->arg[0] == '[';

		if (o->short_name) {
			strbuf__add(&so, &o->short_name, 1);
			if (o->arg)
				strbuf__add(&so, optional ? "::" : ":", optional ? 2 : 1);
		}
		if (o->long_name) {
			lo[nl].name = o->long_name;
			lo[nl].has_arg = !o->arg ? no_argument :
					 optional ? optional_argument : required_argument;
			lo[nl].val = 1000 + i;
			nl++;
		}
	}
	lo[nl].name = "help";
	lo[nl].val = HELP_ID;

	*exit_code = EXIT_OK;
	optind = 0;	/* glibc: full reinitialisation */
	opterr = 0;
	for (;;) {
		int li = -1, c = getopt_long(argc, argv, so.buf, lo, &li);
		const struct cli_option *o = NULL;

		if (c == -1)
			break;
		if (c == 'h' || c == HELP_ID) {
			cli__print_help(cmd, stdout);
			goto out;
		}
		if (c == '?' || c == ':') {
			const char *what = argv[optind - 1];

			if (c == ':')
				cli__usage_error(cmd, "option '%s' needs an argument", what);
			else
				cli__usage_error(cmd, "unknown option '%s'", what);
			*exit_code = EXIT_USAGE;
			goto out;
		}
		if (c >= 1000 && c < 1000 + n) {
			o = &cmd->options[c - 1000];
		} else {
			for (int i = 0; i < n; i++)
				if (cmd->options[i].short_name == c)
					o = &cmd->options[i];
		}
		if (!o)
			continue;
		*exit_code = handle(ctx, o->id, optarg);
		if (*exit_code)
			goto out;
	}
	ret = optind;
out:
	free(lo);
	strbuf__release(&so);
	return ret;
}

static void format_option(const struct cli_option *o, struct strbuf *sb)
{
	strbuf__reset(sb);
	if (o->short_name)
		strbuf__addf(sb, "-%c%s", o->short_name, o->long_name ? ", " : "");
	else
		strbuf__add(sb, "    ", 4);
	if (o->long_name)
		strbuf__addf(sb, "--%s", o->long_name);
	if (o->arg) {
		if (o->arg[0] == '[')
			strbuf__addf(sb, "%s", o->arg);
		else
			strbuf__addf(sb, "%s%s", o->long_name ? "=" : " ", o->arg);
	}
}

void cli__print_help(const struct command *cmd, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;

	fprintf(out, "usage: lineup %s %s\n\n", cmd->name, cmd->usage ? cmd->usage : "");
	if (cmd->description)
		fprintf(out, "%s\n\n", cmd->description);
	fprintf(out, "options:\n");
	for (const struct cli_option *o = cmd->options; o && (o->short_name || o->long_name); o++) {
		format_option(o, &sb);
		fprintf(out, "  %-28s %s\n", sb.buf, o->help);
	}
	fprintf(out, "  %-28s %s\n", "-h, --help", "show this help");
	strbuf__release(&sb);
}

/* troff needs '-' and '\' escaped, and a leading '.' or '\'' would start a request. */
static void man_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '-' || *s == '\\')
			fputc('\\', out);
		fputc(*s, out);
	}
}

void cli__print_man(FILE *out)
{
	struct strbuf sb = STRBUF_INIT;

	fputs(".\\\" Generated by 'lineup help --man' from the option tables; do not edit.\n"
	      ".TH LINEUP 1 \"\" \"lineup " PACKAGE_VERSION "\" \"User Commands\"\n"
	      ".SH NAME\nlineup \\- find false sharing in perf.data, name the struct fields, "
	      "propose a checked layout\n"
	      ".SH SYNOPSIS\n.B lineup\n.I SUBCOMMAND\n[\\fIoptions\\fR]\n"
	      ".SH DESCRIPTION\nlineup reads a recorded perf.data (from perf c2c record, perf mem "
	      "record, or its own recorders), computes perf c2c's cache-line statistics, ties "
	      "samples to struct members through DWARF and BTF, and proposes layouts it has "
	      "checked against the compiler.\n"
	      ".SH SUBCOMMANDS\n", out);
	for (int i = 0; lineup_commands[i]; i++) {
		const struct command *cmd = lineup_commands[i];

		fputs(".SS \"lineup ", out);
		man_text(out, cmd->name);
		fputs(" ", out);
		man_text(out, cmd->usage ? cmd->usage : "");
		fputs("\"\n", out);
		man_text(out, cmd->description ? cmd->description : cmd->summary);
		fputs("\n", out);
		for (const struct cli_option *o = cmd->options; o && (o->short_name || o->long_name);
		     o++) {
			format_option(o, &sb);
			fputs(".TP\n.B ", out);
			man_text(out, sb.buf);
			fputs("\n", out);
			man_text(out, o->help);
			fputs("\n", out);
		}
	}
	fputs(".SH EXIT STATUS\n.TP\n0\nsuccess\n.TP\n1\nnothing found where something was "
	      "asked for, or a failure while running (a system call that failed, a device "
	      "that would not open: the message says which)\n.TP\n2\nbad usage or bad input (the message names the file, the "
	      "position and what was wrong)\n.TP\n77\n(tests only) skipped: the machine lacks "
	      "what the test needs\n"
	      ".SH SEE ALSO\n.BR perf\\-c2c (1),\n.BR pahole (1)\n", out);
	strbuf__release(&sb);
}

int cli__parse_line_size(const struct command *cmd, const char *s, unsigned long long *out)
{
	if (cli__parse_u64(cmd, "--line-size", s, out))
		return EXIT_USAGE;
	if (*out < 8 || *out > 4096 || (*out & (*out - 1)))
		return cli__usage_error(cmd, "--line-size: %s is not a power of two between 8 and "
					"4096", s);
	return 0;
}

void cli__attr_warnings(struct fields_attr *fa)
{
	const char *w;

	while ((w = fields_attr__next_warning(fa)))
		cli__error("%s", w);
}

int cli__attr_option(const struct command *cmd, struct fields_attr_opts *a, int which,
		     const char *arg)
{
	switch (which) {
	case CLI_ATTR_VMLINUX:
		a->vmlinux = arg;
		break;
	case CLI_ATTR_SYMFS:
		a->symfs = arg;
		break;
	case CLI_ATTR_DEBUG_FILE:
		fields_list__add(&a->debug_files, arg);
		break;
	case CLI_ATTR_TYPE:
		if (fields_attr__check_hint(arg))
			return cli__usage_error(cmd, "--type: '%s' %s", arg,
						fields_attr__check_hint(arg));
		fields_list__add(&a->hints, arg);
		break;
	case CLI_ATTR_CACHE_TYPE:
		if (!strchr(arg, '=') || arg[0] == '=' || !strchr(arg, '=')[1])
			return cli__usage_error(cmd, "--cache-type: '%s' is not NAME=TYPE", arg);
		fields_list__add(&a->cache_types, arg);
		break;
	}
	return 0;
}
