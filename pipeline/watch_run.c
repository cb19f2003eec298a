// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The watch engine (watch_run.h): target resolution, breakpoint scheduling, following
 * allocations, writing perf.data, classifying and replaying hits.  Moved out of cli/ so that
 * any front end can watch; what it says goes through r->say.
 */
#include <config.h>

#include "pipeline/watch_run.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analyzer/watch_replay.h"
#include "dwarf/layout.h"
#include "sampling/host.h"
#include "sampling/perf_writer.h"
#include "sampling/tracefs.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static void watch_run__vsay(const struct watch_run *r, enum watch_say kind, const char *fmt,
			    va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf__vaddf(&sb, fmt, ap);
	if (r->say)
		r->say(r->say_ctx, kind, sb.buf ? sb.buf : "");
	strbuf__release(&sb);
}

static void watch_run__say(const struct watch_run *r, enum watch_say kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void watch_run__say(const struct watch_run *r, enum watch_say kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	watch_run__vsay(r, kind, fmt, ap);
	va_end(ap);
}

/* A usage error, said: WATCH_BAD. */
static int watch_run__usage(const struct watch_run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int watch_run__usage(const struct watch_run *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	watch_run__vsay(r, WATCH_SAY_USAGE, fmt, ap);
	va_end(ap);
	return WATCH_BAD;
}

void watch_run__init(struct watch_run *r)
{
	unsigned int nr_cpus = (unsigned int)sysconf(_SC_NPROCESSORS_CONF);

	memset(r, 0, sizeof(*r));
	r->wl = (struct workload)WORKLOAD_INIT;
	if (nr_cpus < 1 || nr_cpus > 4096)
		nr_cpus = 1;
	watch_object__init(&r->o, host__cache_line_size(), nr_cpus);
}


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

static volatile sig_atomic_t stop_signal;

int watch_run__signal(void)
{
	return stop_signal;
}


void watch_run__on_signal(int sig)
{
	stop_signal = sig;
}

uint64_t watch_run__now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
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
			watch_run__say(r, WATCH_SAY_ERROR, "%s has no member '%s' (its members: 'lineup layout "
				   "%s-C %s%s%s')", r->type_name, f, r->kernel ? "--btf " : "",
				   bare_type(type), elf ? " " : "", elf ? elf : "");
			free(copy);
			return WATCH_BAD;
		}
		/* The same member twice would take two slots for one word: once. */
		for (size_t k = 0; k < r->o.nr_order; k++)
			dup |= !strcmp(r->o.members[r->o.order[k]].name, f);
		if (dup) {
			if (!r->cfg.quiet)
				watch_run__say(r, WATCH_SAY_NOTE, "member '%s' given twice in "
					"--fields: watched once", f);
			continue;
		}
		watch_object__watch(&r->o, watch_object__add_member(&r->o, f, off, m->size));
	}
	free(copy);
	if (!r->o.nr_order) {
		watch_run__say(r, WATCH_SAY_ERROR, "--fields '%s' names no member of %s", r->cfg.fields, r->type_name);
		return WATCH_BAD;
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
		watch_run__say(r, WATCH_SAY_ERROR, "cannot read the layout of struct %s: %s", bare_type(type), err);
		return WATCH_BAD;
	}
	rc = layout_source__find(src, bare_type(type), &t, err, sizeof(err));
	if (rc) {
		const char *near[3];
		int n = layout_source__closest(src, bare_type(type), near, 3);

		watch_run__say(r, WATCH_SAY_ERROR, "no struct %s in %s%s%s%s%s%s", bare_type(type),
			   r->kernel ? "the running kernel's BTF (/sys/kernel/btf/vmlinux)" : elf,
			   n ? " (did you mean " : "", n ? near[0] : "", n > 1 ? ", " : "",
			   n > 1 ? near[1] : "", n ? "?)" : "");
		layout_source__delete(src);
		return WATCH_BAD;
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
			pts[n].tag = r->o.order[k] | WATCH_PAIR_W;
			n++;
		}
	}
	rc = watcher__set_points(r->w, pts, n, err, sizeof(err));
	if (rc < 0) {
		/* The workload exited meanwhile (-ESRCH): the watch ends, no error. */
		if (reap_child(r, false))
			return 0;
		watch_run__say(r, WATCH_SAY_ERROR, "%s", err);
		return WATCH_FAILED;
	}
	r->group_since = watch_run__now_ns();
	return 0;
}

