// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Phoenix's linear regression, reduced: per-thread sums in an anonymous struct known only by
 * its typedef (`typedef struct { ... } lreg_args;`), a heap array of them, one element per
 * thread: 56-byte elements, so neighbours' sums share cache lines (false sharing).  Built by
 * tests/fields/typedef.sh for the software collector:
 *   CC $(lineup sim-flags --cflags) -O0|-O2 -c lreg.c; CC lreg.o $(lineup sim-flags --libs)
 */
#include "../workloads/workload.h"

typedef struct {
	long *points;
	int num_elems;
	long long SX, SY, SXX, SYY, SXY;
} lreg_args;

static lreg_args *args;
static long pts[64];

static void setup(void)
{
	args = calloc(nthreads, sizeof(lreg_args));
	for (long t = 0; t < nthreads; t++) {
		args[t].points = pts;
		args[t].num_elems = 64;
	}
}

static void body(long t)
{
	volatile lreg_args *a = &args[t];	/* kept in memory at -O2 too */

	for (long i = 0; i < iterations; i++) {
		long x = a->points[i % a->num_elems] + i;

		a->SX += x;
		a->SXX += x * x;
		a->SY += i;
		a->SYY += i * i;
		a->SXY += x * i;
	}
}

static void report(void)
{
	long long s = 0;

	for (long t = 0; t < nthreads; t++)
		s += args[t].SX + args[t].SXY;
	fprintf(stderr, "sum=%lld\n", s);
	free(args);
}
