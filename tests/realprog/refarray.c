// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A table of per-thread reference counts: struct ref_table holds the number of slots in use
 * and an array of 4-byte counts, one per worker; main sets each count to 1, then each worker
 * takes and drops references on its own count only.  The counts share a line, so it bounces
 * between the workers although no count is ever written by two threads at once: false
 * sharing between the elements of one array member (issue 20, item 6: `fields` said so, while
 * `suggest` headed its answer "nothing to do ... they are true sharing" above its own
 * "elements:" advice).  No member order helps; padding the element does.
 * The fix (refarray_fixed.c): each count on a line of its own.
 *
 * usage: refarray [THREADS [ROUNDS]]
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#define MAX_SLOTS 15

struct ref_table {
	unsigned int nr;
	atomic_int count[MAX_SLOTS];
};

static struct ref_table table;
static long rounds = 200000;

static void *worker(void *arg)
{
	atomic_int *mine = &table.count[(long)arg];
	long released = 0;

	for (long r = 0; r < rounds; r++) {
		atomic_fetch_add_explicit(mine, 1, memory_order_relaxed);
		released += atomic_fetch_sub_explicit(mine, 1, memory_order_acq_rel) == 1;
	}
	return (void *)released;	/* never the last reference: 0 */
}

int main(int argc, char **argv)
{
	pthread_t tid[MAX_SLOTS];
	long nthreads = argc > 1 ? atol(argv[1]) : 4, bad = 0;

	if (argc > 2)
		rounds = atol(argv[2]);
	if (nthreads < 1 || nthreads > MAX_SLOTS || rounds < 0)
		return 2;
	table.nr = (unsigned int)nthreads;
	for (long t = 0; t < nthreads; t++)
		atomic_store_explicit(&table.count[t], 1, memory_order_relaxed);
	for (long t = 0; t < nthreads; t++)
		pthread_create(&tid[t], NULL, worker, (void *)t);
	for (long t = 0; t < nthreads; t++) {
		void *released;

		pthread_join(tid[t], &released);
		bad += released != NULL;
	}
	return bad ? 1 : 0;
}
