// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sampling/ordered_events.h against a plain model of perf's ordered events
 * (tools/perf/util/ordered-events.c): at each FINISHED_ROUND with something queued, deliver
 * what is queued up to the limit the previous round set, in (time, arrival) order, then set
 * the limit to max_timestamp, the time of the last item that went to the tail of the sorted
 * queue; at the end, the rest; records without a time (0) at once.  Inputs: in order, per-CPU
 * interleaved runs, many equal times, random order, more runs than the packed merge takes,
 * times past its 2^56, and a late item that pins the ring; records and compact samples mixed,
 * marks (records queued only for their time) among them.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/event.h"
#include "sampling/ordered_events.h"

#define N 5000

struct ev {
	uint64_t time; /* 0: none; UINT64_MAX: a FINISHED_ROUND */
	int id;
};

static int got[2 * N], nr_got;
static int failures;

/* Item @id is a mark (queued for its time, never delivered) when id % 11 == 5. */
static bool is_mark(int id)
{
	return id % 11 == 5;
}

/* Item @id is a compact sample when odd, a record when even. */
static int deliver(void *ctx, const struct oe_event *ev)
{
	int id;

	(void)ctx;
	if (ev->rec) {
		id = (int)ev->rec->sample.stream_id;
		/* the payload copy must hold what the original held */
		if (ev->rec->size != 8 + sizeof(int) || *(const int *)ev->rec->payload != id) {
			fprintf(stderr, "payload of record %d not kept\n", id);
			failures++;
		}
	} else {
		id = (int)ev->sample->ip;
		if (ev->sample->addr != (uint64_t)id * 3 || ev->evsel != (uint32_t)id % 5 ||
		    ev->cpu != (uint32_t)id % 7 || ev->cpumode != id % 3 ||
		    ev->callchain_nr != (uint64_t)(id % 4) ||
		    (ev->callchain_nr && ev->callchain[ev->callchain_nr - 1] != (uint64_t)id)) {
			fprintf(stderr, "sample %d not kept\n", id);
			failures++;
		}
	}
	if (ev->time != 0 && nr_got < 2 * N)
		got[nr_got++] = id;
	return 0;
}

/* perf's queue: a list sorted by (time, arrival), max_timestamp set at the tail. */
static int model(const struct ev *in, int n, int *out)
{
	int queued[2 * N], nq = 0, no = 0;
	uint64_t max_ts = 0, tail_ts = 0, next_flush = 0;

	for (int i = 0; i <= n; i++) {
		uint64_t limit;

		if (i < n && in[i].time != UINT64_MAX) {
			if (in[i].time == 0) {
				out[no++] = in[i].id;
				continue;
			}
			if (!nq || in[i].time >= tail_ts)
				max_ts = tail_ts = in[i].time;
			queued[nq++] = i;
			continue;
		}
		if (i < n && !nq)
			continue; /* an empty queue: the round does nothing */
		limit = i == n ? UINT64_MAX : next_flush;
		if (i < n)
			next_flush = max_ts;
		for (;;) {
			int best = -1;

			for (int k = 0; k < nq; k++)
				if (in[queued[k]].time <= limit &&
				    (best < 0 || in[queued[k]].time < in[queued[best]].time))
					best = k; /* first of equal times: arrival order */
			if (best < 0)
				break;
			if (!is_mark(in[queued[best]].id))
				out[no++] = in[queued[best]].id;
			memmove(queued + best, queued + best + 1, (nq - best - 1) * sizeof(int));
			nq--;
		}
	}
	return no;
}

