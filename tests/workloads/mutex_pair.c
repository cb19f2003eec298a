// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * (h) Locks the collector sees although glibc's code is not instrumented: each thread takes
 * its own pthread mutex to bump its own counter, but the per-thread {mutex, counter} pairs are
 * 48 bytes, packed, so thread 1's lock word shares thread 0's cache line; all threads take
 * one pthread spinlock to bump a shared total, and read a table under one reader-writer lock
 * (every reader's lock and unlock writes the lock's reader count: true sharing among readers).
 * -DFIXED builds the fix of the false sharing: each per-thread pair, and each thread's
 * read_sum, on a line of its own (the spinlock and the rwlock stay truly shared).
 * `mutex_pair [ITERATIONS [THREADS]]`.
 */
#include <pthread.h>

#include "workload.h"

#ifdef FIXED
#define LINE_ALIGN __attribute__((aligned(64)))	/* a line of its own */
#define SUM_STRIDE 8				/* each thread's sum a line apart */
#else
#define LINE_ALIGN
#define SUM_STRIDE 1
#endif

struct per_thread {
	pthread_mutex_t lock;
	long count;
} LINE_ALIGN;

static struct per_thread per[256] __attribute__((aligned(64)));
static pthread_spinlock_t total_lock;
static long total;
static pthread_rwlock_t table_lock __attribute__((aligned(64))) = PTHREAD_RWLOCK_INITIALIZER;
static long table[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
static long read_sum[256 * SUM_STRIDE] LINE_ALIGN;

static void setup(void)
{
	pthread_spin_init(&total_lock, PTHREAD_PROCESS_PRIVATE);
	for (long t = 0; t < nthreads; t++)
		pthread_mutex_init(&per[t].lock, NULL);
}

static void body(long t)
{
	struct per_thread *p = &per[t];

	for (long i = 0; i < iterations; i++) {
		pthread_mutex_lock(&p->lock);
		p->count++;
		pthread_mutex_unlock(&p->lock);
		if ((i & 3) == 0) {
			pthread_spin_lock(&total_lock);
			total++;
			pthread_spin_unlock(&total_lock);
		} else if ((i & 3) == 1) {
			pthread_rwlock_rdlock(&table_lock);
			read_sum[t * SUM_STRIDE] += table[i & 7];
			pthread_rwlock_unlock(&table_lock);
		}
	}
}

static void report(void)
{
	long sum = 0;

	for (long t = 0; t < nthreads; t++)
		sum += per[t].count;
	/* The locks must still work: a held spinlock refuses a second taker. */
	if (pthread_spin_trylock(&total_lock) || !pthread_spin_trylock(&total_lock) ||
	    pthread_mutex_trylock(&per[0].lock) || pthread_rwlock_trywrlock(&table_lock) ||
	    !pthread_rwlock_tryrdlock(&table_lock) || pthread_rwlock_unlock(&table_lock) ||
	    pthread_rwlock_tryrdlock(&table_lock))
		puts("locks broken");
	else if (sum != iterations * nthreads || total != (iterations + 3) / 4 * nthreads)
		printf("wrong counts: %ld %ld\n", sum, total);
	else
		puts("ok");
}
