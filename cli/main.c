// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "cli/command.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: lineup SUBCOMMAND [options]\n\n"
		     "lineup finds false sharing and cache-line contention in a perf.data, names\n"
		     "the struct fields behind it, and proposes a layout it has checked.\n\n"
		     "subcommands:\n");
	for (int i = 0; lineup_commands[i]; i++)
		fprintf(out, "  %-10s %s\n", lineup_commands[i]->name, lineup_commands[i]->summary);
	fprintf(out, "\n'lineup SUBCOMMAND --help' shows a subcommand's options; "
		     "'man lineup' the whole manual.\n"
		     "Exit status: 0 success, 1 nothing found or a failure while running, 2 bad "
		     "usage or bad input.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
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