/* Account the time the current group was installed while the object lived, then move on. */
static void close_group(struct watch_run *r)
{
	uint64_t t = watch_run__now_ns(), first = r->group * r->group_size;
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
const char *watch_run__duration_text(double secs, char *buf, size_t size)
{
	if (secs < 1)
		snprintf(buf, size, "%.2f ms", secs * 1e3);
	else
		snprintf(buf, size, "%.2f s", secs);
	return buf;
}

/* The part of the object's life the watch spanned, in seconds. */
double watch_run__life_secs(const struct watch_run *r)
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
uint64_t watch_run__named_late(const struct watch_run *r)
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
	if (r->nr_hits >= WATCH_MAX_HITS) {
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
	if (r->nr_later < WATCH_MAX_LATER) {
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
		watch_run__say(r, WATCH_SAY_ERROR, "%s", r->wl.err ? workload__strerror(&r->wl, msg, sizeof(msg)) :
			   strerror(-rc));
		return WATCH_BAD;
	}
	return 0;
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
int watch_run__write(const struct watch_run *r, int argc, char **argv)
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
	watch_run__say(r, WATCH_SAY_ERROR, "%s", perf_writer__strerror(ww.pw));
	rc = -EIO;
out:
	free(ww.evsel_of);
	perf_writer__delete(ww.pw);
	return rc;
}

void watch_run__release(struct watch_run *r)
{
	if (r->w)
		watcher__delete(r->w);
	r->w = NULL;
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
int watch_run__check(struct watch_run *r)
{
	struct watch_cfg *c = &r->cfg;
	char err[1024];

	if (!!c->object + !!c->symbol + !!c->alloc != 1)
		return watch_run__usage(r, "give exactly one of --object, --symbol, --alloc");
	if ((c->comm || c->pid || c->nth) && !c->alloc)
		return watch_run__usage(r, "--comm, --pid and --nth go with --alloc");
	if (c->comm && c->pid)
		return watch_run__usage(r, "give --comm or --pid, not both");
	if (!!c->fields + c->all_fields != 1)
		return watch_run__usage(r, "give --fields F1,F2,... or --all-fields");
	if (c->fields && !c->fields[strspn(c->fields, ", \t")])
		return watch_run__usage(r, "--fields '%s' names no member: give F1,F2,...",
					c->fields);
	if (c->rotate && !c->all_fields && !c->fields)
		return watch_run__usage(r, "--rotate goes with --fields or --all-fields");
	if (!*r->cmd_argv && !c->duration && !c->pid && c->alloc && !c->comm)
		return watch_run__usage(r, "--alloc without a command needs --comm or --pid");
	/* Find out now, not after the run, that the recording cannot be written; an older one
	 * becomes FILE.old, as perf record keeps it. */
	if (perf_writer__prepare_output(c->output, err, sizeof(err))) {
		watch_run__say(r, WATCH_SAY_ERROR, "%s", err);
		return WATCH_BAD;
	}

	r->kernel = true;
	if (c->symbol && *r->cmd_argv) {
		r->kernel = false;
	} else if (c->object) {
		const char *at = strrchr(c->object, '@');
		char *end;
		unsigned long long a;

		if (!at)
			return watch_run__usage(r, "--object wants 'struct T'@ADDR, not '%s'",
						c->object);
		a = strtoull(at + 1, &end, 0);
		if (*end || !a)
			return watch_run__usage(r, "bad address in --object '%s'", c->object);
		r->o.addr = a;
		r->kernel = a >= 0xffff800000000000ULL;
		if (!r->kernel && !*r->cmd_argv)
			return watch_run__usage(r, "a user address needs the command to run");
		c->type = r->type_owned = xstrndup(c->object, at - c->object);
	}
	if (r->kernel && geteuid() != 0) {
		watch_run__say(r, WATCH_SAY_ERROR, "watching kernel memory needs root (breakpoints on kernel addresses, "
			   "kmem tracepoints, kallsyms addresses)");
		return WATCH_BAD;
	}
	return 0;
}

/* The user program holding the object: --binary, else the workload's executable. */
static int find_program(struct watch_run *r)
{
	r->exe = r->cfg.binary ? realpath(r->cfg.binary, NULL) : workload__which(r->cmd_argv[0]);
	if (!r->exe) {
		watch_run__say(r, WATCH_SAY_ERROR, "cannot find the program '%s'", r->cfg.binary ? r->cfg.binary :
			   r->cmd_argv[0]);
		return WATCH_BAD;
	}
	return 0;
}

/* --alloc CACHE: the cache exists, and the type of its objects is known. */
static int type_of_cache(struct watch_run *r)
{
	if (!slab_cache_exists(r->cfg.alloc)) {
		watch_run__say(r, WATCH_SAY_ERROR, "no slab cache '%s' in this kernel (see /proc/slabinfo)", r->cfg.alloc);
		return WATCH_BAD;
	}
	if (!r->cfg.type)
		for (size_t k = 0; k < sizeof(cache_types) / sizeof(cache_types[0]); k++)
			if (!strcmp(cache_types[k].cache, r->cfg.alloc))
				r->cfg.type = cache_types[k].type;
	if (!r->cfg.type) {
		watch_run__say(r, WATCH_SAY_ERROR, "which struct are the objects of cache '%s'? give --type 'struct T'",
			   r->cfg.alloc);
		return WATCH_BAD;
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
		watch_run__say(r, WATCH_SAY_ERROR, "%s", err);
		return WATCH_BAD;
	}
	if (rc == 1) {
		watch_run__say(r, WATCH_SAY_ERROR, "%s has no global variable '%s' in its symbol table", r->exe,
			   r->cfg.symbol);
		return WATCH_BAD;
	}
	if (!r->cfg.type && !gv.type[0]) {
		watch_run__say(r, WATCH_SAY_ERROR, "%s: no DWARF type for '%s' (build with -g, or give --type)", r->exe,
			   r->cfg.symbol);
		return WATCH_BAD;
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
		watch_run__say(r, WATCH_SAY_ERROR, "--symbol for a kernel variable needs --type 'struct T' (kernel BTF "
			   "has the types of per-CPU variables only)");
		return WATCH_BAD;
	}
	kallsyms__for_each(NULL, find_data_sym, &ds);
	r->o.addr = ds.addr;
	if (!r->o.addr) {
		watch_run__say(r, WATCH_SAY_ERROR, "no data symbol '%s' in /proc/kallsyms (it lists %d data symbols%s)",
			   r->cfg.symbol, ds.ndata, ds.ndata < 1000 ?
			   ": this kernel has CONFIG_KALLSYMS_ALL off; use --object with an "
			   "address" : "");
		return WATCH_BAD;
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
		watch_run__say(r, WATCH_SAY_ERROR, "%s: not an ELF file", r->exe);
		return WATCH_BAD;
	}
	r->pie = rc;
	return load_members(r, r->cfg.type, r->exe);
}

/* The object's type and members, and its address where it is known before the run. */
int watch_run__load(struct watch_run *r)
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
void watch_run__choose_method(struct watch_run *r)
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
int watch_run__plan(struct watch_run *r)
{
	char err[1024];

	r->slots = watcher__probe_slots(err, sizeof(err));
	if (r->slots <= 0) {
		watch_run__say(r, WATCH_SAY_ERROR, "%s", err);
		return WATCH_FAILED;
	}
	r->group_size = r->pair ? r->slots / 2 : r->slots;
	if (!r->group_size) {
		watch_run__say(r, WATCH_SAY_ERROR, "the pair method needs 2 free breakpoint slots, this machine has %d free",
			   r->slots);
		return WATCH_FAILED;
	}
	if (r->o.nr_order > r->group_size && !r->cfg.rotate && r->pair) {
		watch_run__say(r, WATCH_SAY_ERROR, "%zu members but the pair method watches at most %zu with %d free "
			   "breakpoint slots (two per member): fewer members, --method decode, or "
			   "--rotate SECONDS", r->o.nr_order, r->group_size, r->slots);
		return WATCH_BAD;
	}
	if (r->o.nr_order > (size_t)r->slots && !r->cfg.rotate) {
#if defined(__x86_64__) || defined(__i386__)
		const int arch_slots = 4;	/* DR0-DR3 */
#else
		const int arch_slots = r->slots;
#endif
		if (r->slots < arch_slots)
			watch_run__say(r, WATCH_SAY_ERROR, "%zu members but only %d breakpoint slots are free on this machine "
				   "(it has %d; %d in use by another tool such as perf or gdb): watch "
				   "at most %d, or add --rotate SECONDS", r->o.nr_order, r->slots,
				   arch_slots, arch_slots - r->slots, r->slots);
		else
			watch_run__say(r, WATCH_SAY_ERROR, "%zu members but only %d breakpoint slots are free on this machine "
				   "(it has %d): watch at most %d, or add --rotate SECONDS",
				   r->o.nr_order, r->slots, arch_slots, r->slots);
		return WATCH_BAD;
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
		return WATCH_BAD;
	if (workload__wait(&r->wl, true, NULL) != 2) {
		watch_run__say(r, WATCH_SAY_ERROR, "cannot start %s: it ended before its first instruction", r->cmd_argv[0]);
		return WATCH_BAD;
	}
	if (r->pie) {	/* relocate by the load base */
		if (load_base(r->wl.pid, r->exe, &base) < 0) {
			watch_run__say(r, WATCH_SAY_ERROR, "cannot find where %s is loaded", r->exe);
			kill(r->wl.pid, SIGKILL);
			return WATCH_FAILED;
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
		watch_run__say(r, WATCH_SAY_ERROR, "%s", err);
		return WATCH_FAILED;
	}
	if (watcher__follow_allocs(r->w, err, sizeof(err)) < 0) {
		watch_run__say(r, WATCH_SAY_ERROR, "%s", err);
		return WATCH_FAILED;
	}
	if (r->cfg.alloc && watcher__filter_allocs(r->w, r->cfg.alloc, err, sizeof(err)) < 0)
		watch_run__say(r, WATCH_SAY_ERROR, "%s (following every cache instead)", err);
	if (r->cfg.alloc)
		kobject_namer__new(&r->namer, r->code, is_file(r));
	if (!r->cfg.alloc && r->o.addr && watcher__filter_object(r->w, r->o.addr, err, sizeof(err)) < 0)
		watch_run__say(r, WATCH_SAY_ERROR, "%s", err);
	return 0;
}

/* A kernel target's workload: held until the tracepoints and breakpoints are in place. */
static int start_kernel_workload(struct watch_run *r)
{
	char self[32] = "lineup", msg[PATH_MAX + 128];

	if (start_workload(r, false))
		return WATCH_BAD;
	/* Until its exec (a COMM record) the child has our name: /proc, read later, would
	 * already show the new one. */
	host__thread_comm(getpid(), getpid(), self, sizeof(self));
	set_comm(r, r->wl.pid, r->wl.pid, self);
	if (workload__start(&r->wl) < 0) {
		watch_run__say(r, WATCH_SAY_ERROR, "%s", r->wl.err ? workload__strerror(&r->wl, msg, sizeof(msg)) :
			   "cannot start the workload");
		return WATCH_BAD;
	}
	return 0;
}

/* Breakpoints on the object (when its address is known), then the workload let go. */
int watch_run__start(struct watch_run *r)
{
	struct watch_opts wo = { 0 };
	char err[1024];
	int rc;

	if (!r->kernel && (rc = attach_user(r, &wo)))
		return rc;
	if (watcher__new(&r->w, &wo, err, sizeof(err)) < 0) {
		watch_run__say(r, WATCH_SAY_ERROR, "%s", err);
		return WATCH_FAILED;
	}
	if (r->kernel && (rc = follow_kernel_allocs(r)))
		return rc;
	r->start_ns = r->life_from = watch_run__now_ns();
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


/* --alloc without --nth, and the object not yet known to outlive WATCH_SKIP_NS. */
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
		watch_run__say(r, WATCH_SAY_ERROR, "%s", err);
}

static void drop_after_free(struct watch_run *r);

/* The skipped object's hits classified and replayed, and kept with it for its section. */
static void keep_skipped(struct watch_run *r)
{
	struct skipped_object *k;

	drop_after_free(r);
	watch_run__classify(r);
	watch_run__replay(r);
	r->skips = xrealloc(r->skips, (r->nr_skips + 1) * sizeof(*r->skips));
	k = &r->skips[r->nr_skips++];
	memset(k, 0, sizeof(*k));
	watch_object__copy(&k->o, &r->o);
	k->what = r->what;
	k->late = watch_run__named_late(r);
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
 * The followed object was freed within WATCH_SKIP_NS of its allocation (a loader's file, a
 * temporary one): keep its results for a section of its own, say so, and follow the next
 * allocation that matches.
 */
static void skip_object(struct watch_run *r)
{
	char lt[32];

	if (!r->cfg.quiet)
		watch_run__say(r, WATCH_SAY_NOTE, "%s at %#" PRIx64 " (allocation %lld%s%s) was freed "
			"%s after its allocation: skipped, following the next one (--nth %lld takes "
			"it anyway)", r->type_name, r->o.addr, r->nth_seen,
			r->what.path[0] ? ", " : "", r->what.path[0] && watch_run__named_late(r) ?
			"unknown, read after its free" : r->what.path,
			watch_run__duration_text((r->free_time - r->alloc_time) / 1e9, lt, sizeof(lt)),
			r->nth_seen);
	close_group(r);
	watcher__clear_points(r->w);
	if (r->nr_skips < WATCH_MAX_SECTIONS)
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
	r->start_ns = watch_run__now_ns();
	/* from its allocation: what it met before the breakpoints went in was not seen */
	r->life_from = r->alloc_time < r->start_ns ? r->alloc_time : r->start_ns;
	watch_object__place_words(&r->o);
	rc = install_group(r);
	if (rc)
		return rc;
	if (!r->cfg.quiet)
		watch_run__say(r, WATCH_SAY_NOTE, "%s at %#" PRIx64 " allocated by %s/%u, watching %zu "
			"member%s", r->type_name, r->o.addr, r->alloc_comm, r->alloc_tid,
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
int watch_run__loop(struct watch_run *r)
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
		if (d == 2 && may_skip(r) && r->free_time - r->alloc_time < WATCH_SKIP_NS) {
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
		 * Settled once every record up to WATCH_SKIP_NS after the allocation was read and no
		 * free was among them: not on the clock alone, or a loaded machine that kept us
		 * from reading the free for a while would settle an object freed in time.
		 */
		if (r->o.addr && may_skip(r) &&
		    watcher__allocs_complete(r->w) >= r->alloc_time + WATCH_SKIP_NS)
			settle(r);
		if (reap_child(r, false)) {
			/* Its exit closed the file: the free is in the buffers, read it too. */
			final_drain(r);
			r->why = r->freed ? "the object was freed" : "the workload exited";
			return 0;
		}
		if (deadline && watch_run__now_ns() >= deadline) {
			final_drain(r);
			r->why = r->freed ? "the object was freed" : "the duration ended";
			return 0;
		}
		if (r->o.addr && r->cfg.rotate && r->nr_groups > 1 &&
		    watch_run__now_ns() - r->group_since >= (uint64_t)(r->cfg.rotate * 1e9)) {
			rc = rotate(r);
			if (rc < 0)
				return WATCH_FAILED;
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
void watch_run__stop(struct watch_run *r)
{
	r->end_ns = watch_run__now_ns();
	if (!r->cfg.quiet)
		watch_run__say(r, WATCH_SAY_NOTE, "stopped: %s%s%s after %.2f s, %zu breakpoint samples",
			r->why, r->freed ? " by " : "", r->freed ? r->free_comm : "",
			(r->end_ns - r->start_ns) / 1e9, r->nr_hits);
	close_group(r);
	watcher__clear_points(r->w);
	if (!r->tracking)
		watcher__stop_allocs(r->w);
	if (stop_signal && !r->cfg.quiet)
		watch_run__say(r, WATCH_SAY_NOTE, "stopped by signal %d", (int)stop_signal);
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
	kinds = wr_hits__pair_kinds(h, r->nr_hits, WATCH_PAIR_W);
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
void watch_run__classify(struct watch_run *r)
{
	int *kinds = r->pair ? pair_kinds(r) : NULL;

	r->wh = xcalloc(r->nr_hits ? r->nr_hits : 1, sizeof(*r->wh));
	for (size_t h = 0; h < r->nr_hits; h++) {
		const struct watch_hit *hit = &r->hits[h];
		int member = r->hit_member[h] & ~WATCH_PAIR_W, kind = kinds ? kinds[h] : -2;
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
void watch_run__replay(struct watch_run *r)
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
void watch_run__end_workload(struct watch_run *r)
{
	uint64_t deadline = r->cfg.duration ? r->start_ns + (uint64_t)(r->cfg.duration * 1e9) : 0;
	bool said = false;

	while (r->wl.pid > 0 && !r->wl.exited) {
		if (stop_signal || (deadline && watch_run__now_ns() >= deadline)) {
			kill(r->wl.pid, SIGTERM);
			reap_child(r, true);
			break;
		}
		reap_child(r, false);
		if (r->wl.exited)
			break;
		if (!said && !r->cfg.quiet) {
			watch_run__say(r, WATCH_SAY_NOTE, "waiting for %s (pid %d) to end%s; Ctrl-C ends "
				"it", r->cmd_argv[0] ? r->cmd_argv[0] : "the workload",
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
