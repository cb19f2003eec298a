// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arena_carve.c fixed: each thread's struct wstat is aligned (and so padded) to a cache line,
 * so the slots carved out of the line-aligned arena are a line each.
 *   usage: arena_carve THREADS ITERATIONS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct wstat {		/* one line per thread */
	long words;
	long bytes;
} __attribute__((aligned(64)));

/* raw storage, line-aligned: the slots are carved out of it */
static unsigned char arena[4096] __attribute__((aligned(64)));
static char text[4096];		/* the input: chars may alias the counters, so they stay in memory */
static long iterations;

/* Count one character: a helper the optimiser keeps out of line (it is big in real code). */
static __attribute__((noinline)) void wstat_count(struct wstat *s, char c)
{
	s->bytes++;
	if (c == ' ')
		s->words++;
}

static void *worker(void *arg)
{
	struct wstat *me = (struct wstat *)(arena + (long)arg * sizeof(struct wstat));

	me->words = me->bytes = 0;	/* each thread sets up its own slot */
	for (long i = 0; i < iterations; i++) {
		char c = text[i % sizeof(text)];

		me->bytes++;
		if (c == ' ')
			me->words++;
		if (i % 64 == 0)
			wstat_count(me, c);
	}
	return (void *)me->words;	/* the total, read where it was written */
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 4, words = 0;
	pthread_t th[64];

	iterations = argc > 2 ? atol(argv[2]) : 200000;
	if (n < 1 || n > 64 || n * sizeof(struct wstat) > sizeof(arena) || iterations < 1)
		return 2;
	for (size_t i = 0; i < sizeof(text); i++)
		text[i] = i % 6 == 5 ? ' ' : 'a' + i % 26;
	for (long t = 0; t < n; t++)
		pthread_create(&th[t], NULL, worker, (void *)t);
	for (long t = 0; t < n; t++) {
		void *r;

		pthread_join(th[t], &r);
		words += (long)r;
	}
	printf("%ld words\n", words);
	return 0;
}
