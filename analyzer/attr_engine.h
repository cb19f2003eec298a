/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_ATTR_ENGINE_H
#define LINEUP_ANALYZER_ATTR_ENGINE_H

/*
 * Field attribution over one recording, the deciding part: it asks the evidence sources about
 * each memory sample (the operand type at the IP and the variable at the data address, which
 * dwarf/ knows; the allocation records it keeps itself; the --type hints), turns their
 * answers into facts (an indexed operand placed on its array element, a scalar variable or
 * heap array given a one-member layout, an untyped heap block typed by the variable its
 * allocating call stores it to) and lets attribution__resolve() decide.
 *
 *	attr_engine__init(&e);  attr_engine__add_hint(&e, "struct T@ADDR") ...
 *	allocation records: alloc_index__add(&e.allocs, ...) / alloc_index__free(...)
 *	for each memory sample: attr_engine__resolve(&e, &sources, &sample, &res)
 *	warnings: while ((w = attr_engine__next_warning(&e))) print w
 *
 * Pure: the sources are callbacks (sampling/fields_attr.c wires dwarf/ and the machine model
 * to them); warnings are returned as text, never printed.
 *
 * Ownership: the engine owns its allocation index, hints, synthetic layouts, the strings it
 * was given with attr_engine__own() and its warnings; attr_engine__exit() frees them.  Type
 * names and origins in answers are borrowed and must outlive the engine.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyzer/attribution.h"
#include "util/u64map.h"

/* One memory sample, as attribution needs it. */
struct fields_sample {
	uint64_t ip, addr, time, weight, data_src;
	uint32_t pid, tid, cpu;
	uint16_t cpumode;
};

/* The collector's count of RMWs at an IP and of those that changed nothing. */
struct fields_rmw {
	uint64_t ip, total, redundant;
};

/**
 * struct attr_answer - what a debug-info source says about an address.
 * @type:	the type of the object, as C spells it
 * @offset:	how far into that object the address lies (negative: before it)
 * @index_scale: for an indexed operand (disp(base,index,scale)), the scale: the index's value
 *		is unknown, so @offset is only disp, and where in the object the access lies
 *		waits for a fact that places the object
 * @scalar:	the variable is no struct (an int, an array of them): @var names it, @size and
 *		@elem_size give its extent
 * @origin:	what said so ("rdi (f) in lineup_file_get", "var jiffies")
 */
struct attr_answer {
	const char *type;
	int64_t offset;
	uint32_t index_scale;
	bool scalar;
	const char *var;
	uint64_t size, elem_size;
	const char *origin;
};

/**
 * struct attr_sources - the questions the engine asks, each of one sample.
 * @operand:	the type of the instruction's memory operand at the IP: ATTR_OK with @a, or why
 *		not
 * @variable:	the global or static variable holding the data address: ATTR_OK with @a
 *		(@a->type NULL: not a question for variables, e.g. heap or stack), or why not
 * @alloc_site:	the type an allocating call at @site of process @pid stores its @size-byte block
 *		as: 0 with @a (@a->type NULL: a void *, @a->var its name; @a->offset: how far
 *		into the block the variable points, new T[n]'s array after its count), else
 *		nonzero
 * @find_type:	a type's flat layout, NULL when no object at hand has it
 */
struct attr_sources {
	enum attr_reason (*operand)(void *ctx, const struct fields_sample *s,
				    struct attr_answer *a);
	enum attr_reason (*variable)(void *ctx, const struct fields_sample *s,
				     struct attr_answer *a);
	int (*alloc_site)(void *ctx, uint32_t pid, uint64_t site, uint64_t size,
			  struct attr_answer *a);
	const struct flat_layout *(*find_type)(void *ctx, const char *type);
	void *ctx;
};

struct attr_scalar;
struct attr_block;
struct attr_flex;

/**
 * struct attr_vote - what the typed accesses to one heap block say its elements are.
 * @type:	the type an access's operand named (borrowed from the sources)
 * @size:	its size: the element size it implies
 * @phase:	where the first whole element starts in the block (a header may come first)
 * @accesses:	samples that said so
 * @nr_sites:	distinct code addresses among them
 */
struct attr_vote {
	const char *type;
	uint64_t size, phase;
	uint64_t accesses;
	size_t nr_sites;
	uint64_t *sites;
	size_t cap_sites;
};

/*
 * Of @nr votes about one @block_size-byte block, the element type to believe, by evidence:
 * each vote counts its own accesses and those of the votes whose type lies inside its
 * elements at the place they were seen (an operand typed as a member's struct supports its
 * container); an element size that tiles the block from its phase outranks one that does
 * not; then the most accesses, the most sites.  Returns its index, -1 when @nr is 0.
 */
int attr_votes__choose(const struct attr_vote *v, size_t nr, uint64_t block_size,
		       const struct attr_types *types);

/**
 * struct attr_indexed - an indexed operand's answer: the object's type, but not its start.
 * @type:	the type the base register points to (NULL: no indexed operand)
 * @disp:	the displacement into it, before index * @scale is added
 */
