// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * c2c__prefetch and c2c__add_prefetched (lineup report's look-ahead delivery) against plain
 * c2c__add_sample: the same samples in the same order, each prefetched any number of steps
 * (none, some, all, states taken before the tables grew), must give the same lines, entries, counters, means (bit for bit), PA cnt, CPU and
 * node sets.  Under ASan this also checks that no step, even one walked with another sample's
 * key, reads out of bounds.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/c2c.h"
#include "analyzer/data_src.h"
#include "tests/unit/check.h"

#define LD(lvl, snoop) (DS_MK(OP, DS_OP_LOAD) | DS_MK(LVL, DS_LVL_HIT | (lvl)) | DS_MK(SNOOP, snoop))
#define ST(lvl) (DS_MK(OP, DS_OP_STORE) | DS_MK(LVL, lvl))

static uint64_t rng_state = 42;

static uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static const char *const dsos[] = { "prog", "libc.so.6", "[kernel.kallsyms]" };

/* Random samples over @lines lines (so the tables grow while samples are in flight). */
static struct c2c_sample sample(uint32_t lines)
{
	static const uint64_t classes[] = {
		LD(DS_LVL_L1, DS_SNOOP_NONE),	     LD(DS_LVL_LFB, DS_SNOOP_NONE),
		LD(DS_LVL_L3, DS_SNOOP_HITM),	     LD(DS_LVL_REM_CCE1, DS_SNOOP_HITM),
		LD(DS_LVL_LOC_RAM, DS_SNOOP_HIT),    LD(DS_LVL_REM_CCE2, DS_SNOOP_HIT),
		ST(DS_LVL_HIT | DS_LVL_L1),	     ST(DS_LVL_MISS | DS_LVL_L1),
		LD(DS_LVL_L2, DS_SNOOP_NONE) | DS_MK(SNOOPX, DS_SNOOPX_PEER),
	};
	struct c2c_sample s;
	uint64_t r = rng(), line = r % lines;

	memset(&s, 0, sizeof(s));
	s.addr = s.data_rel = 0x7f0000000000ULL + line * 64 + (r >> 20) % 8 * 8;
	s.ip = s.ip_rel = 0x401000 + (r >> 24) % 16 * 4;
	s.data_src = classes[(r >> 32) % (sizeof(classes) / sizeof(classes[0]))];
	s.cpu = (r >> 40) % 8;
	s.pid = 100 + (r >> 44) % 2;
	s.tid = s.pid + (r >> 46) % 4;
	s.thread = s.tid;
	s.cpumode = (r >> 50) % 8 ? 2 : 1;
	s.level = s.cpumode == 1 ? 'k' : '.';
	s.ip_mapped = s.data_mapped = (r >> 51) % 16 != 0;
	s.data_anon = (r >> 55) % 2;
	s.data_id.ino = (r >> 56) % 2;
	s.code_map = (void *)(uintptr_t)(1 + (r >> 57) % 2);
	s.code_dso = dsos[(r >> 58) % 3];
	s.weight = 30 + (r >> 8) % 500;
	s.period = 1 + (r >> 60) % 2;
	s.phys_addr = (r >> 61) % 4 ? (((r >> 12) & 1) << 30) + line * 64 + (r >> 62) * 4096 : 0;
	return s;
}

static bool mean_eq(struct c2c_mean a, struct c2c_mean b)
{
	return !memcmp(&a, &b, sizeof(a));
}

static void compare(struct c2c *a, struct c2c *b)
{
	CHECK(!memcmp(c2c__total(a), c2c__total(b), sizeof(struct c2c_stats)));
	CHECK(c2c__nr_lines(a) == c2c__nr_lines(b));
	for (uint32_t i = 0; i < c2c__nr_lines(a) && i < c2c__nr_lines(b); i++) {
		const struct c2c_line *x = c2c__line(a, i), *y = c2c__line(b, i);

		CHECK(x->cl == y->cl && x->addr == y->addr && x->paddr_cnt == y->paddr_cnt &&
		      x->period == y->period && x->nr_entries == y->nr_entries);
		CHECK(!memcmp(&x->stats, &y->stats, sizeof(x->stats)));
		CHECK(c2c__cpuset_weight(a, x->cpuset) == c2c__cpuset_weight(b, y->cpuset));
		for (uint32_t k = 0; k < x->nr_entries && k < y->nr_entries; k++) {
			const struct c2c_entry *e = c2c__entry(a, x->entries[k]);
			const struct c2c_entry *f = c2c__entry(b, y->entries[k]);
			char n1[64], n2[64];

			CHECK(e->offset == f->offset && e->iaddr == f->iaddr && e->tid == f->tid &&
			      e->dso == f->dso && e->code_map == f->code_map &&
			      e->data_rel == f->data_rel && e->paddr_cnt == f->paddr_cnt &&
			      e->period == f->period);
			CHECK(!memcmp(&e->stats, &f->stats, sizeof(e->stats)));
			CHECK(mean_eq(e->mean_load, f->mean_load) &&
			      mean_eq(e->mean_lcl_hitm, f->mean_lcl_hitm) &&
			      mean_eq(e->mean_rmt_hitm, f->mean_rmt_hitm) &&
			      mean_eq(e->mean_lcl_peer, f->mean_lcl_peer) &&
			      mean_eq(e->mean_rmt_peer, f->mean_rmt_peer));
			CHECK(c2c__cpuset_weight(a, e->cpuset) == c2c__cpuset_weight(b, f->cpuset));
			c2c__nodestr(a, e->nodeset, n1, sizeof(n1));
			c2c__nodestr(b, f->nodeset, n2, sizeof(n2));
			CHECK(!strcmp(n1, n2));
		}
	}
}

