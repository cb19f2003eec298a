// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "analyzer/c2c.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/data_src.h"
#include "util/xalloc.h"

#define CPUMODE_KERNEL_ 1	/* PERF_RECORD_MISC_KERNEL */

#define C2C_DCACHE 256	/* slots of the decode cache (a power of two) */
#define C2C_DCACHE_PROBE 8

struct decoded {
	uint64_t key;
	bool valid;
	uint8_t n;
	uint8_t idx[32];
	uint32_t val[32];
	struct c2c_stats st;
};

/* The cycles means an entry keeps (perf's compute_stats). */
enum { M_LOAD, M_LCL_HITM, M_RMT_HITM, M_LCL_PEER, M_RMT_PEER, M_NR };

/*
 * What one entry adds up while the samples arrive: 256 bytes, the first cache line what every
 * sample touches.  Its key and its first sample's values are in the parallel struct c2c_ekey
 * and struct first; a struct c2c_entry, with its names, is made of the three only for the entries
 * of lines that are shown, so that memory per entry stays a quarter of perf's
 * (bench/c2c_memory.sh).
 */
struct agg {
	const void *code_map;
	uint64_t period;
	uint64_t paddr;
	uint64_t cpus, nodes;	/* CPU and node bits while adding, when both fit a word */
	uint32_t paddr_cnt;
	uint32_t node_stats;
	uint32_t cc_root;
	uint32_t cpuset, nodeset;	/* with inline bits: UINT32_MAX until shown */
	char level;
	struct c2c_stats stats;
	double mean[M_NR];
	uint32_t mean_n[M_NR];
	uint32_t shown;		/* its struct c2c_entry, UINT32_MAX: none yet */
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct agg) == 256, "an entry's aggregate is four cache lines");
_Static_assert(offsetof(struct agg, stats) % 64 == 0 && sizeof(struct c2c_stats) <= 128,
	       "an entry's counters are two cache lines (c2c__prefetch)");

/* The first sample's values an entry shows that are not in its key. */
struct first {
	uint64_t ip_rel;
	uint64_t data_rel;
	uint32_t thread;
};

/*
 * Entries live in chunks, never moved: a table that doubles by copying needs twice its size
 * at the moment it grows, and entries are most of a report's memory.
 */
#define CHUNK_SHIFT 14
#define CHUNK_SIZE (1u << CHUNK_SHIFT)

struct chunk {
	struct agg *agg;	/* 64-aligned (xmalloc_lines) */
	struct c2c_ekey *keys;
	struct first *first;
};

#define SHOWN_SHIFT 10
#define SHOWN_SIZE (1u << SHOWN_SHIFT)

struct c2c {
	struct c2c_config cfg;
	struct decoded dcache[C2C_DCACHE];
	uint32_t last_line, last_entry;
	int *cpu2node;
	struct c2c_mem_range *mem;
	uint64_t cl_mask;	/* line_size - 1 */

	struct c2c_stats total;
	struct c2c_stats shared;
	uint32_t nr_shared;

	struct c2c_line *lines;		/* 64-aligned (xmalloc_lines) */
	struct c2c_lkey *lkeys;		/* parallel to lines */
	size_t nr_lines, cap_lines;
	struct chunk *chunks;		/* the entries, CHUNK_SIZE a chunk */
	size_t nr_entries, nr_chunks, cap_chunks;
	/* the entries of lines shown, SHOWN_SIZE a block (pointers to them stay valid) */
	struct c2c_entry **shown;
	size_t nr_shown, cap_shown;

	/*
	 * open addressing; a slot is the key hash's high half (a tag, so that probing rarely
	 * reads a key that does not match) << 32 | index + 1, 0 = empty
	 */
	uint64_t *line_ht;
	size_t line_ht_cap;
	uint64_t *entry_ht;
	size_t entry_ht_cap;

	/* bitmaps of every line and entry, words_cpu / words_node u64 each */
	uint64_t *bits;
	size_t nr_bits, cap_bits;
	uint32_t words_cpu, words_node;
	bool inline_bits;	/* both fit a word: kept in the lines and entries until finish */

	struct c2c_stats *node_stats;
	size_t nr_node_stats, cap_node_stats;

	struct cc_forest cc;	/* call-chain trees of the entries */
	uint32_t *order;	/* lines in display order */
	uint32_t *entry_order;	/* every line's entries, grouped by line (c2c_line.entries) */
	int offset_node_width;
	bool key_dso;
	uint64_t mask_iaddr, mask_pidtid;	/* the parts of an ekey that are keys */
};

/* ---- statistics (perf's c2c_decode_stats / c2c_add_stats) ---- */

int c2c_stats__decode(struct c2c_stats *st, uint64_t data_src, uint64_t daddr, bool mapped)
{
	struct data_src d = data_src__decode(data_src);
	unsigned int lvl = d.lvl, snoop = d.snoop, snoopx = d.snoopx;
	/* Skylake reports an unknown remote level through the remote bit; POWER uses it with
	 * hops for another core of the same node, so only count it without hops. */
	bool mrem = d.remote && !d.hops;

	st->nr_entries++;
	if (d.lock & DS_LOCK_LOCKED)
		st->locks++;
	if (d.blk & DS_BLK_DATA)
		st->blk_data++;
	if (d.blk & DS_BLK_ADDR)
		st->blk_addr++;

	if (d.op & DS_OP_LOAD) {
		st->load++;
		if (!daddr) {
			st->ld_noadrs++;
			return -1;
		}
		if (lvl & DS_LVL_HIT) {
			if (lvl & DS_LVL_UNC)
				st->ld_uncache++;
			if (lvl & DS_LVL_IO)
				st->ld_io++;
			if (lvl & DS_LVL_LFB)
				st->ld_fbhit++;
			if (lvl & DS_LVL_L1)
				st->ld_l1hit++;
			if (lvl & DS_LVL_L2) {
				st->ld_l2hit++;
				if (snoopx & DS_SNOOPX_PEER) {
					st->lcl_peer++;
					st->tot_peer++;
				}
			}
			if (lvl & DS_LVL_L3) {
				if (snoop & DS_SNOOP_HITM) {
					st->lcl_hitm++;
					st->tot_hitm++;
				} else {
					st->ld_llchit++;
				}
				if (snoopx & DS_SNOOPX_PEER) {
					st->lcl_peer++;
					st->tot_peer++;
				}
			}
			if (lvl & DS_LVL_LOC_RAM) {
				st->lcl_dram++;
				if (snoop & DS_SNOOP_HIT)
					st->ld_shared++;
				else
					st->ld_excl++;
			}
			if ((lvl & (DS_LVL_REM_RAM1 | DS_LVL_REM_RAM2)) || mrem) {
				st->rmt_dram++;
				if (snoop & DS_SNOOP_HIT)
					st->ld_shared++;
				else
					st->ld_excl++;
			}
		}
		if ((lvl & (DS_LVL_REM_CCE1 | DS_LVL_REM_CCE2)) || mrem) {
			if (snoop & DS_SNOOP_HIT) {
				st->rmt_hit++;
			} else if (snoop & DS_SNOOP_HITM) {
				st->rmt_hitm++;
				st->tot_hitm++;
			} else if (snoopx & DS_SNOOPX_PEER) {
				st->rmt_hit++;
				st->rmt_peer++;
				st->tot_peer++;
			}
		}
		if (lvl & DS_LVL_MISS)
			st->ld_miss++;
	} else if (d.op & DS_OP_STORE) {
		st->store++;
		if (!daddr) {
			st->st_noadrs++;
			return -1;
		}
		if (lvl & DS_LVL_HIT) {
			if (lvl & DS_LVL_UNC)
				st->st_uncache++;
			if (lvl & DS_LVL_L1)
				st->st_l1hit++;
		}
		if ((lvl & DS_LVL_MISS) && (lvl & DS_LVL_L1))
			st->st_l1miss++;
		if (lvl & DS_LVL_NA)
			st->st_na++;
	} else {
		st->noparse++;
		return -1;
	}
	if (!mapped) {
		st->nomap++;
		return -1;
	}
	return 0;
}

