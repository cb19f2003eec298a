/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_C2C_H
#define LINEUP_ANALYZER_C2C_H

/*
 * c2c: perf c2c's cache-line contention statistics, with perf's exact semantics
 * (tools/perf/util/mem-events.c c2c_decode_stats, builtin-c2c.c).  Pure computation: the caller
 * resolves each sample's thread and maps and hands in a struct c2c_sample; at the end it names
 * the code locations of the entries that will be shown through a struct c2c_resolver.
 *
 * Model (perf's two-level hists):
 *   lines:   one per data cache line, keyed like perf's sort__dcacheline_cmp: cpumode, the data
 *            map's dso id (maj, min, ino, generation), the pid for private anonymous user
 *            memory, and the line address of the map-relative data address;
 *   entries: per line, one per (offset in the line, coalesce keys: any of pid, tid, iaddr, dso).
 * Hot path: two open-addressing hash tables of u32 indices into flat arrays, probing packed
 * key arrays kept apart from the lines and entries; each data_src value is decoded once into
 * the list of counters it bumps; the last line and entry are tried first.  No per-sample
 * allocation: memory is bounded by the number of lines and entries, about 330 bytes an entry
 * (a struct c2c_entry, with names, is made only for the entries of shown lines).
 *
 * Ownership: a struct c2c owns its lines, entries and everything c2c__resolve stored in them
 * (srclines); strings handed in by the caller (dso names, resolver results other than srcline)
 * must outlive it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyzer/callchain.h"

/* perf's enum order: the value is what `-d` selects. */
enum c2c_display {
	C2C_DISPLAY_LCL,	/* Local HITMs */
	C2C_DISPLAY_RMT,	/* Remote HITMs */
	C2C_DISPLAY_TOT,	/* Total HITMs */
	C2C_DISPLAY_PEER,	/* Peer snoops */
};

enum c2c_key {
	C2C_KEY_PID,
	C2C_KEY_TID,
	C2C_KEY_IADDR,
	C2C_KEY_DSO,
};

#define C2C_MAX_KEYS 8

/**
 * struct c2c_stats - perf's struct c2c_stats, the counters of one sample, entry, line or total.
 */
struct c2c_stats {
	/* the counters most samples bump, in the first 64 bytes (one cache line of an entry) */
	uint32_t nr_entries;
	uint32_t locks;
	uint32_t load;
	uint32_t store;
	uint32_t ld_fbhit;
	uint32_t ld_l1hit;
	uint32_t ld_l2hit;
	uint32_t ld_llchit;
	uint32_t lcl_hitm;
	uint32_t rmt_hitm;
	uint32_t tot_hitm;
	uint32_t lcl_dram;
	uint32_t rmt_dram;
	uint32_t st_l1hit;
	uint32_t st_l1miss;
	uint32_t st_na;
	uint32_t ld_excl;
	uint32_t ld_shared;
	uint32_t rmt_hit;
	uint32_t lcl_peer;
	uint32_t rmt_peer;
	uint32_t tot_peer;
	uint32_t ld_uncache;
	uint32_t ld_io;
	uint32_t ld_miss;
	uint32_t ld_noadrs;
	uint32_t st_uncache;
	uint32_t st_noadrs;
	uint32_t blk_data;
	uint32_t blk_addr;
	uint32_t nomap;
	uint32_t noparse;
};

/*
 * Count one access into @st (perf's c2c_decode_stats).  @daddr: the data address (0 counts as
 * "no address"); @mapped: both the data address and the IP fell in a known map.  Returns 0, or
 * -1 when the sample was counted as unparsable, without address or without map.
 */
int c2c_stats__decode(struct c2c_stats *st, uint64_t data_src, uint64_t daddr, bool mapped);
void c2c_stats__add(struct c2c_stats *st, const struct c2c_stats *add);

/* Derived counts, as perf computes them. */
uint64_t c2c_stats__llc_misses(const struct c2c_stats *st);
uint64_t c2c_stats__cache_hits(const struct c2c_stats *st);
uint64_t c2c_stats__stores(const struct c2c_stats *st);
uint64_t c2c_stats__total_records(const struct c2c_stats *st);
uint64_t c2c_stats__total_loads(const struct c2c_stats *st);

/* A data mapping's identity (perf's dso_id): lines in different files never merge. */
struct c2c_dso_id {
	uint32_t maj, min;
	uint64_t ino, ino_generation;
};

/* A physical memory range of one NUMA node (the MEM_TOPOLOGY header, merged). */
struct c2c_mem_range {
	uint64_t start, end;	/* [start, end) */
	uint32_t node;
};

