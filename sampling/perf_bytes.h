/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_PERF_BYTES_H
#define LINEUP_SAMPLING_PERF_BYTES_H

/*
 * Unaligned loads in the file's byte order, for the reader's own use (sampling/ only).  @swap
 * is true for a file recorded on a big-endian machine; lineup runs little-endian hosts only
 * (x86-64, arm64), which configure checks.
 */

#include <byteswap.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t ld16(const void *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_16(v) : v;
}

static inline uint32_t ld32(const void *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_32(v) : v;
}

static inline uint64_t ld64(const void *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? bswap_64(v) : v;
}

/* Swap @n u64 words in place. */
static inline void swap64_array(void *p, size_t n)
{
	uint8_t *b = p;

	for (size_t i = 0; i < n; i++, b += 8) {
		uint64_t v;

		memcpy(&v, b, 8);
		v = bswap_64(v);
		memcpy(b, &v, 8);
	}
}

#endif
