// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One recording read into perf c2c's tables (see c2c_load.h).
 */
#include <config.h>

#include "pipeline/c2c_load.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/data_src.h"
#include "pipeline/recording.h"
#include "pipeline/report_fields.h"
#include "sampling/event.h"
#include "sampling/host.h"
#include "sampling/machine.h"
#include "sampling/perf_file.h"
#include "sampling/session.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- the tool: each sample of the session into c2c ---- */

/*
 * Aggregation misses the cache (a sample's line and entry are anywhere in c2c's tables), so
 * a sample is added PF_STEPS * PF_DIST samples after it arrives, and what it will touch is
 * fetched meanwhile, one dependent step every PF_DIST samples.  A sample arrives resolved
 * (the session resolves in time order), so holding it back changes nothing but the timing.
 * Call chains share r->ccbuf: with them nothing is held back.
 */
#define PF_DIST 3
#define PF_STEPS 4
#define PF_RING 32	/* > PF_STEPS * PF_DIST, a power of two */

struct pending {
	struct c2c_sample cs;
	struct c2c_prefetch pf;
};

struct c2c_load {
	struct c2c_load_opts o;
	struct recording *rec;
	struct session *session;	/* rec's */
	const struct perf_header_info *h;
	struct machine *machine;
	struct c2c *c2c;
	struct thread **threads;	/* c2c thread handle -> thread */
	size_t nr_threads, cap_threads;
	uint32_t *thread_ht;
	size_t ht_cap;
	struct thread *last_thread;
	uint32_t last_handle;
	struct c2c_config cfg;		/* from the options; the rest from the header */
	bool callchains;		/* the session resolves frame-pointer chains */
	struct session_frame *frames;	/* one sample's call chain, as the session gives it */
	struct cc_frame *ccbuf;		/* the same, as c2c takes it */
	struct pending ring[PF_RING];	/* samples not added yet: ring[seq % PF_RING] */
	uint64_t pend_begin, pend_end;	/* their arrival numbers */
	struct report_fields *rf;	/* the Type and Member columns, with @o.fields */
	struct c2c_resolver resolver;
	/* will it fit: load_memory_check */
	uint64_t nr_seen;
	const char *mem_which;		/* what bounds memory: MemAvailable or RLIMIT_AS */
	bool mem_warned;
	char *mem_stop;			/* why the run stopped, or NULL */
};

/* The machine never frees a thread, so its pointer is a stable key; c2c wants a u32 handle. */
static uint32_t thread_handle(struct c2c_load *r, struct thread *t)
{
	uint64_t h = (uint64_t)(uintptr_t)t * 0x9e3779b97f4a7c15ULL;
	size_t at;

	if (t == r->last_thread)
		return r->last_handle;
	r->last_thread = t;
	if (r->nr_threads * 2 >= r->ht_cap) {
		size_t cap = r->ht_cap ? r->ht_cap * 2 : 256;
		uint32_t *ht = xcalloc(cap, sizeof(uint32_t));

		for (size_t i = 0; i < r->nr_threads; i++) {
			uint64_t hh = (uint64_t)(uintptr_t)r->threads[i] * 0x9e3779b97f4a7c15ULL;

			at = (hh >> 32) & (cap - 1);
			while (ht[at])
				at = (at + 1) & (cap - 1);
			ht[at] = i + 1;
		}
		free(r->thread_ht);
		r->thread_ht = ht;
		r->ht_cap = cap;
	}
	at = (h >> 32) & (r->ht_cap - 1);
	while (r->thread_ht[at]) {
		if (r->threads[r->thread_ht[at] - 1] == t)
			return r->last_handle = r->thread_ht[at] - 1;
		at = (at + 1) & (r->ht_cap - 1);
	}
	r->threads = xgrow(r->threads, &r->cap_threads, r->nr_threads + 1, sizeof(*r->threads));
	r->threads[r->nr_threads] = t;
	r->thread_ht[at] = r->nr_threads + 1;
	r->last_handle = r->nr_threads;
	return r->nr_threads++;
}

/* The session's call chain as c2c takes it. */
static uint32_t load_callchain(struct c2c_load *r, const struct session_sample *ss)
{
	uint32_t n = recording__callchain(r->rec, ss, r->frames);

	for (uint32_t i = 0; i < n; i++) {
		const struct session_frame *f = &r->frames[i];

		/*
		 * perf orders frames of different objects by their dso pointers, that is by
		 * allocation order in practice: the creation order stands in for it.
		 */
		r->ccbuf[i] = (struct cc_frame){
			.dso = f->dso ? (const void *)(uintptr_t)(f->dso->index + 1) : NULL,
			.ip = f->ip, .sym = f->sym, .sym_start = f->sym_start,
		};
	}
	return n;
}

