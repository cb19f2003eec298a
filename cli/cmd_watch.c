// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lineup watch: hardware breakpoints on chosen members of one real object (a kernel slab
 * object followed from kmem:kmem_cache_alloc, a global, or an address), every hit classified
 * load/store/RMW from the instruction that made it, replayed through the coherence model,
 * written as a standard perf.data and summarized per member.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analyzer/watch_object.h"
#include "analyzer/watch_table.h"
#include "analyzer/watch_replay.h"
#include "cli/command.h"
#include "cli/output.h"
#include "dwarf/code.h"
#include "dwarf/layout.h"
#include "sampling/host.h"
#include "pipeline/kobject.h"
#include "sampling/perf_writer.h"
#include "sampling/tracefs.h"
#include "sampling/watch.h"
#include "sampling/workload.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

enum {
	OPT_OUTPUT = 'o',
	OPT_OBJECT = 1000,
	OPT_SYMBOL,
	OPT_ALLOC,
	OPT_COMM,
	OPT_PID,
	OPT_NTH,
	OPT_TYPE,
	OPT_FIELDS,
	OPT_ALL_FIELDS,
	OPT_ROTATE,
	OPT_DURATION,
	OPT_BINARY,
	OPT_QUIET,
	OPT_METHOD,
	OPT_JSON,
	OPT_CSV,
};

/* Hits kept in memory for the replay (48 bytes each): beyond, counted and left out. */
#define MAX_HITS 50000000ULL

/* A W breakpoint's tag in pair mode: the member index with this bit. */
#define PAIR_W 0x40000000

static const struct cli_option watch_options[] = {
	{ OPT_OUTPUT, 'o', "output", "FILE", "write the hits to this perf.data (default watch.data)" },
	{ OPT_OBJECT, 0, "object", "'struct T'@ADDR", "watch the object of type T at ADDR" },
	{ OPT_SYMBOL, 0, "symbol", "NAME",
	  "watch a global: of the workload's binary (DWARF gives its type), else of the kernel "
	  "(/proc/kallsyms, with --type)" },
	{ OPT_ALLOC, 0, "alloc", "CACHE",
	  "watch the next object allocated from this kernel slab cache (kmem:kmem_cache_alloc; "
	  "kmalloc-N: kmem:kmalloc of that size class)" },
	{ OPT_COMM, 0, "comm", "NAME", "with --alloc: only allocations by a task of this name" },
	{ OPT_PID, 0, "pid", "PID", "with --alloc: only allocations by this process" },
	{ OPT_NTH, 0, "nth", "N", "with --alloc: the N-th matching allocation, however short its "
	  "life (default: the first that outlives 250 ms)" },
	{ OPT_TYPE, 0, "type", "'struct T'",
	  "the object's type (--alloc knows common caches: filp, vm_area_struct, dentry ...)" },
	{ OPT_FIELDS, 0, "fields", "F1,F2,...", "members to watch (one breakpoint each)" },
	{ OPT_ALL_FIELDS, 0, "all-fields", NULL, "watch every member (needs --rotate beyond the "
	  "machine's breakpoint slots)" },
	{ OPT_ROTATE, 0, "rotate", "SECONDS",
	  "move the breakpoints through the members in groups, this long each" },
	{ OPT_DURATION, 0, "duration", "SECONDS", "stop after this long (default: when the "
	  "workload exits, the object is freed, or on Ctrl-C)" },
	{ OPT_BINARY, 0, "binary", "FILE", "the user program holding --symbol (default: the "
	  "workload's executable)" },
	{ OPT_QUIET, 'q', "quiet", NULL, "print the header and the member table only" },
	{ OPT_JSON, 0, "json", NULL,
	  "print the report as one JSON object (the workload's output goes to stderr)" },
	{ OPT_CSV, 0, "csv", NULL,
	  "print the member tables of every object followed as one CSV table, led by columns "
	  "saying which object (number, status, address, path, allocating call chain); the "
	  "workload's output goes to stderr" },
	{ OPT_METHOD, 0, "method", "decode|pair",
	  "how to tell loads from writes: decode the instruction (default; kernel text from "
	  "/proc/kcore or BPF) or pair a write-only breakpoint with each read/write one (two "
	  "slots per member, no store/RMW split; the default where no kernel code can be read)" },
	CLI_OPTION_END
};

/* Cache name -> the struct its objects are, for the common caches. */
static const struct {
	const char *cache, *type;
} cache_types[] = {
	{ "filp", "file" },		{ "vm_area_struct", "vm_area_struct" },
	{ "dentry", "dentry" },		{ "inode_cache", "inode" },
	{ "task_struct", "task_struct" }, { "mm_struct", "mm_struct" },
	{ "files_cache", "files_struct" }, { "signal_cache", "signal_struct" },
	{ "sighand_cache", "sighand_struct" }, { "cred_jar", "cred" },
	{ "pid", "pid" },		{ "anon_vma", "anon_vma" },
	{ "buffer_head", "buffer_head" }, { "skbuff_head_cache", "sk_buff" },
	{ "sock_inode_cache", "socket_alloc" }, { "mnt_cache", "mount" },
	{ "bdev_cache", "bdev_inode" },	{ "names_cache", NULL },
};

struct watch_cfg {
	const char *output;
	const char *object, *symbol, *alloc, *comm, *type, *fields, *binary, *method;
	long long pid, nth;
	bool all_fields, quiet, json, csv;
	const char *format;	/* the output format option given (they exclude each other) */
	double rotate, duration;
};

struct site {
	uint64_t ip;
	bool kernel;
	int member;
	struct access_info info;
	uint64_t count;
	uint64_t transfers;	/* of those, accesses that took the line from another CPU */
};

/* Later allocations kept for the --nth hint. */
#define MAX_LATER 64

/* Skipped objects given a section of their own; beyond, counted only. */
#define MAX_SECTIONS 16

/*
 * An object followed and skipped (freed within SKIP_NS of its allocation): its results, kept
 * for its own section of the report.
 */
struct skipped_object {
	struct watch_object o;	/* its members, counts and watch times */
	struct kobject_what what;
	uint64_t late;		/* @what read this long (ns) after its free, or 0 */
	long long nth;		/* its number among the matching allocations */
	uint64_t alloc_time, free_time, life_from;
	uint32_t alloc_tid, free_tid;
	char alloc_comm[32], free_comm[32];
	size_t nr_hits;
};