void c2c_stats__add(struct c2c_stats *st, const struct c2c_stats *add)
{
	uint32_t *a = (uint32_t *)st;
	const uint32_t *b = (const uint32_t *)add;

	for (size_t i = 0; i < sizeof(*st) / sizeof(uint32_t); i++)
		a[i] += b[i];
}

uint64_t c2c_stats__llc_misses(const struct c2c_stats *st)
{
	return (uint64_t)st->lcl_dram + st->rmt_dram + st->rmt_hitm + st->rmt_hit;
}

uint64_t c2c_stats__cache_hits(const struct c2c_stats *st)
{
	return (uint64_t)st->ld_fbhit + st->ld_l1hit + st->ld_l2hit + st->ld_llchit + st->lcl_hitm;
}

uint64_t c2c_stats__stores(const struct c2c_stats *st)
{
	return (uint64_t)st->st_l1hit + st->st_l1miss + st->st_na;
}

uint64_t c2c_stats__total_records(const struct c2c_stats *st)
{
	return c2c_stats__llc_misses(st) + c2c_stats__cache_hits(st) + c2c_stats__stores(st);
}

uint64_t c2c_stats__total_loads(const struct c2c_stats *st)
{
	return c2c_stats__llc_misses(st) + c2c_stats__cache_hits(st);
}

uint32_t c2c_stats__display_metric(const struct c2c_stats *st, enum c2c_display d)
{
	switch (d) {
	case C2C_DISPLAY_LCL:
		return st->lcl_hitm;
	case C2C_DISPLAY_RMT:
		return st->rmt_hitm;
	case C2C_DISPLAY_TOT:
		return st->tot_hitm;
	case C2C_DISPLAY_PEER:
		return st->tot_peer;
	}
	return 0;
}

double c2c__percent(uint32_t st, uint32_t tot)
{
	return tot ? 100. * (double)st / (double)tot : 0;
}

/* ---- construction ---- */

struct c2c *c2c__new(const struct c2c_config *cfg)
{
	struct c2c *c = xcalloc(1, sizeof(*c));

	c->cfg = *cfg;
	if (!c->cfg.line_size || (c->cfg.line_size & (c->cfg.line_size - 1)))
		c->cfg.line_size = 64;
	c->cl_mask = c->cfg.line_size - 1;
	if (cfg->nr_cpus) {
		c->cpu2node = xmalloc(cfg->nr_cpus * sizeof(int));
		for (uint32_t i = 0; i < cfg->nr_cpus; i++)
			c->cpu2node[i] = cfg->cpu2node ? cfg->cpu2node[i] : -1;
	}
	c->cfg.cpu2node = c->cpu2node;
	if (cfg->nr_mem) {
		c->mem = xmalloc(cfg->nr_mem * sizeof(*c->mem));
		memcpy(c->mem, cfg->mem, cfg->nr_mem * sizeof(*c->mem));
	}
	c->cfg.mem = c->mem;
	c->words_cpu = (cfg->nr_cpus + 63) / 64;
	c->words_node = (cfg->nr_nodes + 63) / 64;
	c->inline_bits = c->words_cpu <= 1 && c->words_node <= 1;
	for (unsigned int i = 0; i < cfg->nr_keys; i++) {
		if (cfg->keys[i] == C2C_KEY_PID)
			c->mask_pidtid |= 0xffffffffULL << 32;
		if (cfg->keys[i] == C2C_KEY_TID)
			c->mask_pidtid |= 0xffffffffULL;
		if (cfg->keys[i] == C2C_KEY_IADDR)
			c->mask_iaddr = UINT64_MAX;
		c->key_dso |= cfg->keys[i] == C2C_KEY_DSO;
	}
	c->line_ht_cap = 1024;
	c->line_ht = xcalloc(c->line_ht_cap, sizeof(uint64_t));
	c->entry_ht_cap = 4096;
	c->entry_ht = xcalloc(c->entry_ht_cap, sizeof(uint64_t));
	c->offset_node_width = 4;
	c->last_line = c->last_entry = UINT32_MAX;
	return c;
}

void c2c__delete(struct c2c *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nr_shown; i++) {
		struct c2c_entry *e = &c->shown[i >> SHOWN_SHIFT][i & (SHOWN_SIZE - 1)];

		free(e->info.srcline);
		free(e->nodestr);
	}
	for (size_t i = 0; i < c->nr_shown; i += SHOWN_SIZE)
		free(c->shown[i >> SHOWN_SHIFT]);
	free(c->shown);
	for (size_t i = 0; i < c->nr_chunks; i++) {
		free(c->chunks[i].agg);
		free(c->chunks[i].keys);
		free(c->chunks[i].first);
	}
	free(c->chunks);
	for (size_t i = 0; i < c->nr_lines; i++)
		free(c->lines[i].nodestr);
	free(c->cpu2node);
	free(c->mem);
	free(c->lines);
	free(c->lkeys);
	free(c->line_ht);
	free(c->entry_ht);
	free(c->bits);
	free(c->node_stats);
	free(c->order);
	free(c->entry_order);
	cc_forest__release(&c->cc);
	free(c);
}

const struct c2c_config *c2c__config(const struct c2c *c)
{
	return &c->cfg;
}

const struct c2c_stats *c2c__total(const struct c2c *c)
{
	return &c->total;
}

const struct c2c_stats *c2c__shared(const struct c2c *c)
{
	return &c->shared;
}

uint32_t c2c__nr_shared(const struct c2c *c)
{
	return c->nr_shared;
}

uint32_t c2c__nr_lines(const struct c2c *c)
{
	return c->nr_lines;
}

struct c2c_line *c2c__line(const struct c2c *c, uint32_t i)
{
	return &c->lines[c->order ? c->order[i] : i];
}

struct c2c_line *c2c__line_by_serial(const struct c2c *c, uint32_t serial)
{
	return &c->lines[serial];
}

static uint32_t entry__show(struct c2c *c, uint32_t i);

struct c2c_entry *c2c__entry(const struct c2c *c, uint32_t idx)
{
	/*
	 * Made on first use (c2c__finish makes those of the shown lines): like the lines' entry
	 * order, a cache of what the aggregate says, not a change a reader sees.
	 */
	uint32_t at = entry__show((struct c2c *)c, idx);

