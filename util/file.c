// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/strbuf.h"

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

char *file__read_text(const char *path, char *err, size_t errlen)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	ssize_t n;
	int fd = file__open_regular(path);

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, fd == -EINVAL ? "not a regular file" :
			 strerror(-fd));
		return NULL;
	}
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			goto fail;
		}
		strbuf__add(&sb, buf, (size_t)n);
	}
	if (sb.len && memchr(sb.buf, '\0', sb.len)) {
		snprintf(err, errlen, "%s: not a text file (a NUL byte)", path);
		goto fail;
	}
	close(fd);
	strbuf__add(&sb, "", 0);
	return sb.buf;
fail:
	close(fd);
	strbuf__release(&sb);
	return NULL;
}
