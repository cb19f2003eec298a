// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Workload for `lineup watch --symbol`: a global struct whose members are used in known ways,
 * built normally (no instrumentation).  With ITER iterations (argument, default 1000):
 *   hits	plain counter: ITER loads and ITER stores (volatile: load, add, store)
 *   refs	atomic: 2 x ITER locked read-modify-writes (both threads)
 *   name	ITER loads (thread B), plus 1 store from main before the threads start
 *   misses	ITER stores (thread B)
 * Thread A touches hits and refs; thread B touches refs, name and misses.
 * A second argument "pin" runs thread A on CPU 0 and thread B on CPU 1.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gstats {
	volatile long hits;
	long refs;
	const char *volatile name;
	volatile long misses;
	char pad[32];
};

struct gstats g_stats;
static long iters = 1000;
static volatile long sink;

/*
 * The threads go in step, neither more than LEAD iterations ahead, so that they overlap however
 * busy the machine is (the tests expect HITMs between them): a thread that ran alone to its end
 * before the other was scheduled left none.  Not in g_stats: no breakpoint sees these.
 */
#define LEAD 4
static volatile long done_a, done_b;

static void wait_for(volatile long *other, long i)
{
	while (i - *other > LEAD)
		__builtin_ia32_pause();
}

static void *thread_a(void *arg)
{
	for (long i = 0; i < iters; i++) {
		wait_for(&done_b, i);
		g_stats.hits = g_stats.hits + 1;
		__atomic_fetch_add(&g_stats.refs, 1, __ATOMIC_SEQ_CST);
		done_a = i + 1;
	}
	return NULL;
}

static void *thread_b(void *arg)
{
	for (long i = 0; i < iters; i++) {
		wait_for(&done_a, i);
		__atomic_fetch_add(&g_stats.refs, 1, __ATOMIC_SEQ_CST);
		sink += g_stats.name[0];
		g_stats.misses = i;
		done_b = i + 1;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b;

	if (argc > 1)
		iters = atol(argv[1]);
	g_stats.name = "gstruct";
	pthread_create(&a, NULL, thread_a, NULL);
	pthread_create(&b, NULL, thread_b, NULL);
	if (argc > 2 && !strcmp(argv[2], "pin")) {
		cpu_set_t s;

		CPU_ZERO(&s);
		CPU_SET(0, &s);
		pthread_setaffinity_np(a, sizeof(s), &s);
		CPU_ZERO(&s);
		CPU_SET(1, &s);
		pthread_setaffinity_np(b, sizeof(s), &s);
	}
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("hits %ld refs %ld misses %ld\n", g_stats.hits, g_stats.refs, g_stats.misses);
	return 0;
}
