// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fields__add/finish/explain_line on hand-made samples: false sharing between two counters,
 * true sharing of one counter (and how often its sum side reads run), a struct-file-like line
 * with read-mostly victims, a flag word set with redundant locked RMWs, a quiet line; and
 * what each verdict says of each slot (elements, instances, members, true sharing).
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/data_src.h"
#include "analyzer/fields.h"
#include "util/strbuf.h"
#include "tests/unit/check.h"

static const struct flat_member pair_m[] = {
	{ "a", "long", 0, 8, 0, 0, 0, 0, 0, NULL },
	{ "b", "long", 8, 8, 0, 0, 0, 0, 0, NULL },
};
static const struct flat_layout pair = { "struct pair", 16, 2, pair_m, NULL };

static const struct flat_member ctr_m[] = { { "count", "atomic_long_t", 0, 8, 0, 0, 0, 0, 0, NULL } };
static const struct flat_layout ctr = { "struct ctr", 64, 1, ctr_m, NULL };

static const struct flat_member file_m[] = {
	{ "f_inode", "struct inode *", 32, 8, 0, 0, 0, 0, 0, NULL },
	{ "f_op", "const struct file_operations *", 40, 8, 0, 0, 0, 0, 0, NULL },
	{ "f_lock", "spinlock_t", 48, 4, 0, 0, 0, 0, 0, NULL },
	{ "f_count", "atomic_long_t", 56, 8, 0, 0, 0, 0, 0, NULL },
};
static const struct flat_layout file = { "struct file", 64, 4, file_m, NULL };

static const struct flat_member bh_m[] = {
	{ "b_state", "long unsigned int", 0, 8, 0, 0, 0, 0, 0, NULL },
	{ "b_this_page", "struct buffer_head *", 8, 8, 0, 0, 0, 0, 0, NULL },
};
static const struct flat_layout bh = { "struct buffer_head", 104, 2, bh_m, NULL };

static const struct flat_member lk_m[] = {
	{ "lock", "spinlock_t", 0, 8, 0, 0, 0, 0, 0, NULL },
	{ "lock.val", "atomic_t", 0, 4, 0, 0, 0, 1, 0, NULL },
	{ "lock.owner", "int", 4, 4, 0, 0, 0, 1, 0, NULL },
};
static const struct flat_layout lk = { "struct lk", 64, 3, lk_m, NULL };

static void add(struct fields *f, const struct flat_layout *l, uint64_t base, int member,
		uint32_t cpu, uint64_t ip, int store, int locked, int hitm, uint64_t time)
{
	struct attr_result r = { 0 };
	struct fields_access a = { 0 };

	if (l) {
		r.kind = ATTR_OPERAND;
		r.layout = l;
		r.base = base;
		r.member = member;
		snprintf(r.path, sizeof(r.path), "%s", l->members[member].path);
		a.addr = base + l->members[member].offset;
	} else {
		r.reason = ATTR_NO_DEBUGINFO;
		r.member = -1;
		a.addr = base;
	}
	r.offset = a.addr - base;
	a.ip = ip;
	a.cpu = cpu;
	a.tid = 100 + cpu;
	a.time = time;
	a.weight = hitm ? 300 : 30;
	a.store = store;
	a.load = !store;
	a.locked = locked;
	a.lcl_hitm = hitm && !store;
	fields__add(f, &r, &a);
}

static const struct field_line *line_at(const struct fields *f, uint64_t addr)
{
	for (size_t i = 0; i < f->nr_lines; i++)
		if (f->lines[i].addr == addr)
			return &f->lines[i];
	return NULL;
}

static void namer(void *ctx, uint64_t ip, struct strbuf *out)
{
	(void)ctx;
	strbuf__addf(out, "fn_%" PRIx64, ip);
}

static void explain(const struct fields *f, const struct field_line *l, struct strbuf *sb)
{
	strbuf__reset(sb);
	fields__explain_line(f, l, namer, NULL, sb);
	if (getenv("V"))
		fputs(sb->buf, stderr);
}

