// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The session (sampling/session.h): the reader, the ordered-events queue and the machine of
 * one recording, and the loop that joins them (perf's perf_session__process_events and its
 * deliver functions).
 */
#include <config.h>

#include "sampling/session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/ordered_events.h"
#include "sampling/perf_file.h"
#include "sampling/sample_layout.h"
#include "util/xalloc.h"

#define PERF_CONTEXT_HV_ ((uint64_t)-32)
#define PERF_CONTEXT_KERNEL_ ((uint64_t)-128)
#define PERF_CONTEXT_USER_ ((uint64_t)-512)
#define PERF_CONTEXT_MAX_ ((uint64_t)-4095)

/* What a compact sample keeps of its event's sample_type (and PERIOD, resolved when queued). */
#define COMPACT_FIELDS                                                                             \
	(SF_IP | SF_TID | SF_TIME | SF_ADDR | SF_CALLCHAIN | SF_CPU | SF_PERIOD | SF_WEIGHT |       \
	 SF_DATA_SRC | SF_PHYS_ADDR | SF_WEIGHT_STRUCT)

struct session {
	struct session_opts opts;
	struct perf_file *pf;
	const struct perf_header_info *h;
	struct machine *machine;
	struct session_filter filter;
	struct session_stats stats;
	const struct session_tool *tool;
	struct ordered_events *oe;
	bool compact;
	bool ran;
	int ordered;			/* -1 until the first record */
	enum session_callchain cc_mode;
	int max_stack;			/* perf's sysctl_perf_event_max_stack */
	struct sample_layout *layouts;	/* by event (pipe mode adds events: recomputed) */
	size_t nr_layouts;
	struct sample csample;		/* a compact sample, delivered: what it does not keep is 0 */
	char err[PERF_FILE_ERRMAX];
};

/* ---- filters ---- */

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

int session_filter__parse_list(const char *s, int64_t **list, size_t *nr)
{
	const char *p = s;
	size_t cap = *nr, n = *nr, k = 0;
	int64_t *v = *list;

	while (*p) {
		char *end;
		long long a = strtoll(p, &end, 10), b;

		if (end == p || a < 0)
			return -EINVAL;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtoll(p, &end, 10);
			if (end == p || b < a)
				return -EINVAL;
		}
		for (long long i = a; i <= b && i - a < 1 << 20; i++) {
			v = xgrow(v, &cap, n + 1, sizeof(*v));
			v[n++] = i;
		}
		if (*end == ',')
			end++;
		else if (*end)
			return -EINVAL;
		p = end;
	}
	/* sorted and unique: a sample's test is a binary search (an empty list has no array,
	 * and qsort(NULL, 0) is undefined) */
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_i64);
	for (size_t i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	*list = v;
	*nr = k;
	return 0;
}

/* Seconds as perf prints them ("12345.678901") to ns; empty means @dflt. */
static int parse_seconds(const char *s, size_t len, uint64_t *out, uint64_t dflt)
{
	char buf[64], *end;
	double v;

	if (!len) {
		*out = dflt;
		return 0;
	}
	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	v = strtod(buf, &end);
	/* not NaN, not infinite, and within what a u64 of nanoseconds holds */
	if (end == buf || *end || !(v >= 0 && v < 18446744073.0))
		return -EINVAL;
	*out = (uint64_t)(v * 1e9 + 0.5);
	return 0;
}

int session_filter__parse_time(struct session_filter *f, const char *s)
{
	const char *comma = strchr(s, ',');
	uint64_t a, b;

	if (!comma || parse_seconds(s, (size_t)(comma - s), &a, 0) ||
	    parse_seconds(comma + 1, strlen(comma + 1), &b, UINT64_MAX))
		return -EINVAL;
	if (a > b)
		return -ERANGE;
	f->has_time = true;
	f->time_start = a;
	f->time_end = b;
	return 0;
}

void session_filter__add_comms(struct session_filter *f, const char *s)
{
	char *dup = xstrdup(s), *save = NULL;

	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		f->comms = xrealloc(f->comms, (f->nr_comms + 1) * sizeof(char *));
		f->comms[f->nr_comms++] = xstrdup(t);
	}
	free(dup);
}

bool session_filter__empty(const struct session_filter *f)
{
	return !f->has_time && !f->nr_pids && !f->nr_tids && !f->nr_cpus && !f->nr_comms;
}

