/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_CLI_COMMAND_H
#define LINEUP_CLI_COMMAND_H

/*
 * cli/ -- the `lineup` command: option parsing and output, nothing a second front end would
 * need (that lives below: pipeline/, sampling/, dwarf/, analyzer/).
 *
 *   main.c, commands.c   argv[1] to a struct command (this header) in the table of commands
 *   options.c            cli__parse against each command's option table, the options several
 *                        commands share (filters, attribution), cli__error; the same tables
 *                        generate doc/lineup.1 (cmd_help.c, `lineup help --man`)
 *   cmd_NAME.c           one command each: parse, call the layers, print; exit codes below
 *   output.c             the JSON and CSV renderers of analyzer/table.h's tables
 *
 * A command reads a recording through pipeline/ (recording.h, c2c_load.h, fields_load.h), hands
 * what it read to analyzer/, and renders the result: text, --json, --csv, or tui/tui.h.
 */
#include <stdio.h>

/* Documented exit codes (doc/lineup.1, EXIT STATUS). */
enum {
	EXIT_OK = 0,
	EXIT_NOTHING = 1,	/* nothing found where something was asked for */
	EXIT_RUNTIME = 1,	/* a failure while running (a system call, the workload's setup) */
	EXIT_USAGE = 2,		/* bad usage or bad input */
};

/**
 * struct cli_option - one option of a subcommand.
 * @id:		value handed to the command's handler; use the short letter where there is one
 * @short_name:	the short option letter, or 0
 * @long_name:	the long option name without dashes, or NULL
 * @arg:	the argument's name as shown in help ("FILE"); NULL for a flag; a leading '['
 *		makes the argument optional ("[=MODE]" style, long form only)
 * @help:	one line of help
 *
 * The same table drives parsing, `--help` and the man page, so they cannot drift.
 */
struct cli_option {
	int id;
	char short_name;
	const char *long_name;
	const char *arg;
	const char *help;
};

#define CLI_OPTION_END { 0, 0, NULL, NULL, NULL }

/**
 * struct command - a subcommand.
 * @name:	what the user types
 * @summary:	one line, for `lineup --help`
 * @usage:	the synopsis after "lineup NAME"
 * @description: a paragraph for --help and the man page
 * @options:	the option table, ended by CLI_OPTION_END
 * @run:	the command; argv[0] is the subcommand name; returns an exit code
 */
struct command {
	const char *name;
	const char *summary;
	const char *usage;
	const char *description;
	const struct cli_option *options;
	int (*run)(const struct command *cmd, int argc, char **argv);
};

/* All subcommands, in the order --help lists them (cli/commands.c). */
extern const struct command *const lineup_commands[];

/* `lineup --help` and `lineup help`: the usage line and every subcommand's summary. */
void lineup__usage(FILE *out);

/*
 * Parse argv against cmd->options.  For each option found, calls @handle(ctx, id, arg) which
 * returns 0 or an exit code (non-zero stops parsing).  `-h`/`--help` print the command's help
 * and make parse return -1 with *exit_code = 0; bad usage prints a message and returns -1 with
 * *exit_code = EXIT_USAGE.  Otherwise returns the index of the first operand.
 */
int cli__parse(const struct command *cmd, int argc, char **argv,
	       int (*handle)(void *ctx, int id, const char *arg), void *ctx, int *exit_code);

void cli__print_help(const struct command *cmd, FILE *out);
void cli__print_man(FILE *out);

