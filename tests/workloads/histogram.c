// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * (f) A histogram in the style of Phoenix's: each thread counts the pixels of its own part of
 * an image into its own bins, but the per-thread bins are packed together bin by bin
 * (hist[bin][thread]), so threads updating the same bin write the same cache line.
 * -DFIXED builds the fix: each thread's bins together (hist[thread][bin]), a line of their own.
 */
#include <stdint.h>

#include "workload.h"

#define BINS 16
#define PIXELS (1 << 16)

static unsigned char *image;
static volatile unsigned *hist;		/* hist[bin * nthreads + thread] (FIXED: [thread][bin]) */

static void setup(void)
{
	uint32_t x = 12345;

	image = malloc(PIXELS);
	for (long i = 0; i < PIXELS; i++) {
		x = x * 1103515245 + 12345;
		/* Mostly dark pixels, as in a photo: a few bins take most of the counts. */
		image[i] = (x >> 16) % 4 == 0 ? (x >> 8) & 255 : (x >> 8) & 31;
	}
#ifdef FIXED
	hist = aligned_alloc(64, BINS * nthreads * sizeof(*hist));	/* each row on a line */
	for (long b = 0; b < BINS * nthreads; b++)
		hist[b] = 0;
#else
	hist = calloc(BINS * nthreads, sizeof(*hist));
#endif
}

static void body(long t)
{
	long n = 0;

	for (long i = 0; n < iterations; i++) {
		for (long p = t * (PIXELS / nthreads); p < (t + 1) * (PIXELS / nthreads) &&
						       n < iterations; p++, n++)
#ifdef FIXED
			/* a thread's BINS counters, 64 bytes: one line of its own */
			hist[t * BINS + image[p] * BINS / 256]++;
#else
			hist[(image[p] * BINS / 256) * nthreads + t]++;
#endif
	}
}

static void report(void)
{
	unsigned long sum = 0;

	for (long b = 0; b < BINS * nthreads; b++)
		sum += hist[b];
	fprintf(stderr, "pixels=%lu\n", sum);
}
