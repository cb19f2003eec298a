/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_SIMRT_H
#define LINEUP_SAMPLING_SIMRT_H

/*
 * The software collector's runtime (liblineup-sim.a), internal interface.  It is linked into
 * programs compiled with -fsanitize=thread in place of libtsan: tsan.c receives the
 * compiler's instrumentation calls and runs each access through access.h (the hot path: the
 * line table and analyzer/coherence, inlined), runtime.c keeps threads, sampled events in
 * per-thread buffers, the spool and the exits (exit, _exit, exec* and the descriptor calls that
 * could take the spool are interposed there), alloc.c interposes the allocator, locks.c the
 * pthread mutexes, spinlocks and rwlocks, patch.c rewrites the hooks' call sites between
 * windows (and owns SIGTRAP meanwhile), memops.c the libc calls that write or copy memory
 * (memset, bzero, memcpy, memmove ...), and output.c turns what was recorded into a perf.data
 * at exit (or on a fatal signal).  The program sees only the hooks and the interposed calls:
 * the archive is one object whose other symbols are local (local.mk).
 *
 * Ownership: everything is static, thread-local or mmap'ed once, and lives as long as the
 * process; nothing is freed but the signal stacks given to threads (at their end).
 *
 * Environment (read once, by __tsan_init):
 *	LINEUP_SIM_OUTPUT	the perf.data to write; unset: the program runs unrecorded
 *	LINEUP_SIM_PIPE		1: write it in pipe mode (`record --sim -o -` copies it to its
 *				stdout), else in file mode (written beside it, renamed into place)
 *	LINEUP_SIM_PERIOD	mean sampling period of loads and stores that hit (1000)
 *	LINEUP_SIM_MISS_PERIOD	mean sampling period of those that miss: HITMs, LLC and DRAM
 *				loads, stores that invalidate other copies (PERIOD / 20)
 *	LINEUP_SIM_WINDOW	BURST/EVERY[/START] in microseconds (200/2000/10000): after
 *				the first START us of the process's CPU time, modeled
 *				exactly, plain loads and stores are modeled only inside
 *				windows of BURST us that open once every EVERY us, the same
 *				windows for all threads; 0 or "exact": every access is
 *				modeled (see "Sampling the model" below)
 *	LINEUP_SIM_PATCH	0: between windows the hooks stay calls and count loads; else
 *				(x86-64) their call sites are patched to no-ops then (patch.c)
 *	LINEUP_SIM_MAX_ALLOCS	allocations logged at most (1000000)
 *	LINEUP_SIM_YIELD	N: each thread yields the CPU every N modeled accesses (0,
 *				never; not between windows, where nothing is modeled).  The
 *				model sees the interleaving that really happened; on a machine
 *				with fewer free CPUs than threads, threads sharing a CPU only
 *				interleave at time-slice ends unless they yield.
 *	LINEUP_SIM_TURNS	N: the threads take turns every N modeled accesses, handing
 *				one baton around (turns.c), so that they interleave whatever
 *				the scheduler does (a busy machine); overrides LINEUP_SIM_YIELD
 *	LINEUP_SIM_DEBUG	set: each thread's access counts (seen, modeled) on stderr at
 *				its end
 *	LINEUP_SIM_ACTIVE	the pid of the first instrumented process, set by it: a process
 *				of another pid that finds it set (an instrumented child) records
 *				nothing; the same pid (after an exec) records again
 *
 * Sampling the model: a per-access model costs a few nanoseconds, ten times what a bare increment
 * loop spends per access.  So, unless exact, after the run's first START us of CPU time (modeled
 * exactly, samples unscaled: a short program is seen whole), plain accesses (loads, stores, atomic
 * loads and stores, memory ranges) are modeled only inside windows in time, shared by all threads
 * (window k opens at a point of [E + k EVERY, E + (k+1) EVERY), E the start's end, that depends on
 * k only, for BURST us), opened and closed by a timer thread of the runtime that sets one global
 * byte, simrt__phase.  Inside a window the model sees every access of every thread, so a
 * contended line ping-pongs in the model as it does in the program.  (Bursts counted in each
 * thread's own accesses would see two threads' traffic only when their bursts happened to
 * overlap: HITMs would come out too low by the duty cycle, even after weighting.)
 * Between windows, on x86-64, the calls to the plain-access hooks are not there: patch.c turns
 * each call site into a no-op when a window closes and back into a call when one opens (a site
 * is learned the first time its hook runs between windows, phase SIMRT_PH_LEARN).  That is what
 * makes tight loops cheap: the call, not the hook, is the cost there (a bare `x++` loop: hooks
 * that only return, 12-20x; no-ops, 1.7x).  With LINEUP_SIM_PATCH=0 (or elsewhere) the hooks stay
 * calls: a store's hook tests the byte and returns, a load's hook also adds one to a
 * thread-local count.
 * Atomic read-modify-writes and lock operations ("sync" accesses) are all modeled, in and out of
 * windows (their redundant counts are exact), but sampled inside windows only, like plain ones;
 * output.c scales sync samples' periods by sync seen / sync modeled.
 * Plain samples' periods are scaled to the thread's estimated plain accesses / plain modeled.
 * Patched, nothing counts between windows (a count is a store per access, and one more store
 * in a bare loop is ~10x), except in a counting phase of half a window's length after each
 * window, when the sites are still calls and the hooks count loads without modeling: the loads
 * outside windows are estimated from the thread's CPU time there at the counting phases' rate
 * (the thread CPU clocks, read by the timer thread at each phase change), the plain accesses
 * from them by the thread's mix inside windows.  Measured against exact counts (2 threads, the
 * default windows): flag_word within 5%, histogram 30% low, the bare increment loops (a) and
 * (d) 6-8x low (the hooks' calls slow them down that much in the counting phases too).
 * Counting (LINEUP_SIM_PATCH=0, `record --sim-count`): each thread's loads are counted
 * exactly, and its plain accesses and loads modeled inside windows; the estimate is loads
 * counted x plain modeled / loads modeled (the exact load count and the thread's load/store
 * mix inside windows).
 * What is traded: a line's state at a window's opening is the one left by the previous
 * window (plus the sync accesses since), so the first access of each line in each window can
 * be judged against an old state: it may miss a HITM that happened in the gap, or count one
 * that happened in the gap (a real transfer, seen late, at the access that noticed it).
 * Neither invents contention: a line only one thread writes never shows a HITM.  Access
 * patterns that live only between windows are not seen at all.
 *
 * Overlap: a HITM needs two threads running at the same time (or, with LINEUP_SIM_YIELD, taking
 * turns every few accesses), so "no contention seen" means something only if they did.  The
 * timer thread reads each thread's CPU clock where modeled time begins and ends (windows, and
 * every millisecond of the exact start or of an exact run) and bounds from below the time in
 * which two or more ran: n threads that used S ns of CPU in an interval of W ns, on C CPUs,
 * overlapped for at least (S - W) / (min(n, C) - 1) ns of it (outside the overlap, at most one
 * runs).  On a machine with fewer free CPUs than threads that bound is 0 however the threads
 * were scheduled; with LINEUP_SIM_YIELD the threads interleave at every yield, and the time
 * the others ran beside the busiest counts.  The recording carries the total (SIMRT_EV_OVERLAP).
 *
 * Sample IPs: the address of the call instruction to the __tsan_ hook (return address minus
 * the call's length, 5 for `call rel32`, 6 for `call *rel32(%rip)`).  The compiler gives that
 * call the source line of the access it instruments, so perf's and lineup's srcline of the IP
 * is the access's line; the access instruction itself follows the call.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

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
	SIMRT_EV_OVERLAP,   /* lineup-sim/overlap/: one, at the end: period = ns of modeled time
			     * observed, weight = ns of it in which threads ran at the same time
			     * (see "Overlap") */
	SIMRT_NR_EVENTS,
};
#define SIMRT_EV_PLAIN 0x40
#define SIMRT_EV_SYNC 0x80
#define SIMRT_EV_MASK 0x3f