/**
 * struct c2c_config - what one report needs to know about the machine and the options.
 * @line_size:	cache-line size in bytes (a power of two; --double-cl passes twice the size)
 * @keys:	coalesce keys after the offset, in the user's order (perf's -c)
 * @nr_cpus:	CPUs in the recording (NRCPUS avail); samples' cpu must be below it
 * @nr_nodes:	NUMA nodes (NUMA_TOPOLOGY)
 * @cpu2node:	node of each CPU, -1 when in none; nr_cpus entries (copied)
 * @mem:	physical ranges per node, for the Node and PA cnt columns (copied)
 */
struct c2c_config {
	enum c2c_display display;
	uint32_t line_size;
	enum c2c_key keys[C2C_MAX_KEYS];
	unsigned int nr_keys;
	bool show_all;
	bool callchains;	/* build each entry's call-chain tree (perf's use_callchain) */
	int node_info;		/* -N count, 0..2 */
	bool want_node_stats;	/* keep per-node counters (for node_info 1) */
	uint32_t nr_cpus;
	uint32_t nr_nodes;
	const int *cpu2node;
	const struct c2c_mem_range *mem;
	size_t nr_mem;
};

/**
 * struct c2c_sample - one sample, resolved by the caller.
 * @cpu:	(uint32_t)-1 when the sample has no CPU
 * @thread:	the caller's thread handle (given back to the resolver)
 * @code_map:	the caller's handle of the IP's map, NULL when the IP is in none
 * @code_dso:	that map's dso short name (interned: one pointer per name), NULL when none
 * @ip_rel:	the map-relative IP (perf's hist_entry.ip), the IP itself when unmapped
 * @level:	perf's privilege level letter: '.', 'k', 'g', 'u', 'H'
 * @ip_mapped: the IP fell in a map in some cpumode (perf's "no map" test looks at this)
 * @data_mapped: the data address fell in a map of the thread
 * @data_anon:	that map is private and its dso id is all zero (anonymous user memory)
 * @data_rel:	the map-relative data address (perf's al_addr), the address when unmapped
 */
struct c2c_sample {
	uint64_t ip, addr, phys_addr, weight, data_src;
	uint32_t cpu;
	uint8_t cpumode;
	char level;
	bool ip_mapped, data_mapped, data_anon;
	int32_t pid, tid;
	uint32_t thread;
	const void *code_map;
	const char *code_dso;
	uint64_t ip_rel;
	struct c2c_dso_id data_id;
	uint64_t data_rel;
	uint64_t period;		/* the sample's period (call-chain weights) */
	const struct cc_frame *cc;	/* resolved call chain, callee first; cc_nr frames */
	uint32_t cc_nr;
};

/* What the resolver says about an entry's code address (its first sample's). */
struct c2c_code_info {
	const char *sym;	/* symbol name, NULL when unresolved */
	bool sym_object;	/* STT_OBJECT: shown as name+0xOFF */
	uint64_t sym_start;	/* in the map-relative space of ip_rel */
	const char *dso;	/* dso short name, NULL when no map */
	const char *comm;	/* the thread's command name (from the resolver's comm) */
	char *srcline;		/* malloc'ed "file:line" or fallback, or NULL; the c2c frees it */
	/*
	 * perf's al->addr once the object is loaded (a .ko's map moves to .text's file offset),
	 * shown for an unresolved address and in "object+0xOFF"; only when @have_addr, else the
	 * entry's ip_rel
	 */
	uint64_t addr;
	bool have_addr;
	bool no_map;		/* perf ends with no map for it: "[unknown]", "[k] 0xIP", "??:0" */
};

struct c2c_resolver {
	void *ctx;
	/* The thread's command name now (perf shows the last one). */
	const char *(*comm)(void *ctx, uint32_t thread);
	/* Name the code address; fill srcline only when @want_srcline. */
	void (*code)(void *ctx, uint32_t thread, const void *code_map, uint64_t ip,
		     uint64_t ip_rel, bool want_srcline, struct c2c_code_info *out);
};

/* Welford mean, computed in perf's order so "%6.0f" rounds the same. */
struct c2c_mean {
	double n, mean;
};

/**
 * struct c2c_entry - one row of the Pareto table (a line's offset + coalesce keys), made by
 * c2c__finish for the entries of shown lines only (c2c keeps a smaller aggregate per entry).
 * The key fields hold the first sample's values; display fields likewise (as perf keeps them).
 */
