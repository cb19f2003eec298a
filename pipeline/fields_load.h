/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_PIPELINE_FIELDS_LOAD_H
#define LINEUP_PIPELINE_FIELDS_LOAD_H

/*
 * One recording read into the field tables (analyzer/fields.h): the pipeline of `lineup
 * fields`, which `lineup diff` runs on each of its two recordings and any other front end may
 * run too.  The session (sampling/session.h) delivers the samples in time order, filtered;
 * each memory sample is attributed (pipeline/fields_attr.h) against the maps and allocations
 * of its time and counted; a tool may see each attributed access as well (@access).  Nothing
 * here prints: errors come back in @err, the evidence sources' warnings through
 * fields_attr__next_warning(ld->fa).
 *
 *	struct fields_load ld = { .progress_sym = "worker" };	(optional)
 *	rc = fields_load__run(&ld, path, &attr_opts, &filter, 0, false, err, sizeof(err));
 *	while (ld.fa && (w = fields_attr__next_warning(ld.fa))) print w
 *	if (rc) print err: -EINVAL a recording that cannot be read, -ENODATA no sample with a
 *		data address
 *	... ld.fields ...
 *	fields_load__release(&ld);
 *
 * Ownership: struct fields_load owns everything it points to but @input, @progress_sym, the
 * filter and the attribution options (borrowed); fields_load__release() frees it, after a
 * failed fields_load__run() too.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pipeline/fields_attr.h"

struct recording;

struct attr_result;
struct fields;
struct fields_access;
struct fields_load_pending;
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
 * @progress_sym: set by the caller, or NULL: a symbol of the program that measures its own
 *		progress, a function (the samples whose code is in it) or a variable (the
 *		samples whose data is in it, a progress counter)
 * @progress:	the periods of the samples @progress_sym names, summed; @progress_samples:
 *		how many samples those were
 * @access:	set by the caller, or NULL: each memory sample that could be attributed, once
 *		attributed and classified, in time order (a heap block typed by its accesses
 *		then has the type those seen so far give it; without @access its samples wait
 *		for all of them)
 * @ctx:	handed to @access
 */
struct fields_load {
	const char *input;
	struct recording *rec;
	struct session *session;	/* rec's */
	struct fields_attr *fa;
	struct fields *fields;
	unsigned int line_size;
	bool double_cl;
	size_t nr_samples;
	size_t nr_peer;
	uint64_t period_sum;
	const char *progress_sym;
	uint64_t progress, progress_samples;
	void (*access)(void *ctx, const struct attr_result *res, const struct fields_access *a);
	void *ctx;
	/* private: samples whose heap block's type waits for the last sample */
	struct fields_load_pending *pending;
	size_t nr_pending, cap_pending;
};

/*
 * Read @input into @ld with the evidence sources of @attr and the samples @filter passes
 * (NULL: all); lines of @line_size bytes (0: the recording's, else 64), doubled with
 * @double_cl.  @ld is zeroed first but for @progress_sym, @access and @ctx.  Returns 0;
 * -EINVAL when the file cannot be read or opened, -ENODATA when no sample that passed has a
 * data address: @err says which file and what.
 */
int fields_load__run(struct fields_load *ld, const char *input,
		     const struct fields_attr_opts *attr, const struct session_filter *filter,
		     unsigned int line_size, bool double_cl, char *err, size_t errlen);
void fields_load__release(struct fields_load *ld);

#endif
