// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The layout suggester on access streams written by hand: two counters written by two
 * threads beside a read-mostly pointer, a producer/consumer ring whose head and tail are spun
 * on, a counter truly shared, an already padded struct, --pin, --max-growth, and per-thread
 * array elements (a thread's element, row or elements in turn), and a pool of locks owned in
 * phases against one taken in turns; the sharing itself is lineup fields' verdict, given.
 */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/suggest.h"
#include "analyzer/suggest_text.h"
#include "util/strbuf.h"
#include "tests/unit/check.h"

#define BASE 0x10000ull /* line-aligned instance */

struct stream {
	struct suggest *sg;
	uint64_t t;
};

static void acc(struct stream *s, uint32_t tid, uint64_t off, char kind)
{
	struct suggest_access a = {
		.instance = BASE, .offset = off, .time = s->t += 100, .tid = tid, .cpu = tid,
		.load = kind == 'l' || kind == 'x', .store = kind == 's', .locked = kind == 'x',
	};

	suggest__add(s->sg, &a);
}

static unsigned int line_of(const struct suggest_result *r, int u, unsigned int line)
{
	return (unsigned int)(r->new_offset[u] / line);
}

static int unit(const struct suggest_unit *u, unsigned int n, const char *name)
{
	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(u[i].name, name))
			return (int)i;
	return -1;
}

#define U(n, off, sz) { .name = n, .offset = off, .size = sz, .align = sz, .nr_elems = 1, \
			.elem_size = sz }

/* struct { long a; long b; void *ops; long spare; }: a by thread 1, b by thread 2, ops read */
static void two_counters(void)
{
	struct suggest_unit u[] = { U("a", 0, 8), U("b", 8, 8), U("ops", 16, 8), U("spare", 24, 8) };
	struct suggest_config cfg = { .line_size = 64, .max_growth = UINT64_MAX,
				      .struct_name = "pair" };
	struct stream s = { suggest__new(&cfg, u, 4, 32, 8), 0 };
	struct suggest_result r;

	for (int i = 0; i < 2000; i++) {
		acc(&s, 1, 16, 'l');
		acc(&s, 1, 0, 'l');
		acc(&s, 1, 0, 's');
		acc(&s, 2, 16, 'l');
		acc(&s, 2, 8, 'l');
		acc(&s, 2, 8, 's');
	}
	suggest__run(s.sg, &r);
	CHECK(r.status == SUGGEST_OK);
	CHECK(r.profiles[0].use == SUGGEST_WRITTEN && r.profiles[1].use == SUGGEST_WRITTEN);
	CHECK(r.profiles[2].use == SUGGEST_READ_MOSTLY);
	CHECK(r.profiles[3].use == SUGGEST_COLD);
	CHECK(r.profiles[0].group != r.profiles[1].group);
	CHECK(line_of(&r, 0, 64) != line_of(&r, 1, 64));
	CHECK(line_of(&r, 2, 64) != line_of(&r, 0, 64) && line_of(&r, 2, 64) != line_of(&r, 1, 64));
	CHECK(r.align == 64 && r.size == 192);
	CHECK(r.before.transfers >= 3900);
	CHECK(r.after.transfers * 20 <= r.before.transfers);
	/* the offsets the ABI gives the order with its attributes */
	uint64_t off[4];
	uint32_t al;

	CHECK(suggest__place(u, 4, r.order, r.align_attr, off, &al) == r.size);
	CHECK(!memcmp(off, r.new_offset, sizeof(off)) && al == r.align);

	/* the words: the summary, the comment, the table */
	struct suggest_names n = { .units = u, .type = "struct pair", .recording = "test",
				   .line_size = 64 };
	struct strbuf sb = { 0 };

	suggest__explain(&r, &n, &sb);
	if (getenv("SHOW")) fputs(sb.buf, stderr);
	CHECK(strstr(sb.buf, "struct pair: new layout, predicted "));
	CHECK(strstr(sb.buf, "size 32 -> 192 bytes (+160), 1 -> 3 cache lines"));
	CHECK(strstr(sb.buf, "pair_read_mostly (read-mostly, starts a line): ops"));
	CHECK(strstr(sb.buf, "written by tid 1 (2000 writes"));
	strbuf__reset(&sb);
	suggest__comment(&r, &n, &sb);
	CHECK(strstr(sb.buf, "Cache-line layout (lineup suggest, from test):"));
	CHECK(strstr(sb.buf, "  pair_read_mostly: ops -- read by 2 threads, never written"));
	strbuf__reset(&sb);
	suggest__doc(&r, &n, NULL, &sb);
	CHECK(strstr(sb.buf, "struct pair fast path usage breakdown"));
	CHECK(strstr(sb.buf, "read_write"));
	strbuf__release(&sb);
	suggest__delete(s.sg);
}