struct c2c_entry {
	const void *code_map;
	uint64_t period;	/* sum of its samples' periods */
	uint64_t paddr;
	uint32_t paddr_cnt;
	uint32_t node_stats;	/* index into c2c's node stats pool, or UINT32_MAX */
	uint32_t cc_root;	/* its call-chain tree in c2c__callchains(), UINT32_MAX: none */
	char level;
	bool filtered;
	uint32_t cpuset;	/* index of its CPU bitmap in c2c's bit pool */
	uint32_t nodeset;	/* index of its node bitmap */
	struct c2c_stats stats;
	struct c2c_mean mean_load, mean_lcl_hitm, mean_rmt_hitm, mean_lcl_peer, mean_rmt_peer;
	uint32_t line;
	uint32_t offset;	/* cl_offset(addr), the key */
	uint64_t iaddr;
	/* first sample */
	int32_t pid, tid;
	const char *dso;	/* key for -c dso */
	uint32_t thread;
	uint64_t ip_rel;
	uint64_t data_rel;
	/* filled by c2c__resolve for shown lines */
	struct c2c_code_info info;
	char *nodestr;
};

/**
 * struct c2c_line - one data cache line (a row of the Shared Data Cache Line Table).
 */
struct c2c_line {
	/* what every sample touches: this header (64-aligned) */
	uint64_t period;	/* sum of its samples' periods (the call graphs' 100%) */
	uint64_t paddr;
	uint64_t cpus, nodes;	/* CPU and node bits while adding, when both fit a word */
	uint32_t paddr_cnt;
	uint32_t cpuset, nodeset;
	uint32_t idx;		/* perf's Index, among shown lines */
	uint8_t cpumode;
	bool mapped, anon;
	bool filtered;		/* not shown */
	int32_t pid;
	uint64_t cl;		/* cl_address(data_rel), the key */
	struct c2c_stats stats;	/* made by c2c__finish (its entries' sum) */
	struct c2c_dso_id id;
	uint64_t addr;		/* first sample's data address */
	uint32_t serial;	/* its place among all lines, for the c2c's life (idx changes with -d) */
	/*
	 * after c2c__finish: its entries; in display order (perf's Pareto) when @sorted, else in
	 * some order: c2c__line_entries gives them in display order
	 */
	uint32_t *entries;
	uint32_t nr_entries;
	bool sorted;
	bool resolved;		/* c2c__resolve named its entries */
	/* column widths of this line's hists, after c2c__resolve */
	int w_symbol, w_dso, w_srcline, w_thread;
	int w_node;		/* its and its entries' Node strings, the widest */
	char *nodestr;
} __attribute__((aligned(64)));

struct c2c;

struct c2c *c2c__new(const struct c2c_config *cfg);
void c2c__delete(struct c2c *c);

void c2c__add_sample(struct c2c *c, const struct c2c_sample *s);

/*
 * A sample's keys as c2c hashes and compares them, packed into whole 64-bit words (a key
 * assembled byte by byte on the stack and read back as words stalls on store forwarding).
 * c2c.c makes them; they are here so that a struct c2c_prefetch carries them.
 */
struct c2c_lkey {
	uint64_t cl;
	uint64_t meta;		/* cpumode | mapped << 8 | anon << 9 | (u32)pid << 32 */
	uint64_t majmin;	/* dso id, zero when unmapped */
	uint64_t ino;
	uint64_t gen;
};

/* The first sample's values: only the parts that are keys (c2c's masks) are hashed and compared. */
struct c2c_ekey {
	uint64_t lineoff;	/* line << 32 | offset */
	uint64_t iaddr;
	uint64_t pidtid;	/* (u32)pid << 32 | (u32)tid */
	const char *dso;
};

/*
 * Software prefetch of what c2c__add_sample(@s) will touch, one dependent step a call: start
 * with step 0, call again a few samples later (each call reads what the previous one
 * fetched), then add the sample.  Changes nothing; any number of calls (even none) is fine.
 * Step 0 also makes the sample's keys, which the later steps, c2c__prefetch_same and
 * c2c__add_prefetched use instead of making them again: a state belongs to one sample.
 */
struct c2c_prefetch {
	uint32_t step;		/* 0 first, 4 when there is nothing left to fetch */
	uint32_t line, entry;	/* the slots' guesses (line with @have_ehash, entry with @have_entry) */
	bool have_keys, have_lhash, have_ehash, have_entry;
	uint64_t lhash, ehash;
	struct c2c_lkey lk;	/* with @have_keys */
	struct c2c_ekey ek;	/* with @have_keys, the line not in lineoff yet */
};

void c2c__prefetch(const struct c2c *c, const struct c2c_sample *s, struct c2c_prefetch *p);

/*
 * @a and @b go to the same line and entry (their keys are equal): the second of two such
 * consecutive samples needs no prefetch (c2c__add_sample finds it from the first).
 */