enum simrt_rec_kind {
	SIMRT_REC_SAMPLE = 1,
	SIMRT_REC_THREAD, /* tid, core; comm in the ip/addr words */
	SIMRT_REC_COUNTS, /* a thread's access counts (at its end, or at the finish): ip = plain
			   * accesses made (estimated from its loads, counted exactly, and its
			   * mix inside windows), addr = plain modeled inside windows, data_src = sync
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
#define SIMRT_NR_CNT 3
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
	/* Weights (see "Sampling the model"): plain accesses modeled inside windows, and of
	 * those the loads; the loads counted by the hooks (simrt__cnt, in and out of windows);
	 * sync accesses seen and modeled inside windows; all exact. */
	uint64_t plain_modeled;
	uint64_t loads_modeled;		 /* a compound access: 2 */
	uint64_t *cnt;			 /* the thread's simrt__cnt[] */
	uint64_t cnt_base[SIMRT_NR_CNT]; /* simrt__cnt[] when the exact start ended */
	uint64_t sync_seen;
	uint64_t sync_modeled;
	/* CPU time (ns, the thread's clock): at the exact start's end or its registration, at
	 * the open window's opening, spent inside windows, in all (at its end): with patched
	 * sites, its plain accesses between windows are estimated from these and the counting
	 * phases (below). */
	clockid_t clock;
	bool has_clock;
	uint64_t cpu_base, cpu_open, cpu_win, cpu_total;
	/* With patched sites: CPU time (ns) in the counting phases after windows, and the
	 * loads counted there (compound ones twice), from cnt_open[] at the phase's start. */
	uint64_t cpu_cnt, loads_cnt, cnt_open, cpu_cnt_open;
	bool in_cnt;
	bool in_win;
	uint64_t cpu_mark; /* CPU time (ns) at the overlap account's last mark (runtime.c) */
	uint8_t ev[2];		/* scaling class of plain [0] and sync [1] samples: 0 (unscaled)
				 * in the exact start and when exact */
	unsigned slot;
	unsigned core;
	uint64_t me;	 /* 1 << core: the core's sharer bit */
	unsigned ignore; /* __tsan_ignore_thread_begin depth: accesses not modeled */
	uint32_t tid;
	int64_t left[SIMRT_NR_COUNTDOWNS]; /* sampling countdowns, enum simrt_countdown */
	int64_t yield_left;		   /* accesses until the next yield or turn */
	uint64_t rng;
	unsigned nrec;
	bool registered;
	void *altstack; /* the signal stack the runtime gave the thread (it had none), or NULL */
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

/* memops.c: glibc's memset/memcpy/memmove, bypassing the interposed (modeled) ones. */
void *simrt__libc_memset(void *dst, int c, size_t n);
void *simrt__libc_memcpy(void *dst, const void *src, size_t n);
void *simrt__libc_memmove(void *dst, const void *src, size_t n);
/* tsan.c: a range an interposed libc call reads or writes, as the range hooks see it. */
void simrt__range_call(uint64_t addr, uint64_t size, enum coh_op op, uint64_t ret);

/* runtime.c */
extern int simrt__state;
extern struct simrt_pair_slot *simrt__table;
extern struct coh_costs simrt__costs;
extern uint64_t simrt__periods[2]; /* sampling periods: [0] hits, [1] misses */
extern int64_t simrt__yield_every;
/* turns.c: LINEUP_SIM_TURNS's baton.  simrt__turn at a yield point (every simrt__yield_every
 * modeled accesses); simrt__turn_join when a thread registers, simrt__turn_away before a call
 * that may block, simrt__turn_end at its end. */
extern bool simrt__turns;
extern unsigned simrt__nr_cpus; /* runtime.c: CPUs the process may run on (at init) */
void simrt__turn(struct simrt_thread *t);
void simrt__turn_join(struct simrt_thread *t);
void simrt__turn_away(struct simrt_thread *t);
void simrt__turn_end(struct simrt_thread *t);
extern __thread __attribute__((tls_model("initial-exec"))) struct simrt_thread *simrt__cur;
/*
 * The phase every thread is in, one byte alone in its cache line (read-mostly: an L1 hit for
 * every hook, written twice per window period by the timer thread, runtime.c): 0 between
 * windows, SIMRT_PH_MODEL inside a window, in the exact start and always when exact (every
 * access is modeled).
 */
#define SIMRT_PH_MODEL 1
/* Between windows with call-site patching on: a hook still called learns its site (patch.c). */
#define SIMRT_PH_LEARN 2
extern uint8_t simrt__phase[64] __attribute__((visibility("hidden")));
#define simrt__phase_now() __atomic_load_n(&simrt__phase[0], __ATOMIC_RELAXED)
/*
 * Plain loads [0] and compound load-stores [2] (two accesses each) a thread made, counted by
 * the hooks on every call (stores [1] are not counted: one counter per access of `x++`, so
 * that the two do not wait for each other's increment).
 */
extern __thread __attribute__((tls_model("initial-exec"))) uint64_t simrt__cnt[SIMRT_NR_CNT];
/* Windows: the first START ns, then BURST ns once every EVERY ns; EVERY 0: exact, no windows. */
extern uint64_t simrt__burst_ns, simrt__every_ns, simrt__start_ns;
/* Set (nonzero) once the exact start has ended: samples are scaled from then on. */
extern uint64_t simrt__start_end;
/*
 * A range's fast path, between windows (true: nothing more to do): nothing is modeled, a range
 * read only counted, a load per line (the range hooks and the interposed mem* calls).
 */
static inline __attribute__((always_inline)) bool simrt__range_unmodeled(uint64_t addr,
									  uint64_t size,
									  enum coh_op op)
{
	if (__builtin_expect(simrt__phase_now() == SIMRT_PH_MODEL, 0))
		return false;
	if (op == COH_LOAD && size)
		simrt__cnt[0] += ((addr + size - 1) >> 6) - (addr >> 6) + 1;
	return true;
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

/* The length of the call that returns to @ret: 5 (`call rel32`), 6 (`call *disp32(%rip)`,
 * -fno-plt) or 0 (neither). */
static inline unsigned simrt__call_len(uint64_t ret)
{
	const uint8_t *p = (const uint8_t *)(uintptr_t)ret;

	return p[-5] == 0xe8 ? 5 : p[-6] == 0xff && p[-5] == 0x15 ? 6 : 0;
}
uint64_t simrt__now(void);
/* Flush every buffer, write the perf.data, stop recording; safe to call more than once. */
void simrt__finish(void);
void simrt__enter(void); /* the runtime's own allocations are not logged */
void simrt__leave(void);
bool simrt__inside(void);
extern uint64_t simrt__max_allocs;

/* patch.c: call-site patching (x86-64). */
extern bool simrt__patching;	     /* set up: sites are learned and patched */
extern uint64_t simrt__patched_sites; /* sites made no-ops (debug output) */
bool simrt__patch_init(void);
void simrt__learn(uint64_t ret);
unsigned simrt__patch_all(bool call);
void simrt__patch_child(void);
void simrt__patch_fork_prepare(void);
void simrt__patch_fork_parent(void);
unsigned simrt__site_len(uint64_t pc); /* a patchable site's length at @pc, or 0 */

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
	bool pipe;  /* perf.data in pipe mode (record --sim -o -), in a file of the caller's */
	uint64_t observed_ns, overlap_ns; /* the overlap account (SIMRT_EV_OVERLAP) */
};
int simrt__write_perf_data(const struct simrt_output *o, char *err, unsigned errlen);

#endif
