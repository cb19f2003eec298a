// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "analyzer/id_set.h"

#include <string.h>

#include "util/xalloc.h"

void id_set__add(struct id_set *s, uint32_t id)
{
	uint32_t lo = 0, hi = s->nr;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (s->ids[mid] == id)
			return;
		if (s->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (s->nr == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 4;
		s->ids = xrealloc(s->ids, s->cap * sizeof(*s->ids));
	}
	memmove(s->ids + lo + 1, s->ids + lo, (s->nr - lo) * sizeof(*s->ids));
	s->ids[lo] = id;
	s->nr++;
}

bool id_set__has(const struct id_set *s, uint32_t id)
{
	uint32_t lo = 0, hi = s->nr;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (s->ids[mid] == id)
			return true;
		if (s->ids[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

void id_set__merge(struct id_set *dst, const struct id_set *src)
{
	for (uint32_t i = 0; i < src->nr; i++)
		id_set__add(dst, src->ids[i]);
}

void id_set__release(struct id_set *s)
{
	zfree(&s->ids);
	s->nr = s->cap = 0;
}

bool id_set__equal(const struct id_set *a, const struct id_set *b)
{
	return a->nr == b->nr && (!a->nr || !memcmp(a->ids, b->ids, a->nr * sizeof(*a->ids)));
}