struct watch_run {
	struct watch_cfg cfg;
	const struct command *cmd;
	bool kernel, pie, pair;
	struct watch_object o;	/* its address 0 until known */
	struct rec_mmap *maps;	/* the user workload's mappings at attach time */
	size_t nr_maps;
	char type_name[128];
	int slots;
	size_t group, nr_groups, group_size;
	uint64_t group_since;	/* CLOCK_MONOTONIC ns when the current group went in */
	struct watcher *w;
	struct workload wl;	/* the workload (CMD), wl.pid 0: none */
	/* allocation following */
	long long nth_seen;
	uint64_t alloc_time, free_time;
	uint32_t alloc_tid, free_tid;
	char alloc_comm[32], free_comm[32];
	bool freed;
	struct watch_alloc alloc_rec, free_rec;	/* written to the perf.data */
	struct kobject_namer *namer;	/* says what each followed kernel object is */
	struct kobject_what what;	/* ... what the current one is */
	char *type_owned, *method_owned, *exe;
	/* hits */
	struct watch_hit *hits;
	int *hit_member;
	size_t nr_hits, hits_cap;
	uint64_t dropped_after_free;
	uint64_t hits_over_cap;	/* hits not kept: more than MAX_HITS */
	uint64_t start_ns, end_ns;
	/*
	 * Where the object's life began: its allocation, or the watch's start for an object given
	 * by address (ns on CLOCK_MONOTONIC, as the hits' times); it ends at the free, or at
	 * end_ns.  Cover is the share of that life a member's breakpoint was on.
	 */
	uint64_t life_from;
	/* objects freed within SKIP_NS of their allocation, skipped (--alloc without --nth) */
	unsigned int skipped;
	struct skipped_object *skips;	/* the first MAX_SECTIONS of them */
	size_t nr_skips;
	/*
	 * --nth chose the object: the allocations that matched after it, followed (while the
	 * workload runs) to tell which N would have watched an object that lived long.
	 */
	bool tracking;
	struct {
		long long nth;
		uint64_t ptr, time, free_time;	/* free_time 0: not freed (yet) */
	} later[MAX_LATER];
	size_t nr_later;
	long long later_seen;
	bool settled;		/* the object outlived SKIP_NS, or --nth chose it: no skipping */
	bool stopping;		/* the last records are read: no new object */
	const char *why;	/* the watch stopped: "the object was freed", ... */
	/* the run's tools, and what it learned */
	char **cmd_argv;
	const char *method;	/* how hits are classified, for the report */
	struct code_reader *code;
	struct site *sites;
	size_t nr_sites, sites_cap;
	struct wr_hit *wh;	/* the hits as the replay takes them */
	size_t nr_wh;
	/* threads seen: tid -> comm */
	struct {
		uint32_t pid, tid;
		char comm[16];
	} *threads;
	size_t nr_threads, threads_cap;
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int watch_option(void *ctx, int id, const char *arg)
{
	struct watch_run *r = ctx;
	struct watch_cfg *c = &r->cfg;
	char *end;

	switch (id) {
	case OPT_OUTPUT: c->output = arg; break;
	case OPT_OBJECT: c->object = arg; break;
	case OPT_SYMBOL: c->symbol = arg; break;
	case OPT_ALLOC: c->alloc = arg; break;
	case OPT_COMM: c->comm = arg; break;
	case OPT_TYPE: c->type = arg; break;
	case OPT_FIELDS: c->fields = arg; break;
	case OPT_BINARY: c->binary = arg; break;
	case OPT_METHOD:
		if (strcmp(arg, "decode") && strcmp(arg, "pair"))
			return cli__usage_error(r->cmd, "--method is decode or pair, not '%s'", arg);
		c->method = arg;
		break;
	case OPT_ALL_FIELDS: c->all_fields = true; break;
	case OPT_QUIET: c->quiet = true; break;
	case OPT_JSON:
		c->json = true;
		return cli__output_format(r->cmd, &c->format, "json");
	case OPT_CSV:
		c->csv = true;
		return cli__output_format(r->cmd, &c->format, "csv");
	case OPT_PID:
	case OPT_NTH: {
		long long v = strtoll(arg, &end, 0);

		if (*end || v <= 0)
			return cli__usage_error(r->cmd, "--%s wants a positive number, not '%s'",
						id == OPT_PID ? "pid" : "nth", arg);
		*(id == OPT_PID ? &c->pid : &c->nth) = v;
		break;
	}
	case OPT_ROTATE:
	case OPT_DURATION: {
		double v = strtod(arg, &end);

		if (*end || !(v > 0) || v > 1e6)
			return cli__usage_error(r->cmd, "--%s wants seconds > 0, not '%s'",
						id == OPT_ROTATE ? "rotate" : "duration", arg);
		*(id == OPT_ROTATE ? &c->rotate : &c->duration) = v;
		break;
	}
	}
	return 0;
}

/* "struct file" / "file" -> "file". */
static const char *bare_type(const char *t)
{
	while (*t == ' ')
		t++;
	if (!strncmp(t, "struct ", 7))
		t += 7;
	else if (!strncmp(t, "union ", 6))
		t += 6;
	while (*t == ' ')
		t++;
	return t;
}

/* The name an anonymous member goes by: its named members joined with '|'. */
static void anon_name(const struct layout_member *m, struct strbuf *sb)
{
	if (!m->type)
		return;
	for (uint32_t i = 0; i < m->type->nr_members; i++) {
		const struct layout_member *c = &m->type->members[i];

		if (c->name)
			strbuf__addf(sb, "%s%s", sb->len ? "|" : "", c->name);
		else
			anon_name(c, sb);
	}
}

/* Every top-level member (anonymous unions as one, named by their alternatives). */
static void add_top_members(struct watch_run *r, const struct layout_type *t)
{
	for (uint32_t i = 0; i < t->nr_members; i++) {
		const struct layout_member *m = &t->members[i];
		struct strbuf sb = STRBUF_INIT;

		if (m->name)
			strbuf__addf(&sb, "%s", m->name);
		else
			anon_name(m, &sb);
		watch_object__add_member(&r->o, sb.buf ? sb.buf : "(anonymous)", m->offset, m->size);
		strbuf__release(&sb);
	}
	r->o.nr_top = r->o.nr_members;
}

/* --fields: the named members, in the order given, after the full list (for "not watched"). */
static int add_chosen_members(struct watch_run *r, const struct layout_type *t, const char *type,
			      const char *elf)
{
	char *copy = xstrdup(r->cfg.fields), *save = NULL;

	for (char *f = strtok_r(copy, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		uint64_t off;
		const struct layout_member *m = layout__find_path(t, f, &off);
		bool dup = false;

		if (!m) {
			cli__error("%s has no member '%s' (its members: 'lineup layout "
				   "%s-C %s%s%s')", r->type_name, f, r->kernel ? "--btf " : "",
				   bare_type(type), elf ? " " : "", elf ? elf : "");
			free(copy);
			return EXIT_USAGE;
		}
		/* The same member twice would take two slots for one word: once. */
		for (size_t k = 0; k < r->o.nr_order; k++)
			dup |= !strcmp(r->o.members[r->o.order[k]].name, f);
		if (dup) {
			if (!r->cfg.quiet)
				fprintf(stderr, "lineup watch: member '%s' given twice in "
					"--fields: watched once\n", f);
			continue;
		}
		watch_object__watch(&r->o, watch_object__add_member(&r->o, f, off, m->size));
	}
	free(copy);
	if (!r->o.nr_order) {
		cli__error("--fields '%s' names no member of %s", r->cfg.fields, r->type_name);
		return EXIT_USAGE;
	}
	return 0;
}

/* Load the type and build the member list; prints errors.  Returns an exit code or 0. */
static int load_members(struct watch_run *r, const char *type, const char *elf)
{
	struct layout_source *src;
	const struct layout_type *t;
	char err[1024];
	int rc;

	rc = layout_source__open(&src, r->kernel ? NULL : elf, r->kernel ? LAYOUT_BTF | LAYOUT_EXPAND :
				 LAYOUT_EXPAND, err, sizeof(err));
	if (rc < 0) {
		cli__error("cannot read the layout of struct %s: %s", bare_type(type), err);
		return EXIT_USAGE;
	}
	rc = layout_source__find(src, bare_type(type), &t, err, sizeof(err));
	if (rc) {
		const char *near[3];
		int n = layout_source__closest(src, bare_type(type), near, 3);

		cli__error("no struct %s in %s%s%s%s%s%s", bare_type(type),
			   r->kernel ? "the running kernel's BTF (/sys/kernel/btf/vmlinux)" : elf,
			   n ? " (did you mean " : "", n ? near[0] : "", n > 1 ? ", " : "",
			   n > 1 ? near[1] : "", n ? "?)" : "");
		layout_source__delete(src);
		return EXIT_USAGE;
	}
	snprintf(r->type_name, sizeof(r->type_name), "%s %s",
		 t->kind == LAYOUT_UNION ? "union" : "struct", bare_type(type));
	r->o.size = t->size;
	add_top_members(r, t);
	rc = 0;
	if (r->cfg.fields)
		rc = add_chosen_members(r, t, type, elf);
	else
		for (size_t i = 0; i < r->o.nr_members; i++)
			watch_object__watch(&r->o, (int)i);
	layout_source__delete(src);
	return rc;
}

/* Whether the workload ended (@wait_it: wait for that). */
static bool reap_child(struct watch_run *r, bool wait_it)
{
	return r->wl.pid > 0 && workload__wait(&r->wl, wait_it, NULL) == 1;
}

static int install_group(struct watch_run *r)
{
	struct watch_point pts[16];
	size_t first = r->group * r->group_size, n = 0;
	char err[512];
	int rc;

	for (size_t k = first; k < r->o.nr_order && k < first + r->group_size; k++) {
		struct watch_member *m = &r->o.members[r->o.order[k]];

		pts[n].addr = r->o.addr + m->offset;
		pts[n].len = m->wlen;
		pts[n].type = WATCH_RW;
		pts[n].tag = r->o.order[k];
		n++;
		if (r->pair) {
			/* Same word, write-only: a hit on both is a write, on RW alone a load. */
			pts[n] = pts[n - 1];
			pts[n].type = WATCH_W;
			pts[n].tag = r->o.order[k] | PAIR_W;
			n++;
		}
	}
	rc = watcher__set_points(r->w, pts, n, err, sizeof(err));
	if (rc < 0) {
		/* The workload exited meanwhile (-ESRCH): the watch ends, no error. */
		if (reap_child(r, false))
			return 0;
		cli__error("%s", err);
		return EXIT_RUNTIME;
	}
	r->group_since = now_ns();
	return 0;
}

/* Account the time the current group was installed while the object lived, then move on. */
static void close_group(struct watch_run *r)
{
	uint64_t t = now_ns(), first = r->group * r->group_size;
	uint64_t from = r->group_since > r->life_from ? r->group_since : r->life_from;

	if (!r->group_since)
		return;
	/* the breakpoints stay on until the free is read: the time after it saw nothing of it */
	if (r->freed && r->free_time < t)
		t = r->free_time;
	for (size_t k = first; k < r->o.nr_order && k < first + r->group_size; k++)
		if (t > from)
			r->o.members[r->o.order[k]].watched_ns += t - from;
	r->group_since = 0;
}

/* @secs as "0.85 ms" below a second, else "1.23 s". */
static const char *duration_text(double secs, char *buf, size_t size)
{
	if (secs < 1)
		snprintf(buf, size, "%.2f ms", secs * 1e3);
	else
		snprintf(buf, size, "%.2f s", secs);
	return buf;
}

/* The part of the object's life the watch spanned, in seconds. */
static double life_secs(const struct watch_run *r)
{
	uint64_t to = r->freed && r->free_time < r->end_ns ? r->free_time : r->end_ns;

	return to > r->life_from ? (to - r->life_from) / 1e9 : 0.0;
}

/* Kernel objects whose path can be told: struct file. */
static bool is_file(const struct watch_run *r)
{
	return !strcmp(r->type_name, "struct file");
}

/* What the object just allocated is: a file's path, the allocating call chain. */
static void name_object(struct watch_run *r)
{
	const struct watch_alloc *a = &r->alloc_rec;

	memset(&r->what, 0, sizeof(r->what));
	if (!r->namer)
		return;
	if (is_file(r))
		kobject_namer__file(r->namer, r->o.addr, (pid_t)a->pid, (pid_t)a->tid, &r->what);
	kobject_namer__chain(r->namer, a->chain, a->nr_chain, a->call_site, (pid_t)a->pid, 6,
			     &r->what);
}

/*
 * How long after the object's free its name was read (0: before it): by then the memory may
 * hold a later object.
 */
static uint64_t named_late(const struct watch_run *r)
{
	return r->freed && r->what.read_at > r->free_time ? r->what.read_at - r->free_time : 0;
}

static void note_thread(struct watch_run *r, uint32_t pid, uint32_t tid)
{
	for (size_t i = 0; i < r->nr_threads; i++)
		if (r->threads[i].tid == tid)
			return;
	r->threads = xgrow(r->threads, &r->threads_cap, r->nr_threads + 1, sizeof(*r->threads));
	r->threads[r->nr_threads].pid = pid;
	r->threads[r->nr_threads].tid = tid;
	snprintf(r->threads[r->nr_threads].comm, 16, tid ? ":%u" : "swapper", tid);
	host__thread_comm(pid, tid, r->threads[r->nr_threads].comm, 16);
	r->nr_threads++;
}

static int on_hit(const struct watch_hit *hit, void *arg)
{
	struct watch_run *r = arg;
	unsigned int n;
	const struct watch_point *pts = watcher__points(r->w, &n);

	if (hit->point < 0 || (unsigned int)hit->point >= n)
		return 0;
	/* a hit of an earlier set of points, or of a skipped object, read late */
	if (pts[hit->point].addr != hit->addr || !r->o.addr || hit->time < r->life_from)
		return 0;
	if (r->nr_hits >= MAX_HITS) {
		r->hits_over_cap++;
		return 0;
	}
	if (r->nr_hits == r->hits_cap) {
		r->hits = xgrow(r->hits, &r->hits_cap, r->nr_hits + 1, sizeof(*r->hits));
		r->hit_member = xrealloc(r->hit_member, r->hits_cap * sizeof(int));
	}
	r->hits[r->nr_hits] = *hit;
	r->hit_member[r->nr_hits] = pts[hit->point].tag;
	r->nr_hits++;
	note_thread(r, hit->pid, hit->tid);
	return 0;
}

/* The task's name as of now in the record stream: from COMM records seen, else /proc. */
static const char *task_comm(struct watch_run *r, uint32_t pid, uint32_t tid)
{
	note_thread(r, pid, tid);
	for (size_t i = 0; i < r->nr_threads; i++)
		if (r->threads[i].tid == tid)
			return r->threads[i].comm;
	return "";
}

static void set_comm(struct watch_run *r, uint32_t pid, uint32_t tid, const char *comm)
{
	for (size_t i = 0; i < r->nr_threads; i++)
		if (r->threads[i].tid == tid) {
			r->threads[i].pid = pid;
			snprintf(r->threads[i].comm, sizeof(r->threads[i].comm), "%s", comm);
			return;
		}
	r->threads = xgrow(r->threads, &r->threads_cap, r->nr_threads + 1, sizeof(*r->threads));
	r->threads[r->nr_threads].pid = pid;
	r->threads[r->nr_threads].tid = tid;
	snprintf(r->threads[r->nr_threads].comm, sizeof(r->threads[0].comm), "%s", comm);
	r->nr_threads++;
}

/* An allocation of the followed cache by the task(s) chosen. */
static bool alloc_matches(struct watch_run *r, const struct watch_alloc *a)
{
	if (a->is_free || !r->cfg.alloc || strcmp(a->cache, r->cfg.alloc))
		return false;
	if (r->cfg.pid && a->pid != (uint32_t)r->cfg.pid)
		return false;
	if (!r->cfg.pid && !r->cfg.comm && r->wl.pid > 0 && a->pid != (uint32_t)r->wl.pid)
		return false;
	return !r->cfg.comm || !strcmp(task_comm(r, a->pid, a->tid), r->cfg.comm);
}

/*
 * After the object --nth chose: the later allocations that match and their frees, until the
 * workload ends, so that an early death can say which --nth would have had a long life.
 * True when @a was one of them.
 */
static bool track_later(struct watch_run *r, const struct watch_alloc *a)
{
	if (a->is_free) {
		for (size_t i = 0; i < r->nr_later; i++)
			if (r->later[i].ptr == a->ptr && !r->later[i].free_time &&
			    a->time >= r->later[i].time)
				r->later[i].free_time = a->time;
		return false;	/* it may be the watched object's too */
	}
	if (!r->o.addr || !alloc_matches(r, a))
		return false;
	r->later_seen++;
	if (r->nr_later < MAX_LATER) {
		r->later[r->nr_later].nth = r->nth_seen + r->later_seen;
		r->later[r->nr_later].ptr = a->ptr;
		r->later[r->nr_later].time = a->time;
		r->later[r->nr_later].free_time = 0;
		r->nr_later++;
	}
	return true;
}

/* Return 1: object found (install), 2: object freed (stop). */
static int on_alloc(const struct watch_alloc *a, void *arg)
{
	struct watch_run *r = arg;
	const char *comm;

	if (a->is_comm) {
		set_comm(r, a->pid, a->tid, a->comm);
		return 0;
	}
	if (r->tracking && track_later(r, a))
		return 0;
	if (r->freed)
		return 0;	/* the address may be reused: nothing after the free is ours */
	if (r->o.addr && a->is_free && a->ptr == r->o.addr && a->time >= r->alloc_time) {
		r->freed = true;
		r->free_rec = *a;
		r->free_time = a->time;
		r->free_tid = a->tid;
		snprintf(r->free_comm, sizeof(r->free_comm), "%s", task_comm(r, a->pid, a->tid));
		return 2;
	}
	if (r->o.addr || r->stopping || !alloc_matches(r, a))
		return 0;
	comm = task_comm(r, a->pid, a->tid);
	if (++r->nth_seen < (r->cfg.nth ? r->cfg.nth : 1))
		return 0;
	r->o.addr = a->ptr;
	r->alloc_rec = *a;
	r->alloc_time = a->time;
	r->alloc_tid = a->tid;
	snprintf(r->alloc_comm, sizeof(r->alloc_comm), "%s", comm);
	return 1;
}

/* Start CMD: held on a pipe until we say go (kernel targets), or stopped by ptrace right after
 * its exec (user targets: the load address is known only then).  0, or an exit code after
 * saying why not. */
static int start_workload(struct watch_run *r, bool trace)
{
	struct workload_opts o;
	char msg[PATH_MAX + 128];
	int rc;

	workload_opts__init(&o, r->cmd_argv);
	o.trace = trace;
	o.hold = !trace;
	o.default_signals = true;
	/* With --json or --csv, stdout is lineup's: the workload writes to stderr. */
	if (r->cfg.json || r->cfg.csv)
		o.stdio[1] = STDERR_FILENO;
	rc = workload__prepare(&r->wl, &o);
	if (rc < 0) {
		cli__error("%s", r->wl.err ? workload__strerror(&r->wl, msg, sizeof(msg)) :
			   strerror(-rc));
		return EXIT_USAGE;
	}
	return 0;
}

/* The executable a command name resolves to (PATH search like execvp). */
static char *resolve_cmd(const char *name)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(name, '/'))
		return realpath(name, NULL);
	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, name);
		if (access(buf, X_OK) == 0)
			return realpath(buf, NULL);
		path += n + (path[n] == ':');
	}
	return NULL;
}

