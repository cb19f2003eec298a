/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_SUGGEST_TARGETS_H
#define LINEUP_ANALYZER_SUGGEST_TARGETS_H

/*
 * The structs a recording's attributed accesses fall on, each with a suggester of its own
 * (analyzer/suggest.h) fed in time order, its units' hottest code, and once decided the new
 * order built by the compiler's rules: what `lineup suggest` and any other front end (the
 * browser) collect before they print.
 *
 *	struct suggest_targets ts;
 *	suggest_targets__init(&ts, &cfg);
 *	for each attributed access, in time order: suggest_targets__add(&ts, &res, &a)
 *	suggest_targets__add_rmw(&ts, rmw, n);		the collector's redundant-RMW counts
 *	suggest_targets__sort(&ts);			most HITMs first
 *	suggest_targets__set_verdicts(&ts, fields);	lineup fields' line verdicts
 *	for each target chosen: suggest_target__decide(&ts.v[i], &arena)
 *	suggest_target__top_ip(t, unit, write, &ip)	the code to name in the comment
 *	suggest_targets__release(&ts);
 *
 * Pure (libc only).  Ownership: the targets own their plans, suggesters and counts; the
 * flat layouts they point to are borrowed from the attribution, which must outlive them; a
 * built layout lives in the arena given to decide.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyzer/suggest.h"
#include "analyzer/suggest_layout.h"
#include "util/u64map.h"

struct arena;
struct attr_result;
struct fields;
struct fields_access;
struct fields_rmw;
struct flat_layout;

/**
 * struct suggest_targets_config - how every target's suggester is set up.
 * @line_size:	the cache-line size
 * @max_growth:	bytes the struct may grow by (suggest_config.max_growth)
 * @pins, @nr_pins: members kept at their offsets (--pin), in every struct that has them
 */
struct suggest_targets_config {
	unsigned int line_size;
	uint64_t max_growth;
	const char *const *pins;
	unsigned int nr_pins;
};

/**
 * struct suggest_target - one struct seen in the recording.
 * @flat:	its flattened layout (the attribution's)
 * @plan, @planned: the struct cut into units, when it could be (@plan_rc < 0 and @plan_err
 *		say why not; -ENOENT: a pin that names no member, bad usage)
 * @sg:		its suggester (NULL when not planned)
 * @hitm, @samples: its attributed accesses, and the HITMs among them
 * @res:	the suggester's result, once decided; @built the new order's layout
 * @selected:	for the caller: chosen to be shown
 */
struct suggest_target {
	const struct flat_layout *flat;
	struct suggest_plan plan;
	bool planned;
	int plan_rc;
	char plan_err[256];
	struct suggest *sg;
	uint64_t hitm, samples;
	struct u64map top_write, top_read;	/* unit -> hottest ip */
	struct u64map ip_count;			/* hash of (unit, write, ip) -> count */
	struct suggest_result res;
	struct layout_type *built;
	bool selected;
};

struct suggest_targets {
	struct suggest_targets_config cfg;
	struct suggest_target *v;
	size_t nr, cap;
	struct u64map index;		/* flat_layout pointer -> index in @v */
	uint64_t attributed;		/* accesses that fell on a struct */
};

void suggest_targets__init(struct suggest_targets *ts, const struct suggest_targets_config *cfg);
void suggest_targets__release(struct suggest_targets *ts);

/* One access @a (classified) attributed as @res: counted for its struct, if it has one. */
void suggest_targets__add(struct suggest_targets *ts, const struct attr_result *res,
			  const struct fields_access *a);

/* The collector's counts of RMWs that changed nothing, on the units whose code made them. */
void suggest_targets__add_rmw(struct suggest_targets *ts, const struct fields_rmw *rmw, size_t n);

/* Most HITMs first, then most samples (the index is rebuilt). */
void suggest_targets__sort(struct suggest_targets *ts);

/*
 * lineup fields' verdicts on the contended lines of @f (finished), to each target whose
 * instances they hold (suggest__set_verdicts): per unit, what the lines say of its slots.
 * Before deciding, so that suggest says of a line what fields does.
 */
void suggest_targets__set_verdicts(struct suggest_targets *ts, const struct fields *f);

/*
 * Decide @t: the order, the compiler's layout of it (into @arena), the prediction on that
 * layout.  A struct not planned is left alone; a layout that cannot be built makes the result
 * SUGGEST_REFUSED with the reason in its message.
 */
void suggest_target__decide(struct suggest_target *t, struct arena *arena);

/* The hottest code address writing (@write) or reading @unit: true and *@ip, or false. */
bool suggest_target__top_ip(const struct suggest_target *t, unsigned int unit, bool write,
			    uint64_t *ip);

#endif
