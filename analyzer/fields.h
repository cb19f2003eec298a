/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_FIELDS_H
#define LINEUP_ANALYZER_FIELDS_H

/*
 * analyzer/ -- the computation, pure: no I/O, no globals, no library but libc.  Everything it
 * needs is handed in as lineup's own structs; everything it decides comes back as data (tables,
 * verdicts, warnings), and the words are separate renderers of that data.
 *
 *   report    data_src.h (perf's access classes) -> c2c.h (perf c2c's statistics per line and
 *             offset) -> c2c_columns.h (its columns) -> table.h (the table model that every
 *             output renders: stdio here, JSON and CSV in cli/output.h, the browser in tui/).
 *   fields    attr_engine.h/attribution.h (each sample to a type, member and instance, by the
 *             strongest evidence) -> fields.h (this file: members, lines, verdicts) ->
 *             fields_table.h; fields_diff.h compares two recordings' tables (diff) and
 *             fields_diff_table.h shows the comparison.
 *   layout    layout.h (the layout model and pahole's printer, built from scratch or filled by
 *             dwarf/), flat_layout.h (every member at every depth).
 *   suggest   suggest_targets.h (each struct's accesses) -> suggest.h (the order, the
 *             replayed prediction) -> suggest_layout.h (the new layout) -> suggest_text.h (the
 *             words) and srcpatch.h (the patch).
 *   watch     coherence.h (the MESI model the collector shares) -> watch_replay.h,
 *             watch_object.h, watch_table.h.
 *   ab        abstat.h (the ratio's confidence interval, "not significant").
 */

/*
 * Per-field contention: for every struct the samples were attributed to, each member's loads,
 * stores, HITMs, cycles, readers and writers and the code touching it; and for every contended
 * cache line a verdict with its evidence (false sharing, true sharing, read-mostly victims,
 * redundant locked RMWs).
 *
 * Pure: the caller classifies each sample (analyzer/data_src.h), attributes it
 * (analyzer/attribution.h) and hands both in; code addresses stay addresses, and the caller
 * names them through a callback when it wants text.
 *
 * Ownership: struct fields owns its tables; the flat_layouts it points to are borrowed and
 * must outlive it.  fields__delete() frees everything.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyzer/attribution.h"
#include "analyzer/id_set.h"

struct strbuf;

/**
 * struct fields_access - one memory sample, classified.
 * @ip, @addr, @time, @cpu, @tid: from the sample
 * @weight:	cycles (the sample's weight), 0 when absent
 * @load, @store: the operation (an atomic RMW is a store with @locked)
 * @locked:	a locked instruction (data_src mem_lock)
 * @lcl_hitm, @rmt_hitm: a load that hit a modified line in another core's cache (perf c2c's
 *		HITM classes, local or remote node)
 */
struct fields_access {
	uint64_t ip, addr, time, weight;
	uint32_t cpu, tid;
	bool load, store, locked;
	bool lcl_hitm, rmt_hitm;
};

/*
 * Classify a sample for the field tables from its data_src, with perf c2c's classes
 * (c2c_stats__decode): load, store, locked, HITM.  A load served by another core's cache
 * without a HITM class (Arm SPE, and Intel's snoopx forwards, name the peer core or cluster
 * that held the line but not whether it was modified) counts with the HITMs: that transfer is
 * the contention these tables are about, and perf c2c's "peer" display (-d peer) makes the
 * same substitution.  Fills the classification of @a (its other fields are left alone) and
 * returns true for such a peer load, which a report should say it counted so.
 */
bool fields_access__classify(struct fields_access *a, uint64_t data_src, uint64_t addr);

/* One code address touching a member (or a slot of a line). */
struct field_ip {
	uint64_t ip;
	uint64_t loads, stores, locked, hitm;
};

