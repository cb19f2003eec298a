// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * aux_ring's copies on a fake user page: AUX data read in one piece or across the end of the
 * area, aux_tail moved only when the consumer took it, overwritten data counted; records of
 * the data ring across its end (header split too); TIME_CONV from the page.  Then the mapping
 * of a real fd (a software event: its data ring maps; an AUX area it refuses).
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sampling/aux_ring.h"
#include "sampling/perf_writer.h"
#include "tests/unit/check.h"

struct got {
	uint8_t buf[256];
	size_t len, calls;
	uint64_t offset;
	int ret;
};

static int take(void *ctx, const void *data, size_t len, uint64_t offset)
{
	struct got *g = ctx;

	memcpy(g->buf, data, len < sizeof(g->buf) ? len : sizeof(g->buf));
	g->len = len;
	g->offset = offset;
	g->calls++;
	return g->ret;
}

static void test_aux(void)
{
	static struct perf_event_mmap_page up;
	uint8_t aux[32];
	struct aux_ring ar = { .up = &up, .aux = aux, .aux_len = sizeof(aux) };
	struct got g = { .len = 0 };
	uint64_t lost = 0;

	for (int i = 0; i < 32; i++)
		aux[i] = (uint8_t)i;
	/* nothing written */
	CHECK(aux_ring__read_aux(&ar, take, &g, &lost) == 0 && g.calls == 0);
	/* 10 bytes from 0 */
	up.aux_head = 10;
	CHECK(aux_ring__read_aux(&ar, take, &g, &lost) == 0 && g.calls == 1 && g.len == 10 &&
	      g.offset == 0 && g.buf[9] == 9 && up.aux_tail == 10 && !lost);
	/* 30 more: from 10 across the end to 8 (wrapped): 10..31, 0..7 */
	up.aux_head = 40;
	CHECK(aux_ring__read_aux(&ar, take, &g, &lost) == 0 && g.len == 30 && g.offset == 10 &&
	      g.buf[0] == 10 && g.buf[21] == 31 && g.buf[22] == 0 && g.buf[29] == 7 &&
	      up.aux_tail == 40);
	/* the consumer fails: the tail stays */
	up.aux_head = 44;
	g.ret = -EIO;
	CHECK(aux_ring__read_aux(&ar, take, &g, &lost) == -EIO && up.aux_tail == 40);
	g.ret = 0;
	CHECK(aux_ring__read_aux(&ar, take, &g, &lost) == 0 && g.len == 4 && g.buf[0] == 8);
	/* more than the area since the last read: the oldest were overwritten */
	up.aux_head = 44 + 40;
	CHECK(aux_ring__read_aux(&ar, take, &g, &lost) == 0 && lost == 8 && g.len == 32 &&
	      g.offset == 52 && g.buf[0] == (52 & 31) && up.aux_tail == 84);
	free(ar.tmp);
}

struct recs {
	uint32_t types[16];
	uint16_t sizes[16];
	uint64_t first_word[16];
	int n;
};

static int take_rec(void *ctx, const void *rec)
{
	struct recs *r = ctx;
	struct perf_event_header h;

	memcpy(&h, rec, sizeof(h));
	if (r->n < 16) {
		r->types[r->n] = h.type;
		r->sizes[r->n] = h.size;
		memcpy(&r->first_word[r->n], (const uint8_t *)rec + 8, 8);
		r->n++;
	}
	return 0;
}

/* Write a record of @size bytes (type @type, first payload word @w) at ring position @pos. */
static void put_rec(uint8_t *ring, size_t len, uint64_t pos, uint32_t type, uint16_t size,
		    uint64_t w)
{
	uint8_t rec[64] = { 0 };
	struct perf_event_header h = { .type = type, .misc = 0, .size = size };

	memcpy(rec, &h, sizeof(h));
	memcpy(rec + 8, &w, 8);
	for (size_t i = 0; i < size; i++)
		ring[(pos + i) & (len - 1)] = rec[i];
}

