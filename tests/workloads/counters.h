/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Two counters, each incremented by its own thread, PAD bytes apart (0: adjacent). */
#include "workload.h"

#ifndef PAD
#define PAD 0
#endif

struct counters {
	volatile long a;
#if PAD
	char pad[PAD - sizeof(long)];
#endif
	volatile long b;
} __attribute__((aligned(128)));

struct counters counters;

static void setup(void)
{
}

static void body(long t)
{
	volatile long *c = t & 1 ? &counters.b : &counters.a;

	for (long i = 0; i < iterations; i++) {
#ifdef ATOMIC_INC
		/* A locked add: the store cannot sit in the store buffer, so every increment
		 * needs the line in Modified state (the refcount case). */
		__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
#else
		(*c)++;
#endif
	}
}

/* Nothing read back at the end: the main thread's read would be a HITM of its own. */
static void report(void)
{
}
