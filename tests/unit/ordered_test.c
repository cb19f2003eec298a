// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sampling/ordered.h against a plain model of perf's ordered events: at each FINISHED_ROUND,
 * deliver what is queued up to the largest time seen before the previous round, in (time,
 * arrival) order; at the end, the rest; records without a time at once.  Inputs: in order,
 * per-CPU interleaved runs, many equal times, and random order (more runs than the queue keeps).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/event.h"
#include "sampling/ordered.h"

#define N 5000

struct ev {
	uint64_t time; /* 0: none; UINT64_MAX: a FINISHED_ROUND */
	int id;
};

static int got[2 * N], nr_got;
static int failures;

static int deliver(void *ctx, const struct record *rec)
{
	(void)ctx;
	if (rec->type == REC_FINISHED_ROUND)
		return 0;
	/* the payload copy must hold what the original held */
	if (rec->size != 8 + sizeof(int) || *(const int *)rec->payload != rec->sample.stream_id) {
		fprintf(stderr, "payload of record %d not kept\n", (int)rec->sample.stream_id);
		failures++;
	}
	got[nr_got++] = (int)rec->sample.stream_id;
	return 0;
}

/* The model: a list, flushed by selection. */
static int model(const struct ev *in, int n, int *out)
{
	int queued[2 * N], nq = 0, no = 0;
	uint64_t max_ts = 0, next_flush = 0;

	for (int i = 0; i <= n; i++) {
		uint64_t limit;

		if (i < n && in[i].time != UINT64_MAX) {
			if (in[i].time == 0) {
				out[no++] = in[i].id;
			} else {
				queued[nq++] = i;
				if (in[i].time > max_ts)
					max_ts = in[i].time;
			}
			continue;
		}
		limit = i == n ? UINT64_MAX : next_flush;
		if (i < n)
			next_flush = max_ts;
		if (!limit)
			continue;
		for (;;) {
			int best = -1;

			for (int k = 0; k < nq; k++)
				if (in[queued[k]].time <= limit &&
				    (best < 0 || in[queued[k]].time < in[queued[best]].time))
					best = k; /* first of equal times: arrival order */
			if (best < 0)
				break;
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
	struct ordered *o = ordered__new(deliver, NULL);
	int nw = model(in, n, want);

	nr_got = 0;
	for (int i = 0; i < n; i++) {
		struct record rec;

		memset(&rec, 0, sizeof(rec));
		if (in[i].time == UINT64_MAX) {
			rec.type = REC_FINISHED_ROUND;
			rec.size = 8;
		} else {
			rec.type = REC_SAMPLE;
			rec.sample.present = in[i].time ? SF_TIME : 0;
			rec.sample.time = in[i].time;
			rec.sample.stream_id = (uint64_t)in[i].id;
			payload[i] = in[i].id;
			rec.payload = &payload[i];
			rec.size = 8 + sizeof(int);
		}
		ordered__push(o, &rec);
		payload[i] = -1; /* the reader's buffer moves on */
	}
	ordered__flush(o);
	ordered__delete(o);
	if (nr_got != nw || memcmp(got, want, nw * sizeof(int))) {
		fprintf(stderr, "FAIL %s: delivered %d records, model %d", name, nr_got, nw);
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

	if (failures)
		return 1;
	printf("ordered: 4 inputs delivered as perf's ordered events would\n");
	return 0;
}
