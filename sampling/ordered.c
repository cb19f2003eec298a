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
	uint8_t *payload;	/* copy of the record's payload; the record's pointers rebased */
};

struct ordered {
	ordered_deliver_fn deliver;
	void *ctx;
	struct qrec **heap;	/* min-heap on (time, seq) */
	size_t n, cap;
	uint64_t seq;
	uint64_t max_timestamp;	/* largest time queued so far */
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

static void qrec__free(struct qrec *q)
{
	free(q->payload);
	free(q);
}

void ordered__delete(struct ordered *o)
{
	if (!o)
		return;
	for (size_t i = 0; i < o->n; i++)
		qrec__free(o->heap[i]);
	free(o->heap);
	free(o);
}

static bool before(const struct qrec *a, const struct qrec *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void heap_push(struct ordered *o, struct qrec *q)
{
	size_t i;

	o->heap = xgrow(o->heap, &o->cap, o->n + 1, sizeof(*o->heap));
	i = o->n++;
	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (!before(q, o->heap[p]))
			break;
		o->heap[i] = o->heap[p];
		i = p;
	}
	o->heap[i] = q;
	if (o->n > o->max_queued)
		o->max_queued = o->n;
}

static struct qrec *heap_pop(struct ordered *o)
{
	struct qrec *top = o->heap[0], *last = o->heap[--o->n];
	size_t i = 0;

	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		const struct qrec *cur = last;

		if (l < o->n && before(o->heap[l], cur)) {
			m = l;
			cur = o->heap[l];
		}
		if (r < o->n && before(o->heap[r], cur))
			m = r;
		if (m == i)
			break;
		o->heap[i] = o->heap[m];
		i = m;
	}
	if (o->n)
		o->heap[i] = last;
	return top;
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
	struct qrec *q = xmalloc(sizeof(*q));
	size_t len = rec->size > 8 ? rec->size - 8u : 0;
	const uint8_t *old = rec->payload;
	struct sample *s = &q->rec.sample;

	q->time = time;
	q->seq = seq;
	q->rec = *rec;
	q->payload = xmalloc(len ? len : 1);
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
	while (o->n && o->heap[0]->time <= limit) {
		struct qrec *q = heap_pop(o);
		int rc = o->deliver(o->ctx, &q->rec);

		qrec__free(q);
		if (rc)
			return rc;
	}
	return 0;
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
	heap_push(o, qrec__new(rec, t, o->seq++));
	return 0;
}

int ordered__flush(struct ordered *o)
{
	return flush_upto(o, UINT64_MAX);
}

uint64_t ordered__queued(const struct ordered *o)
{
	return o->n;
}

uint64_t ordered__max_queued(const struct ordered *o)
{
	return o->max_queued;
}
