// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "sampling/watch.h"

#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dirent.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <perf/core.h>
#include <perf/cpumap.h>
#include <perf/evlist.h>
#include <perf/evsel.h>
#include <perf/event.h>
#include <perf/mmap.h>
#include <perf/threadmap.h>

#include "sampling/tracepoint.h"
#include "util/xalloc.h"

/* Hits: IDENTIFIER first so that any record's id is at a fixed place. */
#define BP_SAMPLE_TYPE                                                                    \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |   \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU)
#define TP_SAMPLE_TYPE                                                                    \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |   \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW)
/* Frames per context in an allocation's call chain: who allocated, not the whole stack. */
#define TP_MAX_STACK 28

/* Which event an id belongs to. */
struct id_ent {
	uint64_t id;
	int point;		/* breakpoint index, or -1 - TP_* for a tracepoint */
	int fd;			/* the event's fd (found on demand for filters), or -1 */
};

/* The followed tracepoints, in their order in the tracepoint list. */
enum { TP_CACHE_ALLOC, TP_CACHE_FREE, TP_KMALLOC, TP_KFREE, TP_NR };
static const char *const tp_names[TP_NR] = { "kmem_cache_alloc", "kmem_cache_free", "kmalloc",
					     "kfree" };

struct watcher {
	struct watch_opts opts;
	struct perf_cpu_map *cpus;
	struct perf_thread_map *threads;

	/* allocation followers */
	struct perf_evlist *tp_list;
	struct tp_decoder *dec;
	int tp_ids[TP_NR];		/* tracepoint ids (common_type) */
	struct perf_evsel *tp_evsels[TP_NR];
	bool tp_filtered[TP_NR];	/* a perf tracepoint event takes one filter, once */

	/* breakpoints */
	struct perf_evlist *bp_list;
	struct perf_evsel **bp_evsels;
	struct watch_point *points;
	unsigned int nr_points;
	unsigned int gen;

	struct id_ent *ids;
	size_t nr_ids, ids_cap;

	uint64_t lost, throttled;
	pid_t self;
	struct watch_alloc *pending;	/* allocation records read, to sort by time */
	size_t nr_pending, pending_cap;
	/*
	 * Rounds, as perf's FINISHED_ROUND: a record stamped before the previous read of the
	 * buffers began is in them by now, whatever CPU wrote it; a later one may still be
	 * preceded by one another CPU has not written yet, and waits for the next read.
	 */
	uint64_t read_start;		/* when the previous read began (CLOCK_MONOTONIC ns) */
	uint64_t complete;		/* every record stamped before this was handed out */
};