bool c2c__same_entry(const struct c2c *c, const struct c2c_sample *a, const struct c2c_sample *b);

/* c2c__same_entry for two samples' states past step 0 (their keys made). */
bool c2c__prefetch_same(const struct c2c *c, const struct c2c_prefetch *a,
			const struct c2c_prefetch *b);

/*
 * c2c__add_sample for a sample given to c2c__prefetch (at least once): reuses its keys and
 * hashes.  @p is @s's own state (or one without keys: { .step = 4 }).
 */
void c2c__add_prefetched(struct c2c *c, const struct c2c_sample *s, const struct c2c_prefetch *p);

/* Sort, count shared lines, apply the display threshold, sort each shown line's entries. */
void c2c__finish(struct c2c *c);

/*
 * Show the lines in display mode @d instead (perf's -d, a browser's d key), as c2c__finish
 * would have with it: the lines' order, the threshold, the shown lines.  What does not depend
 * on the mode (the shared counts, the grouping of entries by line) stays; each line's entries
 * are put in the new order when asked for (c2c__line_entries), so that a mode change costs
 * the sort of the lines only, not of every entry.  Then c2c__resolve names the code
 * addresses of the lines shown for the first time (those named before are kept).
 */
void c2c__set_display(struct c2c *c, enum c2c_display d);

/*
 * Line @l's entries in the display order (perf's Pareto order), their filtered flags set for
 * the display mode; @nr their number.  The order is kept in @l: the first call after
 * c2c__set_display sorts the line's entries (c2c__finish sorted those of every shown line).
 */
const uint32_t *c2c__line_entries(const struct c2c *c, const struct c2c_line *l, uint32_t *nr);

/* Whether @e is a Pareto row in display mode @d (perf's is_valid_hist_entry). */
bool c2c_entry__shown(const struct c2c_entry *e, enum c2c_display d);

/*
 * Name the code addresses of the shown lines' entries and compute the column widths that depend
 * on them (perf's hists__calc_col_len); @want_srcline for the Source:Line column.  A line is
 * named once: a call after c2c__set_display names the lines shown for the first time.
 */
void c2c__resolve(struct c2c *c, const struct c2c_resolver *r, bool want_srcline);

/*
 * The bytes c2c holds (its tables at their capacity, call chains and names aside) and its
 * number of entries, at any time: a caller can tell early that a recording will not fit.
 */
uint64_t c2c__memory(const struct c2c *c);
uint64_t c2c__nr_entries(const struct c2c *c);
/* The bytes the tables will ask for while the next few thousand entries arrive. */
uint64_t c2c__memory_next(const struct c2c *c);
/* The bytes the entries' tables take for @nr_entries entries (a projection's unit). */
uint64_t c2c__memory_for(uint64_t nr_entries);

/* Results (valid after c2c__finish). */
const struct c2c_config *c2c__config(const struct c2c *c);
const struct c2c_stats *c2c__total(const struct c2c *c);
const struct c2c_stats *c2c__shared(const struct c2c *c);
uint32_t c2c__nr_shared(const struct c2c *c);
/* All lines, in display order (filtered ones included, flagged). */
uint32_t c2c__nr_lines(const struct c2c *c);
struct c2c_line *c2c__line(const struct c2c *c, uint32_t i);
/* The same in the order they were made (line->serial), whatever the display. */
struct c2c_line *c2c__line_by_serial(const struct c2c *c, uint32_t serial);
struct c2c_entry *c2c__entry(const struct c2c *c, uint32_t idx);
/* The entries' call-chain trees (sorted for output after c2c__finish). */
const struct cc_forest *c2c__callchains(const struct c2c *c);
/* Width of the Node column of the Pareto's data address group (perf's offset_node). */
int c2c__offset_node_width(const struct c2c *c);

bool c2c__cpuset_test(const struct c2c *c, uint32_t set, uint32_t cpu);
uint32_t c2c__cpuset_weight(const struct c2c *c, uint32_t set);
const struct c2c_stats *c2c__node_stats(const struct c2c *c, const struct c2c_entry *e,
					uint32_t node);

/* The node of a physical address, -1 when in no range. */
int c2c__phys_node(const struct c2c *c, uint64_t phys_addr);

/* Node bitmap as perf prints it ("0", "0-1", "0,2"), or "N/A" when empty. */
void c2c__nodestr(const struct c2c *c, uint32_t set, char *buf, size_t size);

/* Display helpers shared by the column table and tests. */
uint32_t c2c_stats__display_metric(const struct c2c_stats *st, enum c2c_display d);
double c2c__percent(uint32_t st, uint32_t tot);

#endif