/* 1 if @path is an ET_DYN ELF file (a PIE: its addresses move with the load base), 0 if
 * another ELF type, -1 if not an ELF file. */
static int elf_is_pie(const char *path)
{
	unsigned char h[18];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, h, sizeof(h));
	uint16_t type;

	if (fd >= 0)
		close(fd);
	if (n != (ssize_t)sizeof(h) || memcmp(h, "\177ELF", 4) || h[5] < 1 || h[5] > 2)
		return -1;
	type = h[5] == 1 ? h[16] | h[17] << 8 : h[16] << 8 | h[17];
	return type == 3;	/* ET_DYN */
}

struct load_base {
	const char *exe;
	uint64_t base;
};

static int exe_map(const struct rec_mmap *m, uint16_t misc, void *arg)
{
	struct load_base *lb = arg;

	if (m->pgoff || strcmp(m->filename, lb->exe))
		return 0;
	lb->base = m->start;
	return 1;
}

/* Load base of @exe in process @pid: the start of its mapping at file offset 0. */
static int load_base(pid_t pid, const char *exe, uint64_t *base)
{
	struct load_base lb = { exe, 0 };
	int rc = proc_maps__for_each(NULL, pid, exe_map, &lb);

	if (rc < 0)
		return rc;
	*base = lb.base;
	return rc ? 0 : -ENOENT;
}

static int keep_map(const struct rec_mmap *m, uint16_t misc, void *arg)
{
	struct watch_run *r = arg;

	r->maps = xrealloc(r->maps, (r->nr_maps + 1) * sizeof(*r->maps));
	r->maps[r->nr_maps] = *m;
	r->maps[r->nr_maps++].filename = xstrdup(m->filename);
	return 0;
}

/* The workload's mappings, for the perf.data MMAP2 records (perf symbolizes IPs with the code
 * ones, lineup fields finds globals at data addresses with the data ones); read at attach
 * time, when the process is stopped right after its exec. */
static void save_maps(struct watch_run *r)
{
	proc_maps__for_each(NULL, r->wl.pid, keep_map, r);
}

/* The workload's executable file mappings, for decoding the instructions that hit. */
static int code_map(const struct rec_mmap *m, uint16_t misc, void *arg)
{
	char err[256];

	if (m->filename[0] == '/' && (m->prot & PROT_EXEC))
		code_reader__add_map(arg, m->filename, m->start, m->start + m->len, m->pgoff, err,
				     sizeof(err));
	return 0;
}

static int code_ksym(const struct ksym *s, void *arg)
{
	if (ksym__is_text(s))
		code_reader__add_kernel_symbol(arg, s->addr, s->name);
	return 0;
}

/* Kernel code made decodable: its function symbols, then a source of its bytes. */
static int add_kernel_code(struct code_reader *code, char *err, size_t errlen)
{
	int rc = kallsyms__for_each(NULL, code_ksym, code);

	if (rc < 0) {
		snprintf(err, errlen, "%s: %s", HOST_KALLSYMS, strerror(-rc));
		return rc;
	}
	return code_reader__add_kernel(code, err, errlen);
}

struct data_sym {
	const char *name;
	uint64_t addr;
	int ndata;
};

static int find_data_sym(const struct ksym *s, void *arg)
{
	struct data_sym *d = arg;

	if (!ksym__is_data(s))
		return 0;
	d->ndata++;
	if (!strcmp(s->name, d->name))
		d->addr = s->addr;
	return 0;
}

static int write_map(const struct rec_mmap *m, uint16_t misc, void *arg)
{
	return perf_writer__mmap(arg, misc, m, NULL);
}

static bool slab_cache_exists(const char *name)
{
	char path[PATH_MAX], line[512];
	FILE *fp;
	bool found = false;

	snprintf(path, sizeof(path), "/sys/kernel/slab/%s", name);
	if (!strchr(name, '/') && access(path, F_OK) == 0)
		return true;
	fp = fopen("/proc/slabinfo", "r");
	if (!fp)
		return true;	/* cannot tell: let the tracepoint decide */
	while (!found && fgets(line, sizeof(line), fp)) {
		size_t n = strcspn(line, " ");

		found = n == strlen(name) && !strncmp(line, name, n);
	}
	fclose(fp);
	return found;
}

/* The writer event of a kmem record: the tracepoint whose id is the payload's common_type. */
static uint32_t tp_evsel_of(const struct watch_alloc *a, const int *evsel, const long long *ids)
{
	uint16_t type;

	memcpy(&type, a->raw, 2);
	for (int t = 0; t < 4; t++)
		if (ids[t] == type && evsel[t] >= 0)
			return evsel[t];
	return (uint32_t)-1;
}

/* The recording being written: the writer and the events of the members and of kmem. */
struct watch_writer {
	struct perf_writer *pw;
	int *evsel_of;		/* per member: its breakpoint event */
	int tp_evsel[4];	/* the kmem tracepoints' events and ids, -1 when absent */
	long long tp_id[4];
};

/* One breakpoint event per watched member, named as perf names one ("mem:ADDR/LEN:rw"). */
static void add_member_events(const struct watch_run *r, struct watch_writer *ww)
{
	for (size_t k = 0; k < r->o.nr_order; k++) {
		const struct watch_member *m = &r->o.members[r->o.order[k]];
		char name[128];
		struct perf_writer_event ev = {
			.name = name,
			.type = PW_TYPE_BREAKPOINT,
			.sample_period = 1,
			.sample_type = watcher__sample_type() | SF_DATA_SRC,
			.exclude_hv = true,
			.sample_id_all = true,
			.config1 = r->o.addr + m->offset,	/* bp_addr */
			.config2 = m->wlen,			/* bp_len */
		};

		snprintf(name, sizeof(name), "mem:%#" PRIx64 "/%u:rw", r->o.addr + m->offset, m->wlen);
		ww->evsel_of[r->o.order[k]] = perf_writer__add_event(ww->pw, &ev);
	}
}

/*
 * The allocation and the free of the object, as kmem tracepoint samples with the kernel's
 * formats (TRACING_DATA): perf script shows them, lineup fields learns the object's cache
 * from them.
 */
static void add_kmem_events(struct watch_writer *ww)
{
	static const char *const tps[] = { "kmem:kmem_cache_alloc", "kmem:kmem_cache_free",
					   "kmem:kmalloc", "kmem:kfree" };
	void *td;
	size_t tdlen;
	char err[512];

	if (tracefs__tracing_data(tps, 4, &td, &tdlen, err, sizeof(err)) < 0)
		return;
	for (int t = 0; t < 4; t++) {
		long long id = tracefs__event_id("kmem", tps[t] + 5, err, sizeof(err));
		struct perf_writer_event ev = {
			.name = tps[t],
			.type = PW_TYPE_TRACEPOINT,
			.config = id < 0 ? 0 : id,
			.sample_period = 1,
			.sample_type = SF_IDENTIFIER | SF_IP | SF_TID | SF_TIME | SF_CPU |
				       SF_CALLCHAIN | SF_RAW,
			.sample_id_all = true,
		};

		ww->tp_evsel[t] = id < 0 ? -1 : perf_writer__add_event(ww->pw, &ev);
		ww->tp_id[t] = id;
	}
	perf_writer__set_tracing_data(ww->pw, td, tdlen);
	free(td);
}

/* The maps (perf symbolizes with them) and the threads' names. */
static void write_sideband(const struct watch_run *r, struct perf_writer *pw)
{
	if (r->kernel) {
		/* The kernel maps as perf record writes them, so perf resolves IPs via kallsyms. */
		host__kernel_maps(NULL, NULL, write_map, pw);
	} else {
		for (size_t i = 0; i < r->nr_maps; i++)
			perf_writer__mmap(pw, proc_maps__misc(&r->maps[i]), &r->maps[i], NULL);
	}
	for (size_t i = 0; i < r->nr_threads; i++) {
		struct rec_comm c = { .pid = r->threads[i].pid, .tid = r->threads[i].tid,
				      .comm = r->threads[i].comm };

		perf_writer__comm(pw, &c, NULL);
	}
}

/* A kmem record as its tracepoint's sample; nothing when the event is not in the file. */
static int write_kmem(struct watch_writer *ww, const struct watch_alloc *rec)
{
	struct sample s = { 0 };

	if (!rec || !rec->raw_size)
		return 0;
	s.evsel = tp_evsel_of(rec, ww->tp_evsel, ww->tp_id);
	if (s.evsel == (uint32_t)-1)
		return 0;
	s.cpumode = CPUMODE_KERNEL;
	s.ip = rec->ip;
	s.pid = rec->pid;
	s.tid = rec->tid;
	s.time = rec->time;
	s.cpu = rec->cpu;
	s.period = 1;
	s.raw = rec->raw;
	s.raw_size = rec->raw_size;
	s.callchain = rec->chain;	/* who allocated (freed): perf script shows it */
	s.callchain_nr = rec->nr_chain;
	s.id = perf_writer__event_id(ww->pw, s.evsel);
	return perf_writer__sample(ww->pw, &s);
}

/*
 * Each hit as a sample of its member's event.  Its IP is the accessing instruction when it
 * was decoded (the trap address minus the instruction's length), as precise memory events
 * report it and as annotate, c2c and lineup fields expect; else the trap address itself.
 */