	return &c->shown[at >> SHOWN_SHIFT][at & (SHOWN_SIZE - 1)];
}

const struct cc_forest *c2c__callchains(const struct c2c *c)
{
	return &c->cc;
}

int c2c__offset_node_width(const struct c2c *c)
{
	return c->offset_node_width;
}

/*
 * Grow an array into a new 64-aligned block (xmalloc_lines), so that its elements'
 * hot fields are whole cache lines.  The tables are read at random, several MB of them: 2 MB
 * pages (where the system gives them on request) spare the TLB misses that otherwise hold the
 * prefetches up (-7..10% on the bench).
 */
static void *grow_aligned(void *old, size_t used, size_t size)
{
	void *v = xmalloc_lines(size);

	if (used)
		memcpy(v, old, used);
	free(old);
	return v;
}

/* ---- bitmaps ---- */

static uint32_t bits__alloc(struct c2c *c, uint32_t words)
{
	uint32_t at = c->nr_bits;

	if (!words)
		return at;
	if (c->nr_bits + words > c->cap_bits)
		c->bits = xgrow(c->bits, &c->cap_bits, c->nr_bits + words, sizeof(uint64_t));
	memset(c->bits + at, 0, words * sizeof(uint64_t));
	c->nr_bits += words;
	return at;
}

static inline void bits__set(struct c2c *c, uint32_t set, uint32_t bit)
{
	c->bits[set + bit / 64] |= 1ULL << (bit % 64);
}

bool c2c__cpuset_test(const struct c2c *c, uint32_t set, uint32_t cpu)
{
	return cpu < c->cfg.nr_cpus && (c->bits[set + cpu / 64] >> (cpu % 64) & 1);
}

uint32_t c2c__cpuset_weight(const struct c2c *c, uint32_t set)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < c->words_cpu; i++)
		n += __builtin_popcountll(c->bits[set + i]);
	return n;
}

void c2c__nodestr(const struct c2c *c, uint32_t set, char *buf, size_t size)
{
	uint32_t nbits = c->cfg.nr_nodes, cur = 0;
	size_t len = 0;
	bool first = true;

	buf[0] = '\0';
	/* perf's bitmap_scnprintf: ranges of consecutive bits as "a-b", joined by ',' */
	while (cur < nbits) {
		uint32_t bot, top;

		while (cur < nbits && !(c->bits[set + cur / 64] >> (cur % 64) & 1))
			cur++;
		if (cur >= nbits)
			break;
		bot = top = cur;
		while (top + 1 < nbits && (c->bits[set + (top + 1) / 64] >> ((top + 1) % 64) & 1))
			top++;
		if (len < size)
			len += snprintf(buf + len, size - len, "%s%u", first ? "" : ",", bot);
		if (bot < top && len < size)
			len += snprintf(buf + len, size - len, "-%u", top);
		first = false;
		cur = top + 1;
	}
	if (first)
		snprintf(buf, size, "N/A");
}

int c2c__phys_node(const struct c2c *c, uint64_t phys_addr)
{
	size_t lo = 0, hi = c->cfg.nr_mem;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (phys_addr < c->mem[mid].start)
			hi = mid;
		else if (phys_addr >= c->mem[mid].end)
			lo = mid + 1;
		else
			return c->mem[mid].node;
	}
	return -1;
}

const struct c2c_stats *c2c__node_stats(const struct c2c *c, const struct c2c_entry *e,
					uint32_t node)
{
	static const struct c2c_stats zero;

	if (e->node_stats == UINT32_MAX || node >= c->cfg.nr_nodes)
		return &zero;
	return &c->node_stats[e->node_stats + node];
}

/* ---- hashing ---- */

static inline uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h;
}

static inline uint64_t fmix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

/*
 * The keys (struct c2c_lkey, c2c_ekey in c2c.h) are kept apart from the lines and entries:
 * probing touches only these small arrays, and a key built in registers is compared word by word.
 */

static inline struct agg *agg_at(const struct c2c *c, uint32_t i)
{
	return &c->chunks[i >> CHUNK_SHIFT].agg[i & (CHUNK_SIZE - 1)];
}

static inline struct c2c_ekey *ekey_at(const struct c2c *c, uint32_t i)
{
	return &c->chunks[i >> CHUNK_SHIFT].keys[i & (CHUNK_SIZE - 1)];
}

static inline struct first *first_at(const struct c2c *c, uint32_t i)
{
	return &c->chunks[i >> CHUNK_SHIFT].first[i & (CHUNK_SIZE - 1)];
}

static inline uint64_t lkey_hash(struct c2c_lkey k)
{
	uint64_t h = mix(k.cl, k.meta);

	h = mix(h, k.majmin);
	h = mix(h, k.ino);
	return fmix(h);
}

static inline bool lkey_eq(const struct c2c_lkey *a, struct c2c_lkey b)
{
	/* perf compares generations only when both have one (synthesized MMAPs have none) */
	return a->cl == b.cl && a->meta == b.meta && a->majmin == b.majmin && a->ino == b.ino &&
	       (!a->gen || !b.gen || a->gen == b.gen);
}

static inline uint64_t ekey_hash(const struct c2c *c, struct c2c_ekey k)
{
	uint64_t h = mix(k.lineoff, k.iaddr & c->mask_iaddr);

	h = mix(h, k.pidtid & c->mask_pidtid);
	h = mix(h, c->key_dso ? (uint64_t)(uintptr_t)k.dso : 0);
	return fmix(h);
}

static inline bool ekey_eq(const struct c2c *c, const struct c2c_ekey *a, struct c2c_ekey b)
{
	return a->lineoff == b.lineoff && !((a->iaddr ^ b.iaddr) & c->mask_iaddr) &&
	       !((a->pidtid ^ b.pidtid) & c->mask_pidtid) && (!c->key_dso || a->dso == b.dso);
}

static inline uint64_t slot_of(uint64_t hash, size_t idx)
{
	return (hash >> 32) << 32 | (idx + 1);
}

static inline bool slot_tag_eq(uint64_t slot, uint64_t hash)
{
	return slot >> 32 == hash >> 32;
}

static inline uint32_t slot_idx(uint64_t slot)
{
	return (uint32_t)slot - 1;
}

static void line_ht_grow(struct c2c *c)
{
	size_t cap = c->line_ht_cap * 2;
	uint64_t *ht = xcalloc(cap, sizeof(uint64_t));

	for (size_t i = 0; i < c->nr_lines; i++) {
		uint64_t h = lkey_hash(c->lkeys[i]);
		size_t at = h & (cap - 1);

		while (ht[at])
			at = (at + 1) & (cap - 1);
		ht[at] = slot_of(h, i);
	}
	free(c->line_ht);
	c->line_ht = ht;
	c->line_ht_cap = cap;
}

static void entry_ht_grow(struct c2c *c)
{
	size_t cap = c->entry_ht_cap * 2;
	uint64_t *ht = xcalloc(cap, sizeof(uint64_t));

	for (size_t i = 0; i < c->nr_entries; i++) {
		uint64_t h = ekey_hash(c, *ekey_at(c, i));
		size_t at = h & (cap - 1);

		while (ht[at])
			at = (at + 1) & (cap - 1);
		ht[at] = slot_of(h, i);
	}
	free(c->entry_ht);
	c->entry_ht = ht;
	c->entry_ht_cap = cap;
}

