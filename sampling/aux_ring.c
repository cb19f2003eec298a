// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Ring buffer and AUX area of one perf event fd (see aux_ring.h).  The head/tail protocol is
 * the kernel's (include/uapi/linux/perf_event.h): read the head with acquire ordering, copy,
 * then publish the tail with release ordering.
 */
#include "sampling/aux_ring.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sampling/event.h"
#include "sampling/perf_writer.h"

static uint8_t *scratch(struct aux_ring *ar, size_t n)
{
	if (n > ar->tmp_cap) {
		uint8_t *p = realloc(ar->tmp, n);

		if (!p)
			return NULL;
		ar->tmp = p;
		ar->tmp_cap = n;
	}
	return ar->tmp;
}

int aux_ring__map(struct aux_ring *ar, int fd, size_t page, unsigned int data_pages,
		  unsigned int aux_pages)
{
	void *base, *aux;

	memset(ar, 0, sizeof(*ar));
	if (!data_pages || (data_pages & (data_pages - 1)) || !aux_pages ||
	    (aux_pages & (aux_pages - 1)))
		return -EINVAL;
	ar->map_len = (1 + (size_t)data_pages) * page;
	base = mmap(NULL, ar->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED)
		return -errno;
	ar->up = base;
	ar->data = (uint8_t *)base + page;
	ar->data_len = (size_t)data_pages * page;
	/* where the AUX area goes: told to the kernel through the user page, then mapped */
	ar->up->aux_offset = ar->map_len;
	ar->up->aux_size = (uint64_t)aux_pages * page;
	aux = mmap(NULL, (size_t)ar->up->aux_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   (off_t)ar->up->aux_offset);
	if (aux == MAP_FAILED) {
		int e = errno;

		munmap(base, ar->map_len);
		ar->up = NULL;
		return -e;
	}
	ar->aux = aux;
	ar->aux_len = (size_t)ar->up->aux_size;
	return 0;
}

void aux_ring__unmap(struct aux_ring *ar)
{
	if (ar->aux)
		munmap(ar->aux, ar->aux_len);
	if (ar->up)
		munmap(ar->up, ar->map_len);
	free(ar->tmp);
	memset(ar, 0, sizeof(*ar));
}

/* Copy @n bytes at ring position @pos (mask = len - 1) to @dst. */
static void ring_copy(uint8_t *dst, const uint8_t *ring, size_t len, uint64_t pos, size_t n)
{
	size_t at = (size_t)(pos & (len - 1)), first = len - at < n ? len - at : n;

	memcpy(dst, ring + at, first);
	memcpy(dst + first, ring, n - first);
}

int aux_ring__read_records(struct aux_ring *ar, aux_ring_record_fn fn, void *ctx)
{
	uint64_t head = __atomic_load_n(&ar->up->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = ar->up->data_tail;
	int rc = 0;

	while (tail < head && !rc) {
		struct perf_event_header h;
		size_t at = (size_t)(tail & (ar->data_len - 1));
		uint8_t *rec;

		if (head - tail < sizeof(h))
			break;
		ring_copy((uint8_t *)&h, ar->data, ar->data_len, tail, sizeof(h));
		if (h.size < sizeof(h) || h.size > head - tail)
			break;	/* a torn record: the kernel never writes one */
		if (at + h.size <= ar->data_len && !(at & 7)) {
			rec = ar->data + at;
		} else {
			rec = scratch(ar, h.size);
			if (!rec)
				return -ENOMEM;
			ring_copy(rec, ar->data, ar->data_len, tail, h.size);
		}
		rc = fn(ctx, rec);
		tail += h.size;
	}
	__atomic_store_n(&ar->up->data_tail, tail, __ATOMIC_RELEASE);
	return rc;
}

int aux_ring__read_aux(struct aux_ring *ar, aux_ring_data_fn fn, void *ctx, uint64_t *lost)
{
	uint64_t head = __atomic_load_n(&ar->up->aux_head, __ATOMIC_ACQUIRE);
	uint64_t tail = ar->up->aux_tail;
	size_t n, at;
	const uint8_t *p;
	int rc;

	*lost = 0;
	if (head <= tail)
		return 0;
	if (head - tail > ar->aux_len) {
		*lost = head - tail - ar->aux_len;
		tail = head - ar->aux_len;
	}
	n = (size_t)(head - tail);
	at = (size_t)(tail & (ar->aux_len - 1));
	if (at + n <= ar->aux_len) {
		p = ar->aux + at;
	} else {
		uint8_t *t = scratch(ar, n);

		if (!t)
			return -ENOMEM;
		ring_copy(t, ar->aux, ar->aux_len, tail, n);
		p = t;
	}
	rc = fn(ctx, p, n, tail);
	if (!rc)
		__atomic_store_n(&ar->up->aux_tail, head, __ATOMIC_RELEASE);
	return rc;
}

struct write_ctx {
	struct perf_writer *w;
	uint32_t idx;
	int32_t cpu;
	uint64_t *bytes;
};

static int write_aux(void *ctx, const void *data, size_t len, uint64_t offset)
{
	struct write_ctx *c = ctx;
	struct rec_auxtrace a = { .size = len, .offset = offset, .idx = c->idx,
				  .tid = (uint32_t)-1, .cpu = (uint32_t)c->cpu };
	int rc = perf_writer__auxtrace(c->w, &a, data);

	if (!rc)
		*c->bytes += len;
	return rc;
}

int aux_ring__write(struct aux_ring *ar, struct perf_writer *w, uint32_t idx, int32_t cpu,
		    uint64_t *bytes, uint64_t *lost)
{
	struct write_ctx c = { w, idx, cpu, bytes };
	uint64_t l = 0;
	int rc = aux_ring__read_aux(ar, write_aux, &c, &l);

	*lost += l;
	return rc;
}

int aux_ring__time_conv(const struct perf_event_mmap_page *up, struct perf_writer_time_conv *tc)
{
	for (int tries = 0; tries < 10000; tries++) {
		uint32_t seq = __atomic_load_n(&up->lock, __ATOMIC_ACQUIRE);

		tc->time_mult = up->time_mult;
		tc->time_shift = up->time_shift;
		tc->time_zero = up->time_zero;
		tc->time_cycles = up->time_cycles;
		tc->time_mask = up->time_mask;
		tc->cap_user_time_zero = up->cap_user_time_zero;
		tc->cap_user_time_short = up->cap_user_time_short;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&up->lock, __ATOMIC_RELAXED) == seq && !(seq & 1))
			return tc->cap_user_time_zero ? 0 : -EOPNOTSUPP;
	}
	return -EBUSY;
}