static int write_hits(const struct watch_run *r, struct watch_writer *ww)
{
	for (size_t i = 0; i < r->nr_hits; i++) {
		const struct wr_hit *h = &r->wh[i];
		struct sample s = { 0 };

		s.evsel = ww->evsel_of[h->field];
		s.cpumode = h->ip >= 0xffff800000000000ULL ? CPUMODE_KERNEL : CPUMODE_USER;
		s.ip = h->ip;
		if (h->site >= 0 && r->sites[h->site].info.insn_addr)
			s.ip = r->sites[h->site].info.insn_addr;
		s.tid = h->tid;
		s.pid = h->tid;
		for (size_t t = 0; t < r->nr_threads; t++)
			if (r->threads[t].tid == h->tid)
				s.pid = r->threads[t].pid;
		s.time = h->time;
		s.addr = r->o.members[h->field].st.addr;
		s.cpu = h->cpu;
		s.period = 1;
		s.data_src = h->data_src;
		s.id = perf_writer__event_id(ww->pw, s.evsel);
		if (perf_writer__sample(ww->pw, &s) < 0)
			return -1;
	}
	return 0;
}

/* The hits as a perf.data: the allocation, the hits in time order, the free. */
static int write_perf_data(const struct watch_run *r, int argc, char **argv)
{
	struct watch_writer ww = { perf_writer__new(), xcalloc(r->o.nr_members, sizeof(int)),
				   { -1, -1, -1, -1 }, { -1, -1, -1, -1 } };
	int rc = 0;

	add_member_events(r, &ww);
	if (r->alloc_rec.raw_size)
		add_kmem_events(&ww);
	if (perf_writer__open(ww.pw, r->cfg.output) < 0)
		goto fail;
	perf_writer__fill_host(ww.pw, NULL);
	perf_writer__set_cmdline(ww.pw, argc, (const char *const *)argv);
	write_sideband(r, ww.pw);
	if (write_kmem(&ww, &r->alloc_rec) < 0 || write_hits(r, &ww) < 0 ||
	    write_kmem(&ww, r->freed ? &r->free_rec : NULL) < 0 || perf_writer__close(ww.pw) < 0)
		goto fail;
	goto out;
fail:
	cli__error("%s", perf_writer__strerror(ww.pw));
	rc = -EIO;
out:
	free(ww.evsel_of);
	perf_writer__delete(ww.pw);
	return rc;
}

static int site_cmp(const void *a, const void *b)
{
	const struct site *x = a, *y = b;

	if (x->member != y->member)
		return x->member - y->member;
	return x->count > y->count ? -1 : x->count < y->count;
}

/* Member @m's hits on CPU @c by kind (a row of WR_NR_KINDS), their total in *@tot. */
static const uint64_t *cpu_hits(const struct watch_member *m, unsigned int c, uint64_t *tot)
{
	const uint64_t *kc = &m->st.cpu_kinds[(size_t)c * WR_NR_KINDS];

	*tot = 0;
	for (int i = 0; i < WR_NR_KINDS; i++)
		*tot += kc[i];
	return kc;
}

/* A member's hits per CPU, by kind. */
static void member_cpus_json(struct json *j, const struct watch_run *r, int mi)
{
	const struct watch_member *m = &r->o.members[mi];

	json__key(j, "cpus");
	json__begin_array(j);
	for (unsigned int c = 0; c < r->o.nr_cpus; c++) {
		uint64_t tot;
		const uint64_t *kc = cpu_hits(m, c, &tot);

		if (!tot)
			continue;
		json__begin_object(j);
		json__ku64(j, "cpu", c);
		json__ku64(j, "hits", tot);
		for (int i = 0; i < WR_NR_KINDS; i++)
			json__ku64(j, wr_kind__name(i), kc[i]);
		json__end_object(j);
	}
	json__end_array(j);
}

/* The code sites that touched a member. */
static void member_sites_json(struct json *j, const struct watch_run *r, int mi)
{
	json__key(j, "sites");
	json__begin_array(j);
	for (size_t i = 0; i < r->nr_sites; i++) {
		const struct site *st = &r->sites[i];

		if (st->member != mi)
			continue;
		json__begin_object(j);
		json__ku64(j, "count", st->count);
		json__ku64(j, "transfers", st->transfers);
		json__ku64(j, "ip", st->ip);
		json__kstr(j, "kind", access_kind__name(st->info.kind));
		json__kstr(j, "function", st->info.func ? st->info.func : "");
		json__ku64(j, "offset", st->info.func_off);
		json__kstr(j, "instruction", st->info.text);
		if (st->info.why)
			json__kstr(j, "why_unknown", st->info.why);
		json__end_object(j);
	}
	json__end_array(j);
}

/* What the object is, as the text's header says it. */
static void what_json(struct json *j, const struct kobject_what *w, uint64_t late)
{
	json__key(j, "what");
	json__begin_object(j);
	json__kstr(j, "path", w->path);
	json__kstr(j, "how", w->how);
	json__key(j, "read_after_free");
	json__bool(j, late != 0);
	json__kstr(j, "allocated_at", w->chain);
	json__kstr(j, "user_caller", w->user);
	if (w->why[0])
		json__kstr(j, "unknown_why", w->why);
	json__end_object(j);
}

/* The skipped objects, each as its text section says it. */
static void skipped_json(struct json *j, const struct watch_run *r)
{
	json__key(j, "skipped_objects");
	json__begin_array(j);
	for (size_t i = 0; i < r->nr_skips; i++) {
		const struct skipped_object *k = &r->skips[i];
		double life = k->free_time > k->life_from ? (k->free_time - k->life_from) / 1e9 : 0;
		struct watch_tables wt;

		json__begin_object(j);
		json__ku64(j, "address", k->o.addr);
		json__ku64(j, "allocation_number", (uint64_t)k->nth);
		json__kstr(j, "allocated_by", k->alloc_comm);
		json__ku64(j, "allocated_by_tid", k->alloc_tid);
		what_json(j, &k->what, k->late);
		json__kstr(j, "why", "freed within 250 ms of its allocation");
		json__kstr(j, "freed_by", k->free_comm);
		json__ku64(j, "freed_by_tid", k->free_tid);
		json__key(j, "life_seconds");
		json__double(j, (k->free_time - k->alloc_time) / 1e9, 6);
		json__key(j, "object_life_seconds");	/* what cover is a share of */
		json__double(j, life, 6);
		json__ku64(j, "hits", k->nr_hits);
		json__key(j, "members");
		json__begin_array(j);
		watch_tables__init(&wt, &k->o, life);
		for (size_t m = 0; m < wt.members.nr_rows; m++) {
			json__begin_object(j);
			json__row(j, &wt.members, wt.members.rows[m]);
			json__end_object(j);
		}
		watch_tables__release(&wt);
		json__end_array(j);
		json__end_object(j);
	}
	json__end_array(j);
}

/* The report as one JSON object (same numbers as the text). */
static void print_report_json(const struct watch_run *r)
{
	double secs = (r->end_ns - r->start_ns) / 1e9;
	struct watch_tables wt;
	struct json j;

	watch_tables__init(&wt, &r->o, life_secs(r));
	json__init(&j, stdout, true);
	json__begin_object(&j);
	json__key(&j, "object");
	json__begin_object(&j);
	json__kstr(&j, "type", r->type_name);
	json__ku64(&j, "address", r->o.addr);
	json__ku64(&j, "size", r->o.size);
	if (r->cfg.alloc) {
		json__kstr(&j, "cache", r->cfg.alloc);
		json__kstr(&j, "allocated_by", r->alloc_comm);
		json__ku64(&j, "allocated_by_tid", r->alloc_tid);
		what_json(&j, &r->what, named_late(r));
	}
	json__end_object(&j);
	json__kstr(&j, "method", r->method ? r->method : "");
	json__key(&j, "seconds");
	json__double(&j, secs, 3);
	json__key(&j, "object_life_seconds");	/* what cover is a share of */
	json__double(&j, life_secs(r), 3);
	json__ku64(&j, "hits", r->nr_hits);
	json__key(&j, "hits_per_second");
	json__double(&j, secs > 0 ? r->nr_hits / secs : 0.0, 0);
	json__ku64(&j, "lost_records", watcher__lost(r->w));
	json__ku64(&j, "hits_over_cap", r->hits_over_cap);
	json__key(&j, "freed");
	json__bool(&j, r->freed);
	json__ku64(&j, "skipped_short_lived", r->skipped);
	skipped_json(&j, r);
	json__ku64(&j, "hits_after_free_dropped", r->dropped_after_free);
	if (r->freed) {
		json__kstr(&j, "freed_by", r->free_comm);
		json__ku64(&j, "freed_by_tid", r->free_tid);
	}
	json__key(&j, "counts_only_watched");
	json__bool(&j, true);
	json__key(&j, "members");
	json__begin_array(&j);
	for (size_t k = 0; k < wt.members.nr_rows; k++) {
		json__begin_object(&j);
		json__row(&j, &wt.members, wt.members.rows[k]);
		member_cpus_json(&j, r, r->o.order[k]);
		member_sites_json(&j, r, r->o.order[k]);
		json__end_object(&j);
	}
	json__end_array(&j);
	json__key(&j, "not_watched");
	json__begin_array(&j);
	{
		int *idx = xcalloc(r->o.nr_top + 1, sizeof(int));
		size_t n = watch_object__not_watched(&r->o, true, idx);

		for (size_t i = 0; i < n; i++)
			json__str(&j, r->o.members[idx[i]].name);
		free(idx);
	}
	json__end_array(&j);
	json__kstr(&j, "output", r->cfg.output ? r->cfg.output : "");
	json__key(&j, "lines");
	json__begin_array(&j);
	for (size_t i = 0; i < wt.lines.nr_rows; i++) {
		json__begin_object(&j);
		json__row(&j, &wt.lines, wt.lines.rows[i]);
		json__end_object(&j);
	}
	json__end_array(&j);
	json__end_object(&j);
	fputc('\n', stdout);
	json__release(&j);
	watch_tables__release(&wt);
}

/* What a section's object columns say of it. */
static void section_info(struct watch_section_info *info, unsigned int number, bool skipped,
			 uint64_t address, const struct kobject_what *w, uint64_t late)
{
	info->number = number;
	info->status = skipped ? "skipped" : "watched";
	info->address = address;
	info->path = late ? "" : w->path;
	info->allocated_at = w->chain;
	info->user_caller = w->user;
}

/* The members of every object followed, one CSV table led by the columns saying which. */
static void print_report_csv(const struct watch_run *r)
{
	size_t n = r->nr_skips + !!r->o.addr;
	struct watch_section_info *info = xcalloc(n ? n : 1, sizeof(*info));
	struct watch_tables *wt = xcalloc(n ? n : 1, sizeof(*wt));
	struct csv c;

	for (size_t i = 0; i < r->nr_skips; i++) {
		const struct skipped_object *k = &r->skips[i];

		section_info(&info[i], (unsigned int)i + 1, true, k->o.addr, &k->what, k->late);
		watch_tables__init_section(&wt[i], &k->o, k->free_time > k->life_from ?
					   (k->free_time - k->life_from) / 1e9 : 0, &info[i]);
	}
	if (r->o.addr) {
		section_info(&info[n - 1], r->skipped + 1, false, r->o.addr, &r->what,
			     named_late(r));
		watch_tables__init_section(&wt[n - 1], &r->o, life_secs(r), &info[n - 1]);
	}
	csv__init(&c, stdout, false);
	if (n)
		csv__add_columns(&c, &wt[0].members);
	csv__header(&c);
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < wt[i].members.nr_rows; k++)
			csv__row(&c, &wt[i].members, wt[i].members.rows[k]);
		watch_tables__release(&wt[i]);
	}
	csv__release(&c);
	free(wt);
	free(info);
}

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* What the object is: its path (a file), its allocating call chain and user-space caller. */
static void print_what(const struct kobject_what *w, uint64_t late)
{
	char lt[32];

	if (w->path[0] && late)
		printf("# what: unknown: read %s after its free (the memory then held %s, %s)\n",
		       duration_text(late / 1e9, lt, sizeof(lt)), w->path, w->how);
	else if (w->path[0])
		printf("# what: %s (%s)\n", w->path, w->how);
	else if (w->why[0])
		printf("# what: unknown (%s)\n", w->why);
	if (w->chain[0])
		printf("# allocated at: %s\n", w->chain);
	if (w->user[0])
		printf("# from user space: %s\n", w->user);
}

