/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_SUGGEST_H
#define LINEUP_ANALYZER_SUGGEST_H

/*
 * The layout suggester: from the measured accesses to one struct, a new member order that
 * removes the false sharing, the layout that order gets, and the effect predicted by replaying
 * the same accesses on the new offsets.
 *
 * The flow, for `lineup suggest` (and the browser's suggestion view):
 *
 *	sg = suggest__new(&cfg, units, nr_units);	the struct's movable units, old offsets
 *	suggest__add(sg, &access) ...			every attributed access, in time order
 *	suggest__run(sg, &res);				profile, order, place, replay
 *	... res.order, res.groups, res.findings, res.before/after ...
 *	suggest__delete(sg);				frees @res's arrays too
 *
 * The rules, in the order they act:
 *  1. Each unit (a top-level member, a run of bit-fields sharing a storage unit, an anonymous
 *     struct/union) gets a profile: loads, stores, locked RMWs, HITMs, cycles, and the threads
 *     that read and write it.  A thread counts as a writer when it does at least a quarter of
 *     its fair share of the unit's writes (one initialising store by main() does not).
 *  2. A unit is cold (never accessed, or set up once and never read: a single sampled store
 *     and no load), read-mostly (writes at most 1 in 20 of its plain loads,
 *     or a single sampled store: main()'s setup; and not a published flag), or written.  A
 *     member every thread updates now and then (a flags word under a lock) is written, however
 *     few its writes are beside a hot lock's.  A spin loop
 *     that reads a flag another thread writes makes the flag written, never read-mostly:
 *     written twice or more and read with HITMs by a thread that does not write it (the
 *     producer/consumer ring's head and tail).
 *  3. Written units are grouped by their writer set (Huron, PLDI 2019: members accessed by the
 *     same threads go together); each group starts a cache line of its own.  Read-mostly units
 *     form one group, away from every written unit.  Within a group, units used together by one
 *     thread (consecutive accesses) are kept next to each other (Chilimbi's affinity).
 *  4. Cold units fill the gaps before the next line boundary, so padding is added only where a
 *     boundary is needed; --max-growth drops the boundaries worth least until the size fits.
 *  5. The accesses are replayed in time order through the coherence model (one core per
 *     thread) on the old and on the new offsets: modeled line transfers before and after.
 *  6. What sharing it is (a member truly shared, an array's elements shared between threads)
 *     is lineup fields' verdict on the struct's lines (suggest__set_verdicts), not decided
 *     here a second time: both commands say the same of the same line.
 *
 * Pure: no I/O, no globals.  Constraints the caller cannot express here (unions moved whole,
 * bit-fields in their unit) are kept by how it cuts the struct into units.
 *
 * Ownership: struct suggest copies the units' scalar fields and borrows their names, which must
 * outlive it; the arrays of the struct suggest_result it fills belong to the suggest and are
 * freed with it (a prediction replaced by suggest__predict too).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyzer/fields.h"
#include "analyzer/id_set.h"

/**
 * struct suggest_unit - what moves as one: a member, a bit-field storage unit, an anonymous
 * struct or union.
 * @name:	the (first) member's name, as the source and the comment name it
 * @offset:	its offset in the current layout
 * @size:	its size (a bit-field run: its storage unit's)
 * @align:	the alignment it needs (forced or natural)
 * @forced_align: an explicit alignment attribute it carries (kept), 0 if none
 * @nr_elems, @elem_size: for an array, its elements (1 and @size otherwise); a flexible array
 *		has @size 0
 * @flex:	a flexible array member: stays last
 * @pinned:	stays at @offset (--pin: ABI, container_of users, a list head first)
 */
struct suggest_unit {
	const char *name;
	uint64_t offset, size;
	uint32_t align, forced_align;
	uint64_t nr_elems, elem_size;
	bool flex, pinned;
};

/* One access to an instance of the struct. */
struct suggest_access {
	uint64_t instance;	/* the instance's address (its base) */
	uint64_t offset;	/* byte offset of the access in the struct */
	uint64_t time;
	uint64_t weight;	/* cycles, 0 when unknown */
	uint32_t tid, cpu;
	bool load, store, locked;	/* a locked RMW: load or store with @locked */
	bool hitm;		/* a load that found the line modified in another core */
};

/**
 * struct suggest_config - the machine and the user's bounds.
 * @line_size:	the cache line (64; 128 for --double-cl)
 * @max_growth:	bytes the struct may grow by; UINT64_MAX for no bound
 * @struct_name: for the group names ("file" -> file_read_mostly)
 */
struct suggest_config {
	unsigned int line_size;
	uint64_t max_growth;
	const char *struct_name;
};

enum suggest_use {
	SUGGEST_COLD,		/* no access recorded, or one store and no load */
	SUGGEST_READ_MOSTLY,
	SUGGEST_WRITTEN,
};