void session_filter__release(struct session_filter *f)
{
	free(f->pids);
	free(f->tids);
	free(f->cpus);
	for (size_t i = 0; i < f->nr_comms; i++)
		free(f->comms[i]);
	free(f->comms);
	memset(f, 0, sizeof(*f));
}

static bool list_has(const int64_t *v, size_t n, int64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo] == x;
}

/* The filters on the sample's own fields (the comm needs its thread). */
static bool filter__sample(const struct session_filter *f, const struct sample *s)
{
	if (f->has_time &&
	    (!(s->present & SF_TIME) || s->time < f->time_start || s->time > f->time_end))
		return false;
	if (f->nr_pids && !list_has(f->pids, f->nr_pids, (int32_t)s->pid))
		return false;
	if (f->nr_tids && !list_has(f->tids, f->nr_tids, (int32_t)s->tid))
		return false;
	if (f->nr_cpus && (!(s->present & SF_CPU) || !list_has(f->cpus, f->nr_cpus, s->cpu)))
		return false;
	return true;
}

static bool filter__comm(const struct session_filter *f, const struct thread *t)
{
	for (size_t i = 0; i < f->nr_comms; i++)
		if (t->comm && !strcmp(t->comm, f->comms[i]))
			return true;
	return false;
}

/* ---- open, close ---- */

int session__open(struct session **out, const struct session_opts *opts, char *err,
		  size_t errlen)
{
	struct session *s = xcalloc(1, sizeof(*s));
	/* perf_session__process_events registers the idle task first: (0, 0) "swapper" */
	struct record idle = { .type = REC_COMM };
	int rc;

	s->opts = *opts;
	rc = perf_file__open(&s->pf, opts->path, err, errlen);
	if (rc < 0) {
		free(s);
		return rc;
	}
	if (opts->no_auxtrace)
		perf_file__set_auxtrace(s->pf, false);
	s->h = perf_file__header(s->pf);
	s->ordered = -1;
	s->max_stack = SESSION_MAX_STACK;
	s->machine = machine__new();
	idle.comm.comm = "swapper";
	machine__process_record(s->machine, &idle);
	for (uint32_t k = 0; k < s->h->nr_build_ids; k++) {
		const struct perf_build_id *b = &s->h->build_ids[k];

		machine__set_build_id(s->machine, b->filename,
				      (b->misc & CPUMODE_MASK) == CPUMODE_KERNEL, b->build_id,
				      b->size);
	}
	*out = s;
	return 0;
}

void session__close(struct session *s)
{
	if (!s)
		return;
	ordered_events__delete(s->oe);
	machine__delete(s->machine);
	perf_file__close(s->pf);
	free(s->stats.nr_samples);
	free(s->stats.nr_lost_samples);
	free(s->layouts);
	free(s);
}

void session__set_filter(struct session *s, const struct session_filter *f)
{
	s->filter = *f;
}

const char *session__errmsg(const struct session *s)
{
	return s->err;
}

const char *session__path(const struct session *s)
{
	return s->opts.path;
}

bool session__progress(const struct session *s, uint64_t *done, uint64_t *total)
{
	const struct perf_header_info *h = perf_file__header(s->pf);
	uint64_t at = perf_file__offset(s->pf);

	if (h->pipe || !h->data_size)
		return false;
	*total = h->data_size;
	*done = at < h->data_offset ? 0 : at - h->data_offset;
	if (*done > *total)
		*done = *total;
	return true;
}

const struct perf_header_info *session__header(const struct session *s)
{
	return s->h;
}

struct machine *session__machine(struct session *s)
{
	return s->machine;
}

const struct session_stats *session__stats(const struct session *s)
{
	return &s->stats;
}

enum session_callchain session__callchain_mode(const struct session *s)
{
	return s->cc_mode;
}

uint32_t session__callchain(struct session *s, const struct session_sample *ss,
			    struct session_frame *out)
{
	const struct sample *smp = ss->sample;
	uint8_t cpumode = CPUMODE_USER;
	uint32_t n = 0;
	int entries = 0;

