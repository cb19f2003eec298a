/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_COHERENCE_H
#define LINEUP_ANALYZER_COHERENCE_H

/*
 * A MESI-like model of one cache line as seen by up to COH_MAX_CORES private caches, each
 * core being one thread of the observed program.  Pure: no I/O, no globals, no locks.  The
 * state of a line is one 64-bit word so that a concurrent caller (the software collector's
 * runtime) can advance it with a single compare-and-swap, and a sequential one (the hardware
 * breakpoint watcher) can keep it in any table it likes.
 *
 * Word layout:
 *   bits  0..39	sharers: bit c set = core c holds the line (S, E or M)
 *   bits 40..62	tag: which line of the table slot the state belongs to (see coh_slot)
 *   bit  63		dirty: the single sharer holds the line Modified
 * Invariant: dirty implies exactly one sharer.  A line nobody holds is "in memory".
 *
 * Ownership: nothing is allocated; callers own every buffer they pass in.
 */

#include <stdbool.h>
#include <stdint.h>

#define COH_MAX_CORES 40
#define COH_SHARERS_MASK ((1ULL << COH_MAX_CORES) - 1)
#define COH_TAG_SHIFT COH_MAX_CORES
#define COH_TAG_BITS 23
#define COH_TAG_MASK (((1ULL << COH_TAG_BITS) - 1) << COH_TAG_SHIFT)
#define COH_DIRTY (1ULL << 63)

typedef uint64_t coh_state_t;

enum coh_op {
	COH_LOAD,
	COH_STORE,
	COH_RMW, /* atomic read-modify-write: a load and a store, locked */
};

/* Where a load found its data. */
enum coh_src {
	COH_SRC_L1,   /* own cache held the line */
	COH_SRC_LLC,  /* another core held it clean: shared-cache hit */
	COH_SRC_HITM, /* another core held it Modified: snoop hit modified */
	COH_SRC_DRAM, /* nobody held it */
};

/**
 * struct coh_costs - modeled latency in cycles of each outcome (the hardware model is a
 * parameter: see coherence__default_costs()).
 */
struct coh_costs {
	uint32_t load[4];    /* indexed by enum coh_src */
	uint32_t store_hit;  /* line already held exclusively */
	uint32_t store_miss; /* read-for-ownership, invalidating other holders */
	uint32_t store_hitm; /* RFO that had to pull the line Modified from another core */
	uint32_t lock;	     /* extra cost of a locked RMW */
};

/**
 * struct coh_outcome - what one access did to the line.
 * @op:		the access
 * @load_src:	for COH_LOAD and COH_RMW, where the data came from
 * @store_hit:	for COH_STORE and COH_RMW, the core already held the line exclusively
 * @prev_owner:	core that held the line Modified before the access, or -1
 * @invalidated: sharers (other than the accessing core) whose copy the access invalidated
 * @load_cycles, @store_cycles: modeled cost of the load and store parts (0 if absent)
 */
struct coh_outcome {
	enum coh_op op;
	enum coh_src load_src;
	bool store_hit;
	int prev_owner;
	uint64_t invalidated;
	uint32_t load_cycles;
	uint32_t store_cycles;
};

void coherence__default_costs(struct coh_costs *costs);

/* Cores holding the line, and the one holding it Modified (-1 if none). */
static inline uint64_t coherence__sharers(coh_state_t s)
{
	return s & COH_SHARERS_MASK;
}

static inline int coherence__owner(coh_state_t s)
{
	if (!(s & COH_DIRTY) || !(s & COH_SHARERS_MASK))
		return -1;
	return __builtin_ctzll(s & COH_SHARERS_MASK);
}

/*
 * Advance @old by one access of @core (0 <= core < COH_MAX_CORES; callers fold larger thread
 * numbers into this range).  Tag bits are preserved.  Fills @out when non-NULL.  Returns the
 * new state; a return equal to @old means the access changed nothing (a cache hit).  Inline:
 * the collector's runtime runs it on every access.
 */
