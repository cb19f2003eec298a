/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_ORDERED_EVENTS_H
#define LINEUP_SAMPLING_ORDERED_EVENTS_H

/*
 * perf's ordered events (tools/perf/util/ordered-events.c), which perf c2c, perf report and
 * perf script all use: a perf.data holds each CPU's buffer in turn, so a sample can come in the
 * file before the MMAP or COMM it needs.  The caller queues what has a timestamp; at each
 * FINISHED_ROUND (ordered_events__round) the queue hands out, in time order (ties in arrival
 * order), what it holds up to the newest timestamp queued before the previous round, and
 * ordered_events__flush hands out the rest at the end.  perf's details are kept, since they
 * change what a sample is resolved against: a round with an empty queue does nothing (the
 * limit does not move), and the limit is the time of the last item that went to the tail of
 * the time-sorted queue, not the largest time ever queued.  Records without a timestamp (time
 * 0 or none) are the caller's to deliver at once, as perf does (-ETIME).
 *
 *	struct ordered_events *oe = ordered_events__new(deliver, ctx);
 *	for each record with time t:
 *		a compact sample:  it = ordered_events__queue_sample(oe, t, evsel, cpumode, cpu);
 *				   it->ip = ...; ordered_events__set_callchain(oe, ips, nr);
 *		any record:	   ordered_events__queue_record(oe, &rec, t);
 *		one only counted:  ordered_events__queue_record(oe, NULL, t);
 *	at FINISHED_ROUND: ordered_events__round(oe); at the end: ordered_events__flush(oe);
 *	ordered_events__delete(oe);
 *
 * Two kinds of items, one cache line each: a compact sample (the fields memory samples carry,
 * what a c2c report of millions of samples needs: written once, read back a round later), or
 * a record, copied whole with its payload (the reader's buffer moves on).  Call chains and
 * times are kept beside the items.  A round is a few long runs of non-decreasing time (each
 * CPU's buffer in turn): delivery merges the runs' heads, it does not sort.
 *
 * Memory: the items of about two rounds (perf's bound too).
 * Ownership: the queue owns its copies; what @deliver gets is valid only during the call.
 */
#include <stdint.h>

struct record;
struct ordered_events;

/* A compact sample's fields (the rest of its struct sample is not kept). */
struct oe_sample {
	uint64_t ip, addr, phys_addr, weight, data_src, period;
	uint32_t pid, tid;
};

/* Events of this index and above cannot be compact samples: queue their records. */
#define OE_MAX_EVSEL ((1u << 27) - 1)

/**
 * struct oe_event - one item handed out.
 * @rec:	the record queued (a copy), or NULL for a compact sample
 * @sample:	a compact sample's fields (NULL for a record)
 * @evsel, @cpumode, @cpu, @callchain, @callchain_nr: a compact sample's
 */
struct oe_event {
	uint64_t time;
	const struct record *rec;
	const struct oe_sample *sample;
	uint32_t evsel, cpu;
	uint8_t cpumode;
	uint64_t callchain_nr;
	const uint64_t *callchain;
};

/* Returns 0 to go on, or an error that stops the delivery and is returned by round/flush. */
typedef int (*oe_deliver_fn)(void *ctx, const struct oe_event *ev);

struct ordered_events *ordered_events__new(oe_deliver_fn deliver, void *ctx);
void ordered_events__delete(struct ordered_events *oe);

/*
 * Queue a copy of @rec at @time (@time > 0).  @rec NULL queues nothing to deliver but takes
 * the record's place: it moves the round's limit as the record would have (perf queues every
 * record with a time, used or not).
 */
void ordered_events__queue_record(struct ordered_events *oe, const struct record *rec,
				  uint64_t time);

/*
 * Queue a compact sample at @time (@time > 0, @evsel <= OE_MAX_EVSEL, @cpumode < 8); returns
 * its fields for the caller to fill (all of them: they are not cleared).
 */
struct oe_sample *ordered_events__queue_sample(struct ordered_events *oe, uint64_t time,
					       uint32_t evsel, uint8_t cpumode, uint32_t cpu);

/* The call chain of the compact sample queued last (copied). */
void ordered_events__set_callchain(struct ordered_events *oe, const uint64_t *ips, uint64_t nr);

/* A FINISHED_ROUND.  0 or the deliver's error. */
int ordered_events__round(struct ordered_events *oe);

/* Deliver everything queued (the end of the recording).  0 or the deliver's error. */
int ordered_events__flush(struct ordered_events *oe);

/* Items queued now, and the most ever queued at once (the memory bound). */
uint64_t ordered_events__queued(const struct ordered_events *oe);
uint64_t ordered_events__max_queued(const struct ordered_events *oe);

#endif