/* Print "lineup NAME: message" on stderr; returns EXIT_USAGE for `return cli__usage_error(...)`. */
int cli__usage_error(const struct command *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Print "lineup: message" on stderr. */
void cli__error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct fields_attr;
/* Print what attribution's evidence sources had to say, once each, as errors. */
void cli__attr_warnings(struct fields_attr *fa);

/*
 * An output format option (--stdio, --json, --csv, given as @opt without dashes): formats
 * exclude each other, so a second, different one is a usage error.  *@chosen keeps the one
 * given so far (NULL at first).  Returns 0, or EXIT_USAGE after the message.
 */
int cli__output_format(const struct command *cmd, const char **chosen, const char *opt);
/*
 * --tui: 0 where this lineup has the browser; in a build without ncursesw, EXIT_USAGE after
 * saying so (every command's --tui, before it reads anything).
 */
int cli__tui_option(void);

/*
 * The attribution options of every command that ties samples to members (fields, suggest,
 * diff): -k/--vmlinux, --symfs, --debug-file, --type, --cache-type into @a, their values
 * checked; 0, or EXIT_USAGE after saying what is wrong.
 */
enum { CLI_ATTR_DEBUG_FILE, CLI_ATTR_SYMFS, CLI_ATTR_TYPE, CLI_ATTR_CACHE_TYPE, CLI_ATTR_VMLINUX };

/*
 * Their table entries, declared once: -k/--vmlinux (id 'k') and the long ones numbered from
 * @first in enum's order, so that a command hands `id - first` to cli__attr_option.
 */
#define CLI_ATTR_OPTIONS(first)                                                                    \
	{ 'k', 'k', "vmlinux", "FILE", "kernel image with debug info, for kernel samples" },      \
	{ (first) + CLI_ATTR_DEBUG_FILE, 0, "debug-file", "FILE",                                 \
	  "an object with debug info to take types from (a .ko, a binary; repeatable)" },          \
	{ (first) + CLI_ATTR_SYMFS, 0, "symfs", "DIR", "look for objects under DIR (perf's --symfs)" }, \
	{ (first) + CLI_ATTR_TYPE, 0, "type", "'struct T'@ADDR",                                  \
	  "hint: an instance of type T lives at ADDR (the weakest evidence; repeatable)" },        \
	{ (first) + CLI_ATTR_CACHE_TYPE, 0, "cache-type", "NAME=TYPE",                            \
	  "objects of kmem cache NAME are of TYPE (adds to the built-in table; repeatable)" }
#define CLI_ATTR__NR_LONG 4
struct fields_attr_opts;
int cli__attr_option(const struct command *cmd, struct fields_attr_opts *a, int which,
		     const char *arg);

/* --line-size N: a power of two in 8..4096; 0, or EXIT_USAGE after saying what is wrong. */
int cli__parse_line_size(const struct command *cmd, const char *s, unsigned long long *out);

/* Parse an unsigned integer option value; 0 on success, -EINVAL with a message otherwise. */
int cli__parse_u64(const struct command *cmd, const char *opt, const char *s,
		   unsigned long long *out);

/*
 * The sample filters every command that reads samples takes (sampling/session.h's struct
 * session_filter): a command numbers them from its own @first option id, in this order.
 */
enum cli_filter {
	CLI_FILTER_TIME,
	CLI_FILTER_PID,
	CLI_FILTER_TID,
	CLI_FILTER_CPU,
	CLI_FILTER_COMM,
	CLI_FILTER__NR,
};

#define CLI_FILTER_OPTIONS(first)                                                                  \
	{ (first) + CLI_FILTER_TIME, 0, "time", "START,END",                                      \
	  "only samples in this time window (seconds, as perf script prints them; either may "    \
	  "be empty)" },                                                                           \
	{ (first) + CLI_FILTER_PID, 0, "pid", "LIST", "only samples of these processes" },        \
	{ (first) + CLI_FILTER_TID, 0, "tid", "LIST", "only samples of these threads" },          \
	{ (first) + CLI_FILTER_CPU, 0, "cpu", "LIST", "only samples on these CPUs (0-3,8)" },     \
	{ (first) + CLI_FILTER_COMM, 0, "comm", "LIST",                                          \
	  "only samples of threads with these command names" }

struct session_filter;

/* Option @which (enum cli_filter) with @arg into @f: 0, or EXIT_USAGE after saying why. */
int cli__filter_option(const struct command *cmd, struct session_filter *f, int which,
		       const char *arg);

#endif
