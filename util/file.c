// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int file__open_regular(const char *path)
{
	struct stat st;
	int fd;

	/* stat first: a device is not even opened (opening some has effects of its own) */
	if (stat(path, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	/* O_NONBLOCK: if a FIFO took the name since, the open returns instead of waiting */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}