#define RING 16

/*
 * @n samples over @lines lines, with keys @keys: plain adds into one c2c; into the other,
 * each sample gets 0..5 prefetch steps spread over the samples after it (a ring of states),
 * then c2c__add_prefetched (or, when it was given none, c2c__add_sample or
 * c2c__add_prefetched with the state report gives a repeat of the previous sample).
 */
static void run(uint32_t n, uint32_t lines, const enum c2c_key *keys, unsigned int nr_keys,
		uint64_t seed)
{
	int cpu2node[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };
	struct c2c_mem_range mem[2] = { { 0, 1 << 30, 0 }, { 1 << 30, 2ULL << 30, 1 } };
	struct c2c_config cfg = {
		.display = C2C_DISPLAY_TOT, .line_size = 64, .nr_cpus = 8, .nr_nodes = 2,
		.cpu2node = cpu2node, .mem = mem, .nr_mem = 2, .want_node_stats = true,
		.node_info = 1,
	};
	struct c2c *plain, *pre;
	struct c2c_sample ring[RING];
	struct c2c_prefetch pf[RING];
	unsigned int steps[RING];
	struct c2c_prefetch junk = { 0 };

	memcpy(cfg.keys, keys, nr_keys * sizeof(*keys));
	cfg.nr_keys = nr_keys;
	plain = c2c__new(&cfg);
	pre = c2c__new(&cfg);
	rng_state = seed;
	for (uint32_t i = 0; i < n + RING; i++) {
		struct c2c_sample *s = &ring[i % RING];

		if (i >= RING) {
			/* the oldest one: add it to both */
			c2c__add_sample(plain, s);
			if (steps[i % RING]) {
				c2c__add_prefetched(pre, s, &pf[i % RING]);
			} else if (i % 2) {
				/* report's state for a repeat of the previous sample: no hashes */
				struct c2c_prefetch skip = { .step = 4 };

				c2c__add_prefetched(pre, s, &skip);
			} else {
				c2c__add_sample(pre, s);
			}
		}
		if (i < n) {
			*s = sample(lines);
			memset(&pf[i % RING], 0, sizeof(pf[0]));
			steps[i % RING] = rng() % 6;	/* 5 steps: all of them */
		}
		/* a state walked with another sample's key: prefetches only, never added */
		if (i && rng() % 4 == 0) {
			if (junk.step >= 4 || rng() % 8 == 0)
				memset(&junk, 0, sizeof(junk));
			c2c__prefetch(pre, &ring[(i - 1) % RING], &junk);
		}
		/* spread the steps: each live sample gets at most one now */
		for (unsigned int k = 0; k < RING; k++) {
			uint32_t j = i - k;

			if (j > i || j >= n || !steps[j % RING] || rng() % 3)
				continue;
			if (pf[j % RING].step < steps[j % RING])
				c2c__prefetch(pre, &ring[j % RING], &pf[j % RING]);
		}
	}
	c2c__finish(plain);
	c2c__finish(pre);
	compare(plain, pre);
	c2c__delete(plain);
	c2c__delete(pre);
}

/* c2c__same_entry, and c2c__prefetch_same on the samples' states after step 0, which agree. */
static bool same(const struct c2c *c, const struct c2c_sample *a, const struct c2c_sample *b)
{
	struct c2c_prefetch pa = { 0 }, pb = { 0 };
	bool r = c2c__same_entry(c, a, b);

	c2c__prefetch(c, a, &pa);
	c2c__prefetch(c, b, &pb);
	CHECK(pa.have_keys && pb.have_keys);
	CHECK(c2c__prefetch_same(c, &pa, &pb) == r);
	CHECK(c2c__prefetch_same(c, &pb, &pa) == r);
	return r;
}

static void test_same_entry(void)
{
	static const enum c2c_key keys[] = { C2C_KEY_TID, C2C_KEY_IADDR };
	struct c2c_config cfg = { .line_size = 64, .nr_keys = 2 };
	struct c2c *c;
	struct c2c_sample a, b;

	memcpy(cfg.keys, keys, sizeof(keys));
	c = c2c__new(&cfg);
	rng_state = 9;
	a = sample(100);
	b = a;
	b.weight++;		/* not a key */
	b.phys_addr ^= 4096;
	CHECK(same(c, &a, &b));
	b.addr = b.data_rel = a.addr ^ 8;	/* another offset */
	CHECK(!same(c, &a, &b));
	b = a;
	b.data_rel += 64;			/* another line */
	CHECK(!same(c, &a, &b));
	b = a;
	b.tid++;
	CHECK(!same(c, &a, &b));
	b = a;
	b.ip += 4;
	CHECK(!same(c, &a, &b));
	b = a;
	b.pid++;				/* not a key here (unless anon memory) */
	b.data_anon = false;
	a.data_anon = false;
	CHECK(same(c, &a, &b));
	b.data_id.ino_generation = 7;
	CHECK(!b.data_mapped || !same(c, &a, &b));
	c2c__delete(c);
}

int main(void)
{
	test_same_entry();
	static const enum c2c_key iaddr[] = { C2C_KEY_IADDR };
	static const enum c2c_key all[] = { C2C_KEY_PID, C2C_KEY_TID, C2C_KEY_IADDR, C2C_KEY_DSO };

	run(20000, 3, iaddr, 1, 1);		/* few lines: the last-line shortcut */
	run(50000, 5000, iaddr, 1, 2);		/* tables grow with samples in flight */
	run(50000, 20000, all, 4, 3);		/* every key */
	run(3000, 1000, all, 0, 4);		/* offset only */
	return failures != 0;
}
