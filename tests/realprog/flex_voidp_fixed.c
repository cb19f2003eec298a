// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * flex_voidp.c fixed: each thread's struct cstat is aligned (and so padded) to a cache line,
 * which also puts the flexible array a line after the header: no two threads write one line,
 * and the read-mostly header has its line to itself.
 *   usage: flex_voidp THREADS ITERATIONS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cstat {		/* one line per thread */
	long hits;
	long misses;
} __attribute__((aligned(64)));

struct cstats {
	const char *name;	/* read-mostly */
	long nr;		/* read-mostly: the number of elements */
	struct cstat tail[];	/* one per thread */
};

static void *area;		/* a struct cstats and its elements, as raw memory */
static char text[4096];		/* the input: chars may alias the counters, so they stay in memory */
static long iterations;

static void *worker(void *arg)
{
	long t = (long)arg;
	struct cstats *h = area;
	struct cstat *me = &h->tail[t];

	for (long i = 0; i < iterations; i++) {
		char c = text[i % sizeof(text)];

		if (t < __atomic_load_n(&h->nr, __ATOMIC_RELAXED)) {	/* READ_ONCE */
			me->hits++;
			if (c == ' ')
				me->misses++;
		}
	}
	return (void *)me->hits;	/* the total, read where it was written */
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 4, hits = 0;
	pthread_t th[64];

	iterations = argc > 2 ? atol(argv[2]) : 200000;
	if (n < 1 || n > 64 || iterations < 1)
		return 2;
	for (size_t i = 0; i < sizeof(text); i++)
		text[i] = i % 6 == 5 ? ' ' : 'a' + i % 26;
	area = aligned_alloc(64, sizeof(struct cstats) + n * sizeof(struct cstat));
	if (!area)
		return 1;
	memset(area, 0, sizeof(struct cstats) + n * sizeof(struct cstat));
	((struct cstats *)area)->name = "chars";
	((struct cstats *)area)->nr = n;
	for (long t = 0; t < n; t++)
		pthread_create(&th[t], NULL, worker, (void *)t);
	for (long t = 0; t < n; t++) {
		void *r;

		pthread_join(th[t], &r);
		hits += (long)r;
	}
	printf("%s: %ld\n", ((struct cstats *)area)->name, hits);
	free(area);
	return 0;
}
