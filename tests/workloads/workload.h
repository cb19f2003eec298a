/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_TESTS_WORKLOAD_H
#define LINEUP_TESTS_WORKLOAD_H

/*
 * Shared scaffolding of the workloads: `prog [ITERATIONS [THREADS]]` runs body(thread index)
 * in THREADS threads (default 2) and prints the wall time in seconds on stdout, so the
 * benchmarks can compare builds.  Each workload defines `static void body(long t)` and
 * the globals it uses, then includes this file.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long iterations = 10000000;
static long nthreads = 2;

static void body(long t);
static void setup(void);
static void report(void);

static pthread_barrier_t start_line;

static void *thread_main(void *arg)
{
	/* All threads start together, so that they really do run at the same time. */
	pthread_barrier_wait(&start_line);
	body((long)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t tid[256];
	struct timespec a, b;

	if (argc > 1)
		iterations = atol(argv[1]);
	if (argc > 2)
		nthreads = atol(argv[2]);
	if (nthreads < 1 || nthreads > 256 || iterations < 0) {
		fprintf(stderr, "usage: %s [ITERATIONS [THREADS<=256]]\n", argv[0]);
		return 2;
	}
	setup();
	pthread_barrier_init(&start_line, NULL, nthreads + 1);
	for (long t = 0; t < nthreads; t++)
		pthread_create(&tid[t], NULL, thread_main, (void *)t);
	clock_gettime(CLOCK_MONOTONIC, &a);
	pthread_barrier_wait(&start_line);
	for (long t = 0; t < nthreads; t++)
		pthread_join(tid[t], NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	report();
	printf("%.6f\n", (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}

#endif
