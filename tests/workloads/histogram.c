// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * (f) A histogram in the style of Phoenix's: each thread counts the pixels of its own part of
 * an image into its own bins, but the per-thread bins are packed together bin by bin
 * (hist[bin][thread]), so threads updating the same bin write the same cache line.
 */
#include <stdint.h>

#include "workload.h"

#define BINS 16
#define PIXELS (1 << 16)

static unsigned char *image;
static volatile unsigned *hist;		/* hist[bin * nthreads + thread] */

static void setup(void)
{
	uint32_t x = 12345;

	image = malloc(PIXELS);
	for (long i = 0; i < PIXELS; i++) {
		x = x * 1103515245 + 12345;
		/* Mostly dark pixels, as in a photo: a few bins take most of the counts. */
		image[i] = (x >> 16) % 4 == 0 ? (x >> 8) & 255 : (x >> 8) & 31;
	}
	hist = calloc(BINS * nthreads, sizeof(*hist));
}

static void body(long t)
{
	long n = 0;

	for (long i = 0; n < iterations; i++) {
		for (long p = t * (PIXELS / nthreads); p < (t + 1) * (PIXELS / nthreads) &&
						       n < iterations; p++, n++)
			hist[(image[p] * BINS / 256) * nthreads + t]++;
	}
}

static void report(void)
{
	unsigned long sum = 0;

	for (long b = 0; b < BINS * nthreads; b++)
		sum += hist[b];
	fprintf(stderr, "pixels=%lu\n", sum);
}
