/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_CLI_SIM_RECORD_H
#define LINEUP_CLI_SIM_RECORD_H

#include <stdbool.h>
#include <stddef.h>

/*
 * `lineup record --sim`: run a program built with `lineup sim-flags` so that its runtime
 * (sampling/simrt) writes @output, with the sampling period @period (0: the runtime's
 * default) and the modeling windows @window (LINEUP_SIM_WINDOW's syntax, already checked;
 * NULL: the runtime's default); @count: between windows the hooks stay calls and count loads
 * (LINEUP_SIM_PATCH=0) instead of being patched out.  argv[0] is the program.  Returns an exit
 * code (cli/command.h).
 */
int sim_record__run(const char *output, unsigned long long period, const char *window, bool count,
		    int argc, char **argv);

#endif
