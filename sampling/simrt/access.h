/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_SIMRT_ACCESS_H
#define LINEUP_SAMPLING_SIMRT_ACCESS_H

/*
 * The collector's hot path, inlined into each instrumentation hook (tsan.c includes this
 * file once): one access through the line table, and the sampling decision.  The model itself
 * (analyzer/coherence.c) is compiled into the same unit so that it inlines too.
 */
#include <sched.h>
#include <stdatomic.h>

#include "analyzer/coherence.h"
#include "sampling/simrt/simrt.h"

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/*
 * Advance one state word of a slot by one access; returns the state before it.  The update is a
 * plain store, not a compare-and-swap: two threads changing one line at the same instant
 * leave one of their two valid states (last writer wins), which costs the model one
 * transition now and then but keeps a contended line from costing a locked instruction per
 * access on top of the program's own traffic (measured: 2.5x faster on workload (a)).
 */
static inline coh_state_t word_step(_Atomic uint64_t *p, struct coh_slot s,
				    const struct simrt_thread *t, enum coh_op op)
{
	coh_state_t old = coherence__lookup(atomic_load_explicit(p, memory_order_relaxed), s);

	if (unlikely(!coherence__silent(old, t->me, op)))
		atomic_store_explicit(p, coherence__step(old, t->core, op, &simrt__costs, NULL),
				      memory_order_relaxed);
	return old;
}

/* Advance the 64-byte line and the 128-byte pair holding @addr; their states before. */
static inline void table_step(uint64_t addr, const struct simrt_thread *t, enum coh_op op,
			      coh_state_t *old64, coh_state_t *old128)
{
	struct coh_slot s = coherence__slot(addr, 7, SIMRT_LOG2_SLOTS);
	struct simrt_pair_slot *slot = &simrt__table[s.index];

	*old64 = word_step(&slot->half[(addr >> 6) & 1], s, t, op);
	*old128 = word_step(&slot->pair, s, t, op);
}

/*
 * Advance every line an access of @size at @addr touches: its 64-byte line and pair (their
 * states before in *old64, *old128) and, for an unaligned access that straddles two lines,
 * the next one too.
 */
static inline void table_step_access(uint64_t addr, uint64_t size, const struct simrt_thread *t,
				     enum coh_op op, coh_state_t *old64, coh_state_t *old128)
{
	uint64_t last = addr + size - 1;

	table_step(addr, t, op, old64, old128);
	if (unlikely(((addr ^ last) >> 6) != 0)) {
		coh_state_t x, x2;

		if (((addr ^ last) >> 7) != 0) {
			table_step(last, t, op, &x, &x2);
		} else {
			struct coh_slot s = coherence__slot(last, 7, SIMRT_LOG2_SLOTS);

			(void)word_step(&simrt__table[s.index].half[1], s, t, op);
		}
	}
}

/*
 * Countdowns: one per (load, store) x (hit, miss), so that the rare accesses that matter
 * (HITMs, invalidating stores) are sampled more densely than L1 hits, as a PMU's load-latency
 * threshold does; each sample carries its period, so weighting by period stays unbiased.
 */
static inline bool countdown(struct simrt_thread *t, int k)
{
	if (likely(--t->left[k] > 0))
		return false;
	t->left[k] = simrt__next_period(t, k & 1);
	return true;
}


static __attribute__((noinline)) void sample_load(struct simrt_thread *t, enum coh_op op,
						  uint64_t addr, uint64_t ret,
						  const struct coh_outcome *o, int miss, bool sync)
{
	simrt__emit(t, SIMRT_EV_LOAD | t->ev[sync], simrt__ip(ret), addr,
		    coherence__load_data_src(o->load_src, op == COH_RMW), o->load_cycles,
		    simrt__periods[miss]);
}

static __attribute__((noinline)) void sample_store(struct simrt_thread *t, enum coh_op op,
						   uint64_t addr, uint64_t ret,
						   const struct coh_outcome *o, int miss, bool sync)
{
	simrt__emit(t, SIMRT_EV_STORE | t->ev[sync], simrt__ip(ret), addr,
		    coherence__store_data_src(o->store_hit, op == COH_RMW), o->store_cycles,
		    simrt__periods[miss]);
}

/* An access only the 128-byte model finds contended: data_src as the 128-byte model sees it,
 * with the op bits set to PERF_MEM_OP_NA so that perf c2c does not count it as an access. */
static __attribute__((noinline)) void sample_pair(struct simrt_thread *t, enum coh_op op,
						  uint64_t addr, uint64_t ret,
						  const struct coh_outcome *o, bool sync)
{
	uint64_t ds = op == COH_STORE ? coherence__store_data_src(false, false)
				      : coherence__load_data_src(o->load_src, op == COH_RMW);

	simrt__emit(t, SIMRT_EV_PAIR_HITM | t->ev[sync], simrt__ip(ret), addr, (ds & ~0x1fULL) | 1,
		    op == COH_STORE ? o->store_cycles : o->load_cycles, simrt__periods[1]);
}