	if (s->cc_mode != SESSION_CC_FP || !(smp->present & SF_CALLCHAIN) || !smp->callchain_nr ||
	    smp->callchain_nr > SESSION_MAX_STACK)
		return 0;
	for (uint64_t i = 0; i < smp->callchain_nr && entries < s->max_stack; i++) {
		uint64_t ip = smp->callchain[i];
		struct session_frame *fr;
		struct addr_loc loc;

		if (ip >= PERF_CONTEXT_MAX_) {
			if (ip == PERF_CONTEXT_HV_)
				cpumode = CPUMODE_HYPERVISOR;
			else if (ip == PERF_CONTEXT_KERNEL_)
				cpumode = CPUMODE_KERNEL;
			else if (ip == PERF_CONTEXT_USER_)
				cpumode = CPUMODE_USER;
			else
				return 0;
			continue;
		}
		entries++;
		fr = &out[n++];
		fr->ip = ip;
		fr->dso = NULL;
		fr->addr = 0;
		fr->sym = NULL;
		fr->sym_start = 0;
		if (machine__find_map(s->machine, ss->al.thread, cpumode, ip, &loc) && loc.map->dso) {
			fr->dso = loc.map->dso;
			fr->addr = loc.addr;
		}
	}
	return n;
}

/* perf's sample->period: the sample's PERIOD, else the event's sample_period. */
static uint64_t session__period(const struct session *s, const struct sample *smp)
{
	if (smp->present & SF_PERIOD)
		return smp->period;
	if (smp->evsel < s->h->nr_evsels)
		return s->h->evsels[smp->evsel].attr.sample_period;
	return 0;
}

/* A sample, in order: the tool's side samples, the filters, the thread and map, the tool. */
static int session__sample(struct session *s, const struct sample *smp, uint64_t period)
{
	const struct session_tool *tool = s->tool;
	struct session_sample ss;

	if (tool->side_sample && tool->side_sample(tool->ctx, s, smp))
		return 0;
	if (!filter__sample(&s->filter, smp))
		return 0;
	/* perf's machine__resolve: the thread and the ip's map in the sample's cpumode */
	machine__resolve(s->machine, smp, &ss.al);
	if (s->filter.nr_comms && !filter__comm(&s->filter, ss.al.thread))
		return 0;
	ss.sample = smp;
	ss.period = period;
	return tool->sample ? tool->sample(tool->ctx, s, &ss) : 0;
}

/* MMAP, MMAP2, COMM, FORK, EXIT and KSYMBOL change the machine; perf processes nothing else. */
static bool record__for_machine(uint32_t type)
{
	return type == REC_MMAP || type == REC_MMAP2 || type == REC_COMM || type == REC_FORK ||
	       type == REC_EXIT || type == REC_KSYMBOL;
}

static int session__deliver(struct session *s, const struct record *rec)
{
	if (rec->type == REC_SAMPLE)
		return session__sample(s, &rec->sample, session__period(s, &rec->sample));
	if (record__for_machine(rec->type))
		machine__process_record(s->machine, rec);
	return 0;
}

/* What the queue hands out, in time order. */
static int session__deliver_queued(void *ctx, const struct oe_event *ev)
{
	struct session *s = ctx;
	struct sample *smp = &s->csample;
	const struct oe_sample *q = ev->sample;

	if (ev->rec)
		return session__deliver(s, ev->rec);
	smp->evsel = ev->evsel;
	smp->present = (ev->evsel < s->nr_layouts ? s->layouts[ev->evsel].type : 0) &
		       COMPACT_FIELDS;
	smp->present |= SF_PERIOD;	/* resolved when queued */
	smp->cpumode = ev->cpumode;
	smp->time = ev->time;
	smp->ip = q->ip;
	smp->addr = q->addr;
	smp->phys_addr = q->phys_addr;
	smp->weight = q->weight;
	smp->data_src = q->data_src;
	smp->pid = q->pid;
	smp->tid = q->tid;
	smp->cpu = ev->cpu;
	smp->period = q->period;
	smp->callchain = ev->callchain;
	smp->callchain_nr = ev->callchain_nr;
	return session__sample(s, smp, q->period);
}

/* The fixed layout of event @evsel's samples (events are added in pipe mode: recomputed). */
static const struct sample_layout *session__layout(struct session *s, uint32_t evsel)
{
	if (evsel >= s->nr_layouts) {
		s->nr_layouts = s->h->nr_evsels;
		s->layouts = xrealloc(s->layouts, s->nr_layouts * sizeof(*s->layouts));
		for (size_t k = 0; k < s->nr_layouts; k++)
			sample_layout__init(&s->layouts[k], &s->h->evsels[k].attr,
					    s->h->big_endian);
	}
	return &s->layouts[evsel];
}

