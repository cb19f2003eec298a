/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_PIPELINE_SIM_CENSUS_H
#define LINEUP_PIPELINE_SIM_CENSUS_H

/*
 * A recording's census, for every front end that has to say whether it shows contention:
 * record --sim's summary line, the demo's "contended enough?", diff's "inconclusive" and the
 * JSON's overlap; read once through the session (compact: memory samples and the software
 * collector's overlap account only).  Nothing here prints.
 *
 * Ownership: struct sim_census is the caller's; nothing outlives a call.
 */
#include <stdbool.h>
#include <stddef.h>
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

/* Count @path's memory samples into @c: 0, or -errno with @err naming the file and what. */
int sim_census__read(struct sim_census *c, const char *path, char *err, size_t errlen);

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
