// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "util/u64map.h"

#include <stdlib.h>

#include "util/xalloc.h"

static size_t slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

void u64map__init(struct u64map *m)
{
	m->keys = m->vals = NULL;
	m->used = NULL;
	m->nr = m->cap = 0;
}

void u64map__exit(struct u64map *m)
{
	zfree(&m->keys);
	zfree(&m->vals);
	zfree(&m->used);
	m->nr = m->cap = 0;
}

static void grow(struct u64map *m)
{
	struct u64map n;

	n.cap = m->cap ? m->cap * 2 : 64;
	n.nr = 0;
	n.keys = xcalloc(n.cap, sizeof(*n.keys));
	n.vals = xcalloc(n.cap, sizeof(*n.vals));
	n.used = xcalloc(n.cap, 1);
	for (size_t i = 0; i < m->cap; i++)
		if (m->used[i])
			u64map__set(&n, m->keys[i], m->vals[i]);
	u64map__exit(m);
	*m = n;
}

void u64map__set(struct u64map *m, uint64_t key, uint64_t val)
{
	size_t i;

	if ((m->nr + 1) * 4 > m->cap * 3)
		grow(m);
	for (i = slot_of(key, m->cap); m->used[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key) {
			m->vals[i] = val;
			return;
		}
	m->used[i] = 1;
	m->keys[i] = key;
	m->vals[i] = val;
	m->nr++;
}

int u64map__get(const struct u64map *m, uint64_t key, uint64_t *val)
{
	if (!m->cap)
		return 0;
	for (size_t i = slot_of(key, m->cap); m->used[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key) {
			if (val)
				*val = m->vals[i];
			return 1;
		}
	return 0;
}

void u64map__del(struct u64map *m, uint64_t key)
{
	size_t i, j;

	if (!m->cap)
		return;
	for (i = slot_of(key, m->cap); m->used[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			break;
	if (!m->used[i])
		return;
	/* Backward-shift deletion keeps every probe chain unbroken without tombstones. */
	m->used[i] = 0;
	m->nr--;
	for (j = (i + 1) & (m->cap - 1); m->used[j]; j = (j + 1) & (m->cap - 1)) {
		size_t home = slot_of(m->keys[j], m->cap);

		if ((j > i && (home <= i || home > j)) || (j < i && (home <= i && home > j))) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			m->used[i] = 1;
			m->used[j] = 0;
			i = j;
		}
	}
}
