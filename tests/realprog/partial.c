// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-thread partial sums in a global array of doubles, updated in a hand-unrolled loop (the
 * OpenMP-by-hand reduction of many numeric codes): partial[t] for every thread sits in one
 * cache line, so each thread's four updates per step move the line away from the others.
 *   partial THREADS N
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_THREADS 8

static double partial[MAX_THREADS];
static double *data;
static long n, nthreads;

static void *sum(void *arg)
{
	long t = (long)arg, chunk = n / nthreads;
	const double *a = data + t * chunk;

	for (int pass = 0; pass < 20; pass++) {
		for (long i = 0; i + 3 < chunk; i += 4) {
			partial[t] += a[i];
			partial[t] += a[i + 1];
			partial[t] += a[i + 2];
			partial[t] += a[i + 3];
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t tid[MAX_THREADS];
	double total = 0;

	nthreads = argc > 1 ? atol(argv[1]) : 2;
	n = argc > 2 ? atol(argv[2]) : 40000;
	if (nthreads < 1 || nthreads > MAX_THREADS || n < 4 * nthreads)
		return 2;
	data = malloc(n * sizeof(*data));
	if (!data)
		return 2;
	for (long i = 0; i < n; i++)
		data[i] = (double)(i % 10);
	for (long t = 0; t < nthreads; t++)
		pthread_create(&tid[t], NULL, sum, (void *)t);
	for (long t = 0; t < nthreads; t++) {
		pthread_join(tid[t], NULL);
		total += partial[t];
	}
	printf("%.0f\n", total);
	free(data);
	return 0;
}
