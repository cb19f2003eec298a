/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_UTIL_HMAP_H
#define LINEUP_UTIL_HMAP_H

/*
 * A small open-addressing hash map with string keys (key) or integer keys (okey), for the
 * layout loaders' caches and indexes.
 *
 * Ownership: the map owns its slot array only (hmap__free); keys and values belong to the
 * caller (the loaders keep them in an arena).  A zeroed struct hmap is an empty map.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hmap_entry {
	uint64_t hash;
	const void *key;
	uint64_t okey;
	void *val;
};

struct hmap {
	struct hmap_entry *e;
	size_t cap, n;
};

/* Hashes for the map: never 0 (an empty slot). */
uint64_t hash_str(const char *s);
uint64_t hash_u64(uint64_t k);

/*
 * The entry for @skey (a string key; NULL for an integer key @okey) of hash @h; NULL when absent
 * and !@insert.  A new entry has its hash set and key NULL: the caller fills key/okey and val.
 */
struct hmap_entry *hmap__slot(struct hmap *m, uint64_t h, const char *skey, uint64_t okey,
			      bool insert);
void hmap__clear(struct hmap *m);
void hmap__free(struct hmap *m);

#endif
