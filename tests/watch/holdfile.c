// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Workload for `lineup watch --alloc filp`: a file whose struct file lives on with no
 * descriptor referring to it, either in a mapping (-m) or in a descriptor sent over a Unix
 * socket and not yet received (-s: only the in-flight message holds it).
 *
 * Usage: holdfile -m|-s [-n COMM] [-t SECONDS] FILE
 *   -n	set the process name (prctl) just before opening FILE
 *   -t	hold it this long (default 1 s)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

/* Send @fd over a new socket pair and close it: the unreceived message holds the file. */
static int send_away(int fd)
{
	char byte = 0, ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
			      .msg_controllen = sizeof(ctl) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) < 0)
		return -1;
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(sv[0], &msg, 0) == 1 ? 0 : -1;
}

static void usage(void)
{
	fprintf(stderr, "usage: holdfile -m|-s [-n COMM] [-t S] FILE\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *comm = NULL;
	double secs = 1;
	int c, fd, mode = 0;

	while ((c = getopt(argc, argv, "msn:t:")) != -1) {
		switch (c) {
		case 'm': case 's': mode = c; break;
		case 'n': comm = optarg; break;
		case 't': secs = atof(optarg); break;
		default: usage();
		}
	}
	if (optind >= argc || !mode)
		usage();
	if (comm)
		prctl(PR_SET_NAME, comm);
	fd = open(argv[optind], O_RDONLY);
	if (fd < 0 || (mode == 'm' && mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED) ||
	    (mode == 's' && send_away(fd) < 0)) {
		perror(argv[optind]);
		return 1;
	}
	close(fd);
	usleep((useconds_t)(secs * 1e6));
	return 0;
}
