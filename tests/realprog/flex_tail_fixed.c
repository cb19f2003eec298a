// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * flex_tail.c fixed: each thread's struct cstat is aligned (and so padded) to a cache line,
 * which also puts the flexible array a line after the header: no two threads write one line,
 * and the read-mostly header has its line to itself.
 *   usage: flex_tail THREADS ITERATIONS
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

static struct cstats *hdr;
static char text[4096];		/* the input: chars may alias the counters, so they stay in memory */
static long iterations;

static void *worker(void *arg)
{
	long t = (long)arg;

	for (long i = 0; i < iterations; i++) {
		char c = text[i % sizeof(text)];

		if (t < __atomic_load_n(&hdr->nr, __ATOMIC_RELAXED)) {	/* READ_ONCE */
			hdr->tail[t].hits++;
			if (c == ' ')
				hdr->tail[t].misses++;
		}
	}
	return (void *)hdr->tail[t].hits;	/* the total, read where it was written */
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
	hdr = aligned_alloc(64, sizeof(*hdr) + n * sizeof(hdr->tail[0]));
	if (!hdr)
		return 1;
	memset(hdr, 0, sizeof(*hdr) + n * sizeof(hdr->tail[0]));
	hdr->name = "chars";
	hdr->nr = n;
	for (long t = 0; t < n; t++)
		pthread_create(&th[t], NULL, worker, (void *)t);
	for (long t = 0; t < n; t++) {
		void *r;

		pthread_join(th[t], &r);
		hits += (long)r;
	}
	printf("%s: %ld\n", hdr->name, hits);
	free(hdr);
	return 0;
}
