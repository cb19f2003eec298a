// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * refcount.c fixed by hand: each count padded to a line of its own.
 *
 * An array of 4-byte reference counts, one per worker: the main thread initialises each
 * (kref_init), then each worker takes and drops references on its own object only, as a
 * thread pins the object it works on.  Sixteen of them share a line, so the line bounces
 * between the workers although no count is ever written by two threads at once: false
 * sharing, never true sharing (issue 16, item 4: the main thread's one store made each count
 * "written by 2 CPUs: true sharing").
 * The fix (refcount_fixed.c): a line for each object's count.
 *
 * usage: refcount [THREADS [ROUNDS]]
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

/* the fix: a line for each count */
struct kref {
	atomic_int refcount;
} __attribute__((aligned(64)));

static struct kref refs[16];
static long rounds = 200000;
static long nthreads = 2;

static void kref_init(struct kref *k)
{
	atomic_store_explicit(&k->refcount, 1, memory_order_relaxed);
}

static void kref_get(struct kref *k)
{
	atomic_fetch_add_explicit(&k->refcount, 1, memory_order_relaxed);
}

static int kref_put(struct kref *k)
{
	return atomic_fetch_sub_explicit(&k->refcount, 1, memory_order_acq_rel) == 1;
}

static void *worker(void *arg)
{
	struct kref *mine = &refs[(long)arg];
	long released = 0;

	for (long r = 0; r < rounds; r++) {
		kref_get(mine);
		released += kref_put(mine);
	}
	return (void *)released;	/* never the last reference: 0 */
}

int main(int argc, char **argv)
{
	pthread_t tid[16];
	long bad = 0;

	if (argc > 1)
		nthreads = atol(argv[1]);
	if (argc > 2)
		rounds = atol(argv[2]);
	if (nthreads < 1 || nthreads > 16 || rounds < 0)
		return 2;
	for (long t = 0; t < nthreads; t++)
		kref_init(&refs[t]);
	for (long t = 0; t < nthreads; t++)
		pthread_create(&tid[t], NULL, worker, (void *)t);
	for (long t = 0; t < nthreads; t++) {
		void *released;

		pthread_join(tid[t], &released);
		bad += released != NULL;
	}
	return bad ? 1 : 0;
}