/*
 * The 128-byte model says an access that hit its 64-byte line is contended: believe it only
 * when the other half of the pair is held by another core (Modified, for a load), since the
 * pair's and the halves' words are updated separately and can briefly disagree.
 */
static inline bool pair_contended(const struct simrt_thread *t, uint64_t addr, enum coh_op op)
{
	struct coh_slot s = coherence__slot(addr, 7, SIMRT_LOG2_SLOTS);
	coh_state_t other = coherence__lookup(
	    atomic_load_explicit(&simrt__table[s.index].half[((addr >> 6) & 1) ^ 1],
				 memory_order_relaxed),
	    s);

	if (op == COH_LOAD)
		return coherence__owner(other) >= 0 && !(other & t->me);
	return (coherence__sharers(other) & ~t->me) != 0;
}

/* Everything but the silent hit: model transitions, misses, pairs, straddling accesses. */
static __attribute__((noinline)) void access_slow(struct simrt_thread *t, uint64_t addr,
						  uint64_t size, enum coh_op op, uint64_t ret,
						  bool sync)
{
	coh_state_t s64, s128;
	struct coh_outcome o;

	table_step_access(addr, size, t, op, &s64, &s128);
	if (coherence__silent(s64, t->me, op)) {
		/* A hit on its 64-byte line, changing nothing there. */
		if (op != COH_STORE && countdown(t, CD_LOAD_HIT)) {
			coherence__step(s64, t->core, op, &simrt__costs, &o);
			sample_load(t, op, addr, ret, &o, 0, sync);
		}
		if (op != COH_LOAD && countdown(t, CD_STORE_HIT)) {
			coherence__step(s64, t->core, op, &simrt__costs, &o);
			sample_store(t, op, addr, ret, &o, 0, sync);
		}
		if (!coherence__silent(s128, t->me, op) && pair_contended(t, addr, op) &&
		    countdown(t, CD_PAIR)) {
			coherence__step(s128, t->core, op, &simrt__costs, &o);
			sample_pair(t, op, addr, ret, &o, sync);
		}
		return;
	}
	coherence__step(s64, t->core, op, &simrt__costs, &o);
	if (op != COH_STORE) {
		int miss = o.load_src != COH_SRC_L1;

		if (countdown(t, miss ? CD_LOAD_MISS : CD_LOAD_HIT))
			sample_load(t, op, addr, ret, &o, miss, sync);
	}
	if (op != COH_LOAD) {
		int miss = !o.store_hit;

		if (countdown(t, miss ? CD_STORE_MISS : CD_STORE_HIT))
			sample_store(t, op, addr, ret, &o, miss, sync);
	}
}

static __attribute__((noinline, cold)) void sample_hit(struct simrt_thread *t, uint64_t addr,
						       enum coh_op op, uint64_t ret, bool load,
						       bool sync)
{
	struct coh_slot s = coherence__slot(addr, 7, SIMRT_LOG2_SLOTS);
	coh_state_t s64 =
	    coherence__lookup(atomic_load_explicit(&simrt__table[s.index].half[(addr >> 6) & 1],
						   memory_order_relaxed),
			      s);
	struct coh_outcome o;

	coherence__step(s64, t->core, op, &simrt__costs, &o);
	if (load)
		sample_load(t, op, addr, ret, &o, 0, sync);
	else
		sample_store(t, op, addr, ret, &o, 0, sync);
}

/*
 * One modeled access, sampled.  The fast path is the access that changes nothing at either
 * granularity (the line held by this core, Modified for a store) and stays within one line:
 * two loads of the slot, the sampling countdowns, no store.  Anything else goes to
 * access_slow().
 */
static inline __attribute__((always_inline)) void model(struct simrt_thread *t, uint64_t addr,
							uint64_t size, enum coh_op op,
							uint64_t ret, bool sync)
{
	struct coh_slot s = coherence__slot(addr, 7, SIMRT_LOG2_SLOTS);
	struct simrt_pair_slot *slot = &simrt__table[s.index];

	if (unlikely(simrt__yield_every) && --t->yield_left <= 0) {
		/* Threads sharing a CPU interleave only at yields: see LINEUP_SIM_YIELD, and
		 * LINEUP_SIM_TURNS (turns.c).  Jittered, so that the yield does not always fall
		 * before the same access of a loop. */
		t->yield_left = simrt__yield_every / 2 + t->rng % (uint64_t)simrt__yield_every;
		if (simrt__turns)
			simrt__turn(t);
		else
			sched_yield();
	}
	if (likely(
		coherence__silent(
		    coherence__lookup(
			atomic_load_explicit(&slot->half[(addr >> 6) & 1], memory_order_relaxed),
			s),
		    t->me, op) &&
		coherence__silent(
		    coherence__lookup(atomic_load_explicit(&slot->pair, memory_order_relaxed), s),
		    t->me, op) &&
		((addr ^ (addr + size - 1)) >> 6) == 0)) {
		if (op != COH_STORE && unlikely(--t->left[CD_LOAD_HIT] <= 0)) {
			t->left[CD_LOAD_HIT] = simrt__next_period(t, 0);
			sample_hit(t, addr, op, ret, true, sync);
		}
		if (op != COH_LOAD && unlikely(--t->left[CD_STORE_HIT] <= 0)) {
			t->left[CD_STORE_HIT] = simrt__next_period(t, 0);
			sample_hit(t, addr, op, ret, false, sync);
		}
		return;
	}
	access_slow(t, addr, size, op, ret, sync);
}

