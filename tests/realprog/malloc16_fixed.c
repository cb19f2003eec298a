// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * malloc16.c fixed as a reviewer would: the array of 64-byte per-worker elements is allocated
 * line-aligned (aligned_alloc), so each element is exactly one cache line of its own.
 * usage: malloc16_fixed THREADS ITERATIONS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORKERS 4096

struct worker_stats {
	unsigned long ops;
	unsigned long bytes;
	unsigned long errors;
	unsigned long retries;
	unsigned long lat_sum;
	unsigned long lat_min;
	unsigned long lat_max;
	unsigned long last;
};

static struct worker_stats *stats;	/* room for MAX_WORKERS, allocated once */
static long iterations;

static void *worker(void *arg)
{
	volatile struct worker_stats *s = &stats[(long)arg];

	memset((void *)s, 0, sizeof(*s));	/* each worker sets up its own element */
	s->lat_min = ~0UL;
	for (long i = 0; i < iterations; i++) {
		unsigned long lat = (unsigned long)(i * 7 + (long)arg) % 97;

		s->ops++;
		s->bytes += lat * 16;
		s->lat_sum += lat;
		if (lat < s->lat_min)
			s->lat_min = lat;
		if (lat > s->lat_max)
			s->lat_max = lat;
		s->last = lat;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	long nthreads = argc > 1 ? atol(argv[1]) : 2;
	pthread_t tid[64];
	unsigned long ops = 0;

	iterations = argc > 2 ? atol(argv[2]) : 1000000;
	if (nthreads < 1 || nthreads > 64)
		return 2;
	stats = aligned_alloc(64, MAX_WORKERS * sizeof(*stats));	/* 64 divides the size */
	if (!stats)
		return 1;
	for (long t = 0; t < nthreads; t++)
		pthread_create(&tid[t], NULL, worker, (void *)t);
	for (long t = 0; t < nthreads; t++) {
		pthread_join(tid[t], NULL);
		ops += stats[t].ops;
	}
	printf("%lu ops\n", ops);
	free(stats);
	return 0;
}