#define MAP_SHARED_ 0x01

static void load_make_c2c(struct c2c_load *r);

/* A sample as c2c takes it: perf's sample__resolve_mem on top of the session's resolution. */
static void load_resolve(struct c2c_load *r, const struct session_sample *ss,
			    struct c2c_sample *cs)
{
	const struct sample *s = ss->sample;
	const struct addr_loc *al = &ss->al;
	struct addr_loc il, dl;
	struct map *imap, *dmap;

	/* the code address in any cpumode, the data address in the sample's */
	if (s->cpumode == CPUMODE_USER && al->map)
		imap = al->map;	/* the any-cpumode search tries user first: the same answer */
	else
		imap = machine__find_any_cpumode(r->machine, al->thread, s->ip, &il);
	dmap = machine__find_map(r->machine, al->thread, s->cpumode, s->addr, &dl);

	/* every field set below: no memset on the hot path */
	cs->ip = s->ip;
	cs->addr = (s->present & SF_ADDR) ? s->addr : 0;
	cs->phys_addr = (s->present & SF_PHYS_ADDR) ? s->phys_addr : 0;
	cs->weight = s->weight;
	/* perf's default when the event has no DATA_SRC: PERF_MEM_DATA_SRC_NONE */
	cs->data_src = (s->present & SF_DATA_SRC) ? s->data_src :
		       DS_MK(OP, DS_OP_NA) | DS_MK(LVL, DS_LVL_NA) | DS_MK(SNOOP, DS_SNOOP_NA) |
		       DS_MK(LOCK, DS_LOCK_NA) | DS_MK(TLB, DS_TLB_NA);
	cs->cpu = (s->present & SF_CPU) ? s->cpu : UINT32_MAX;
	cs->cpumode = s->cpumode;
	cs->level = al->level;
	cs->pid = al->thread->pid;
	cs->tid = al->thread->tid;
	cs->thread = thread_handle(r, al->thread);
	/* the hist entry keeps al (the sample-cpumode lookup) for symbol and dso; the "no map"
	 * test looks at the any-cpumode lookup of the code address */
	cs->code_map = al->map;
	cs->code_dso = al->dso ? al->dso->short_name : NULL;
	cs->ip_rel = al->addr;
	cs->ip_mapped = imap != NULL;
	cs->period = ss->period;
	cs->cc = r->ccbuf;
	cs->cc_nr = r->callchains ? load_callchain(r, ss) : 0;
	cs->data_mapped = dmap != NULL;
	cs->data_rel = dl.addr;
	cs->data_anon = false;
	memset(&cs->data_id, 0, sizeof(cs->data_id));
	if (dmap && dmap->dso) {
		const struct dso_id *id = &dmap->dso->id;

		cs->data_id = (struct c2c_dso_id){ id->maj, id->min, id->ino, id->ino_generation };
	}
	if (dmap)
		cs->data_anon = !(dmap->flags & MAP_SHARED_) && !cs->data_id.maj &&
				!cs->data_id.min && !cs->data_id.ino && !cs->data_id.ino_generation;
}

/* Add the oldest held-back sample. */
static void load_add_pending(struct c2c_load *r)
{
	struct pending *p = &r->ring[r->pend_begin++ % PF_RING];

	c2c__add_prefetched(r->c2c, &p->cs, &p->pf);
}

#define MEM_CHECK 16384	/* samples between two looks at memory */
#define MEM_ROOM (32u << 20)	/* what the rest of lineup may still want */

static void mb(char *buf, size_t size, uint64_t bytes)
{
	snprintf(buf, size, "%.0f MB", (double)bytes / (1 << 20));
}

/*
 * A recording with more distinct entries than memory can hold: say so early (at the rate of the
 * part read so far, what the rest will need), and stop while there is still room for the next
 * tables, instead of being killed by the kernel half-way with nothing said.  True: stop (the
 * reason in r->mem_stop).
 */
