// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Same-named statics (tests/fields/statics.sh): statics_net.c and statics_disk.c each have a
 * `static struct ... stats`, and lock_note() and queue_note() here each a function-scope
 * `static struct ... s`, four types in all.  Two threads each bump one member of every one.
 * argv[1]: the iterations.
 */
#include <pthread.h>
#include <stdlib.h>

#include "statics.h"

struct lock_stats {
	long acquired;
	long contended;
};

struct queue_stats {
	int pushed;
	int popped;
	long depth;
};

__attribute__((noinline)) static void lock_note(int contended)
{
	static struct lock_stats s;

	if (contended)
		s.contended++;
	else
		s.acquired++;
}

__attribute__((noinline)) static void queue_note(int pop)
{
	static struct queue_stats s;

	if (pop)
		s.popped++;
	else
		s.pushed++;
}

static long iterations;

static void *worker(void *arg)
{
	int second = arg != NULL;

	for (long i = 0; i < iterations; i++) {
		net_count(second);
		disk_count(second);
		lock_note(second);
		queue_note(second);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];

	iterations = argc > 1 ? atol(argv[1]) : 100000;
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, i ? (void *)1 : NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