/* The data_src policy of the field tables: perf c2c's classes, peer loads with the HITMs. */
static void test_classify(void)
{
	const uint64_t load = DS_MK(OP, DS_OP_LOAD), store = DS_MK(OP, DS_OP_STORE);
	const uint64_t hitm = load | DS_MK(LVL, DS_LVL_HIT | DS_LVL_L3) |
			      DS_MK(SNOOP, DS_SNOOP_HITM);
	const uint64_t peer = load | DS_MK(LVL, DS_LVL_HIT | DS_LVL_L2) |
			      DS_MK(SNOOPX, DS_SNOOPX_PEER);
	const uint64_t l1 = load | DS_MK(LVL, DS_LVL_HIT | DS_LVL_L1);
	const uint64_t locked = store | DS_MK(LVL, DS_LVL_HIT | DS_LVL_L1) |
				DS_MK(LOCK, DS_LOCK_LOCKED);
	struct fields_access a;

	a = (struct fields_access){ .cpu = 7 };
	CHECK(!fields_access__classify(&a, hitm, 0x1000));
	CHECK(a.load && !a.store && a.lcl_hitm && !a.rmt_hitm && a.cpu == 7);
	a = (struct fields_access){ 0 };
	CHECK(fields_access__classify(&a, peer, 0x1000));	/* said as a peer load */
	CHECK(a.load && a.lcl_hitm && !a.rmt_hitm);
	a = (struct fields_access){ 0 };
	CHECK(!fields_access__classify(&a, l1, 0x1000));
	CHECK(a.load && !a.lcl_hitm && !a.rmt_hitm);
	a = (struct fields_access){ 0 };
	CHECK(!fields_access__classify(&a, locked, 0x1000));
	CHECK(a.store && a.locked && !a.load);
}

static const struct flat_member blk_m[] = {
	{ "locked", "unsigned char", 0, 1, 0, 0, 0, 0, 0, NULL },
};
static const struct flat_layout blk = { "struct bucket_lock", 1, 1, blk_m, NULL };

/*
 * Verdicts in time (the writes carry times): a pool of 8 one-byte locks on one line, each
 * taken by both CPUs over the run but by one at a time, is false sharing between the locks;
 * 4-byte counts each bumped by one CPU are false sharing; one count every CPU bumps in turn is
 * true sharing; a count bumped in turn beside per-CPU ones is both, said without contradiction.
 */