static uint32_t line__new(struct c2c *c, struct c2c_lkey k, const struct c2c_sample *s, size_t at,
			  uint64_t hash)
{
	struct c2c_line *l;

	if (c->nr_lines == c->cap_lines) {
		c->cap_lines = c->cap_lines ? 2 * c->cap_lines : 64;
		c->lines = grow_aligned(c->lines, c->nr_lines * sizeof(*c->lines),
					c->cap_lines * sizeof(*c->lines));
		c->lkeys = xrealloc(c->lkeys, c->cap_lines * sizeof(*c->lkeys));
	}
	c->lkeys[c->nr_lines] = k;
	l = &c->lines[c->nr_lines];
	memset(l, 0, sizeof(*l));
	l->cpumode = k.meta & 0xff;
	l->mapped = k.meta >> 8 & 1;
	l->anon = k.meta >> 9 & 1;
	l->pid = (int32_t)(k.meta >> 32);
	if (l->mapped)
		l->id = s->data_id;
	l->cl = k.cl;
	l->addr = s->addr;
	l->serial = c->nr_lines;
	l->cpuset = bits__alloc(c, c->words_cpu);
	l->nodeset = bits__alloc(c, c->words_node);
	c->line_ht[at] = slot_of(hash, c->nr_lines++);
	if (c->nr_lines * 2 > c->line_ht_cap)
		line_ht_grow(c);
	return c->nr_lines - 1;
}

static inline uint32_t line__findnew(struct c2c *c, struct c2c_lkey k, const struct c2c_sample *s,
				     uint64_t h)
{
	size_t at = h & (c->line_ht_cap - 1);

	for (;;) {
		uint64_t v = c->line_ht[at];

		if (!v)
			return line__new(c, k, s, at, h);
		if (slot_tag_eq(v, h) && lkey_eq(&c->lkeys[slot_idx(v)], k))
			return slot_idx(v);
		at = (at + 1) & (c->line_ht_cap - 1);
	}
}

/* The entry for the first sample of its key, @s. */
static uint32_t entry__new(struct c2c *c, struct c2c_ekey k, const struct c2c_sample *s, size_t at,
			   uint64_t hash)
{
	struct agg *e;

	if (c->nr_entries == c->nr_chunks * CHUNK_SIZE) {
		struct chunk *ch;

		if (c->nr_chunks >= UINT32_MAX / CHUNK_SIZE)
			abort();	/* 2^32 entries: their indices would wrap */
		c->chunks = xgrow(c->chunks, &c->cap_chunks, c->nr_chunks + 1, sizeof(*c->chunks));
		ch = &c->chunks[c->nr_chunks++];
		ch->agg = xmalloc_lines(CHUNK_SIZE * sizeof(*ch->agg));
		ch->keys = xmalloc(CHUNK_SIZE * sizeof(*ch->keys));
		ch->first = xmalloc(CHUNK_SIZE * sizeof(*ch->first));
	}
	*ekey_at(c, c->nr_entries) = k;
	*first_at(c, c->nr_entries) = (struct first){ s->ip_rel, s->data_rel, s->thread };
	e = agg_at(c, c->nr_entries);
	memset(e, 0, sizeof(*e));
	if (c->inline_bits) {
		e->cpuset = e->nodeset = UINT32_MAX;
	} else {
		e->cpuset = bits__alloc(c, c->words_cpu);
		e->nodeset = bits__alloc(c, c->words_node);
	}
	e->node_stats = UINT32_MAX;
	e->cc_root = UINT32_MAX;
	e->shown = UINT32_MAX;
	e->code_map = s->code_map;
	e->level = s->level;
	if (c->cfg.want_node_stats && c->cfg.nr_nodes) {
		size_t n = c->cfg.nr_nodes;

		if (c->nr_node_stats + n > c->cap_node_stats)
			c->node_stats = xgrow(c->node_stats, &c->cap_node_stats,
					      c->nr_node_stats + n, sizeof(*c->node_stats));
		memset(c->node_stats + c->nr_node_stats, 0, n * sizeof(*c->node_stats));
		e->node_stats = c->nr_node_stats;
		c->nr_node_stats += n;
	}
	c->entry_ht[at] = slot_of(hash, c->nr_entries++);
	return c->nr_entries - 1;
}

static inline uint32_t entry__findnew(struct c2c *c, struct c2c_ekey k, const struct c2c_sample *s,
				      uint64_t h, bool *created)
{
	size_t at;

	/* grow before probing, so that the slot found stays valid */
	if ((c->nr_entries + 1) * 2 > c->entry_ht_cap)
		entry_ht_grow(c);
	at = h & (c->entry_ht_cap - 1);
	for (;;) {
		uint64_t v = c->entry_ht[at];

		if (!v) {
			*created = true;
			return entry__new(c, k, s, at, h);
		}
		if (slot_tag_eq(v, h) && ekey_eq(c, ekey_at(c, slot_idx(v)), k)) {
			*created = false;
			return slot_idx(v);
		}
		at = (at + 1) & (c->entry_ht_cap - 1);
	}
}

uint64_t c2c__memory(const struct c2c *c)
{
	uint64_t per_entry = sizeof(struct agg) + sizeof(struct c2c_ekey) + sizeof(struct first);

	return (uint64_t)c->nr_chunks * CHUNK_SIZE * per_entry +
	       (uint64_t)c->entry_ht_cap * sizeof(*c->entry_ht) +
	       (uint64_t)c->cap_lines * (sizeof(*c->lines) + sizeof(*c->lkeys)) +
	       (uint64_t)c->line_ht_cap * sizeof(*c->line_ht) +
	       (uint64_t)c->cap_bits * sizeof(*c->bits) +
	       (uint64_t)c->cap_node_stats * sizeof(*c->node_stats) +
	       (uint64_t)c->nr_shown * sizeof(struct c2c_entry);
}

uint64_t c2c__memory_next(const struct c2c *c)
{
	uint64_t per_entry = sizeof(struct agg) + sizeof(struct c2c_ekey) + sizeof(struct first);
	uint64_t next = (uint64_t)CHUNK_SIZE * per_entry;

	/* the entries' hash table doubles (the old one freed only after) */
	if ((c->nr_entries + CHUNK_SIZE) * 2 > c->entry_ht_cap)
		next += 2 * (uint64_t)c->entry_ht_cap * sizeof(*c->entry_ht);
	return next;
}

uint64_t c2c__memory_for(uint64_t nr_entries)
{
	uint64_t per_entry = sizeof(struct agg) + sizeof(struct c2c_ekey) + sizeof(struct first);
	uint64_t cap = 4096;

	while (cap < 2 * nr_entries + 2)
		cap *= 2;
	return nr_entries * per_entry + cap * sizeof(uint64_t);
}

uint64_t c2c__nr_entries(const struct c2c *c)
{
	return c->nr_entries;
}

/* ---- the hot path ---- */

/* Welford's mean, perf's update_stats: @n counts as a double would (exactly, below 2^32). */
static inline void mean__update(struct agg *e, int m, uint64_t val)
{
	double delta;

	e->mean_n[m]++;
	delta = (double)val - e->mean[m];
	e->mean[m] += delta / e->mean_n[m];
}

