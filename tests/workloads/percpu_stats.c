// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * (d) A per-thread statistics array on the heap, one 24-byte slot per thread, packed: each
 * thread writes only its own slot, but neighbouring slots share cache lines (false sharing).
 * The classic half-fix: the array is cache-line aligned, its elements are not padded.
 */
#include <string.h>

#include "workload.h"

struct stats {
	long ops;
	long bytes;
	long errors;
};

static struct stats *stats;

static void setup(void)
{
	size_t size = (nthreads * sizeof(*stats) + 63) & ~(size_t)63;

	stats = aligned_alloc(64, size);
	memset(stats, 0, size);
}

static void body(long t)
{
	volatile struct stats *s = &stats[t];

	for (long i = 0; i < iterations; i++) {
		s->ops++;
		s->bytes += i & 255;
		if ((i & 1023) == 0)
			s->errors++;
	}
}

static void report(void)
{
	long ops = 0;

	for (long t = 0; t < nthreads; t++)
		ops += stats[t].ops;
	fprintf(stderr, "ops=%ld\n", ops);
}
