/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_UTIL_XALLOC_H
#define LINEUP_UTIL_XALLOC_H

#include <stddef.h>

/*
 * util/ -- what every layer uses and no layer owns: xalloc.h (allocation that aborts on
 * failure), strbuf.h (growable strings), arena.h (memory that dies at once: a loaded object's
 * types and names), hmap.h (string-keyed hash maps), file.h (opening files whose names came
 * from a recording or a binary, and reading small text files).  libc only, no policy.
 */

/*
 * Allocation wrappers that abort on failure (as htop's do): lineup's memory is bounded by
 * its aggregates, so running out of it is not a condition any caller can recover from.
 */
void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
/* Grow an array to hold at least @need elements of @size bytes; doubles the capacity. */
void *xgrow(void *ptr, size_t *cap, size_t need, size_t size);
/*
 * A 64-aligned block (its elements' hot fields whole cache lines), with 2 MB pages asked for
 * over its whole 2 MB pages (a hint: several MB read at random spare the TLB misses that hold
 * prefetches up).  Freed with free().
 */
void *xmalloc_lines(size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Free *pp and set it to NULL (perf's zfree). */
static inline void zfree_ptr(void *pp)
{
	extern void free(void *);
	void **p = pp;

	free(*p);
	*p = NULL;
}
#define zfree(pp) zfree_ptr(pp)

#endif