/*
 * A ring: head written by the producer (1), spun on by the consumer (2); tail the other way
 * round; mask read by both; slots written by the producer, read by the consumer.
 */
static void ring(void)
{
	struct suggest_unit u[] = { U("head", 0, 4), U("tail", 4, 4), U("mask", 8, 4),
				    U("pad", 12, 4), U("slots", 16, 48) };
	struct suggest_config cfg = { .line_size = 64, .max_growth = UINT64_MAX,
				      .struct_name = "ring" };
	struct stream s = { NULL, 0 };
	struct suggest_result r;

	u[4].align = 8;
	u[4].nr_elems = 6;
	u[4].elem_size = 8;
	s.sg = suggest__new(&cfg, u, 5, 64, 8);
	/*
	 * Both threads run at once: their programs (per item, producer: check tail twice, read
	 * mask, fill a slot, publish head; consumer: wait for head twice, read mask and the slot,
	 * retire tail) interleaved at random with a fixed seed.
	 */
	static const struct { uint32_t tid; uint64_t off; char kind; } prog[2][5] = {
		{ { 1, 4, 'l' }, { 1, 4, 'l' }, { 1, 8, 'l' }, { 1, 16, 's' }, { 1, 0, 's' } },
		{ { 2, 0, 'l' }, { 2, 0, 'l' }, { 2, 8, 'l' }, { 2, 16, 'l' }, { 2, 4, 's' } },
	};
	unsigned int pc[2] = { 0, 0 }, item[2] = { 0, 0 };
	uint32_t seed = 12345;

	while (item[0] < 2000 || item[1] < 2000) {
		seed = seed * 1103515245 + 12345;
		int th = (seed >> 16) & 1;

		if (item[th] >= 2000)
			th ^= 1;
		uint64_t off = prog[th][pc[th]].off;

		if (off == 16)
			off += (item[th] % 6) * 8;
		acc(&s, prog[th][pc[th]].tid, off, prog[th][pc[th]].kind);
		if (++pc[th] == 5) {
			pc[th] = 0;
			item[th]++;
		}
	}
	suggest__run(s.sg, &r);
	int h = unit(u, 5, "head"), t = unit(u, 5, "tail"), m = unit(u, 5, "mask");


	CHECK(r.profiles[h].use == SUGGEST_WRITTEN);
	CHECK(r.profiles[t].use == SUGGEST_WRITTEN);
	CHECK(r.profiles[m].use == SUGGEST_READ_MOSTLY);
	CHECK(r.profiles[h].writers.nr == 1 && r.profiles[t].writers.nr == 1);
	CHECK(line_of(&r, h, 64) != line_of(&r, t, 64));
	CHECK(line_of(&r, m, 64) != line_of(&r, h, 64) && line_of(&r, m, 64) != line_of(&r, t, 64));
	CHECK(r.status == SUGGEST_OK);
	suggest__delete(s.sg);
}

/* lineup fields' verdicts as suggest_targets__set_verdicts gives them: one line of @kind. */
static void verdicts(struct suggest *sg, enum line_verdict kind, const unsigned int *bits,
		     unsigned int nr_units)
{
	uint64_t hitm[8] = { 0 };
	struct suggest_verdicts v = { .units = (unsigned int *)bits, .unit_hitm = hitm };

	for (unsigned int k = 0; k < nr_units && k < 8; k++)
		hitm[k] = bits[k] ? 100 : 0;
	v.lines[kind] = 1;
	v.hitm[kind] = 100;
	suggest__set_verdicts(sg, &v);
}

/*
 * One counter both threads add to (locked RMWs): lineup fields calls it true sharing, and the
 * suggester says so with its figures; without that verdict it says no sharing of its own.
 */
