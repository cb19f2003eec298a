// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * partial.c fixed by hand: each thread's partial sum padded to a cache line of its own (an
 * array of line-aligned structs), as the kernel's per-CPU counters are.
 *   partial THREADS N
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_THREADS 8

struct partial_sum {
	double sum;
} __attribute__((aligned(64)));

static struct partial_sum partial[MAX_THREADS];
static double *data;
static long n, nthreads;

static void *sum(void *arg)
{
	long t = (long)arg, chunk = n / nthreads;
	const double *a = data + t * chunk;

	for (int pass = 0; pass < 20; pass++) {
		for (long i = 0; i + 3 < chunk; i += 4) {
			partial[t].sum += a[i];
			partial[t].sum += a[i + 1];
			partial[t].sum += a[i + 2];
			partial[t].sum += a[i + 3];
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
		total += partial[t].sum;
	}
	printf("%.0f\n", total);
	free(data);
	return 0;
}
