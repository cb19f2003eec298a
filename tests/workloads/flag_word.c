// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * (g) buffer_head's b_state (seed 000): every thread sets BH_Uptodate with an atomic or on each
 * pass although the bit is already set, and each such RMW takes the line away from the
 * threads that only read b_blocknr and b_size beside it.  Test-before-set fixes it: -DFIXED
 * builds that fix (the kernel's set_buffer_uptodate since 2016).
 */
#include <stdatomic.h>

#include "workload.h"

#define BH_Uptodate (1UL << 0)
#define BH_Mapped (1UL << 5)

struct buffer_head {
	atomic_ulong b_state;		/* 0 */
	struct buffer_head *b_this_page;	/* 8 */
	void *b_page;			/* 16 */
	long b_blocknr;			/* 24: read by every thread */
	unsigned long b_size;		/* 32: read by every thread */
	char *b_data;			/* 40 */
};

static struct buffer_head bh __attribute__((aligned(64))) = {
	.b_state = BH_Mapped, .b_blocknr = 4096, .b_size = 4096,
};

static void setup(void)
{
}

static void body(long t)
{
	unsigned long sum = 0;

	for (long i = 0; i < iterations; i++) {
#ifdef FIXED
		if (!(atomic_load_explicit(&bh.b_state, memory_order_relaxed) & BH_Uptodate))
#endif
		atomic_fetch_or(&bh.b_state, BH_Uptodate);	/* set_buffer_uptodate(bh) */
		sum += bh.b_blocknr * bh.b_size;
	}
	if (sum == 42)
		puts("");
}

static void report(void)
{
	fprintf(stderr, "b_state=%lx\n", atomic_load(&bh.b_state));
}
