/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_ATTRIBUTION_H
#define LINEUP_ANALYZER_ATTRIBUTION_H

/*
 * Tying one memory sample to (type, member path, instance) by the strongest evidence at hand.
 *
 * The caller asks each evidence source about the sample (dwarf/ for the operand type at the IP
 * and for a variable at the data address, the allocation index below for heap objects, the
 * user's --type hints) and hands the answers in as an array of facts, with the reason each
 * source that had nothing to say gave.  attribution__resolve() then decides, without I/O:
 *
 *   operand type at the IP  >  global/per-CPU variable  >  allocation record  >  user hint
 *
 * A weaker fact still counts when it names a larger object that holds the stronger one at the
 * right offset (an operand typed `struct path` inside an allocation from the filp cache becomes
 * struct file's f_path), and an untyped allocation still fixes the instance.  What stays
 * unresolved keeps the reason of the strongest source that was asked.
 *
 * Ownership: nothing here allocates except struct alloc_index, which owns its entries and is
 * freed with alloc_index__exit(); type names and origins are borrowed from the caller.
 */

#include <stddef.h>
#include <stdint.h>

#include "analyzer/flat_layout.h"
#include "util/u64map.h"

/* Kinds of evidence, weakest first, so a larger value is stronger. */
enum attr_evidence {
	ATTR_NONE = 0,
	ATTR_HINT,	/* --type 'struct T'@ADDR */
	ATTR_ALLOC,	/* kmem tracepoints / the software collector's allocation log */
	ATTR_VARIABLE,	/* a global or per-CPU variable holds the address */
	ATTR_OPERAND,	/* the type of the memory operand of the instruction at the IP */
	ATTR__NR
};

/* Why a source (or the whole attribution) had nothing to say. */
enum attr_reason {
	ATTR_OK = 0,		/* resolved, or the source was not asked */
	ATTR_NO_ADDR,		/* the sample carries no data address */
	ATTR_NO_MAP,		/* the IP lies in no mapping the recording describes */
	ATTR_NO_SYMBOLS,	/* the object at the IP (a module, a binary) was not found */
	ATTR_NO_DEBUGINFO,	/* the object was found but has no DWARF */
	ATTR_UNDECODABLE,	/* no instruction, or no memory operand, could be decoded at the IP */
	ATTR_NO_VARIABLE,	/* no variable lives in the operand's base register at that PC */
	ATTR_NOT_STRUCT,	/* the variable is no pointer to a struct, union or array */
	ATTR_NO_LAYOUT,		/* a type was named but its layout is not in the debug info */
	ATTR_OUTSIDE,		/* the address lies outside the instance the evidence names */
	ATTR_UNTYPED_ALLOC,	/* inside an allocation whose type nothing tells */
	ATTR_AMBIGUOUS,		/* an indexed operand, its object's start unknown */
	ATTR_NO_OBJECT,		/* no variable, allocation or hint covers the address */
	ATTR__REASONS
};

const char *attr_evidence__name(enum attr_evidence kind);
/* A short phrase for reports: "no debug info", "operand not decodable", ... */
const char *attr_reason__text(enum attr_reason reason);
/* A stable identifier for JSON/CSV: "no_debuginfo", "undecodable", ... */
const char *attr_reason__id(enum attr_reason reason);

/**
 * struct attr_fact - what one evidence source says about a sample's data address.
 * @kind:	which source
 * @type:	the type of the object it names, as C spells it; NULL for an allocation whose
 *		type is unknown (it still fixes the instance)
 * @base:	the address of the object's first byte (for an operand: the data address minus
 *		the offset the operand reaches into its type)
 * @size:	the object's size if the source knows it (an allocation), else 0
 * @origin:	what said so, for the report: "var jiffies", "kmem_cache filp",
 *		"rdi (f) in lineup_file_get", "--type"
 */
struct attr_fact {
	enum attr_evidence kind;
	const char *type;
	uint64_t base;
	uint64_t size;
	const char *origin;
};

/**
 * struct attr_query - one sample, with every source's answer.
 * @addr:	the sample's data address
 * @facts:	the facts found, in any order
 * @why_not:	per evidence kind, why that source gave no fact (ATTR_OK when it was not
 *		asked, or gave one)
 */
struct attr_query {
	uint64_t addr;
	const struct attr_fact *facts;
	unsigned int nr_facts;
	enum attr_reason why_not[ATTR__NR];
};

/* How the analyzer finds a type's layout: returns NULL when the debug info lacks it. */
struct attr_types {
	const struct flat_layout *(*find)(void *ctx, const char *type);
	void *ctx;
};

