/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_SIMRT_H
#define LINEUP_SAMPLING_SIMRT_H

/*
 * The software collector's runtime (liblineup-sim.a), internal interface.  It is linked into
 * programs compiled with -fsanitize=thread in place of libtsan: tsan.c receives the
 * compiler's instrumentation calls and runs each access through access.h (the hot path: the
 * line table and analyzer/coherence, inlined), runtime.c keeps threads, sampled events in
 * per-thread buffers, the spool and the exits, alloc.c interposes the allocator, locks.c the
 * pthread mutexes, spinlocks and rwlocks, and output.c turns what was recorded into a
 * perf.data at exit (or on a fatal signal).
 *
 * Ownership: everything is static, thread-local or mmap'ed once, and lives as long as the
 * process; nothing is freed.
 *
 * Environment (read once, by __tsan_init):
 *	LINEUP_SIM_OUTPUT	the perf.data to write; unset: the program runs unrecorded
 *	LINEUP_SIM_PERIOD	mean sampling period of loads and stores that hit (1000)
 *	LINEUP_SIM_MISS_PERIOD	mean sampling period of those that miss: HITMs, LLC and DRAM
 *				loads, stores that invalidate other copies (PERIOD / 20)
 *	LINEUP_SIM_WINDOW	BURST/EVERY[/START] in microseconds (200/2000/10000): after
 *				the first START us of the process's CPU time, modeled
 *				exactly, plain loads and stores are modeled only inside
 *				windows of BURST us that open once every EVERY us, the same
 *				windows for all threads; 0 or "exact": every access is
 *				modeled (see "Sampling the model" below)
 *	LINEUP_SIM_MAX_ALLOCS	allocations logged at most (1000000)
 *	LINEUP_SIM_YIELD	N: each thread yields the CPU every N modeled accesses (0,
 *				never; not between windows, where nothing is modeled).  The
 *				model sees the interleaving that really happened; on a machine
 *				with fewer free CPUs than threads, threads sharing a CPU only
 *				interleave at time-slice ends unless they yield.
 *	LINEUP_SIM_DEBUG	set: each thread's access counts (seen, modeled) on stderr at
 *				its end
 *	LINEUP_SIM_ACTIVE	set by the first instrumented process: a process that finds it
 *				set (an instrumented child) records nothing
 *
 * Sampling the model: a per-access model costs a few nanoseconds, ten times what a bare increment
 * loop spends per access.  So, unless exact, after the run's first START us of CPU time (modeled
 * exactly, samples unscaled: a short program is seen whole), plain accesses (loads, stores, atomic
 * loads and stores, memory ranges) are modeled only inside windows in time, shared by all threads
 * (window k opens at a point of [E + k EVERY, E + (k+1) EVERY), E the start's end, that depends on
 * k only, for BURST us).  Inside a window the model sees every access of every thread, so a
 * contended line ping-pongs in the model as it does in the program; outside it, a plain access
 * costs one decrement of a thread-local countdown (simrt__skip) and a branch, and each thread looks
 * at the clock when its countdown runs out, set from its own access rate to run out about when the
 * next window opens.  (Bursts counted in each thread's own accesses would see two threads' traffic
 * only when their bursts happened to overlap: HITMs would come out too low by the duty cycle, even
 * after weighting.)  Atomic read-modify-writes and lock operations ("sync" accesses) are all
 * modeled, in and out of windows (their redundant counts are exact), but sampled inside windows
 * only, like plain ones.  Each thread counts the accesses of both kinds it saw and those it modeled
 * inside windows; output.c multiplies each load/store/pair sample's period by the thread's
 * seen/modeled ratio of the sample's kind, so that summed periods estimate the whole run.
 * What is traded: a line's state at a window's opening is the one left by the previous
 * window (plus the sync accesses since), so the first access of each line in each window can
 * be judged against an old state: it may miss a HITM that happened in the gap, or count one
 * that happened in the gap (a real transfer, seen late, at the access that noticed it).
 * Neither invents contention: a line only one thread writes never shows a HITM.  Access
 * patterns that live only between windows are not seen at all.
 *
 * Sample IPs: the address of the call instruction to the __tsan_ hook (return address minus
 * the call's length, 5 for `call rel32`, 6 for `call *rel32(%rip)`).  The compiler gives that
 * call the source line of the access it instruments, so perf's and lineup's srcline of the IP
 * is the access's line; the access instruction itself follows the call.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "analyzer/coherence.h"

/*
 * A "return address" with this bit set is an exact IP (the _pc hooks pass the instrumented
 * instruction's address): simrt__ip() returns it as is.  No user-space address has bit 63.
 */