static void test_in_time(void)
{
	struct fields *f = fields__new(64);
	const struct field_line *l;
	struct strbuf sb = STRBUF_INIT;
	struct field_verdict v;
	uint64_t t = 1000;

	/* 0x1000: the pool. Phase 1: CPU 0 takes the even locks, CPU 1 the odd; phase 2 swaps. */
	for (int phase = 0; phase < 2; phase++)
		for (int r = 0; r < 40; r++)
			for (uint32_t cpu = 0; cpu < 2; cpu++) {
				uint64_t lock = 0x1000 + (uint64_t)(2 * (r % 4)) + ((cpu + phase) & 1);

				add(f, &blk, lock, 0, cpu, 0x10, 0, 1, 1, t++);
				add(f, &blk, lock, 0, cpu, 0x11, 1, 0, 0, t++);
			}
	/* 0x2000: 4 unattributed 4-byte counts, count i bumped by CPU i only. */
	for (int r = 0; r < 20; r++)
		for (uint32_t cpu = 0; cpu < 4; cpu++) {
			add(f, NULL, 0x2000 + 4 * cpu, 0, cpu, 0x20, 0, 0, 1, t++);
			add(f, NULL, 0x2000 + 4 * cpu, 0, cpu, 0x21, 1, 0, 0, t++);
		}
	/* 0x3000: one count bumped by CPUs 0..3 in turn. */
	for (int r = 0; r < 40; r++)
		add(f, &ctr, 0x3000, 0, (uint32_t)(r % 4), 0x30, 0, 1, 1, t++);
	add(f, &ctr, 0x3000, 0, 0, 0x31, 0, 0, 1, t++);
	/* 0x4000: pair.a bumped by CPUs 0 and 1 in turn, pair.b (0x4008) and an unattributed
	 * count at 0x4010 each by its own CPU. */
	for (int r = 0; r < 20; r++)
		for (uint32_t cpu = 0; cpu < 2; cpu++) {
			add(f, &pair, 0x4000, 0, cpu, 0x40, 1, 1, 1, t++);
			add(f, cpu ? NULL : &pair, cpu ? 0x4010 : 0x4000, cpu ? 0 : 1, cpu, 0x41, 0, 0,
			    1, t++);
			add(f, cpu ? NULL : &pair, cpu ? 0x4010 : 0x4000, cpu ? 0 : 1, cpu, 0x42, 1, 0,
			    0, t++);
		}
	/* 0x5000: pair.a and pair.b, each bumped by CPUs 0 and 1 in turn (a lock's reader count
	 * beside a counter that another lock guards), and a word CPU 2 only reads. */
	for (int r = 0; r < 20; r++) {
		add(f, &pair, 0x5000, 0, (uint32_t)(r & 1), 0x50, 0, 1, 1, t++);
		add(f, &pair, 0x5000, 0, (uint32_t)(r & 1), 0x51, 1, 0, 0, t++);
		add(f, &pair, 0x5000, 1, (uint32_t)(~r & 1), 0x52, 0, 1, 1, t++);
		add(f, &pair, 0x5000, 1, (uint32_t)(~r & 1), 0x53, 1, 0, 0, t++);
		add(f, NULL, 0x5010, 0, 2, 0x54, 0, 0, 1, t++);	/* and a read-mostly victim */
	}
	fields__finish(f);

	/* every written member shares in time: no "0 times at most" beside "changed writer" */
	l = line_at(f, 0x5000);
	CHECK(l && l->timed && l->slots[0].shared_in_time && l->slots[1].shared_in_time);
	explain(f, l, &sb);
	CHECK(strstr(sb.buf, "and so did each written member: each is shared in time"));
	CHECK(!strstr(sb.buf, "0 times at most"));
	fields__verdict(f, l, &v);
	CHECK(v.timed && v.nr_held == 0);

	l = line_at(f, 0x1000);
	CHECK(l && l->timed && l->verdict == LINE_FALSE_SHARING && l->true_shared == -1);
	CHECK(l && l->nr_slots == 8 && l->nr_groups == 2 && l->handoffs > 100);
	for (size_t i = 0; l && i < l->nr_slots; i++)
		CHECK(!l->slots[i].shared_in_time && l->slots[i].handoffs == 1 &&
		      l->slots[i].group == (int)(i & 1));
	fields__verdict(f, l, &v);
	CHECK(v.advice == ADVICE_ALIGN_INSTANCES && v.instances_of == &blk);
	CHECK(v.timed && v.nr_rotating == 8 && v.max_handoffs == 1 && v.nr_threads == 2);
	CHECK(v.threads[0] == 100 && v.threads[1] == 101 && v.handoffs == l->handoffs);
	explain(f, l, &sb);
	CHECK(strstr(sb.buf, "line 0x1000: false sharing"));
	CHECK(strstr(sb.buf, "different instances of struct bucket_lock, each written by one CPU "
			     "at a time, share the line"));
	CHECK(strstr(sb.buf, "in time: 8 instances of struct bucket_lock.locked were each written "
			     "by several CPUs over the run but by one at a time"));
	CHECK(strstr(sb.buf, "each member 1 time at most (threads 100, 101)"));
	CHECK(!strstr(sb.buf, "true sharing") && !strstr(sb.buf, "per-CPU or sharded"));

	l = line_at(f, 0x2000);
	CHECK(l && l->timed && l->verdict == LINE_FALSE_SHARING && l->nr_groups == 4);
	CHECK(l && l->true_shared == -1 && l->nr_slots == 4);
	explain(f, l, &sb);
	CHECK(strstr(sb.buf, "{<unattributed +0>}, {<unattributed +0x4>}, {<unattributed +0x8>}, "
			     "{<unattributed +0xc>}"));
	CHECK(strstr(sb.buf, "each written member 0 times at most (threads 100, 101, 102, 103)"));
	CHECK(!strstr(sb.buf, "true sharing"));

	l = line_at(f, 0x3000);
	CHECK(l && l->timed && l->verdict == LINE_TRUE_SHARING && l->true_shared == 0);
	CHECK(l && l->slots[0].shared_in_time && l->slots[0].handoffs == 39 && l->handoffs == 39);
	explain(f, l, &sb);
	CHECK(strstr(sb.buf, "in time: count changed writer 39 times between its sampled writes, "
			     "the line 39: the member itself goes from CPU to CPU"));
	CHECK(strstr(sb.buf, "per-CPU or sharded counter"));

	l = line_at(f, 0x4000);
	CHECK(l && l->timed && l->verdict == LINE_FALSE_SHARING && l->nr_groups == 3);
	CHECK(l && l->true_shared == 0 && l->slots[0].shared_in_time);
	CHECK(l && !l->slots[1].shared_in_time && !l->slots[2].shared_in_time);
	explain(f, l, &sb);
	CHECK(strstr(sb.buf, "  also: a is itself written by 2 CPUs in turn (it changed writer 39 "
			     "times): true sharing besides"));
	fields__verdict(f, l, &v);
	CHECK(v.advice == ADVICE_SPLIT_GROUPS && !v.nr_rotating && v.max_handoffs == 0);

	strbuf__release(&sb);
	fields__delete(f);
}

