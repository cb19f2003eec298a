// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "sampling/ordered.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/event.h"
#include "util/xalloc.h"

struct qrec {
	uint64_t time, seq;
	struct record rec;
	uint8_t payload[]; /* copy of the record's payload; the record's pointers rebased */
};

/*
 * The queue is a few sorted runs (each CPU's buffer arrives in time order, so a record almost
 * always extends some run), merged on delivery by picking the smallest head: O(runs) a
 * record with no allocation beyond the record's own copy.  Past MAX_RUNS (input in no order
 * at all) a record is inserted into the last run by binary search.
 */
#define MAX_RUNS 64

struct run {
	struct qrec **v;
	size_t head, n, cap; /* live entries are v[head .. n) */
};

struct ordered {
	ordered_deliver_fn deliver;
	void *ctx;
	struct run runs[MAX_RUNS];
	unsigned int nr_runs;
	uint64_t queued;
	uint64_t seq;
	uint64_t max_timestamp; /* largest time queued so far */
	uint64_t next_flush;	/* the limit the next FINISHED_ROUND delivers up to */
	uint64_t max_queued;
};

struct ordered *ordered__new(ordered_deliver_fn deliver, void *ctx)
{
	struct ordered *o = xcalloc(1, sizeof(*o));

	o->deliver = deliver;
	o->ctx = ctx;
	return o;
}

void ordered__delete(struct ordered *o)
{
	if (!o)
		return;
	for (unsigned int r = 0; r < o->nr_runs; r++) {
		for (size_t i = o->runs[r].head; i < o->runs[r].n; i++)
			free(o->runs[r].v[i]);
		free(o->runs[r].v);
	}
	free(o);
}

static bool before(const struct qrec *a, const struct qrec *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void run_append(struct run *r, struct qrec *q)
{
	if (r->n == r->cap && r->head > r->cap / 2) {
		/* reuse the delivered front before growing */
		memmove(r->v, r->v + r->head, (r->n - r->head) * sizeof(*r->v));
		r->n -= r->head;
		r->head = 0;
	}
	r->v = xgrow(r->v, &r->cap, r->n + 1, sizeof(*r->v));
	r->v[r->n++] = q;
}

static void queue(struct ordered *o, struct qrec *q)
{
	struct run *r;
	size_t lo, hi;

	/* the newest runs first: that is where the current CPU's buffer goes on */
	for (unsigned int i = o->nr_runs; i-- > 0;) {
		r = &o->runs[i];
		if (r->n == r->head || !before(q, r->v[r->n - 1])) {
			run_append(r, q);
			goto out;
		}
	}
	if (o->nr_runs < MAX_RUNS) {
		run_append(&o->runs[o->nr_runs++], q);
		goto out;
	}
	r = &o->runs[MAX_RUNS - 1];
	lo = r->head;
	hi = r->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (before(q, r->v[mid]))
			hi = mid;
		else
			lo = mid + 1;
	}
	run_append(r, q);
	memmove(r->v + lo + 1, r->v + lo, (r->n - 1 - lo) * sizeof(*r->v));
	r->v[lo] = q;
out:
	if (++o->queued > o->max_queued)
		o->max_queued = o->queued;
}

/* The run whose head comes first, or NULL when all are empty. */
static struct run *first_run(struct ordered *o)
{
	struct run *best = NULL;

	for (unsigned int i = 0; i < o->nr_runs; i++) {
		struct run *r = &o->runs[i];

		if (r->head < r->n && (!best || before(r->v[r->head], best->v[best->head])))
			best = r;
	}
	return best;
}

/* Drop empty runs (keeping their buffers for reuse would pin memory of an old burst). */
static void compact_runs(struct ordered *o)
{
	unsigned int k = 0;

	for (unsigned int i = 0; i < o->nr_runs; i++) {
		if (o->runs[i].head == o->runs[i].n) {
			free(o->runs[i].v);
			continue;
		}
		o->runs[k++] = o->runs[i];
	}
	for (unsigned int i = k; i < o->nr_runs; i++)
		memset(&o->runs[i], 0, sizeof(o->runs[i]));
	o->nr_runs = k;
}

/* Move a pointer that points into [old, old + len) to the same place in @copy. */
static const void *rebase(const void *p, const uint8_t *old, size_t len, uint8_t *copy)
{
	const uint8_t *b = p;

	if (b && b >= old && b < old + len)
		return copy + (b - old);
	return p;
}

static struct qrec *qrec__new(const struct record *rec, uint64_t time, uint64_t seq)
{
	size_t len = rec->size > 8 ? rec->size - 8u : 0;
	struct qrec *q = xmalloc(sizeof(*q) + len);
	const uint8_t *old = rec->payload;
	struct sample *s = &q->rec.sample;

	q->time = time;
	q->seq = seq;
	q->rec = *rec;
	if (old && len)
		memcpy(q->payload, old, len);
#define REBASE(field) (field) = rebase((field), old, len, q->payload)
	REBASE(q->rec.payload);
	REBASE(s->callchain);
	REBASE(s->raw);
	REBASE(s->branch_entries);
	REBASE(s->regs_user);
	REBASE(s->regs_intr);
	REBASE(s->stack_user);
	REBASE(s->read_values);
	switch (rec->type) {
	case REC_MMAP:
	case REC_MMAP2:
		REBASE(q->rec.mmap.filename);
		break;
	case REC_COMM:
		REBASE(q->rec.comm.comm);
		break;
	default:
		break;
	}
#undef REBASE
	return q;
}

/* perf's evlist__parse_sample_timestamp: the record's time, or 0 when it has none. */
static uint64_t record_time(const struct record *rec)
{
	if (rec->type >= REC_HEADER_ATTR)
		return 0;
	if (rec->type == REC_SAMPLE)
		return (rec->sample.present & SF_TIME) ? rec->sample.time : 0;
	if (rec->has_sample_id && (rec->sample.present & SF_TIME))
		return rec->sample.time;
	return 0;
}

/* Deliver queued records with time <= @limit. */
static int flush_upto(struct ordered *o, uint64_t limit)
{
	struct run *r;
	int rc = 0;

	while ((r = first_run(o)) && r->v[r->head]->time <= limit) {
		struct qrec *q = r->v[r->head++];

		o->queued--;
		rc = o->deliver(o->ctx, &q->rec);
		free(q);
		if (rc)
			break;
	}
	compact_runs(o);
	return rc;
}

int ordered__push(struct ordered *o, const struct record *rec)
{
	uint64_t t = record_time(rec);

	if (rec->type == REC_FINISHED_ROUND) {
		/* perf: flush up to the max timestamp seen at the previous round */
		int rc = o->next_flush ? flush_upto(o, o->next_flush) : 0;

		o->next_flush = o->max_timestamp;
		if (rc)
			return rc;
		return o->deliver(o->ctx, rec);
	}
	if (t == 0 || t == UINT64_MAX)
		return o->deliver(o->ctx, rec);
	if (t > o->max_timestamp)
		o->max_timestamp = t;
	queue(o, qrec__new(rec, t, o->seq++));
	return 0;
}

int ordered__flush(struct ordered *o)
{
	return flush_upto(o, UINT64_MAX);
}

uint64_t ordered__queued(const struct ordered *o)
{
	return o->queued;
}

uint64_t ordered__max_queued(const struct ordered *o)
{
	return o->max_queued;
}