static inline coh_state_t coherence__step(coh_state_t old, unsigned core, enum coh_op op,
			    const struct coh_costs *costs, struct coh_outcome *out)
{
	uint64_t me = 1ULL << (core % COH_MAX_CORES);
	uint64_t sharers = old & COH_SHARERS_MASK;
	coh_state_t tag = old & COH_TAG_MASK;
	int owner = coherence__owner(old);
	struct coh_outcome o = {.op = op, .prev_owner = owner};
	coh_state_t next;

	if (op == COH_LOAD || op == COH_RMW) {
		if (sharers & me)
			o.load_src = COH_SRC_L1;
		else if (owner >= 0)
			o.load_src = COH_SRC_HITM;
		else if (sharers)
			o.load_src = COH_SRC_LLC;
		else
			o.load_src = COH_SRC_DRAM;
		o.load_cycles = costs->load[o.load_src];
	}
	if (op == COH_LOAD) {
		/* A Modified copy elsewhere is written back and both keep it Shared. */
		next = tag | sharers | me;
		if (sharers & me)
			next |= old & COH_DIRTY;
	} else {
		o.store_hit = sharers == me;
		o.invalidated = sharers & ~me;
		if (o.store_hit)
			o.store_cycles = costs->store_hit;
		else if (owner >= 0 && owner != (int)(core % COH_MAX_CORES))
			o.store_cycles = costs->store_hitm;
		else
			o.store_cycles = costs->store_miss;
		if (op == COH_RMW)
			o.store_cycles += costs->lock;
		next = tag | me | COH_DIRTY;
	}
	if (out)
		*out = o;
	return next;
}

/*
 * True when an access by the core whose sharer bit is @me leaves @s as it is (a load of a line
 * the core holds, a store or RMW to a line it holds Modified): the common case, which a
 * concurrent caller can then take without writing the state.  Same answer as
 * coherence__step(s, ...) == s.
 */
static inline bool coherence__silent(coh_state_t s, uint64_t me, enum coh_op op)
{
	if (op == COH_LOAD)
		return (s & me) != 0;
	return (s & (COH_SHARERS_MASK | COH_DIRTY)) == (me | COH_DIRTY);
}

/*
 * Slot tables: a direct-mapped table of 2^log2_slots state words, indexed by a hash of the line
 * number (address >> line_shift).  The tag kept in the word tells whether the slot holds this
 * line; a slot taken over by another line is an eviction (the old line goes back to memory, as
 * in a real cache), which keeps the table's size fixed.  @log2_slots must be <= 26.
 */
struct coh_slot {
	uint64_t index;
	coh_state_t tag; /* already shifted into place */
};

static inline struct coh_slot coherence__slot(uint64_t addr, unsigned line_shift,
					      unsigned log2_slots)
{
	uint64_t line = addr >> line_shift;
	uint64_t high = line >> log2_slots;
	/* Mixing the high part into the index spreads lines that alias at 2^log2_slots lines. */
	uint64_t mix = high * 0x9e3779b97f4a7c15ULL;

	return (struct coh_slot){
	    .index = (line ^ (mix >> (64 - log2_slots))) & ((1ULL << log2_slots) - 1),
	    .tag = ((high + 1) << COH_TAG_SHIFT) & COH_TAG_MASK,
	};
}

/* The state of the slot's line given the slot word: the word, or an empty state if the word
 * belongs to another line (or to none). */
static inline coh_state_t coherence__lookup(coh_state_t word, struct coh_slot slot)
{
	return (word & COH_TAG_MASK) == slot.tag ? word : slot.tag;
}

/*
 * perf_mem_data_src words as Intel PEBS reports them through perf (the encoding `perf c2c` and
 * `perf mem` decode): the load part of an outcome (Load L1 hit, LLC hit, Local HITM, local
 * DRAM) and the store part (L1 hit / L1 miss).  @locked adds the LOCK bit (atomic RMWs).
 */
uint64_t coherence__load_data_src(enum coh_src src, bool locked);
uint64_t coherence__store_data_src(bool hit, bool locked);

/* Bounds check for "would this access cross into the next line": the lines an access of
 * @size bytes at @addr touches, first and last, at 1 << line_shift bytes. */
static inline uint64_t coherence__first_line(uint64_t addr, unsigned line_shift)
{
	return addr >> line_shift;
}

static inline uint64_t coherence__last_line(uint64_t addr, uint64_t size, unsigned line_shift)
{
	return (addr + (size ? size - 1 : 0)) >> line_shift;
}

#endif