static void true_sharing(void)
{
	struct suggest_unit u[] = { U("refs", 0, 8), U("name", 8, 8) };
	struct suggest_config cfg = { .line_size = 64, .max_growth = UINT64_MAX };
	struct suggest_result r;

	for (int given = 0; given < 2; given++) {
		struct stream s = { suggest__new(&cfg, u, 2, 16, 8), 0 };
		const unsigned int bits[] = { SHARING_TRUE, 0 };
		bool advice = false;

		if (given)
			verdicts(s.sg, LINE_TRUE_SHARING, bits, 2);
		for (int i = 0; i < 1000; i++) {
			acc(&s, 1, 0, 'x');
			acc(&s, 2, 0, 'x');
			acc(&s, 3, 0, 'l');
		}
		suggest__run(s.sg, &r);
		CHECK(r.status == SUGGEST_NOTHING);
		CHECK(r.profiles[0].writers.nr == 2);
		CHECK(r.verdict == (given ? LINE_TRUE_SHARING : LINE_QUIET));
		for (unsigned int f = 0; f < r.nr_findings; f++)
			if (r.findings[f].kind == SUGGEST_TRUE_SHARING && r.findings[f].unit == 0)
				advice = r.findings[f].a == 2 && r.findings[f].b == 1000;
		CHECK(advice == !!given);
		CHECK(!strstr(r.message, "true sharing") == !given);
		suggest__delete(s.sg);
	}
}

/* Already padded: the counters on lines of their own. */
static void padded(void)
{
	struct suggest_unit u[] = { U("a", 0, 8), U("b", 64, 8) };
	struct suggest_config cfg = { .line_size = 64, .max_growth = UINT64_MAX };
	struct stream s = { NULL, 0 };
	struct suggest_result r;

	u[1].forced_align = 64;
	u[1].align = 64;
	s.sg = suggest__new(&cfg, u, 2, 128, 64);
	for (int i = 0; i < 1000; i++) {
		acc(&s, 1, 0, 's');
		acc(&s, 2, 64, 's');
	}
	suggest__run(s.sg, &r);
	CHECK(r.status == SUGGEST_NOTHING);
	suggest__delete(s.sg);
}

/* --pin keeps the list head first; --max-growth gives a boundary up. */
static void pin_and_growth(void)
{
	struct suggest_unit u[] = { U("list", 0, 16), U("a", 16, 8), U("b", 24, 8),
				    U("c", 32, 8), U("ro", 40, 8) };
	struct suggest_config cfg = { .line_size = 64, .max_growth = UINT64_MAX };
	struct suggest_result r;

	u[0].pinned = true;
	u[0].align = 8;
	for (int pass = 0; pass < 2; pass++) {
		struct stream s = { suggest__new(&cfg, u, 5, 48, 8), 0 };

		for (int i = 0; i < 500; i++) {
			acc(&s, 1, 16, 's');
			acc(&s, 2, 24, 's');
			acc(&s, 3, 32, 's');
			acc(&s, 4, 40, 'l');
			acc(&s, 4, 0, 'l');
		}
		suggest__run(s.sg, &r);
		CHECK(r.status == SUGGEST_OK);
		CHECK(r.new_offset[0] == 0 && r.order[0] == 0);
		if (pass == 0) {
			CHECK(r.size == 256); /* list+ro, a, b, c: four lines */
		} else {
			bool gave_up = false;

			CHECK(r.size <= 48 + 128);
			for (unsigned int f = 0; f < r.nr_findings; f++)
				gave_up |= r.findings[f].kind == SUGGEST_GAVE_UP;
			CHECK(gave_up);
		}
		suggest__delete(s.sg);
		cfg.max_growth = 128;
	}
}

/*
 * stats[4], one element per thread, beside a read-mostly pointer (lineup fields: false sharing
 * between the elements, and the pointer a victim): pad the element.
 */