static bool load_memory_check(struct c2c_load *r)
{
	uint64_t used = c2c__memory(r->c2c), ent = c2c__nr_entries(r->c2c), done = 0, total = 0;
	uint64_t left = host__memory_available(&r->mem_which);
	const struct session_stats *st = session__stats(r->session);
	bool known = session__progress(r->session, &done, &total) && done && total;
	char u[32], a[32], n[32];
	double frac = 0, more;

	if (!left)
		return false;	/* neither MemAvailable nor a limit known: nothing to say */
	/*
	 * The samples added are behind the bytes read (the session sorts a round ahead): the share
	 * of the records read that got here, times the share of the file read.
	 */
	if (known) {
		frac = (double)done / (double)total;
		if (st->nr_events[0] >= r->nr_seen)
			frac *= (double)r->nr_seen / (double)st->nr_events[0];
	}
	mb(u, sizeof(u), used);
	mb(a, sizeof(a), left);
	if (left < c2c__memory_next(r->c2c) + MEM_ROOM) {
		r->mem_stop = xasprintf("report: %s: stopped %s%.0f%% into the recording: its %"
					PRIu64 " distinct entries (cache line, offset, code "
					"address) so far take %s, %s is left (%s), and the rest "
					"would not fit; --time, --cpu, --pid, --tid or --comm read "
					"a part of it", r->o.input, known ? "" : "about ",
					100.0 * frac, ent, u, a, r->mem_which);
		return true;
	}
	/* a projection from the first 1/64 of the file is a fair one */
	if (r->mem_warned || !r->o.warn || !known || done < total / 64)
		return false;
	more = (double)c2c__memory_for((uint64_t)(ent / frac)) - (double)c2c__memory_for(ent);
	if (more + MEM_ROOM <= (double)left)
		return false;
	mb(n, sizeof(n), (uint64_t)more);
	mb(a, sizeof(a), left - MEM_ROOM);
	{
		char *msg = xasprintf("report: warning: %s: %" PRIu64 " distinct entries (cache "
				      "line, offset, code address) in the first %.0f%% of the "
				      "recording take %s: at this rate the rest needs about %s "
				      "more, and %s is left for them (%s); it may run out of memory "
				      "(--time, --cpu, --pid, --tid or --comm read a part of it)",
				      r->o.input, ent, 100.0 * frac, u, n, a, r->mem_which);

		r->o.warn(r->o.warn_ctx, msg);
		free(msg);
	}
	r->mem_warned = true;
	return false;
}

static int load_sample(void *ctx, struct session *s, const struct session_sample *ss)
{
	struct c2c_load *r = ctx;
	uint64_t seq = r->pend_end;
	struct pending *p = &r->ring[seq % PF_RING];

	if (!r->c2c)
		load_make_c2c(r);
	if (!(++r->nr_seen % MEM_CHECK) && load_memory_check(r))
		return 1;
	load_resolve(r, ss, &p->cs);
	r->pend_end++;
	/* the first step makes the sample's keys */
	p->pf.step = 0;
	c2c__prefetch(r->c2c, &p->cs, &p->pf);
	if (seq > r->pend_begin &&
	    c2c__prefetch_same(r->c2c, &r->ring[(seq - 1) % PF_RING].pf, &p->pf))
		p->pf.step = 4;	/* the previous sample's entry: add_sample's shortcut */
	if (r->callchains || r->pend_end - r->pend_begin > PF_STEPS * PF_DIST)
		load_add_pending(r);
	/* the next step of what is held back, every PF_DIST samples (4: none left) */
	for (uint64_t k = seq - PF_DIST; k >= r->pend_begin && k < seq; k -= PF_DIST)
		if (r->ring[k % PF_RING].pf.step < 4)
			c2c__prefetch(r->c2c, &r->ring[k % PF_RING].cs, &r->ring[k % PF_RING].pf);
	return 0;
}

/* The end of the recording: add what is held back. */
static void load_drain(struct c2c_load *r)
{
	while (r->pend_begin < r->pend_end)
		load_add_pending(r);
}

/* --fields and --json: the allocation records the Type and Member columns need. */
static bool load_side_sample(void *ctx, struct session *s, const struct sample *smp)
{
	struct c2c_load *r = ctx;

	report_fields__sample(r->rf, session__header(s), smp);
	return false;	/* c2c counts every sample, as perf c2c does */
}

/* ---- resolving names for the shown entries ---- */

static const char *resolve_comm(void *ctx, uint32_t h)
{
	struct c2c_load *r = ctx;

	return h < r->nr_threads ? r->threads[h]->comm : NULL;
}

/* What the symbolizer knows of @ip_rel in @map (which has a dso): 0, or non-zero when nothing. */
static int lookup_code(struct c2c_load *r, const struct map *map, uint64_t ip_rel,
		       struct symbols_loc *loc)
{
	return recording__lookup(r->rec, map, ip_rel, loc);
}

