// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * (i) Phoenix string_match's inner loop: each thread clears its own 16-byte key buffer with
 * bzero and copies the next word into it with memcpy, once per word.  The buffers are adjacent
 * malloc blocks, so the threads' keys share a cache line: the contention lives entirely in the
 * libc calls, which the collector sees only through its interposed memset/memcpy.
 */
#include <string.h>
#include <strings.h>

#include "workload.h"

#define KEY_LEN 16

static char *keys[256];
static unsigned long sums[256 * 8]; /* sums[t * 8]: a line of its own per thread */

static void setup(void)
{
	for (long t = 0; t < nthreads; t++)
		keys[t] = malloc(KEY_LEN);
}

static void body(long t)
{
	static const char words[][8] = { "apple", "kernel", "cache", "line" };
	char *key = keys[t];
	unsigned long sum = 0;

	for (long i = 0; i < iterations; i++) {
		bzero(key, KEY_LEN);
		memcpy(key, words[i & 3], sizeof(words[0]));
		sum += (unsigned char)key[i & 7];
	}
	sums[t * 8] = sum;
}

static void report(void)
{
	unsigned long s = 0;

	for (long t = 0; t < nthreads; t++)
		s += sums[t * 8];
	fprintf(stderr, "sum=%lu\n", s);
}
