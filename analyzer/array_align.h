/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_ARRAY_ALIGN_H
#define LINEUP_ANALYZER_ARRAY_ALIGN_H

/*
 * Arrays whose per-thread elements meet inside cache lines: one heap object (an array of
 * structs, or a scalar array dealt out in blocks) whose elements, each written by its own
 * thread, share lines at their boundaries because the object does not start on a line (malloc
 * aligns to 16 bytes) or because the element is no multiple of the line (a 3000-byte slot).
 * Each such object is one finding with its cause and its fix (an aligned allocation at the
 * allocating call, a padded element), however many lines it shows up on: a blocked matrix
 * whose 199 block boundaries straddle lines is one misaligned allocation, not 199 verdicts.
 *
 * The evidence is the field tables' own: on a false-sharing line, two written slots next to
 * each other with different writer groups are a boundary between two threads' data.  For an
 * array of structs the elements are known (the attributed instances); for a scalar array
 * (no element type to speak of) the boundaries must all fall at the line offset where the
 * object starts for the cause to be its alignment.
 *
 * Pure: the caller hands in the tables (after fields__finish) and a lookup of the heap object
 * that holds an address at a time (the allocation records); the allocating call stays an
 * address, which the caller names.
 *
 * Ownership: struct array_align owns its findings and their line lists (array_align__delete);
 * the field tables and layouts it points to are borrowed and must outlive it.
 */

#include <stddef.h>
#include <stdint.h>

#include "analyzer/fields.h"

struct strbuf;

/**
 * struct align_object - a heap object as the allocation records know it.
 * @base, @size: the block
 * @site:	the allocating call's IP (0: unknown), in process @pid
 */
struct align_object {
	uint64_t base, size;
	uint64_t site;
	uint32_t pid;
};

/* The object holding @addr at @time: 0 with *@out, else nonzero (no record covers it). */
struct align_objects {
	int (*at)(void *ctx, uint64_t addr, uint64_t time, struct align_object *out);
	void *ctx;
};

/* Causes, as bits: both may hold (a padded element still needs an aligned allocation). */
enum align_cause {
	ALIGN_BASE = 1 << 0,	/* the array does not start on a line: allocate it aligned */
	ALIGN_PAD = 1 << 1,	/* the element is no multiple of the line: pad the element */
	ALIGN_BLOCKS = 1 << 2,	/* a scalar array's per-thread parts meet at varying offsets:
				 * give each part whole lines (no patch: its sizes are code) */
	ALIGN_INTERLEAVED = 1 << 3,	/* a scalar array's elements dealt out in turn (thread t
					 * writes t, t+S, t+2S, ...): every line every thread's;
					 * block them per thread or pad each (no patch: code) */
};

#define ALIGN_CAUSE_LAST ALIGN_INTERLEAVED

/**
 * struct align_finding - one object whose threads' elements share lines.
 * @obj:	the heap object
 * @elem:	the element type (an array of structs), NULL for a scalar array
 * @name:	what the report calls it: @elem's name, a scalar array's ("heap matrix"), or NULL
 * @first:	offset of the first element in @obj (an array after a header: not 0)
 * @stride:	the element's size (@elem's; ALIGN_INTERLEAVED: the scalar's), else 0
 * @nr_elems:	elements in @obj (0 for a scalar array, but ALIGN_INTERLEAVED)
 * @misalign:	how far into a line the array starts: (@obj.base + @first) % line
 * @causes:	enum align_cause bits
 * @new_stride:	ALIGN_PAD: the element padded to whole lines; ALIGN_INTERLEAVED: one
 *		thread's block of @block elements padded so
 * @new_size:	the allocation's size after the fix (whole lines, what aligned_alloc needs;
 *		ALIGN_INTERLEAVED: with every block padded)
 * @threads, @block: ALIGN_INTERLEAVED: the threads that take blocks of @block elements in
 *		turn (a thread's blocks lie @threads * @block * @stride bytes apart)
 * @lines:	the lines it explains (their addresses), hottest first
 * @hitm, @writes: summed over @lines
 * @nr_boundaries: boundaries between two threads' data seen on @lines
 * @writer_cpus: distinct CPUs writing @lines
 */
struct align_finding {
	struct align_object obj;
	const struct flat_layout *elem;
	const char *name;
	uint64_t first, stride, nr_elems;
	uint32_t misalign;
	unsigned int causes;
	uint64_t new_stride, new_size;
	uint32_t threads, block;
	uint64_t *lines;
	size_t nr_lines;
	uint64_t hitm, writes;
	uint32_t nr_boundaries, writer_cpus;
};

/**
 * struct array_align - the findings of one recording, hottest first.
 * @line_size:	the tables' line size
 * @total_hitm:	HITMs on every line of the tables (for the share each finding explains)
 */
struct array_align {
	unsigned int line_size;
	struct align_finding *findings;
	size_t nr_findings;
	uint64_t total_hitm;
};

/* The findings on @f's false-sharing lines; never NULL (no finding: nr_findings 0). */
struct array_align *array_align__find(const struct fields *f, const struct align_objects *objs);
void array_align__delete(struct array_align *a);

/* The finding that explains the line at @addr, or NULL. */
const struct align_finding *array_align__of_line(const struct array_align *a, uint64_t addr);

/* A cause bit for JSON: "align_base", "pad_element", "blocks", "interleaved". */
const char *align_cause__id(unsigned int cause);

/*
 * The finding as lines of text (each ending in '\n'): the object and its allocating call
 * (named by @namer, may be NULL), the cause, the fix.
 */
void align_finding__explain(const struct array_align *a, const struct align_finding *af,
			    fields_ip_namer namer, void *ctx, struct strbuf *out);

#endif