/**
 * struct field_stats - the counters kept per member, per line slot, per line.
 * @loads, @stores: samples of each kind (@locked: of which locked RMWs)
 * @writes:	samples that wrote the line: stores, and locked RMWs sampled as loads (PEBS and
 *		lineup watch record an RMW as a locked load; a lock-prefixed instruction always
 *		writes, so its CPU and thread count among the writers)
 * @locked_loads: locked RMWs sampled as loads (no store sample of their own)
 * @lcl_hitm, @rmt_hitm: HITM loads
 * @weight_sum, @weighted: sum of the weights and number of samples that had one (mean
 *		cycles = weight_sum / weighted)
 * @cpus_read .. @tids_write: distinct CPUs and threads reading and writing
 * @ips:	code addresses, most samples first after fields__finish()
 */
struct field_stats {
	uint64_t loads, stores, locked;
	uint64_t writes, locked_loads;
	uint64_t lcl_hitm, rmt_hitm;
	uint64_t weight_sum, weighted;
	uint64_t first_time, last_time;
	struct id_set cpus_read, cpus_write, tids_read, tids_write;
	struct field_ip *ips;
	size_t nr_ips, cap_ips;
};

static inline uint64_t field_stats__hitm(const struct field_stats *s)
{
	return s->lcl_hitm + s->rmt_hitm;
}

/* Loads that only read (a locked RMW's load part writes too). */
static inline uint64_t field_stats__plain_loads(const struct field_stats *s)
{
	return s->loads - s->locked_loads;
}

/*
 * A flag or index one thread publishes and another waits on: written more than once, and
 * read with HITMs by a thread that does not write it.  A spin loop's loads far outnumber the
 * publisher's sampled stores (they hit its own line), yet each store invalidates the waiter.
 */
static inline int field_stats__publishes(const struct field_stats *s)
{
	if (s->writes < 2 || !field_stats__hitm(s))
		return 0;
	for (uint32_t i = 0; i < s->tids_read.nr; i++)
		if (!id_set__has(&s->tids_write, s->tids_read.ids[i]))
			return 1;
	return 0;
}

/* Read-mostly: writes at most 1 in 20 of the plain loads, or none; never a published flag. */
static inline int field_stats__read_mostly(const struct field_stats *s)
{
	return !s->writes ||
	       (s->writes * 20 <= field_stats__plain_loads(s) && !field_stats__publishes(s));
}

/* One instance of a struct: its address, its name as a heap array's element, how hot it is. */
struct field_instance {
	uint64_t base;
	uint64_t samples, hitm, stores;
	char element[64];
};

/**
 * struct field_struct - one attributed type.
 * @layout:	the type
 * @members:	one entry per layout member (same index), then one more for bytes that fall
 *		in no member (holes, padding)
 * @total:	the whole type
 * @nr_instances: distinct instances (base addresses) seen
 * @by_kind:	samples by the evidence that named the type (operand, variable, ...)
 * @instances:	every instance, the hottest (HITMs, then samples) first after fields__finish()
 */
struct field_struct {
	const struct flat_layout *layout;
	struct field_stats *members;
	struct field_stats total;
	uint64_t nr_instances;
	uint64_t by_kind[ATTR__NR];
	struct field_instance *instances;
	size_t cap_instances;
};

/* One sampled write (a store or a locked RMW) of a line slot: when, and by whom. */
struct slot_write {
	uint64_t time;
	uint32_t cpu, tid;
};

/**
 * struct line_slot - what one line holds: a member of one instance, or unattributed bytes.
 * @layout:	the type, NULL when the bytes were not attributed
 * @base:	the instance (for unattributed bytes: the address accessed, so that two small
 *		elements side by side, two 4-byte reference counts, stay two slots)
 * @member:	index into @layout->members, -1 for a hole or unattributed bytes
 * @elem:	for an array member, the element (each element is a slot of its own)
 * @path:	the member path as attribution named it ("in_flight[1]")
 * @element:	the instance as an element of a heap array ("stats[3]"), empty when unnamed
 * @offset:	the lowest data address seen in the slot minus the line's address
 */
