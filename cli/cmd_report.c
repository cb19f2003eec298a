// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lineup report: perf c2c report's tables (Trace Event Information, Global Shared Cache Line
 * Event Information, Shared Data Cache Line Table, Shared Cache Line Distribution Pareto) with
 * perf's numbers, as --stdio (perf's layout, byte for byte), --json or --csv, all three driven
 * by the column tables of analyzer/c2c_columns.h.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "analyzer/c2c.h"
#include "analyzer/c2c_columns.h"
#include "analyzer/table.h"
#include "analyzer/data_src.h"
#include "cli/command.h"
#include "cli/output.h"
#include "cli/report_fields.h"
#include "dwarf/symbols.h"
#include "sampling/event.h"
#include "sampling/machine.h"
#include "sampling/perf_file.h"
#include "sampling/sample_layout.h"
#include "tui/tui.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

enum {
	OPT_INPUT = 'i',
	OPT_DISPLAY = 'd',
	OPT_COALESCE = 'c',
	OPT_NODE = 'N',
	OPT_VMLINUX = 'k',
	OPT_FORCE = 'f',
	OPT_STDIO = 1000,
	OPT_TUI,
	OPT_JSON,
	OPT_CSV,
	OPT_STATS,
	OPT_SHOW_ALL,
	OPT_NO_SOURCE,
	OPT_FULL_SYMBOLS,
	OPT_DOUBLE_CL,
	OPT_LINE_SIZE,
	OPT_SYMFS,
	OPT_TIME,
	OPT_PID,
	OPT_TID,
	OPT_CPU,
	OPT_COMM,
	OPT_FIELDS,
	OPT_DEBUG_FILE,
};

static const struct cli_option report_options[] = {
	{ OPT_INPUT, 'i', "input", "FILE", "the perf.data to read (default: perf.data; - is stdin)" },
	{ OPT_STDIO, 0, "stdio", NULL,
	  "print perf c2c's text tables (the default when standard output is not a terminal)" },
	{ OPT_TUI, 0, "tui", NULL,
	  "browse the tables in the terminal (the default on a terminal): lines, a line's Pareto "
	  "rows, a row's code and source; ? there lists the keys" },
	{ OPT_JSON, 0, "json", NULL, "print the same numbers as JSON" },
	{ OPT_CSV, 0, "csv", NULL, "print the lines and the Pareto's entries as one CSV table (its first column, table, says which)" },
	{ OPT_STATS, 0, "stats", NULL, "print only the statistics tables" },
	{ OPT_DISPLAY, 'd', "display", "MODE",
	  "sort and filter lines on tot, lcl or rmt HITMs, or peer snoops (default tot)" },
	{ OPT_COALESCE, 'c', "coalesce", "KEYS",
	  "group a line's samples by offset and these: pid,tid,iaddr,dso (default iaddr)" },
	{ OPT_NODE, 'N', "node-info", NULL,
	  "show more node detail in the Pareto (repeat: CPU counts and shares, CPU lists)" },
	{ OPT_SHOW_ALL, 0, "show-all", NULL, "show every cache line, not only the shared ones" },
	{ OPT_NO_SOURCE, 0, "no-source", NULL, "leave out the Source:Line column" },
	{ OPT_FULL_SYMBOLS, 0, "full-symbols", NULL, "do not cut symbols and source lines at 30" },
	{ OPT_DOUBLE_CL, 0, "double-cl", NULL,
	  "count pairs of adjacent lines as one (adjacent-line prefetch false sharing)" },
	{ OPT_LINE_SIZE, 0, "line-size", "BYTES",
	  "cache-line size (default: the recording's CACHE header, else 64)" },
	{ OPT_VMLINUX, 'k', "vmlinux", "FILE", "kernel image for kernel symbols" },
	{ OPT_SYMFS, 0, "symfs", "DIR", "look for objects under DIR" },
	{ OPT_FORCE, 'f', "force", NULL, "accepted for perf compatibility (no ownership check)" },
	{ OPT_TIME, 0, "time", "START,END",
	  "only samples in this time window (seconds, as perf script prints them; either may "
	  "be empty)" },
	{ OPT_PID, 0, "pid", "LIST", "only samples of these processes" },
	{ OPT_TID, 0, "tid", "LIST", "only samples of these threads" },
	{ OPT_CPU, 0, "cpu", "LIST", "only samples on these CPUs (0-3,8)" },
	{ OPT_COMM, 0, "comm", "LIST", "only samples of threads with these command names" },
	{ OPT_FIELDS, 0, "fields", NULL,
	  "add Type and Member columns to the Pareto rows (field attribution; always in --json)" },
	{ OPT_DEBUG_FILE, 0, "debug-file", "FILE",
	  "an object to take types from for the Type/Member columns (a .ko, a binary; repeatable)" },
	CLI_OPTION_END
};

enum report_format { FMT_DEFAULT, FMT_STDIO, FMT_TUI, FMT_JSON, FMT_CSV };

struct id_list {
	int64_t *v;
	size_t n, cap;
};

struct report_opts {
	const struct command *cmd;	/* for usage errors */
	const char *input;
	enum report_format format;
	const char *format_opt;		/* the format option given, for cli__output_format */
	bool stats_only, show_all, no_source, full_symbols, double_cl;
	const char *display;
	const char *coalesce;
	int node_info;
	unsigned long long line_size;
	const char *vmlinux, *symfs;
	bool has_time;
	uint64_t time_start, time_end;
	struct id_list pids, tids, cpus;
	char **comms;
	size_t nr_comms;
	bool fields;			/* --fields: Type and Member columns (cli/report_fields.h) */
	struct fields_attr_opts fattr;
};

/* "0-3,8" or "12,15" into @l; ranges only when @ranges. */
static int parse_list(const struct command *cmd, const char *opt, const char *s,
		      struct id_list *l)
{
	const char *p = s;

	while (*p) {
		char *end;
		long long a = strtoll(p, &end, 10), b;

		if (end == p || a < 0)
			goto bad;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtoll(p, &end, 10);
			if (end == p || b < a)
				goto bad;
		}
		for (long long i = a; i <= b && i - a < 1 << 20; i++) {
			l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof(*l->v));
			l->v[l->n++] = i;
		}
		if (*end == ',')
			end++;
		else if (*end)
			goto bad;
		p = end;
	}
	return 0;
bad:
	return cli__usage_error(cmd, "%s: '%s' is not a list like 0-3,8", opt, s);
}

static bool list_has(const struct id_list *l, int64_t v)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] == v)
			return true;
	return false;
}

/* Seconds as perf prints them ("12345.678901") to ns; empty means unbounded. */
static int parse_seconds(const char *s, size_t len, uint64_t *out, uint64_t dflt)
{
	char buf[64], *end;
	double v;

	if (!len) {
		*out = dflt;
		return 0;
	}
	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	v = strtod(buf, &end);
	/* not NaN, not infinite, and within what a u64 of nanoseconds holds */
	if (end == buf || *end || !(v >= 0 && v < 18446744073.0))
		return -1;
	*out = (uint64_t)(v * 1e9 + 0.5);
	return 0;
}

