// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a recording holds, counted once through the session (see sim_census.h).
 */
#include <config.h>

#include "pipeline/sim_census.h"

#include <stdio.h>
#include <string.h>

#include "analyzer/data_src.h"
#include "sampling/perf_file.h"
#include "sampling/session.h"

static int census_sample(void *ctx, struct session *s, const struct session_sample *ss)
{
	const struct perf_header_info *h = session__header(s);
	const struct sample *smp = ss->sample;
	struct sim_census *c = ctx;
	struct data_src d;

	if (smp->evsel < h->nr_evsels && h->evsels[smp->evsel].name &&
	    !strcmp(h->evsels[smp->evsel].name, "lineup-sim/overlap/")) {
		c->has_overlap = true;
		c->observed_ns += smp->period;
		c->overlap_ns += smp->weight;
		return 0;
	}
	d = data_src__decode(smp->data_src);
	if (d.op & DS_OP_LOAD) {
		c->loads++;
		c->hitm += (d.snoop & DS_SNOOP_HITM) != 0;
	} else if (d.op & DS_OP_STORE) {
		c->stores++;
	}
	return 0;
}

int sim_census__read(struct sim_census *c, const char *path, char *err, size_t errlen)
{
	struct session_opts so = { .path = path };
	struct session_tool tool = { .ctx = c, .sample = census_sample, .compact = true };
	struct session *s;
	int rc;

	*c = (struct sim_census){ 0 };
	rc = session__open(&s, &so, err, errlen);
	if (rc < 0)
		return rc;
	rc = session__run(s, &tool);
	if (rc < 0)
		snprintf(err, errlen, "%s", session__errmsg(s));
	session__close(s);
	return rc < 0 ? rc : 0;
}

enum sim_overlap sim_census__overlap(const struct sim_census *c)
{
	if (!c->has_overlap)
		return SIM_OVERLAP_UNKNOWN;
	return c->overlap_ns && c->overlap_ns * 100 >= c->observed_ns ? SIM_OVERLAP_SEEN
								       : SIM_OVERLAP_NONE;
}

enum sim_overlap sim_census__no_contention(const struct sim_census *c, char *buf, size_t size)
{
	enum sim_overlap o = sim_census__overlap(c);

	if (c->hitm)
		snprintf(buf, size, "%ld HITMs: contention seen", c->hitm);
	else if (o == SIM_OVERLAP_SEEN)
		snprintf(buf, size, "no contention seen: the threads ran at the same time for %.1f "
			 "ms (%.0f%% of the %.1f ms modeled) and no load found its line modified "
			 "by another thread", c->overlap_ns / 1e6,
			 100.0 * c->overlap_ns / c->observed_ns, c->observed_ns / 1e6);
	else if (o == SIM_OVERLAP_NONE)
		snprintf(buf, size, "no contention seen, and nothing can be concluded: the threads "
			 "never ran at the same time (%.1f ms of %.1f ms modeled); where CPUs are "
			 "fewer than threads or busy, record again with --sim-turns 100 (the "
			 "threads take turns), or on more free CPUs", c->overlap_ns / 1e6, c->observed_ns / 1e6);
	else
		snprintf(buf, size, "no load found its line modified by another thread: no "
			 "contention seen (the recording does not say whether threads ran at the "
			 "same time; where CPUs are fewer than threads or busy, --sim-turns 100 makes "
			 "them interleave)");
	return o;
}