/*
 * A raw sample of a fixed layout in a compact session: the fields go straight from the
 * payload into the queue, the same values perf_sample__decode would give.  False when the
 * sample needs the general path (a variable layout, a short payload, no time, unordered).
 */
static bool session__fast_sample(struct session *s, const struct record *rec)
{
	const struct sample_layout *l = session__layout(s, rec->sample.evsel);
	const void *p = rec->payload;
	struct oe_sample *q;
	uint64_t w, t;

	if (!l->fixed || rec->size - 8u < l->len || l->time < 0 || s->ordered != 1 ||
	    rec->sample.evsel > OE_MAX_EVSEL)
		return false;
	t = sample_layout__u64(p, l->time);
	if (!t || t == UINT64_MAX)
		return false;	/* delivered at once, as perf does */
	q = ordered_events__queue_sample(s->oe, t, rec->sample.evsel, rec->misc & CPUMODE_MASK,
					 l->cpu >= 0 ? sample_layout__u32(p, l->cpu) : 0);
	q->ip = l->ip >= 0 ? sample_layout__u64(p, l->ip) : 0;
	q->addr = l->addr >= 0 ? sample_layout__u64(p, l->addr) : 0;
	q->phys_addr = l->phys_addr >= 0 ? sample_layout__u64(p, l->phys_addr) : 0;
	w = l->weight >= 0 ? sample_layout__u64(p, l->weight) : 0;
	q->weight = (l->type & SF_WEIGHT) ? w : (uint32_t)w;
	q->data_src = l->data_src >= 0 ? sample_layout__u64(p, l->data_src) : 0;
	q->pid = l->tid >= 0 ? sample_layout__u32(p, l->tid) : 0;
	q->tid = l->tid >= 0 ? sample_layout__u32(p, l->tid + 4) : 0;
	q->period = l->period >= 0 ? sample_layout__u64(p, l->period) :
		    s->h->evsels[rec->sample.evsel].attr.sample_period;
	return true;
}

/* A decoded sample into a compact item. */
static void session__queue_compact(struct session *s, const struct sample *smp, uint64_t t)
{
	struct oe_sample *q = ordered_events__queue_sample(s->oe, t, smp->evsel, smp->cpumode,
							   smp->cpu);

	q->ip = smp->ip;
	q->addr = smp->addr;
	q->phys_addr = smp->phys_addr;
	q->weight = smp->weight;
	q->data_src = smp->data_src;
	q->pid = smp->pid;
	q->tid = smp->tid;
	q->period = session__period(s, smp);
	if (s->tool->callchains && s->cc_mode == SESSION_CC_FP && (smp->present & SF_CALLCHAIN) &&
	    smp->callchain_nr && smp->callchain_nr <= SESSION_MAX_STACK)
		ordered_events__set_callchain(s->oe, smp->callchain, smp->callchain_nr);
}

/* A decoded record: queued by its time, or delivered now when it has none. */
static int session__process(struct session *s, const struct record *rec)
{
	uint64_t t = 0;

	if (s->ordered != 1)
		;	/* file order */
	else if (rec->type == REC_SAMPLE || rec->has_sample_id)
		t = (rec->sample.present & SF_TIME) ? rec->sample.time : 0;
	/* perf's ordered_events__queue: no time (or ~0) is -ETIME, delivered at once */
	if (!t || t == UINT64_MAX)
		return session__deliver(s, rec);
	if (rec->type == REC_SAMPLE) {
		if (s->compact && rec->sample.evsel <= OE_MAX_EVSEL)
			session__queue_compact(s, &rec->sample, t);
		else
			ordered_events__queue_record(s->oe, rec, t);
	} else {
		/*
		 * Records the session does not use still take their place in the queue, as in
		 * perf: they move its limit for the next round.
		 */
		ordered_events__queue_record(s->oe, record__for_machine(rec->type) ? rec : NULL, t);
	}
	return 0;
}

