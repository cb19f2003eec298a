// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
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

/* Each kind's limit: far above any real one, far below what would exhaust memory. */
static const struct {
	size_t max;
	const char *max_text, *what;
} text_kinds[] = {
	[FILE_SOURCE] = { 16 << 20, "16 MiB", "a source file" },
	[FILE_PATCH] = { 64 << 20, "64 MiB", "a patch" },
	[FILE_LOG] = { 16 << 20, "16 MiB", "a compiler's log" },
	[FILE_PROC] = { 64 << 20, "64 MiB", "a /proc listing" },
	[FILE_PERF_MAP] = { 256 << 20, "256 MiB", "a JIT symbol map" },
};

char *file__read_text(const char *path, enum file_text kind, char *err, size_t errlen)
{
	size_t max = text_kinds[kind].max;
	struct strbuf sb = STRBUF_INIT;
	char buf[65536], *nul;
	struct stat st;
	ssize_t n;
	int fd = file__open_regular(path), saved;

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, fd == -EINVAL ? "not a regular file" :
			 strerror(-fd));
		errno = -fd;
		return NULL;
	}
	/* a size above the limit is believed (a sparse file), a smaller one is not: /proc says 0 */
	if (!fstat(fd, &st) && (uint64_t)st.st_size > max)
		goto too_large;
	/* one byte past the limit tells a file at the limit from a larger one */
	while (sb.len <= max) {
		size_t want = max + 1 - sb.len < sizeof(buf) ? max + 1 - sb.len : sizeof(buf);

		n = read(fd, buf, want);
		if (n == 0)
			break;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			saved = errno;
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			goto fail;
		}
		/* the first NUL ends the read: pagemap or a binary is not read to its end */
		if ((nul = memchr(buf, '\0', (size_t)n))) {
			snprintf(err, errlen, "%s: a NUL byte at offset %zu: not a text file", path,
				 sb.len + (size_t)(nul - buf));
			saved = EILSEQ;
			goto fail;
		}
		strbuf__add(&sb, buf, (size_t)n);
	}
	if (sb.len > max)
		goto too_large;
	close(fd);
	strbuf__add(&sb, "", 0);
	return sb.buf;
too_large:
	snprintf(err, errlen, "%s: larger than %s, the most %s may be", path,
		 text_kinds[kind].max_text, text_kinds[kind].what);
	saved = EFBIG;
fail:
	close(fd);
	strbuf__release(&sb);
	errno = saved;
	return NULL;
}