/**
 * struct suggest_verdicts - lineup fields' verdicts on the contended lines that hold the
 * struct (analyzer/fields.h): what sharing it is, decided there once.  The suggester's
 * findings (true sharing, elements) and the reason it gives for "nothing to do" follow it.
 * @lines, @hitm: contended lines holding an instance, and their HITMs, by enum line_verdict
 * @units:	per unit (indexed like the units), enum slot_sharing bits over those lines
 * @unit_hitm:	per unit, the HITMs on its slots there
 */
struct suggest_verdicts {
	unsigned int lines[LINE_WRITE_READ + 1];
	uint64_t hitm[LINE_WRITE_READ + 1];
	unsigned int *units;
	uint64_t *unit_hitm;
};

/**
 * struct suggest_profile - one unit's measured use.
 * @writes:	stores, and locked RMWs sampled as loads
 * @writers, @readers: threads (dominant writers only in @writers, see rule 1, over all
 *		instances)
 * @writer_cpus: CPUs that wrote
 * @elem_writers: for an array whose elements have different writers: the threads that are
 *		some element's main writer (0: one or none, or not an array)
 * @elem_part:	with @elem_writers: the bytes of one thread's part (its run of elements; an
 *		element's size when each thread has one, or they take elements in turn)
 * @elem_interleaved: with @elem_writers: the threads' elements alternate (no thread's part is
 *		a run), as thread t taking t, t+N, t+2N, ...
 * @sharing:	what lineup fields' verdicts say of it: enum slot_sharing bits (0: no verdict
 *		given, or on no contended line)
 */
struct suggest_profile {
	uint64_t loads, reads, stores, locked, writes, hitm, weight_sum, weighted;
	struct id_set writers, readers, writer_cpus, all_writers;
	uint64_t *sig;		/* (instance << 32 | writer) pairs, sorted: the grouping key */
	uint32_t nr_sig, max_writers;	/* most writers of one instance */
	enum suggest_use use;
	int group;
	uint64_t elem_writers, elem_part;
	bool elem_interleaved;
	unsigned int sharing;
	uint64_t redundant_rmw, rmw_checked;
};

enum suggest_group_kind {
	SUGGEST_GROUP_READ_MOSTLY,
	SUGGEST_GROUP_WRITTEN,	/* written by one set of threads */
	SUGGEST_GROUP_COLD,	/* what is left after filling */
};

/**
 * struct suggest_group - members that share lines in the new layout.
 * @name:	"file_read_mostly", "file_write_1", ...
 * @writers:	the writer set (SUGGEST_GROUP_WRITTEN)
 * @readers:	the union of the members' readers
 * @aligned:	starts a new cache line (an alignment attribute on its first member)
 * @first:	index in result.order of its first unit
 * @hitm, @writes, @loads: summed over its units
 */
struct suggest_group {
	char name[64];
	enum suggest_group_kind kind;
	struct id_set writers, readers;
	bool aligned;
	unsigned int first, nr;
	uint64_t hitm, writes, loads;
};

enum suggest_finding_kind {
	SUGGEST_TRUE_SHARING,	/* a unit lineup fields finds truly shared: no layout removes
				 * that */
	SUGGEST_TEST_BEFORE_SET,/* locked RMWs that found the bits already set */
	SUGGEST_ELEMENTS,	/* array elements written by different threads sharing lines
				 * (fields' verdict): pad the element, or the parts */
	SUGGEST_INSTANCES,	/* instances sharing lines: align the type */
	SUGGEST_GAVE_UP,	/* --max-growth: a boundary not kept */
	SUGGEST_ARRAY_ELEMENT,	/* the element of an array whose threads' elements share lines:
				 * padded to whole lines */
};

/**
 * struct suggest_finding - advice beside the order.
 * @unit:	the unit it is about (-1 for the whole struct)
 * @a, @b:	figures: TRUE_SHARING: writer threads, loads by readers that would have to sum
 *		shards; TEST_BEFORE_SET: redundant RMWs, RMWs checked; ELEMENTS: new element
 *		(or part) size, size cost; INSTANCES: instances sharing a line with another's
 *		writers, -;
 *		GAVE_UP: the group index whose boundary was dropped, its HITMs;
 *		ARRAY_ELEMENT: the padded size, the bytes added per element
 * @rate:	TRUE_SHARING: the reads per second of the sum side (0 when time is unknown)
 */
struct suggest_finding {
	enum suggest_finding_kind kind;
	int unit;
	uint64_t a, b;
	double rate;
};

/* Modeled traffic on one cache line of the old or the new layout (summed over instances). */
struct suggest_line {
	uint64_t offset;	/* line start, from the struct's start (instances line-aligned) */
	uint64_t hitm_measured;	/* old layout: HITM samples recorded on it; new layout: those
				 * re-bucketed here that stay HITMs (the line holds a member
				 * another thread writes) */
	uint64_t transfers;	/* modeled: loads that found the line modified elsewhere, and
				 * stores that had to take it from another core */
	uint64_t accesses;
};