static void print_header(const struct watch_run *r, double secs)
{
	uint64_t nr_lines = watch_object__nr_lines(&r->o);
	char lt[32];

	printf("# lineup watch: %s at %#" PRIx64 " (%" PRIu64 " byte%s, %" PRIu64 " cache line%s)",
	       r->type_name, r->o.addr, r->o.size, plural(r->o.size), nr_lines, plural(nr_lines));
	if (r->skipped)
		printf(": object %u of %u, watched", r->skipped + 1, r->skipped + 1);
	printf("\n");
	print_what(&r->what, named_late(r));
	if (r->cfg.alloc)
		printf("# allocated from cache %s by %s/%u\n", r->cfg.alloc, r->alloc_comm,
		       r->alloc_tid);
	if (r->skipped)
		printf("# allocation number %lld of those that matched: %u before it freed within "
		       "250 ms of their allocation, skipped (--nth N takes one)\n", r->nth_seen,
		       r->skipped);
	printf("# %zu hit%s in %.2f s: %.0f hits/s (the overhead: every hit is a debug trap and a "
	       "perf sample)\n", r->nr_hits, plural(r->nr_hits), secs,
	       secs > 0 ? r->nr_hits / secs : 0.0);
	printf("# access kinds: %s\n", r->method);
	if (r->hits_over_cap)
		printf("# %" PRIu64 " hits after the first %llu were counted out (memory bound): "
		       "use --duration\n", r->hits_over_cap, MAX_HITS);
	if (watcher__lost(r->w))
		printf("# %" PRIu64 " records lost by the kernel (ring buffer full): those hits are "
		       "missing from the counts and from the replayed order\n", watcher__lost(r->w));
	if (r->freed)
		printf("# stopped: the object was freed by %s/%u; %" PRIu64 " hits after the free "
		       "dropped\n", r->free_comm, r->free_tid, r->dropped_after_free);
	printf("# cover: the share of the object's %s %s a member's breakpoint was on",
	       duration_text(life_secs(r), lt, sizeof(lt)),
	       r->cfg.alloc ? "from its allocation" : "of the watch");
	if (r->cfg.alloc && r->start_ns > r->life_from)
		printf(" (they went in %s after it)",
		       duration_text((r->start_ns - r->life_from) / 1e9, lt, sizeof(lt)));
	printf("\n");
	printf("# counts only what was watched: one word per member; accesses to other bytes of "
	       "the same lines are invisible, so transfers are a lower bound\n");
}

/* The member and line tables' text: "# " before the header, cells apart by a space. */
static const struct table_text_style text_style = { "# ", "  ", " ", 1, false, false };

static void print_table(const struct table *t)
{
	struct strbuf sb = STRBUF_INIT;

	table_text__headers(t, &text_style, &sb);
	for (size_t i = 0; i < t->nr_rows; i++) {
		table_text__row(t, t->rows[i], &text_style, &sb);
		strbuf__add(&sb, "\n", 1);
	}
	output__strbuf(stdout, &sb);
	strbuf__release(&sb);
}

/* One member: its hits per CPU, its transfers and its code sites. */
static void print_member_detail(const struct watch_run *r, int mi)
{
	const struct watch_member *m = &r->o.members[mi];

	printf("\n%s (+%" PRIu64 ", %u of %" PRIu64 " byte%s watched at %#" PRIx64 "):\n",
	       m->name, m->offset, m->wlen, m->size, plural(m->size), m->st.addr);
	for (unsigned int c = 0; c < r->o.nr_cpus; c++) {
		uint64_t tot;
		const uint64_t *kc = cpu_hits(m, c, &tot);

		if (!tot)
			continue;
		printf("  cpu %-3u %9" PRIu64 " hit%s:", c, tot, plural(tot));
		for (int i = 1; i <= WR_NR_KINDS; i++)
			if (kc[i % WR_NR_KINDS])
				printf(" %s %" PRIu64, wr_kind__name(i % WR_NR_KINDS),
				       kc[i % WR_NR_KINDS]);
		printf("\n");
	}
	printf("  transfers %" PRIu64 " (HITM loads %" PRIu64 ", invalidations %" PRIu64 ")\n",
	       m->st.transfers, m->st.hitm, m->st.invalidations);
	printf("  %9s  %-10s %-36s %9s  %s\n", "hits", "kind", "code", "transfers", "instruction");
	for (size_t s = 0; s < r->nr_sites; s++) {
		const struct site *st = &r->sites[s];
		char where[160];

		if (st->member != mi)
			continue;
		snprintf(where, sizeof(where), "%s+%#" PRIx64, st->info.func ? st->info.func : "?",
			 st->info.func_off);
		printf("  %9" PRIu64 "  %-10s %-36s %9" PRIu64 "  %s%s%s\n", st->count,
		       access_kind__name(st->info.kind), where, st->transfers,
		       st->info.text[0] ? st->info.text : "",
		       st->info.why ? "  # " : "", st->info.why ? st->info.why : "");
	}
}

static void print_not_watched(const struct watch_run *r)
{
	printf("\n# not watched:");
	if (r->cfg.fields) {
		int *idx = xcalloc(r->o.nr_top + 1, sizeof(int));
		size_t n = watch_object__not_watched(&r->o, false, idx);

		for (size_t i = 0; i < n; i++)
			printf("%s %s", i ? "," : "", r->o.members[idx[i]].name);
		if (!n)
			printf(" no other member");
		free(idx);
	} else if (!watch_object__never_watched(&r->o)) {
		printf(" every member had its breakpoint for part of the run (see cover)");
	} else {
		printf(" %zu members never got a breakpoint (run longer or rotate faster)",
		       watch_object__never_watched(&r->o));
	}
	printf("; of members larger than their watched word only the first %s bytes\n",
	       "1/2/4/8 aligned");
}

/* A skipped object's section: what it was, its short life, its hits per member. */
static void print_skipped(const struct watch_run *r, const struct skipped_object *k)
{
	double life = k->free_time > k->life_from ? (k->free_time - k->life_from) / 1e9 : 0;
	uint64_t nr_lines = watch_object__nr_lines(&k->o);
	struct watch_tables wt;
	char lt[32];

	printf("# lineup watch: %s at %#" PRIx64 " (%" PRIu64 " byte%s, %" PRIu64 " cache line%s): "
	       "object %lld of %u, skipped\n", r->type_name, k->o.addr, k->o.size,
	       plural(k->o.size), nr_lines, plural(nr_lines), (long long)(k - r->skips) + 1,
	       r->skipped + !!r->o.addr);
	print_what(&k->what, k->late);
	printf("# allocated from cache %s by %s/%u (allocation number %lld of those that matched)\n",
	       r->cfg.alloc, k->alloc_comm, k->alloc_tid, k->nth);
	printf("# skipped: freed by %s/%u %s after its allocation, within 250 ms, with %zu hit%s "
	       "(--nth %lld watches it anyway)\n", k->free_comm, k->free_tid,
	       duration_text((k->free_time - k->alloc_time) / 1e9, lt, sizeof(lt)), k->nr_hits,
	       plural(k->nr_hits), k->nth);
	printf("# cover: the share of the object's %s from its allocation a member's breakpoint "
	       "was on\n#\n", duration_text(life, lt, sizeof(lt)));
	watch_tables__init(&wt, &k->o, life);
	print_table(&wt.members);
	watch_tables__release(&wt);
	printf("#\n");
}

/* The skipped objects' sections, before the watched one's. */
static void print_skipped_all(const struct watch_run *r)
{
	for (size_t i = 0; i < r->nr_skips; i++)
		print_skipped(r, &r->skips[i]);
	if (r->skipped > r->nr_skips)
		printf("# objects %zu to %u were skipped too (freed within 250 ms of their allocation); "
		       "only the first %d get a section\n#\n", r->nr_skips + 1, r->skipped,
		       MAX_SECTIONS);
}

static void print_report(const struct watch_run *r)
{
	double secs = (r->end_ns - r->start_ns) / 1e9;
	struct watch_tables wt;

	watch_tables__init(&wt, &r->o, life_secs(r));
	print_skipped_all(r);
	print_header(r, secs);
	printf("#\n");
	print_table(&wt.members);
	if (!r->cfg.quiet) {
		/* per cache line: what the watched words on it add up to */
		printf("#\n");
		print_table(&wt.lines);
		printf("#\n# cpus: writers/readers; per CPU and code site below\n");
		for (size_t k = 0; k < r->o.nr_order; k++)
			if (r->o.members[r->o.order[k]].st.hits)
				print_member_detail(r, r->o.order[k]);
		print_not_watched(r);
	}
	watch_tables__release(&wt);
}

static void watch_run__release(struct watch_run *r)
{
	watch_object__exit(&r->o);
	free(r->hits);
	free(r->hit_member);
	free(r->threads);
	for (size_t i = 0; i < r->nr_maps; i++)
		free((char *)r->maps[i].filename);
	free(r->maps);
	free(r->type_owned);
	free(r->method_owned);
	free(r->exe);
	for (size_t i = 0; i < r->nr_skips; i++)
		watch_object__exit(&r->skips[i].o);
	free(r->skips);
	kobject_namer__delete(r->namer);
	code_reader__delete(r->code);
	free(r->wh);
	free(r->sites);
}

/* Read everything left: hits, and allocation records up to the object's free. */
static void final_drain(struct watch_run *r)
{
	r->stopping = true;	/* an object allocated now would never get its breakpoints */
	for (int i = 0; i < 64; i++)
		if (watcher__drain(r->w, on_hit, on_alloc, r) == 0 && !watcher__allocs_held(r->w))
			break;
}

/* The options that go together, and where the object is: kernel or user. */
static int check_target(struct watch_run *r)
{
	const struct command *cmd = r->cmd;
	struct watch_cfg *c = &r->cfg;
	char err[1024];

	if (!!c->object + !!c->symbol + !!c->alloc != 1)
		return cli__usage_error(cmd, "give exactly one of --object, --symbol, --alloc");
	if ((c->comm || c->pid || c->nth) && !c->alloc)
		return cli__usage_error(cmd, "--comm, --pid and --nth go with --alloc");
	if (c->comm && c->pid)
		return cli__usage_error(cmd, "give --comm or --pid, not both");
	if (!!c->fields + c->all_fields != 1)
		return cli__usage_error(cmd, "give --fields F1,F2,... or --all-fields");
	if (c->fields && !c->fields[strspn(c->fields, ", \t")])
		return cli__usage_error(cmd, "--fields '%s' names no member: give F1,F2,...",
					c->fields);
	if (c->rotate && !c->all_fields && !c->fields)
		return cli__usage_error(cmd, "--rotate goes with --fields or --all-fields");
	if (!*r->cmd_argv && !c->duration && !c->pid && c->alloc && !c->comm)
		return cli__usage_error(cmd, "--alloc without a command needs --comm or --pid");
	/* Find out now, not after the run, that the recording cannot be written; an older one
	 * becomes FILE.old, as perf record keeps it. */
	if (perf_writer__prepare_output(c->output, err, sizeof(err))) {
		cli__error("%s", err);
		return EXIT_USAGE;
	}

	r->kernel = true;
	if (c->symbol && *r->cmd_argv) {
		r->kernel = false;
	} else if (c->object) {
		const char *at = strrchr(c->object, '@');
		char *end;
		unsigned long long a;

		if (!at)
			return cli__usage_error(cmd, "--object wants 'struct T'@ADDR, not '%s'",
						c->object);
		a = strtoull(at + 1, &end, 0);
		if (*end || !a)
			return cli__usage_error(cmd, "bad address in --object '%s'", c->object);
		r->o.addr = a;
		r->kernel = a >= 0xffff800000000000ULL;
		if (!r->kernel && !*r->cmd_argv)
			return cli__usage_error(cmd, "a user address needs the command to run");
		c->type = r->type_owned = xstrndup(c->object, at - c->object);
	}
	if (r->kernel && geteuid() != 0) {
		cli__error("watching kernel memory needs root (breakpoints on kernel addresses, "
			   "kmem tracepoints, kallsyms addresses)");
		return EXIT_USAGE;
	}
	return 0;
}

