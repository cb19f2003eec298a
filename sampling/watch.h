/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_WATCH_H
#define LINEUP_SAMPLING_WATCH_H

/*
 * Hardware breakpoints on words of one object, and the kmem tracepoints that find and follow a
 * kernel slab object, through libperf.  No libperf or libtraceevent type leaks out.
 *
 * A watcher has two independent sets of events:
 *  - the allocation followers: kmem:kmem_cache_alloc and kmem:kmem_cache_free on every CPU,
 *    PERF_SAMPLE_RAW decoded with libtraceevent from the running kernel's formats, with the
 *    call chain (PERF_SAMPLE_CALLCHAIN) that says who allocated;
 *  - the breakpoints: PERF_TYPE_BREAKPOINT, period 1, IP/TID/TIME/ADDR/CPU/IDENTIFIER, one
 *    event per watch point, per CPU for kernel objects (pid -1), per CPU for the workload's
 *    process with inherit for user objects (an inherited per-task event cannot be mmapped
 *    without a CPU).  watcher__set_points replaces the whole set (rotation).
 *
 * Nothing is left enabled: every event is a file descriptor of this process, so the kernel
 * closes it and frees its debug register when the process exits, however it exits;
 * watcher__delete closes them earlier.
 *
 * Ownership: the watcher owns its events and buffers; hits and allocation events passed to the
 * callbacks are valid only during the callback.
 * Errors: 0 or -errno with a message in the caller's buffer.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The access types a breakpoint triggers on (x86 has no read-only breakpoints). */
enum watch_type {
	WATCH_RW,
	WATCH_W,
};

/**
 * struct watch_point - one breakpoint.
 * @addr, @len:	the watched bytes: len 1, 2, 4 or 8, addr aligned to len
 * @type:	what triggers it
 * @tag:	the caller's number for it (a member index), handed back in each hit
 */
struct watch_point {
	uint64_t addr;
	uint32_t len;
	enum watch_type type;
	int tag;
};

/**
 * struct watch_hit - one breakpoint sample.
 * @ip:		the instruction *after* the access (x86 data breakpoints trap after it)
 * @addr:	the breakpoint's address (the kernel reports bp_addr, not the accessed byte)
 * @point:	index of the watch point in the set that was active
 * @gen:	how many times watcher__set_points had been called when it was recorded
 * @kernel:	the access happened in kernel mode
 */
struct watch_hit {
	uint64_t ip, addr, time;	/* @time: CLOCK_MONOTONIC ns, as the allocations' */
	uint32_t pid, tid, cpu;
	int point;
	unsigned int gen;
	bool kernel;
};

/**
 * struct watch_alloc - a kmem_cache_alloc or kmem_cache_free record, or a task's new name.
 * @cache:	the cache name (NUL-terminated copy)
 * @bytes_req, @bytes_alloc: only for allocations
 * @raw, @raw_size: a copy of the tracepoint payload (raw_size 0 when larger than @raw), for
 *		writing the record to a perf.data
 * @is_comm:	a PERF_RECORD_COMM (exec or prctl(PR_SET_NAME)): @comm is the task's name
 *		from @time on; only @pid, @tid and @time are set besides
 * @chain, @nr_chain: the sample's call chain as the kernel wrote it (PERF_SAMPLE_CALLCHAIN:
 *		context markers, kernel frames, then user frames), at most WATCH_CHAIN_MAX
 *		entries
 *
 * Each drain hands these out in time order across CPUs, so a task's name is known as it was
 * when it allocated (reading /proc later would see a newer one).
 */
#define WATCH_CHAIN_MAX 32

struct watch_alloc {
	bool is_free, is_comm;
	char comm[16];
	uint64_t ip;			/* where the tracepoint fired */
	uint32_t raw_size;		/* the PERF_SAMPLE_RAW payload, when it fits */
	uint8_t raw[200];
	uint64_t ptr, call_site, time;
	uint32_t pid, tid, cpu;
	uint64_t bytes_req, bytes_alloc;
	char cache[64];
	uint32_t nr_chain;
	uint64_t chain[WATCH_CHAIN_MAX];
};

struct watcher;

