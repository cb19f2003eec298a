// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "sampling/ordered_events.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/event.h"
#include "util/xalloc.h"

/*
 * 64 bytes an item, one cache line (times and call chains are kept apart): two rounds of
 * samples are written and read back a round later, the most memory traffic after the file.
 */
struct qitem {
	/*
	 * QI_REC, the cpumode and the event in one word written with one store: a bit-field
	 * would be read first, and a new queue slot is not in the cache.
	 */
	uint32_t flags;
	uint32_t cpu;			/* a sample's */
	union {
		struct oe_sample s;
		struct record *rec;	/* QI_REC: owned (with its payload), NULL for a mark */
	};
};
_Static_assert(sizeof(struct qitem) == 64, "queue items grew");

#define QI_EVSEL_MASK OE_MAX_EVSEL
#define QI_CPUMODE_SHIFT 27
#define QI_REC (1u << 31)
_Static_assert(QI_EVSEL_MASK < (1u << QI_CPUMODE_SHIFT), "evsel bits overlap the cpumode");

/*
 * The queue: a ring of items in arrival order (an item's arrival number is its slot:
 * v[seq & (cap - 1)]), cut into runs of non-decreasing time.  A flush merges the runs' heads by
 * time, then arrival (a tournament tree, or a heap past 256 runs), up to the limit.  Each run's
 * delivered items are a prefix of it, so the live items stay runs; the ring's space is
 * reclaimed from its oldest run.
 */
struct qrun {
	uint64_t begin, end;		/* live items: arrival numbers [begin, end) */
};

struct qhead {
	uint64_t time, seq;
	uint32_t run;
};

/*
 * One item of a flush's delivery order, with its time: the merge has just read it, and by
 * the time the item is delivered, times[] is out of the cache (the flush reads this array in
 * order, times[] it would read in the runs' interleaving).
 */
struct qorder {
	uint64_t seq, time;
};

struct ordered_events {
	oe_deliver_fn deliver;
	void *ctx;
	struct qitem *v;		/* 64-aligned */
	uint64_t *times;		/* the items' times, apart: the merge reads only these */
	uint64_t **ccs;			/* the items' call chains (nr, ips), only once there is one */
	uint64_t cap;			/* a power of two */
	uint64_t head, tail;		/* slots [head, tail) in use (delivered ones among them) */
	uint64_t n;			/* live items */
	uint64_t max_n;
	struct qrun *runs;		/* in arrival order */
	size_t nr_runs, cap_runs;
	struct qhead *heap;		/* the general merge's */
	size_t cap_heap;
	uint64_t *tree;			/* the packed merge's (merge_packed) */
	size_t cap_tree;
	uint64_t max_time;		/* the largest time ever queued */
	struct qorder *order;		/* one flush's delivery order */
	size_t cap_order;
	uint64_t last_time;		/* the newest item's time */
	uint64_t next_flush, max_ts, tail_ts;
};

struct ordered_events *ordered_events__new(oe_deliver_fn deliver, void *ctx)
{
	struct ordered_events *oe = xcalloc(1, sizeof(*oe));

	oe->deliver = deliver;
	oe->ctx = ctx;
	return oe;
}

static struct qitem *queue__at(const struct ordered_events *q, uint64_t seq)
{
	return &q->v[seq & (q->cap - 1)];
}

static uint64_t queue__time(const struct ordered_events *q, uint64_t seq)
{
	return q->times[seq & (q->cap - 1)];
}

static uint64_t *queue__cc(const struct ordered_events *q, uint64_t seq)
{
	return q->ccs ? q->ccs[seq & (q->cap - 1)] : NULL;
}

/* What an item owns, after delivery or when the queue goes. */
static void queue__release(struct ordered_events *q, uint64_t seq)
{
	struct qitem *it = queue__at(q, seq);

	if (it->flags & QI_REC)
		free(it->rec);
	else
		free(queue__cc(q, seq));
}

void ordered_events__delete(struct ordered_events *oe)
{
	if (!oe)
		return;
	for (size_t k = 0; k < oe->nr_runs; k++)
		for (uint64_t seq = oe->runs[k].begin; seq < oe->runs[k].end; seq++)
			queue__release(oe, seq);
	free(oe->v);
	free(oe->times);
	free(oe->ccs);
	free(oe->runs);
	free(oe->heap);
	free(oe->tree);
	free(oe->order);
	free(oe);
}

