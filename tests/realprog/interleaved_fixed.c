// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * interleaved.c fixed as lineup says: each thread scores a contiguous range of the items
 * (thread t: [t * NITEMS / N, (t + 1) * NITEMS / N)), the ranges whole lines long (1024 ints
 * for 4 threads) in a line-aligned array, so no line holds two threads' scores.  Each thread
 * zeroes its own range (calloc's pages, in the bug, were zero without a write).
 * usage: interleaved_fixed THREADS PASSES
 */
#include <pthread.h>
#include <stdlib.h>

#define NITEMS 4096
#define LINE 64

static int *scores;
static long nthreads, passes;

static void *worker(void *arg)
{
	long t = (long)arg;
	long per = (NITEMS / nthreads + LINE / sizeof(int) - 1) / (LINE / sizeof(int)) *
		   (LINE / sizeof(int));	/* whole lines */
	long lo = t * per, hi = lo + per < NITEMS ? lo + per : NITEMS;

	for (long i = lo; i < hi; i++)	/* first touch: each thread its own range */
		scores[i] = 0;
	for (long p = 0; p < passes; p++)
		for (long i = lo; i < hi; i++)
			scores[i] += (int)((i ^ p) & 7);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t tid[64];
	long sum = 0;

	nthreads = argc > 1 ? atol(argv[1]) : 4;
	passes = argc > 2 ? atol(argv[2]) : 20;
	if (nthreads < 1 || nthreads > 64 || passes < 0)
		return 2;
	scores = aligned_alloc(LINE, NITEMS * sizeof(*scores));
	if (!scores)
		return 1;
	for (long t = 0; t < nthreads; t++)
		pthread_create(&tid[t], NULL, worker, (void *)t);
	for (long t = 0; t < nthreads; t++)
		pthread_join(tid[t], NULL);
	for (long i = 0; i < NITEMS; i++)
		sum += scores[i];
	free(scores);
	return sum < 0;
}