/**
 * struct attr_result - the answer for one sample.
 * @kind:	the evidence that named the type; ATTR_NONE when unresolved
 * @instance_kind: the evidence that fixed the instance (a container can be weaker than @kind)
 * @reason:	ATTR_OK, or why the sample stays unresolved
 * @layout:	the type (the outermost container found), NULL when unresolved
 * @base:	the instance's address (also set for ATTR_UNTYPED_ALLOC)
 * @offset:	@addr - @base
 * @member:	index into @layout->members, -1 in a hole or padding
 * @path:	the member path with array indexes: "f_path.dentry", "in_flight[1]"
 * @origin:	the origin of the fact that named the type
 * @element:	for an element of a heap array whose variable is known, its name: "stats[3]"
 *		(empty otherwise)
 * @array:	with @element, the address of the array's first element (after a header: a
 *		flexible array member's elements start past their struct), else 0
 */
struct attr_result {
	enum attr_evidence kind;
	enum attr_evidence instance_kind;
	enum attr_reason reason;
	const struct flat_layout *layout;
	uint64_t base;
	uint64_t offset;
	int member;
	char path[160];
	const char *origin;
	char element[64];
	uint64_t array;
};

/* Decide one sample.  Returns 0 when resolved, 1 when not (@res->reason says why). */
int attribution__resolve(const struct attr_types *types, const struct attr_query *q,
			 struct attr_result *res);

/**
 * struct attr_stats - how much was attributed, by evidence and by reason.
 *
 * Each sample is counted once, with the weight the caller gives it (1, or its HITM count, or
 * its cycles), so the report can say "93.1% of the HITM-weighted samples".
 */
struct attr_stats {
	uint64_t samples, weight;
	uint64_t by_kind_samples[ATTR__NR], by_kind_weight[ATTR__NR];
	uint64_t unresolved_samples[ATTR__REASONS], unresolved_weight[ATTR__REASONS];
};

void attr_stats__add(struct attr_stats *st, const struct attr_result *res, uint64_t weight);
/* Resolved weight over all weight, as a fraction (0 when empty). */
double attr_stats__resolved_share(const struct attr_stats *st);

/*
 * Allocations seen over time (kernel kmem tracepoints or the collector's log): which object
 * held an address at a given time.  Entries are added in any order; alloc_index__prepare()
 * sorts them before the first lookup.  After it, adds, frees and lookups may interleave (a
 * session hands out allocation records and the samples they explain in time order): entries
 * added since wait in a short tail, then join runs sorted by address, merged as they grow
 * (a few runs: O(log n) each).  Every operation is O(log^2 n) at most (a free: O(1)
 * expected), so a recording of millions of allocations is read in seconds.
 */
struct alloc_entry {
	uint64_t base, size;
	uint64_t alloc_time, free_time;	/* free_time UINT64_MAX while live */
	const char *type;		/* NULL when unknown (malloc), borrowed */
	const char *origin;		/* "kmem_cache filp", "malloc at main.c:42", borrowed */
	uint64_t site;			/* the allocating call's IP, 0 when unknown */
	uint32_t pid;			/* the allocating process, for naming @site */
};

/*
 * @entries:	in the order added (an entry's index never changes)
 * @live:	base -> index of the newest live entry at that base
 * @older:	per entry, the index of the live entry its base held before it (SIZE_MAX: none),
 *		so a free whose newest entry is not yet allocated finds the older one
 * @order:	the indexes of entries [0, nr_in_runs) by (base, alloc_time), in runs: run r
 *		is order[r ? run_end[r - 1] : 0, run_end[r]); the entries after them, the tail,
 *		are in no order yet
 */
struct alloc_index {
	struct alloc_entry *entries;
	size_t nr, cap;
	uint64_t max_size;
	int sorted;
	struct u64map live;
	size_t *older;
	size_t cap_older;
	size_t *order, *tmp;
	size_t cap_order, nr_in_runs;
	size_t run_end[64];
	unsigned int nr_runs;
};

void alloc_index__init(struct alloc_index *ix);
void alloc_index__exit(struct alloc_index *ix);
void alloc_index__add(struct alloc_index *ix, const struct alloc_entry *e);
/* Close the live allocation at @base (a free at @time); 0 if found, -1 if none. */
int alloc_index__free(struct alloc_index *ix, uint64_t base, uint64_t time);
void alloc_index__prepare(struct alloc_index *ix);
/*
 * The allocation live at @time that holds @addr (the latest one allocated before @time), or
 * NULL.  A @time of 0 means "any time": the latest allocation holding @addr.  Of the entries
 * at one base only the latest allocated by @time is a candidate: a base holds one live
 * allocation at a time (an older one still open there lost its free record).
 */
const struct alloc_entry *alloc_index__find(const struct alloc_index *ix, uint64_t addr,
					    uint64_t time);
/* Fill @fact from @e (kind ATTR_ALLOC). */
void alloc_entry__fact(const struct alloc_entry *e, struct attr_fact *fact);

#endif
