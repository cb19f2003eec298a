/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_UTIL_FILE_H
#define LINEUP_UTIL_FILE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Opening files whose names come from a recording (an MMAP's file name, a JIT map, a build-id
 * cache entry) or from inside one binary about another: such a name may be a FIFO, which a
 * plain open() waits on forever, or a device.  Only regular files are opened.  lineup runs as
 * root on trees from elsewhere: a text file is read up to a limit for its kind, and a file is
 * written without following a link planted where it goes.
 */

/*
 * Open @path read-only (O_CLOEXEC) if it is a regular file, without ever blocking: the fd, or
 * -errno (-EINVAL when something other than a regular file is there).
 */
int file__open_regular(const char *path);

/* What a text file is: the most lineup reads of it, and how an error names it. */
enum file_text {
	FILE_SOURCE,	/* a C source or header, 16 MiB */
	FILE_PATCH,	/* a unified diff, 64 MiB */
	FILE_LOG,	/* a compiler's messages, 16 MiB */
	FILE_PROC,	/* a /proc listing (kallsyms), 64 MiB */
	FILE_PERF_MAP,	/* a JIT's /tmp/perf-PID.map, 256 MiB */
};

/*
 * The whole text file @path, a regular file of @kind within its limit and without a NUL byte,
 * NUL-terminated, to free(); NULL with @err saying "PATH: what is wrong" and errno set (EFBIG
 * too large, EILSEQ a NUL byte, EINVAL not a regular file, else open's or read's).
 */
char *file__read_text(const char *path, enum file_text kind, char *err, size_t errlen);

/*
 * Write @len bytes of @text to @path as a new file that takes @path's place at once: written
 * beside it under a temporary name, then renamed, so that a reader never sees half of it and
 * nothing is written through a symbolic link planted at @path.  An existing @path is replaced
 * only when @replace, and only a regular file: 0, or -errno with @err saying "PATH: what is
 * wrong" (-EEXIST there is a file and !@replace, -ELOOP a symbolic link, -EINVAL something
 * other than a regular file).  The new file has the old one's permissions, else 0644 less the
 * umask.  "-" is a file name here, not stdout.
 */
int file__write_atomic(const char *path, const char *text, size_t len, bool replace, char *err,
		       size_t errlen);

#endif
