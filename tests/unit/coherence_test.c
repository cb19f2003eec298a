// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * analyzer/coherence: the MESI-like transitions one access at a time (loads that hit, that
 * find the line Modified elsewhere, clean elsewhere, nowhere; stores that hit, upgrade, steal;
 * RMWs), the silent-access shortcut against the full step, the slot hashing and tags, and
 * the perf_mem_data_src words against perf's own decoding rules (tools/perf/util/mem-events.c
 * c2c_decode_stats of Linux 6.1).
 */
#include <config.h>

#include <stdio.h>

#include "analyzer/coherence.h"
#include "tests/unit/check.h"

static struct coh_costs costs;

static coh_state_t step(coh_state_t s, unsigned core, enum coh_op op, struct coh_outcome *o)
{
	coh_state_t next = coherence__step(s, core, op, &costs, o);

	/* The shortcut the runtime takes must agree with the model. */
	CHECK(coherence__silent(s, 1ULL << (core % COH_MAX_CORES), op) == (next == s));
	/* Invariant: dirty means exactly one sharer. */
	if (next & COH_DIRTY)
		CHECK(__builtin_popcountll(coherence__sharers(next)) == 1);
	return next;
}

static void test_false_sharing_pingpong(void)
{
	struct coh_outcome o;
	coh_state_t s = 0;

	/* Core 0 loads a line nobody has: from DRAM, Exclusive. */
	s = step(s, 0, COH_LOAD, &o);
	CHECK(o.load_src == COH_SRC_DRAM && o.load_cycles == costs.load[COH_SRC_DRAM]);
	CHECK(coherence__sharers(s) == 1 && coherence__owner(s) == -1);
	/* Its store hits (E -> M), silently upgrading. */
	s = step(s, 0, COH_STORE, &o);
	CHECK(o.store_hit && !o.invalidated && coherence__owner(s) == 0);
	/* A second store is silent. */
	CHECK(step(s, 0, COH_STORE, &o) == s && o.store_hit);
	/* Core 1 loads: HITM from core 0, both Shared afterwards. */
	s = step(s, 1, COH_LOAD, &o);
	CHECK(o.load_src == COH_SRC_HITM && o.prev_owner == 0);
	CHECK(coherence__sharers(s) == 3 && coherence__owner(s) == -1);
	/* Core 1 stores: miss, invalidating core 0. */
	s = step(s, 1, COH_STORE, &o);
	CHECK(!o.store_hit && o.invalidated == 1 && o.store_cycles == costs.store_miss);
	CHECK(coherence__owner(s) == 1 && coherence__sharers(s) == 2);
	/* Core 0 stores without loading first: an RFO that pulls the Modified line. */
	s = step(s, 0, COH_STORE, &o);
	CHECK(!o.store_hit && o.invalidated == 2 && o.prev_owner == 1);
	CHECK(o.store_cycles == costs.store_hitm);
	/* Core 1 loads again: HITM again. */
	step(s, 1, COH_LOAD, &o);
	CHECK(o.load_src == COH_SRC_HITM);
}

static void test_read_mostly(void)
{
	struct coh_outcome o;
	coh_state_t s = 0;

	s = step(s, 0, COH_LOAD, &o);
	s = step(s, 1, COH_LOAD, &o);
	CHECK(o.load_src == COH_SRC_LLC); /* clean copy elsewhere */
	s = step(s, 2, COH_LOAD, &o);
	CHECK(o.load_src == COH_SRC_LLC && coherence__sharers(s) == 7);
	CHECK(step(s, 1, COH_LOAD, &o) == s && o.load_src == COH_SRC_L1);
	/* A store from core 2 invalidates 0 and 1: the readers lose the line. */
	s = step(s, 2, COH_STORE, &o);
	CHECK(!o.store_hit && o.invalidated == 3 && o.store_cycles == costs.store_miss);
	step(s, 0, COH_LOAD, &o);
	CHECK(o.load_src == COH_SRC_HITM);
}

static void test_rmw(void)
{
	struct coh_outcome o;
	coh_state_t s = 0;

	s = step(s, 0, COH_RMW, &o);
	CHECK(o.load_src == COH_SRC_DRAM && !o.store_hit && coherence__owner(s) == 0);
	CHECK(o.store_cycles == costs.store_miss + costs.lock);
	/* Same core again: silent, L1 hit for the load part, store hit. */
	CHECK(step(s, 0, COH_RMW, &o) == s && o.load_src == COH_SRC_L1 && o.store_hit);
	/* Another core: load part HITM, store part steals the line. */
	s = step(s, 3, COH_RMW, &o);
	CHECK(o.load_src == COH_SRC_HITM && !o.store_hit && o.prev_owner == 0);
	CHECK(coherence__owner(s) == 3);
	/* Core numbers fold into the model's range. */
	s = step(s, 3 + COH_MAX_CORES, COH_LOAD, &o);
	CHECK(o.load_src == COH_SRC_L1);
}

