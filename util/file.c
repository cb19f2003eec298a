// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

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

/* @path's directory as a prefix ("" or "DIR/"): the temporary file goes there, for rename() */
static char *temp_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return xasprintf("%.*s.lineup-XXXXXX", slash ? (int)(slash - path + 1) : 0, path);
}

static int write_all(int fd, const char *text, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		done += (size_t)n;
	}
	return 0;
}

/* Move @tmp to @path; without @replace, never over a file that appeared there since. */
static int put_in_place(const char *tmp, const char *path, bool replace)
{
	if (replace)
		return rename(tmp, path) ? -errno : 0;
	if (!renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
	/* a filesystem without RENAME_NOREPLACE: link() does not replace either */
	if (link(tmp, path))
		return -errno;
	unlink(tmp);
	return 0;
}

int file__write_atomic(const char *path, const char *text, size_t len, bool replace, char *err,
		       size_t errlen)
{
	struct stat st;
	mode_t mode, mask;
	char *tmp;
	int fd, rc;

	if (!lstat(path, &st)) {
		if (S_ISLNK(st.st_mode)) {
			snprintf(err, errlen, "%s: a symbolic link: not followed", path);
			return -ELOOP;
		}
		if (!S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "%s: not a regular file", path);
			return -EINVAL;
		}
		if (!replace) {
			snprintf(err, errlen, "%s: exists", path);
			return -EEXIST;
		}
		/* the permissions, not set-id bits: a patch is not a program */
		mode = st.st_mode & 0777;
	} else if (errno != ENOENT) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	} else {
		/* what open(..., 0644) would have made; umask() is the way to read the mask, and
		 * lineup writes its files from one thread */
		mask = umask(0);
		umask(mask);
		mode = 0644 & ~mask;
	}
	tmp = temp_name(path);
	/* mkostemp: O_EXCL, so nothing planted at the temporary name is written through */
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot create a file beside it: %s", path,
			 strerror(-rc));
		goto out;
	}
	rc = write_all(fd, text, len);
	if (!rc && fchmod(fd, mode))
		rc = -errno;
	if (close(fd) && !rc)
		rc = -errno;
	if (!rc)
		rc = put_in_place(tmp, path, replace);
	if (rc) {
		snprintf(err, errlen, "%s: %s", path, rc == -EEXIST ? "exists" : strerror(-rc));
		unlink(tmp);
	}
out:
	free(tmp);
	return rc;
}
