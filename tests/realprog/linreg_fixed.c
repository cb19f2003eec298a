// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * linreg.c fixed by hand: each thread's element of the array of sums is aligned to a cache line
 * of its own (the type, and the allocation), so no two threads' sums share a line.
 * (the points are Phoenix's POINT_T, chars: the compiler cannot keep the sums in registers).
 *   linreg THREADS POINTS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PASSES 100	/* over the same points: a short input, a long enough run */

typedef struct {
	char x;
	char y;
} POINT_T;

typedef struct {
	const POINT_T *points;
	long num_elems;
	long long SX, SY, SXX, SYY, SXY;
} __attribute__((aligned(64))) lreg_args;

static void *linear_regression_pthread(void *arg)
{
	lreg_args *a = arg;

	for (long i = 0; i < a->num_elems * PASSES; i++) {
		long long x = a->points[i % a->num_elems].x, y = a->points[i % a->num_elems].y;

		a->SX += x;
		a->SXX += x * x;
		a->SY += y;
		a->SYY += y * y;
		a->SXY += x * y;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int nthreads = argc > 1 ? atoi(argv[1]) : 2;
	long n = argc > 2 ? atol(argv[2]) : 2000;
	POINT_T *points = malloc(n * sizeof(*points));
	pthread_t *tid = calloc(nthreads, sizeof(*tid));
	lreg_args *args = aligned_alloc(64, nthreads * sizeof(*args));
	long long SX = 0, SY = 0, SXY = 0;

	if (nthreads < 1 || n < nthreads || !points || !tid || !args)
		return 2;
	memset(args, 0, nthreads * sizeof(*args));
	for (long i = 0; i < n; i++) {
		points[i].x = (char)(i * 7919 % 100);
		points[i].y = (char)(i * 104729 % 100);
	}
	for (int t = 0; t < nthreads; t++) {
		args[t].points = points + (n / nthreads) * t;
		args[t].num_elems = n / nthreads;
		pthread_create(&tid[t], NULL, linear_regression_pthread, &args[t]);
	}
	for (int t = 0; t < nthreads; t++) {
		pthread_join(tid[t], NULL);
		SX += args[t].SX;
		SY += args[t].SY;
		SXY += args[t].SXY;
	}
	printf("SX %lld SY %lld SXY %lld\n", SX, SY, SXY);
	free(args);
	free(tid);
	free(points);
	return 0;
}