/* The user program holding the object: --binary, else the workload's executable. */
static int find_program(struct watch_run *r)
{
	r->exe = r->cfg.binary ? realpath(r->cfg.binary, NULL) : resolve_cmd(r->cmd_argv[0]);
	if (!r->exe) {
		cli__error("cannot find the program '%s'", r->cfg.binary ? r->cfg.binary :
			   r->cmd_argv[0]);
		return EXIT_USAGE;
	}
	return 0;
}

/* --alloc CACHE: the cache exists, and the type of its objects is known. */
static int type_of_cache(struct watch_run *r)
{
	if (!slab_cache_exists(r->cfg.alloc)) {
		cli__error("no slab cache '%s' in this kernel (see /proc/slabinfo)", r->cfg.alloc);
		return EXIT_USAGE;
	}
	if (!r->cfg.type)
		for (size_t k = 0; k < sizeof(cache_types) / sizeof(cache_types[0]); k++)
			if (!strcmp(cache_types[k].cache, r->cfg.alloc))
				r->cfg.type = cache_types[k].type;
	if (!r->cfg.type) {
		cli__error("which struct are the objects of cache '%s'? give --type 'struct T'",
			   r->cfg.alloc);
		return EXIT_USAGE;
	}
	return 0;
}

/* --symbol of a user program: its address and (unless --type) its type from the DWARF. */
static int user_symbol(struct watch_run *r)
{
	struct global_var gv;
	char err[1024];
	int rc = find_program(r);

	if (rc)
		return rc;
	rc = code__find_global(r->exe, r->cfg.symbol, &gv, err, sizeof(err));
	if (rc < 0) {
		cli__error("%s", err);
		return EXIT_USAGE;
	}
	if (rc == 1) {
		cli__error("%s has no global variable '%s' in its symbol table", r->exe,
			   r->cfg.symbol);
		return EXIT_USAGE;
	}
	if (!r->cfg.type && !gv.type[0]) {
		cli__error("%s: no DWARF type for '%s' (build with -g, or give --type)", r->exe,
			   r->cfg.symbol);
		return EXIT_USAGE;
	}
	if (!r->cfg.type)
		r->cfg.type = r->type_owned = xstrdup(gv.type);
	r->o.addr = gv.vaddr;	/* + the load base for a PIE, once it is loaded */
	r->pie = gv.pie;
	return load_members(r, r->cfg.type, r->exe);
}

/* --symbol of the kernel: its address from kallsyms, its type from --type and BTF. */
static int kernel_symbol(struct watch_run *r)
{
	struct data_sym ds = { r->cfg.symbol, 0, 0 };

	if (!r->cfg.type) {
		cli__error("--symbol for a kernel variable needs --type 'struct T' (kernel BTF "
			   "has the types of per-CPU variables only)");
		return EXIT_USAGE;
	}
	kallsyms__for_each(NULL, find_data_sym, &ds);
	r->o.addr = ds.addr;
	if (!r->o.addr) {
		cli__error("no data symbol '%s' in /proc/kallsyms (it lists %d data symbols%s)",
			   r->cfg.symbol, ds.ndata, ds.ndata < 1000 ?
			   ": this kernel has CONFIG_KALLSYMS_ALL off; use --object with an "
			   "address" : "");
		return EXIT_USAGE;
	}
	return load_members(r, r->cfg.type, NULL);
}

/*
 * A user --object: its type from the program's DWARF; the address as nm prints it (relocated
 * by the load base for a PIE) or as the running program has it.
 */
static int user_object(struct watch_run *r)
{
	int rc = find_program(r);

	if (rc)
		return rc;
	rc = elf_is_pie(r->exe);
	if (rc < 0) {
		cli__error("%s: not an ELF file", r->exe);
		return EXIT_USAGE;
	}
	r->pie = rc;
	return load_members(r, r->cfg.type, r->exe);
}

/* The object's type and members, and its address where it is known before the run. */
static int load_target(struct watch_run *r)
{
	int rc;

	if (r->cfg.alloc && (rc = type_of_cache(r)))
		return rc;
	if (r->cfg.symbol)
		return r->kernel ? kernel_symbol(r) : user_symbol(r);
	if (r->cfg.object && !r->kernel)
		return user_object(r);
	return load_members(r, r->cfg.type, NULL);
}

/* How each hit's kind is told: code bytes to decode (and from where), or breakpoint pairs. */
static void choose_method(struct watch_run *r)
{
	char err[1024] = "";

	code_reader__new(&r->code);
	r->method = "instruction decode (capstone) of the program's own code, read from its ELF "
		    "files; accesses from kernel mode not watched (not root)";
	if (!r->kernel && geteuid() == 0)
		r->method = "instruction decode (capstone) of the program's own code, read from its "
			    "ELF files (kernel-mode hits: of the running kernel's text)";
	if (r->kernel || geteuid() == 0) {
		if (add_kernel_code(r->code, err, sizeof(err)) == 0 && r->kernel)
			r->method = strcmp(code_reader__kernel_source(r->code), "/proc/kcore") ?
					    "instruction decode (capstone) of the running kernel's "
					    "text read with bpf_probe_read_kernel" :
					    "instruction decode (capstone) of /proc/kcore";
		else if (r->kernel && !r->cfg.method)
			r->pair = true;		/* no code bytes: the honest fallback */
		else if (r->kernel)
			r->method = r->method_owned = xasprintf("unknown for kernel code (%s)", err);
	}
	if (r->cfg.method && !strcmp(r->cfg.method, "pair"))
		r->pair = true;
	if (r->pair)
		r->method = r->method_owned = xasprintf(
			"write-only + read/write breakpoint pair on each word (a hit on both is a "
			"write, on the read/write one alone a load; writes are counted as stores: "
			"the pair cannot tell a store from an RMW)%s%s%s",
			r->cfg.method ? "" : " because kernel code cannot be read (", r->cfg.method ?
			"" : err, r->cfg.method ? "" : ")");
}

/* Breakpoint slots: how many members one group watches, and how many groups rotate. */
static int plan_groups(struct watch_run *r)
{
	char err[1024];

	r->slots = watcher__probe_slots(err, sizeof(err));
	if (r->slots <= 0) {
		cli__error("%s", err);
		return EXIT_RUNTIME;
	}
	r->group_size = r->pair ? r->slots / 2 : r->slots;
	if (!r->group_size) {
		cli__error("the pair method needs 2 free breakpoint slots, this machine has %d free",
			   r->slots);
		return EXIT_RUNTIME;
	}
	if (r->o.nr_order > r->group_size && !r->cfg.rotate && r->pair) {
		cli__error("%zu members but the pair method watches at most %zu with %d free "
			   "breakpoint slots (two per member): fewer members, --method decode, or "
			   "--rotate SECONDS", r->o.nr_order, r->group_size, r->slots);
		return EXIT_USAGE;
	}
	if (r->o.nr_order > (size_t)r->slots && !r->cfg.rotate) {
#if defined(__x86_64__) || defined(__i386__)
		const int arch_slots = 4;	/* DR0-DR3 */
#else
		const int arch_slots = r->slots;
#endif
		if (r->slots < arch_slots)
			cli__error("%zu members but only %d breakpoint slots are free on this machine "
				   "(it has %d; %d in use by another tool such as perf or gdb): watch "
				   "at most %d, or add --rotate SECONDS", r->o.nr_order, r->slots,
				   arch_slots, arch_slots - r->slots, r->slots);
		else
			cli__error("%zu members but only %d breakpoint slots are free on this machine "
				   "(it has %d): watch at most %d, or add --rotate SECONDS",
				   r->o.nr_order, r->slots, arch_slots, r->slots);
		return EXIT_USAGE;
	}
	r->nr_groups = (r->o.nr_order + r->group_size - 1) / r->group_size;
	return 0;
}

/*
 * A user workload: started stopped right after its exec, so that a PIE's object is relocated
 * by its load base and its code and maps are read before it runs.
 */
static int attach_user(struct watch_run *r, struct watch_opts *wo)
{
	uint64_t base = 0;

	if (start_workload(r, true))
		return EXIT_USAGE;
	if (workload__wait(&r->wl, true, NULL) != 2) {
		cli__error("cannot start %s: it ended before its first instruction", r->cmd_argv[0]);
		return EXIT_USAGE;
	}
	if (r->pie) {	/* relocate by the load base */
		if (load_base(r->wl.pid, r->exe, &base) < 0) {
			cli__error("cannot find where %s is loaded", r->exe);
			kill(r->wl.pid, SIGKILL);
			return EXIT_RUNTIME;
		}
		/* --object: an address below the load base is a link-time one (nm's); nothing of
		 * the process is mapped there. */
		if (!r->cfg.object || r->o.addr < base)
			r->o.addr += base;
	}
	proc_maps__for_each(NULL, r->wl.pid, code_map, r->code);
	save_maps(r);
	wo->pid = r->wl.pid;
	wo->exclude_kernel = geteuid() != 0;
	return 0;
}

/* Kernel objects: allocations followed through the kmem tracepoints, filtered to ours. */
static int follow_kernel_allocs(struct watch_run *r)
{
	char err[1024];
	int mounted;

	if (!tracefs__dir(&mounted, err, sizeof(err))) {
		cli__error("%s", err);
		return EXIT_RUNTIME;
	}
	if (watcher__follow_allocs(r->w, err, sizeof(err)) < 0) {
		cli__error("%s", err);
		return EXIT_RUNTIME;
	}
	if (r->cfg.alloc && watcher__filter_allocs(r->w, r->cfg.alloc, err, sizeof(err)) < 0)
		cli__error("%s (following every cache instead)", err);
	if (r->cfg.alloc)
		kobject_namer__new(&r->namer, r->code, is_file(r));
	if (!r->cfg.alloc && r->o.addr && watcher__filter_object(r->w, r->o.addr, err, sizeof(err)) < 0)
		cli__error("%s", err);
	return 0;
}

/* A kernel target's workload: held until the tracepoints and breakpoints are in place. */
static int start_kernel_workload(struct watch_run *r)
{
	char self[32] = "lineup", msg[PATH_MAX + 128];

	if (start_workload(r, false))
		return EXIT_USAGE;
	/* Until its exec (a COMM record) the child has our name: /proc, read later, would
	 * already show the new one. */
	host__thread_comm(getpid(), getpid(), self, sizeof(self));
	set_comm(r, r->wl.pid, r->wl.pid, self);
	if (workload__start(&r->wl) < 0) {
		cli__error("%s", r->wl.err ? workload__strerror(&r->wl, msg, sizeof(msg)) :
			   "cannot start the workload");
		return EXIT_USAGE;
	}
	return 0;
}