struct line_slot {
	const struct flat_layout *layout;
	uint64_t base;
	int member;
	uint64_t elem;
	char path[160];
	char element[64];
	uint64_t array;		/* with @element: its array's first element (attr_result's) */
	uint32_t offset;
	struct field_stats st;
	uint64_t redundant_rmw, rmw_checked;	/* from fields__add_rmw(), summed over @st.ips */
	int group;	/* written slots: the writer group (see field_line), -1 otherwise */
	bool victim;	/* read-mostly, read by other CPUs than a written slot's writers */
	/*
	 * In time (lines whose writes carry times): @handoffs, the times consecutive sampled
	 * writes of this slot came from different CPUs; @shared_in_time, the slot changed
	 * writer about as often as the whole line did (true sharing of the slot itself), where
	 * a slot written by several CPUs one at a time (a lock each thread takes for a while, a
	 * reference count that migrates with its thread) changes writer far less often.
	 */
	uint64_t handoffs;
	bool shared_in_time;
	struct slot_write *writes;	/* every sampled write, in the order added */
	size_t nr_writes, cap_writes;
};

enum line_verdict {
	LINE_QUIET = 0,		/* not contended */
	LINE_FALSE_SHARING,	/* slots written by different CPUs at the same time, or
				 * written slots beside slots only other CPUs read */
	LINE_TRUE_SHARING,	/* the written slots are written by the same CPUs in turn,
				 * and nothing else on the line is read */
	LINE_WRITE_READ,	/* one slot written, other CPUs read the same slot */
};

/**
 * struct field_line - a data cache line and its verdict.
 * @addr:	the line's address (aligned to the line size)
 * @slots:	what it holds, by offset
 * @verdict:	after fields__finish()
 * @true_shared: for LINE_TRUE_SHARING, and for a false-sharing line where one slot is also
 *		written by several CPUs in turn, that slot's index, else -1
 * @victims:	read-mostly slots (stores at most 1 in 20 of their accesses) read by CPUs
 *		other than the writers, on a line with written slots
 * @written:	slots with more than a trace of stores
 * @nr_groups:	written slots fall into groups written by (mostly) the same CPUs at the same
 *		time; two groups or more is false sharing between writers, one group written
 *		by several CPUs in turn is true sharing among them
 * @writer_cpus: distinct CPUs storing to the line
 * @timed:	the groups and the true sharing were decided in time: the line's sampled writes
 *		carry distinct times (else over the whole run, by who wrote what at all)
 * @handoffs:	in time: how often consecutive sampled writes of the line came from different
 *		CPUs (each a transfer of the line); each slot's own count is its ->handoffs
 */
struct field_line {
	uint64_t addr;
	struct line_slot *slots;
	size_t nr_slots, cap_slots;
	struct field_stats st;
	enum line_verdict verdict;
	int true_shared;
	unsigned int victims, written, writer_cpus, nr_groups;
	bool timed;
	uint64_t handoffs;
};

struct fields {
	unsigned int line_size;
	struct field_struct *structs;
	size_t nr_structs, cap_structs;
	struct field_line *lines;
	size_t nr_lines, cap_lines;
	uint64_t first_time, last_time;
	uint64_t hitm, stores;		/* HITM loads and store samples, over every line */
	uint64_t loads;			/* load samples, over every line */
	struct attr_stats attr_hitm;	/* HITM loads only, each weighing 1 */
	struct attr_stats attr_all;	/* every sample, each weighing 1 */
	struct attr_stats attr_cycles;	/* every sample, weighing its cycles */
	/* private */
	void *priv;
};

/* A new table for data lines of @line_size bytes (a power of two). */
struct fields *fields__new(unsigned int line_size);
void fields__delete(struct fields *f);

/*
 * Count one sample.  @res may be unresolved (it still counts on its line, as unattributed
 * bytes, and in the attribution figures).
 */
void fields__add(struct fields *f, const struct attr_result *res, const struct fields_access *a);

/*
 * The software collector's count of locked RMWs at @ip, and how many of them changed nothing
 * (a fetch_or whose bits were already set).  Any order with fields__add().
 */