static int silent(enum libperf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

uint64_t watcher__sample_type(void)
{
	return BP_SAMPLE_TYPE;
}

int watcher__new(struct watcher **out, const struct watch_opts *opts, char *err, size_t errlen)
{
	struct watcher *w = xcalloc(1, sizeof(*w));

	libperf_init(silent);
	w->opts = *opts;
	w->self = getpid();
	if (!w->opts.mmap_pages)
		w->opts.mmap_pages = 256;
	w->cpus = perf_cpu_map__new(NULL);
	w->threads = perf_thread_map__new_dummy();
	if (!w->cpus || !w->threads) {
		snprintf(err, errlen, "cannot read the online CPUs");
		watcher__delete(w);
		return -ENOMEM;
	}
	if (opts->pid > 0)
		perf_thread_map__set_pid(w->threads, 0, opts->pid);

	*out = w;
	return 0;
}

/* libperf's, not in its public headers: frees what perf_evlist__mmap() gave an evsel for ids. */
void perf_evsel__free_id(struct perf_evsel *evsel);

/*
 * Delete @list and its evsels.  libperf 6.1's perf_evsel__delete() frees the evsel alone: the
 * id arrays perf_evlist__mmap() made and the references to the CPU and thread maps the evlist
 * handed each evsel are the caller's to drop (LeakSanitizer found them).
 */
static void delete_list(struct perf_evlist *list)
{
	struct perf_evsel *evsel;

	perf_evlist__for_each_evsel(list, evsel) {
		perf_evsel__free_id(evsel);
		perf_cpu_map__put(perf_evsel__cpus(evsel));
		perf_thread_map__put(perf_evsel__threads(evsel));
	}
	perf_evlist__delete(list);	/* deletes the evsels too */
}

static void close_list(struct perf_evlist **listp)
{
	struct perf_evlist *list = *listp;

	if (!list)
		return;
	perf_evlist__disable(list);
	perf_evlist__munmap(list);
	perf_evlist__close(list);
	delete_list(list);
	*listp = NULL;
}

static void drop_ids(struct watcher *w, bool breakpoints)
{
	size_t k = 0;

	for (size_t i = 0; i < w->nr_ids; i++)
		if ((w->ids[i].point >= 0) != breakpoints)
			w->ids[k++] = w->ids[i];
	w->nr_ids = k;
}

void watcher__delete(struct watcher *w)
{
	if (!w)
		return;
	watcher__clear_points(w);
	watcher__stop_allocs(w);
	if (w->cpus)
		perf_cpu_map__put(w->cpus);
	if (w->threads)
		perf_thread_map__put(w->threads);
	free(w->points);
	free(w->ids);
	free(w->pending);
	free(w);
}

/* Record the kernel ids of every fd of @evsel. */
static int collect_ids(struct watcher *w, struct perf_evsel *evsel, int point)
{
	int nr_cpus = perf_cpu_map__nr(w->cpus);

	for (int c = 0; c < nr_cpus; c++) {
		struct perf_counts_values v;
		int rc = perf_evsel__read(evsel, c, 0, &v);

		if (rc < 0)
			return rc;
		w->ids = xgrow(w->ids, &w->ids_cap, w->nr_ids + 1, sizeof(*w->ids));
		w->ids[w->nr_ids].id = v.id;
		w->ids[w->nr_ids].point = point;
		w->ids[w->nr_ids].fd = -1;
		w->nr_ids++;
	}
	return 0;
}

static const struct id_ent *find_id(const struct watcher *w, uint64_t id)
{
	for (size_t i = 0; i < w->nr_ids; i++)
		if (w->ids[i].id == id)
			return &w->ids[i];
	return NULL;
}

static const char *open_errmsg(int e)
{
	switch (e) {
	case EACCES:
	case EPERM:
		return " (needs root, or kernel.perf_event_paranoid <= 1 for user addresses)";
	case ENOSPC:
		return " (no free breakpoint slot)";
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		return " (this kernel or machine has no such event)";
	default:
		return "";
	}
}

int watcher__follow_allocs(struct watcher *w, char *err, size_t errlen)
{
	struct perf_evsel *ev[TP_NR];
	int *ids = w->tp_ids, rc;

	if (w->tp_list)
		return 0;
	w->dec = tp_decoder__new();
	for (int i = 0; i < TP_NR; i++) {
		ids[i] = tp_decoder__add_tracefs(w->dec, "kmem", tp_names[i], err, errlen);
		if (ids[i] < 0) {
			rc = ids[i];
			goto fail;
		}
	}
	w->tp_list = perf_evlist__new();
	for (int i = 0; i < TP_NR; i++) {
		struct perf_event_attr attr = {
			.type = PERF_TYPE_TRACEPOINT,
			.size = sizeof(attr),
			.config = ids[i],
			.sample_period = 1,
			.sample_type = TP_SAMPLE_TYPE,
			.sample_max_stack = TP_MAX_STACK,
			/* each record wakes the poll: an object is read (named) soon after its
			 * allocation, before a short life ends */
			.wakeup_events = 1,
			.read_format = PERF_FORMAT_ID,
			.disabled = 1,
			/* Task names as they change (exec, prctl), in the same buffers. */
			.comm = i == 0,
			.comm_exec = i == 0,
			.sample_id_all = 1,
			/* times on the front end's clock: an object's life against its watch */
			.use_clockid = 1,
			.clockid = CLOCK_MONOTONIC,
		};

		ev[i] = w->tp_evsels[i] = perf_evsel__new(&attr);
		perf_evlist__add(w->tp_list, ev[i]);
		w->tp_filtered[i] = false;
	}
	{
		/* Per CPU, every task. */
		struct perf_thread_map *any = perf_thread_map__new_dummy();

		perf_evlist__set_maps(w->tp_list, w->cpus, any);
		perf_thread_map__put(any);
	}
	rc = perf_evlist__open(w->tp_list);
	if (rc < 0) {
		snprintf(err, errlen, "cannot open the kmem tracepoints: %s%s",
			 strerror(-rc), open_errmsg(-rc));
		goto fail;
	}
	rc = perf_evlist__mmap(w->tp_list, w->opts.mmap_pages);
	if (rc < 0) {
		rc = rc == -1 ? -errno : rc;
		snprintf(err, errlen, "cannot map the tracepoint ring buffers: %s", strerror(-rc));
		goto fail;
	}
	for (int i = 0; i < TP_NR; i++) {
		rc = collect_ids(w, ev[i], -1 - i);
		if (rc < 0) {
			snprintf(err, errlen, "cannot read the tracepoint event ids: %s", strerror(-rc));
			goto fail;
		}
	}
	perf_evlist__enable(w->tp_list);
	return 0;
fail:
	watcher__stop_allocs(w);
	return rc < 0 ? rc : -EINVAL;
}

void watcher__stop_allocs(struct watcher *w)
{
	close_list(&w->tp_list);
	drop_ids(w, false);
	tp_decoder__delete(w->dec);
	w->dec = NULL;
}

void watcher__clear_points(struct watcher *w)
{
	close_list(&w->bp_list);
	drop_ids(w, true);
	zfree(&w->bp_evsels);
	w->nr_points = 0;
}

int watcher__set_points(struct watcher *w, const struct watch_point *pts, unsigned int n,
			char *err, size_t errlen)
{
	bool opened = false;
	int rc;

	watcher__clear_points(w);
	w->gen++;
	if (!n)
		return 0;
	w->points = xrealloc(w->points, n * sizeof(*pts));
	memcpy(w->points, pts, n * sizeof(*pts));
	w->bp_evsels = xcalloc(n, sizeof(*w->bp_evsels));
	w->bp_list = perf_evlist__new();
	for (unsigned int i = 0; i < n; i++) {
		const struct watch_point *p = &pts[i];
		struct perf_event_attr attr = {
			.type = PERF_TYPE_BREAKPOINT,
			.size = sizeof(attr),
			.sample_period = 1,
			.sample_type = BP_SAMPLE_TYPE,
			.read_format = PERF_FORMAT_ID,
			.disabled = 1,
			.inherit = w->opts.pid > 0,
			.exclude_kernel = w->opts.pid > 0 && w->opts.exclude_kernel,
			.exclude_hv = 1,
			.bp_type = p->type == WATCH_W ? HW_BREAKPOINT_W : HW_BREAKPOINT_RW,
			.bp_addr = p->addr,
			.bp_len = p->len,
			.use_clockid = 1,
			.clockid = CLOCK_MONOTONIC,
		};

		if ((p->len != 1 && p->len != 2 && p->len != 4 && p->len != 8) ||
		    p->addr % p->len) {
			snprintf(err, errlen,
				 "breakpoint %u: %u bytes at %#llx: the length must be 1, 2, 4 or 8 "
				 "and the address aligned to it",
				 i, p->len, (unsigned long long)p->addr);
			rc = -EINVAL;
			goto fail;
		}
		w->bp_evsels[i] = perf_evsel__new(&attr);
		perf_evlist__add(w->bp_list, w->bp_evsels[i]);
	}
	w->nr_points = n;
	perf_evlist__set_maps(w->bp_list, w->cpus, w->threads);
	rc = perf_evlist__open(w->bp_list);
	if (rc < 0) {
		if (rc == -ENOSPC) {
			int slots = watcher__probe_slots(NULL, 0);

			if (slots <= 0)
				snprintf(err, errlen, "cannot install %u breakpoints: no debug-register "
					 "slot is free (all in use by other tools: perf, gdb, another "
					 "lineup watch)", n);
			else
				snprintf(err, errlen, "cannot install %u breakpoints: this machine has "
					 "%d debug-register slots per CPU%s", n, slots,
					 (int)n > slots ? "" :
					 " and some are in use by another tool (perf, gdb)");
		} else {
			snprintf(err, errlen, "cannot open the breakpoints: %s%s", strerror(-rc),
				 open_errmsg(-rc));
		}
		goto fail;
	}
	opened = true;
	rc = perf_evlist__mmap(w->bp_list, w->opts.mmap_pages);
	if (rc < 0) {
		rc = rc == -1 ? -errno : rc;
		snprintf(err, errlen, "cannot map the breakpoint ring buffers: %s", strerror(-rc));
		goto fail;
	}
	for (unsigned int i = 0; i < n; i++) {
		rc = collect_ids(w, w->bp_evsels[i], i);
		if (rc < 0) {
			snprintf(err, errlen, "cannot read the breakpoint ids: %s", strerror(-rc));
			goto fail;
		}
	}
	perf_evlist__enable(w->bp_list);
	return 0;
fail:
	if (!opened) {
		/* Nothing open (libperf closes what it opened when an open fails): deleted, not
		 * disabled, which libperf cannot do on an evsel without fds (it crashed). */
		delete_list(w->bp_list);
		w->bp_list = NULL;
	}
	watcher__clear_points(w);
	return rc < 0 ? rc : -EINVAL;
}

const struct watch_point *watcher__points(const struct watcher *w, unsigned int *n)
{
	*n = w->nr_points;
	return w->points;
}

int watcher__poll(struct watcher *w, int timeout_ms)
{
	int rc = 0;

	/* records read and held for the next round: that round comes soon */
	if (w->nr_pending && (timeout_ms < 0 || timeout_ms > 5))
		timeout_ms = 5;

	/* Two lists, two pollfd sets: poll the breakpoints (busy) briefly, then the rest. */
	if (w->bp_list) {
		rc = perf_evlist__poll(w->bp_list, w->tp_list ? 0 : timeout_ms);
		if (rc != 0)
			return rc < 0 ? -errno : 0;
	}
	if (w->tp_list) {
		rc = perf_evlist__poll(w->tp_list, timeout_ms);
		return rc < 0 ? -errno : 0;
	}
	if (!w->bp_list && timeout_ms > 0)
		usleep(timeout_ms * 1000);
	return 0;
}

bool watcher__allocs_held(const struct watcher *w)
{
	return w->nr_pending > 0;
}

uint64_t watcher__allocs_complete(const struct watcher *w)
{
	return w->complete;
}

uint64_t watcher__lost(const struct watcher *w)
{
	return w->lost;
}

uint64_t watcher__throttled(const struct watcher *w)
{
	return w->throttled;
}

/* A bounded reader over one sample record's payload. */
struct rd {
	const unsigned char *p;
	size_t left;
};

static int rd_u64(struct rd *r, uint64_t *v)
{
	if (r->left < 8)
		return -1;
	memcpy(v, r->p, 8);
	r->p += 8;
	r->left -= 8;
	return 0;
}

static int decode_alloc(struct watcher *w, const struct perf_event_header *h,
			struct watch_alloc *a)
{
	struct rd r = { (const unsigned char *)(h + 1), h->size - sizeof(*h) };
	uint64_t id, ip, pidtid, cpu, nr;
	uint32_t raw_size;
	struct tp_event ev;
	const struct tp_field *f;
	char err[256];

	if (rd_u64(&r, &id) || rd_u64(&r, &ip) || rd_u64(&r, &pidtid) || rd_u64(&r, &a->time) ||
	    rd_u64(&r, &cpu) || rd_u64(&r, &nr) || nr > r.left / 8)
		return -1;
	a->nr_chain = nr < WATCH_CHAIN_MAX ? (uint32_t)nr : WATCH_CHAIN_MAX;
	memcpy(a->chain, r.p, a->nr_chain * 8);
	r.p += nr * 8;
	r.left -= nr * 8;
	if (r.left < 4)
		return -1;
	memcpy(&raw_size, r.p, 4);
	r.p += 4;
	r.left -= 4;
	if (raw_size > r.left)
		return -1;
	if (tp_decoder__decode(w->dec, r.p, raw_size, &ev, err, sizeof(err)) < 0)
		return -1;
	a->ip = ip;
	a->raw_size = raw_size <= sizeof(a->raw) ? raw_size : 0;
	memcpy(a->raw, r.p, a->raw_size);
	memset(a->cache, 0, sizeof(a->cache));
	a->is_free = ev.id == w->tp_ids[TP_CACHE_FREE] || ev.id == w->tp_ids[TP_KFREE];
	a->is_comm = false;
	a->cpu = (uint32_t)cpu;
	a->comm[0] = 0;
	a->pid = (uint32_t)pidtid;
	a->tid = pidtid >> 32;
	a->cpu = (uint32_t)cpu;
	a->ptr = (f = tp_event__field(&ev, "ptr")) ? f->num : 0;
	a->call_site = (f = tp_event__field(&ev, "call_site")) ? f->num : 0;
	a->bytes_req = (f = tp_event__field(&ev, "bytes_req")) ? f->num : 0;
	a->bytes_alloc = (f = tp_event__field(&ev, "bytes_alloc")) ? f->num : 0;
	f = tp_event__field(&ev, "name");
	if (f && f->kind == TP_STR)
		memcpy(a->cache, f->str, f->len < sizeof(a->cache) - 1 ? f->len : sizeof(a->cache) - 1);
	else if (ev.id == w->tp_ids[TP_KMALLOC])
		/* kmalloc names no cache: its size class is the cache (kmalloc-cg-N and
		 * kmalloc-rcl-N look the same here). */
		snprintf(a->cache, sizeof(a->cache), "kmalloc-%llu",
			 (unsigned long long)a->bytes_alloc);
	return 0;
}

/* A COMM record: pid, tid, the name padded to 8 bytes, then the sample_id_all trailer, which
 * for TP_SAMPLE_TYPE is pid/tid, time, cpu/res, identifier (32 bytes). */
static int comm_record(const struct perf_event_header *h, struct watch_alloc *a)
{
	const unsigned char *p = (const unsigned char *)(h + 1), *end = (const unsigned char *)h + h->size;
	uint32_t pid, tid;
	const char *comm = (const char *)p + 8;
	size_t clen;

	/* pid, tid, comm[] padded to 8, then the 32-byte trailer */
	if (h->size < sizeof(*h) + 8 + 8 + 32)
		return -1;
	memcpy(&pid, p, 4);
	memcpy(&tid, p + 4, 4);
	clen = strnlen(comm, end - 32 - (const unsigned char *)comm);
	memset(a, 0, sizeof(*a));
	a->is_comm = true;
	a->pid = pid;
	a->tid = tid;
	memcpy(a->comm, comm, clen < sizeof(a->comm) - 1 ? clen : sizeof(a->comm) - 1);
	memcpy(&a->time, end - 32 + 8, 8);
	memcpy(&a->cpu, end - 32 + 16, 4);
	return 0;
}

static int alloc_time_cmp(const void *x, const void *y)
{
	const struct watch_alloc *a = x, *b = y;

	return a->time < b->time ? -1 : a->time > b->time;
}

static int drain_list(struct watcher *w, struct perf_evlist *list,
		      int (*on_hit)(const struct watch_hit *hit, void *arg), void *arg)
{
	struct perf_mmap *map;
	int ret = 0;

	perf_evlist__for_each_mmap(list, map, false) {
		union perf_event *event;

		if (perf_mmap__read_init(map) < 0)
			continue;
		while (!ret && (event = perf_mmap__read_event(map)) != NULL) {
			const struct perf_event_header *h = &event->header;

			if (h->type == PERF_RECORD_LOST) {
				w->lost += event->lost.lost;
			} else if (h->type == PERF_RECORD_THROTTLE) {
				w->throttled++;
			} else if (h->type == PERF_RECORD_COMM && list == w->tp_list) {
				struct watch_alloc a;

				if (!comm_record(h, &a)) {
					w->pending = xgrow(w->pending, &w->pending_cap,
							   w->nr_pending + 1, sizeof(a));
					w->pending[w->nr_pending++] = a;
				}
			} else if (h->type == PERF_RECORD_SAMPLE && h->size >= sizeof(*h) + 8) {
				uint64_t id;
				const struct id_ent *ent;

				memcpy(&id, h + 1, 8);
				ent = find_id(w, id);
				if (ent && ent->point >= 0 && on_hit) {
					struct rd r = { (const unsigned char *)(h + 1),
							h->size - sizeof(*h) };
					uint64_t ip, pidtid, cpu;
					struct watch_hit hit = { 0 };

					if (!rd_u64(&r, &id) && !rd_u64(&r, &ip) &&
					    !rd_u64(&r, &pidtid) && !rd_u64(&r, &hit.time) &&
					    !rd_u64(&r, &hit.addr) && !rd_u64(&r, &cpu)) {
						hit.ip = ip;
						hit.pid = (uint32_t)pidtid;
						hit.tid = pidtid >> 32;
						hit.cpu = (uint32_t)cpu;
						hit.point = ent->point;
						hit.gen = w->gen;
						hit.kernel = (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
							     PERF_RECORD_MISC_KERNEL;
						ret = on_hit(&hit, arg);
					}
				} else if (ent && ent->point < 0) {
					struct watch_alloc a;

					/* Our own allocations (reading /proc) are not of interest. */
					if (!decode_alloc(w, h, &a) && a.pid != (uint32_t)w->self) {
						w->pending = xgrow(w->pending, &w->pending_cap,
								   w->nr_pending + 1, sizeof(a));
						w->pending[w->nr_pending++] = a;
					}
				}
			}
			perf_mmap__consume(map);
		}
		perf_mmap__read_done(map);
		if (ret)
			break;
	}
	return ret;
}

int watcher__drain(struct watcher *w, int (*on_hit)(const struct watch_hit *hit, void *arg),
		   int (*on_alloc)(const struct watch_alloc *a, void *arg), void *arg)
{
	uint64_t limit = w->read_start;
	int ret = 0;
	size_t i;

	/* Allocations first, in time order across CPUs (up to the round's limit): a free must
	 * be seen before the hits that come after it are trusted. */
	if (w->tp_list) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		w->read_start = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
		drain_list(w, w->tp_list, NULL, arg);
	}
	if (w->nr_pending > 1)
		qsort(w->pending, w->nr_pending, sizeof(*w->pending), alloc_time_cmp);
	for (i = 0; !ret && i < w->nr_pending && w->pending[i].time < limit; i++)
		if (on_alloc)
			ret = on_alloc(&w->pending[i], arg);
	w->complete = i < w->nr_pending && w->pending[i].time < limit ? w->pending[i].time : limit;
	/* What was not handed out stays for the next drain. */
	if (i) {
		memmove(w->pending, w->pending + i, (w->nr_pending - i) * sizeof(*w->pending));
		w->nr_pending -= i;
	}
	if (!ret && w->bp_list)
		ret = drain_list(w, w->bp_list, on_hit, arg);
	return ret;
}

/* Find the fds of the tracepoint events among this process's perf fds, by id. */
static int find_tp_fds(struct watcher *w, char *err, size_t errlen)
{
	char path[300], link[64];
	struct dirent *de;
	DIR *dir = opendir("/proc/self/fd");

	if (!dir) {
		snprintf(err, errlen, "/proc/self/fd: %s", strerror(errno));
		return -errno;
	}
	while ((de = readdir(dir))) {
		int fd = atoi(de->d_name);
		ssize_t l;
		uint64_t id;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		l = readlink(path, link, sizeof(link) - 1);
		if (l <= 0)
			continue;
		link[l] = 0;
		if (strcmp(link, "anon_inode:[perf_event]") || ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0)
			continue;
		for (size_t i = 0; i < w->nr_ids; i++)
			if (w->ids[i].id == id && w->ids[i].point < 0)
				w->ids[i].fd = fd;
	}
	closedir(dir);
	for (size_t i = 0; i < w->nr_ids; i++)
		if (w->ids[i].point < 0 && w->ids[i].fd < 0) {
			snprintf(err, errlen, "cannot find the fd of a kmem tracepoint event");
			return -ENOENT;
		}
	return 0;
}

static int set_tp_filter(struct watcher *w, int tp, const char *filter, char *err, size_t errlen)
{
	if (w->tp_filtered[tp])
		return 0;	/* the kernel refuses a second one (EEXIST) */
	w->tp_filtered[tp] = true;
	for (size_t i = 0; i < w->nr_ids; i++) {
		if (w->ids[i].point != -1 - tp)
			continue;
		if (w->ids[i].fd < 0) {
			int rc = find_tp_fds(w, err, errlen);

			if (rc < 0)
				return rc;
		}
		if (ioctl(w->ids[i].fd, PERF_EVENT_IOC_SET_FILTER, filter) < 0) {
			snprintf(err, errlen, "cannot set the filter '%s' on kmem:%s: %s", filter,
				 tp_names[tp], strerror(errno));
			return -errno;
		}
	}
	return 0;
}

int watcher__filter_allocs(struct watcher *w, const char *cache, char *err, size_t errlen)
{
	char filter[128];
	unsigned long long size = 0;
	int rc;

	if (!w->tp_list)
		return -EINVAL;
	if (strpbrk(cache, "\"\\") || strlen(cache) > 64) {
		snprintf(err, errlen, "bad cache name '%s'", cache);
		return -EINVAL;
	}
	snprintf(filter, sizeof(filter), "name == \"%s\"", cache);
	rc = set_tp_filter(w, TP_CACHE_ALLOC, filter, err, errlen);
	if (!rc)
		rc = set_tp_filter(w, TP_CACHE_FREE, filter, err, errlen);
	/* kmalloc-N (or kmalloc-cg-N, kmalloc-rcl-N): kmalloc() of that size class. */
	if (sscanf(cache, "kmalloc-%llu", &size) == 1 || sscanf(cache, "kmalloc-cg-%llu", &size) == 1 ||
	    sscanf(cache, "kmalloc-rcl-%llu", &size) == 1)
		snprintf(filter, sizeof(filter), "bytes_alloc == %llu", size);
	else
		snprintf(filter, sizeof(filter), "ptr == 0");	/* none */
	if (!rc)
		rc = set_tp_filter(w, TP_KMALLOC, filter, err, errlen);
	/* Frees of kmalloc'ed memory say nothing about the cache: for a kmalloc cache they are
	 * filtered once the object is known (a filter can be set only once), else dropped. */
	if (!rc && !size)
		rc = set_tp_filter(w, TP_KFREE, "ptr == 0", err, errlen);
	return rc;
}

int watcher__filter_object(struct watcher *w, uint64_t ptr, char *err, size_t errlen)
{
	char filter[64];
	int rc;

	if (!w->tp_list)
		return -EINVAL;
	snprintf(filter, sizeof(filter), "ptr == 0x%llx", (unsigned long long)ptr);
	rc = set_tp_filter(w, TP_CACHE_FREE, filter, err, errlen);
	if (!rc)
		rc = set_tp_filter(w, TP_KFREE, filter, err, errlen);
	/* No more allocations needed. */
	perf_evsel__disable(w->tp_evsels[TP_CACHE_ALLOC]);
	perf_evsel__disable(w->tp_evsels[TP_KMALLOC]);
	return rc;
}

int watcher__probe_slots(char *err, size_t errlen)
{
	static volatile uint64_t words[16];
	int fds[16], n = 0;

	for (; n < 16; n++) {
		struct perf_event_attr attr = {
			.type = PERF_TYPE_BREAKPOINT,
			.size = sizeof(attr),
			.sample_period = 1,
			.disabled = 1,
			.exclude_kernel = 1,
			.exclude_hv = 1,
			.bp_type = HW_BREAKPOINT_W,
			.bp_addr = (uintptr_t)&words[n],
			.bp_len = 8,
		};

		/* This thread, any CPU: the task-bound slot count, which is the per-CPU one. */
		fds[n] = syscall(__NR_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fds[n] < 0)
			break;
	}
	int e = errno;

	for (int i = 0; i < n; i++)
		close(fds[i]);
	if (n == 0 && err)
		snprintf(err, errlen, "cannot open a hardware breakpoint: %s%s", strerror(e),
			 open_errmsg(e));
	return n == 0 ? -e : n;
}