static const struct flat_member refs_m[] = {
	{ "nr", "unsigned int", 0, 4, 0, 0, 0, 0, 0, NULL },
	{ "count", "atomic_int[15]", 4, 60, 4, 0, 0, 0, 0, NULL },
};
static const struct flat_layout refs = { "struct refs", 64, 2, refs_m, NULL };

/*
 * What a line's verdict says of each slot (what lineup suggest gives the members): elements of
 * one array member each bumped by its own CPU, instances of a type, members, a truly shared
 * count; and the evidence of the elements' line names them so.
 */
static void test_slot_sharing(void)
{
	struct fields *f = fields__new(64);
	const struct field_line *l;
	struct strbuf sb = STRBUF_INIT;
	uint64_t t = 1000;

	/* 0x1000: struct refs, count[i] bumped by CPU i only (i < 4), nr read by nobody */
	for (int r = 0; r < 20; r++)
		for (uint32_t cpu = 0; cpu < 4; cpu++) {
			struct attr_result res = { .kind = ATTR_OPERAND, .layout = &refs,
						   .base = 0x1000, .member = 1,
						   .offset = 4 + 4 * cpu };
			struct fields_access a = { .ip = 0x60, .addr = 0x1000 + 4 + 4 * cpu,
						   .cpu = cpu, .tid = 100 + cpu, .load = true,
						   .locked = true, .lcl_hitm = true };

			snprintf(res.path, sizeof(res.path), "count[%u]", cpu);
			a.time = t++;
			fields__add(f, &res, &a);
			a.load = a.lcl_hitm = false;
			a.store = true;
			a.time = t++;
			fields__add(f, &res, &a);
		}
	/* 0x2000: two instances of struct pair side by side, a bumped by CPU 0 in the first,
	 * by CPU 1 in the second */
	for (int r = 0; r < 20; r++)
		for (uint32_t cpu = 0; cpu < 2; cpu++) {
			add(f, &pair, 0x2000 + 16 * cpu, 0, cpu, 0x70, 0, 0, 1, t++);
			add(f, &pair, 0x2000 + 16 * cpu, 0, cpu, 0x71, 1, 0, 0, t++);
		}
	/* 0x3000: one count bumped by CPUs 0..3 in turn */
	for (int r = 0; r < 40; r++)
		add(f, &ctr, 0x3000, 0, (uint32_t)(r % 4), 0x30, 0, 1, 1, t++);
	/* 0x4000: pair.a by CPU 0, pair.b by CPU 1 */
	for (int r = 0; r < 20; r++)
		for (uint32_t cpu = 0; cpu < 2; cpu++) {
			add(f, &pair, 0x4000, (int)cpu, cpu, 0x80, 0, 0, 1, t++);
			add(f, &pair, 0x4000, (int)cpu, cpu, 0x81, 1, 0, 0, t++);
		}
	fields__finish(f);

	l = line_at(f, 0x1000);
	CHECK(l && l->verdict == LINE_FALSE_SHARING && l->nr_slots == 4);
	for (size_t k = 0; l && k < l->nr_slots; k++)
		CHECK(fields__slot_sharing(l, k) == SHARING_FALSE_ELEMENTS);
	explain(f, l, &sb);
	CHECK(strstr(sb.buf, "evidence: elements of struct refs.count written by different CPUs "
			     "share the line"));
	l = line_at(f, 0x2000);
	CHECK(l && l->verdict == LINE_FALSE_SHARING);
	for (size_t k = 0; l && k < l->nr_slots; k++)
		CHECK(fields__slot_sharing(l, k) == SHARING_FALSE_INSTANCES);
	l = line_at(f, 0x3000);
	CHECK(l && l->verdict == LINE_TRUE_SHARING && fields__slot_sharing(l, 0) == SHARING_TRUE);
	l = line_at(f, 0x4000);
	CHECK(l && l->verdict == LINE_FALSE_SHARING && l->nr_slots == 2);
	for (size_t k = 0; l && k < l->nr_slots; k++)
		CHECK(fields__slot_sharing(l, k) == SHARING_FALSE_MEMBERS);
	CHECK(!strcmp(slot_sharing__id(SHARING_FALSE_ELEMENTS), "false_elements"));
	strbuf__release(&sb);
	fields__delete(f);
}

