/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_UTIL_ARENA_H
#define LINEUP_UTIL_ARENA_H

/*
 * A bump allocator for data that dies all at once: a loaded object's layouts and names, a
 * layout built from scratch, a flattened layout's paths.
 *
 * Ownership: an arena owns everything allocated from it; arena__reset keeps the first chunk and
 * frees the rest (for reuse, one compilation unit at a time), arena__release frees all.  Strings
 * are copied in, never borrowed.  A zeroed struct arena is an empty one.
 */
#include <stddef.h>

struct arena_chunk;

struct arena {
	struct arena_chunk *head;
	size_t used;		/* bytes used in head */
	size_t cap;		/* bytes available in head */
};

/* 16-byte aligned memory; aborts when memory runs out (xmalloc). */
void *arena__alloc(struct arena *a, size_t size);
void *arena__zalloc(struct arena *a, size_t size);
/* NULL for NULL */
char *arena__strdup(struct arena *a, const char *s);
char *arena__strndup(struct arena *a, const char *s, size_t n);
void arena__reset(struct arena *a);
void arena__release(struct arena *a);

#endif