static void resolve_code(void *ctx, uint32_t h, const void *code_map, uint64_t ip, uint64_t ip_rel,
			 bool want_srcline, struct c2c_code_info *out)
{
	struct c2c_load *r = ctx;
	const struct map *map = code_map;
	struct symbols_loc loc;

	memset(out, 0, sizeof(*out));
	if (!map || !map->dso) {
		if (want_srcline)
			out->srcline = xstrdup("??:0");
		return;
	}
	out->dso = map->dso->short_name;
	if (lookup_code(r, map, ip_rel, &loc))
		return;
	if (loc.no_map) {
		/* a -k vmlinux shrinks perf's kernel map to .text: past it, no map at all */
		out->dso = NULL;
		out->no_map = true;
		out->addr = ip;
		out->have_addr = true;
		if (want_srcline)
			out->srcline = xstrdup("??:0");
		return;
	}
	if (loc.object)
		out->dso = loc.object;	/* perf's extra maps: "[kernel.kallsyms].init.text" */
	out->sym = loc.sym;
	out->sym_start = loc.sym_start;
	out->sym_object = loc.sym_is_object;
	/*
	 * perf prints a data object's offset as he->ip - map->unmap_ip(sym->start): a user map
	 * that does not map at offset 0 (a PIE) shifts it by start - pgoff ("+0xffffaaaa...").
	 * (Kernel maps perf moves or splits once it loads the image: their shift is not known
	 * here, the plain offset is printed.)
	 */
	if (loc.sym_is_object && !loc.object && !map->identity && map->dso->kind == DSO_KIND_USER)
		out->sym_start += map->start - map->pgoff;
	out->addr = loc.map_addr;	/* a .ko's map moves to .text's file offset */
	out->have_addr = true;
	if (want_srcline && loc.srcline)
		out->srcline = xstrdup(loc.srcline);
}

/* The browser's source of a Pareto row: the file and line of its code address, full path. */
int c2c_load__source(void *ctx, const struct c2c_entry *e, struct strbuf *path,
		     unsigned int *line)
{
	struct c2c_load *r = ctx;
	const struct map *map = e->code_map;
	struct symbols_loc loc;

	if (!map || !map->dso || lookup_code(r, map, e->ip_rel, &loc) || loc.no_map ||
	    !loc.nr_frames || !loc.frames[0].line || !strcmp(loc.frames[0].file, "??"))
		return -1;
	strbuf__add(path, loc.frames[0].file, strlen(loc.frames[0].file));
	*line = loc.frames[0].line;
	return 0;
}

/* ---- the header facts c2c needs ---- */

/* A cpu list ("0-3,8") into @cpu2node. */
static void cpulist_to_node(const char *s, int node, int *cpu2node, uint32_t nr_cpus)
{
	const char *p = s;

	while (p && *p) {
		char *end;
		long a = strtol(p, &end, 10), b;

		if (end == p)
			return;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
		}
		for (long i = a; i <= b; i++)
			if (i >= 0 && (uint32_t)i < nr_cpus && cpu2node[i] == -1)
				cpu2node[i] = node;
		p = *end == ',' ? end + 1 : NULL;
	}
}

/* perf's mem2node__init: memory blocks of each node, adjacent blocks merged. */
static struct c2c_mem_range *mem_ranges(const struct perf_header_info *h, size_t *nr)
{
	struct c2c_mem_range *v = NULL;
	size_t n = 0, cap = 0;
	uint64_t bsize = h->mem_block_size;

	*nr = 0;
	if (!bsize)
		return NULL;
	for (uint32_t i = 0; i < h->nr_mem_nodes; i++) {
		const struct perf_mem_node *mn = &h->mem_nodes[i];

		for (uint64_t bit = 0; bit < mn->nr_bits; bit++) {
			uint64_t start = bit * bsize;

			if (!(mn->bitmap[bit / 64] >> (bit % 64) & 1))
				continue;
			if (n && v[n - 1].end == start && v[n - 1].node == mn->node) {
				v[n - 1].end += bsize;
				continue;
			}
			v = xgrow(v, &cap, n + 1, sizeof(*v));
			v[n++] = (struct c2c_mem_range){ start, start + bsize, mn->node };
		}
	}
	/* lookups bisect: sort by start (perf's rb-tree) */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && v[j].start < v[j - 1].start; j--) {
			struct c2c_mem_range t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	*nr = n;
	return v;
}

/*
 * The c2c needs the recording's CPUs, nodes, memory ranges and line size: in pipe mode they
 * arrive as records, so it is made when the first sample is delivered (or at the end).
 */
