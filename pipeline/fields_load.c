// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One recording read into the field tables (see fields_load.h), through the session.
 */
#include <config.h>

#include "pipeline/fields_load.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/fields.h"
#include "pipeline/recording.h"
#include "sampling/perf_file.h"
#include "sampling/session.h"
#include "util/xalloc.h"

/* The line size: the option's, else the recording's (known once its first sample comes). */
static unsigned int fields_line_size(const struct fields_load *c)
{
	const struct perf_header_info *h = session__header(c->session);

	return (c->line_size ? c->line_size : h->cache_line_size ? h->cache_line_size : 64)
	       << (c->double_cl ? 1 : 0);
}

/* A sample kept until its heap block's type, or its indexed object's start, is known. */
struct fields_load_pending {
	struct attr_pending p;
	struct fields_access a;
};

static void attribute_one(struct fields_load *c, const struct fields_sample *ms,
			  const struct addr_loc *al)
{
	struct attr_result res;
	struct attr_pending p;
	struct fields_access a = { 0 };
	bool resolved = !fields_attr__resolve_at(c->fa, ms, al, &res, &p);

	a.ip = ms->ip;
	a.addr = ms->addr;
	a.time = ms->time;
	a.weight = ms->weight;
	a.cpu = ms->cpu;
	a.tid = ms->tid;
	if (fields_access__classify(&a, ms->data_src, ms->addr))
		c->nr_peer++;	/* said in the header */
	/* a tool that sees the accesses in time order gets the block's type as known so far */
	if (attr_pending__waits(&p) && !c->access) {
		c->pending = xgrow(c->pending, &c->cap_pending, c->nr_pending + 1,
				   sizeof(*c->pending));
		c->pending[c->nr_pending++] = (struct fields_load_pending){ p, a };
		return;
	}
	fields__add(c->fields, &res, &a);
	if (c->access && resolved)
		c->access(c->ctx, &res, &a);
}

/* A sample of the program's own progress: its code in the function, or its data in the
 * variable, that the user named. */
static bool is_progress(struct fields_load *c, struct session *s, const struct session_sample *ss)
{
	struct addr_loc dl;

	if (recording__symbol_is(c->rec, &ss->al, c->progress_sym))
		return true;
	machine__find_any_cpumode(session__machine(s), ss->al.thread, ss->sample->addr, &dl);
	return recording__symbol_is(c->rec, &dl, c->progress_sym);
}

/* The samples in heap blocks typed by their accesses, now that all of them are known. */
static void settle_pending(struct fields_load *c)
{
	struct attr_result res;

	fields_attr__finish(c->fa);
	for (size_t i = 0; i < c->nr_pending; i++) {
		fields_attr__settle(c->fa, &c->pending[i].p, &res);
		fields__add(c->fields, &res, &c->pending[i].a);
	}
	free(c->pending);
	c->pending = NULL;
	c->nr_pending = c->cap_pending = 0;
}

/*
 * Allocation records, kmem tracepoints and the collector's counts: kept by the attribution,
 * in time order, so the allocations that explain a sample are known when it comes.
 */
static bool fields_side_sample(void *ctx, struct session *s, const struct sample *smp)
{
	struct fields_load *c = ctx;

	return fields_attr__side_sample(c->fa, session__header(s), smp);
}

/* A memory sample, filtered and in time order: attributed against the maps of its time. */
static int fields_sample(void *ctx, struct session *s, const struct session_sample *ss)
{
	struct fields_load *c = ctx;
	const struct perf_header_info *h = session__header(s);
	struct fields_sample fs;
	struct addr_loc al = ss->al;

	if (!fields_sample__init(&fs, h, ss->sample))
		return 0;
	c->nr_samples++;
	c->period_sum += ss->period;
	if (c->progress_sym && is_progress(c, s, ss)) {
		c->progress += ss->period;
		c->progress_samples++;
	}
	if (!c->fields)
		c->fields = fields__new(fields_line_size(c));
	if (fields_attr__is_trap(h, ss->sample))
		fields_attr__trap_to_access(c->fa, &fs, &al);
	attribute_one(c, &fs, &al);
	return 0;
}

/* The whole recording, once: every memory sample attributed and counted. */
static int read_recording(struct fields_load *c, bool filtered, char *err, size_t errlen)
{
	struct session_tool tool = { .ctx = c, .sample = fields_sample,
				     .side_sample = fields_side_sample };
	const struct fields_rmw *rmw;
	size_t nr_rmw;

	if (session__run(c->session, &tool) < 0) {
		snprintf(err, errlen, "%s", session__errmsg(c->session));
		return -EINVAL;
	}
	if (c->fields)
		settle_pending(c);
	if (!c->nr_samples) {
		snprintf(err, errlen, "%s: no sample carries a data address (record with perf c2c "
			 "record, perf mem record, or lineup record)%s", c->input,
			 !filtered ? "" : " that passes the filters");
		return -ENODATA;
	}
	nr_rmw = fields_attr__rmw(c->fa, &rmw);
	for (size_t k = 0; k < nr_rmw; k++)
		fields__add_rmw(c->fields, rmw[k].ip, rmw[k].total, rmw[k].redundant);
	fields__finish(c->fields);
	return 0;
}

int fields_load__run(struct fields_load *ld, const char *input,
		     const struct fields_attr_opts *attr, const struct session_filter *filter,
		     unsigned int line_size, bool double_cl, char *err, size_t errlen)
{
	struct recording_opts ro = {
		.path = input, .symbols = { .vmlinux = attr->vmlinux, .symfs = attr->symfs },
	};

	*ld = (struct fields_load){ .progress_sym = ld->progress_sym, .access = ld->access,
				    .ctx = ld->ctx };
	ld->input = input;
	ld->line_size = line_size;
	ld->double_cl = double_cl;
	if (recording__open(&ld->rec, &ro, err, errlen) < 0)
		return -EINVAL;
	ld->session = ld->rec->session;
	if (filter)
		session__set_filter(ld->session, filter);
	if (fields_attr__new(&ld->fa, attr, ld->rec, err, errlen) < 0)
		return -EINVAL;
	fields_attr__header(ld->fa, session__header(ld->session), input);
	return read_recording(ld, filter && !session_filter__empty(filter), err, errlen);
}

void fields_load__release(struct fields_load *ld)
{
	if (ld->fields)
		fields__delete(ld->fields);
	free(ld->pending);
	fields_attr__delete(ld->fa);
	recording__close(ld->rec);
	*ld = (struct fields_load){ 0 };
}