void fields__add_rmw(struct fields *f, uint64_t ip, uint64_t total, uint64_t redundant);

/*
 * Sort the tables (structs by HITMs, lines by HITMs then stores, code addresses by samples)
 * and decide each line's verdict.  Call once, after the last fields__add().
 */
void fields__finish(struct fields *f);

/*
 * The stats of member @m of @s with every member nested in it (f_path with f_path.dentry), into
 * @out; free with field_stats__release().
 */
void field_struct__rollup(const struct field_struct *s, unsigned int m, struct field_stats *out);
void field_stats__release(struct field_stats *st);

/*
 * Contended: at least two HITMs on the line and, unless the recording sampled no store at all
 * (loads only: the HITMs are all there is), a sampled write.  A line without a HITM gets no
 * verdict, however many CPUs wrote it at one time or another.
 */
bool field_line__contended(const struct fields *f, const struct field_line *l);

/*
 * A contended line worth listing: its HITMs are at least @min_share (a fraction, 0.01 for 1%)
 * of all the recording's HITMs.  The rest a report sums up in one line.
 */
bool field_line__listed(const struct fields *f, const struct field_line *l, double min_share);

const char *line_verdict__name(enum line_verdict v);

/*
 * Too few samples for a verdict: fewer than FIELDS_MIN_LOADS load samples in all.  A line
 * needs two HITMs to get a verdict, and a sampled recording of a short run may hold a dozen
 * loads (one command gave 11, 481, 11, 11 and 207 in five runs): "no contended line" from a
 * dozen says nothing, and a verdict from one is chance.
 */
#define FIELDS_MIN_LOADS 100
bool fields__too_few_samples(const struct fields *f);

/* The warning of fields__too_few_samples as one line of text: the figures, what to change. */
void fields__explain_samples(const struct fields *f, struct strbuf *out);

/* What a line's verdict advises. */
enum verdict_advice {
	ADVICE_NONE,		/* quiet; one writer read by others; HITMs on one member, no store */
	ADVICE_ALIGN_INSTANCES,	/* instances of one type, each written by its own CPUs: a line
				 * for each instance */
	ADVICE_SPLIT_GROUPS,	/* members written by different CPUs: a line per writer group */
	ADVICE_MOVE_WRITTEN,	/* written members apart from the ones only other CPUs read */
	ADVICE_SEPARATE_HITM,	/* no store sampled: separate the members the HITMs fall on */
	ADVICE_LOCK,		/* a contended lock: take it less often, split it */
	ADVICE_PER_CPU,		/* one member written by many CPUs: a per-CPU/sharded counter */
};

#define VERDICT_MAX_IPS 3
#define VERDICT_MAX_THREADS 8

/* A code address and how many samples of the kind in question it has. */
struct verdict_ip {
	uint64_t ip, count;
};

/**
 * struct field_verdict - a contended line's verdict as data: what fields__explain_line says in
 * prose, and the JSON carries part by part.  The slots of the line hold the rest: each written
 * slot's writer group (->group, 0 .. @nr_groups - 1), the victims (->victim), the redundant
 * RMWs (->redundant_rmw of ->rmw_checked, at the slot's locked code addresses).
 * @kind:	the verdict
 * @advice:	what to do about it
 * @instances_of: ADVICE_ALIGN_INSTANCES: the type whose instances share the line
 * @nr_groups:	writer groups (two or more: false sharing between writers)
 * @nr_victims:	read-mostly slots read by other CPUs than the writers
 * @true_shared: the slot written by several CPUs (true sharing, or the note on a false-sharing
 *		line), -1 when none
 * @no_store:	the line has HITMs but no sampled store
 * @sum_reads:	ADVICE_PER_CPU: plain reads of the truly shared member, the work the side that
 *		sums a per-CPU counter would multiply
 * @span_ns:	the time the samples cover (a rate over less than 1 ms says nothing: 0 then)
 * @readers:	the code doing @sum_reads, most reads first
 * @nr_redundant: slots with RMWs that found the bits already set
 * @timed:	the groups and the true sharing were decided in time (field_line ->timed)
 * @handoffs:	timed: how often the line's sampled writes went from one CPU to another
 * @max_handoffs: timed: the most any written slot but @true_shared did so itself
 * @nr_held:	timed: the written slots that @max_handoffs is over (not shared in time)
 * @nr_rotating: written slots that several CPUs wrote over the run, one at a time (each
 *		thread takes a lock of a pool for a while): false sharing between them, not
 *		true sharing
 * @threads:	the threads writing the line, lowest first (@nr_threads of them in all, the
 *		first VERDICT_MAX_THREADS here)
 */
