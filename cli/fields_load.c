// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One recording read into the field tables (see fields_load.h), through the session.
 */
#include <config.h>

#include "cli/fields_load.h"

#include <stdlib.h>
#include <string.h>

#include "analyzer/fields.h"
#include "cli/command.h"
#include "sampling/perf_file.h"
#include "sampling/session.h"

/* The line size: the option's, else the recording's (known once its first sample comes). */
static unsigned int fields_line_size(const struct fields_load *c)
{
	const struct perf_header_info *h = session__header(c->session);

	return (c->line_size ? c->line_size : h->cache_line_size ? h->cache_line_size : 64)
	       << (c->double_cl ? 1 : 0);
}

static void attribute_one(struct fields_load *c, const struct fields_sample *ms)
{
	struct attr_result res;
	struct fields_access a = { 0 };

	fields_attr__resolve(c->fa, ms, &res);
	a.ip = ms->ip;
	a.addr = ms->addr;
	a.time = ms->time;
	a.weight = ms->weight;
	a.cpu = ms->cpu;
	a.tid = ms->tid;
	if (fields_access__classify(&a, ms->data_src, ms->addr))
		c->nr_peer++;	/* said in the header */
	fields__add(c->fields, &res, &a);
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
	struct fields_sample fs;

	if (!(ss->sample->present & SF_ADDR))
		return 0;
	c->nr_samples++;
	c->period_sum += ss->period;
	if (!c->fields)
		c->fields = fields__new(fields_line_size(c));
	fields_sample__init(&fs, ss->sample);
	attribute_one(c, &fs);
	return 0;
}

/* The whole recording, once: every memory sample attributed and counted. */
static int read_recording(struct fields_load *c, bool filtered)
{
	struct session_tool tool = { .ctx = c, .sample = fields_sample,
				     .side_sample = fields_side_sample };
	const struct fields_rmw *rmw;
	size_t nr_rmw;

	if (session__run(c->session, &tool) < 0) {
		cli__error("%s", session__errmsg(c->session));
		return EXIT_USAGE;
	}
	cli__attr_warnings(c->fa);
	if (!c->nr_samples) {
		cli__error("%s: no sample carries a data address (record with perf c2c record, "
			   "perf mem record, or lineup record)%s", c->input,
			   !filtered ? "" : " that passes the filters");
		return EXIT_NOTHING;
	}
	nr_rmw = fields_attr__rmw(c->fa, &rmw);
	for (size_t k = 0; k < nr_rmw; k++)
		fields__add_rmw(c->fields, rmw[k].ip, rmw[k].total, rmw[k].redundant);
	fields__finish(c->fields);
	return 0;
}

int fields_load__run(struct fields_load *ld, const char *input,
		     const struct fields_attr_opts *attr, const struct session_filter *filter,
		     unsigned int line_size, bool double_cl)
{
	struct session_opts so = { .path = input };
	char err[4096];

	ld->input = input;
	ld->line_size = line_size;
	ld->double_cl = double_cl;
	if (session__open(&ld->session, &so, err, sizeof(err)) < 0) {
		cli__error("%s", err);
		return EXIT_USAGE;
	}
	if (filter)
		session__set_filter(ld->session, filter);
	if (fields_attr__new(&ld->fa, attr, session__machine(ld->session), err, sizeof(err)) < 0) {
		cli__error("%s", err);
		return EXIT_USAGE;
	}
	fields_attr__header(ld->fa, session__header(ld->session), input);
	cli__attr_warnings(ld->fa);
	return read_recording(ld, filter && !session_filter__empty(filter));
}

void fields_load__release(struct fields_load *ld)
{
	if (ld->fields)
		fields__delete(ld->fields);
	fields_attr__delete(ld->fa);
	session__close(ld->session);
	*ld = (struct fields_load){ 0 };
}