/* One access through the line table, unsampled (a sync access outside windows). */
static __attribute__((noinline)) void model_quiet(struct simrt_thread *t, uint64_t addr,
						  uint64_t size, enum coh_op op)
{
	coh_state_t x, x2;

	table_step_access(addr, size, t, op, &x, &x2);
}

/*
 * A compound access (clang's -tsan-compound-read-before-write: `x++` on plain memory as one
 * call to __tsan_read_write8): the load, then the store, at the same IP.  Only the hooks and
 * the arrival know it; the model sees two accesses.
 */
#define SIMRT_RW 3

/* The thread of the caller, made on its first access; NULL when it is not to be modeled. */
static inline struct simrt_thread *current(void)
{
	struct simrt_thread *t = simrt__cur;

	if (unlikely(!t))
		t = simrt__thread();
	if (unlikely(!t || simrt__state != 1 || t->ignore))
		return NULL;
	if (unlikely(!t->ev[0]) && __atomic_load_n(&simrt__start_end, __ATOMIC_RELAXED)) {
		/* Out of the exact start: from here on, samples are scaled by what follows. */
		t->plain_modeled = t->loads_modeled = t->sync_seen = t->sync_modeled = 0;
		t->ev[0] = SIMRT_EV_PLAIN;
		t->ev[1] = SIMRT_EV_SYNC;
	}
	return t;
}

/*
 * A plain access whose hook found the phase set: in a window (or the exact start, or exact),
 * model it; between windows with patching on, learn the call site.  (The phase may have
 * changed since the hook looked: then it is not modeled.)
 */
static inline __attribute__((always_inline)) void arrive(uint64_t addr, uint64_t size, int op,
							 uint64_t ret)
{
	unsigned ph = simrt__phase_now();
	struct simrt_thread *t;

	if (ph != SIMRT_PH_MODEL) {
		if (ph == SIMRT_PH_LEARN)
			simrt__learn(ret); /* between windows: a site to patch (patch.c) */
		return;
	}
	t = current();
	if (unlikely(!t))
		return;
	t->plain_modeled += op == SIMRT_RW ? 2 : 1;
	t->loads_modeled += op == SIMRT_RW ? 2 : op == COH_LOAD;
	if (op == SIMRT_RW) {
		model(t, addr, size, COH_LOAD, ret, false);
		model(t, addr, size, COH_STORE, ret, false);
	} else {
		model(t, addr, size, op, ret, false);
	}
}

/*
 * The hooks' arrivals, one per kind of access so that the model folds the op in (tsan.c:
 * jumped to from its assembly hooks too).
 */
void simrt__arrive_load(uint64_t addr, uint64_t size, uint64_t ret);
void simrt__arrive_store(uint64_t addr, uint64_t size, uint64_t ret);
void simrt__arrive_rw(uint64_t addr, uint64_t size, uint64_t ret);

/*
 * A plain access (load or store; RMWs go through simrt__sync).  The fast path, between
 * windows: a test of the phase (a global read by every thread, written by none of them).
 */
static inline __attribute__((always_inline)) void simrt__access(uint64_t addr, uint64_t size,
								enum coh_op op, uint64_t ret)
{
	if (op == COH_LOAD)
		simrt__cnt[0]++;
	if (likely(simrt__phase_now() != SIMRT_PH_MODEL))
		return; /* (not a patchable site: nothing to learn) */
	if (op == COH_LOAD)
		simrt__arrive_load(addr, size, ret);
	else
		simrt__arrive_store(addr, size, ret);
}

/*
 * An atomic read-modify-write or a lock operation: always modeled, sampled inside windows.
 * These cost tens of cycles in the program already.
 */
static __attribute__((noinline)) void simrt__sync(uint64_t addr, uint64_t size, enum coh_op op,
						  uint64_t ret)
{
	struct simrt_thread *t = current();

	if (unlikely(!t))
		return;
	t->sync_seen++;
	if (simrt__phase_now() == SIMRT_PH_MODEL) {
		t->sync_modeled++;
		model(t, addr, size, op, ret, true);
	} else {
		model_quiet(t, addr, size, op);
	}
}

static inline void simrt__range(uint64_t addr, uint64_t size, enum coh_op op, uint64_t ret)
{
	uint64_t end = addr + size;

	if (simrt__range_unmodeled(addr, size, op))
		return;
	/* One modeled access per line the range touches. */
	while (addr < end) {
		uint64_t next = (addr | 63) + 1;
		uint64_t n = (next < end ? next : end) - addr;

		simrt__access(addr, n, op, ret);
		addr = next;
	}
}

#endif