/**
 * struct watch_opts - what to watch.
 * @pid:	0: kernel object, breakpoints on every CPU for every task; > 0: user object of
 *		this process (and the threads it creates)
 * @exclude_kernel: with @pid, do not count kernel accesses to the user object (copy_to_user)
 * @mmap_pages:	ring buffer pages per CPU (power of two; 0: 256)
 */
struct watch_opts {
	pid_t pid;
	bool exclude_kernel;
	unsigned int mmap_pages;
};

int watcher__new(struct watcher **out, const struct watch_opts *opts, char *err, size_t errlen);
/* Close every event and free the watcher. */
void watcher__delete(struct watcher *w);

/*
 * Start following kmem_cache_alloc, kmem_cache_free, kmalloc and kfree on every CPU (all
 * caches until watcher__filter_allocs; kmalloc records carry the cache "kmalloc-SIZE").
 */
int watcher__follow_allocs(struct watcher *w, char *err, size_t errlen);
/*
 * Let the kernel drop every allocation record of another cache (tracefs filters:
 * name == "@cache" on the kmem_cache events, bytes_alloc == N on kmalloc for "kmalloc-N",
 * nothing from kfree until the object is known): following one cache then costs little even on a busy
 * machine, where the unfiltered records overflow the buffers and a free can be lost.
 * libperf has no fd accessor, so the events' fds are found by their ids among this
 * process's perf fds.  Returns 0 or -errno (the caller may go on unfiltered).
 */
int watcher__filter_allocs(struct watcher *w, const char *cache, char *err, size_t errlen);

/*
 * Once the object is chosen: let only its frees through (kmem_cache_free and kfree with
 * ptr == @ptr) and no more allocations.
 */
int watcher__filter_object(struct watcher *w, uint64_t ptr, char *err, size_t errlen);

/* Stop following allocations (close those events). */
void watcher__stop_allocs(struct watcher *w);

/*
 * Install @n breakpoints, replacing the ones before (a new generation).  Returns -ENOSPC when
 * the machine has fewer free debug-register slots than asked for on some CPU (the message
 * says how many it has), -EINVAL for a bad length or alignment, -EACCES/-EPERM without the
 * privilege for kernel addresses.  Nothing stays installed on failure.
 */
int watcher__set_points(struct watcher *w, const struct watch_point *pts, unsigned int n,
			char *err, size_t errlen);
/* Remove every breakpoint (the generation count stays). */
void watcher__clear_points(struct watcher *w);

/* Wait up to @timeout_ms for data (-1: forever); 0 on timeout or data, -errno (EINTR too). */
int watcher__poll(struct watcher *w, int timeout_ms);

/*
 * Read everything buffered: each hit to @on_hit, each allocation record of the round to
 * @on_alloc (either may be NULL; see watcher__allocs_held).  A callback returning non-zero stops the drain early and that value is
 * returned; the unread records stay for the next drain.  Returns 0 otherwise.  Lost records
 * are counted (watcher__lost).
 */
int watcher__drain(struct watcher *w, int (*on_hit)(const struct watch_hit *hit, void *arg),
		   int (*on_alloc)(const struct watch_alloc *a, void *arg), void *arg);

/*
 * Allocation records are handed out in rounds (perf's FINISHED_ROUND): those stamped before
 * the previous drain began, when no CPU can still be writing an earlier one.  Whether some
 * are read and held for the next drain, and the time before which every record has been
 * handed out (an object not freed before that time outlived it).
 */
bool watcher__allocs_held(const struct watcher *w);
uint64_t watcher__allocs_complete(const struct watcher *w);

/* Records the kernel dropped (PERF_RECORD_LOST) and throttle events, since the start. */
uint64_t watcher__lost(const struct watcher *w);
uint64_t watcher__throttled(const struct watcher *w);

/* The breakpoint set of generation @gen is the current one: its points. */
const struct watch_point *watcher__points(const struct watcher *w, unsigned int *n);

/*
 * The number of breakpoint slots this machine gives one task/CPU (probed by opening
 * write breakpoints on a local variable until ENOSPC, at most 16), or -errno.
 */
int watcher__probe_slots(char *err, size_t errlen);

/* The perf_event_attr bits a hit's event was opened with, for the perf.data writer. */
uint64_t watcher__sample_type(void);

#endif