static int report_option(void *ctx, int id, const char *arg)
{
	struct report_opts *o = ctx;

	switch (id) {
	case OPT_INPUT:
		o->input = arg;
		break;
	case OPT_STDIO:
		o->format = FMT_STDIO;
		return cli__output_format(o->cmd, &o->format_opt, "stdio");
	case OPT_TUI:
		o->format = FMT_TUI;
		return cli__output_format(o->cmd, &o->format_opt, "tui");
	case OPT_JSON:
		o->format = FMT_JSON;
		return cli__output_format(o->cmd, &o->format_opt, "json");
	case OPT_CSV:
		o->format = FMT_CSV;
		return cli__output_format(o->cmd, &o->format_opt, "csv");
	case OPT_STATS:
		o->stats_only = true;
		break;
	case OPT_DISPLAY:
		o->display = arg;
		break;
	case OPT_COALESCE:
		if (strspn(arg, ",") == strlen(arg))
			return cli__usage_error(o->cmd, "-c: no coalesce key given in '%s' (pid, tid, "
						"iaddr, dso)", arg);
		o->coalesce = arg;
		break;
	case OPT_NODE:
		o->node_info++;
		break;
	case OPT_SHOW_ALL:
		o->show_all = true;
		break;
	case OPT_NO_SOURCE:
		o->no_source = true;
		break;
	case OPT_FULL_SYMBOLS:
		o->full_symbols = true;
		break;
	case OPT_DOUBLE_CL:
		o->double_cl = true;
		break;
	case OPT_LINE_SIZE:
		if (cli__parse_u64(o->cmd, "--line-size", arg, &o->line_size))
			return EXIT_USAGE;
		if (o->line_size < 8 || o->line_size > 4096 || (o->line_size & (o->line_size - 1)))
			return cli__usage_error(o->cmd,
						"--line-size: %s is not a power of two in 8..4096",
						arg);
		break;
	case OPT_VMLINUX: {
		struct stat st;

		if (stat(arg, &st))
			return cli__usage_error(o->cmd, "-k: cannot use '%s': %s", arg,
						strerror(errno));
		if (!S_ISREG(st.st_mode))
			return cli__usage_error(o->cmd, "-k: '%s' is not a regular file", arg);
		o->vmlinux = arg;
		break;
	}
	case OPT_SYMFS: {
		struct stat st;

		if (stat(arg, &st))
			return cli__usage_error(o->cmd, "--symfs: cannot use '%s': %s", arg,
						strerror(errno));
		if (!S_ISDIR(st.st_mode))
			return cli__usage_error(o->cmd, "--symfs: '%s' is not a directory", arg);
		o->symfs = arg;
		break;
	}
	case OPT_FORCE:
		break;
	case OPT_TIME: {
		const char *comma = strchr(arg, ',');

		if (!comma || parse_seconds(arg, comma - arg, &o->time_start, 0) ||
		    parse_seconds(comma + 1, strlen(comma + 1), &o->time_end, UINT64_MAX))
			return cli__usage_error(o->cmd,
						"--time: '%s' is not START,END in seconds", arg);
		if (o->time_start > o->time_end)
			return cli__usage_error(o->cmd, "--time: '%s': START is after END", arg);
		o->has_time = true;
		break;
	}
	case OPT_PID:
		return parse_list(o->cmd, "--pid", arg, &o->pids) ? EXIT_USAGE : 0;
	case OPT_TID:
		return parse_list(o->cmd, "--tid", arg, &o->tids) ? EXIT_USAGE : 0;
	case OPT_CPU:
		return parse_list(o->cmd, "--cpu", arg, &o->cpus) ? EXIT_USAGE : 0;
	case OPT_COMM: {
		char *dup = xstrdup(arg), *save = NULL;

		for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			o->comms = xrealloc(o->comms, (o->nr_comms + 1) * sizeof(char *));
			o->comms[o->nr_comms++] = xstrdup(t);
		}
		free(dup);
		break;
	}
	case OPT_FIELDS:
		o->fields = true;
		break;
	case OPT_DEBUG_FILE:
		fields_list__add(&o->fattr.debug_files, arg);
		break;
	}
	return 0;
}

/* ---- the session: machine, symbols, per-dso ids ---- */

struct report {
	struct report_opts *o;
	struct perf_file *pf;
	const struct perf_header_info *h;
	struct machine *machine;
	struct symbols *symbols;
	struct c2c *c2c;
	struct c2c_dso_id *dso_ids;	/* by dso index */
	bool *dso_id_set;
	size_t nr_dso_ids;
	struct thread **threads;	/* c2c thread handle -> thread */
	size_t nr_threads, cap_threads;
	uint32_t *thread_ht;
	size_t ht_cap;
	struct thread *last_thread;
	uint32_t last_handle;
	char *grouping;			/* "offset,iaddr" */
	struct c2c_config cfg;		/* from the options; the rest from the header */
	int cc_mode;			/* enum cc_mode, CC_UNKNOWN until the events are known */
	struct cc_frame *ccbuf;		/* one sample's resolved call chain */
	int max_stack;			/* perf's sysctl_perf_event_max_stack */
	bool raw_samples;		/* the reader hands samples undecoded (queue__fast_sample) */
	struct sample_layout *layouts;	/* by event */
	size_t nr_layouts;
	struct report_fields *fields;	/* --fields in the browser (its add_columns) */
};

/*
 * perf's call-chain modes (setup_callchain): frame pointers (CALLCHAIN) are resolved and shown
 * as graphs; DWARF (REGS_USER + STACK_USER) and LBR (BRANCH_STACK) would need unwinding and
 * branch stitching, which lineup does not do.
 */
enum cc_mode { CC_UNKNOWN = -1, CC_NONE, CC_FP, CC_UNSUPPORTED };

#define PERF_MAX_STACK_DEPTH_ 127
#define PERF_CONTEXT_HV_ ((uint64_t)-32)
#define PERF_CONTEXT_KERNEL_ ((uint64_t)-128)
#define PERF_CONTEXT_USER_ ((uint64_t)-512)
#define PERF_CONTEXT_MAX_ ((uint64_t)-4095)

static void report__cc_mode(struct report *r)
{
	uint64_t t = 0;

	for (uint32_t k = 0; k < r->h->nr_evsels; k++)
		t |= r->h->evsels[k].attr.sample_type;
	if (!(t & SF_CALLCHAIN))
		r->cc_mode = CC_NONE;
	else if ((t & SF_REGS_USER && t & SF_STACK_USER) || (t & SF_BRANCH_STACK))
		r->cc_mode = CC_UNSUPPORTED;
	else
		r->cc_mode = CC_FP;
}

/* perf's sample->period: the sample's PERIOD, else the event's sample_period. */
static uint64_t sample_period(const struct report *r, const struct sample *s)
{
	if (s->present & SF_PERIOD)
		return s->period;
	if (s->evsel < r->h->nr_evsels)
		return r->h->evsels[s->evsel].attr.sample_period;
	return 0;
}

/*
 * perf's thread__resolve_callchain_sample (frame pointers, callee order): context markers set
 * the cpumode of the frames after them (user at first), an unknown marker empties the chain, at
 * most max_stack frames, and a chain longer than PERF_MAX_STACK_DEPTH is dropped.
 */
static uint32_t resolve_chain(struct report *r, struct thread *t, const struct sample *s)
{
	uint8_t cpumode = CPUMODE_USER;
	uint32_t n = 0;
	int entries = 0;

	if (!(s->present & SF_CALLCHAIN) || !s->callchain_nr ||
	    s->callchain_nr > PERF_MAX_STACK_DEPTH_)
		return 0;
	for (uint64_t i = 0; i < s->callchain_nr && entries < r->max_stack; i++) {
		uint64_t ip = s->callchain[i];
		struct addr_loc loc;
		struct cc_frame *fr;

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
		fr = &r->ccbuf[n++];
		fr->ip = ip;
		fr->dso = NULL;
		fr->sym = NULL;
		fr->sym_start = 0;
		if (machine__find_map(r->machine, t, cpumode, ip, &loc) && loc.map->dso) {
			const struct dso *d = loc.map->dso;
			struct symbols_dso *sd = symbols__dso(r->symbols, d->long_name, d->short_name,
							      (enum symbols_dso_kind)d->kind,
							      d->build_id, d->build_id_size);
			const char *name;
			uint64_t start;
			bool obj;

			/*
			 * perf orders frames of different objects by their dso pointers, that is
			 * by allocation order in practice: the creation order stands in for it.
			 */
			fr->dso = (const void *)(uintptr_t)(d->index + 1);
			if (!symbols__find_sym(r->symbols, sd, loc.addr, &name, &start, &obj)) {
				fr->sym = name;
				fr->sym_start = start;
			}
		}
	}
	return n;
}


/* The machine never frees a thread, so its pointer is a stable key; c2c wants a u32 handle. */
static uint32_t thread_handle(struct report *r, struct thread *t)
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

/* The MMAP2 id bytes, read when the record arrives (its payload does not outlive the reader). */
static bool mmap2_id(const struct record *rec, struct c2c_dso_id *id)
{
	/*
	 * perf reads maj, min, ino and ino_generation from MMAP2's union even when the record
	 * carries a build-id there instead (PERF_RECORD_MISC_MMAP_BUILD_ID): its dso id is then
	 * made of the build-id's bytes.  MMAP records have none.
	 */
	const unsigned char *p;

	memset(id, 0, sizeof(*id));
	if (!rec->mmap.is_mmap2 || !rec->payload || rec->size < 8 + 56)
		return false;
	p = (const unsigned char *)rec->payload + 32;
	memcpy(&id->maj, p, 4);
	memcpy(&id->min, p + 4, 4);
	memcpy(&id->ino, p + 8, 8);
	memcpy(&id->ino_generation, p + 16, 8);
	return true;
}

