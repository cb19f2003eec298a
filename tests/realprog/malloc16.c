// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-worker statistics in a malloc'd array of 64-byte elements: each worker updates only its
 * own element, and the element is exactly one cache line, so the author expected no sharing.
 * But malloc aligns to 16 bytes, not 64 (a block this large is mmapped, 16 bytes into a
 * page): every element straddles two lines, and each line is shared by the tail of one
 * worker's element and the head of the next one's.
 * usage: malloc16 THREADS ITERATIONS
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
	stats = malloc(MAX_WORKERS * sizeof(*stats));
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
