/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_CLI_SIM_RECORD_H
#define LINEUP_CLI_SIM_RECORD_H

#include <stdbool.h>
#include <stddef.h>

/* How `lineup record --sim` runs the collector (0 and NULL: the runtime's defaults). */
struct sim_record_opts {
	unsigned long long period; /* sampling period (LINEUP_SIM_PERIOD) */
	unsigned long long turns;  /* threads take turns every N modeled accesses (LINEUP_SIM_TURNS) */
	const char *window;	   /* modeling windows, LINEUP_SIM_WINDOW's syntax, already checked */
	bool count;		   /* between windows the hooks stay calls and count loads
				    * (LINEUP_SIM_PATCH=0) instead of being patched out */
};

/*
 * `lineup record --sim`: run a program built with `lineup sim-flags` so that its runtime
 * (sampling/simrt) writes @output, as @o says.  argv[0] is the program.  Returns an exit code
 * (cli/command.h).
 */
int sim_record__run(const char *output, const struct sim_record_opts *o, int argc, char **argv);

#endif
