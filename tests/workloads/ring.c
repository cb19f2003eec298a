// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A single-producer single-consumer ring: head is written by the producer (thread 0) and
 * spun on by the consumer (thread 1), tail the other way round; the slots are written by the
 * producer and read by the consumer; mask is only read.  Both indices share a line with the
 * read-only mask: the spin loops make head and tail look read-mostly by load counts alone,
 * yet every publish invalidates the other side's copy of the whole line.
 */
#include "workload.h"

#define RING_SLOTS 8

struct ring {
	unsigned int head;		/* producer writes, consumer spins on it */
	unsigned int tail;		/* consumer writes, producer spins on it */
	unsigned int mask;		/* read-only after setup */
	unsigned int spare;
	long slots[RING_SLOTS];
};

struct ring ring;
static long sum;

static void setup(void)
{
	ring.mask = RING_SLOTS - 1;
}

static void produce(void)
{
	for (long i = 0; i < iterations; i++) {
		unsigned int h = __atomic_load_n(&ring.head, __ATOMIC_RELAXED);

		while (h - __atomic_load_n(&ring.tail, __ATOMIC_ACQUIRE) >= RING_SLOTS)
			;
		ring.slots[h & ring.mask] = i;
		__atomic_store_n(&ring.head, h + 1, __ATOMIC_RELEASE);
	}
}

static void consume(void)
{
	long s = 0;

	for (long i = 0; i < iterations; i++) {
		unsigned int t = __atomic_load_n(&ring.tail, __ATOMIC_RELAXED);

		while (__atomic_load_n(&ring.head, __ATOMIC_ACQUIRE) == t)
			;
		s += ring.slots[t & ring.mask];
		__atomic_store_n(&ring.tail, t + 1, __ATOMIC_RELEASE);
	}
	sum = s;
}

static void body(long t)
{
	if (t == 0)
		produce();
	else if (t == 1)
		consume();
}

static void report(void)
{
}
