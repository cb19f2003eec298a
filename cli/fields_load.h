/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_CLI_FIELDS_LOAD_H
#define LINEUP_CLI_FIELDS_LOAD_H

/*
 * One recording read into the field tables (analyzer/fields.h): the pipeline of `lineup
 * fields`, which `lineup diff` runs on each of its two recordings.  The session
 * (sampling/session.h) delivers the samples in time order, filtered; each memory sample is
 * attributed (sampling/fields_attr.h) against the maps and allocations of its time and counted.
 *
 * Ownership: struct fields_load owns everything it points to but @input and the filter
 * (borrowed); fields_load__release() frees it, after a failed fields_load__run() too.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sampling/fields_attr.h"

struct fields;
struct session;
struct session_filter;

/**
 * struct fields_load - a recording and its field tables.
 * @input:	its path ("-": standard input)
 * @session:	the open recording (its header: session__header)
 * @fa:		the evidence sources
 * @fields:	the tables, finished
 * @line_size:	the line size asked for (0: the recording's, else 64), @double_cl: doubled
 * @nr_samples:	memory samples (with a data address) that passed the filters
 * @nr_peer:	loads served by another core's cache without a HITM class (Arm SPE's peer
 *		sources), counted with the HITMs
 * @period_sum:	the periods of those samples summed: the accesses they stand for (the work
 *		done, for comparing recordings of different lengths)
 */
struct fields_load {
	const char *input;
	struct session *session;
	struct fields_attr *fa;
	struct fields *fields;
	unsigned int line_size;
	bool double_cl;
	size_t nr_samples;
	size_t nr_peer;
	uint64_t period_sum;
};

/*
 * Read @input into @ld (zeroed) with the evidence sources of @attr and the samples @filter
 * passes (NULL: all); lines of @line_size bytes (0: the recording's, else 64), doubled with
 * @double_cl.  Returns an exit code (cli/command.h), after saying why when it is not EXIT_OK:
 * EXIT_USAGE for a file that cannot be read, EXIT_NOTHING when no sample has a data address.
 */
int fields_load__run(struct fields_load *ld, const char *input,
		     const struct fields_attr_opts *attr, const struct session_filter *filter,
		     unsigned int line_size, bool double_cl);
void fields_load__release(struct fields_load *ld);

#endif