static void note_dso_id(struct report *r, const struct record *rec, const struct c2c_dso_id *id)
{
	struct thread *t;
	struct addr_loc loc;
	struct dso *dso;

	t = machine__findnew_thread(r->machine, rec->mmap.pid, rec->mmap.tid);
	if (!machine__find_map(r->machine, t, rec->misc & CPUMODE_MASK, rec->mmap.start, &loc))
		return;
	dso = loc.dso;
	if (!dso)
		return;
	if (dso->index >= r->nr_dso_ids) {
		size_t n = dso->index + 16;

		r->dso_ids = xrealloc(r->dso_ids, n * sizeof(*r->dso_ids));
		r->dso_id_set = xrealloc(r->dso_id_set, n * sizeof(*r->dso_id_set));
		memset(r->dso_ids + r->nr_dso_ids, 0, (n - r->nr_dso_ids) * sizeof(*r->dso_ids));
		memset(r->dso_id_set + r->nr_dso_ids, 0, (n - r->nr_dso_ids) * sizeof(bool));
		r->nr_dso_ids = n;
	}
	/* perf's dso keeps the id it was created with */
	if (!r->dso_id_set[dso->index]) {
		r->dso_id_set[dso->index] = true;
		r->dso_ids[dso->index] = *id;
	}
}

static struct c2c_dso_id dso_id_of(const struct report *r, const struct dso *dso)
{
	static const struct c2c_dso_id zero;

	if (dso && dso->index < r->nr_dso_ids)
		return r->dso_ids[dso->index];
	return zero;
}

static bool comm_selected(const struct report *r, const struct thread *t)
{
	for (size_t i = 0; i < r->o->nr_comms; i++)
		if (t->comm && !strcmp(t->comm, r->o->comms[i]))
			return true;
	return false;
}

#define MAP_SHARED_ 0x01

static void report__make_c2c(struct report *r);

/*
 * A sample as c2c takes it: its thread and maps resolved (perf's machine__resolve and
 * sample__resolve_mem), its call chain into r->ccbuf.  False when a filter drops it.
 */
static bool report__resolve(struct report *r, const struct sample *s, struct c2c_sample *out)
{
	struct c2c_sample *cs = out;	/* every field set below: no memset on the hot path */
	struct addr_loc al, il, dl;
	struct map *imap, *dmap;

	if (r->o->has_time &&
	    (!(s->present & SF_TIME) || s->time < r->o->time_start || s->time > r->o->time_end))
		return false;
	if (r->o->pids.n && !list_has(&r->o->pids, (int32_t)s->pid))
		return false;
	if (r->o->tids.n && !list_has(&r->o->tids, (int32_t)s->tid))
		return false;
	if (r->o->cpus.n && (!(s->present & SF_CPU) || !list_has(&r->o->cpus, s->cpu)))
		return false;

	/* perf's machine__resolve: the thread and the ip's map in the sample's cpumode */
	machine__resolve(r->machine, s, &al);
	if (r->o->nr_comms && !comm_selected(r, al.thread))
		return false;
	/* sample__resolve_mem: the code address in any cpumode, the data address in the
	 * sample's */
	if (s->cpumode == CPUMODE_USER && al.map)
		imap = al.map;	/* the any-cpumode search tries user first: the same answer */
	else
		imap = machine__find_any_cpumode(r->machine, al.thread, s->ip, &il);
	dmap = machine__find_map(r->machine, al.thread, s->cpumode, s->addr, &dl);

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
	cs->level = al.level;
	cs->pid = al.thread->pid;
	cs->tid = al.thread->tid;
	cs->thread = thread_handle(r, al.thread);
	/* the hist entry keeps al (the sample-cpumode lookup) for symbol and dso; the "no map"
	 * test looks at the any-cpumode lookup of the code address */
	cs->code_map = al.map;
	cs->code_dso = al.dso ? al.dso->short_name : NULL;
	cs->ip_rel = al.addr;
	cs->ip_mapped = imap != NULL;
	cs->period = sample_period(r, s);
	cs->cc = r->ccbuf;
	cs->cc_nr = r->cc_mode == CC_FP ? resolve_chain(r, al.thread, s) : 0;
	cs->data_mapped = dmap != NULL;
	cs->data_rel = dl.addr;
	cs->data_anon = false;
	memset(&cs->data_id, 0, sizeof(cs->data_id));
	if (dmap) {
		cs->data_id = dso_id_of(r, dmap->dso);
		cs->data_anon = !(dmap->flags & MAP_SHARED_) && !cs->data_id.maj &&
				!cs->data_id.min && !cs->data_id.ino && !cs->data_id.ino_generation;
	}
	return true;
}

static void report__sample(struct report *r, const struct sample *s)
{
	struct c2c_sample cs;

	if (!report__resolve(r, s, &cs))
		return;
	if (!r->c2c)
		report__make_c2c(r);
	c2c__add_sample(r->c2c, &cs);
}

/* ---- perf's ordered events ---- */

/*
 * perf report sorts the records it reads by time before it uses them (ordered_events): records
 * with a timestamp are queued; at each FINISHED_ROUND those up to the largest timestamp queued
 * before the previous round are delivered in time order (ties in arrival order); records
 * without a timestamp are delivered at once; the rest at the end.  The order matters to the
 * numbers: the maps a sample is resolved against, the first sample of an entry (what it shows),
 * PA cnt (changes of the physical address) and the running means.  Memory: two rounds.
 */
/*
 * 64 bytes an item, one cache line (the times and the call chains are kept apart): two rounds
 * of samples are written and read back a round later, the most memory traffic after the file.
 */
struct qsample {
	uint64_t ip, addr, phys_addr, weight, data_src, period;
	uint32_t pid, tid;
};

struct qitem {
	/*
	 * QI_REC, the cpumode (QI_CPUMODE_SHIFT) and the sample_type bits a sample uses (all
	 * below 2^24), in one word written with one store: a bit-field would be read first,
	 * and a new queue slot is not in the cache.
	 */
	uint32_t flags;
	uint32_t cpu;			/* a sample's */
	union {
		struct qsample s;
		struct {
			struct record *rec;	/* owned, strings duplicated */
			struct c2c_dso_id id;
		} r;
	};
};
_Static_assert(sizeof(struct qitem) == 64, "queue items grew");

#define QI_PRESENT_MASK 0xffffffu
#define QI_CPUMODE_SHIFT 24
#define QI_REC (1u << 31)

/*
 * The queue: a ring of items in arrival order (an item's arrival number is its slot:
 * v[seq & (cap - 1)]), cut into runs of non-decreasing time.  A perf.data holds each CPU's
 * buffer in turn, so a round is a few long runs; a flush merges the runs' heads by time, then
 * arrival (a tournament tree, or a heap past 256 runs), up to the limit.  Each run's delivered
 * items are a prefix of it, so the live items stay runs; the ring's space is reclaimed from
 * its oldest run.
 */
struct qrun {
	uint64_t begin, end;		/* live items: arrival numbers [begin, end) */
};

struct qhead {
	uint64_t time, seq;
	uint32_t run;
};

struct queue {
	struct qitem *v;		/* 64-aligned */
	uint64_t *times;		/* the items' times, apart: the merge reads only these */
	uint64_t **ccs;			/* the items' call chains (nr, ips), only once there is one */
	uint64_t cap;			/* a power of two */
	uint64_t head, tail;		/* slots [head, tail) in use (delivered ones among them) */
	uint64_t n;			/* live items */
	struct qrun *runs;		/* in arrival order */
	size_t nr_runs, cap_runs;
	struct qhead *heap;		/* the general merge's */
	size_t cap_heap;
	uint64_t *tree;			/* the packed merge's (queue__merge_packed) */
	size_t cap_tree;
	uint64_t max_time;		/* the largest time ever queued */
	uint64_t *order;		/* one flush's delivery order */
	size_t cap_order;
	uint64_t last_time;		/* the newest item's time */
	uint64_t next_flush, max_ts, tail_ts;
	int ordered;			/* -1: not decided yet */
};

static void report__record(struct report *r, const struct record *rec, const struct c2c_dso_id *id)
{
	machine__process_record(r->machine, rec);
	if (rec->type == REC_MMAP2 || rec->type == REC_MMAP)
		note_dso_id(r, rec, id);
}

/* @cc: the item's call chain (a block of nr, then the ips), or NULL. */
static void qsample__to_sample(const struct qitem *it, uint64_t time, const uint64_t *cc,
			       struct sample *s)
{
	const struct qsample *q = &it->s;

	s->present = it->flags & QI_PRESENT_MASK;
	s->cpumode = (it->flags >> QI_CPUMODE_SHIFT) & 0x7f;
	s->time = time;
	s->ip = q->ip;
	s->addr = q->addr;
	s->phys_addr = q->phys_addr;
	s->weight = q->weight;
	s->data_src = q->data_src;
	s->pid = q->pid;
	s->tid = q->tid;
	s->cpu = it->cpu;
	s->period = q->period;
	s->present |= SF_PERIOD;	/* resolved when queued */
	s->callchain = cc ? cc + 1 : NULL;
	s->callchain_nr = cc ? cc[0] : 0;
}

static void qrec__free(struct record *rec)
{
	if (rec->type == REC_COMM)
		free((void *)rec->comm.comm);
	else if (rec->type == REC_MMAP || rec->type == REC_MMAP2)
		free((void *)rec->mmap.filename);
	free(rec);
}