int main(void)
{
	struct fields *f = fields__new(64);
	const struct field_line *l;
	struct strbuf sb = STRBUF_INIT;
	struct field_verdict v;
	const uint64_t sec = 1000000000ULL;

	test_classify();
	test_in_time();
	test_slot_sharing();
	/* 0x1000: struct pair, a by CPU 0, b by CPU 1, with HITM loads on each. */
	for (int i = 0; i < 10; i++) {
		add(f, &pair, 0x1000, 0, 0, 0x10, 1, 0, 0, 1 * sec + i);
		add(f, &pair, 0x1000, 1, 1, 0x20, 1, 0, 0, 1 * sec + i);
		add(f, &pair, 0x1000, 0, 0, 0x11, 0, 0, 1, 1 * sec + i);
		add(f, &pair, 0x1000, 1, 1, 0x21, 0, 0, 1, 1 * sec + i);
	}
	/* 0x2000: struct ctr.count, locked stores from 4 CPUs, read by CPU 0 at ip 0x40. */
	for (int i = 0; i < 8; i++)
		add(f, &ctr, 0x2000, 0, i % 4, 0x30, 1, 1, 0, 2 * sec);
	add(f, &ctr, 0x2000, 0, 0, 0x40, 0, 0, 1, 2 * sec);
	add(f, &ctr, 0x2000, 0, 0, 0x40, 0, 0, 1, 3 * sec);
	/* 0x3000 (line 0x3000..0x303f): f_lock and f_count written by CPUs 0 and 1; f_op and
	 * f_inode read by CPUs 2 and 3 (HITMs). */
	for (int i = 0; i < 6; i++) {
		add(f, &file, 0x3000, 2, i % 2, 0x50, 1, 1, 0, 2 * sec);
		add(f, &file, 0x3000, 3, i % 2, 0x51, 1, 1, 0, 2 * sec);
		add(f, &file, 0x3000, 1, 2 + i % 2, 0x52, 0, 0, 1, 2 * sec);
		add(f, &file, 0x3000, 0, 2 + i % 2, 0x53, 0, 0, i & 1, 2 * sec);
	}
	/* 0x4000: buffer_head.b_state set_bit'ed by CPUs 0..2, b_this_page read by CPU 3; the
	 * collector saw 93 of 100 RMWs at 0x60 change nothing. */
	for (int i = 0; i < 9; i++)
		add(f, &bh, 0x4000, 0, i % 3, 0x60, 1, 1, 0, 2 * sec);
	add(f, &bh, 0x4000, 1, 3, 0x61, 0, 0, 1, 2 * sec);
	add(f, &bh, 0x4000, 1, 3, 0x61, 0, 0, 1, 2 * sec);
	fields__add_rmw(f, 0x60, 60, 53);
	fields__add_rmw(f, 0x60, 40, 40);
	fields__add_rmw(f, 0x99, 40, 40);	/* an IP no sample touched */
	/* 0x7000: a lock word taken by CPUs 0 and 1: true sharing, but no per-CPU counter. */
	for (int i = 0; i < 4; i++) {
		add(f, &lk, 0x7000, 1, i % 2, 0xa0, 1, 1, 0, 2 * sec);
		add(f, &lk, 0x7000, 1, i % 2, 0xa2, 0, 0, 1, 2 * sec);
	}
	add(f, &lk, 0x7000, 2, 1, 0xa1, 1, 0, 0, 2 * sec);
	/* 0x8000: two instances of struct pair on one line, each written by its own CPU. */
	for (int i = 0; i < 4; i++) {
		add(f, &pair, 0x8000, 0, 0, 0xb0, 1, 0, 0, 2 * sec);
		add(f, &pair, 0x8010, 0, 1, 0xb0, 1, 0, 0, 2 * sec);
		add(f, &pair, 0x8000, 0, 0, 0xb1, 0, 0, 1, 2 * sec);
		add(f, &pair, 0x8010, 0, 1, 0xb1, 0, 0, 1, 2 * sec);
	}
	/* 0x9000: an RMW counter sampled only as locked loads (PEBS, lineup watch) from CPUs 0..3,
	 * a read-only member beside it read by CPUs 4..7. */
	for (int i = 0; i < 8; i++) {
		struct attr_result r = { .kind = ATTR_OPERAND, .layout = &pair, .base = 0x9000 };
		struct fields_access a = { .ip = 0xc0, .addr = 0x9000, .cpu = (uint32_t)(i % 4),
					   .tid = 200u + (uint32_t)(i % 4), .load = true,
					   .locked = true, .lcl_hitm = true };

		r.member = 0;
		snprintf(r.path, sizeof(r.path), "a");
		fields__add(f, &r, &a);
		r.member = 1;
		snprintf(r.path, sizeof(r.path), "b");
		a.addr = 0x9008;
		a.locked = false;
		a.cpu = 4 + (uint32_t)(i % 4);
		a.ip = 0xc1;
		fields__add(f, &r, &a);
	}
	/*
	 * 0x5000: CPU 0 alone: quiet.  0x6008 and 0x600c: two unattributed 4-byte counts, each
	 * stored to by its own CPU, with HITMs: two slots, false sharing (one 8-byte granule
	 * would have made it one slot written by 2 CPUs: true sharing).  0xd000: stores from 2
	 * CPUs but no HITM, 0xe000: HITMs but no store where stores were sampled: no verdict.
	 */
	add(f, &pair, 0x5000, 0, 0, 0x70, 1, 0, 0, 2 * sec);
	add(f, &pair, 0x5000, 1, 0, 0x71, 0, 0, 0, 2 * sec);
	add(f, NULL, 0x1008, 0, 3, 0x90, 0, 0, 1, 1 * sec);	/* unattributed, inside pair.b */
	add(f, NULL, 0x6008, 0, 0, 0x80, 1, 0, 0, 2 * sec);
	add(f, NULL, 0x600c, 0, 1, 0x81, 1, 0, 0, 2 * sec);
	add(f, NULL, 0x6008, 0, 0, 0x82, 0, 0, 1, 2 * sec);
	add(f, NULL, 0x600c, 0, 1, 0x83, 0, 0, 1, 2 * sec);
	add(f, &ctr, 0xd000, 0, 0, 0xd0, 1, 0, 0, 2 * sec);
	add(f, &ctr, 0xd000, 0, 1, 0xd1, 1, 0, 0, 2 * sec);
	add(f, &ctr, 0xe000, 0, 0, 0xe0, 0, 0, 1, 2 * sec);
	add(f, &ctr, 0xe000, 0, 1, 0xe0, 0, 0, 1, 2 * sec);
	fields__finish(f);

	CHECK(f->nr_lines == 11);
	l = line_at(f, 0x9000);
	CHECK(l && l->writer_cpus == 4 && l->written == 1 && l->victims == 1);
	CHECK(l && l->verdict == LINE_FALSE_SHARING && l->true_shared == 0);
	CHECK(l && l->slots[0].st.writes == 8 && l->slots[0].st.locked_loads == 8);
	explain(f, l, &sb);
	CHECK(strstr(sb.buf, "a @0x9000: 0 stores + 8 locked RMWs sampled as loads by 4 CPUs"));
	/* the member's address, not the object's base */
	CHECK(strstr(sb.buf, "struct pair.b @0x9008: 0 stores by 0 CPUs"));
	CHECK(f->lines[0].addr == 0x1000);	/* most HITMs first */
	l = line_at(f, 0x1000);
	CHECK(l && l->verdict == LINE_FALSE_SHARING && l->written == 2 && l->writer_cpus == 2);
	CHECK(l && l->nr_slots == 2 && l->slots[1].st.loads == 11);	/* the stray load merged */
	CHECK(l && l->true_shared == -1 && l->victims == 0);
	explain(f, l, &sb);
	CHECK(strstr(sb.buf, "line 0x1000: false sharing (21 HITM, 20 writes by 2 CPUs)"));
	CHECK(strstr(sb.buf, "struct pair.a @0x1000: 10 stores by 1 CPU, 10 loads by 1 CPU, 10 HITM"));
	CHECK(strstr(sb.buf, "a line of its own: {a}, {b}"));
	fields__verdict(f, l, &v);
	CHECK(v.kind == LINE_FALSE_SHARING && v.advice == ADVICE_SPLIT_GROUPS && v.nr_groups == 2);
	CHECK(v.true_shared == -1 && !v.no_store && !v.nr_victims && !v.nr_redundant);

	l = line_at(f, 0x2000);
	CHECK(l && l->verdict == LINE_TRUE_SHARING && l->true_shared == 0);
	explain(f, l, &sb);
	CHECK(strstr(sb.buf, "count is written by 4 CPUs and nothing else on the line is written"));
	CHECK(strstr(sb.buf, "per-CPU or sharded counter"));
	CHECK(strstr(sb.buf, "read 2 times (1.0/s sampled over 2.000 s) by fn_40 (2)"));
	fields__verdict(f, l, &v);
	CHECK(v.advice == ADVICE_PER_CPU && v.true_shared == 0 && v.sum_reads == 2);
	CHECK(v.span_ns == 2000000000ull && v.nr_readers == 1 && v.readers[0].ip == 0x40);
	CHECK(v.readers[0].count == 2);

	l = line_at(f, 0x3000);
	CHECK(l && l->verdict == LINE_FALSE_SHARING && l->victims == 2 && l->written == 2);
	CHECK(l && l->nr_groups == 1);
	explain(f, l, &sb);
	CHECK(strstr(sb.buf, "read-mostly victims"));
	CHECK(strstr(sb.buf, "keep the written members (f_lock, f_count) together on a line apart "
			     "from the read-mostly ones (f_inode, f_op)"));
	CHECK(strstr(sb.buf, "f_lock is itself written by 2 CPUs"));
	fields__verdict(f, l, &v);
	CHECK(v.advice == ADVICE_MOVE_WRITTEN && v.nr_victims == 2);
	CHECK(!strcmp(line_slot__member(&l->slots[v.true_shared]), "f_lock"));

	l = line_at(f, 0x4000);
	CHECK(l && l->verdict == LINE_FALSE_SHARING && l->victims == 1 && l->true_shared == 0);
	CHECK(l && l->slots[0].redundant_rmw == 93 && l->slots[0].rmw_checked == 100);
	explain(f, l, &sb);
	CHECK(strstr(sb.buf, "93 of 100 locked RMWs on b_state (93%) found the bits already set, "
			     "at fn_60: test before set"));
	CHECK(strstr(sb.buf, "b_state is itself written by 3 CPUs"));
	fields__verdict(f, l, &v);
	CHECK(v.nr_redundant == 1 && v.nr_victims == 1);

	l = line_at(f, 0x5000);
	CHECK(l && l->verdict == LINE_QUIET && !field_line__contended(f, l));
	l = line_at(f, 0x6000);
	CHECK(l && l->verdict == LINE_FALSE_SHARING && l->nr_slots == 2 && !l->slots[0].layout);
	CHECK(l && l->slots[0].offset == 8 && l->slots[1].offset == 12 && l->nr_groups == 2);
	CHECK(l && l->true_shared == -1);
	explain(f, l, &sb);
	CHECK(strstr(sb.buf, "{<unattributed +0x8>}, {<unattributed +0xc>}"));
	CHECK(!strstr(sb.buf, "true sharing"));
	l = line_at(f, 0xd000);
	CHECK(l && l->verdict == LINE_QUIET && l->writer_cpus == 2);
	l = line_at(f, 0xe000);
	CHECK(l && l->verdict == LINE_QUIET && !field_line__contended(f, l));
	CHECK(field_line__listed(f, line_at(f, 0x1000), 0.01));
	CHECK(!field_line__listed(f, line_at(f, 0x6000), 0.05));
	CHECK(field_line__listed(f, line_at(f, 0x6000), 0.0));
	CHECK(!field_line__listed(f, line_at(f, 0xd000), 0.0));

	l = line_at(f, 0x8000);
	CHECK(l && l->verdict == LINE_FALSE_SHARING && l->nr_groups == 2);
	explain(f, l, &sb);
	CHECK(strstr(sb.buf, "different instances of struct pair, each written by its own CPUs"));
	CHECK(strstr(sb.buf, "align struct pair to the line size"));
	fields__verdict(f, l, &v);
	CHECK(v.advice == ADVICE_ALIGN_INSTANCES && v.instances_of == &pair);

	l = line_at(f, 0x7000);
	CHECK(l && l->verdict == LINE_TRUE_SHARING);
	explain(f, l, &sb);
	CHECK(strstr(sb.buf, "a contended lock") && !strstr(sb.buf, "per-CPU or sharded counter"));
	fields__verdict(f, l, &v);
	CHECK(v.advice == ADVICE_LOCK && !v.sum_reads);
	CHECK(!strcmp(verdict_advice__name(v.advice), "contended lock"));

	/* Per struct: pair has a and b with their readers, writers and code addresses. */
	CHECK(f->nr_structs == 5);
	for (size_t i = 0; i < f->nr_structs; i++) {
		const struct field_struct *s = &f->structs[i];

		if (s->layout == &pair) {
			CHECK(s->nr_instances == 5);
			CHECK(s->instances[0].base == 0x1000 && s->instances[0].hitm == 20);
			CHECK(s->instances[0].samples == 40 && s->instances[0].stores == 20);
			/* a: 10+1 stores by CPU 0 (0x1000, 0x5000), 8 more at 0x8000/0x8010 */
			CHECK(s->members[0].stores == 19 && s->members[0].loads == 26);
			CHECK(s->members[0].lcl_hitm == 26 && s->members[0].cpus_write.nr == 4);
			CHECK(s->members[0].ips[0].ip == 0x11);	/* the HITM ip first */
			CHECK(s->members[0].weighted == 37 &&
			      s->members[0].weight_sum == 18 * 300 + 19 * 30);
		}
		if (s->layout == &lk) {
			struct field_stats st;

			field_struct__rollup(s, 0, &st);	/* lock = lock.val + lock.owner */
			CHECK(st.stores == 5 && st.cpus_write.nr == 2 && st.nr_ips == 3);
			field_stats__release(&st);
			field_struct__rollup(s, 1, &st);
			CHECK(st.stores == 4);
			field_stats__release(&st);
		}
		if (s->layout == &file) {
			CHECK(s->members[3].cpus_write.nr == 2 && s->members[3].tids_write.nr == 2);
			CHECK(s->members[1].cpus_read.nr == 2 && s->members[1].stores == 0);
			CHECK(s->members[4].loads + s->members[4].stores == 0);
		}
	}
	CHECK(f->structs[0].layout == &pair);	/* most HITMs */
	CHECK(f->attr_all.samples == 40 + 10 + 24 + 11 + 9 + 16 + 16 + 7 + 4);
	CHECK(f->attr_all.unresolved_samples[ATTR_NO_DEBUGINFO] == 5);
	CHECK(f->attr_hitm.samples == 20 + 2 + 9 + 2 + 1 + 16 + 4 + 8 + 2 + 2);
	CHECK(f->attr_hitm.unresolved_samples[ATTR_NO_DEBUGINFO] == 3);

	strbuf__release(&sb);
	fields__delete(f);
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
