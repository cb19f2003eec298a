// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A pool of one-byte test-and-set spinlocks packed side by side: 41 of them fill one cache
 * line (the bucket locks of a hash table, a placement-new pool of small locks).  The work
 * comes in phases; in each, every thread owns a share of the buckets (every THREADS-th one)
 * and walks it round-robin, taking the bucket's lock for each item.  Over the run every lock
 * is taken by every thread, but at any moment by one thread only: the line bounces between
 * locks that nobody shares (false sharing), not between threads fighting for one lock.
 * The fix (spinpool_fixed.c): pad each lock to a line of its own.
 *
 * usage: spinpool [THREADS [ITEMS]]
 */
#include <pthread.h>
#include <stdlib.h>

#define NR_BUCKETS 41

struct bucket_lock {
	unsigned char locked;
};

struct bucket {
	long items;
} __attribute__((aligned(64)));

static struct bucket_lock pool[NR_BUCKETS] __attribute__((aligned(64)));	/* zeroed: free */
static struct bucket buckets[NR_BUCKETS];
static long items = 200000;
static long nthreads = 2;
static pthread_barrier_t phase_end;

static void bucket_lock__take(struct bucket_lock *l)
{
	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED))
			;
}

static void bucket_lock__drop(struct bucket_lock *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

static void *worker(void *arg)
{
	long t = (long)arg;

	for (long phase = 0; phase < nthreads; phase++) {
		long mine = (t + phase) % nthreads, i = mine;

		for (long n = 0; n < items / nthreads; n++) {
			bucket_lock__take(&pool[i]);
			buckets[i].items++;
			bucket_lock__drop(&pool[i]);
			i += nthreads;
			if (i >= NR_BUCKETS)
				i = mine;
		}
		pthread_barrier_wait(&phase_end);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t tid[64];

	if (argc > 1)
		nthreads = atol(argv[1]);
	if (argc > 2)
		items = atol(argv[2]);
	if (nthreads < 1 || nthreads > 64 || items < 0)
		return 2;
	pthread_barrier_init(&phase_end, NULL, (unsigned int)nthreads);
	for (long t = 0; t < nthreads; t++)
		pthread_create(&tid[t], NULL, worker, (void *)t);
	for (long t = 0; t < nthreads; t++)
		pthread_join(tid[t], NULL);
	return 0;
}