#define SIMRT_EXACT_IP (1ULL << 63)

/* Events of the perf.data, in attr order.  A spooled sample's event byte also says which
 * ratio scales its period (SIMRT_EV_PLAIN, SIMRT_EV_SYNC; neither: not scaled). */
enum simrt_event {
	SIMRT_EV_LOAD,	    /* lineup-sim/mem-loads/: sampled loads (RMWs: their load part) */
	SIMRT_EV_STORE,	    /* lineup-sim/mem-stores/: sampled stores (RMWs: their store part) */
	SIMRT_EV_REDUNDANT, /* lineup-sim/redundant-rmw/: one per IP, period = RMWs that
			     * changed nothing, weight = all RMWs at that IP */
	SIMRT_EV_PAIR_HITM, /* lineup-sim/pair-hitm/: a sampled access that only the 128-byte
			     * (adjacent-line pair) model sees as contended */
	SIMRT_EV_ALLOC,	    /* lineup-sim/alloc/: ip = call site, addr = block, period = size */
	SIMRT_EV_FREE,	    /* lineup-sim/free/: ip = call site, addr = block */
	SIMRT_NR_EVENTS,
};
#define SIMRT_EV_PLAIN 0x40
#define SIMRT_EV_SYNC 0x80
#define SIMRT_EV_MASK 0x3f

enum simrt_rec_kind {
	SIMRT_REC_SAMPLE = 1,
	SIMRT_REC_THREAD, /* tid, core; comm in the ip/addr words */
	SIMRT_REC_COUNTS, /* a thread's access counts (at its end, or at the finish): ip = plain
			   * accesses seen, addr = plain modeled inside windows, data_src = sync
			   * accesses seen, weight = sync accesses modeled inside windows */
};

/* One spooled record: fixed size so that a crash handler can write buffers out as they are. */
struct simrt_rec {
	uint8_t kind;
	uint8_t event; /* enum simrt_event */
	uint16_t core;
	uint32_t tid;
	uint64_t ip;
	uint64_t addr;
	uint64_t time;
	uint64_t data_src;
	uint64_t weight;
	uint64_t period;
};

#define SIMRT_MAX_THREADS 256
#define SIMRT_BUF_RECS 1024
#define SIMRT_RMW_SLOTS 256

/* Per-IP counts of atomic read-modify-writes (each thread keeps its own, merged at exit). */
struct simrt_rmw {
	uint64_t ip; /* the raw return address; 0: free slot */
	uint64_t addr;
	uint64_t total;
	uint64_t redundant;
};

/* Sampling countdowns of a thread: odd ones run at the miss period (CD_PAIR too). */
enum simrt_countdown {
	CD_LOAD_HIT,
	CD_LOAD_MISS,
	CD_STORE_HIT,
	CD_STORE_MISS,
	CD_PAIR = 5,
	SIMRT_NR_COUNTDOWNS,
};

struct simrt_thread {
	/* Sampling the model: the fast path only touches simrt__skip (TLS) */
	int64_t skip_set[3];	/* what simrt__skip[] was last set to */
	uint64_t plain_seen;	/* plain accesses counted so far (settled from simrt__skip) */
	uint64_t plain_modeled; /* of those, modeled inside windows */
	uint64_t sync_seen;	/* RMWs and lock operations */
	uint64_t sync_modeled;	/* of those, inside windows */
	bool window;		/* inside a modeling window (always, when exact) */
	uint8_t ev[2];		/* scaling class of plain [0] and sync [1] samples: 0 (unscaled)
				 * in the exact start and when exact */
	int32_t clock_left;	/* modeled or sync accesses until the next look at the clock */
	uint64_t check_ns;	/* the last look at the clock (ns since the start; 0: none) */
	uint64_t check_seen;	/* plain_seen then */
	unsigned slot;
	unsigned core;
	uint64_t me;	 /* 1 << core: the core's sharer bit */
	unsigned ignore; /* __tsan_ignore_thread_begin depth: accesses not modeled */
	uint32_t tid;
	int64_t left[SIMRT_NR_COUNTDOWNS]; /* sampling countdowns, enum simrt_countdown */
	int64_t yield_left;		   /* accesses until the next sched_yield() */
	uint64_t rng;
	unsigned nrec;
	bool registered;
	struct simrt_rec buf[SIMRT_BUF_RECS];
	struct simrt_rmw rmw[SIMRT_RMW_SLOTS];
};

/*
 * The line table: one slot per 128-byte pair of lines, holding the states of both 64-byte
 * halves and of the pair as one 128-byte line, all under the pair's tag.  A slot fills a cache
 * line of its own, so the table adds no false sharing of its own between threads working on
 * different lines.
 */
