/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_PIPELINE_SIM_RUN_H
#define LINEUP_PIPELINE_SIM_RUN_H

/*
 * `lineup record --sim`: a program built with `lineup sim-flags` run so that its runtime
 * (sampling/simrt) writes the recording, and the recording's census read back.  Nothing here
 * prints: a front end says the result (cli/cmd_record.c).
 */
#include <stdbool.h>
#include <stddef.h>

#include "pipeline/sim_census.h"

/* How the collector runs (0 and NULL: the runtime's defaults). */
struct sim_run_opts {
	unsigned long long period; /* sampling period (LINEUP_SIM_PERIOD) */
	unsigned long long turns;  /* threads take turns every N modeled accesses (LINEUP_SIM_TURNS) */
	const char *window;	   /* modeling windows, LINEUP_SIM_WINDOW's syntax, already checked */
	bool count;		   /* between windows the hooks stay calls and count loads
				    * (LINEUP_SIM_PATCH=0) instead of being patched out */
};

/**
 * struct sim_run_result - what a run left.
 * @status:	the program's wait status, and @status_text its words when it is not 0
 * @size:	the recording's size in bytes
 * @census:	its loads, HITMs, stores and the threads' overlap
 * @no_contention: "" or why loads were seen and no HITM (sim_census__no_contention)
 */
struct sim_run_result {
	int status;
	char status_text[128];
	long long size;
	struct sim_census census;
	char no_contention[512];
};

/*
 * Run argv (argv[0] the program) writing @output ("-": the recording in pipe mode on stdout,
 * the program's own output on stderr).  Returns an exit status (0, 1 nothing recorded or a
 * failure while running, 2 bad usage), with @err saying why when it is not 0; @res is filled
 * as far as the run went (@res->status_text before a failure after the run).
 */
int sim_run__run(const char *output, const struct sim_run_opts *o, int argc, char **argv,
		 struct sim_run_result *res, char *err, size_t errlen);

#endif
