/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_SMALL_FILE_H
#define LINEUP_SAMPLING_SMALL_FILE_H

/*
 * Reading the one-line files of sysfs and /proc.  libc only, in libperfwriter, so that the
 * perf.data writer, the software collector's runtime and sampling/pmu.c share it.
 */

#include <stddef.h>

/*
 * Read the small text file @path (one read of at most @size - 1 bytes) into @buf, without the
 * trailing newlines and spaces; 0, or -errno on failure.
 */
int small_file__read(const char *path, char *buf, size_t size);

#endif
