// SPDX-License-Identifier: GPL-2.0-or-later
#include "analyzer/watch_replay.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/coherence.h"
#include "util/xalloc.h"

/* perf_mem_data_src "not available" in every part (op, level, snoop, lock, tlb). */
#define DATA_SRC_NA ((1ULL << 0) | (1ULL << 5) | (1ULL << 19) | (1ULL << 24) | (1ULL << 26))

const char *wr_kind__name(enum wr_kind k)
{
	static const char *const names[] = { "unknown", "load", "store", "rmw", "locked-rmw" };

	return k < WR_NR_KINDS ? names[k] : "unknown";
}

static int hit_cmp(const void *a, const void *b)
{
	const struct wr_hit *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

struct cpu_time {
	uint64_t time;
	uint32_t cpu;
	size_t i;
};

/* By CPU, then time; ties in the hits' order (as a stable sort keeps them). */
static int cpu_time_cmp(const void *a, const void *b)
{
	const struct cpu_time *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

int *wr_hits__pair_kinds(const struct wr_hit *hits, size_t n, int w_flag)
{
	struct cpu_time *ord = xmalloc((n ? n : 1) * sizeof(*ord));
	int *kinds = xcalloc(n ? n : 1, sizeof(int));
	char *matched = xcalloc(n ? n : 1, 1);

	for (size_t i = 0; i < n; i++)
		ord[i] = (struct cpu_time){ hits[i].time, hits[i].cpu, i };
	qsort(ord, n, sizeof(*ord), cpu_time_cmp);
	for (size_t i = 0; i < n; i++) {
		size_t h = ord[i].i;
		const struct wr_hit *w = &hits[h];

		if (!(w->field & w_flag))
			continue;
		kinds[h] = WR_STORE;	/* unless its RW half is found: then it is dropped */
		/* The two halves are neighbours in CPU and time order. */
		for (size_t j = i >= 4 ? i - 4 : 0; j < n && j <= i + 4; j++) {
			size_t g = ord[j].i;
			const struct wr_hit *rw = &hits[g];

			if (g == h || matched[g] || (rw->field & w_flag) ||
			    rw->field != (w->field & ~w_flag) || rw->cpu != w->cpu ||
			    rw->ip != w->ip || rw->tid != w->tid ||
			    (rw->time > w->time ? rw->time - w->time : w->time - rw->time) > 1000000)
				continue;
			matched[g] = 1;
			kinds[h] = -1;
			break;
		}
	}
	for (size_t h = 0; h < n; h++)
		if (!(hits[h].field & w_flag))
			kinds[h] = matched[h] ? WR_STORE : WR_LOAD;
	free(ord);
	free(matched);
	return kinds;
}

/* One line's state, found by line number in a small table (an object spans a few lines). */
struct line_state {
	uint64_t line;
	coh_state_t state;
};

void wr_report__replay(struct wr_hit *hits, size_t nr_hits, struct wr_field *fields,
		       size_t nr_fields, unsigned int line_shift, unsigned int nr_cpus)
{
	struct line_state lines[64];
	size_t nr_lines = 0;
	uint32_t group = UINT32_MAX;	/* no group yet */
	struct coh_costs costs;

	coherence__default_costs(&costs);
	for (size_t f = 0; f < nr_fields; f++) {
		struct wr_field *fl = &fields[f];

		fl->hits = fl->transfers = fl->hitm = fl->invalidations = 0;
		memset(fl->kinds, 0, sizeof(fl->kinds));
		if (fl->cpu_kinds)
			memset(fl->cpu_kinds, 0, sizeof(uint64_t) * nr_cpus * WR_NR_KINDS);
		fl->writer_cpus = fl->reader_cpus = 0;
	}
	/* no hits may come as NULL: qsort(NULL, 0) is undefined */
	if (nr_hits > 1)
		qsort(hits, nr_hits, sizeof(*hits), hit_cmp);
	for (size_t i = 0; i < nr_hits; i++) {
		struct wr_hit *h = &hits[i];
		struct wr_field *fl;
		struct coh_outcome out;
		struct line_state *ls = NULL;
		uint64_t line;
		unsigned int cpu = nr_cpus ? h->cpu % nr_cpus : 0;
		unsigned int core = h->cpu % COH_MAX_CORES;
		enum coh_op op;

		h->data_src = DATA_SRC_NA;
		h->transfer = 0;
		if (h->group != group) {
			nr_lines = 0;
			group = h->group;
		}
		if (h->field < 0 || (size_t)h->field >= nr_fields)
			continue;
		fl = &fields[h->field];
		fl->hits++;
		fl->kinds[h->kind < WR_NR_KINDS ? h->kind : WR_UNKNOWN]++;
		if (fl->cpu_kinds)
			fl->cpu_kinds[cpu * WR_NR_KINDS + (h->kind < WR_NR_KINDS ? h->kind : 0)]++;
		if (h->kind == WR_UNKNOWN || h->kind >= WR_NR_KINDS)
			continue;
		op = h->kind == WR_LOAD ? COH_LOAD : h->kind == WR_STORE ? COH_STORE : COH_RMW;
		line = fl->addr >> line_shift;
		for (size_t k = 0; k < nr_lines; k++)
			if (lines[k].line == line)
				ls = &lines[k];
		if (!ls) {
			if (nr_lines == sizeof(lines) / sizeof(lines[0]))
				continue;
			ls = &lines[nr_lines++];
			ls->line = line;
			ls->state = 0;
		}
		ls->state = coherence__step(ls->state, core, op, &costs, &out);
		if (op == COH_LOAD) {
			h->data_src = coherence__load_data_src(out.load_src, false);
		} else if (op == COH_STORE) {
			h->data_src = coherence__store_data_src(out.store_hit, false);
		} else {
			/* An RMW is sampled as a locked load by PEBS; keep its load source. */
			h->data_src = coherence__load_data_src(out.load_src,
							       h->kind == WR_LOCKED_RMW);
		}
		if ((op != COH_STORE && out.load_src == COH_SRC_HITM) ||
		    (op != COH_LOAD && (out.invalidated || (out.prev_owner >= 0 &&
							    (unsigned int)out.prev_owner != core))))
			h->transfer = 1;
		if (op != COH_STORE && out.load_src == COH_SRC_HITM)
			fl->hitm++;
		if (op != COH_LOAD)
			fl->invalidations += __builtin_popcountll(out.invalidated);
		fl->transfers += h->transfer;
	}
	/* Distinct reader and writer CPUs. */
	for (size_t f = 0; f < nr_fields; f++) {
		struct wr_field *fl = &fields[f];

		if (!fl->cpu_kinds)
			continue;
		for (unsigned int c = 0; c < nr_cpus; c++) {
			const uint64_t *k = &fl->cpu_kinds[c * WR_NR_KINDS];

			if (k[WR_STORE] || k[WR_RMW] || k[WR_LOCKED_RMW])
				fl->writer_cpus++;
			if (k[WR_LOAD] || k[WR_RMW] || k[WR_LOCKED_RMW])
				fl->reader_cpus++;
		}
	}
}