/* Breakpoints on the object (when its address is known), then the workload let go. */
static int start_watching(struct watch_run *r)
{
	struct watch_opts wo = { 0 };
	char err[1024];
	int rc;

	if (!r->kernel && (rc = attach_user(r, &wo)))
		return rc;
	if (watcher__new(&r->w, &wo, err, sizeof(err)) < 0) {
		cli__error("%s", err);
		return EXIT_RUNTIME;
	}
	if (r->kernel && (rc = follow_kernel_allocs(r)))
		return rc;
	r->start_ns = r->life_from = now_ns();
	if (r->o.addr) {
		watch_object__place_words(&r->o);
		rc = install_group(r);
		if (rc)
			return rc;
	}
	if (r->kernel && *r->cmd_argv)
		return start_kernel_workload(r);
	if (!r->kernel)
		ptrace(PTRACE_DETACH, r->wl.pid, NULL, NULL);
	return 0;
}

#define SKIP_NS 250000000ULL	/* an object freed this soon after its allocation is skipped */

/* --alloc without --nth, and the object not yet known to outlive SKIP_NS. */
static bool may_skip(const struct watch_run *r)
{
	return r->cfg.alloc && !r->cfg.nth && !r->settled;
}

/* This object it is: only its frees from now on, no more allocations. */
static void settle(struct watch_run *r)
{
	char err[1024];

	r->settled = true;
	/*
	 * --nth on a slab cache: its allocations and frees (already filtered to the cache) go on
	 * being read, for the hint if the object dies early.  A kmalloc size class's frees are
	 * kfree's, of every object: those are cut down to this one's.
	 */
	r->tracking = r->cfg.nth && strncmp(r->cfg.alloc, "kmalloc-", 8);
	if (!r->tracking && watcher__filter_object(r->w, r->o.addr, err, sizeof(err)) < 0)
		cli__error("%s", err);
}

static void drop_after_free(struct watch_run *r);
static void classify_hits(struct watch_run *r);
static void replay(struct watch_run *r);

/* The skipped object's hits classified and replayed, and kept with it for its section. */
static void keep_skipped(struct watch_run *r)
{
	struct skipped_object *k;

	drop_after_free(r);
	classify_hits(r);
	replay(r);
	r->skips = xrealloc(r->skips, (r->nr_skips + 1) * sizeof(*r->skips));
	k = &r->skips[r->nr_skips++];
	memset(k, 0, sizeof(*k));
	watch_object__copy(&k->o, &r->o);
	k->what = r->what;
	k->late = named_late(r);
	k->nth = r->nth_seen;
	k->alloc_time = r->alloc_time;
	k->free_time = r->free_time;
	k->life_from = r->life_from;
	k->alloc_tid = r->alloc_tid;
	k->free_tid = r->free_tid;
	memcpy(k->alloc_comm, r->alloc_comm, sizeof(k->alloc_comm));
	memcpy(k->free_comm, r->free_comm, sizeof(k->free_comm));
	k->nr_hits = r->nr_hits;
}

/*
 * The followed object was freed within SKIP_NS of its allocation (a loader's file, a
 * temporary one): keep its results for a section of its own, say so, and follow the next
 * allocation that matches.
 */
static void skip_object(struct watch_run *r)
{
	char lt[32];

	if (!r->cfg.quiet)
		fprintf(stderr, "lineup watch: %s at %#" PRIx64 " (allocation %lld%s%s) was freed "
			"%s after its allocation: skipped, following the next one (--nth %lld takes "
			"it anyway)\n", r->type_name, r->o.addr, r->nth_seen,
			r->what.path[0] ? ", " : "", r->what.path[0] && named_late(r) ?
			"unknown, read after its free" : r->what.path,
			duration_text((r->free_time - r->alloc_time) / 1e9, lt, sizeof(lt)),
			r->nth_seen);
	close_group(r);
	watcher__clear_points(r->w);
	if (r->nr_skips < MAX_SECTIONS)
		keep_skipped(r);
	free(r->wh);
	r->wh = NULL;
	r->nr_wh = 0;
	free(r->sites);
	r->sites = NULL;
	r->nr_sites = r->sites_cap = 0;
	watch_object__reset(&r->o);
	r->group = 0;
	r->skipped++;
	r->freed = false;
	r->nr_hits = 0;
	r->dropped_after_free = 0;
	r->hits_over_cap = 0;
	r->life_from = 0;
}

/* The followed allocation came: watch that object from now on. */
static int object_found(struct watch_run *r)
{
	int rc;

	/*
	 * Named first (a few /proc reads), before the breakpoints (tens of ms to open on every
	 * CPU), while a short-lived object still holds its memory; said once its free (or not)
	 * shows whether the memory was still its own.
	 */
	name_object(r);
	r->start_ns = now_ns();
	/* from its allocation: what it met before the breakpoints went in was not seen */
	r->life_from = r->alloc_time < r->start_ns ? r->alloc_time : r->start_ns;
	watch_object__place_words(&r->o);
	rc = install_group(r);
	if (rc)
		return rc;
	if (!r->cfg.quiet)
		fprintf(stderr, "lineup watch: %s at %#" PRIx64 " allocated by %s/%u, watching %zu "
			"member%s\n", r->type_name, r->o.addr, r->alloc_comm, r->alloc_tid,
			r->o.nr_order, r->o.nr_order == 1 ? "" : "s");
	/* while it may still be skipped, allocations keep coming (a filter is set only once) */
	if (!may_skip(r))
		settle(r);
	return 0;
}

/* --rotate: the next group of members gets the breakpoints.  1 when the object was freed. */
static int rotate(struct watch_run *r)
{
	if (watcher__drain(r->w, on_hit, on_alloc, r) == 2)
		return 1;
	close_group(r);
	r->group = (r->group + 1) % r->nr_groups;
	return install_group(r) ? -1 : 0;
}

/*
 * Read hits and allocation records until the object is freed, the workload exits, the
 * duration ends or a signal comes; r->why says which.  Returns an exit code or 0.
 */
static int watch_loop(struct watch_run *r)
{
	uint64_t deadline = r->cfg.duration ? r->start_ns + (uint64_t)(r->cfg.duration * 1e9) : 0;
	int rc;

	r->why = "signal";
	while (!stop_signal) {
		int d;

		watcher__poll(r->w, 50);
		d = watcher__drain(r->w, on_hit, on_alloc, r);
		if (d == 1) {
			rc = object_found(r);
			if (rc)
				return rc;
			continue;
		}
		if (d == 2 && may_skip(r) && r->free_time - r->alloc_time < SKIP_NS) {
			skip_object(r);
			continue;
		}
		if (d == 2) {
			/* Hits before the free still count; the rest are on freed memory. */
			final_drain(r);
			r->why = "the object was freed";
			return 0;
		}
		/*
		 * Settled once every record up to SKIP_NS after the allocation was read and no
		 * free was among them: not on the clock alone, or a loaded machine that kept us
		 * from reading the free for a while would settle an object freed in time.
		 */
		if (r->o.addr && may_skip(r) &&
		    watcher__allocs_complete(r->w) >= r->alloc_time + SKIP_NS)
			settle(r);
		if (reap_child(r, false)) {
			/* Its exit closed the file: the free is in the buffers, read it too. */
			final_drain(r);
			r->why = r->freed ? "the object was freed" : "the workload exited";
			return 0;
		}
		if (deadline && now_ns() >= deadline) {
			final_drain(r);
			r->why = r->freed ? "the object was freed" : "the duration ended";
			return 0;
		}
		if (r->o.addr && r->cfg.rotate && r->nr_groups > 1 &&
		    now_ns() - r->group_since >= (uint64_t)(r->cfg.rotate * 1e9)) {
			rc = rotate(r);
			if (rc < 0)
				return EXIT_RUNTIME;
			if (rc) {
				final_drain(r);
				r->why = "the object was freed";
				return 0;
			}
		}
	}
	final_drain(r);
	return 0;
}

/* The breakpoints stay on until the free is read: the hits after it are on memory no longer
 * the object's, dropped (and counted). */
static void drop_after_free(struct watch_run *r)
{
	size_t k = 0;

	if (!r->freed)
		return;
	for (size_t h = 0; h < r->nr_hits; h++) {
		if (r->hits[h].time > r->free_time) {
			r->dropped_after_free++;
			continue;
		}
		r->hit_member[k] = r->hit_member[h];
		r->hits[k++] = r->hits[h];
	}
	r->nr_hits = k;
}

/* Breakpoints off, the stop said, and the hits on freed memory dropped. */
static void stop_watching(struct watch_run *r)
{
	r->end_ns = now_ns();
	if (!r->cfg.quiet)
		fprintf(stderr, "lineup watch: stopped: %s%s%s after %.2f s, %zu breakpoint samples\n",
			r->why, r->freed ? " by " : "", r->freed ? r->free_comm : "",
			(r->end_ns - r->start_ns) / 1e9, r->nr_hits);
	close_group(r);
	watcher__clear_points(r->w);
	if (!r->tracking)
		watcher__stop_allocs(r->w);
	if (stop_signal && !r->cfg.quiet)
		fprintf(stderr, "lineup watch: stopped by signal %d\n", (int)stop_signal);
	drop_after_free(r);
}

/* Pair mode: each hit's kind from its two breakpoints (analyzer/watch_replay.h). */
static int *pair_kinds(const struct watch_run *r)
{
	struct wr_hit *h = xcalloc(r->nr_hits ? r->nr_hits : 1, sizeof(*h));
	int *kinds;

	for (size_t i = 0; i < r->nr_hits; i++)
		h[i] = (struct wr_hit){ .time = r->hits[i].time, .ip = r->hits[i].ip,
					.cpu = r->hits[i].cpu, .tid = r->hits[i].tid,
					.field = r->hit_member[i] };
	kinds = wr_hits__pair_kinds(h, r->nr_hits, PAIR_W);
	free(h);
	return kinds;
}

/* The code site of a hit: found, or made and classified (decoded, or by its pair @kind). */
static struct site *site_of(struct watch_run *r, const struct watch_hit *hit, int member, int kind)
{
	struct site *s;

	for (size_t k = 0; k < r->nr_sites; k++)
		if (r->sites[k].ip == hit->ip && r->sites[k].member == member &&
		    (kind < 0 || (int)r->sites[k].info.kind == kind))
			return &r->sites[k];
	r->sites = xgrow(r->sites, &r->sites_cap, r->nr_sites + 1, sizeof(*r->sites));
	s = &r->sites[r->nr_sites++];
	memset(s, 0, sizeof(*s));
	s->ip = hit->ip;
	s->kernel = hit->kernel;
	s->member = member;
	if (kind < 0) {
		code_reader__classify(r->code, hit->ip, hit->kernel, &s->info);
	} else {
		uint64_t start = 0;

		/* No instruction: the site is the trap address. */
		s->info.kind = (enum access_kind)kind;
		s->info.func = code_reader__function(r->code, hit->ip - 1, hit->kernel, &start);
		s->info.func_off = s->info.func ? hit->ip - start : 0;
		snprintf(s->info.text, sizeof(s->info.text), "(trap at %#" PRIx64 ")", hit->ip);
	}
	return s;
}

/* Every hit classified (load/store/RMW) and tied to its code site, as the replay takes it. */
static void classify_hits(struct watch_run *r)
{
	int *kinds = r->pair ? pair_kinds(r) : NULL;

	r->wh = xcalloc(r->nr_hits ? r->nr_hits : 1, sizeof(*r->wh));
	for (size_t h = 0; h < r->nr_hits; h++) {
		const struct watch_hit *hit = &r->hits[h];
		int member = r->hit_member[h] & ~PAIR_W, kind = kinds ? kinds[h] : -2;
		struct site *s;
		struct wr_hit *w;

		if (kind == -1)
			continue;	/* the W half of a pair: evidence, not a hit of its own */
		s = site_of(r, hit, member, kind);
		s->count++;
		w = &r->wh[r->nr_wh++];
		w->time = hit->time;
		w->ip = hit->ip;
		w->cpu = hit->cpu;
		w->tid = hit->tid;
		w->field = member;
		w->group = hit->gen;
		w->site = s - r->sites;
		w->kind = (enum wr_kind)s->info.kind;
	}
	free(kinds);
	r->nr_hits = r->nr_wh;	/* the table, the perf.data and the replay count these */
}

