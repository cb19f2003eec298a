// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "analyzer/watch_object.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void watch_object__init(struct watch_object *o, unsigned int line_size, unsigned int nr_cpus)
{
	memset(o, 0, sizeof(*o));
	o->line_size = line_size ? line_size : 64;
	o->nr_cpus = nr_cpus ? nr_cpus : 1;
}

void watch_object__exit(struct watch_object *o)
{
	for (size_t i = 0; i < o->nr_members; i++) {
		free(o->members[i].name);
		free(o->members[i].st.cpu_kinds);
	}
	free(o->members);
	free(o->order);
	memset(o, 0, sizeof(*o));
}

void watch_object__copy(struct watch_object *dst, const struct watch_object *src)
{
	size_t kinds = (size_t)src->nr_cpus * WR_NR_KINDS;

	*dst = *src;
	dst->members = xcalloc(src->nr_members ? src->nr_members : 1, sizeof(*dst->members));
	for (size_t i = 0; i < src->nr_members; i++) {
		const struct watch_member *m = &src->members[i];

		dst->members[i] = *m;
		dst->members[i].name = xstrdup(m->name);
		if (m->st.cpu_kinds) {
			dst->members[i].st.cpu_kinds = xcalloc(kinds, sizeof(uint64_t));
			memcpy(dst->members[i].st.cpu_kinds, m->st.cpu_kinds, kinds * sizeof(uint64_t));
		}
	}
	dst->order = xcalloc(src->nr_order ? src->nr_order : 1, sizeof(*dst->order));
	memcpy(dst->order, src->order, src->nr_order * sizeof(*dst->order));
}

void watch_object__reset(struct watch_object *o)
{
	o->addr = 0;
	for (size_t i = 0; i < o->nr_members; i++) {
		free(o->members[i].st.cpu_kinds);
		memset(&o->members[i].st, 0, sizeof(o->members[i].st));
		o->members[i].watched_ns = 0;
	}
}

int watch_object__add_member(struct watch_object *o, const char *name, uint64_t offset,
			     uint64_t size)
{
	struct watch_member *m;

	o->members = xrealloc(o->members, (o->nr_members + 1) * sizeof(*o->members));
	m = &o->members[o->nr_members];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	m->offset = offset;
	m->size = size ? size : 1;
	return (int)o->nr_members++;
}

void watch_object__watch(struct watch_object *o, int i)
{
	o->order = xrealloc(o->order, (o->nr_order + 1) * sizeof(*o->order));
	o->order[o->nr_order++] = i;
}

void watch_object__place_words(struct watch_object *o)
{
	for (size_t k = 0; k < o->nr_order; k++) {
		struct watch_member *m = &o->members[o->order[k]];
		uint64_t a = o->addr + m->offset;
		uint32_t len = 8;

		/* A breakpoint watches 1, 2, 4 or 8 aligned bytes: the largest that fits. */
		while (len > 1 && (len > m->size || a % len))
			len /= 2;
		m->wlen = len;
		m->st.addr = a;
		m->st.wlen = len;
	}
}

uint64_t watch_object__nr_lines(const struct watch_object *o)
{
	uint64_t ls = o->line_size;

	return (o->addr + (o->size ? o->size : 1) - 1) / ls - o->addr / ls + 1;
}

uint64_t watch_object__line_of(const struct watch_object *o, const struct watch_member *m)
{
	return (o->addr + m->offset) / o->line_size - o->addr / o->line_size;
}

uint64_t watch_member__cover(const struct watch_member *m, double secs)
{
	return secs > 0 ? (uint64_t)(m->watched_ns / 1e9 / secs * 1000 + 0.5) : 0;
}

/* Distinct CPUs that wrote @m's word, added to the bitmap @cpus (nr_cpus bits). */
static void add_writers(const struct watch_object *o, const struct watch_member *m,
			uint64_t *cpus)
{
	if (!m->st.cpu_kinds)
		return;
	for (unsigned int c = 0; c < o->nr_cpus; c++)
		if (wr_kinds__writes(&m->st.cpu_kinds[(size_t)c * WR_NR_KINDS]))
			cpus[c / 64] |= 1ULL << (c % 64);
}

size_t watch_object__lines(const struct watch_object *o, struct watch_line **out)
{
	size_t nr = (size_t)watch_object__nr_lines(o), words = (o->nr_cpus + 63) / 64;
	struct watch_line *lines = xcalloc(nr ? nr : 1, sizeof(*lines));
	uint64_t *cpus = xcalloc(words, sizeof(*cpus));
	uint64_t first = o->addr / o->line_size;

	for (size_t i = 0; i < nr; i++) {
		struct watch_line *l = &lines[i];

		l->line = i;
		memset(cpus, 0, words * sizeof(*cpus));
		for (size_t k = 0; k < o->nr_order; k++) {
			const struct watch_member *m = &o->members[o->order[k]];

			if (m->st.addr / o->line_size != first + i || !m->watched_ns)
				continue;
			l->members = xrealloc(l->members, (l->nr_members + 1) * sizeof(int));
			l->members[l->nr_members++] = o->order[k];
			l->hits += m->st.hits;
			l->writes += wr_kinds__writes(m->st.kinds);
			l->transfers += m->st.transfers;
			add_writers(o, m, cpus);
		}
		for (size_t w = 0; w < words; w++)
			l->writer_cpus += (unsigned int)__builtin_popcountll(cpus[w]);
	}
	free(cpus);
	*out = lines;
	return nr;
}

void watch_lines__free(struct watch_line *lines, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(lines[i].members);
	free(lines);
}

size_t watch_object__not_watched(const struct watch_object *o, bool watched_only, int *out)
{
	size_t n = 0;

	for (size_t i = 0; i < o->nr_top; i++) {
		const struct watch_member *t = &o->members[i];
		bool covered = false;

		for (size_t k = 0; k < o->nr_order && !covered; k++) {
			const struct watch_member *c = &o->members[o->order[k]];

			covered = (!watched_only || c->watched_ns) && c->offset >= t->offset &&
				  c->offset < t->offset + t->size;
		}
		if (!covered)
			out[n++] = (int)i;
	}
	return n;
}

size_t watch_object__never_watched(const struct watch_object *o)
{
	size_t n = 0;

	for (size_t k = 0; k < o->nr_order; k++)
		n += !o->members[o->order[k]].watched_ns;
	return n;
}
