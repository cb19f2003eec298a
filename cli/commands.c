// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include <stddef.h>
#include <stdio.h>

#include "cli/command.h"

/* Each subcommand lives in cli/cmd_NAME.c and defines `const struct command cmd_NAME`. */
extern const struct command cmd_help;
extern const struct command cmd_demo;
extern const struct command cmd_report;
extern const struct command cmd_info;
extern const struct command cmd_layout;
extern const struct command cmd_fields;
extern const struct command cmd_record;
extern const struct command cmd_sim_flags;
extern const struct command cmd_watch;
extern const struct command cmd_suggest;
extern const struct command cmd_verify;
extern const struct command cmd_ab;
extern const struct command cmd_diff;

const struct command *const lineup_commands[] = {
	&cmd_demo,
	&cmd_help,
	&cmd_report,
	&cmd_info,
	&cmd_layout,
	&cmd_fields,
	&cmd_suggest,
	&cmd_verify,
	&cmd_record,
	&cmd_sim_flags,
	&cmd_watch,
	&cmd_ab,
	&cmd_diff,
	NULL,
};

void lineup__usage(FILE *out)
{
	fprintf(out, "usage: lineup SUBCOMMAND [options]\n\n"
		     "lineup finds false sharing and cache-line contention in a perf.data, names\n"
		     "the struct fields behind it, and proposes a layout it has checked.\n\n"
		     "subcommands:\n");
	for (int i = 0; lineup_commands[i]; i++)
		fprintf(out, "  %-10s %s\n", lineup_commands[i]->name, lineup_commands[i]->summary);
	fprintf(out, "\n'lineup SUBCOMMAND --help' shows a subcommand's options; 'lineup help --man'\n"
		     "prints the whole manual ('man lineup' once installed, 'lineup help --man |\n"
		     "man -l -' before).\n"
		     "Exit status: 0 success, 1 nothing found or a failure while running, 2 bad "
		     "usage or bad input.\n");
}
