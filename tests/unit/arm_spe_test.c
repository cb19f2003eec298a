// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Arm SPE decoder and synthesis on hand-built packet streams: every packet kind, the address
 * fix-ups, records spanning buffers, data_src for the Neoverse and the generic encodings (the
 * values perf's arm_spe__synth_data_source gives), TIME_CONV, CONTEXT tids, bad packets.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sampling/arm_spe.h"
#include "sampling/event.h"
#include "tests/unit/check.h"

struct sbuf {
	uint8_t b[4096];
	size_t n;
};

static void put(struct sbuf *s, uint8_t hdr, uint64_t v, unsigned int len)
{
	s->b[s->n++] = hdr;
	for (unsigned int i = 0; i < len; i++)
		s->b[s->n++] = (uint8_t)(v >> (8 * i));
}

/* One load/store record as the hardware writes it. */
static void rec(struct sbuf *s, uint64_t pc, bool store, uint64_t va, uint64_t pa,
		uint16_t lat, uint32_t events, uint8_t source, int32_t ctx, uint64_t ts)
{
	put(s, 0xb0, pc, 8);				/* PC, EL0 */
	if (ctx >= 0)
		put(s, 0x65, (uint32_t)ctx, 4);		/* CONTEXT (index 1: EL2) */
	put(s, 0x49, store ? 1 : 0, 1);			/* OP_TYPE LDST */
	put(s, 0x52, events, 2);			/* EVENTS, 2 bytes */
	put(s, 0x43, source, 1);			/* DATA_SOURCE, 1 byte */
	put(s, 0x99, 3, 2);				/* issue latency (ignored) */
	put(s, 0x98, lat, 2);				/* total latency */
	put(s, 0xb2, va, 8);				/* data VA */
	put(s, 0xb3, pa, 8);				/* data PA */
	put(s, 0x71, ts, 8);				/* TIMESTAMP: end */
}

static void test_packets(void)
{
	struct arm_spe_pkt p;
	uint8_t pad[] = { 0 }, end[] = { 1 };
	uint8_t ts[] = { 0x71, 1, 2, 3, 4, 5, 6, 7, 8 };
	uint8_t ev4[] = { 0x62, 0x0c, 0x03, 0, 0 };
	uint8_t ext_addr[] = { 0x21, 0xb2, 1, 0, 0, 0, 0, 0, 0, 0 };
	uint8_t ext_cnt[] = { 0x20, 0x98, 0x34, 0x12 };
	uint8_t align[16] = { 0x23, 0x00 };
	uint8_t bad[] = { 0x10 };
	uint8_t cut[] = { 0xb0, 1, 2 };

	CHECK(arm_spe__packet(pad, 1, 0, &p) == 1 && p.type == SPE_PKT_PAD);
	CHECK(arm_spe__packet(end, 1, 0, &p) == 1 && p.type == SPE_PKT_END);
	CHECK(arm_spe__packet(ts, 9, 0, &p) == 9 && p.type == SPE_PKT_TIMESTAMP &&
	      p.payload == 0x0807060504030201ULL);
	CHECK(arm_spe__packet(ev4, 5, 0, &p) == 5 && p.type == SPE_PKT_EVENTS &&
	      p.payload == 0x30c && p.index == 4);
	CHECK(arm_spe__packet(ext_addr, 10, 0, &p) == 10 && p.type == SPE_PKT_ADDRESS &&
	      p.index == ((1 << 3) | 2) && p.payload == 1);
	CHECK(arm_spe__packet(ext_cnt, 4, 0, &p) == 4 && p.type == SPE_PKT_COUNTER &&
	      p.index == 0 && p.payload == 0x1234);
	/* alignment to 16 from stream position 5: 11 bytes */
	CHECK(arm_spe__packet(align, 16, 5, &p) == 11 && p.type == SPE_PKT_PAD);
	CHECK(arm_spe__packet(align, 16, 16, &p) == 16);
	CHECK(arm_spe__packet(align, 8, 0, &p) == SPE_NEED_MORE);
	CHECK(arm_spe__packet(bad, 1, 0, &p) == SPE_BAD_PACKET);
	CHECK(arm_spe__packet(cut, 3, 0, &p) == SPE_NEED_MORE);
	CHECK(arm_spe__packet(ext_addr, 1, 0, &p) == SPE_NEED_MORE);
	/* every header byte: a length within the buffer or an error, never more */
	for (unsigned int h = 0; h < 256; h++) {
		uint8_t b[20] = { (uint8_t)h, 0xb0 };
		int n = arm_spe__packet(b, sizeof(b), 0, &p);

		CHECK(n == SPE_BAD_PACKET || (n > 0 && n <= 20));
	}
}

static void test_records(void)
{
	struct sbuf s = { .n = 0 };
	struct arm_spe_decoder d;
	struct arm_spe_record r;
	const char *why = NULL;
	size_t pos = 0;

	/* a kernel PC (NS=1, EL1) and a kernel data address get their top byte filled */
	put(&s, 0xb0, 0xffffffc0081234ULL | (1ULL << 63) | (1ULL << 61), 8);
	put(&s, 0x00, 0, 0);
	put(&s, 0xb2, 0x5aff800012345678ULL, 8);	/* tag 0x5a, bits 55:52 = 0xf */
	put(&s, 0xb3, 0x7700000080001000ULL, 8);	/* PA: top byte dropped */
	put(&s, 0xb1, 0x0000aaaabbbbccccULL, 8);	/* branch target */
	put(&s, 0x48, 0, 1);				/* OTHER */
	put(&s, 0x01, 0, 0);				/* END */
	rec(&s, 0x400500, false, 0x7f0000001000, 0x1000, 77, 1u << 2, 0x9, 4242, 1000);
	arm_spe_decoder__init(&d);
	CHECK(arm_spe_decoder__next(&d, s.b, s.n, &pos, 0, &r, &why) == 1);
	CHECK(r.from_ip == 0xffffffffc0081234ULL);	/* NS EL1: top byte 0xff */
	CHECK(r.virt_addr == 0xffff800012345678ULL);
	CHECK(r.phys_addr == 0x80001000ULL);
	CHECK(r.to_ip == 0x0000aaaabbbbccccULL);
	CHECK(r.op == SPE_OP_OTHER && r.timestamp == 0 && r.context_id == UINT64_MAX);
	CHECK(arm_spe__data_src(&r, 0) == 0);
	CHECK(arm_spe_decoder__next(&d, s.b, s.n, &pos, 0, &r, &why) == 1);
	CHECK(r.from_ip == 0x400500 && r.virt_addr == 0x7f0000001000 && r.phys_addr == 0x1000);
	CHECK(r.latency == 77 && r.source == 9 && r.context_id == 4242 && r.timestamp == 1000);
	CHECK(r.op == (SPE_OP_LDST | SPE_OP_LD) && r.type == SPE_L1D_ACCESS);
	CHECK(pos == s.n);
	CHECK(arm_spe_decoder__next(&d, s.b, s.n, &pos, 0, &r, &why) == 0);

	/* EL1 without NS stays as is: (1 << 61) with bit 63 clear */
	s.n = 0;
	put(&s, 0xb0, 0x00ffffc000001000ULL | (1ULL << 61), 8);
	put(&s, 0x01, 0, 0);
	pos = 0;
	CHECK(arm_spe_decoder__next(&d, s.b, s.n, &pos, 0, &r, &why) == 1);
	CHECK(r.from_ip == 0x00ffffc000001000ULL);

}

/* Packets cut at a buffer boundary are an error; whole packets carry a record over. */
static void test_split(void)
{
	struct sbuf s = { .n = 0 };
	struct arm_spe_decoder d;
	struct arm_spe_record r;
	const char *why = NULL;
	size_t pos = 0, cut;

	rec(&s, 0x400600, true, 0x2000, 0x3000, 5, 0, 0, -1, 2000);
	cut = 9 + 2;	/* PC and OP_TYPE */
	arm_spe_decoder__init(&d);
	CHECK(arm_spe_decoder__next(&d, s.b, cut, &pos, 0, &r, &why) == 0 && pos == cut);
	pos = 0;
	CHECK(arm_spe_decoder__next(&d, s.b + cut, s.n - cut, &pos, 100, &r, &why) == 1);
	CHECK(r.from_ip == 0x400600 && r.op == (SPE_OP_LDST | SPE_OP_ST) && r.timestamp == 2000);

	/* a packet cut by the end of the buffer */
	arm_spe_decoder__init(&d);
	pos = 0;
	why = NULL;
	CHECK(arm_spe_decoder__next(&d, s.b, 5, &pos, 0, &r, &why) == -EINVAL && pos == 0 &&
	      why && strstr(why, "cut"));
	/* a bad header in the middle: pos stays at it */
	s.b[11] = 0x10;
	arm_spe_decoder__init(&d);
	pos = 0;
	CHECK(arm_spe_decoder__next(&d, s.b, s.n, &pos, 0, &r, &why) == -EINVAL && pos == 11 &&
	      strstr(why, "bad"));
	/* op type class 3 */
	s.n = 0;
	put(&s, 0x4b, 0, 1);
	arm_spe_decoder__init(&d);
	pos = 0;
	CHECK(arm_spe_decoder__next(&d, s.b, s.n, &pos, 0, &r, &why) == -EINVAL);
}

#define N1 0x410fd0c0ULL
#define LD(lvl, lvlnum, snoop, snoopx, remote)                                               \
	(2ULL | (uint64_t)(lvl) << 5 | (uint64_t)(snoop) << 19 | (uint64_t)(lvlnum) << 33 | \
	 (uint64_t)(remote) << 37 | (uint64_t)(snoopx) << 38)

static uint64_t ds(bool store, uint32_t type, uint16_t source, uint64_t midr)
{
	struct arm_spe_record r = { .op = SPE_OP_LDST | (store ? SPE_OP_ST : SPE_OP_LD),
				    .type = type, .source = source };

	return arm_spe__data_src(&r, midr);
}

static void test_data_src(void)
{
	/* Neoverse: the values perf 6.1 computes (checked against perf_mem_data_src fields) */
	CHECK(arm_spe__midr_common_ds(N1) && arm_spe__midr_common_ds(0x413fd0c1) &&
	      arm_spe__midr_common_ds(0x410fd490) && arm_spe__midr_common_ds(0x410fd400));
	CHECK(!arm_spe__midr_common_ds(0x410fd080) && !arm_spe__midr_common_ds(0));
	CHECK(ds(false, 0, SPE_DS_L1D, N1) == LD(0x8 | 2, 1, 2, 0, 0));
	CHECK(ds(false, 0, SPE_DS_L2, N1) == LD(0x20 | 2, 2, 2, 0, 0));
	CHECK(ds(false, 0, SPE_DS_PEER_CORE, N1) == LD(0x20 | 2, 2, 0, 2, 0));
	CHECK(ds(false, 0, SPE_DS_LOCAL_CLUSTER, N1) == LD(0x40 | 2, 3, 0, 2, 0));
	CHECK(ds(false, 0, SPE_DS_PEER_CLUSTER, N1) == LD(0x40 | 2, 3, 0, 2, 0));
	CHECK(ds(false, 0, SPE_DS_SYS_CACHE, N1) == LD(0x40 | 2, 3, 4, 0, 0));
	CHECK(ds(false, 0, SPE_DS_REMOTE, N1) == LD(1, 0xf, 0, 2, 1));
	CHECK(ds(false, 0, SPE_DS_DRAM, N1) == LD(0x80 | 2, 0xd, 2, 0, 0));
	CHECK(ds(false, 0, 0x5, N1) == 2);	/* unknown source: op only */
	CHECK(ds(true, SPE_L1D_ACCESS, SPE_DS_L2, N1) == (4 | 1ULL << 5 | 1ULL << 19 |
							   0xfULL << 33));
	/* TLB: walker, hit or miss */
	CHECK(ds(false, SPE_TLB_ACCESS, SPE_DS_L1D, N1) ==
	      (LD(0x8 | 2, 1, 2, 0, 0) | (0x20ULL | 2) << 26));
	CHECK(ds(false, SPE_TLB_ACCESS | SPE_TLB_MISS, SPE_DS_L1D, N1) ==
	      (LD(0x8 | 2, 1, 2, 0, 0) | (0x20ULL | 4) << 26));
	/* generic: LLC before L1D, remote bit */
	CHECK(ds(false, SPE_L1D_ACCESS, 0, 0) == (2 | (0x8ULL | 2) << 5));
	CHECK(ds(false, SPE_L1D_ACCESS | SPE_L1D_MISS, 0, 0) == (2 | (0x8ULL | 4) << 5));
	CHECK(ds(false, SPE_L1D_MISS | SPE_LLC_ACCESS, 0, 0) == (2 | (0x40ULL | 2) << 5));
	CHECK(ds(true, SPE_LLC_MISS | SPE_REMOTE_ACCESS, 0, 0) ==
	      (4 | (0x40ULL | 4) << 5 | 1ULL << 37));
	CHECK(ds(true, 0, 0, 0) == 4);
}

static void test_time(void)
{
	struct spe_time_conv tc = { .time_shift = 10, .time_mult = 3000, .time_zero = 500 };

	/* perf: time_zero + (cyc >> shift) * mult + ((cyc & mask) * mult >> shift) */
	CHECK(spe_time_conv__perf_time(&tc, 0) == 500);
	CHECK(spe_time_conv__perf_time(&tc, 1024) == 3500);
	CHECK(spe_time_conv__perf_time(&tc, 1536) == 500 + 3000 + 1500);
	tc.cap_user_time_short = true;
	tc.time_cycles = 0x10000;
	tc.time_mask = 0xffff;
	CHECK(spe_time_conv__perf_time(&tc, 0x400) == spe_time_conv__perf_time(
		      &(struct spe_time_conv){ .time_shift = 10, .time_mult = 3000,
					       .time_zero = 500 }, 0x10400));
}

static void test_synth(void)
{
	struct spe_time_conv tc = { .time_shift = 0, .time_mult = 1, .time_zero = 0 };
	struct arm_spe_synth *s = arm_spe_synth__new(N1, &tc, false);
	struct sbuf a = { .n = 0 }, b = { .n = 0 };
	struct spe_sample smp;
	const char *why = NULL;
	uint64_t off = 0;

	arm_spe_synth__thread(s, 100, 101);
	for (int i = 0; i < 200; i++)	/* grow the tid table */
		arm_spe_synth__thread(s, 5000, 6000 + i);
	/* queue 0 on cpu 3: a load with a context tid, a branch (no sample), a store without
	 * context (keeps the tid), then a record cut across the next buffer */
	rec(&a, 0x400100, false, 0x1000, 0x2000, 50, 0, SPE_DS_PEER_CORE, 101, 10);
	put(&a, 0xb0, 0x400200, 8);
	put(&a, 0x4a, 0, 1);
	put(&a, 0x71, 11, 8);
	rec(&a, 0x400300, true, 0x1008, 0x2008, 7, 0, 0, -1, 12);
	put(&a, 0xb0, 0x400400, 8);
	put(&a, 0x49, 0, 1);
	put(&b, 0x98, 9, 2);
	put(&b, 0x71, 13, 8);
	put(&b, 0xb0, 0x400500, 8);	/* an open record at the end: dropped */

	CHECK(arm_spe_synth__queue(s, 0, 3, -1, a.b, a.n, 1000, &why) == 0);
	CHECK(arm_spe_synth__next(s, &smp, &off, &why) == 1);
	CHECK(smp.ip == 0x400100 && smp.addr == 0x1000 && smp.phys_addr == 0x2000 &&
	      smp.weight == 50 && smp.time == 10 && smp.tid == 101 && smp.pid == 100 &&
	      smp.cpu == 3 && smp.period == 1 && !smp.kernel &&
	      smp.data_src == LD(0x20 | 2, 2, 0, 2, 0));
	CHECK(arm_spe_synth__next(s, &smp, &off, &why) == 1);
	CHECK(smp.ip == 0x400300 && smp.tid == 101 && smp.time == 12 && (smp.data_src & 7) == 4);
	CHECK(arm_spe_synth__next(s, &smp, &off, &why) == 0);
	CHECK(arm_spe_synth__queue(s, 0, 3, -1, b.b, b.n, 2000, &why) == 0);
	CHECK(arm_spe_synth__next(s, &smp, &off, &why) == 1);
	CHECK(smp.ip == 0x400400 && smp.weight == 9 && smp.time == 13);
	CHECK(arm_spe_synth__next(s, &smp, &off, &why) == 0);

	/* queue 5: per-thread buffer tid 6007, no context packets; a bad packet at byte 3 */
	a.n = 0;
	rec(&a, 0x400700, false, 0x10, 0x20, 1, 1u << SPE_EV_L1D_ACCESS, 0, -1, 20);
	CHECK(arm_spe_synth__queue(s, 5, -1, 6007, a.b, a.n, 0, &why) == 0);
	CHECK(arm_spe_synth__next(s, &smp, &off, &why) == 1);
	CHECK(smp.tid == 6007 && smp.pid == 5000 && smp.cpu == -1);
	a.n = 0;
	put(&a, 0x00, 0, 0);
	put(&a, 0x49, 0, 1);
	put(&a, 0x10, 0, 0);
	CHECK(arm_spe_synth__queue(s, 5, -1, 6007, a.b, a.n, 4096, &why) == 0);
	CHECK(arm_spe_synth__next(s, &smp, &off, &why) == -EINVAL && off == 4096 + 3);
	CHECK(arm_spe_synth__queue(s, 70000, 0, 0, a.b, a.n, 0, &why) == -EINVAL);
	arm_spe_synth__delete(s);

	/* timeless: no time, CONTEXT ignored (perf reads it only with time) */
	s = arm_spe_synth__new(0, NULL, true);
	a.n = 0;
	rec(&a, 0x400100, false, 0x1000, 0x2000, 50, 1u << SPE_EV_L1D_ACCESS, 0, 101, 10);
	CHECK(arm_spe_synth__queue(s, 1, 2, -1, a.b, a.n, 0, &why) == 0);
	CHECK(arm_spe_synth__next(s, &smp, &off, &why) == 1);
	CHECK(smp.time == 0 && smp.tid == -1 && smp.pid == -1 && smp.cpu == 2 &&
	      smp.data_src == (2 | (0x8ULL | 2) << 5));
	arm_spe_synth__delete(s);
}

/* No CONTEXT packets: the task the CPU last switched to, ties included; a CONTEXT ends it. */
static void test_switch(void)
{
	struct spe_time_conv tc = { .time_shift = 1, .time_mult = 3, .time_zero = 0 };
	struct arm_spe_synth *s = arm_spe_synth__new(N1, &tc, false);
	struct sbuf a = { .n = 0 };
	struct spe_sample smp;
	const char *why = NULL;
	uint64_t off = 0;
	int32_t want[] = { -1, 10, 10, 11, 20, 99, 99 };
	size_t k = 0;

	/* perf_time_to_tsc: ((t / mult) << shift) + ((t % mult) << shift) / mult */
	CHECK(spe_time_conv__tsc(&tc, 3000) == 2000 && spe_time_conv__tsc(&tc, 3001) == 2000 &&
	      spe_time_conv__tsc(&tc, 3002) == 2001);
	CHECK(spe_time_conv__tsc(&(struct spe_time_conv){ .time_mult = 0 }, 5) == 0);
	arm_spe_synth__switch(s, 0, 150, 1, 10);	/* tsc 100 */
	arm_spe_synth__switch(s, 0, 300, 1, 11);	/* tsc 200 */
	arm_spe_synth__switch(s, 0, 450, 2, 20);	/* tsc 300 */
	arm_spe_synth__switch(s, 1, 150, 3, 30);	/* another CPU */
	arm_spe_synth__switch(s, -1, 150, 3, 30);	/* ignored */
	rec(&a, 0x400100, false, 0x1000, 0, 1, 0, 0, -1, 99);
	rec(&a, 0x400100, false, 0x1000, 0, 1, 0, 0, -1, 100);
	rec(&a, 0x400100, false, 0x1000, 0, 1, 0, 0, -1, 199);
	rec(&a, 0x400100, false, 0x1000, 0, 1, 0, 0, -1, 250);
	rec(&a, 0x400100, false, 0x1000, 0, 1, 0, 0, -1, 300);
	rec(&a, 0x400100, false, 0x1000, 0, 1, 0, 0, 99, 301);	/* CONTEXT from here on */
	rec(&a, 0x400100, false, 0x1000, 0, 1, 0, 0, -1, 400);
	CHECK(arm_spe_synth__queue(s, 0, 0, -1, a.b, a.n, 0, &why) == 0);
	while (arm_spe_synth__next(s, &smp, &off, &why) == 1 && k < 7) {
		CHECK(smp.tid == want[k]);
		k++;
	}
	CHECK(k == 7);
	arm_spe_synth__delete(s);

	/* a CPU far ahead of its trace keeps the newest switches only */
	tc = (struct spe_time_conv){ .time_shift = 0, .time_mult = 1 };
	s = arm_spe_synth__new(N1, &tc, false);
	for (int i = 1; i <= 70000; i++)
		arm_spe_synth__switch(s, 2, (uint64_t)i, 7, i);
	a.n = 0;
	rec(&a, 0x400100, false, 0x1000, 0, 1, 0, 0, -1, 10);		/* dropped: none */
	rec(&a, 0x400100, false, 0x1000, 0, 1, 0, 0, -1, 40000);
	CHECK(arm_spe_synth__queue(s, 0, 2, -1, a.b, a.n, 0, &why) == 0);
	CHECK(arm_spe_synth__next(s, &smp, &off, &why) == 1 && smp.tid == -1);
	CHECK(arm_spe_synth__next(s, &smp, &off, &why) == 1 && smp.tid == 40000 && smp.pid == 7);
	arm_spe_synth__delete(s);
}

static void test_encode(void)
{
	struct spe_sample smp = { .ip = 0x1122334455667788ULL, .pid = 1, .tid = 2, .time = 3,
				  .addr = 4, .cpu = 5, .period = 1, .weight = 6, .data_src = 7,
				  .phys_addr = 8 };
	uint64_t t = SF_IDENTIFIER | SF_IP | SF_TID | SF_TIME | SF_ADDR | SF_ID | SF_STREAM_ID |
		     SF_CPU | SF_PERIOD | SF_WEIGHT | SF_DATA_SRC | SF_PHYS_ADDR;
	uint8_t out[SPE_SAMPLE_MAX];
	uint64_t w[14];

	CHECK(spe_sample__encode(&smp, t, 99, false, out) == 12 * 8);
	memcpy(w, out, 12 * 8);
	CHECK(w[0] == 99 && w[1] == smp.ip && w[2] == (1 | 2ULL << 32) && w[3] == 3 &&
	      w[4] == 4 && w[5] == 99 && w[6] == 99 && w[7] == 5 && w[8] == 1 && w[9] == 6 &&
	      w[10] == 7 && w[11] == 8);
	CHECK(spe_sample__encode(&smp, SF_IP | SF_TID, 0, true, out) == 16);
	CHECK(out[0] == 0x11 && out[7] == 0x88 && out[11] == 1 && out[15] == 2);
}

int main(void)
{
	test_packets();
	test_records();
	test_split();
	test_data_src();
	test_time();
	test_synth();
	test_switch();
	test_encode();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures != 0;
}