static void test_slots(void)
{
	struct coh_slot a = coherence__slot(0x7f0000001000, 6, 20);
	struct coh_slot b = coherence__slot(0x7f000000103f, 6, 20);
	struct coh_slot c = coherence__slot(0x7f0000001040, 6, 20);
	/* Two lines 2^20 lines apart land in different slots or carry different tags. */
	struct coh_slot d = coherence__slot(0x7f0000001000 + (64ULL << 20), 6, 20);
	coh_state_t s = 0;

	CHECK(a.index == b.index && a.tag == b.tag);
	CHECK(a.index != c.index);
	CHECK(a.index != d.index || a.tag != d.tag);
	CHECK(a.tag && (a.tag & ~COH_TAG_MASK) == 0);
	/* A fresh slot reads as an empty line with the slot's tag; steps keep the tag. */
	s = coherence__lookup(0, a);
	CHECK(s == a.tag && coherence__sharers(s) == 0);
	s = step(s, 5, COH_STORE, NULL);
	CHECK((s & COH_TAG_MASK) == a.tag && coherence__owner(s) == 5);
	/* The same word seen through another line's slot is an evicted line: empty. */
	CHECK(coherence__lookup(s, d) == d.tag || a.tag == d.tag);
	CHECK(coherence__lookup(s, a) == s);
	/* 128-byte slots: both halves of a pair share one. */
	CHECK(coherence__slot(0x1000, 7, 20).index == coherence__slot(0x1040, 7, 20).index);
	CHECK(coherence__first_line(0x103c, 6) == 0x40 &&
	      coherence__last_line(0x103c, 8, 6) == 0x41);
}

/* Field extraction as perf_mem_data_src's bitfields lay them out (little-endian x86). */
#define FIELD(ds, shift, bits) (((ds) >> (shift)) & ((1ULL << (bits)) - 1))

static void test_data_src(void)
{
	uint64_t hitm = coherence__load_data_src(COH_SRC_HITM, false);
	uint64_t l1 = coherence__load_data_src(COH_SRC_L1, false);
	uint64_t llc = coherence__load_data_src(COH_SRC_LLC, true);
	uint64_t dram = coherence__load_data_src(COH_SRC_DRAM, false);
	uint64_t st_hit = coherence__store_data_src(true, false);
	uint64_t st_miss = coherence__store_data_src(false, true);

	/* Load Local HITM: op LOAD (2), lvl HIT|L3 (0x2|0x40), snoop HITM (0x10), not remote. */
	CHECK(FIELD(hitm, 0, 5) == 0x2);
	CHECK(FIELD(hitm, 5, 14) == (0x2 | 0x40));
	CHECK(FIELD(hitm, 19, 5) == 0x10);
	CHECK(FIELD(hitm, 33, 4) == 3);
	CHECK(FIELD(hitm, 37, 1) == 0);
	/* Load L1 hit: lvl HIT|L1, snoop NONE, lvl_num L1. */
	CHECK(FIELD(l1, 5, 14) == (0x2 | 0x8) && FIELD(l1, 19, 5) == 0x2 && FIELD(l1, 33, 4) == 1);
	/* LLC hit (not HITM: c2c's ld_llchit), locked. */
	CHECK(FIELD(llc, 5, 14) == (0x2 | 0x40) && FIELD(llc, 19, 5) == 0x4);
	CHECK(FIELD(llc, 24, 2) == 0x2);
	/* Local DRAM: lvl HIT|LOC_RAM, snoop MISS (c2c: lcl_dram, ld_excl). */
	CHECK(FIELD(dram, 5, 14) == (0x2 | 0x80) && FIELD(dram, 19, 5) == 0x8);
	CHECK(FIELD(dram, 33, 4) == 0xd);
	/* Stores: op STORE (4); L1 hit = lvl HIT|L1; L1 miss = lvl MISS|L1, locked for RMWs. */
	CHECK(FIELD(st_hit, 0, 5) == 0x4 && FIELD(st_hit, 5, 14) == (0x2 | 0x8));
	CHECK(FIELD(st_hit, 24, 2) == 0x1);
	CHECK(FIELD(st_miss, 0, 5) == 0x4 && FIELD(st_miss, 5, 14) == (0x4 | 0x8));
	CHECK(FIELD(st_miss, 24, 2) == 0x2);
}

/*
 * Random access sequences over 6 cores against a reference written the obvious way: a set of
 * holders and a "modified by" core per line.
 */
static void test_random_against_reference(void)
{
	uint64_t rng = 0x2545f4914f6cdd1dULL;
	coh_state_t s = coherence__slot(0x1000, 6, 20).tag;
	uint64_t holders = 0;
	int modified = -1;

	for (int i = 0; i < 200000; i++) {
		struct coh_outcome o;
		unsigned core;
		enum coh_op op;
		enum coh_src want_src;
		bool want_hit;

		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		core = rng % 6;
		op = (enum coh_op)((rng >> 8) % 3);
		if (holders & (1ULL << core))
			want_src = COH_SRC_L1;
		else if (modified >= 0)
			want_src = COH_SRC_HITM;
		else if (holders)
			want_src = COH_SRC_LLC;
		else
			want_src = COH_SRC_DRAM;
		want_hit = holders == (1ULL << core);

		s = step(s, core, op, &o);
		if (op != COH_STORE)
			CHECK(o.load_src == want_src);
		if (op != COH_LOAD) {
			CHECK(o.store_hit == want_hit);
			CHECK(o.invalidated == (holders & ~(1ULL << core)));
		}
		CHECK(o.prev_owner == modified);
		if (op == COH_LOAD) {
			if (modified != (int)core)
				modified = -1;
			holders |= 1ULL << core;
		} else {
			holders = 1ULL << core;
			modified = core;
		}
		CHECK(coherence__sharers(s) == holders);
		CHECK(coherence__owner(s) == modified);
		if (failures > 20)
			return;
	}
}

int main(void)
{
	coherence__default_costs(&costs);
	test_false_sharing_pingpong();
	test_read_mostly();
	test_rmw();
	test_slots();
	test_data_src();
	test_random_against_reference();
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