static void test_records(void)
{
	static struct perf_event_mmap_page up;
	uint64_t data[8];	/* 64 bytes, 8-aligned */
	uint8_t *ring = (uint8_t *)data;
	struct aux_ring ar = { .up = &up, .data = ring, .data_len = 64 };
	struct recs r = { .n = 0 };

	put_rec(ring, 64, 0, PERF_RECORD_AUX, 40, 111);
	put_rec(ring, 64, 40, PERF_RECORD_ITRACE_START, 16, 222);
	up.data_head = 56;
	CHECK(aux_ring__read_records(&ar, take_rec, &r) == 0 && r.n == 2 &&
	      r.types[0] == PERF_RECORD_AUX && r.first_word[0] == 111 &&
	      r.types[1] == PERF_RECORD_ITRACE_START && r.sizes[1] == 16 &&
	      r.first_word[1] == 222 && up.data_tail == 56);
	/* a record whose header crosses the end: 56..63 then 0..23 */
	put_rec(ring, 64, 56, PERF_RECORD_LOST, 32, 333);
	put_rec(ring, 64, 88, PERF_RECORD_AUX, 24, 444);	/* 24..47 */
	up.data_head = 112;
	r.n = 0;
	CHECK(aux_ring__read_records(&ar, take_rec, &r) == 0 && r.n == 2 &&
	      r.types[0] == PERF_RECORD_LOST && r.sizes[0] == 32 && r.first_word[0] == 333 &&
	      r.types[1] == PERF_RECORD_AUX && r.first_word[1] == 444 && up.data_tail == 112);
	/* a torn record (size past the head) is left for later */
	put_rec(ring, 64, 112, PERF_RECORD_AUX, 40, 555);
	up.data_head = 120;
	r.n = 0;
	CHECK(aux_ring__read_records(&ar, take_rec, &r) == 0 && r.n == 0 && up.data_tail == 112);
	free(ar.tmp);
}

static void test_time_conv(void)
{
	static struct perf_event_mmap_page up;
	struct perf_writer_time_conv tc;

	up.time_shift = 31;
	up.time_mult = 1000;
	up.time_zero = 12345;
	CHECK(aux_ring__time_conv(&up, &tc) == -EOPNOTSUPP);
	up.cap_user_time_zero = 1;
	up.cap_user_time_short = 1;
	up.time_cycles = 77;
	up.time_mask = 0xffff;
	CHECK(aux_ring__time_conv(&up, &tc) == 0 && tc.time_shift == 31 && tc.time_mult == 1000 &&
	      tc.time_zero == 12345 && tc.time_cycles == 77 && tc.time_mask == 0xffff &&
	      tc.cap_user_time_zero && tc.cap_user_time_short);
	up.lock = 1;	/* a writer forever in the middle */
	CHECK(aux_ring__time_conv(&up, &tc) == -EBUSY);
}

/* A real fd: the data ring maps; the AUX area is refused by an event without one. */
static void test_map(void)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
				     .config = PERF_COUNT_SW_DUMMY, .disabled = 1,
				     .exclude_kernel = 1, .exclude_hv = 1 };
	struct aux_ring ar;
	long page = sysconf(_SC_PAGESIZE);
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	int rc;

	CHECK(aux_ring__map(&ar, 0, (size_t)page, 3, 1) == -EINVAL);
	if (fd < 0) {
		printf("no perf_event_open here (%s): mapping not tested\n", strerror(errno));
		return;
	}
	rc = aux_ring__map(&ar, fd, (size_t)page, 4, 2);
	CHECK(rc < 0 && rc != -EINVAL);	/* ENOTSUPP-ish: no AUX for a software event */
	CHECK(ar.up == NULL);
	close(fd);
}

int main(void)
{
	test_aux();
	test_records();
	test_time_conv();
	test_map();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures != 0;
}