/* perf's c2c_he__set_cpu and c2c_he__set_node, for a line or an entry (@node: of phys_addr). */
static inline void set_cpu_node(struct c2c *c, uint64_t *cpus, uint64_t *nodes, uint32_t cpuset,
				uint32_t nodeset, uint64_t *paddr, uint32_t *paddr_cnt,
				const struct c2c_sample *s, int node)
{
	if (s->cpu < c->cfg.nr_cpus) {
		if (c->inline_bits)
			*cpus |= 1ULL << s->cpu;
		else
			bits__set(c, cpuset, s->cpu);
	}
	if (!s->phys_addr || node < 0)
		return;
	if ((uint32_t)node < c->cfg.nr_nodes) {
		if (c->inline_bits)
			*nodes |= 1ULL << node;
		else
			bits__set(c, nodeset, node);
	}
	if (*paddr != s->phys_addr) {
		(*paddr_cnt)++;
		*paddr = s->phys_addr;
	}
}

/*
 * The decoded counters of one data_src value, with the list of counters it touches: adding a
 * sample to the total, its line and its entry is then a handful of increments.  A small cache,
 * since a recording has few distinct data_src values (a few dozen): a key takes the first free
 * slot of a short probe, and only when those are all taken evicts its home slot.
 */
static const struct decoded *decode_cached(struct c2c *c, uint64_t data_src, bool has_addr,
					   bool mapped)
{
	uint64_t key = data_src << 2 | (uint64_t)has_addr << 1 | mapped;
	size_t home = (fmix(key) >> 7) & (C2C_DCACHE - 1);
	struct decoded *d = NULL;

	for (size_t i = 0; i < C2C_DCACHE_PROBE; i++) {
		struct decoded *x = &c->dcache[(home + i) & (C2C_DCACHE - 1)];

		if (!x->valid) {
			d = x;
			break;
		}
		if (x->key == key)
			return x;
	}
	if (!d)
		d = &c->dcache[home];
	memset(d, 0, sizeof(*d));
	d->key = key;
	d->valid = true;
	c2c_stats__decode(&d->st, data_src, has_addr ? 1 : 0, mapped);
	for (unsigned int i = 0; i < sizeof(d->st) / sizeof(uint32_t); i++) {
		uint32_t v = ((const uint32_t *)&d->st)[i];

		if (v && d->n < sizeof(d->idx)) {
			d->idx[d->n] = i;
			d->val[d->n++] = v;
		}
	}
	return d;
}

static inline void stats__add_decoded(struct c2c_stats *st, const struct decoded *d)
{
	uint32_t *p = (uint32_t *)st;

	for (unsigned int i = 0; i < d->n; i++)
		p[d->idx[i]] += d->val[i];
}

static inline struct c2c_lkey line_key(const struct c2c *c, const struct c2c_sample *s)
{
	bool anon = s->data_mapped && s->cpumode != CPUMODE_KERNEL_ && s->data_anon;
	struct c2c_lkey lk;

	lk.cl = s->data_rel & ~c->cl_mask;
	lk.meta = s->cpumode | (uint64_t)s->data_mapped << 8 | (uint64_t)anon << 9 |
		  (anon ? (uint64_t)(uint32_t)s->pid << 32 : 0);
	lk.majmin = s->data_mapped ? (uint64_t)s->data_id.maj << 32 | s->data_id.min : 0;
	lk.ino = s->data_mapped ? s->data_id.ino : 0;
	lk.gen = s->data_mapped ? s->data_id.ino_generation : 0;
	return lk;
}

/* The entry key of @s without its line (or'ed into lineoff once the line is known). */
static inline struct c2c_ekey entry_key(const struct c2c *c, const struct c2c_sample *s)
{
	struct c2c_ekey ek;

	ek.lineoff = (uint32_t)(s->addr & c->cl_mask);
	ek.iaddr = s->ip;
	ek.pidtid = (uint64_t)(uint32_t)s->pid << 32 | (uint32_t)s->tid;
	ek.dso = s->code_dso;
	return ek;
}

static inline struct c2c_ekey ekey_in_line(struct c2c_ekey ek, uint32_t li)
{
	ek.lineoff |= (uint64_t)li << 32;
	return ek;
}

/* The index of the first slot from @at with @hash's tag (a few slots at most), or -1. */
static inline int64_t probe_tag(const uint64_t *ht, size_t cap, size_t at, uint64_t hash)
{
	for (int i = 0; i < 8; i++) {
		uint64_t v = ht[at];

		if (!v)
			return -1;
		if (slot_tag_eq(v, hash))
			return slot_idx(v);
		at = (at + 1) & (cap - 1);
	}
	return -1;
}

/*
 * Each step reads only what the previous one prefetched: the line's hash slot, the entry's
 * hash slot, the entry, the bitmaps.  The slots' tags stand in for the keys (a wrong guess only
 * fetches the wrong thing).  Read-only: the tables may grow between steps (indices stay valid).
 */
void c2c__prefetch(const struct c2c *c, const struct c2c_sample *s, struct c2c_prefetch *p)
{
	int64_t idx;

	switch (p->step) {
	case 0:
		p->lk = line_key(c, s);
		p->ek = entry_key(c, s);
		p->have_keys = true;
		p->lhash = lkey_hash(p->lk);
		p->have_lhash = true;
		p->have_ehash = p->have_entry = false;
		__builtin_prefetch(&c->line_ht[p->lhash & (c->line_ht_cap - 1)]);
		p->step = 1;
		return;
	case 1:
		idx = probe_tag(c->line_ht, c->line_ht_cap, p->lhash & (c->line_ht_cap - 1),
				p->lhash);
		if (idx < 0)
			break;
		p->line = idx;
		__builtin_prefetch(&c->lkeys[idx]);
		/* what add_sample touches: the header */
		__builtin_prefetch(&c->lines[idx], 1);
		p->ehash = ekey_hash(c, ekey_in_line(p->ek, p->line));
		p->have_ehash = true;
		__builtin_prefetch(&c->entry_ht[p->ehash & (c->entry_ht_cap - 1)]);
		p->step = 2;
		return;
	case 2:
		if (!c->inline_bits)
			__builtin_prefetch(&c->bits[c->lines[p->line].cpuset], 1);
		idx = probe_tag(c->entry_ht, c->entry_ht_cap, p->ehash & (c->entry_ht_cap - 1),
				p->ehash);
		if (idx < 0)
			break;
		p->entry = idx;
		p->have_entry = true;
		__builtin_prefetch(ekey_at(c, idx));
		/*
		 * the header, the counters (two lines: DRAM loads, peers, remote hits, uncached
		 * and blocked loads count in the second), the means
		 */
		__builtin_prefetch(agg_at(c, idx), 1);
		__builtin_prefetch(&agg_at(c, idx)->stats, 1);
		__builtin_prefetch((const char *)&agg_at(c, idx)->stats + 64, 1);
		__builtin_prefetch(agg_at(c, idx)->mean, 1);
		if (c->inline_bits)
			break;	/* no bitmaps to fetch */
		p->step = 3;
		return;
	case 3:
		__builtin_prefetch(&c->bits[agg_at(c, p->entry)->cpuset], 1);
		break;
	default:
		return;
	}
	p->step = 4;	/* done */
}