#define SIMRT_LOG2_SLOTS 19

struct simrt_pair_slot {
	_Atomic uint64_t half[2];
	_Atomic uint64_t pair;
	uint64_t pad[5];
};

/* runtime.c */
extern int simrt__state;
extern struct simrt_pair_slot *simrt__table;
extern struct coh_costs simrt__costs;
extern uint64_t simrt__periods[2]; /* sampling periods: [0] hits, [1] misses */
extern int64_t simrt__yield_every;
extern __thread __attribute__((tls_model("initial-exec"))) struct simrt_thread *simrt__cur;
/*
 * Plain loads ([0]), stores ([1]) and compound load-then-store accesses ([2], clang's `x++` as
 * one call, two accesses each) left before the next one that goes beyond the fast path (<= 0:
 * this one).  Each decrement waits for the previous one of its countdown to be forwarded from
 * the store buffer (~5 cycles): that latency, not the instructions, bounds a bare increment
 * loop (one access per 5 cycles and countdown).  Separate countdowns let the load and the
 * store of `x++` proceed side by side.  (Eight, picked by the call site's return address,
 * measured slower: two sites of one loop can share one.)
 */
#define SIMRT_NR_SKIP 3
extern __thread __attribute__((tls_model("initial-exec"))) int64_t simrt__skip[SIMRT_NR_SKIP];

/* Set every countdown to @n, forgetting what they counted (not recording, ignoring). */
static inline void simrt__set_skip(struct simrt_thread *t, int64_t n)
{
	for (int i = 0; i < SIMRT_NR_SKIP; i++)
		simrt__skip[i] = t->skip_set[i] = n;
}
/* Windows: the first START ns, then BURST ns once every EVERY ns; EVERY 0: exact, no windows. */
extern uint64_t simrt__burst_ns, simrt__every_ns, simrt__start_ns;
/* Outside windows: plain accesses between looks at the clock, until the rate is known. */
#define SIMRT_SKIP_CHECK 1024
/* Inside windows (and for sync accesses): modeled accesses between looks at the clock. */
#define SIMRT_CLOCK_CHECK 256
/* Never reached: a thread not recording (or ignoring) never leaves the fast path. */
#define SIMRT_SKIP_NEVER (INT64_MAX / 2)
/* Look at the clock: open or close @t's window, reload simrt__skip (and settle the count). */
void simrt__window_check(struct simrt_thread *t);
/* Reload simrt__skip[] with @n, counting the plain accesses that went by since the last time. */
static inline void simrt__reload(struct simrt_thread *t, int64_t n)
{
	for (int i = 0; i < SIMRT_NR_SKIP; i++) {
		t->plain_seen += (uint64_t)(t->skip_set[i] - simrt__skip[i]) << (i == 2);
		simrt__skip[i] = t->skip_set[i] = n;
	}
}
int64_t simrt__next_period(struct simrt_thread *t,
			   int miss); /* 0 not started, 1 recording, 2 stopped */
void simrt__init(void);
struct simrt_thread *simrt__thread(void);
/* access.h: simrt__access() and simrt__range(), inlined into the hooks. */
void simrt__rmw_done(uint64_t addr, bool changed, uint64_t ret);
/* Append @t's access counts to its buffer (a SIMRT_REC_COUNTS record). */
void simrt__emit_counts(struct simrt_thread *t);
void simrt__emit(struct simrt_thread *t, unsigned ev, uint64_t ip, uint64_t addr,
		 uint64_t data_src, uint64_t weight, uint64_t period);
uint64_t simrt__ip(uint64_t ret);
uint64_t simrt__now(void);
/* Flush every buffer, write the perf.data, stop recording; safe to call more than once. */
void simrt__finish(void);
void simrt__enter(void); /* the runtime's own allocations are not logged */
void simrt__leave(void);
bool simrt__inside(void);
extern uint64_t simrt__max_allocs;

/* locks.c: glibc's mutex calls, bypassing the interposed (modeled) ones. */
int simrt__mutex_lock(pthread_mutex_t *m);
int simrt__mutex_unlock(pthread_mutex_t *m);

/* output.c: write the perf.data from the spool fd; returns 0 or -errno. */
struct simrt_output {
	const char *path;
	int spool_fd;
	uint64_t period;
	const struct simrt_rmw *rmw; /* merged per-IP RMW table */
	unsigned nr_rmw;
	unsigned nr_cores;
	bool exact; /* every access modeled: no period scaling */
};
int simrt__write_perf_data(const struct simrt_output *o, char *err, unsigned errlen);

#endif
