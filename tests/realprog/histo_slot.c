// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-thread histograms, one 3000-byte slot per thread (750 bins of 4 bytes), in an array
 * that is cache-line aligned: the author aligned the array but not the element.  3000 is no
 * multiple of 64, so the last bins of one thread's slot share a line with the first bins of
 * the next thread's, and values out of range land exactly there (bin 0 and the last bin are
 * the underflow and overflow bins), as in Phoenix's histogram with its per-thread bins.
 * usage: histo_slot THREADS ITERATIONS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBINS 750

struct hist {
	unsigned int bins[NBINS];
};

static struct hist *hists;
static long iterations;

static void *worker(void *arg)
{
	long t = (long)arg;
	volatile unsigned int *bins = hists[t].bins;
	unsigned int seed = (unsigned int)t * 2654435761u + 1;

	memset((void *)bins, 0, sizeof(hists[t]));	/* each thread clears its own slot */
	for (long i = 0; i < iterations; i++) {
		int v;

		seed = seed * 1103515245u + 12345u;
		v = (int)(seed >> 16) % (3 * NBINS) - NBINS;	/* a third below, a third above */
		if (v < 0)
			v = 0;
		else if (v >= NBINS)
			v = NBINS - 1;
		bins[v]++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	long nthreads = argc > 1 ? atol(argv[1]) : 2;
	pthread_t tid[64];
	size_t size;
	unsigned long total = 0;

	iterations = argc > 2 ? atol(argv[2]) : 1000000;
	if (nthreads < 1 || nthreads > 64)
		return 2;
	size = (nthreads * sizeof(*hists) + 63) & ~(size_t)63;
	hists = aligned_alloc(64, size);
	if (!hists)
		return 1;
	for (long t = 0; t < nthreads; t++)
		pthread_create(&tid[t], NULL, worker, (void *)t);
	for (long t = 0; t < nthreads; t++) {
		pthread_join(tid[t], NULL);
		for (int b = 0; b < NBINS; b++)
			total += hists[t].bins[b];
	}
	printf("%lu values\n", total);
	free(hists);
	return 0;
}
