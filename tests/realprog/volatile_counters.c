// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-thread event counters in a volatile array inside a stats struct, as code written before
 * C11 atomics counts: `volatile long hits[4]`, worker t incrementing hits[t], the main thread
 * reading them all at the end.  The four counters share a line: false sharing between the
 * array's elements, each written by its own thread (never true sharing).  gcc describes the
 * member as volatile over an array of volatile long, clang as an array of volatile long.
 * The fix (volatile_counters_fixed.c): a line for each counter.
 *
 * usage: volatile_counters [THREADS [ITEMS]]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct stats {
	volatile long hits[4];
	long items;
};

static struct stats stats;

static void *worker(void *arg)
{
	long t = (long)arg;
	unsigned long h = 0;

	for (long i = 0; i < stats.items; i++) {
		h = h * 31 + (unsigned long)i;	/* the item's work */
		if (h & 1)
			stats.hits[t]++;
	}
	return (void *)h;
}

int main(int argc, char **argv)
{
	pthread_t tid[4];
	long nthreads = 2, total = 0;

	stats.items = 400000;
	if (argc > 1)
		nthreads = atol(argv[1]);
	if (argc > 2)
		stats.items = atol(argv[2]);
	if (nthreads < 1 || nthreads > 4 || stats.items < 0)
		return 2;
	for (long t = 0; t < nthreads; t++)
		pthread_create(&tid[t], NULL, worker, (void *)t);
	for (long t = 0; t < nthreads; t++)
		pthread_join(tid[t], NULL);
	for (long t = 0; t < nthreads; t++)
		total += stats.hits[t];
	printf("%ld\n", total);
	return 0;
}
