/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_UTIL_U64MAP_H
#define LINEUP_UTIL_U64MAP_H

/*
 * An open-addressing hash map from a 64-bit key to a 64-bit value (an index into the
 * caller's array, usually).  The map owns its slots; free them with u64map__exit().
 */

#include <stddef.h>
#include <stdint.h>

struct u64map {
	uint64_t *keys;
	uint64_t *vals;
	unsigned char *used;
	size_t nr, cap;
};

void u64map__init(struct u64map *m);
void u64map__exit(struct u64map *m);
/* Insert or overwrite. */
void u64map__set(struct u64map *m, uint64_t key, uint64_t val);
/* 1 and *val when present, 0 otherwise. */
int u64map__get(const struct u64map *m, uint64_t key, uint64_t *val);
/* Remove @key if present. */
void u64map__del(struct u64map *m, uint64_t key);

#endif
