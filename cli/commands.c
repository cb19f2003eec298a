// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include <stddef.h>

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
