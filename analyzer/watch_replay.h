/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_WATCH_REPLAY_H
#define LINEUP_ANALYZER_WATCH_REPLAY_H

/*
 * The per-member tables of `lineup watch`: every breakpoint hit on one object, in exact time
 * order, replayed through the coherence model (analyzer/coherence.h) with one cache per CPU.
 * Only watched words are seen: an access to an unwatched byte of the same line moves the line
 * too but is invisible here, so the transfers counted are a lower bound.
 *
 * Pure: no I/O, no globals.  Ownership: the caller owns every array; wr_report__replay fills
 * the statistics fields of @fields and @hits (data_src) in place.
 */
#include <stddef.h>
#include <stdint.h>

/* Same order as dwarf/code.h's enum access_kind, which the CLI maps from. */
enum wr_kind {
	WR_UNKNOWN,
	WR_LOAD,
	WR_STORE,
	WR_RMW,
	WR_LOCKED_RMW,
	WR_NR_KINDS,
};

const char *wr_kind__name(enum wr_kind k);

/**
 * struct wr_hit - one hit.
 * @field:	index into the field table
 * @site:	index into the caller's table of code sites (for grouping), or -1
 * @data_src:	out: the perf_mem_data_src word the replay implies (PERF_MEM_OP_NA for unknown)
 * @transfer:	out: the access took the line from another CPU's cache (a HITM load or an
 *		RFO/invalidation of another CPU's copy)
 * @group:	which set of breakpoints was installed (rotation): the model forgets the lines'
 *		states when the set changes, since the accesses in between were not seen
 */
struct wr_hit {
	uint64_t time, ip;
	uint32_t cpu, tid;
	uint32_t group;
	int field, site;
	enum wr_kind kind;
	uint64_t data_src;
	int transfer;
};

/**
 * struct wr_field - one watched member and what the replay counted for it.
 * @addr:	absolute address of the watched word (@wlen bytes)
 * @cpu_kinds:	nr_cpus x WR_NR_KINDS counters, caller-allocated (zeroed by the replay)
 * @transfers:	accesses that took the line from another CPU
 * @hitm:	loads (or RMWs) that found the line Modified in another CPU's cache
 * @invalidations: other CPUs' copies invalidated by this member's stores/RMWs
 */
struct wr_field {
	uint64_t addr;
	uint32_t wlen;
	uint64_t hits;
	uint64_t kinds[WR_NR_KINDS];
	uint64_t *cpu_kinds;
	uint64_t transfers, hitm, invalidations;
	uint32_t writer_cpus, reader_cpus;	/* distinct CPUs */
};

/*
 * Pair mode: one write-only (W) and one read/write (RW) breakpoint on each word, the W one's
 * hits carrying @w_flag in their @field.  Both fire for a write, in the same debug trap (same
 * CPU, IP and thread, within a millisecond), only RW for a read.  Returns, per hit, WR_STORE
 * (a write: an RW hit whose W half was found, or a W hit without one), WR_LOAD, or -1 for the
 * W half of a matched pair (evidence, not a hit of its own).  The caller frees the array.
 */
int *wr_hits__pair_kinds(const struct wr_hit *hits, size_t nr_hits, int w_flag);

/*
 * Sort @hits by time and replay them.  @line_shift: log2 of the cache-line size.  CPUs at or
 * beyond @nr_cpus (and beyond the model's core count) are folded into range.
 */
void wr_report__replay(struct wr_hit *hits, size_t nr_hits, struct wr_field *fields,
		       size_t nr_fields, unsigned int line_shift, unsigned int nr_cpus);

#endif
