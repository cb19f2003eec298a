// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Items dealt out to the threads in turn: thread t scores items t, t+N, t+2N, ... of an array
 * of int scores (N threads), pass after pass, as a loop split with a stride would.  Each
 * thread's elements lie N * 4 bytes apart, so every cache line holds every thread's scores
 * and is written by all of them (issue 20, item 5: lineup blamed the allocation, "the parts
 * are not whole lines long" at -O0 and "whole lines shifted by 48 bytes" at -O2, and
 * proposed aligned_alloc, which changes nothing here).  The fix (interleaved_fixed.c): each
 * thread takes a contiguous range of the items.
 * usage: interleaved THREADS PASSES
 */
#include <pthread.h>
#include <stdlib.h>

#define NITEMS 4096

static int *scores;
static long nthreads, passes;

static void *worker(void *arg)
{
	long t = (long)arg;

	for (long p = 0; p < passes; p++)
		for (long i = t; i < NITEMS; i += nthreads)
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
	scores = calloc(NITEMS, sizeof(*scores));
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
