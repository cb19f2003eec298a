// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A lock and a counter per worker, in one global array (lock statistics, per-queue counters):
 * 48-byte elements, so a worker's lock and count share a line with its neighbour's, and
 * every increment moves the line between them.
 *   lockstat THREADS ITERATIONS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_WORKERS 16

struct lock_stat {
	pthread_mutex_t lock;
	long count;
};

static struct lock_stat stats[MAX_WORKERS];
static long iterations;

static void *worker(void *arg)
{
	struct lock_stat *s = &stats[(long)arg];

	for (long i = 0; i < iterations; i++) {
		pthread_mutex_lock(&s->lock);
		s->count++;
		pthread_mutex_unlock(&s->lock);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2, total = 0;
	pthread_t tid[MAX_WORKERS];

	iterations = argc > 2 ? atol(argv[2]) : 100000;
	if (n < 1 || n > MAX_WORKERS)
		return 2;
	for (long t = 0; t < n; t++)
		pthread_mutex_init(&stats[t].lock, NULL);
	for (long t = 0; t < n; t++)
		pthread_create(&tid[t], NULL, worker, (void *)t);
	for (long t = 0; t < n; t++) {
		pthread_join(tid[t], NULL);
		total += stats[t].count;
	}
	printf("%ld\n", total);
	return 0;
}
