// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "util/hmap.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h | 1;
}

uint64_t hash_u64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k | 1;
}

static void hmap__grow(struct hmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 256;
	struct hmap_entry *e = xcalloc(cap, sizeof(*e));

	for (size_t i = 0; i < m->cap; i++) {
		if (!m->e[i].hash)
			continue;
		size_t j = (m->e[i].hash >> 7) & (cap - 1);

		while (e[j].hash)
			j = (j + 1) & (cap - 1);
		e[j] = m->e[i];
	}
	free(m->e);
	m->e = e;
	m->cap = cap;
}

struct hmap_entry *hmap__slot(struct hmap *m, uint64_t h, const char *skey, uint64_t okey,
			      bool insert)
{
	if (insert && (m->n + 1) * 2 > m->cap)
		hmap__grow(m);
	if (!m->cap)
		return NULL;
	/* bit 0 of a hash is always set (0 marks an empty slot): index with higher bits */
	for (size_t j = (h >> 7) & (m->cap - 1);; j = (j + 1) & (m->cap - 1)) {
		struct hmap_entry *e = &m->e[j];

		if (!e->hash) {
			if (!insert)
				return NULL;
			e->hash = h;
			m->n++;
			return e;
		}
		if (e->hash == h && (skey ? e->key && !strcmp(e->key, skey) : e->okey == okey))
			return e;
	}
}

void hmap__clear(struct hmap *m)
{
	if (m->n)
		memset(m->e, 0, m->cap * sizeof(*m->e));
	m->n = 0;
}

void hmap__free(struct hmap *m)
{
	zfree(&m->e);
	m->cap = m->n = 0;
}
