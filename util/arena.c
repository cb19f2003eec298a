// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "util/arena.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

struct arena_chunk {
	struct arena_chunk *next;
	size_t size;
	max_align_t data[];
};

#define ARENA_CHUNK (64 * 1024)

void *arena__alloc(struct arena *a, size_t size)
{
	size = (size + 15) & ~(size_t)15;
	if (!a->head || a->used + size > a->cap) {
		size_t cap = size > ARENA_CHUNK ? size : ARENA_CHUNK;
		struct arena_chunk *c = xmalloc(sizeof(*c) + cap);

		c->size = cap;
		c->next = a->head;
		a->head = c;
		a->used = 0;
		a->cap = cap;
	}
	void *p = (char *)a->head->data + a->used;

	a->used += size;
	return p;
}

void *arena__zalloc(struct arena *a, size_t size)
{
	void *p = arena__alloc(a, size);

	memset(p, 0, size);
	return p;
}

char *arena__strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena__alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena__strdup(struct arena *a, const char *s)
{
	return s ? arena__strndup(a, s, strlen(s)) : NULL;
}

void arena__reset(struct arena *a)
{
	struct arena_chunk *c = a->head;

	if (!c)
		return;
	while (c->next) {
		struct arena_chunk *n = c->next;

		c->next = n->next;
		free(n);
	}
	a->used = 0;
	a->cap = c->size;
}

void arena__release(struct arena *a)
{
	while (a->head) {
		struct arena_chunk *n = a->head->next;

		free(a->head);
		a->head = n;
	}
	a->used = a->cap = 0;
}
