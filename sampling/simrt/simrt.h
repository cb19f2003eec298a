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
 *	LINEUP_SIM_MAX_ALLOCS	allocations logged at most (1000000)
 *	LINEUP_SIM_YIELD	N: each thread yields the CPU every N accesses (0, never).  The
 *				model sees the interleaving that really happened; on a machine
 *				with fewer free CPUs than threads, threads sharing a CPU only
 *				interleave at time-slice ends unless they yield.
 *	LINEUP_SIM_ACTIVE	set by the first instrumented process: a process that finds it
 *				set (an instrumented child) records nothing
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

/* Events of the perf.data, in attr order. */
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

enum simrt_rec_kind {
	SIMRT_REC_SAMPLE = 1,
	SIMRT_REC_THREAD, /* tid, core; comm in the ip/addr words */
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
int64_t simrt__next_period(struct simrt_thread *t,
			   int miss); /* 0 not started, 1 recording, 2 stopped */
void simrt__init(void);
struct simrt_thread *simrt__thread(void);
/* access.h: simrt__access() and simrt__range(), inlined into the hooks. */
void simrt__rmw_done(uint64_t addr, bool changed, uint64_t ret);
void simrt__emit(struct simrt_thread *t, enum simrt_event ev, uint64_t ip, uint64_t addr,
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
};
int simrt__write_perf_data(const struct simrt_output *o, char *err, unsigned errlen);

#endif
