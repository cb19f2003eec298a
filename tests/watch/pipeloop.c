// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Workload for `lineup watch --alloc kmalloc-N`: a pipe (its struct pipe_inode_info is
 * kmalloc'd by alloc_pipe_info) written and read in a loop, so that its mutex and ring indexes
 * are hit.
 *
 * Usage: pipeloop [-n COMM] [-d DELAY_MS] [-t SECONDS]
 *   -n	set the process name (prctl) just before creating the pipe, so that its allocations
 *	are the first of that comm (`lineup watch --alloc kmalloc-192 --comm`)
 *   -d	wait this long after creating it before the loop (time to set breakpoints)
 *   -t	loop this long (default 1 s)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const char *comm = NULL;
	long delay = 300;
	double secs = 1, end;
	int c, fds[2];
	long n = 0;
	char buf[64] = "x";

	while ((c = getopt(argc, argv, "n:d:t:")) != -1) {
		switch (c) {
		case 'n': comm = optarg; break;
		case 'd': delay = atol(optarg); break;
		case 't': secs = atof(optarg); break;
		default:
			fprintf(stderr, "usage: pipeloop [-n COMM] [-d MS] [-t S]\n");
			return 2;
		}
	}
	if (comm)
		prctl(PR_SET_NAME, comm);
	if (pipe(fds) < 0) {
		perror("pipe");
		return 1;
	}
	usleep(delay * 1000);
	for (end = now() + secs; now() < end; n++)
		if (write(fds[1], buf, sizeof(buf)) < 0 || read(fds[0], buf, sizeof(buf)) < 0) {
			perror("pipeloop");
			return 1;
		}
	printf("%ld writes and reads\n", n);
	return 0;
}
