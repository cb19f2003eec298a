// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * False sharing between threads that also block in ways the collector does not interpose:
 * each thread increments its own counter of one line, and every 1000 increments sleeps
 * (nanosleep), waits at a barrier with the others, and hands a token to the next thread
 * through a condition variable.  Taking turns (--sim-turns), a thread that blocks holding the
 * baton must lose it to a waiter, not stall the run (tests/sim/turns.sh).
 */
#include "workload.h"

#include <errno.h>

struct counters {
	volatile long c[4];
} __attribute__((aligned(64)));

static struct counters counters;
static pthread_barrier_t every;
static pthread_mutex_t token_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t token_cond = PTHREAD_COND_INITIALIZER;
static long token;

static void setup(void)
{
	pthread_barrier_init(&every, NULL, (unsigned)nthreads);
}

/* Wait until the token is @t's, then hand it to the next thread. */
static void pass_token(long t)
{
	pthread_mutex_lock(&token_lock);
	while (token % nthreads != t)
		pthread_cond_wait(&token_cond, &token_lock);
	token++;
	pthread_cond_broadcast(&token_cond);
	pthread_mutex_unlock(&token_lock);
}

static void body(long t)
{
	volatile long *c = &counters.c[t % 4];
	struct timespec nap = {.tv_nsec = 100000};

	for (long i = 1; i <= iterations; i++) {
		(*c)++;
		if (i % 1000)
			continue;
		while (nanosleep(&nap, &nap) && errno == EINTR)
			;
		pthread_barrier_wait(&every);
		pass_token(t);
	}
}

static void report(void)
{
}