/* Strict equality (a generation against none is a difference): only for a shortcut. */
static inline bool keys_same(const struct c2c *c, const struct c2c_lkey *la,
			     const struct c2c_ekey *ea, const struct c2c_lkey *lb,
			     const struct c2c_ekey *eb)
{
	return la->cl == lb->cl && la->meta == lb->meta && la->majmin == lb->majmin &&
	       la->ino == lb->ino && la->gen == lb->gen && ekey_eq(c, ea, *eb);
}

bool c2c__same_entry(const struct c2c *c, const struct c2c_sample *a, const struct c2c_sample *b)
{
	struct c2c_lkey la = line_key(c, a), lb = line_key(c, b);
	struct c2c_ekey ea = entry_key(c, a), eb = entry_key(c, b);

	return keys_same(c, &la, &ea, &lb, &eb);
}

bool c2c__prefetch_same(const struct c2c *c, const struct c2c_prefetch *a,
			const struct c2c_prefetch *b)
{
	return keys_same(c, &a->lk, &a->ek, &b->lk, &b->ek);
}

/* @p: the sample's prefetch state, whose keys and hashes are reused, or NULL. */
static inline void add_sample(struct c2c *c, const struct c2c_sample *s,
			      const struct c2c_prefetch *p)
{
	const struct decoded *d;
	struct c2c_line *l;
	struct c2c_lkey lk;
	struct c2c_ekey ek;
	struct agg *e;
	uint32_t li, ei;
	bool created;
	int node;

	/* (counted in the entry only: c2c__finish sums the lines' and the total's counters) */
	d = decode_cached(c, s->data_src, s->addr != 0, s->data_mapped && s->ip_mapped);
	node = s->phys_addr ? c2c__phys_node(c, s->phys_addr) : -1;

	if (p && p->have_keys) {
		lk = p->lk;
		ek = p->ek;
	} else {
		lk = line_key(c, s);
		ek = entry_key(c, s);
	}
	/*
	 * consecutive samples often hit the same line: skip the hash then; else the prefetch's
	 * guess, the first slot of the key's hash with its tag, is the line that the probe
	 * would find when its key is equal (no slot before it empties, a table that grows keeps
	 * the order of equal hashes)
	 */
	if (c->last_line < c->nr_lines && lkey_eq(&c->lkeys[c->last_line], lk))
		li = c->last_line;
	else if (p && p->have_ehash && lkey_eq(&c->lkeys[p->line], lk))
		li = c->last_line = p->line;
	else
		li = c->last_line = line__findnew(c, lk, s,
						  p && p->have_lhash ? p->lhash : lkey_hash(lk));
	l = &c->lines[li];
	l->period += s->period;
	set_cpu_node(c, &l->cpus, &l->nodes, l->cpuset, l->nodeset, &l->paddr, &l->paddr_cnt, s,
		     node);

	ek = ekey_in_line(ek, li);
	if (c->last_entry < c->nr_entries && ekey_eq(c, ekey_at(c, c->last_entry), ek)) {
		ei = c->last_entry;
		created = false;
	} else if (p && p->have_entry && p->line == li && ekey_eq(c, ekey_at(c, p->entry), ek)) {
		ei = c->last_entry = p->entry;	/* the prefetch's guess, as for the line */
		created = false;
	} else {
		uint64_t h = p && p->have_ehash && p->line == li ? p->ehash : ekey_hash(c, ek);

		ei = c->last_entry = entry__findnew(c, ek, s, h, &created);
	}
	e = agg_at(c, ei);
	if (!created && s->code_map != e->code_map) {
		/* perf refreshes the map of an existing entry (exec), keeping the rest */
		e->code_map = s->code_map;
	}
	stats__add_decoded(&e->stats, d);
	e->period += s->period;
	if (c->cfg.callchains && s->cc_nr) {
		if (e->cc_root == UINT32_MAX)
			e->cc_root = cc_forest__new_root(&c->cc);
		cc_forest__append(&c->cc, e->cc_root, s->cc, s->cc_nr, s->period);
	}
	if (e->node_stats != UINT32_MAX) {
		uint32_t cpu = s->cpu == UINT32_MAX ? 0 : s->cpu;
		int cnode = cpu < c->cfg.nr_cpus ? c->cpu2node[cpu] : -1;

		if (cnode >= 0 && (uint32_t)cnode < c->cfg.nr_nodes)
			stats__add_decoded(&c->node_stats[e->node_stats + cnode], d);
	}
	/* perf's compute_stats: the cycles columns, by the sample's costliest class */
	if (d->st.rmt_hitm)
		mean__update(e, M_RMT_HITM, s->weight);
	else if (d->st.lcl_hitm)
		mean__update(e, M_LCL_HITM, s->weight);
	else if (d->st.rmt_peer)
		mean__update(e, M_RMT_PEER, s->weight);
	else if (d->st.lcl_peer)
		mean__update(e, M_LCL_PEER, s->weight);
	else if (d->st.load)
		mean__update(e, M_LOAD, s->weight);
	set_cpu_node(c, &e->cpus, &e->nodes, e->cpuset, e->nodeset, &e->paddr, &e->paddr_cnt, s,
		     node);
}

void c2c__add_sample(struct c2c *c, const struct c2c_sample *s)
{
	add_sample(c, s, NULL);
}

void c2c__add_prefetched(struct c2c *c, const struct c2c_sample *s, const struct c2c_prefetch *p)
{
	add_sample(c, s, p);
}

/* ---- sorting and filtering ---- */

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* The order perf's input tree keeps lines in (sort__dcacheline_cmp, ascending). */
static int line_key_cmp(const struct c2c_line *a, const struct c2c_line *b)
{
	int r;

	if (a->cpumode != b->cpumode)
		return a->cpumode < b->cpumode ? -1 : 1;
	if (a->mapped != b->mapped)
		return a->mapped ? -1 : 1;	/* lines without a map come last */
	if (a->mapped) {
		if ((r = cmp_u64(a->id.maj, b->id.maj)) || (r = cmp_u64(a->id.min, b->id.min)) ||
		    (r = cmp_u64(a->id.ino, b->id.ino)))
			return r;
		if (a->id.ino_generation && b->id.ino_generation &&
		    (r = cmp_u64(a->id.ino_generation, b->id.ino_generation)))
			return r;
		if (a->anon && b->anon && a->pid != b->pid)
			return a->pid < b->pid ? -1 : 1;
	}
	return cmp_u64(a->cl, b->cl);
}

static int line_order_cmp(const void *pa, const void *pb, void *arg)
{
	const struct c2c *c = arg;
	const struct c2c_line *a = &c->lines[*(const uint32_t *)pa];
	const struct c2c_line *b = &c->lines[*(const uint32_t *)pb];
	uint32_t ma = c2c_stats__display_metric(&a->stats, c->cfg.display);
	uint32_t mb = c2c_stats__display_metric(&b->stats, c->cfg.display);

	if (c->cfg.display == C2C_DISPLAY_TOT) {
		ma = a->stats.lcl_hitm + a->stats.rmt_hitm;
		mb = b->stats.lcl_hitm + b->stats.rmt_hitm;
	}
	if (ma != mb)
		return ma > mb ? -1 : 1;
	return line_key_cmp(a, b);
}