static void elements(void)
{
	struct suggest_unit u[] = { U("ops", 0, 8), U("stats", 8, 32) };
	struct suggest_config cfg = { .line_size = 64, .max_growth = UINT64_MAX };
	const unsigned int bits[] = { SHARING_FALSE_MEMBERS,
				      SHARING_FALSE_ELEMENTS | SHARING_FALSE_MEMBERS };
	struct stream s = { NULL, 0 };
	struct suggest_result r;

	u[1].align = 8;
	u[1].nr_elems = 4;
	u[1].elem_size = 8;
	s.sg = suggest__new(&cfg, u, 2, 40, 8);
	verdicts(s.sg, LINE_FALSE_SHARING, bits, 2);
	for (int i = 0; i < 500; i++)
		for (uint32_t t = 0; t < 4; t++) {
			acc(&s, t + 1, 0, 'l');
			acc(&s, t + 1, 8 + t * 8, 's');
		}
	suggest__run(s.sg, &r);
	bool pad = false;

	for (unsigned int f = 0; f < r.nr_findings; f++)
		if (r.findings[f].kind == SUGGEST_ELEMENTS && r.findings[f].unit == 1)
			pad = r.findings[f].a == 64 && r.findings[f].b == 4 * 56;
	CHECK(pad);
	CHECK(r.profiles[1].elem_writers == 4 && r.profiles[1].elem_part == 8 &&
	      !r.profiles[1].elem_interleaved);
	CHECK(line_of(&r, 0, 64) != line_of(&r, 1, 64));
	suggest__delete(s.sg);
}

/*
 * Rows of a matrix member, double rows[4][32] after an 8-byte header: thread t writes row t
 * (256 bytes, whole lines), so only where the rows meet do two threads share a line (lineup
 * fields: false sharing between the elements).  The part is the row, not the element: no
 * element padded to a line, the rows started on one; and nothing said of true sharing.  Then
 * a 4-element array whose elements the threads take in turn.
 */
static void element_parts(void)
{
	struct suggest_unit u[] = { U("n", 0, 8), U("rows", 8, 1024) };
	struct suggest_config cfg = { .line_size = 64, .max_growth = UINT64_MAX,
				      .struct_name = "grid" };
	const unsigned int bits[] = { 0, SHARING_FALSE_ELEMENTS };
	struct suggest_names n = { .units = u, .type = "struct grid", .recording = "test",
				   .line_size = 64 };
	struct strbuf sb = STRBUF_INIT;
	struct stream s = { NULL, 0 };
	struct suggest_result r;

	u[1].align = 8;
	u[1].nr_elems = 128;
	u[1].elem_size = 8;
	s.sg = suggest__new(&cfg, u, 2, 1032, 8);
	verdicts(s.sg, LINE_FALSE_SHARING, bits, 2);
	for (int pass = 0; pass < 20; pass++)
		for (uint32_t i = 0; i < 32; i++)
			for (uint32_t t = 0; t < 4; t++)
				acc(&s, t + 1, 8 + (t * 32 + i) * 8, 's');
	suggest__run(s.sg, &r);
	CHECK(r.profiles[1].elem_writers == 4 && r.profiles[1].elem_part == 256);
	CHECK(!r.profiles[1].elem_interleaved);
	suggest__explain(&r, &n, &sb);
	if (getenv("SHOW"))
		fputs(sb.buf, stderr);
	CHECK(strstr(sb.buf, "lineup fields: false sharing on 1 line (100 HITM), between the "
		     "elements of rows"));
	CHECK(strstr(sb.buf, "each its own 256-byte part of rows"));
	CHECK(strstr(sb.buf, "each of the 4 threads writes its own 256-byte part of rows (32 "
		     "elements), whole lines"));
	CHECK(!strstr(sb.buf, "true sharing") && !strstr(sb.buf, "pad the element"));
	strbuf__release(&sb);
	suggest__delete(s.sg);

	u[1] = (struct suggest_unit)U("slot", 8, 32);
	u[1].nr_elems = 4;
	u[1].elem_size = 8;
	s.sg = suggest__new(&cfg, u, 2, 40, 8);
	s.t = 0;
	verdicts(s.sg, LINE_FALSE_SHARING, bits, 2);
	for (int pass = 0; pass < 100; pass++)
		for (uint32_t i = 0; i < 4; i++)
			acc(&s, i % 2 + 1, 8 + i * 8, 's');
	suggest__run(s.sg, &r);
	CHECK(r.profiles[1].elem_writers == 2 && r.profiles[1].elem_interleaved);
	CHECK(r.status == SUGGEST_NOTHING && strstr(r.message, "between the elements of slot"));
	suggest__explain(&r, &n, &sb);
	CHECK(strstr(sb.buf, "written by 2 threads in turn"));
	strbuf__release(&sb);
	suggest__delete(s.sg);
}