struct suggest_prediction {
	struct suggest_line *lines;
	unsigned int nr_lines;
	uint64_t transfers, hitm_measured, accesses;
};

/*
 * The two predictions, both named in the output: @transfers replays every access in time
 * order through the coherence model (exact for record --sim-exact and watch, whose order is
 * every access's); @hitm_measured re-buckets the recorded HITM samples by (instance, new
 * line) and keeps those whose new line still holds a member that a thread other than the
 * sample's writes, weighed by how often the line's writer changes between its sampled writes
 * in time (what a sampled PMU recording supports).
 */

enum suggest_status {
	SUGGEST_OK,		/* a new layout, predicted better */
	SUGGEST_NOTHING,	/* nothing to do: no transfer that a layout could remove */
	SUGGEST_REFUSED,	/* a constraint cannot be kept: @message says which */
};

/**
 * struct suggest_result - the answer.
 * @order:	unit indices in the new order
 * @new_offset: per unit (indexed like the units), its offset in the new layout
 * @align_attr: per unit, the alignment attribute to add on it (0: none)
 * @size, @align: the new struct's size and alignment; @old_size, @old_align the current ones
 * @holes:	bytes of holes and padding in the new layout (@old_holes: in the current one)
 * @verdict:	lineup fields' verdict on the struct's lines: the one of the most HITMs
 *		(LINE_QUIET: no contended line, or no verdicts given); @verdicts all of them
 *		(its arrays the suggest's), @have_verdicts whether they were given
 */
struct suggest_result {
	enum suggest_status status;
	char message[256];
	unsigned int nr_units;
	unsigned int *order;
	uint64_t *new_offset;
	uint32_t *align_attr;
	struct suggest_profile *profiles;
	struct suggest_group *groups;
	unsigned int nr_groups;
	struct suggest_finding *findings;
	unsigned int nr_findings;
	uint64_t size, old_size, holes, old_holes;
	uint32_t align, old_align;
	uint64_t nr_instances, nr_accesses;
	uint64_t first_time, last_time;
	struct suggest_prediction before, after;
	enum line_verdict verdict;
	struct suggest_verdicts verdicts;
	bool have_verdicts;
};

struct suggest;

/* A suggester for a struct of @size bytes (alignment @align) cut into @units (in offset order). */
struct suggest *suggest__new(const struct suggest_config *cfg, const struct suggest_unit *units,
			     unsigned int nr_units, uint64_t size, uint32_t align);
void suggest__delete(struct suggest *sg);

/* One access, in time order (the order of the recording's session). */
void suggest__add(struct suggest *sg, const struct suggest_access *a);

/* The collector's count of locked RMWs on unit @unit that changed nothing (seed 000). */
void suggest__add_rmw(struct suggest *sg, unsigned int unit, uint64_t total, uint64_t redundant);

/* The unit covering @offset, or -1 (a hole, the padding). */
int suggest__unit_at(const struct suggest *sg, uint64_t offset);

/*
 * The struct's instances are the elements of an array whose placement makes them share lines
 * (analyzer/array_align.h's enum align_cause bits): with ALIGN_PAD the suggestion is the
 * element padded to whole lines (the order kept, an alignment on its first member); with
 * ALIGN_BASE alone no member order is the cause ("nothing to do": the caller patches the
 * allocation).  Call before suggest__run.
 */
void suggest__set_array_causes(struct suggest *sg, unsigned int causes);

/*
 * lineup fields' verdicts on the struct's lines (copied): the findings of true sharing and of
 * elements shared between threads are those verdicts, and "nothing to do" says why by them.
 * Without them (a suggester fed by hand) it makes neither finding.  Call before suggest__run.
 */
void suggest__set_verdicts(struct suggest *sg, const struct suggest_verdicts *v);

/* Decide: fills *@res, whose arrays the suggest owns: @res must stay where it is until
 * suggest__delete, which frees them. */
void suggest__run(struct suggest *sg, struct suggest_result *res);

/* Offsets of the units in @order with the alignment attributes @align_attr, as the x86-64
 * SysV ABI places them: into @offset (indexed like the units); returns the size, *@align the
 * alignment.  Exposed so that tests and the checker can compare with the compiler. */
uint64_t suggest__place(const struct suggest_unit *units, unsigned int nr_units,
			const unsigned int *order, const uint32_t *align_attr, uint64_t *offset,
			uint32_t *align);

/*
 * Replay the accesses on units placed at @offsets (indexed like the units) with the type's
 * alignment @align, into @pred (its lines freed by the caller, or by suggest__delete when it
 * is the result's): for a layout placed by the compiler where a bit-field unit moved.
 */
void suggest__predict(struct suggest *sg, const uint64_t *offsets, uint32_t align,
		      struct suggest_prediction *pred);

const char *suggest_use__name(enum suggest_use use);

#endif