/* perf's callchain mode and ordering, decided once the events are known. */
static void session__first_record(struct session *s)
{
	const struct perf_header_info *h = s->h;
	uint64_t t = 0;
	FILE *f;
	int v;

	/*
	 * perf orders nothing when the first event lacks sample_id_all (the tools ask for
	 * ordering_requires_timestamps): everything then goes in file order.
	 */
	s->ordered = !s->tool->unordered && h->nr_evsels &&
		     perf_attr__flag(&h->evsels[0].attr, ATTR_SAMPLE_ID_ALL);
	for (uint32_t k = 0; k < h->nr_evsels; k++)
		t |= h->evsels[k].attr.sample_type;
	if (!(t & SF_CALLCHAIN))
		s->cc_mode = SESSION_CC_NONE;
	else if ((t & SF_REGS_USER && t & SF_STACK_USER) || (t & SF_BRANCH_STACK))
		s->cc_mode = SESSION_CC_UNSUPPORTED;
	else
		s->cc_mode = SESSION_CC_FP;
	if (s->cc_mode != SESSION_CC_FP)
		return;
	/* perf reads the running kernel's limit (kernel.perf_event_max_stack) */
	f = fopen("/proc/sys/kernel/perf_event_max_stack", "r");
	if (f && fscanf(f, "%d", &v) == 1 && v > 0)
		s->max_stack = v;
	if (f)
		fclose(f);
}

static void stats__grow(struct session_stats *st, uint32_t nr)
{
	if (nr <= st->nr_evsels)
		return;
	st->nr_samples = xrealloc(st->nr_samples, nr * sizeof(uint32_t));
	st->nr_lost_samples = xrealloc(st->nr_lost_samples, nr * sizeof(uint32_t));
	for (uint32_t i = st->nr_evsels; i < nr; i++)
		st->nr_samples[i] = st->nr_lost_samples[i] = 0;
	st->nr_evsels = nr;
}

/* Counts as perf keeps them: u32 per record type, per event samples and lost samples. */
static void session__count(struct session *s, const struct record *rec)
{
	struct session_stats *st = &s->stats;

	st->nr_events[0]++;
	if (rec->type <= REC_USER_MAX)
		st->nr_events[rec->type]++;
	stats__grow(st, s->h->nr_evsels);
	if (rec->type == REC_SAMPLE) {
		if (rec->sample.evsel < st->nr_evsels)
			st->nr_samples[rec->sample.evsel]++;
	} else if (rec->type == REC_LOST_SAMPLES && st->nr_evsels) {
		/* perf's count_lost_samples_event: by the sample id, added as u32 */
		uint32_t ev = rec->has_sample_id ? rec->sample.evsel : 0;

		if (ev < st->nr_evsels)
			st->nr_lost_samples[ev] += (uint32_t)rec->lost.lost;
	}
}

/* Records come from the page cache at memory speed: fetch a few KiB ahead of the decoder. */
#define PREFETCH_AHEAD 2048

int session__run(struct session *s, const struct session_tool *tool)
{
	struct record rec;
	int rc;

	if (s->ran) {
		snprintf(s->err, sizeof(s->err), "%s: a session is run once", s->opts.path);
		return -EINVAL;
	}
	s->ran = true;
	s->tool = tool;
	s->compact = tool->compact && !tool->side_sample;
	s->oe = ordered_events__new(session__deliver_queued, s);
	perf_file__set_raw_samples(s->pf, s->compact);
	while ((rc = perf_file__next_record(s->pf, &rec)) > 0) {
		/* (a prefetch never faults, and an integer address is no out-of-bounds pointer) */
		__builtin_prefetch((const void *)((uintptr_t)rec.payload + PREFETCH_AHEAD));
		session__count(s, &rec);
		if (rec.type == REC_FINISHED_ROUND) {
			rc = s->ordered == 1 ? ordered_events__round(s->oe) : 0;
			if (rc)
				return rc;
			continue;
		}
		if (rec.type >= REC_HEADER_ATTR)
			continue;
		if (s->ordered < 0)
			session__first_record(s);
		if (rec.type == REC_SAMPLE && s->compact) {
			if (session__fast_sample(s, &rec))
				continue;
			if (perf_file__decode_sample(s->pf, &rec) < 0) {
				rc = -EINVAL;
				break;
			}
		}
		rc = session__process(s, &rec);
		if (rc)
			return rc;
	}
	stats__grow(&s->stats, s->h->nr_evsels);
	if (rc < 0) {
		snprintf(s->err, sizeof(s->err), "%s", perf_file__errmsg(s->pf));
		return -EINVAL;
	}
	return ordered_events__flush(s->oe);
}
