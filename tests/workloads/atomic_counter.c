// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * (e) True sharing: one global atomic counter incremented by every thread (like hd_struct's
 * in_flight counters, seed 004).  Every HITM falls on the counter's offset; reordering the
 * struct cannot help, per-thread counters summed on read would.
 */
#include <stdatomic.h>

#include "workload.h"

struct io_stats {
	const char *name;		/* read-mostly, on its own line */
	char pad[56];
	atomic_long in_flight;		/* offset 64: the hot word */
};

static struct io_stats io_stats __attribute__((aligned(64))) = { .name = "sda" };

static void setup(void)
{
}

static void body(long t)
{
	for (long i = 0; i < iterations; i++)
		atomic_fetch_add_explicit(&io_stats.in_flight, 1, memory_order_relaxed);
}

static void report(void)
{
	fprintf(stderr, "%s in_flight=%ld\n", io_stats.name, atomic_load(&io_stats.in_flight));
}
