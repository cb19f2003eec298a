/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_WATCH_OBJECT_H
#define LINEUP_ANALYZER_WATCH_OBJECT_H

/*
 * What `lineup watch` learns about one object: its members, the word of each that a
 * breakpoint watched and for how long, the replayed counts (analyzer/watch_replay.h), and
 * what they add up to per cache line.  The line size and the number of CPUs are parameters:
 * nothing here assumes 64-byte lines or 64 CPUs.
 *
 * Pure: no I/O, no globals.  The front end (cli/cmd_watch.c) runs the breakpoints, fills
 * the members and renders these tables.
 *
 * Ownership: struct watch_object owns its members (names and cpu_kinds included) and its
 * order; watch_object__exit() frees them.  watch_object__lines() returns an array the caller
 * frees with watch_lines__free().
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyzer/watch_replay.h"

/**
 * struct watch_member - one member of the object, watched or not.
 * @name:	as the report names it ("f_ref"; an anonymous union by its alternatives, "a|b")
 * @offset, @size: its place in the object
 * @wlen:	the watched word: the member's first @wlen bytes (1, 2, 4 or 8, aligned)
 * @watched_ns: how long a breakpoint was on it
 * @st:	the replay's counts; @st.addr is the watched word's address
 */
struct watch_member {
	char *name;
	uint64_t offset, size;
	uint32_t wlen;
	uint64_t watched_ns;
	struct wr_field st;
};

/**
 * struct watch_object - the object and its members.
 * @addr, @size: where it lives (0 until known)
 * @line_size:	the cache-line size (a power of two)
 * @nr_cpus:	the CPUs counted per member (cpu_kinds rows)
 * @members:	every top-level member first; with a chosen list (--fields), the chosen ones
 *		after them (@nr_top marks the boundary)
 * @order:	the members to watch, in rotation order (indexes into @members)
 */
struct watch_object {
	uint64_t addr, size;
	unsigned int line_size;
	unsigned int nr_cpus;
	struct watch_member *members;
	size_t nr_members, nr_top;
	int *order;
	size_t nr_order;
};

void watch_object__init(struct watch_object *o, unsigned int line_size, unsigned int nr_cpus);
void watch_object__exit(struct watch_object *o);

/*
 * A deep copy of @src into @dst (not initialized): members, names, counts, watch times and
 * order, for keeping an object's results once the next object takes its place.
 */
void watch_object__copy(struct watch_object *dst, const struct watch_object *src);

/* Make room for the next object of the same type: no address, no counts, no watch times. */
void watch_object__reset(struct watch_object *o);

/* Add a member (its name copied); returns its index. */
int watch_object__add_member(struct watch_object *o, const char *name, uint64_t offset,
			     uint64_t size);
/* Append member @i to the watch order. */
void watch_object__watch(struct watch_object *o, int i);

/* Once @addr is known: the watched word of each member in the order (aligned, <= 8 bytes). */
void watch_object__place_words(struct watch_object *o);

/* The number of cache lines the object spans, and the line of member @m (0 = the first). */
uint64_t watch_object__nr_lines(const struct watch_object *o);
uint64_t watch_object__line_of(const struct watch_object *o, const struct watch_member *m);

/* How long @m was watched, in tenths of a percent of @secs (the run's length). */
uint64_t watch_member__cover(const struct watch_member *m, double secs);

/* Stores, plain RMWs and locked RMWs of a cpu_kinds row or of a member. */
static inline uint64_t wr_kinds__writes(const uint64_t *k)
{
	return k[WR_STORE] + k[WR_RMW] + k[WR_LOCKED_RMW];
}

/**
 * struct watch_line - one cache line of the object: what the watched words on it add up to.
 * @line:	0 for the object's first line
 * @members:	the watched members on it (indexes into the object's members), in watch order
 * @writer_cpus: distinct CPUs that wrote any of them
 */
struct watch_line {
	uint64_t line;
	int *members;
	size_t nr_members;
	uint64_t hits, writes, transfers;
	unsigned int writer_cpus;
};

/*
 * One entry per line of the object, in address order; members that never had a breakpoint
 * are left out.  Returns the number of lines (watch_object__nr_lines()).
 */
size_t watch_object__lines(const struct watch_object *o, struct watch_line **out);
void watch_lines__free(struct watch_line *lines, size_t nr);

/*
 * The top-level members none of whose bytes a watched member covered, into @out (room for
 * nr_top indexes); returns how many.  @watched_only: count a chosen member only if it had a
 * breakpoint at some time (else being chosen is enough).
 */
size_t watch_object__not_watched(const struct watch_object *o, bool watched_only, int *out);

/* Members in the order that never had a breakpoint (rotation did not reach them). */
size_t watch_object__never_watched(const struct watch_object *o);

#endif
