/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_ORDERED_H
#define LINEUP_SAMPLING_ORDERED_H

/*
 * perf's ordered events (tools/perf/util/ordered-events.c), which perf c2c, perf script and
 * perf report all use: a perf.data holds each CPU's buffer in turn, so a sample can come in
 * the file before the MMAP or COMM it needs.  Records with a timestamp (samples with TIME,
 * other kernel records with a sample_id_all trailer carrying TIME) are queued; at each
 * FINISHED_ROUND the queue is delivered up to the largest timestamp seen before the previous
 * round, in time order (ties in arrival order); the end delivers the rest.  Records without
 * a timestamp, and user records (HEADER_*, FINISHED_ROUND itself...), are delivered at once.
 *
 *	struct ordered *o = ordered__new(deliver, ctx);
 *	while ((rc = perf_file__next_record(pf, &rec)) > 0)
 *		if ((rc = ordered__push(o, &rec)) != 0) break;
 *	rc = rc ?: ordered__flush(o);
 *	ordered__delete(o);
 *
 * Memory: one round of records (perf's bound too); a queued record is a copy of the struct
 * and its payload, so the reader's buffers may move on.
 *
 * Ownership: a record handed to @deliver is valid only during the call.
 */
#include <stdint.h>

struct record;
struct ordered;

/* Returns 0 to go on, or a value ordered__push/ordered__flush then return (an error). */
typedef int (*ordered_deliver_fn)(void *ctx, const struct record *rec);

struct ordered *ordered__new(ordered_deliver_fn deliver, void *ctx);
void ordered__delete(struct ordered *o);

/* Queue or deliver @rec (copied); FINISHED_ROUND flushes.  0 or the deliver's error. */
int ordered__push(struct ordered *o, const struct record *rec);

/* Deliver everything queued (the end of the file).  0 or the deliver's error. */
int ordered__flush(struct ordered *o);

/* Number of records queued now, and the most ever queued (the memory bound). */
uint64_t ordered__queued(const struct ordered *o);
uint64_t ordered__max_queued(const struct ordered *o);

#endif
