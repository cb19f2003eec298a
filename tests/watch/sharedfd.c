// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Workload for `lineup watch`: two threads of one process share one file descriptor and do
 * pread + lseek on it, the UnixBench-syscall-like pattern of seed 003 (fdget/fput on f_ref,
 * f_pos_lock for lseek, f_op read by vfs_read).
 *
 * Usage: sharedfd [-n COMM] [-f FILE] [-d DELAY_MS] [-t SECONDS] [-T THREADS] [-p] [-c] [-s]
 *   -n	set the process name (prctl) just before opening the shared file, so that the file's
 *	struct file is the first allocation of that comm (`lineup watch --alloc filp --comm`)
 *   -f	the shared file (default /proc/self/exe)
 *   -d	wait this long after opening before the threads start (time to set breakpoints)
 *   -t	run the threads this long (default 1 s)
 *   -p	pin thread i to CPU i (modulo the CPUs we may run on), so both CPUs write
 *   -c	close the shared fd and keep running (the object is freed while being watched)
 *   -s	first open another file (/proc/self/exe) and close it 150 ms later (a struct file
 *	that lives shortly, as a loader's do), then the shared one
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static int fd, pin;
static volatile int stop;
static long counts[16];

static void *worker(void *arg)
{
	long i = (long)arg, n = 0;
	char buf[64];

	if (pin) {
		cpu_set_t all, one;
		int k = 0, want;

		sched_getaffinity(0, sizeof(all), &all);
		want = i % CPU_COUNT(&all);
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &all) && k++ == want) {
				CPU_ZERO(&one);
				CPU_SET(c, &one);
				pthread_setaffinity_np(pthread_self(), sizeof(one), &one);
				break;
			}
	}

	while (!stop) {
		if (pread(fd, buf, sizeof(buf), 0) < 0 || lseek(fd, 0, SEEK_SET) < 0) {
			perror("sharedfd");
			exit(1);
		}
		n++;
	}
	counts[i] = n;
	return NULL;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

int main(int argc, char **argv)
{
	const char *comm = NULL, *path = "/proc/self/exe";
	long delay = 300, secs_ms = 1000, nthreads = 2;
	int c, close_early = 0, short_first = 0;
	pthread_t th[16];

	while ((c = getopt(argc, argv, "n:f:d:t:T:pcs")) != -1) {
		switch (c) {
		case 'n': comm = optarg; break;
		case 'f': path = optarg; break;
		case 'd': delay = atol(optarg); break;
		case 't': secs_ms = (long)(atof(optarg) * 1000); break;
		case 'T': nthreads = atol(optarg); break;
		case 'c': close_early = 1; break;
		case 'p': pin = 1; break;
		case 's': short_first = 1; break;
		default:
			fprintf(stderr, "usage: sharedfd [-n COMM] [-f FILE] [-d MS] [-t S] [-T N] [-p] [-c] "
			"[-s]\n");
			return 2;
		}
	}
	if (nthreads < 1 || nthreads > 16)
		nthreads = 2;
	if (comm)
		prctl(PR_SET_NAME, comm);
	if (short_first) {
		int tmp = open("/proc/self/exe", O_RDONLY);

		sleep_ms(150);	/* open long enough to be named from the fd table */
		if (tmp >= 0)
			close(tmp);
		sleep_ms(30);	/* its free read before the next allocation comes */
	}
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror("open");
		return 1;
	}
	sleep_ms(delay);
	if (close_early) {
		close(fd);
		sleep_ms(secs_ms);
		return 0;
	}
	for (long i = 0; i < nthreads; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	sleep_ms(secs_ms);
	stop = 1;
	for (long i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	for (long i = 0; i < nthreads; i++)
		printf("thread %ld: %ld pread+lseek\n", i, counts[i]);
	return 0;
}
