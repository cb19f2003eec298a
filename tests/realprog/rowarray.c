// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A matrix member split into rows by thread: struct grid holds its row count and a matrix of
 * 4 rows of 256 doubles, and thread t relaxes row t, pass after pass.  A row is 2 KB, whole
 * cache lines, but the matrix starts 8 bytes into one (after the count), so each row's last
 * line is the next row's first, written by two threads: false sharing between the elements
 * of one array member, where the rows meet (issue 20, item 6: `suggest` called the matrix
 * "written by 4 threads" and proposed padding each double to a line).  The fix: start the
 * matrix on a line (rowarray_fixed.c).
 *
 * usage: rowarray [PASSES]
 */
#include <pthread.h>
#include <stdlib.h>

#define ROWS 4
#define COLS 256

struct grid {
	long nrows;
	double rows[ROWS][COLS];
};

static struct grid grid;
static long passes = 100;

static void *worker(void *arg)
{
	double *row = grid.rows[(long)arg];

	for (long p = 0; p < passes; p++)
		for (int i = 0; i < COLS; i++)
			row[i] = row[i] * 0.5 + (double)(i ^ p);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t tid[ROWS];
	double sum = 0;

	if (argc > 1)
		passes = atol(argv[1]);
	if (passes < 0)
		return 2;
	grid.nrows = ROWS;
	for (long t = 0; t < ROWS; t++)
		pthread_create(&tid[t], NULL, worker, (void *)t);
	for (long t = 0; t < ROWS; t++)
		pthread_join(tid[t], NULL);
	for (long t = 0; t < ROWS; t++)
		sum += grid.rows[t][0];
	return sum < 0;
}