static bool qhead_before(const struct qhead *a, const struct qhead *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void qheap_down(struct qhead *h, size_t n, size_t i)
{
	struct qhead x = h[i];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && qhead_before(&h[c + 1], &h[c]))
			c++;
		if (!qhead_before(&h[c], &x))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

static void queue__push_order(struct ordered_events *q, size_t *n, uint64_t seq, uint64_t time)
{
	if (*n == q->cap_order)
		q->order = xgrow(q->order, &q->cap_order, *n + 1, sizeof(*q->order));
	q->order[(*n)++] = (struct qorder){ seq, time };
}

#define QT_RUN_BITS 8
#define QT_MAX_TIME ((1ULL << (64 - QT_RUN_BITS)) - 2)

/*
 * queue__take's merge for the common case, up to 256 runs and times below 2^56: a tournament
 * tree over the runs keyed by time << 8 | run, one branchless min a level.  Runs are in
 * arrival order, so the lower run index breaks a tie as the arrival number would.
 */
static size_t queue__merge_packed(struct ordered_events *q, uint64_t limit)
{
	size_t nleaf = 2, n = 0;
	uint64_t *key;

	while (nleaf < q->nr_runs)
		nleaf *= 2;
	q->tree = xgrow(q->tree, &q->cap_tree, 2 * nleaf, sizeof(*q->tree));
	key = q->tree;
	for (size_t i = 0; i < nleaf; i++) {
		uint64_t t = i < q->nr_runs ? queue__time(q, q->runs[i].begin) : 0;

		key[nleaf + i] = i < q->nr_runs && t <= limit ? t << QT_RUN_BITS | i : UINT64_MAX;
	}
	for (size_t i = nleaf; --i > 0;)
		key[i] = key[2 * i] < key[2 * i + 1] ? key[2 * i] : key[2 * i + 1];
	while (key[1] != UINT64_MAX) {
		size_t r = key[1] & ((1u << QT_RUN_BITS) - 1), i = nleaf + r;
		struct qrun *run = &q->runs[r];
		uint64_t t;

		queue__push_order(q, &n, run->begin++, key[1] >> QT_RUN_BITS);
		if (run->begin < run->end && (t = queue__time(q, run->begin)) <= limit)
			key[i] = t << QT_RUN_BITS | r;
		else
			key[i] = UINT64_MAX;
		for (i /= 2; i; i /= 2)
			key[i] = key[2 * i] < key[2 * i + 1] ? key[2 * i] : key[2 * i + 1];
	}
	return n;
}

/*
 * The arrival numbers of the items with time <= @limit, in delivery order (time, then
 * arrival), into q->order; they leave the runs.  Returns how many.
 */
static size_t queue__take(struct ordered_events *q, uint64_t limit)
{
	size_t nh = 0, n = 0, k = 0;

	if (q->nr_runs == 1) {
		/* one run (a time-sorted file): its prefix, nothing to merge */
		struct qrun *run = &q->runs[0];
		uint64_t t;

		while (run->begin < run->end && (t = queue__time(q, run->begin)) <= limit)
			queue__push_order(q, &n, run->begin++, t);
		goto out;
	}
	if (q->nr_runs <= (1u << QT_RUN_BITS) && q->max_time <= QT_MAX_TIME) {
		n = queue__merge_packed(q, limit);
		goto out;
	}
	q->heap = xgrow(q->heap, &q->cap_heap, q->nr_runs, sizeof(*q->heap));
	for (size_t i = 0; i < q->nr_runs; i++) {
		uint64_t t = queue__time(q, q->runs[i].begin);

		if (t <= limit)
			q->heap[nh++] = (struct qhead){ t, q->runs[i].begin, (uint32_t)i };
	}
	for (size_t i = nh / 2; i-- > 0;)
		qheap_down(q->heap, nh, i);
	while (nh) {
		struct qhead *top = &q->heap[0];
		struct qrun *run = &q->runs[top->run];

		queue__push_order(q, &n, top->seq, top->time);
		run->begin = top->seq + 1;
		if (run->begin < run->end && (top->time = queue__time(q, run->begin)) <= limit)
			top->seq = run->begin;
		else
			q->heap[0] = q->heap[--nh];
		qheap_down(q->heap, nh, 0);
	}
out:
	/* drop the emptied runs; the oldest live item bounds the ring's used part */
	for (size_t i = 0; i < q->nr_runs; i++)
		if (q->runs[i].begin < q->runs[i].end)
			q->runs[k++] = q->runs[i];
	q->nr_runs = k;
	q->head = k ? q->runs[0].begin : q->tail;
	q->n -= n;
	return n;
}

/*
 * The ring is full: grow it, or, when delivered items hold most of it (a late item pins the
 * oldest slot while the rest moves on), renumber the live items 0.. in arrival order, which
 * keeps the order of ties, so that memory stays bounded by the queued items.
 */
static void queue__grow(struct ordered_events *q)
{
	uint64_t cap = q->cap && q->n < q->cap / 2 ? q->cap : q->cap ? 2 * q->cap : 4096;
	/* an item a cache line (the alignment is for speed only); 2 MB pages: the ring is ~10 MB */
	struct qitem *v = xmalloc_lines(cap * sizeof(*v));
	uint64_t *t = xmalloc_lines(cap * sizeof(*t));
	uint64_t **cc = q->ccs ? xcalloc(cap, sizeof(*cc)) : NULL;
	uint64_t k = 0;

	for (size_t r = 0; r < q->nr_runs; r++) {
		uint64_t begin = k;

		for (uint64_t s = q->runs[r].begin; s < q->runs[r].end; s++, k++) {
			v[k] = *queue__at(q, s);
			t[k] = queue__time(q, s);
			if (cc)
				cc[k] = queue__cc(q, s);
		}
		q->runs[r] = (struct qrun){ begin, k };
	}
	free(q->v);
	free(q->times);
	free(q->ccs);
	q->v = v;
	q->times = t;
	q->ccs = cc;
	q->cap = cap;
	q->head = 0;
	q->tail = k;
}

static struct qitem *queue__add(struct ordered_events *q, uint64_t time)
{
	struct qitem *it;

	if (q->tail - q->head == q->cap)
		queue__grow(q);
	/*
	 * perf's max_timestamp moves only when an event goes to the tail of its sorted list (or
	 * into an empty one): then it is that event's time.
	 */
	if (!q->n || time >= q->tail_ts) {
		q->max_ts = time;
		q->tail_ts = time;
	}
	if (q->nr_runs && q->runs[q->nr_runs - 1].end == q->tail && time >= q->last_time) {
		q->runs[q->nr_runs - 1].end++;
	} else {
		q->runs = xgrow(q->runs, &q->cap_runs, q->nr_runs + 1, sizeof(*q->runs));
		q->runs[q->nr_runs++] = (struct qrun){ q->tail, q->tail + 1 };
	}
	q->last_time = time;
	if (time > q->max_time)
		q->max_time = time;
	if (++q->n > q->max_n)
		q->max_n = q->n;
	q->times[q->tail & (q->cap - 1)] = time;
	if (q->ccs)
		q->ccs[q->tail & (q->cap - 1)] = NULL;
	it = queue__at(q, q->tail++);
	/* slots a round ahead are out of the cache: ask for them before they are written */
	__builtin_prefetch(queue__at(q, q->tail + 16), 1);
	return it;
}

struct oe_sample *ordered_events__queue_sample(struct ordered_events *oe, uint64_t time,
					       uint32_t evsel, uint8_t cpumode, uint32_t cpu)
{
	struct qitem *it = queue__add(oe, time);

	it->flags = (evsel & QI_EVSEL_MASK) | (uint32_t)(cpumode & 7) << QI_CPUMODE_SHIFT;
	it->cpu = cpu;
	return &it->s;
}

void ordered_events__set_callchain(struct ordered_events *oe, const uint64_t *ips, uint64_t nr)
{
	uint64_t slot = (oe->tail - 1) & (oe->cap - 1);
	uint64_t *cc = xmalloc((nr + 1) * sizeof(uint64_t));

	cc[0] = nr;
	memcpy(cc + 1, ips, nr * sizeof(uint64_t));
	if (!oe->ccs)
		oe->ccs = xcalloc(oe->cap, sizeof(*oe->ccs));
	free(oe->ccs[slot]);
	oe->ccs[slot] = cc;
}

/* Move a pointer that points into [old, old + len) to the same place in @copy. */
static const void *rebase(const void *p, const uint8_t *old, size_t len, uint8_t *copy)
{
	const uint8_t *b = p;

	if (b && b >= old && b < old + len)
		return copy + (b - old);
	return p;
}

/* @rec and its payload in one block; the pointers into the payload follow it. */
static struct record *record__copy(const struct record *rec)
{
	size_t len = rec->payload && rec->size > 8 ? rec->size - 8u : 0;
	struct record *q = xmalloc(sizeof(*q) + len);
	uint8_t *payload = (uint8_t *)(q + 1);
	const uint8_t *old = rec->payload;
	struct sample *s = &q->sample;

	*q = *rec;
	if (len)
		memcpy(payload, old, len);
#define REBASE(field) (field) = rebase((field), old, len, payload)
	REBASE(q->payload);
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
		REBASE(q->mmap.filename);
		break;
	case REC_COMM:
		REBASE(q->comm.comm);
		break;
	case REC_NAMESPACES:
		REBASE(q->ns.link_info);
		break;
	case REC_KSYMBOL:
		REBASE(q->ksymbol.name);
		break;
	case REC_CGROUP:
		REBASE(q->cgroup.path);
		break;
	case REC_TEXT_POKE:
		REBASE(q->text_poke.bytes);
		break;
	default:
		break;
	}
#undef REBASE
	return q;
}

