/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_UTIL_FILE_H
#define LINEUP_UTIL_FILE_H

#include <stddef.h>

/*
 * Opening files whose names come from a recording (an MMAP's file name, a JIT map, a build-id
 * cache entry) or from inside one binary about another: such a name may be a FIFO, which a
 * plain open() waits on forever, or a device.  Only regular files are opened.
 */

/*
 * Open @path read-only (O_CLOEXEC) if it is a regular file, without ever blocking: the fd, or
 * -errno (-EINVAL when something other than a regular file is there).
 */
int file__open_regular(const char *path);

/*
 * The whole text file @path (a regular file, no NUL byte), NUL-terminated, to free(); NULL
 * with @err saying "PATH: what is wrong".
 */
char *file__read_text(const char *path, char *err, size_t errlen);

#endif