static void deliver_record(struct report *r, struct qitem *it)
{
	if (!it->r.rec)
		return;		/* a record c2c has no use for */
	report__record(r, it->r.rec, &it->r.id);
	qrec__free(it->r.rec);
}

static struct qitem *queue__at(const struct queue *q, uint64_t seq)
{
	return &q->v[seq & (q->cap - 1)];
}

static uint64_t queue__time(const struct queue *q, uint64_t seq)
{
	return q->times[seq & (q->cap - 1)];
}

static uint64_t *queue__cc(const struct queue *q, uint64_t seq)
{
	return q->ccs ? q->ccs[seq & (q->cap - 1)] : NULL;
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

#define QT_RUN_BITS 8
#define QT_MAX_TIME ((1ULL << (64 - QT_RUN_BITS)) - 2)

/*
 * queue__take's merge for the common case, up to 256 runs and times below 2^56: a tournament
 * tree over the runs keyed by time << 8 | run, one branchless min a level.  Runs are in
 * arrival order, so the lower run index breaks a tie as the arrival number would.
 */
static size_t queue__merge_packed(struct queue *q, uint64_t limit)
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

		if (n == q->cap_order)
			q->order = xgrow(q->order, &q->cap_order, n + 1, sizeof(*q->order));
		q->order[n++] = run->begin++;
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
static size_t queue__take(struct queue *q, uint64_t limit)
{
	size_t nh = 0, n = 0, k = 0;

	if (q->nr_runs == 1) {
		/* one run (a time-sorted file): its prefix, nothing to merge */
		struct qrun *run = &q->runs[0];

		while (run->begin < run->end && queue__time(q, run->begin) <= limit) {
			if (n == q->cap_order)
				q->order = xgrow(q->order, &q->cap_order, n + 1, sizeof(*q->order));
			q->order[n++] = run->begin++;
		}
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

		if (n == q->cap_order)
			q->order = xgrow(q->order, &q->cap_order, n + 1, sizeof(*q->order));
		q->order[n++] = top->seq;
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
static void queue__grow(struct queue *q)
{
	uint64_t cap = q->cap && q->n < q->cap / 2 ? q->cap : q->cap ? 2 * q->cap : 4096;
	struct qitem *v;
	uint64_t *t = xmalloc_lines(cap * sizeof(*t));
	uint64_t **cc = q->ccs ? xcalloc(cap, sizeof(*cc)) : NULL;
	uint64_t k = 0;

	/* an item a cache line (the alignment is for speed only); 2 MB pages: the ring is ~10 MB */
	v = xmalloc_lines(cap * sizeof(*v));

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

static struct qitem *queue__add(struct queue *q, uint64_t time)
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
	q->n++;
	q->times[q->tail & (q->cap - 1)] = time;
	if (q->ccs)
		q->ccs[q->tail & (q->cap - 1)] = NULL;
	it = queue__at(q, q->tail++);
	/* slots a round ahead are out of the cache: ask for them before they are written */
	__builtin_prefetch(queue__at(q, q->tail + 16), 1);
	return it;
}

/*
 * Aggregation misses the cache (a sample's line and entry are anywhere in c2c's tables), so
 * a flush resolves samples PF_STEPS * PF_DIST ahead of the one it adds and prefetches what
 * each will touch, one dependent step every PF_DIST samples.  Resolving stops at a record
 * (which can change the maps) until that record is delivered; call chains share r->ccbuf,
 * so with them nothing is resolved ahead.
 */
#define PF_DIST 3
#define PF_STEPS 4
#define PF_RING 32	/* > PF_STEPS * PF_DIST, a power of two */

struct pending {
	struct c2c_sample cs;
	struct c2c_prefetch pf;
	bool keep;
};

/* Deliver the queued records with time <= @limit, in order. */
static void queue__flush(struct report *r, struct queue *q, uint64_t limit)
{
	struct pending ring[PF_RING];
	size_t n = queue__take(q, limit), i = 0, j = 0;
	size_t ahead = r->cc_mode == CC_FP ? 1 : PF_STEPS * PF_DIST;

	_Static_assert(PF_RING > PF_STEPS * PF_DIST, "prefetch ring too small");
	for (i = 0; i < n; i++) {
		struct qitem *it = queue__at(q, q->order[i]);
		struct pending *p;

		/* resolve ahead, up to the next record */
		for (; j < n && j < i + ahead; j++) {
			struct qitem *jt = queue__at(q, q->order[j]);
			struct sample s;

			if (jt->flags & QI_REC)
				break;
			/* the items were written a round ago, runs interleave: fetch ahead */
			if (j + PF_RING < n)
				/* (one line: an item is 64 bytes, 64-aligned) */
				__builtin_prefetch(queue__at(q, q->order[j + PF_RING]));
			p = &ring[j % PF_RING];
			qsample__to_sample(jt, queue__time(q, q->order[j]), queue__cc(q, q->order[j]),
					   &s);
			p->keep = report__resolve(r, &s, &p->cs);
			if (p->keep) {
				const struct pending *prev = &ring[(j - 1) % PF_RING];

				if (!r->c2c)
					report__make_c2c(r);
				if (j > i && prev->keep && c2c__same_entry(r->c2c, &prev->cs, &p->cs)) {
					/* the previous sample's entry: add_sample's shortcut */
					p->pf.step = 4;
					p->pf.have_lhash = p->pf.have_ehash = false;
					continue;
				}
				p->pf.step = 0;
				c2c__prefetch(r->c2c, &p->cs, &p->pf);
			}
		}
		if (j == i) {	/* a record */
			deliver_record(r, it);
			j++;
			continue;
		}
		for (size_t k = i + PF_DIST; k < j; k += PF_DIST) {
			p = &ring[k % PF_RING];
			if (p->keep)
				c2c__prefetch(r->c2c, &p->cs, &p->pf);
		}
		p = &ring[i % PF_RING];
		if (p->keep)
			c2c__add_prefetched(r->c2c, &p->cs, &p->pf);
		free(queue__cc(q, q->order[i]));
	}
}

/*
 * The reader has just written *rec field by field: copying it with 16-byte vector loads
 * would stall on store forwarding (a fifth of the run time), so no SLP vectorization here.
 */
__attribute__((optimize("no-tree-slp-vectorize")))
static void queue__record(struct report *r, struct queue *q, const struct record *rec)
{
	struct c2c_dso_id id;
	uint64_t t = UINT64_MAX;

	mmap2_id(rec, &id);
	/*
	 * perf orders nothing when the first event lacks sample_id_all (c2c's tool asks for
	 * ordering_requires_timestamps): everything then goes in file order.
	 */
	if (q->ordered < 0) {
		const struct perf_header_info *h = r->h;

		q->ordered = h->nr_evsels &&
			     perf_attr__flag(&h->evsels[0].attr, ATTR_SAMPLE_ID_ALL);
		report__cc_mode(r);
	}
	if (!q->ordered) {
		/* no timestamp taken: delivered at once below */
	} else if (rec->type == REC_SAMPLE) {
		if (rec->sample.present & SF_TIME)
			t = rec->sample.time;
	} else if (rec->has_sample_id && (rec->sample.present & SF_TIME)) {
		t = rec->sample.time;
	}
	if (t == UINT64_MAX) {
		if (rec->type == REC_SAMPLE)
			report__sample(r, &rec->sample);
		else
			report__record(r, rec, &id);
		return;
	}
	if (rec->type == REC_SAMPLE) {
		const struct sample *s = &rec->sample;
		struct qitem *it = queue__add(q, t);

		it->flags = (uint32_t)(s->present & QI_PRESENT_MASK) |
			    (uint32_t)(s->cpumode & 0x7f) << QI_CPUMODE_SHIFT;
		it->s.ip = s->ip;
		it->s.addr = s->addr;
		it->s.phys_addr = s->phys_addr;
		it->s.weight = s->weight;
		it->s.data_src = s->data_src;
		it->s.pid = s->pid;
		it->s.tid = s->tid;
		it->cpu = s->cpu;
		it->s.period = sample_period(r, s);
		if (r->cc_mode == CC_FP && (s->present & SF_CALLCHAIN) && s->callchain_nr &&
		    s->callchain_nr <= PERF_MAX_STACK_DEPTH_) {
			uint64_t *cc = xmalloc((s->callchain_nr + 1) * sizeof(uint64_t));
			uint64_t slot = (q->tail - 1) & (q->cap - 1);

			cc[0] = s->callchain_nr;
			memcpy(cc + 1, s->callchain, s->callchain_nr * sizeof(uint64_t));
			if (!q->ccs)
				q->ccs = xcalloc(q->cap, sizeof(*q->ccs));
			q->ccs[slot] = cc;
		}
	} else {
		struct qitem *it;
		struct record *copy;

		/*
		 * Records the machine model does not use still take their place in the queue,
		 * as in perf: they move its max_timestamp and so the next round's limit.
		 */
		if (rec->type != REC_MMAP && rec->type != REC_MMAP2 && rec->type != REC_COMM &&
		    rec->type != REC_FORK && rec->type != REC_EXIT) {
			it = queue__add(q, t);
			it->flags = QI_REC;
			it->r.rec = NULL;
			return;
		}
		copy = xmalloc(sizeof(*copy));
		*copy = *rec;
		copy->payload = NULL;
		if (rec->type == REC_COMM)
			copy->comm.comm = rec->comm.comm ? xstrdup(rec->comm.comm) : NULL;
		else if (rec->type == REC_MMAP || rec->type == REC_MMAP2)
			copy->mmap.filename = rec->mmap.filename ? xstrdup(rec->mmap.filename) : NULL;
		it = queue__add(q, t);
		it->flags = QI_REC;
		it->r.rec = copy;
		it->r.id = id;
	}
}

/* The fixed layout of event @evsel's samples (events are added in pipe mode: recomputed). */
static const struct sample_layout *report__layout(struct report *r, uint32_t evsel)
{
	if (evsel >= r->nr_layouts) {
		r->nr_layouts = r->h->nr_evsels;
		r->layouts = xrealloc(r->layouts, r->nr_layouts * sizeof(*r->layouts));
		for (size_t k = 0; k < r->nr_layouts; k++)
			sample_layout__init(&r->layouts[k], &r->h->evsels[k].attr, r->h->big_endian);
	}
	return &r->layouts[evsel];
}

/*
 * queue__record for a raw sample of a fixed layout: the fields c2c uses go straight from the
 * payload into the queue, the same values perf_sample__decode would give.  False when the
 * sample needs the general path (a variable layout, a short payload, no time, unordered).
 */
static bool queue__fast_sample(struct report *r, struct queue *q, const struct record *rec)
{
	const struct sample_layout *l = report__layout(r, rec->sample.evsel);
	const void *p = rec->payload;
	struct qitem *it;
	uint64_t w;

	if (!l->fixed || rec->size - 8u < l->len || l->time < 0 || q->ordered != 1)
		return false;
	it = queue__add(q, sample_layout__u64(p, l->time));
	it->flags = (uint32_t)(l->type & QI_PRESENT_MASK) |
		    (uint32_t)(rec->misc & CPUMODE_MASK & 0x7f) << QI_CPUMODE_SHIFT;
	it->s.ip = l->ip >= 0 ? sample_layout__u64(p, l->ip) : 0;
	it->s.addr = l->addr >= 0 ? sample_layout__u64(p, l->addr) : 0;
	it->s.phys_addr = l->phys_addr >= 0 ? sample_layout__u64(p, l->phys_addr) : 0;
	w = l->weight >= 0 ? sample_layout__u64(p, l->weight) : 0;
	it->s.weight = (l->type & SF_WEIGHT) ? w : (uint32_t)w;
	it->s.data_src = l->data_src >= 0 ? sample_layout__u64(p, l->data_src) : 0;
	it->s.pid = l->tid >= 0 ? sample_layout__u32(p, l->tid) : 0;
	it->s.tid = l->tid >= 0 ? sample_layout__u32(p, l->tid + 4) : 0;
	it->cpu = l->cpu >= 0 ? sample_layout__u32(p, l->cpu) : 0;
	it->s.period = l->period >= 0 ? sample_layout__u64(p, l->period) :
		       r->h->evsels[rec->sample.evsel].attr.sample_period;
	return true;
}

/* ---- resolving names for the shown entries ---- */

static const char *resolve_comm(void *ctx, uint32_t h)
{
	struct report *r = ctx;

	return h < r->nr_threads ? r->threads[h]->comm : NULL;
}

/* What the symbolizer knows of @ip_rel in @map (which has a dso): 0, or non-zero when nothing. */
static int lookup_code(struct report *r, const struct map *map, uint64_t ip_rel,
		       struct symbols_loc *loc)
{
	struct symbols_map sm;
	struct symbols_dso *sd;

	sd = symbols__dso(r->symbols, map->dso->long_name, map->dso->short_name,
			  (enum symbols_dso_kind)map->dso->kind, map->dso->build_id,
			  map->dso->build_id_size);
	sm.start = map->start;
	sm.pgoff = map->pgoff;
	sm.identity = map->identity;
	sm.ref_reloc = map->ref_reloc;
	sm.ref_reloc_name = map->ref_reloc_name;
	return symbols__lookup(r->symbols, sd, &sm, ip_rel, loc);
}

static void resolve_code(void *ctx, uint32_t h, const void *code_map, uint64_t ip, uint64_t ip_rel,
			 bool want_srcline, struct c2c_code_info *out)
{
	struct report *r = ctx;
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
static int code_source(void *ctx, const struct c2c_entry *e, struct strbuf *path,
		       unsigned int *line)
{
	struct report *r = ctx;
	const struct map *map = e->code_map;
	struct symbols_loc loc;

	if (!map || !map->dso || lookup_code(r, map, e->ip_rel, &loc) || loc.no_map ||
	    !loc.nr_frames || !loc.frames[0].line || !strcmp(loc.frames[0].file, "??"))
		return -1;
	strbuf__add(path, loc.frames[0].file, strlen(loc.frames[0].file));
	*line = loc.frames[0].line;
	return 0;
}

static void fields_columns(void *ctx, struct c2c_view *v, const struct c2c *c)
{
	struct report *r = ctx;

	report_fields__add_columns(r->fields, v, c);
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

static int parse_coalesce(const struct command *cmd, const char *s, struct c2c_config *cfg)
{
	char *dup = xstrdup(s), *save = NULL;
	int ret = 0;

	cfg->nr_keys = 0;
	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		enum c2c_key k;

		if (!strcmp(t, "pid"))
			k = C2C_KEY_PID;
		else if (!strcmp(t, "tid"))
			k = C2C_KEY_TID;
		else if (!strcmp(t, "iaddr"))
			k = C2C_KEY_IADDR;
		else if (!strcmp(t, "dso"))
			k = C2C_KEY_DSO;
		else if (!strcmp(t, "offset"))
			continue;
		else {
			ret = cli__usage_error(cmd, "-c: unknown coalesce key '%s' (pid, tid, "
						  "iaddr, dso)", t);
			break;
		}
		for (unsigned i = 0; i < cfg->nr_keys; i++)
			if (cfg->keys[i] == k) {
				ret = cli__usage_error(cmd, "-c: coalesce key '%s' given twice", t);
				goto out;
			}
		if (cfg->nr_keys < C2C_MAX_KEYS)
			cfg->keys[cfg->nr_keys++] = k;
	}
out:
	free(dup);
	return ret;
}

/* ---- call graphs under the Pareto rows (perf's callchain__fprintf_graph) ---- */

static void cc_margin(FILE *out, int left)
{
	fprintf(out, "            %*s", left, "");
}

static void cc_name(FILE *out, const struct cc_frame *fr)
{
	if (fr->sym)
		fputs(fr->sym, out);
	else
		fprintf(out, "%#" PRIx64, fr->ip);
}

static void cc_graph_line(FILE *out, int depth, int mask, int left)
{
	cc_margin(out, left);
	for (int i = 0; i < depth; i++)
		fputs(mask & (1 << i) ? "|          " : "           ", out);
	fputc('\n', out);
}

static void cc_frame_line(FILE *out, const struct cc_node *n, const struct cc_frame *fr, int depth,
			  int mask, int nth, uint64_t total, int left)
{
	cc_margin(out, left);
	for (int i = 0; i < depth; i++) {
		fputc(mask & (1 << i) ? '|' : ' ', out);
		if (!nth && i == depth - 1)
			fprintf(out, "--%.2f%%--", total ? cc_node__cumul(n) * 100.0 / total : 0.0);
		else
			fputs("          ", out);
	}
	cc_name(out, fr);
	fputc('\n', out);
}

static size_t cc_graph_children(FILE *out, const struct cc_forest *f, uint32_t parent,
				uint64_t total, int depth, int mask, int left)
{
	const struct cc_node *p = &f->nodes[parent];
	int new_mask = mask;
	size_t printed = 0;

	for (uint32_t k = 0; k < p->nr_children; k++) {
		const struct cc_node *c = &f->nodes[p->children[k]];

		/* the pipe of this depth stops at the last child */
		if (k + 1 == p->nr_children)
			new_mask &= ~(1 << (depth - 1));
		cc_graph_line(out, depth, mask, left);
		for (uint32_t i = 0; i < c->nr_frames; i++)
			cc_frame_line(out, c, &f->frames[c->frame + i], depth, new_mask, i, total, left);
		printed += 1 + c->nr_frames;
		printed += cc_graph_children(out, f, p->children[k], total, depth + 1,
					     new_mask | (1 << depth), left);
	}
	return printed;
}

/* @total: the line's period (perf's hists total), @parent: the entry's. */
static void cc_graph(FILE *out, const struct cc_forest *f, uint32_t root, uint64_t total,
		     uint64_t parent)
{
	const struct cc_node *r = &f->nodes[root];
	size_t printed = 0;
	int left = 0;

	/* a single root holding all the entry's period is printed without a percentage */
	if (r->nr_children == 1 && cc_node__cumul(&f->nodes[r->children[0]]) == parent) {
		const struct cc_node *n = &f->nodes[r->children[0]];

		for (uint32_t i = 0; i < n->nr_frames; i++) {
			if (!i) {
				cc_margin(out, left);
				fputs("|\n", out);
				cc_margin(out, left);
				fputs("---", out);
				left += 3;
			} else {
				cc_margin(out, left);
			}
			cc_name(out, &f->frames[n->frame + i]);
			fputc('\n', out);
			printed++;
		}
		root = r->children[0];
	}
	printed += cc_graph_children(out, f, root, total, 1, 1, left);
	if (printed)
		fputc('\n', out);
}

/* ---- output: stdio (perf's layout) ---- */

static void print_stats(FILE *out, const struct c2c_stats *st)
{
	int llc_misses = c2c_stats__llc_misses(st);

	fprintf(out, "=================================================\n");
	fprintf(out, "            Trace Event Information              \n");
	fprintf(out, "=================================================\n");
	fprintf(out, "  Total records                     : %10d\n", (int)st->nr_entries);
	fprintf(out, "  Locked Load/Store Operations      : %10d\n", (int)st->locks);
	fprintf(out, "  Load Operations                   : %10d\n", (int)st->load);
	fprintf(out, "  Loads - uncacheable               : %10d\n", (int)st->ld_uncache);
	fprintf(out, "  Loads - IO                        : %10d\n", (int)st->ld_io);
	fprintf(out, "  Loads - Miss                      : %10d\n", (int)st->ld_miss);
	fprintf(out, "  Loads - no mapping                : %10d\n", (int)st->ld_noadrs);
	fprintf(out, "  Load Fill Buffer Hit              : %10d\n", (int)st->ld_fbhit);
	fprintf(out, "  Load L1D hit                      : %10d\n", (int)st->ld_l1hit);
	fprintf(out, "  Load L2D hit                      : %10d\n", (int)st->ld_l2hit);
	fprintf(out, "  Load LLC hit                      : %10d\n",
		(int)(st->ld_llchit + st->lcl_hitm));
	fprintf(out, "  Load Local HITM                   : %10d\n", (int)st->lcl_hitm);
	fprintf(out, "  Load Remote HITM                  : %10d\n", (int)st->rmt_hitm);
	fprintf(out, "  Load Remote HIT                   : %10d\n", (int)st->rmt_hit);
	fprintf(out, "  Load Local DRAM                   : %10d\n", (int)st->lcl_dram);
	fprintf(out, "  Load Remote DRAM                  : %10d\n", (int)st->rmt_dram);
	fprintf(out, "  Load MESI State Exclusive         : %10d\n", (int)st->ld_excl);
	fprintf(out, "  Load MESI State Shared            : %10d\n", (int)st->ld_shared);
	fprintf(out, "  Load LLC Misses                   : %10d\n", llc_misses);
	fprintf(out, "  Load access blocked by data       : %10d\n", (int)st->blk_data);
	fprintf(out, "  Load access blocked by address    : %10d\n", (int)st->blk_addr);
	fprintf(out, "  Load HIT Local Peer               : %10d\n", (int)st->lcl_peer);
	fprintf(out, "  Load HIT Remote Peer              : %10d\n", (int)st->rmt_peer);
	fprintf(out, "  LLC Misses to Local DRAM          : %10.1f%%\n",
		((double)st->lcl_dram / (double)llc_misses) * 100.);
	fprintf(out, "  LLC Misses to Remote DRAM         : %10.1f%%\n",
		((double)st->rmt_dram / (double)llc_misses) * 100.);
	fprintf(out, "  LLC Misses to Remote cache (HIT)  : %10.1f%%\n",
		((double)st->rmt_hit / (double)llc_misses) * 100.);
	fprintf(out, "  LLC Misses to Remote cache (HITM) : %10.1f%%\n",
		((double)st->rmt_hitm / (double)llc_misses) * 100.);
	fprintf(out, "  Store Operations                  : %10d\n", (int)st->store);
	fprintf(out, "  Store - uncacheable               : %10d\n", (int)st->st_uncache);
	fprintf(out, "  Store - no mapping                : %10d\n", (int)st->st_noadrs);
	fprintf(out, "  Store L1D Hit                     : %10d\n", (int)st->st_l1hit);
	fprintf(out, "  Store L1D Miss                    : %10d\n", (int)st->st_l1miss);
	fprintf(out, "  Store No available memory level   : %10d\n", (int)st->st_na);
	fprintf(out, "  No Page Map Rejects               : %10d\n", (int)st->nomap);
	fprintf(out, "  Unable to parse data source       : %10d\n", (int)st->noparse);
}

static void print_shared(FILE *out, const struct c2c_stats *st, uint32_t nr_shared)
{
	int hitm_cnt = st->lcl_hitm + st->rmt_hitm;

	fprintf(out, "=================================================\n");
	fprintf(out, "    Global Shared Cache Line Event Information   \n");
	fprintf(out, "=================================================\n");
	fprintf(out, "  Total Shared Cache Lines          : %10d\n", (int)nr_shared);
	fprintf(out, "  Load HITs on shared lines         : %10d\n", (int)st->load);
	fprintf(out, "  Fill Buffer Hits on shared lines  : %10d\n", (int)st->ld_fbhit);
	fprintf(out, "  L1D hits on shared lines          : %10d\n", (int)st->ld_l1hit);
	fprintf(out, "  L2D hits on shared lines          : %10d\n", (int)st->ld_l2hit);
	fprintf(out, "  LLC hits on shared lines          : %10d\n",
		(int)(st->ld_llchit + st->lcl_hitm));
	fprintf(out, "  Load hits on peer cache or nodes  : %10d\n",
		(int)(st->lcl_peer + st->rmt_peer));
	fprintf(out, "  Locked Access on shared lines     : %10d\n", (int)st->locks);
	fprintf(out, "  Blocked Access on shared lines    : %10d\n",
		(int)(st->blk_data + st->blk_addr));
	fprintf(out, "  Store HITs on shared lines        : %10d\n", (int)st->store);
	fprintf(out, "  Store L1D hits on shared lines    : %10d\n", (int)st->st_l1hit);
	fprintf(out, "  Store No available memory level   : %10d\n", (int)st->st_na);
	fprintf(out, "  Total Merged records              : %10d\n", (int)(hitm_cnt + st->store));
}

/* perf's c2c tables: "# " before the headers, two header lines with spans, dots. */
static const struct table_text_style perf_style = {
	.head_prefix = "# ", .row_prefix = "  ", .sep = "  ", .header_lines = 2, .dots = true,
};

/*
 * perf sizes a row's buffer by the sum of the widths, plus room for colour escapes (8 columns'
 * worth of COLOR_MAXLEN + reset, whether or not colour is on): longer rows are cut.
 */
static size_t row_limit(const struct table *t)
{
	size_t w = 0;

	for (int i = 0, n = 0; i < t->nr_cols; i++)
		if (!table_column__hidden(&t->cols[i], true))
			w += table__width(t, &t->cols[i]) + (n++ ? 2 : 0);
	return w + 3 + (24 + 4) * 8;
}

/* One row of @t, cut at @lim, and its newline. */
static void print_row(FILE *out, const struct table *t, const void *row,
		      const struct table_text_style *st, size_t lim, struct strbuf *sb)
{
	strbuf__reset(sb);
	table_text__row(t, row, st, sb);
	if (sb->len > lim) {
		sb->buf[lim] = '\0';
		sb->len = lim;
	}
	strbuf__add(sb, "\n", 1);
	output__strbuf(out, sb);
}

static void print_stdio(FILE *out, struct report *r, struct c2c_view *v)
{
	const struct c2c *c = r->c2c;
	const struct table_text_style cl_style = { "", "  ", "  ", 2, false, true };
	struct strbuf sb = STRBUF_INIT;
	size_t lim;

	print_stats(out, c2c__total(c));
	fputc('\n', out);
	print_shared(out, c2c__shared(c), c2c__nr_shared(c));
	fputc('\n', out);
	fprintf(out, "=================================================\n");
	fprintf(out, "                 c2c details                     \n");
	fprintf(out, "=================================================\n");
	for (uint32_t i = 0; i < r->h->nr_evsels; i++)
		fprintf(out, "%-36s: %s\n", i ? "" : "  Events", r->h->evsels[i].name);
	fprintf(out, "  Cachelines sort on                : %s\n",
		c2c_display__name(c2c__config(c)->display));
	fprintf(out, "  Cacheline data grouping           : %s\n", r->grouping);
	if (r->o->stats_only)
		goto out;

	fputc('\n', out);
	fprintf(out, "=================================================\n");
	fprintf(out, "           Shared Data Cache Line Table          \n");
	fprintf(out, "=================================================\n");
	fprintf(out, "#\n");
	table_text__headers(&v->lines, &perf_style, &sb);
	output__strbuf(out, &sb);
	lim = row_limit(&v->lines);
	for (size_t i = 0; i < v->lines.nr_rows && !ferror(out); i++)
		print_row(out, &v->lines, v->lines.rows[i], &perf_style, lim, &sb);

	fputc('\n', out);
	fprintf(out, "=================================================\n");
	fprintf(out, "      Shared Cache Line Distribution Pareto      \n");
	fprintf(out, "=================================================\n");
	fprintf(out, "#\n");
	for (size_t i = 0; i < v->lines.nr_rows && !ferror(out); i++) {
		const struct c2c_line *l = v->lines.rows[i];
		struct table *et = &v->entries;

		c2c_view__entries(v, l, et);
		if (!i) {
			table_text__headers(et, &perf_style, &sb);
			output__strbuf(out, &sb);
		} else {
			fputc('\n', out);
		}
		fputs("  ----------------------------------------------------------------------\n",
		      out);
		print_row(out, &v->cl_row, l, &cl_style, 999, &sb);
		fputs("  ----------------------------------------------------------------------\n",
		      out);
		lim = row_limit(et);
		for (size_t k = 0; k < et->nr_rows; k++) {
			const struct c2c_entry *e = et->rows[k];

			print_row(out, et, e, &perf_style, lim, &sb);
			if (e->cc_root != UINT32_MAX)
				cc_graph(out, c2c__callchains(c), e->cc_root, l->period, e->period);
		}
	}
out:
	strbuf__release(&sb);
}

/* ---- output: JSON and CSV, from the same tables ---- */

#define STAT_FIELDS(X)                                                                            \
	X(nr_entries) X(locks) X(store) X(st_uncache) X(st_noadrs) X(st_l1hit) X(st_l1miss)      \
	X(st_na) X(load) X(ld_excl) X(ld_shared) X(ld_uncache) X(ld_io) X(ld_miss) X(ld_noadrs)  \
	X(ld_fbhit) X(ld_l1hit) X(ld_l2hit) X(ld_llchit) X(lcl_hitm) X(rmt_hitm) X(tot_hitm)     \
	X(lcl_peer) X(rmt_peer) X(tot_peer) X(rmt_hit) X(lcl_dram) X(rmt_dram) X(blk_data)       \
	X(blk_addr) X(nomap) X(noparse)

static void json_stats(struct json *j, const struct c2c_stats *st)
{
	json__begin_object(j);
#define X(f) json__ku64(j, #f, st->f);
	STAT_FIELDS(X)
#undef X
	json__ku64(j, "llc_misses", c2c_stats__llc_misses(st));
	json__end_object(j);
}

static void print_json(FILE *out, struct report *r, struct c2c_view *v)
{
	const struct c2c *c = r->c2c;
	struct json j;

	json__init(&j, out, false);
	json__begin_object(&j);
	json__break(&j, 2);
	json__key(&j, "trace_event_information");
	json_stats(&j, c2c__total(c));
	json__break(&j, 2);
	json__ku64(&j, "shared_cache_lines", c2c__nr_shared(c));
	json__break(&j, 2);
	json__key(&j, "shared_line_stats");
	json_stats(&j, c2c__shared(c));
	json__break(&j, 2);
	json__key(&j, "events");
	json__begin_array(&j);
	for (uint32_t i = 0; i < r->h->nr_evsels; i++)
		json__str(&j, r->h->evsels[i].name);
	json__end_array(&j);
	json__break(&j, 2);
	json__kstr(&j, "sort_on", c2c_display__name(c2c__config(c)->display));
	json__break(&j, 2);
	json__kstr(&j, "grouping", r->grouping);
	json__break(&j, 2);
	json__ku64(&j, "line_size", c2c__config(c)->line_size);
	if (!r->o->stats_only) {
		json__break(&j, 2);
		json__key(&j, "lines");
		json__begin_array(&j);
		for (size_t i = 0; i < v->lines.nr_rows && !ferror(out); i++) {
			const struct c2c_line *l = v->lines.rows[i];

			c2c_view__entries(v, l, &v->entries);
			json__break(&j, 4);
			json__begin_object(&j);
			json__row(&j, &v->lines, l);
			json__key(&j, "entries");
			json__begin_array(&j);
			for (size_t k = 0; k < v->entries.nr_rows; k++) {
				json__break(&j, 6);
				json__begin_object(&j);
				json__row(&j, &v->entries, v->entries.rows[k]);
				json__end_object(&j);
			}
			json__end_array(&j);
			json__end_object(&j);
		}
		json__break(&j, 2);
		json__end_array(&j);
	}
	json__break(&j, 0);
	json__end_object(&j);
	fputc('\n', out);
	json__release(&j);
}

/*
 * One CSV table: the lines and the Pareto's entries are rows of it, told apart by the table
 * column ("lines", "entries"); each row fills the columns of its table (an entry's cl_idx is
 * its line's).
 */
static void print_csv(FILE *out, struct report *r, struct c2c_view *v)
{
	struct csv csv;

	csv__init(&csv, out, true);
	csv__add_columns(&csv, &v->lines);
	if (!r->o->stats_only)
		csv__add_columns(&csv, &v->entries);
	csv__header(&csv);
	for (size_t i = 0; i < v->lines.nr_rows && !ferror(out); i++)
		csv__row(&csv, &v->lines, v->lines.rows[i]);
	for (size_t i = 0; i < v->lines.nr_rows && !r->o->stats_only && !ferror(out); i++) {
		c2c_view__entries(v, v->lines.rows[i], &v->entries);
		for (size_t k = 0; k < v->entries.nr_rows; k++)
			csv__row(&csv, &v->entries, v->entries.rows[k]);
	}
	csv__release(&csv);
}

/*
 * The c2c needs the recording's CPUs, nodes, memory ranges and line size: in pipe mode they
 * arrive as records, so it is made when the first sample is delivered (or at the end).
 */
static void report__make_c2c(struct report *r)
{
	struct c2c_config cfg = r->cfg;
	const struct perf_header_info *h = r->h;
	struct c2c_mem_range *mem;
	int *cpu2node = NULL;

	/* perf picks peer on arm64, where there are no HITMs */
	if (!r->o->display && h->arch && !strcmp(h->arch, "arm64"))
		cfg.display = C2C_DISPLAY_PEER;
	cfg.line_size = r->o->line_size ? r->o->line_size :
			h->cache_line_size ? h->cache_line_size : 64;
	if (cfg.line_size & (cfg.line_size - 1))
		cfg.line_size = 64;
	if (r->o->double_cl)
		cfg.line_size *= 2;
	cfg.show_all = r->o->show_all;
	cfg.callchains = r->cc_mode == CC_FP;
	cfg.node_info = r->o->node_info > 2 ? 2 : r->o->node_info;
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

/* ---- the command ---- */

#define PREFETCH_AHEAD 2048

static int report_run(const struct command *cmd, int argc, char **argv)
{
	struct report_opts o = { .cmd = cmd, .input = "perf.data", .format = FMT_DEFAULT };
	struct report r = { .o = &o, .cc_mode = CC_UNKNOWN, .max_stack = PERF_MAX_STACK_DEPTH_ };
	struct c2c_config cfg = { 0 };
	struct symbols_options so = { 0 };
	char err[PERF_FILE_ERRMAX];
	struct record rec;
	struct c2c_view view = { 0 };
	struct c2c_resolver res = { &r, resolve_comm, resolve_code };
	struct report_fields *rf = NULL;
	struct queue q = { .ordered = -1 };
	int rc, ret = EXIT_USAGE;
	int i;

	i = cli__parse(cmd, argc, argv, report_option, &o, &rc);
	if (i < 0) {
		ret = rc;
		goto out_opts;
	}
	if (i < argc) {
		ret = cli__usage_error(cmd, "unexpected argument '%s'", argv[i]);
		goto out_opts;
	}
	/* as perf: the browser on a terminal, text into a pipe or a file */
	if (o.format == FMT_DEFAULT)
		o.format = tui__available() && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO) &&
			   !o.stats_only ? FMT_TUI : FMT_STDIO;
	if (o.format == FMT_TUI && !tui__available()) {
		cli__error("--tui: this lineup was built without ncursesw (configure found no "
			   "libncursesw): use --stdio");
		goto out_opts;
	}
	if (o.format == FMT_TUI && o.stats_only) {
		ret = cli__usage_error(cmd, "--stats prints text: use it with --stdio");
		goto out_opts;
	}

	cfg.display = C2C_DISPLAY_TOT;
	if (o.display) {
		if (!strcmp(o.display, "tot"))
			cfg.display = C2C_DISPLAY_TOT;
		else if (!strcmp(o.display, "lcl"))
			cfg.display = C2C_DISPLAY_LCL;
		else if (!strcmp(o.display, "rmt"))
			cfg.display = C2C_DISPLAY_RMT;
		else if (!strcmp(o.display, "peer"))
			cfg.display = C2C_DISPLAY_PEER;
		else {
			ret = cli__usage_error(cmd, "-d: unknown display '%s' (tot, lcl, rmt, peer)",
					       o.display);
			goto out_opts;
		}
	}
	if (parse_coalesce(cmd, o.coalesce ? o.coalesce : "iaddr", &cfg))
		goto out_opts;
	r.grouping = xasprintf("offset,%s", o.coalesce ? o.coalesce : "iaddr");

	if (perf_file__open(&r.pf, o.input, err, sizeof(err)) < 0) {
		cli__error("%s", err);
		goto out_opts;
	}
	r.h = perf_file__header(r.pf);
	r.cfg = cfg;
	r.machine = machine__new();
	{
		/* perf_session__process_events registers the idle task first: (0, 0) "swapper" */
		struct record idle = { .type = REC_COMM };

		idle.comm.comm = "swapper";
		machine__process_record(r.machine, &idle);
	}
	for (uint32_t k = 0; k < r.h->nr_build_ids; k++) {
		const struct perf_build_id *b = &r.h->build_ids[k];

		machine__set_build_id(r.machine, b->filename, (b->misc & CPUMODE_MASK) == 1,
				      b->build_id, b->size);
	}
	so.symfs = o.symfs;
	so.vmlinux = o.vmlinux;
	/* perf looks for the recording's kernel image: /usr/lib/debug/boot/vmlinux-RELEASE... */
	so.osrelease = r.h->osrelease;
	r.symbols = symbols__new(&so);
	r.ccbuf = xmalloc(PERF_MAX_STACK_DEPTH_ * sizeof(*r.ccbuf));
	{
		/* perf reads the running kernel's limit (kernel.perf_event_max_stack) */
		FILE *f = fopen("/proc/sys/kernel/perf_event_max_stack", "r");
		int v;

		if (f && fscanf(f, "%d", &v) == 1 && v > 0)
			r.max_stack = v;
		if (f)
			fclose(f);
	}
	if ((o.fields || o.format == FMT_JSON) && !o.stats_only) {
		o.fattr.vmlinux = o.vmlinux;
		o.fattr.symfs = o.symfs;
		if (report_fields__new(&rf, r.machine, &o.fattr, err, sizeof(err)) < 0) {
			cli__error("%s", err);
			goto out;
		}
		report_fields__header(rf, r.h, o.input);
	}

	/* --fields and --json look at every sample as it is read: they need it decoded */
	r.raw_samples = !rf;
	perf_file__set_raw_samples(r.pf, r.raw_samples);
	while ((rc = perf_file__next_record(r.pf, &rec)) > 0) {
		/*
		 * The records come from the page cache at memory speed: fetching a few KiB
		 * ahead of the decoder cuts its stalls by a third (a prefetch never faults, and
		 * an integer address is no out-of-bounds pointer).
		 */
		__builtin_prefetch((const void *)((uintptr_t)rec.payload + PREFETCH_AHEAD));
		if (rf)
			report_fields__record(rf, r.h, &rec);
		if (rec.type == REC_FINISHED_ROUND) {
			/* perf does nothing at a round with an empty queue, not even move the mark */
			if (q.n) {
				queue__flush(&r, &q, q.next_flush);
				q.next_flush = q.max_ts;
			}
			continue;
		}
		if (rec.type >= REC_HEADER_ATTR)
			continue;
		if (rec.type == REC_SAMPLE && r.raw_samples) {
			if (queue__fast_sample(&r, &q, &rec))
				continue;
			if (perf_file__decode_sample(r.pf, &rec) < 0) {
				rc = -EINVAL;
				break;
			}
		}
		queue__record(&r, &q, &rec);
	}
	if (rc < 0) {
		cli__error("%s", perf_file__errmsg(r.pf));
		goto out;
	}
	queue__flush(&r, &q, UINT64_MAX);
	if (r.cc_mode == CC_UNSUPPORTED && !o.stats_only)
		cli__error("%s: the call chains are DWARF or LBR ones; perf c2c report unwinds "
			   "them into call graphs under the Pareto rows, lineup report does not (the "
			   "numbers are the same)", o.input);
	if (!r.c2c)
		report__make_c2c(&r);

	c2c__finish(r.c2c);
	if (!o.stats_only) {
		c2c__resolve(r.c2c, &res, c2c_view__wants_source(r.c2c, o.no_source));
	}
	if (o.format == FMT_TUI) {
		struct tui_report tr = {
			.input = o.input, .c = r.c2c, .resolver = &res,
			.full_symbols = o.full_symbols, .no_source = o.no_source,
			.add_columns = rf ? fields_columns : NULL, .source = code_source,
			.ctx = &r,
		};

		r.fields = rf;
		if (tui__report(&tr, err, sizeof(err)) < 0) {
			cli__error("%s", err);
			ret = EXIT_USAGE;
			goto out;
		}
		ret = EXIT_OK;
		goto out;
	}
	/* after resolve: the Data address header spans the Node column, whose width it found */
	c2c_view__init(&view, r.c2c, o.format == FMT_STDIO, o.full_symbols, o.no_source);
	if (rf && !o.stats_only)
		report_fields__add_columns(rf, &view, r.c2c);
	switch (o.format) {
	case FMT_STDIO:
		print_stdio(stdout, &r, &view);
		break;
	case FMT_JSON:
		print_json(stdout, &r, &view);
		break;
	case FMT_CSV:
		print_csv(stdout, &r, &view);
		break;
	default:
		break;
	}
	ret = cli__close_output(stdout, "standard output", EXIT_OK);
out:
	for (size_t k = 0; k < q.nr_runs; k++) {
		for (uint64_t seq = q.runs[k].begin; seq < q.runs[k].end; seq++) {
			struct qitem *it = queue__at(&q, seq);

			if (!(it->flags & QI_REC))
				free(queue__cc(&q, seq));
			else if (it->r.rec)
				qrec__free(it->r.rec);
		}
	}
	free(q.v);
	free(q.times);
	free(q.ccs);
	free(q.runs);
	free(q.heap);
	free(q.tree);
	free(q.order);
	c2c_view__release(&view);
	report_fields__delete(rf);
	symbols__delete(r.symbols);
	machine__delete(r.machine);
	c2c__delete(r.c2c);
	perf_file__close(r.pf);
	free(r.threads);
	free(r.thread_ht);
	free(r.ccbuf);
	free(r.dso_ids);
	free(r.dso_id_set);
	free(r.layouts);
out_opts:
	free(r.grouping);
	free(o.pids.v);
	free(o.tids.v);
	free(o.cpus.v);
	for (size_t k = 0; k < o.nr_comms; k++)
		free(o.comms[k]);
	free(o.comms);
	fields_list__release(&o.fattr.debug_files);
	return ret;
}

const struct command cmd_report = {
	.name = "report",
	.summary = "perf c2c's cache-line tables, with perf's numbers (browser, stdio, JSON, CSV)",
	.usage = "[-i FILE] [--tui|--stdio|--json|--csv] [-d MODE] [-c KEYS] [-N] [options]",
	.description = "Read a perf.data recorded with memory samples (perf c2c record, perf mem "
		       "record, lineup record) and print perf c2c report's tables: Trace Event "
		       "Information, Global Shared Cache Line Event Information, the Shared Data "
		       "Cache Line Table and the Shared Cache Line Distribution Pareto.  --stdio "
		       "prints perf c2c report --stdio's layout with the same numbers; --json and "
		       "--csv print the same columns for scripts: --csv as one table whose first "
		       "column, table, says whether a row is a cache line (lines) or a Pareto "
		       "entry (entries, with its line's cl_idx).  On a terminal the same tables "
		       "open in a browser (--tui; ? lists its keys), as perf c2c report does; "
		       "--tui, --stdio, --json and --csv exclude each other.",
	.options = report_options,
	.run = report_run,
};