struct field_verdict {
	enum line_verdict kind;
	enum verdict_advice advice;
	const struct flat_layout *instances_of;
	unsigned int nr_groups, nr_victims;
	int true_shared;
	bool no_store;
	uint64_t sum_reads, span_ns;
	struct verdict_ip readers[VERDICT_MAX_IPS];
	unsigned int nr_readers;
	unsigned int nr_redundant;
	bool timed;
	uint64_t handoffs, max_handoffs;
	unsigned int nr_held, nr_rotating;
	uint32_t threads[VERDICT_MAX_THREADS];
	unsigned int nr_threads;
};

/* The verdict of @l (after fields__finish) as data. */
void fields__verdict(const struct fields *f, const struct field_line *l, struct field_verdict *v);

const char *verdict_advice__name(enum verdict_advice a);

/*
 * What a contended line's verdict says of one of its slots, as bits: the line verdict seen
 * from a member, so that a report about a struct (lineup suggest) gives its members the
 * verdicts lineup fields gives their lines instead of deciding again.
 */
enum slot_sharing {
	SHARING_FALSE_MEMBERS = 1 << 0,	/* false sharing with other members: written beside a
					 * member other CPUs write or read, or such a victim */
	SHARING_FALSE_INSTANCES = 1 << 1, /* false sharing with another instance of its type */
	SHARING_FALSE_ELEMENTS = 1 << 2, /* an element of an array member beside another element
					  * of the same array that other CPUs write */
	SHARING_TRUE = 1 << 3,		/* itself written by several CPUs in turn: the line's
					 * truly shared slot, or a written slot of a true-sharing
					 * line */
	SHARING_ONE_WRITER = 1 << 4,	/* one CPU writes the data other CPUs read */
};

#define SHARING_FALSE (SHARING_FALSE_MEMBERS | SHARING_FALSE_INSTANCES | SHARING_FALSE_ELEMENTS)

/* Slot @k of @l (after fields__finish): enum slot_sharing bits, 0 on a quiet line. */
unsigned int fields__slot_sharing(const struct field_line *l, size_t k);

/* "false_members", "false_instances", "false_elements", "true", "one_writer": one bit's id. */
const char *slot_sharing__id(unsigned int bit);

/* A slot's member as verdicts name it: its path, or "<unattributed>". */
const char *line_slot__member(const struct line_slot *s);

/* How the caller names a code address ("lineup_file_get+0x12 fs/x.c:42"). */
typedef void (*fields_ip_namer)(void *ctx, uint64_t ip, struct strbuf *out);

/*
 * The verdict of @l and its evidence, as lines of text (each ending in '\n'): who writes
 * what, which members are victims, what to do (regroup; per-CPU/sharded counter with how
 * often the reads that would have to sum it run; test before set for redundant RMWs).  The
 * prose renderer of fields__verdict.  @namer may be NULL (addresses are printed in hex).
 */
void fields__explain_line(const struct fields *f, const struct field_line *l,
			  fields_ip_namer namer, void *ctx, struct strbuf *out);

/* A slot's name: "struct file.f_count @MEMBER-ADDRESS", or "<unattributed +0x18>". */
void line_slot__name(const struct line_slot *s, struct strbuf *out);

#endif