/* The order of perf's per-line input tree: offset, then the coalesce keys as given. */
static int entry_key_cmp(const struct c2c *c, const struct c2c_ekey *a, const struct c2c_ekey *b)
{
	int32_t apid = (int32_t)(a->pidtid >> 32), bpid = (int32_t)(b->pidtid >> 32);
	int32_t atid = (int32_t)a->pidtid, btid = (int32_t)b->pidtid;
	int r;

	if ((uint32_t)a->lineoff != (uint32_t)b->lineoff)
		return (uint32_t)a->lineoff < (uint32_t)b->lineoff ? -1 : 1;
	for (unsigned int i = 0; i < c->cfg.nr_keys; i++) {
		switch (c->cfg.keys[i]) {
		case C2C_KEY_IADDR:
			if (a->iaddr != b->iaddr)
				return (int64_t)(a->iaddr - b->iaddr) < 0 ? -1 : 1;
			break;
		case C2C_KEY_TID:
			if (atid != btid)
				return atid < btid ? -1 : 1;
			break;
		case C2C_KEY_PID:
			/* perf's pid_cmp subtracts the other way round */
			if (apid != bpid)
				return apid > bpid ? -1 : 1;
			break;
		case C2C_KEY_DSO:
			if (a->dso != b->dso) {
				if (!a->dso || !b->dso)
					return a->dso ? -1 : 1;
				r = strcmp(a->dso, b->dso);
				if (r)
					return r;
			}
			break;
		}
	}
	return 0;
}

static int entry_order_cmp(const void *pa, const void *pb, void *arg)
{
	const struct c2c *c = arg;
	uint32_t ia = *(const uint32_t *)pa, ib = *(const uint32_t *)pb;
	const struct agg *a = agg_at(c, ia), *b = agg_at(c, ib);
	const struct c2c_ekey *ka = ekey_at(c, ia), *kb = ekey_at(c, ib);
	uint32_t a1, b1, a2 = 0, b2 = 0;

	if ((uint32_t)ka->lineoff != (uint32_t)kb->lineoff)
		return (uint32_t)ka->lineoff < (uint32_t)kb->lineoff ? -1 : 1;
	switch (c->cfg.display) {
	case C2C_DISPLAY_TOT:
		a1 = a->stats.lcl_hitm + a->stats.rmt_hitm;
		b1 = b->stats.lcl_hitm + b->stats.rmt_hitm;
		break;
	case C2C_DISPLAY_RMT:
		a1 = a->stats.rmt_hitm, b1 = b->stats.rmt_hitm;
		a2 = a->stats.lcl_hitm, b2 = b->stats.lcl_hitm;
		break;
	case C2C_DISPLAY_LCL:
		a1 = a->stats.lcl_hitm, b1 = b->stats.lcl_hitm;
		a2 = a->stats.rmt_hitm, b2 = b->stats.rmt_hitm;
		break;
	default:
		a1 = a->stats.tot_peer, b1 = b->stats.tot_peer;
		break;
	}
	if (a1 != b1)
		return a1 > b1 ? -1 : 1;
	if (a2 != b2)
		return a2 > b2 ? -1 : 1;
	return entry_key_cmp(c, ka, kb);
}

/* perf's is_valid_hist_entry: an entry is shown when it has stores or the displayed metric. */
bool c2c_entry__shown(const struct c2c_entry *e, enum c2c_display d)
{
	if (e->stats.store)
		return true;
	return c2c_stats__display_metric(&e->stats, d) != 0;
}

/*
 * The struct c2c_entry of entry @i, made the first time it is asked for (its names are kept
 * from then on); its numbers are the aggregate's, refreshed each time.  Returns its index
 * among the shown ones.
 */
static uint32_t entry__show(struct c2c *c, uint32_t i)
{
	struct agg *a = agg_at(c, i);
	const struct c2c_ekey *k = ekey_at(c, i);
	const struct first *f = first_at(c, i);
	struct c2c_entry *e;

	if (a->shown == UINT32_MAX) {
		if (c->nr_shown == c->cap_shown * SHOWN_SIZE) {
			c->shown = xgrow(c->shown, &c->cap_shown, c->cap_shown + 1,
					 sizeof(*c->shown));
			for (size_t b = c->nr_shown >> SHOWN_SHIFT; b < c->cap_shown; b++)
				c->shown[b] = NULL;
		}
		if (!c->shown[c->nr_shown >> SHOWN_SHIFT])
			c->shown[c->nr_shown >> SHOWN_SHIFT] =
				xmalloc(SHOWN_SIZE * sizeof(struct c2c_entry));
		a->shown = c->nr_shown++;
		e = &c->shown[a->shown >> SHOWN_SHIFT][a->shown & (SHOWN_SIZE - 1)];
		memset(e, 0, sizeof(*e));
		if (c->inline_bits) {
			a->cpuset = bits__alloc(c, c->words_cpu);
			a->nodeset = bits__alloc(c, c->words_node);
			if (c->words_cpu)
				c->bits[a->cpuset] = a->cpus;
			if (c->words_node)
				c->bits[a->nodeset] = a->nodes;
		}
	}
	e = &c->shown[a->shown >> SHOWN_SHIFT][a->shown & (SHOWN_SIZE - 1)];
	e->code_map = a->code_map;
	e->period = a->period;
	e->paddr = a->paddr;
	e->paddr_cnt = a->paddr_cnt;
	e->node_stats = a->node_stats;
	e->cc_root = a->cc_root;
	e->level = a->level;
	e->cpuset = a->cpuset;
	e->nodeset = a->nodeset;
	e->stats = a->stats;
	e->mean_load = (struct c2c_mean){ a->mean_n[M_LOAD], a->mean[M_LOAD] };
	e->mean_lcl_hitm = (struct c2c_mean){ a->mean_n[M_LCL_HITM], a->mean[M_LCL_HITM] };
	e->mean_rmt_hitm = (struct c2c_mean){ a->mean_n[M_RMT_HITM], a->mean[M_RMT_HITM] };
	e->mean_lcl_peer = (struct c2c_mean){ a->mean_n[M_LCL_PEER], a->mean[M_LCL_PEER] };
	e->mean_rmt_peer = (struct c2c_mean){ a->mean_n[M_RMT_PEER], a->mean[M_RMT_PEER] };
	e->line = k->lineoff >> 32;
	e->offset = (uint32_t)k->lineoff;
	e->iaddr = k->iaddr;
	e->pid = (int32_t)(k->pidtid >> 32);
	e->tid = (int32_t)k->pidtid;
	e->dso = k->dso;
	e->thread = f->thread;
	e->ip_rel = f->ip_rel;
	e->data_rel = f->data_rel;
	return a->shown;
}

#define DISPLAY_LINE_LIMIT 0.001

