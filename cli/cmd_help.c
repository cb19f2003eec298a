// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include <string.h>

#include "cli/command.h"

enum { OPT_MAN = 1 };

static const struct cli_option help_options[] = {
	{ OPT_MAN, 0, "man", NULL, "print the man page (troff) generated from the option tables" },
	CLI_OPTION_END
};

struct help_opts {
	int man;
};

static int help_option(void *ctx, int id, const char *arg)
{
	struct help_opts *o = ctx;

	if (id == OPT_MAN)
		o->man = 1;
	return 0;
}

static int help_run(const struct command *cmd, int argc, char **argv)
{
	struct help_opts o = { 0 };
	int rc, i = cli__parse(cmd, argc, argv, help_option, &o, &rc);

	if (i < 0)
		return rc;
	if (o.man) {
		cli__print_man(stdout);
		return EXIT_OK;
	}
	if (i < argc) {
		for (int k = 0; lineup_commands[k]; k++)
			if (!strcmp(argv[i], lineup_commands[k]->name)) {
				cli__print_help(lineup_commands[k], stdout);
				return EXIT_OK;
			}
		return cli__usage_error(cmd, "'%s' is not a subcommand", argv[i]);
	}
	lineup__usage(stdout);
	return EXIT_OK;
}

const struct command cmd_help = {
	.name = "help",
	.summary = "show help for a subcommand, or the man page",
	.usage = "[SUBCOMMAND] [--man]",
	.description = "Print the subcommands (no argument), a subcommand's help, or with --man "
		       "the whole manual page as troff.",
	.options = help_options,
	.run = help_run,
};
