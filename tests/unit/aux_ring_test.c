// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * aux_ring's copies on a fake user page: AUX data read in one piece or across the end of the
 * area, aux_tail moved only when the consumer took it, overwritten data counted; records of
 * the data ring across its end (header split too); TIME_CONV from the page.  Then the mapping
 * of a real fd (a software event: its data ring maps; an AUX area it refuses).  Last, the
 * recorder's whole AUX path without SPE hardware: SPE packets written into fake AUX areas of
 * two CPUs (wrapping around), drained into a perf.data by aux_ring__write as the recorder
 * drains them, read back with lineup's reader: every record comes back as a memory sample.
 * With a path argument the file is kept there (tests/spe/record.sh gives it to perf c2c).
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sampling/arm_spe.h"
#include "sampling/aux_ring.h"
#include "sampling/event.h"
#include "sampling/perf_file.h"
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

/* One SPE load/store record (54 bytes) at AUX stream position @pos of @aux (@len bytes). */
static size_t spe_rec(uint8_t *aux, size_t len, uint64_t pos, uint64_t ip, int store,
		      uint64_t va, uint16_t lat, uint8_t src, uint32_t ctx, uint64_t ts)
{
	uint8_t b[64];
	size_t n = 0;

#define PKT(hdr, v, l)                                          \
	do {                                                    \
		b[n++] = (hdr);                                 \
		for (unsigned int i_ = 0; i_ < (l); i_++)       \
			b[n++] = (uint8_t)((uint64_t)(v) >> (8 * i_)); \
	} while (0)
	PKT(0xb0, ip, 8);
	PKT(0x65, ctx, 4);
	PKT(0x49, store, 1);
	PKT(0x52, 1u << SPE_EV_L1D_ACCESS, 2);
	PKT(0x43, src, 1);
	PKT(0x99, 1, 2);
	PKT(0x98, lat, 2);
	PKT(0xb2, va, 8);
	PKT(0xb3, va & 0xffff, 8);
	PKT(0x71, ts, 8);
#undef PKT
	for (size_t i = 0; i < n; i++)
		aux[(pos + i) & (len - 1)] = b[i];
	return n;
}

static void test_recording(const char *keep)
{
	char path[] = "/tmp/aux_ring_test.XXXXXX";
	struct perf_writer *w = perf_writer__new();
	struct perf_writer_event spe = { .name = "arm_spe_0//", .type = 8, .sample_period = 4096,
		.sample_type = SF_IDENTIFIER | SF_IP | SF_TID | SF_TIME | SF_ADDR | SF_CPU |
			       SF_WEIGHT | SF_DATA_SRC | SF_PHYS_ADDR,
		.sample_id_all = true, .mmap = true, .mmap2 = true, .comm = true, .task = true };
	static struct perf_event_mmap_page up[2];
	uint8_t aux[2][256];
	struct aux_ring ar[2] = { { .up = &up[0], .aux = aux[0], .aux_len = 256 },
				  { .up = &up[1], .aux = aux[1], .aux_len = 256 } };
	struct perf_writer_time_conv tc = { .time_mult = 1 };
	uint64_t priv[ARM_SPE_PRIV_MAX] = { 8, 1 }, bytes = 0, lost = 0;
	struct rec_comm c = { .pid = 100, .tid = 100, .comm = "prog" };
	struct sample sid = { .pid = 100, .tid = 100, .time = 1 };
	struct rec_mmap m = { .pid = 100, .tid = 100, .start = 0x7f0000000000, .len = 0x10000,
			      .is_mmap2 = true, .prot = 3, .flags = 0x22, .filename = "//anon" };
	struct perf_file *pf;
	struct record rec;
	char err[PERF_FILE_ERRMAX];
	int fd, nr = 0, nr_aux = 0, rc, ok_fields = 0;
	uint64_t want = 0, ts = 1000;

	fd = keep ? -1 : mkstemp(path);
	CHECK(keep || fd >= 0);
	if (fd >= 0)
		close(fd);
	CHECK(perf_writer__add_event(w, &spe) == 0);
	perf_writer__set_string(w, FEAT_ARCH, "arm64");
	perf_writer__set_string(w, FEAT_CPUID, "0x00000000410fd0c0");
	perf_writer__set_nrcpus(w, 2, 2);
	perf_writer__add_numa_node(w, 0, 1 << 20, 1 << 19, "0-1");
	perf_writer__add_cache(w, 1, 64, 256, 4, "Data", "64K", "0");
	CHECK(perf_writer__open(w, keep ? keep : path) == 0);
	CHECK(perf_writer__time_conv(w, &tc) == 0);
	CHECK(perf_writer__auxtrace_info(w, ARM_SPE_AUXTRACE_TYPE, priv, ARM_SPE_PRIV_MAX) == 0);
	sid.id = perf_writer__event_id(w, 0);
	CHECK(perf_writer__comm(w, &c, &sid) == 0);
	CHECK(perf_writer__mmap(w, CPUMODE_USER | 1u << 13, &m, &sid) == 0);
	/* 3 passes; each CPU's hardware writes 3 records (162 bytes) a pass: the area wraps */
	for (int pass = 0; pass < 3; pass++) {
		for (int k = 0; k < 2; k++) {
			for (int i = 0; i < 3; i++, ts++, want++)
				up[k].aux_head += spe_rec(aux[k], 256, up[k].aux_head,
							  0x400000 + 16 * (uint64_t)i, i == 2,
							  0x7f0000000000 + 8 * (uint64_t)k, 100,
							  k ? 0x9 : 0xd, 100, ts);
			CHECK(aux_ring__write(&ar[k], w, (uint32_t)k, k, &bytes, &lost) == 0);
		}
		CHECK(perf_writer__finished_round(w) == 0);
	}
	CHECK(bytes == want * 54 && !lost && up[0].aux_tail == up[0].aux_head);
	CHECK(perf_writer__close(w) == 0);
	perf_writer__delete(w);
	free(ar[0].tmp);
	free(ar[1].tmp);

	/* read back: 18 memory samples, the AUXTRACE offsets continuous */
	CHECK(perf_file__open(&pf, keep ? keep : path, err, sizeof(err)) == 0);
	if (!pf) {
		fprintf(stderr, "%s\n", err);
		return;
	}
	while ((rc = perf_file__next_record(pf, &rec)) > 0) {
		if (rec.type == REC_AUXTRACE) {
			CHECK(rec.auxtrace.offset == (uint64_t)(nr_aux / 2) * 162);
			CHECK(rec.auxtrace.size == 168 && rec.auxtrace.cpu == rec.auxtrace.idx);
			nr_aux++;
		}
		if (rec.type != REC_SAMPLE)
			continue;
		nr++;
		if (rec.sample.tid == 100 && rec.sample.pid == 100 && rec.sample.weight == 100 &&
		    (rec.sample.ip & ~0x3fULL) == 0x400000 &&
		    rec.sample.addr == 0x7f0000000000 + 8 * rec.sample.cpu)
			ok_fields++;
	}
	CHECK(rc == 0);
	if (rc)
		fprintf(stderr, "%s\n", perf_file__errmsg(pf));
	CHECK(nr == (int)want && ok_fields == nr && nr_aux == 6);
	CHECK(perf_file__header(pf)->nr_evsels == 2 &&
	      !strcmp(perf_file__header(pf)->evsels[1].name, "memory"));
	perf_file__close(pf);
	if (!keep)
		unlink(path);
}

int main(int argc, char **argv)
{
	test_aux();
	test_records();
	test_time_conv();
	test_map();
	test_recording(argc > 1 ? argv[1] : NULL);
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures != 0;
}
