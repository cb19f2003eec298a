/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_ID_SET_H
#define LINEUP_ANALYZER_ID_SET_H

/*
 * A small sorted set of CPU or thread ids, for any number of CPUs (no bit masks).  The set owns
 * its array; id_set__release() frees it.  A zeroed struct is an empty set.
 */
#include <stdbool.h>
#include <stdint.h>

struct id_set {
	uint32_t *ids;
	uint32_t nr, cap;
};

void id_set__add(struct id_set *s, uint32_t id);
bool id_set__has(const struct id_set *s, uint32_t id);
void id_set__merge(struct id_set *dst, const struct id_set *src);
void id_set__release(struct id_set *s);

/* Same members. */
bool id_set__equal(const struct id_set *a, const struct id_set *b);

#endif
