/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_PERF_HEADER_H
#define LINEUP_SAMPLING_PERF_HEADER_H

/* Header feature sections, parsed into struct perf_header_info (sampling/ internal). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sampling/perf_file.h"

/* Which event a sample id belongs to: its index, or -1. */
typedef int (*perf_id_lookup_fn)(const void *ctx, uint64_t id);

/*
 * Parse feature @feat from @size bytes at @data into @h.  @pipe: the section came from a
 * HEADER_FEATURE record (EVENT_DESC then names nothing, as in perf).  EVENT_DESC names the
 * event that owns its first id, found with @lookup(@ctx, id).  Returns 0, or -EINVAL with *why
 * saying what was wrong, *at the offset inside @data where it was noticed, and the feature
 * left out of @h (its bit cleared, nothing of it kept).
 */
int perf_feature__parse(struct perf_header_info *h, unsigned int feat, const void *data,
			size_t size, bool swap, bool pipe, perf_id_lookup_fn lookup,
			const void *ctx, const char **why, size_t *at);

/* Append the build-id records at @data (a pipe's HEADER_BUILD_ID) to h->build_ids. */
int perf_build_ids__append(struct perf_header_info *h, const void *data, size_t size, bool swap,
			   const char **why);

/* Append an event with @attr; its default name is set from the attr. */
struct perf_evsel *perf_header_info__add_evsel(struct perf_header_info *h,
					       const struct perf_attr *attr);

void perf_header_info__release(struct perf_header_info *h);

#endif