/* The lines in display order, the threshold, the shown lines' Index: what -d changes. */
static void order_lines(struct c2c *c)
{
	uint32_t idx = 0;
	uint32_t sum = c2c_stats__display_metric(&c->shared, c->cfg.display);

	if (!c->order)
		c->order = xmalloc((c->nr_lines + 1) * sizeof(uint32_t));
	for (size_t i = 0; i < c->nr_lines; i++)
		c->order[i] = i;
	qsort_r(c->order, c->nr_lines, sizeof(uint32_t), line_order_cmp, c);
	for (size_t i = 0; i < c->nr_lines; i++) {
		struct c2c_line *l = &c->lines[c->order[i]];
		bool show = true;

		if (!c->cfg.show_all) {
			uint32_t val = c2c_stats__display_metric(&l->stats, c->cfg.display);

			show = !(sum == 0 || ((double)val / sum) < DISPLAY_LINE_LIMIT);
		}
		l->filtered = !show;
		l->sorted = false;
		if (show)
			l->idx = idx++;
	}
}

/* Line @l's entries in the display order, and which of them are shown. */
static void sort_entries(struct c2c *c, struct c2c_line *l)
{
	qsort_r(l->entries, l->nr_entries, sizeof(uint32_t), entry_order_cmp, c);
	for (uint32_t k = 0; k < l->nr_entries; k++) {
		struct c2c_entry *e = c2c__entry(c, l->entries[k]);

		e->filtered = !c2c_entry__shown(e, c->cfg.display);
	}
	l->sorted = true;
}

/* Every line's entries, one block grouped by line (which line an entry is in never changes). */
static void group_entries(struct c2c *c)
{
	uint32_t *at = xcalloc(c->nr_lines + 1, sizeof(uint32_t));

	free(c->entry_order);
	c->entry_order = xmalloc((c->nr_entries + 1) * sizeof(uint32_t));
	for (size_t i = 0; i < c->nr_entries; i++)
		at[(ekey_at(c, i)->lineoff >> 32) + 1]++;
	for (size_t i = 0; i < c->nr_lines; i++) {
		at[i + 1] += at[i];
		c->lines[i].entries = c->entry_order + at[i];
		c->lines[i].nr_entries = 0;
	}
	for (size_t i = 0; i < c->nr_entries; i++) {
		struct c2c_line *l = &c->lines[ekey_at(c, i)->lineoff >> 32];

		l->entries[l->nr_entries++] = i;
	}
	free(at);
}

void c2c__finish(struct c2c *c)
{
	if (c->inline_bits) {
		for (size_t i = 0; i < c->nr_lines; i++) {
			const struct c2c_line *l = &c->lines[i];

			if (c->words_cpu)
				c->bits[l->cpuset] = l->cpus;
			if (c->words_node)
				c->bits[l->nodeset] = l->nodes;
		}
	}

	if (c->cfg.callchains)
		cc_forest__sort(&c->cc);

	/*
	 * A sample is counted in its entry only: the counters of its line and of the total are
	 * the sums of their entries' (u32 sums, as exact in any order), made once here.
	 */
	memset(&c->total, 0, sizeof(c->total));
	for (size_t i = 0; i < c->nr_lines; i++)
		memset(&c->lines[i].stats, 0, sizeof(c->lines[i].stats));
	for (size_t i = 0; i < c->nr_entries; i++)
		c2c_stats__add(&c->lines[ekey_at(c, i)->lineoff >> 32].stats, &agg_at(c, i)->stats);
	for (size_t i = 0; i < c->nr_lines; i++)
		c2c_stats__add(&c->total, &c->lines[i].stats);

	memset(&c->shared, 0, sizeof(c->shared));
	c->nr_shared = 0;
	for (size_t i = 0; i < c->nr_lines; i++) {
		struct c2c_line *l = &c->lines[i];

		if (l->stats.lcl_hitm || l->stats.rmt_hitm || l->stats.lcl_peer ||
		    l->stats.rmt_peer) {
			c->nr_shared++;
			c2c_stats__add(&c->shared, &l->stats);
		}
	}

	order_lines(c);
	group_entries(c);
	/* the shown lines' Pareto rows now: every output of them wants them all */
	for (size_t i = 0; i < c->nr_lines; i++)
		if (!c->lines[i].filtered)
			sort_entries(c, &c->lines[i]);
}

void c2c__set_display(struct c2c *c, enum c2c_display d)
{
	c->cfg.display = d;
	order_lines(c);
}

const uint32_t *c2c__line_entries(const struct c2c *c, const struct c2c_line *l, uint32_t *nr)
{
	/*
	 * The order is a cache of the line's (it changes nothing a reader sees but the order);
	 * the line and the c2c are the caller's, not read-only objects.
	 */
	if (!l->sorted)
		sort_entries((struct c2c *)c, (struct c2c_line *)l);
	*nr = l->nr_entries;
	return l->entries;
}

/* A Node string (made once) and its width. */
static int set_nodestr(struct c2c *c, char **str, uint32_t set)
{
	char buf[64];

	if (!*str) {
		c2c__nodestr(c, set, buf, sizeof(buf));
		*str = xstrdup(buf);
	}
	return strlen(*str);
}

static void new_width(int *w, int len)
{
	if (len > *w)
		*w = len;
}

/* Name line @l's entries' code addresses; its column widths (perf's hists__calc_col_len). */
static void resolve_line(struct c2c *c, struct c2c_line *l, const struct c2c_resolver *r,
			 bool want_srcline)
{
	int comm_w = 0;

	l->w_node = set_nodestr(c, &l->nodestr, l->nodeset);
	l->w_symbol = l->w_dso = l->w_srcline = l->w_thread = 0;
	for (uint32_t k = 0; k < l->nr_entries; k++) {
		struct c2c_entry *e = c2c__entry(c, l->entries[k]);
		const char *comm = NULL;
		int len;

		new_width(&l->w_node, set_nodestr(c, &e->nodestr, e->nodeset));
		if (r && r->code && !e->info.sym && !e->info.dso && !e->info.srcline)
			r->code(r->ctx, e->thread, e->code_map, e->iaddr, e->ip_rel, want_srcline,
				&e->info);
		if (e->info.sym) {
			new_width(&l->w_symbol, strlen(e->info.sym) + 4);
		} else {
			new_width(&l->w_symbol, 16 + 4 + 2);
			new_width(&l->w_dso, 16);
		}
		if (r && r->comm)
			comm = r->comm(r->ctx, e->thread);
		e->info.comm = comm;
		len = comm ? strlen(comm) : 0;
		if (len > comm_w) {
			comm_w = len;
			l->w_thread = len + 8;
		}
		if (e->code_map && !e->info.no_map)
			new_width(&l->w_dso, e->info.dso ? strlen(e->info.dso) : 9);
		if (want_srcline && e->info.srcline) {
			len = strlen(e->info.srcline);
			new_width(&l->w_srcline, len > 11 ? len : 11);
		}
	}
	l->resolved = true;
}

void c2c__resolve(struct c2c *c, const struct c2c_resolver *r, bool want_srcline)
{
	/* the Node column is as wide as the widest Node string of the lines shown now */
	c->offset_node_width = 4;
	for (size_t i = 0; i < c->nr_lines; i++) {
		struct c2c_line *l = &c->lines[i];

		if (l->filtered)
			continue;
		if (!l->resolved)
			resolve_line(c, l, r, want_srcline);
		new_width(&c->offset_node_width, l->w_node);
	}
}