/* The exact access order through the coherence model: transfers per member and per site. */
static void replay(struct watch_run *r)
{
	struct wr_field *fields = xcalloc(r->o.nr_members, sizeof(*fields));
	unsigned int shift = 0;

	while ((1u << shift) < r->o.line_size)
		shift++;
	for (size_t k = 0; k < r->o.nr_order; k++)
		r->o.members[r->o.order[k]].st.cpu_kinds = xcalloc((size_t)r->o.nr_cpus * WR_NR_KINDS,
								    sizeof(uint64_t));
	for (size_t m = 0; m < r->o.nr_members; m++)
		fields[m] = r->o.members[m].st;
	wr_report__replay(r->wh, r->nr_hits, fields, r->o.nr_members, shift, r->o.nr_cpus);
	for (size_t m = 0; m < r->o.nr_members; m++)
		r->o.members[m].st = fields[m];
	free(fields);
	for (size_t h = 0; h < r->nr_hits; h++)
		if (r->wh[h].site >= 0)
			r->sites[r->wh[h].site].transfers += r->wh[h].transfer;
}

/* The workload is not left behind: ended on a signal, waited for otherwise. */
/*
 * The workload is lineup's child: it is never left behind.  Stopped by a signal, it is ended;
 * stopped otherwise (the object freed), it runs on until it exits, until --duration from the
 * start, or until Ctrl-C (then it is ended), as the user chose for the run.
 */
static void end_workload(struct watch_run *r)
{
	uint64_t deadline = r->cfg.duration ? r->start_ns + (uint64_t)(r->cfg.duration * 1e9) : 0;
	bool said = false;

	while (r->wl.pid > 0 && !r->wl.exited) {
		if (stop_signal || (deadline && now_ns() >= deadline)) {
			kill(r->wl.pid, SIGTERM);
			reap_child(r, true);
			break;
		}
		reap_child(r, false);
		if (r->wl.exited)
			break;
		if (!said && !r->cfg.quiet) {
			fprintf(stderr, "lineup watch: waiting for %s (pid %d) to end%s; Ctrl-C ends "
				"it\n", r->cmd_argv[0] ? r->cmd_argv[0] : "the workload",
				(int)r->wl.pid, deadline ? " or the duration" : "");
			said = true;
		}
		if (r->tracking && r->w) {
			/* the later allocations, for the --nth hint */
			watcher__poll(r->w, 50);
			watcher__drain(r->w, NULL, on_alloc, r);
		} else {
			usleep(50000);
		}
		reap_child(r, false);
	}
	/* the frees its exit made, every round of them */
	for (int i = 0; r->tracking && r->w && i < 64; i++)
		if (watcher__drain(r->w, NULL, on_alloc, r) == 0 && !watcher__allocs_held(r->w))
			break;
	workload__end(&r->wl);
}

/*
 * The object --nth chose died early: the first later allocation that lived SKIP_NS or more
 * (freed that late, or still allocated when the workload ended) is the --nth to take.
 */
static void hint_later(const struct watch_run *r)
{
	uint64_t end = now_ns();
	char lt[32];

	if (!r->tracking || !r->freed || (life_secs(r) >= 0.25 && r->nr_hits))
		return;
	for (size_t i = 0; i < r->nr_later; i++) {
		uint64_t until = r->later[i].free_time ? r->later[i].free_time : end;

		if (until - r->later[i].time < SKIP_NS)
			continue;
		cli__error("watch: allocation %lld of those that matched (at %#" PRIx64 ") lived "
			   "%s%s: --nth %lld watches it", r->later[i].nth, r->later[i].ptr,
			   r->later[i].free_time ? "" : "at least ",
			   duration_text((until - r->later[i].time) / 1e9, lt, sizeof(lt)),
			   r->later[i].nth);
		return;
	}
	if (r->later_seen)
		cli__error("watch: none of the %lld allocations that matched after number %lld "
			   "lived 250 ms while the workload ran", r->later_seen, r->nth_seen);
}

/*
 * What the numbers leave out, said where it is easy to miss: members the rotation never reached
 * while the object lived, and an object that died before much could be seen (a process's first
 * files are the loader's: the hint says how to take a later one).
 */
static void warn_coverage(const struct watch_run *r)
{
	double life = life_secs(r);
	char lt[32];
	size_t n = 0;

	for (size_t k = 0; k < r->o.nr_order; k++)
		n += !r->o.members[r->o.order[k]].watched_ns;
	if (n) {
		struct strbuf sb = STRBUF_INIT;

		for (size_t k = 0; k < r->o.nr_order; k++)
			if (!r->o.members[r->o.order[k]].watched_ns)
				strbuf__addf(&sb, "%s%s", sb.len ? ", " : "",
					     r->o.members[r->o.order[k]].name);
		cli__error("watch: warning: %zu of %zu members never had a breakpoint in the "
			   "object's %s (cover 0%%: their counts are not zero, they are "
			   "unknown): %s%s%s", n, r->o.nr_order,
			   duration_text(life, lt, sizeof(lt)), sb.buf,
			   r->freed ? "" : "; run longer",
			   r->freed || !r->cfg.rotate ? "" : " or rotate faster (--rotate)");
		strbuf__release(&sb);
	}
	if (r->freed && r->cfg.alloc && (life < 0.25 || !r->nr_hits))
		cli__error("watch: the %s allocated by %s/%u was freed %s after its "
			   "allocation, with %zu hit%s: it may not be the object meant; --nth %lld "
			   "watches the next allocation that matches (this was number %lld)",
			   r->type_name, r->alloc_comm, r->alloc_tid,
			   duration_text(life, lt, sizeof(lt)), r->nr_hits, plural(r->nr_hits),
			   r->nth_seen + 1, r->nth_seen);
}

static int watch_run_inner(struct watch_run *r, int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int rc;

	rc = check_target(r);
	if (!rc)
		rc = load_target(r);
	if (rc)
		return rc;
	choose_method(r);
	rc = plan_groups(r);
	if (rc)
		return rc;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	rc = start_watching(r);
	if (!rc)
		rc = watch_loop(r);
	if (rc)
		return rc;
	stop_watching(r);
	if (!r->o.addr && r->skipped) {
		const struct skipped_object *longest = NULL;
		char lt[32], best[KOBJECT_PATH + 96] = "";

		/* what they were, each in its section; the longest-lived is the best guess */
		if (r->cfg.csv)
			print_report_csv(r);
		else if (!r->cfg.json)
			print_skipped_all(r);
		for (size_t i = 0; i < r->nr_skips; i++)
			if (!longest || r->skips[i].free_time - r->skips[i].alloc_time >
					longest->free_time - longest->alloc_time)
				longest = &r->skips[i];
		if (longest)
			snprintf(best, sizeof(best), " (the longest-lived: --nth %lld, %s%s%s)",
				 longest->nth, longest->late ? "" : longest->what.path,
				 longest->what.path[0] && !longest->late ? ", " : "",
				 duration_text((longest->free_time - longest->alloc_time) / 1e9, lt,
					       sizeof(lt)));
		cli__error("no %s object allocated%s%s%s outlived %s before %s: %u freed sooner, "
			   "skipped; --nth N watches the N-th anyway%s",
			   r->cfg.alloc, r->cfg.comm ? " by " : "", r->cfg.comm ? r->cfg.comm : "",
			   r->cfg.pid ? " by that process" : "", "250 ms",
			   r->wl.exited ? "the workload exited" : "the watch ended", r->skipped, best);
		return EXIT_NOTHING;
	}
	if (!r->o.addr) {
		cli__error("no %s object was allocated%s%s%s before %s", r->cfg.alloc ? r->cfg.alloc :
			   "", r->cfg.comm ? " by " : "", r->cfg.comm ? r->cfg.comm : "",
			   r->cfg.pid ? " by that process" : "",
			   r->wl.exited ? "the workload exited" : "the watch ended");
		return EXIT_NOTHING;
	}
	warn_coverage(r);
	classify_hits(r);
	replay(r);
	if (write_perf_data(r, argc, argv) < 0)
		rc = EXIT_RUNTIME;
	if (r->nr_sites)	/* none when the object died before a breakpoint went in */
		qsort(r->sites, r->nr_sites, sizeof(*r->sites), site_cmp);
	if (r->cfg.json) {
		print_report_json(r);
	} else if (r->cfg.csv) {
		print_report_csv(r);
	} else {
		print_report(r);
		printf("# written to %s (perf script -i %s lists the hits)\n", r->cfg.output,
		       r->cfg.output);
	}
	if (!rc && !r->nr_hits)
		rc = EXIT_NOTHING;
	return cli__close_output(stdout, "standard output", rc);
}

static int watch_run(const struct command *cmd, int argc, char **argv)
{
	struct watch_run run = { .cmd = cmd, .wl = WORKLOAD_INIT };
	unsigned int nr_cpus = (unsigned int)sysconf(_SC_NPROCESSORS_CONF);
	int prc, i = cli__parse(cmd, argc, argv, watch_option, &run, &prc), rc;

	if (i < 0)
		return prc;
	run.cmd_argv = argv + i;
	if (!run.cfg.output)
		run.cfg.output = "watch.data";
	if (nr_cpus < 1 || nr_cpus > 4096)
		nr_cpus = 1;
	watch_object__init(&run.o, host__cache_line_size(), nr_cpus);
	rc = watch_run_inner(&run, argc, argv);
	end_workload(&run);
	hint_later(&run);
	if (run.w)
		watcher__delete(run.w);
	if (run.wl.exited && WIFEXITED(run.wl.status) && WEXITSTATUS(run.wl.status) == 127 &&
	    !run.nr_hits && !rc)
		rc = EXIT_USAGE;
	watch_run__release(&run);
	return rc;
}

const struct command cmd_watch = {
	.name = "watch",
	.summary = "hardware breakpoints on members of one real object: who touches what, how",
	.usage = "[-o FILE] TARGET (--fields F1,F2,... | --all-fields [--rotate S]) [-- CMD]",
	.description =
		"Put hardware breakpoints (libperf, PERF_TYPE_BREAKPOINT) on chosen members of "
		"one object: a kernel slab object followed from kmem:kmem_cache_alloc (--alloc), "
		"a global (--symbol) or an address (--object). Every hit is classified load, "
		"store or locked read-modify-write by decoding the instruction that ended at the "
		"trap address, the exact access order is replayed through the coherence model, "
		"and the hits are written to a perf.data that perf script and lineup report "
		"read. Watching stops when the object is freed; a workload still running is "
		"waited for (until --duration, or Ctrl-C, ends it). The cover column is the share "
		"of the object's life, from its allocation, that a member's breakpoint was on. "
		"With --alloc, an object freed within 250 ms of its allocation (a loader's file, a "
		"temporary) is skipped and the next one that matches followed, unless --nth "
		"chose it; each object skipped keeps a section of the report (what it was, its "
		"life, its hits per member and cover), before the watched one's. When an object "
		"--nth chose dies early, the allocations after it are followed while the workload "
		"runs, and the --nth of the first that lived 250 ms is named. "
		"Each object followed is said: a struct file by its path (the allocating task's "
		"fd or mapping of it, else its dentries, read from kernel memory), any object by "
		"its allocating kernel call chain and user-space caller. "
		"Needs root for kernel objects.",
	.options = watch_options,
	.run = watch_run,
};
