// SPDX-License-Identifier: GPL-2.0-or-later
/* kmemmix's reader half: the filp allocations of a real kmem recording (see kmemmix.c). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/perf_file.h"
#include "sampling/tracepoint.h"
#include "tests/fields/kmemmix.h"

static void die(const char *what, const char *why)
{
	fprintf(stderr, "kmemmix: %s: %s\n", what, why);
	exit(2);
}

void kmemmix__read(const char *path, struct kmem_recording *out)
{
	struct perf_file *pf;
	struct tp_decoder *tp;
	const struct perf_header_info *h;
	struct record rec;
	char err[PERF_FILE_ERRMAX];
	int rc, tp_evsel = -1;
	size_t cap = 0;

	memset(out, 0, sizeof(*out));
	if (perf_file__open(&pf, path, err, sizeof(err)) < 0)
		die(path, err);
	h = perf_file__header(pf);
	if (!h->tracing_data)
		die(path, "no tracing data");
	tp = tp_decoder__new();
	if (tp_decoder__load_tracing_data(tp, h->tracing_data, h->tracing_data_size, err,
					  sizeof(err)) < 0)
		die(path, err);
	for (uint32_t i = 0; i < h->nr_evsels; i++)
		if (h->evsels[i].name && !strcmp(h->evsels[i].name, "kmem:kmem_cache_alloc"))
			tp_evsel = (int)i;
	if (tp_evsel < 0)
		die(path, "no kmem:kmem_cache_alloc event");
	out->config = h->evsels[tp_evsel].attr.config;
	out->tracing_data = malloc(h->tracing_data_size);
	memcpy(out->tracing_data, h->tracing_data, h->tracing_data_size);
	out->tracing_data_size = h->tracing_data_size;
	while ((rc = perf_file__next_record(pf, &rec)) > 0) {
		const struct sample *s = &rec.sample;
		const struct tp_field *name, *ptr;
		struct tp_event te;
		struct kmem_alloc *a;

		if (rec.type != REC_SAMPLE || (int)s->evsel != tp_evsel || !s->raw_size)
			continue;
		if (tp_decoder__decode(tp, s->raw, s->raw_size, &te, err, sizeof(err)) < 0)
			continue;
		name = tp_event__field(&te, "name");
		ptr = tp_event__field(&te, "ptr");
		if (!name || !ptr || name->kind != TP_STR || strnlen(name->str, name->len) != 4 ||
		    strncmp(name->str, "filp", 4))
			continue;
		if (out->nr == cap) {
			cap = cap ? 2 * cap : 64;
			out->allocs = realloc(out->allocs, cap * sizeof(*out->allocs));
		}
		a = &out->allocs[out->nr++];
		a->pid = s->pid;
		a->tid = s->tid;
		a->cpu = s->cpu;
		a->time = s->time;
		a->ptr = ptr->num;
		a->raw = malloc(s->raw_size);
		memcpy(a->raw, s->raw, s->raw_size);
		a->raw_size = s->raw_size;
	}
	if (rc < 0)
		die(path, perf_file__errmsg(pf));
	perf_file__close(pf);
	tp_decoder__delete(tp);
}
