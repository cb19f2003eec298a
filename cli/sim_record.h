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

#include <stdint.h>

/*
 * What a recording holds: its load samples, of those the HITMs, and its store samples; and
 * from the collector's overlap account (lineup-sim/overlap/, @has_overlap): the modeled time
 * observed and how much of it had two or more threads running at the same time (a lower
 * bound: see sampling/simrt/simrt.h, "Overlap").
 */
struct sim_census {
	long loads, hitm, stores;
	bool has_overlap;
	uint64_t observed_ns, overlap_ns;
};

/* Count @path's memory samples into @c; 0, or -1 after saying why (the file, where, what). */
int sim_record__census(const char *path, struct sim_census *c);

enum sim_overlap {
	SIM_OVERLAP_UNKNOWN, /* no account (not the collector's, or an older one's recording) */
	SIM_OVERLAP_NONE,    /* threads (almost) never ran at the same time: under 1% of it */
	SIM_OVERLAP_SEEN,
};

/* Whether @c's threads overlapped: what "no contention seen" rests on. */
enum sim_overlap sim_census__overlap(const struct sim_census *c);

/*
 * One line on what @c shows when it has no HITM (nothing when it has), into @buf: contention
 * absent while threads overlapped for T, or nothing to conclude because they never did.
 * Returns @c's sim_census__overlap().
 */
enum sim_overlap sim_census__no_contention(const struct sim_census *c, char *buf, size_t size);

#endif
