// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "util/xalloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void __attribute__((noreturn)) oom(size_t size)
{
	fprintf(stderr, "lineup: out of memory (%zu bytes)\n", size);
	abort();
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		oom(size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		oom(nmemb * size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		oom(size);
	return p;
}

void *xmalloc_lines(size_t size)
{
	void *v;
	uintptr_t a, end;

	if (posix_memalign(&v, 64, size ? size : 1))
		v = xmalloc(size); /* (only when memory has run out: xmalloc says so) */
	a = ((uintptr_t)v + (2u << 20) - 1) & ~(uintptr_t)((2u << 20) - 1);
	end = ((uintptr_t)v + size) & ~(uintptr_t)((2u << 20) - 1);
	if (end > a)
		madvise((void *)a, end - a, MADV_HUGEPAGE);
	return v;
}

void *xgrow(void *ptr, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;

	if (need <= *cap)
		return ptr;
	while (n < need)
		n *= 2;
	if (size && n > (size_t)-1 / size)
		oom((size_t)-1);
	ptr = xrealloc(ptr, n * size);
	*cap = n;
	return ptr;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		oom(strlen(s));
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		oom(n);
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		oom(0);
	va_end(ap);
	return p;
}
