// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "cli/command.h"

int main(int argc, char **argv)
{
	if (argc < 2) {
		lineup__usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		lineup__usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("lineup %s\n", PACKAGE_VERSION);
		return EXIT_OK;
	}
	for (int i = 0; lineup_commands[i]; i++)
		if (!strcmp(argv[1], lineup_commands[i]->name))
			return lineup_commands[i]->run(lineup_commands[i], argc - 1, argv + 1);
	fprintf(stderr, "lineup: '%s' is not a subcommand; see 'lineup --help'\n", argv[1]);
	return EXIT_USAGE;
}