/* struct stats { long ops, bytes, errors; } stats[4] packed, slot t written by thread t. */
static void instances(void)
{
	struct suggest_unit u[] = { U("ops", 0, 8), U("bytes", 8, 8), U("errors", 16, 8) };
	struct suggest_config cfg = { .line_size = 64, .max_growth = UINT64_MAX,
				      .struct_name = "stats" };
	struct suggest *sg = suggest__new(&cfg, u, 3, 24, 8);
	struct suggest_result r;
	uint64_t t = 0;

	for (int i = 0; i < 500; i++)
		for (uint32_t th = 0; th < 4; th++)
			for (uint64_t off = 0; off < 24; off += 8) {
				struct suggest_access a = {
					.instance = BASE + th * 24, .offset = off, .time = t += 10,
					.tid = th + 1, .cpu = th, .load = true,
				};

				suggest__add(sg, &a);
				a.load = false;
				a.store = true;
				suggest__add(sg, &a);
			}
	suggest__run(sg, &r);
	CHECK(r.status == SUGGEST_OK);
	CHECK(r.nr_groups == 1 && r.profiles[0].max_writers == 1);
	bool inst = false, shared = false;

	for (unsigned int f = 0; f < r.nr_findings; f++) {
		inst |= r.findings[f].kind == SUGGEST_INSTANCES;
		shared |= r.findings[f].kind == SUGGEST_TRUE_SHARING;
	}
	CHECK(inst && !shared);
	CHECK(r.align == 64 && r.size == 64);
	CHECK(r.after.transfers * 20 <= r.before.transfers);
	suggest__delete(sg);
}

/*
 * A pool of 8-byte locks, two instances side by side in one line, each taken by both threads
 * over the run: in phases (one owner per lock per phase of 500 takes) the padded layout keeps
 * the HITMs only at the phase changes; taking turns at every access it keeps them all.  Every
 * lock RMW is sampled as a HITM (the neighbour's writes moved the line).  Before the HITMs were
 * re-bucketed without time, the phases kept all 4000.
 */
static void pool_in_time(int run)
{
	struct suggest_unit u[] = { U("locked", 0, 8) };
	struct suggest_config cfg = { .line_size = 64, .max_growth = UINT64_MAX,
				      .struct_name = "lock" };
	struct suggest *sg = suggest__new(&cfg, u, 1, 8, 8);
	struct suggest_result r;
	uint64_t t = 0;

	for (int phase = 0; phase < 4; phase++)
		for (int i = 0; i < 500; i++)
			for (uint32_t lock = 0; lock < 2; lock++) {
				/* run: the owner of @lock for the phase; else the threads alternate */
				uint32_t tid = run ? 1 + (lock + (uint32_t)phase) % 2
						   : 1 + (lock + (uint32_t)i) % 2;
				struct suggest_access a = {
					.instance = BASE + lock * 8, .offset = 0, .time = t += 10,
					.tid = tid, .cpu = tid, .load = true, .locked = true,
					.hitm = true,
				};

				suggest__add(sg, &a);
			}
	suggest__run(sg, &r);
	/* phases: false sharing between locks, padding fixes it; turns at every write: each
	 * lock is truly shared, no layout helps (said), and the prediction keeps every HITM */
	CHECK(r.status == (run ? SUGGEST_OK : SUGGEST_NOTHING));
	CHECK(r.before.hitm_measured == 4000);
	if (run)	/* 3 writer changes per lock in 2000 writes: about 0.3% of the HITMs */
		CHECK(r.after.hitm_measured <= 20);
	else		/* a writer change at every write: all of them */
		CHECK(r.after.hitm_measured == 4000);
	suggest__delete(sg);
}

int main(void)
{
	pool_in_time(1);
	pool_in_time(0);
	instances();
	two_counters();
	ring();
	true_sharing();
	padded();
	pin_and_growth();
	elements();
	element_parts();
	if (failures)
		fprintf(stderr, "suggest_test: %d checks failed\n", failures);
	return failures != 0;
}
