// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-thread event counters in an array of 4-byte structs: each worker counts the items it
 * handled in its own slot (a relaxed store of the count plus one, as WRITE_ONCE does), and
 * the main thread sums the slots at the end.  Sixteen slots share a line, so the workers'
 * stores bounce it between them: false sharing between instances of struct counter.
 * The fix (counters_fixed.c): a line for each slot.
 *
 * usage: counters [THREADS [ITEMS]]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct counter {
	unsigned int handled;
};

static struct counter stats[64];
static long items = 400000;
static long nthreads = 2;

static void counter__inc(struct counter *c)
{
	__atomic_store_n(&c->handled, __atomic_load_n(&c->handled, __ATOMIC_RELAXED) + 1,
			 __ATOMIC_RELAXED);
}

static void *worker(void *arg)
{
	struct counter *mine = &stats[(long)arg];
	unsigned long h = 0;

	for (long i = 0; i < items; i++) {
		h = h * 31 + (unsigned long)i;	/* the item's work */
		if (h & 1)
			counter__inc(mine);
	}
	return (void *)h;
}

int main(int argc, char **argv)
{
	pthread_t tid[64];
	unsigned long total = 0;

	if (argc > 1)
		nthreads = atol(argv[1]);
	if (argc > 2)
		items = atol(argv[2]);
	if (nthreads < 1 || nthreads > 64 || items < 0)
		return 2;
	for (long t = 0; t < nthreads; t++)
		pthread_create(&tid[t], NULL, worker, (void *)t);
	for (long t = 0; t < nthreads; t++)
		pthread_join(tid[t], NULL);
	for (long t = 0; t < nthreads; t++)
		total += stats[t].handled;
	return total ? 0 : 1;
}