static void run(const char *name, const struct ev *in, int n)
{
	static int want[2 * N], payload[2 * N];
	struct ordered_events *o = ordered_events__new(deliver, NULL);
	int nw = model(in, n, want);
	uint64_t cc[4];

	nr_got = 0;
	for (int i = 0; i < n; i++) {
		int id = in[i].id;

		if (in[i].time == UINT64_MAX) {
			ordered_events__round(o);
		} else if (in[i].time == 0) {
			got[nr_got++] = id; /* the caller delivers those at once */
		} else if (is_mark(id)) {
			ordered_events__queue_record(o, NULL, in[i].time);
		} else if (id % 2) {
			struct oe_sample *q = ordered_events__queue_sample(o, in[i].time, id % 5,
									   id % 3, id % 7);

			memset(q, 0, sizeof(*q));
			q->ip = (uint64_t)id;
			q->addr = (uint64_t)id * 3;
			for (int k = 0; k < id % 4; k++)
				cc[k] = (uint64_t)(k + 1 == id % 4 ? id : k);
			if (id % 4)
				ordered_events__set_callchain(o, cc, id % 4);
		} else {
			struct record rec;

			memset(&rec, 0, sizeof(rec));
			rec.type = REC_SAMPLE;
			rec.sample.present = SF_TIME;
			rec.sample.time = in[i].time;
			rec.sample.stream_id = (uint64_t)id;
			payload[i] = id;
			rec.payload = &payload[i];
			rec.size = 8 + sizeof(int);
			ordered_events__queue_record(o, &rec, in[i].time);
			payload[i] = -1; /* the reader's buffer moves on */
		}
	}
	ordered_events__flush(o);
	if (ordered_events__queued(o) != 0) {
		fprintf(stderr, "FAIL %s: %llu items left after the flush\n", name,
			(unsigned long long)ordered_events__queued(o));
		failures++;
	}
	ordered_events__delete(o);
	if (nr_got != nw || memcmp(got, want, nw * sizeof(int))) {
		fprintf(stderr, "FAIL %s: delivered %d items, model %d", name, nr_got, nw);
		for (int i = 0; i < nw && i < nr_got; i++)
			if (got[i] != want[i]) {
				fprintf(stderr, "; first difference at %d: %d, model %d", i, got[i],
					want[i]);
				break;
			}
		fprintf(stderr, "\n");
		failures++;
	}
}

int main(void)
{
	static struct ev in[N];
	unsigned int seed = 12345;
	int n;

	/* in order, rounds every 100 */
	for (n = 0; n < N; n++)
		in[n] = (struct ev){n % 100 == 99 ? UINT64_MAX : 1000 + (uint64_t)n, n};
	run("in order", in, n);

	/* 8 CPUs' buffers, each sorted, written one after the other in each round */
	n = 0;
	for (int round = 0; round < 20; round++) {
		for (int cpu = 0; cpu < 8; cpu++)
			for (int k = 0; k < 25; k++, n++)
				in[n] = (struct ev){1 + round * 1000 + k * 40 + cpu * 3, n};
		in[n] = (struct ev){UINT64_MAX, n};
		n++;
	}
	run("per-cpu runs", in, n);

	/* equal times and records without a time */
	for (n = 0; n < N; n++) {
		seed = seed * 1103515245 + 12345;
		in[n] = (struct ev){(seed >> 16) % 7 == 0 ? 0 : 1 + (seed >> 16) % 5, n};
		if (n % 500 == 499)
			in[n].time = UINT64_MAX;
	}
	run("ties", in, n);

	/* no order at all */
	for (n = 0; n < N; n++) {
		seed = seed * 1103515245 + 12345;
		in[n] = (struct ev){1 + (seed >> 8) % 100000, n};
		if (n % 997 == 996)
			in[n].time = UINT64_MAX;
	}
	run("random", in, n);

	/* every item a run of its own (past the 256 runs of the packed merge: the heap) */
	for (n = 0; n < N; n++)
		in[n] = (struct ev){n % 1000 == 999 ? UINT64_MAX : 1000000 - (uint64_t)n, n};
	run("many runs", in, n);

	/* times past 2^56 (the heap again), per-CPU runs */
	n = 0;
	for (int round = 0; round < 20; round++) {
		for (int cpu = 0; cpu < 4; cpu++)
			for (int k = 0; k < 50; k++, n++)
				in[n] = (struct ev){(1ULL << 60) + round * 1000 + k * 20 + cpu, n};
		in[n] = (struct ev){UINT64_MAX, n};
		n++;
	}
	run("large times", in, n);

	/* a late item pins the ring's oldest slot while the rest moves on round after round */
	in[0] = (struct ev){1000000000, 0};
	for (n = 1; n < N; n++)
		in[n] = (struct ev){n % 50 == 49 ? UINT64_MAX : 1000 + (uint64_t)n, n};
	run("pinned", in, n);

	if (failures)
		return 1;
	printf("ordered_events: 7 inputs delivered as perf's ordered events would\n");
	return 0;
}
