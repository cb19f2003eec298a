// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A blocked matrix: 8x8 blocks of doubles stored one after the other (512 bytes each, eight
 * cache lines), the blocks dealt round-robin to the threads, each thread scaling its own
 * blocks over and over.  512 is a multiple of 64, but malloc aligns the matrix to 16 bytes
 * only (a block this large is mmapped, 16 bytes into a page): every block boundary falls
 * inside a line, and each of those lines is written by the two threads whose blocks meet
 * there.  One cause, one fix (an aligned allocation), however many lines it shows up on.
 * usage: block_matrix THREADS SWEEPS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define B 8		/* a block is B x B doubles */
#define NBLOCKS 512

static double *matrix;
static double partial[64];
static long nthreads, sweeps;

static void *worker(void *arg)
{
	long t = (long)arg;
	double sum = 0;

	for (long b = t; b < NBLOCKS; b += nthreads)	/* first touch: each thread its blocks */
		for (int i = 0; i < B * B; i++)
			matrix[b * B * B + i] = (double)(b * B * B + i);
	for (long s = 0; s < sweeps; s++)
		for (long b = t; b < NBLOCKS; b += nthreads) {
			double *blk = matrix + b * B * B;

			for (int i = 0; i < B * B; i++)
				blk[i] = blk[i] * 0.5 + (double)s;
		}
	for (long b = t; b < NBLOCKS; b += nthreads)	/* each thread sums its own blocks */
		for (int i = 0; i < B * B; i++)
			sum += matrix[b * B * B + i];
	partial[t] = sum;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t tid[64];
	double sum = 0;

	nthreads = argc > 1 ? atol(argv[1]) : 2;
	sweeps = argc > 2 ? atol(argv[2]) : 40;
	if (nthreads < 1 || nthreads > 64)
		return 2;
	matrix = malloc(NBLOCKS * B * B * sizeof(double));
	if (!matrix)
		return 1;
	for (long t = 0; t < nthreads; t++)
		pthread_create(&tid[t], NULL, worker, (void *)t);
	for (long t = 0; t < nthreads; t++)
		pthread_join(tid[t], NULL);
	for (long t = 0; t < nthreads; t++)
		sum += partial[t];
	printf("%g\n", sum);
	free(matrix);
	return 0;
}