/*
 * The reader has just written *rec field by field: copying it with 16-byte vector loads
 * would stall on store forwarding, so no SLP vectorization here.
 */
__attribute__((optimize("no-tree-slp-vectorize")))
void ordered_events__queue_record(struct ordered_events *oe, const struct record *rec,
				  uint64_t time)
{
	struct record *copy = rec ? record__copy(rec) : NULL;
	struct qitem *it = queue__add(oe, time);

	it->flags = QI_REC;
	it->rec = copy;
}

/* Items ahead of the one delivered whose line is fetched: runs interleave, items are cold. */
#define OE_PREFETCH_AHEAD 16

/* Deliver the queued items with time <= @limit, in order. */
static int queue__flush(struct ordered_events *q, uint64_t limit)
{
	size_t n = queue__take(q, limit), i;
	int rc = 0;

	for (i = 0; i < n && !rc; i++) {
		uint64_t seq = q->order[i].seq;
		const struct qitem *it = queue__at(q, seq);
		struct oe_event ev;

		if (i + OE_PREFETCH_AHEAD < n)
			/* (one line: an item is 64 bytes, 64-aligned) */
			__builtin_prefetch(queue__at(q, q->order[i + OE_PREFETCH_AHEAD].seq));
		ev.time = q->order[i].time;
		if (it->flags & QI_REC) {
			if (!it->rec)
				continue;	/* a mark */
			ev.rec = it->rec;
			ev.sample = NULL;
		} else {
			const uint64_t *cc = queue__cc(q, seq);

			ev.rec = NULL;
			ev.sample = &it->s;
			ev.evsel = it->flags & QI_EVSEL_MASK;
			ev.cpumode = (uint8_t)(it->flags >> QI_CPUMODE_SHIFT & 7);
			ev.cpu = it->cpu;
			ev.callchain_nr = cc ? cc[0] : 0;
			ev.callchain = cc ? cc + 1 : NULL;
		}
		rc = q->deliver(q->ctx, &ev);
		queue__release(q, seq);
	}
	/* after an error, what this flush took and did not deliver */
	for (; i < n; i++)
		queue__release(q, q->order[i].seq);
	return rc;
}

int ordered_events__round(struct ordered_events *oe)
{
	int rc;

	/* perf does nothing at a round with an empty queue, not even move the limit */
	if (!oe->n)
		return 0;
	rc = queue__flush(oe, oe->next_flush);
	oe->next_flush = oe->max_ts;
	return rc;
}

int ordered_events__flush(struct ordered_events *oe)
{
	return queue__flush(oe, UINT64_MAX);
}

uint64_t ordered_events__queued(const struct ordered_events *oe)
{
	return oe->n;
}

uint64_t ordered_events__max_queued(const struct ordered_events *oe)
{
	return oe->max_n;
}