struct attr_indexed {
	const char *type, *origin;
	int64_t disp;
	uint32_t scale;
};

/**
 * struct attr_pending - a sample whose answer waits for all of them (attr_engine__resolve_later,
 * attr_engine__settle): in a heap block whose type its accesses tell, or at an indexed
 * operand whose object's start another access may tell.
 * @block:	1 + the block's index; 0 when no block waits
 * @addr:	the sample's data address
 * @operand:	the fact the access's own operand gave (kind ATTR_NONE: none)
 * @indexed:	an indexed operand not yet placed (@indexed.type NULL: none)
 */
struct attr_pending {
	uint32_t block;
	uint64_t addr;
	struct attr_fact operand;
	struct attr_indexed indexed;
};

/* Whether @p's answer waits for attr_engine__settle(). */
static inline bool attr_pending__waits(const struct attr_pending *p)
{
	return p->block || p->indexed.type;
}

struct attr_start;

struct attr_engine {
	struct alloc_index allocs;
	bool prepared;
	struct attr_fact *hints;
	size_t nr_hints;
	const char *const *cache_types;	/* "NAME=TYPE" from the user, borrowed */
	size_t nr_cache_types;
	struct attr_scalar **scalars;	/* newest first */
	size_t nr_scalars, cap_scalars;
	char **owned;
	size_t nr_owned, cap_owned;
	struct fields_rmw *rmw;
	size_t nr_rmw, cap_rmw;
	char **warnings;
	size_t nr_warnings, cap_warnings, next_warning;
	struct u64map warned;
	struct attr_flex *flex;		/* structs ending in a flexible array, and not */
	size_t nr_flex, cap_flex;
	struct attr_block **blocks;	/* heap blocks typed by their accesses */
	size_t nr_blocks, cap_blocks;
	struct u64map block_of;		/* allocation entry index -> index into blocks */
	struct u64map var_block;	/* a byte array variable's address -> index into blocks */
	struct attr_start *starts;	/* objects an unindexed operand placed */
	size_t nr_starts, cap_starts;
	struct u64map start_of;		/* start / 64 -> 1 + the newest start there */
	const struct attr_sources *src;	/* of the sample being resolved */
};

void attr_engine__init(struct attr_engine *e);
void attr_engine__exit(struct attr_engine *e);

/* NULL when @hint is 'TYPE'@ADDR, else what is wrong with it. */
const char *attr_hint__check(const char *hint);
/* Add a --type hint: 0, or -EINVAL when attr_hint__check() finds it wrong. */
int attr_engine__add_hint(struct attr_engine *e, const char *hint);
/* The index of the first hint whose type @known says no object has, or -1. */
int attr_engine__unknown_hint(struct attr_engine *e, bool (*known)(void *ctx, const char *type),
			      void *ctx);

/* The user's NAME=TYPE cache types (checked first), borrowed. */
void attr_engine__set_cache_types(struct attr_engine *e, const char *const *v, size_t n);
/* The type of the objects of kmem cache @cache (@len bytes), NULL when unknown. */
const char *attr_engine__cache_type(const struct attr_engine *e, const char *cache, size_t len);

/* Keep @s (allocated) until the engine is freed; returns it. */
const char *attr_engine__own(struct attr_engine *e, char *s);

void attr_engine__add_rmw(struct attr_engine *e, uint64_t ip, uint64_t total, uint64_t redundant);

/*
 * A warning, kept once per @key (0: always) for the front end to print: the text is
 * formatted as printf does.
 */
void attr_engine__warn(struct attr_engine *e, uint64_t key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The oldest warning not yet taken, or NULL. */
const char *attr_engine__next_warning(struct attr_engine *e);

/* A type's layout: a scalar's made here, else @src's. */
const struct flat_layout *attr_engine__find_type(struct attr_engine *e, const char *type);

/*
 * Attribute one memory sample: 0 resolved, 1 not (res->reason says why).  A sample in a heap
 * block of unknown type (malloc into a void *, placement new into raw memory) is typed by
 * what the block's accesses seen so far say (see attr_votes__choose).
 */
int attr_engine__resolve(struct attr_engine *e, const struct attr_sources *src,
			 const struct fields_sample *s, struct attr_result *res);

/*
 * The same, for a caller that can wait for the last sample: where the answer depends on a
 * heap block's type, or on where an indexed operand's object starts, attr_pending__waits(@p);
 * after attr_engine__finish(), attr_engine__settle() gives the answer all the accesses
 * support.
 */
int attr_engine__resolve_later(struct attr_engine *e, const struct attr_sources *src,
			       const struct fields_sample *s, struct attr_result *res,
			       struct attr_pending *p);
/* Decide every block's type; where its accesses disagree, say which won and why (a warning). */
void attr_engine__finish(struct attr_engine *e);
/* The final answer for a pending sample: 0 resolved, 1 not. */
int attr_engine__settle(struct attr_engine *e, const struct attr_pending *p,
			struct attr_result *res);

#endif