static void load_make_c2c(struct c2c_load *r)
{
	struct c2c_config cfg = r->cfg;
	const struct perf_header_info *h = r->h;
	struct c2c_mem_range *mem;
	int *cpu2node = NULL;

	/* perf picks peer on arm64, where there are no HITMs */
	if (!r->o.display_set && h->arch && !strcmp(h->arch, "arm64"))
		cfg.display = C2C_DISPLAY_PEER;
	cfg.line_size = r->o.line_size ? r->o.line_size :
			h->cache_line_size ? h->cache_line_size : 64;
	if (cfg.line_size & (cfg.line_size - 1))
		cfg.line_size = 64;
	if (r->o.double_cl)
		cfg.line_size *= 2;
	cfg.show_all = r->o.show_all;
	r->callchains = session__callchain_mode(r->session) == SESSION_CC_FP;
	cfg.callchains = r->callchains;
	cfg.node_info = r->o.node_info > 2 ? 2 : r->o.node_info;
	cfg.want_node_stats = cfg.node_info == 1;
	cfg.nr_cpus = h->nr_cpus_avail;
	cfg.nr_nodes = h->nr_numa_nodes;
	if (cfg.nr_cpus) {
		cpu2node = xmalloc(cfg.nr_cpus * sizeof(int));
		for (uint32_t k = 0; k < cfg.nr_cpus; k++)
			cpu2node[k] = -1;
		for (uint32_t k = 0; k < h->nr_numa_nodes; k++)
			cpulist_to_node(h->numa_nodes[k].cpus, k, cpu2node, cfg.nr_cpus);
	}
	cfg.cpu2node = cpu2node;
	mem = mem_ranges(h, &cfg.nr_mem);
	cfg.mem = mem;
	r->c2c = c2c__new(&cfg);	/* copies cpu2node and mem */
	free(cpu2node);
	free(mem);
}


/* ---- the recording, once ---- */

int c2c_load__run(struct c2c_load **out, const struct c2c_load_opts *opts, char *err,
		  size_t errlen)
{
	struct c2c_load *r = xcalloc(1, sizeof(*r));
	struct recording_opts ro = {
		.path = opts->input, .symbols = { .vmlinux = opts->vmlinux, .symfs = opts->symfs },
	};
	struct session_tool tool = { .ctx = r, .sample = load_sample, .compact = true,
				     .callchains = true };
	int rc;

	*out = r;
	r->o = *opts;
	r->cfg = opts->cfg;
	r->resolver = (struct c2c_resolver){ r, resolve_comm, resolve_code };
	rc = recording__open(&r->rec, &ro, err, errlen);
	if (rc < 0)
		return rc;
	r->session = r->rec->session;
	if (opts->filter)
		session__set_filter(r->session, opts->filter);
	r->h = session__header(r->session);
	r->machine = session__machine(r->session);
	r->frames = xmalloc(SESSION_MAX_STACK * sizeof(*r->frames));
	r->ccbuf = xmalloc(SESSION_MAX_STACK * sizeof(*r->ccbuf));
	if (opts->fields) {
		rc = report_fields__new(&r->rf, r->rec, opts->fattr, err, errlen);
		if (rc < 0)
			return rc;
		report_fields__header(r->rf, r->h, opts->input);
		/* the Type and Member columns look at every sample: it is decoded whole */
		tool.side_sample = load_side_sample;
	}
	rc = session__run(r->session, &tool);
	if (r->mem_stop) {
		snprintf(err, errlen, "%s", r->mem_stop);
		return -ENOMEM;
	}
	if (rc < 0) {
		snprintf(err, errlen, "%s", session__errmsg(r->session));
		return -EINVAL;
	}
	if (!r->c2c)
		load_make_c2c(r);
	load_drain(r);
	c2c__finish(r->c2c);
	return 0;
}

void c2c_load__delete(struct c2c_load *r)
{
	if (!r)
		return;
	report_fields__delete(r->rf);
	free(r->mem_stop);
	c2c__delete(r->c2c);
	recording__close(r->rec);
	free(r->threads);
	free(r->thread_ht);
	free(r->frames);
	free(r->ccbuf);
	free(r);
}

struct c2c *c2c_load__c2c(struct c2c_load *l)
{
	return l->c2c;
}

struct session *c2c_load__session(struct c2c_load *l)
{
	return l->session;
}

const struct perf_header_info *c2c_load__header(struct c2c_load *l)
{
	return l->h;
}

struct report_fields *c2c_load__fields(struct c2c_load *l)
{
	return l->rf;
}

const struct c2c_resolver *c2c_load__resolver(struct c2c_load *l)
{
	return &l->resolver;
}
