/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_AUX_RING_H
#define LINEUP_SAMPLING_AUX_RING_H

/*
 * The ring buffer of one perf event fd with an AUX area (Arm SPE): the user page, the data
 * pages (the event's records: AUX, ITRACE_START, LOST, side-band), and the AUX area the
 * hardware writes its trace into, mapped writable so the kernel respects aux_tail (perf
 * record's full-trace mode).  The copy functions take the user page and the buffers as
 * plain memory, so a test drives them with a fake page, wrap-around included.
 *
 * Ownership: aux_ring__map() owns the mappings and the scratch buffer until
 * aux_ring__unmap(); the fd stays the caller's.  Data handed to a callback is valid only
 * during the call.
 */

#include <stddef.h>
#include <stdint.h>

struct perf_event_mmap_page;
struct perf_writer_time_conv;

/**
 * struct aux_ring - the mappings of one fd.
 * @up:		the user page (control fields)
 * @data, @data_len: the data pages (a power of two)
 * @aux, @aux_len: the AUX area (a power of two)
 * @tmp:	scratch for what wraps around the end of a buffer
 */
struct aux_ring {
	struct perf_event_mmap_page *up;
	size_t map_len;
	uint8_t *data;
	size_t data_len;
	uint8_t *aux;
	size_t aux_len;
	uint8_t *tmp;
	size_t tmp_cap;
};

/* mmap @data_pages (+ the user page) and @aux_pages of @fd (powers of two): 0 or -errno. */
int aux_ring__map(struct aux_ring *ar, int fd, size_t page, unsigned int data_pages,
		  unsigned int aux_pages);
void aux_ring__unmap(struct aux_ring *ar);

/* Hand out each record of the data ring (contiguous, 8-aligned), then free their space. */
typedef int (*aux_ring_record_fn)(void *ctx, const void *rec);
int aux_ring__read_records(struct aux_ring *ar, aux_ring_record_fn fn, void *ctx);

/*
 * Hand out the AUX data written since the last call, in one piece (copied when it wraps),
 * with its position in the AUX stream (perf's auxtrace offset), then move aux_tail past it.
 * Returns what @fn returns, 0 when there was nothing; *@lost gets the bytes overwritten
 * before they were read (never in full-trace mode, but a bug must not read garbage).
 */
typedef int (*aux_ring_data_fn)(void *ctx, const void *data, size_t len, uint64_t offset);
int aux_ring__read_aux(struct aux_ring *ar, aux_ring_data_fn fn, void *ctx, uint64_t *lost);

/*
 * What the recorder does with a ring's AUX data: read it (aux_ring__read_aux) and write it to
 * @w as one AUXTRACE record of queue @idx on @cpu (tid -1: per-CPU rings), as perf record
 * does.  Adds the bytes to *@bytes and the overwritten ones to *@lost.  0 or -errno (the
 * writer's message in perf_writer__strerror).
 */
struct perf_writer;
int aux_ring__write(struct aux_ring *ar, struct perf_writer *w, uint32_t idx, int32_t cpu,
		    uint64_t *bytes, uint64_t *lost);

/* The TIME_CONV of the user page, read under its seqlock: 0, or -EOPNOTSUPP when the kernel
 * offers no conversion (cap_user_time_zero clear; perf record then writes no TIME_CONV). */
int aux_ring__time_conv(const struct perf_event_mmap_page *up, struct perf_writer_time_conv *tc);

#endif
