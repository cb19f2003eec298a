// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * analyzer/c2c on hand-built samples: perf's c2c_decode_stats class by class, line and entry
 * grouping, perf's ordering and its 0.1% display threshold, the cycles means, Node strings.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/c2c.h"
#include "analyzer/c2c_columns.h"
#include "analyzer/data_src.h"
#include "analyzer/table.h"
#include "util/strbuf.h"

static int failures;

#define CHECK(cond)                                                                               \
	do {                                                                                      \
		if (!(cond)) {                                                                    \
			fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #cond);          \
			failures++;                                                               \
		}                                                                                 \
	} while (0)

#define LD(lvl, snoop) (DS_MK(OP, DS_OP_LOAD) | DS_MK(LVL, DS_LVL_HIT | (lvl)) | DS_MK(SNOOP, snoop))
#define ST(lvl) (DS_MK(OP, DS_OP_STORE) | DS_MK(LVL, lvl))

static struct c2c_stats decode(uint64_t ds)
{
	struct c2c_stats st = { 0 };

	c2c_stats__decode(&st, ds, 0x1000, true);
	return st;
}

static void test_decode(void)
{
	struct c2c_stats st;

	st = decode(LD(DS_LVL_L1, DS_SNOOP_NONE));
	CHECK(st.load == 1 && st.ld_l1hit == 1 && st.nr_entries == 1);
	st = decode(LD(DS_LVL_LFB, DS_SNOOP_NONE));
	CHECK(st.ld_fbhit == 1);
	st = decode(LD(DS_LVL_L2, DS_SNOOP_NONE) | DS_MK(SNOOPX, DS_SNOOPX_PEER));
	CHECK(st.ld_l2hit == 1 && st.lcl_peer == 1 && st.tot_peer == 1);
	st = decode(LD(DS_LVL_L3, DS_SNOOP_NONE));
	CHECK(st.ld_llchit == 1 && st.lcl_hitm == 0);
	st = decode(LD(DS_LVL_L3, DS_SNOOP_HITM));
	CHECK(st.lcl_hitm == 1 && st.tot_hitm == 1 && st.ld_llchit == 0);
	st = decode(LD(DS_LVL_REM_CCE1, DS_SNOOP_HITM));
	CHECK(st.rmt_hitm == 1 && st.tot_hitm == 1);
	st = decode(LD(DS_LVL_REM_CCE2, DS_SNOOP_HIT));
	CHECK(st.rmt_hit == 1);
	st = decode(LD(DS_LVL_REM_CCE1, DS_SNOOP_NA) | DS_MK(SNOOPX, DS_SNOOPX_PEER));
	CHECK(st.rmt_hit == 1 && st.rmt_peer == 1 && st.tot_peer == 1);
	st = decode(LD(DS_LVL_LOC_RAM, DS_SNOOP_HIT));
	CHECK(st.lcl_dram == 1 && st.ld_shared == 1);
	st = decode(LD(DS_LVL_LOC_RAM, DS_SNOOP_MISS));
	CHECK(st.lcl_dram == 1 && st.ld_excl == 1);
	st = decode(LD(DS_LVL_REM_RAM1, DS_SNOOP_MISS));
	CHECK(st.rmt_dram == 1 && st.ld_excl == 1);
	/* Skylake's remote bit without hops: remote DRAM and remote cache at once */
	st = decode(LD(0, DS_SNOOP_HITM) | DS_MK(REMOTE, 1));
	CHECK(st.rmt_dram == 1 && st.rmt_hitm == 1);
	st = decode(LD(0, DS_SNOOP_HITM) | DS_MK(REMOTE, 1) | DS_MK(HOPS, DS_HOPS_2));
	CHECK(st.rmt_dram == 0 && st.rmt_hitm == 0);
	st = decode(LD(DS_LVL_UNC, DS_SNOOP_NONE));
	CHECK(st.ld_uncache == 1);
	st = decode(LD(DS_LVL_IO, DS_SNOOP_NONE));
	CHECK(st.ld_io == 1);
	st = decode(DS_MK(OP, DS_OP_LOAD) | DS_MK(LVL, DS_LVL_MISS | DS_LVL_L3));
	CHECK(st.ld_miss == 1 && st.ld_llchit == 0);
	st = decode(LD(DS_LVL_L1, 0) | DS_MK(LOCK, DS_LOCK_LOCKED) | DS_MK(BLK, DS_BLK_DATA));
	CHECK(st.locks == 1 && st.blk_data == 1);
	st = decode(ST(DS_LVL_HIT | DS_LVL_L1));
	CHECK(st.store == 1 && st.st_l1hit == 1);
	st = decode(ST(DS_LVL_MISS | DS_LVL_L1));
	CHECK(st.st_l1miss == 1);
	st = decode(ST(DS_LVL_NA));
	CHECK(st.st_na == 1);
	st = decode(ST(DS_LVL_HIT | DS_LVL_UNC));
	CHECK(st.st_uncache == 1);
	st = decode(DS_MK(OP, DS_OP_NA));
	CHECK(st.noparse == 1 && st.load == 0);

	memset(&st, 0, sizeof(st));
	CHECK(c2c_stats__decode(&st, LD(DS_LVL_L1, 0), 0, true) == -1 && st.ld_noadrs == 1);
	memset(&st, 0, sizeof(st));
	CHECK(c2c_stats__decode(&st, ST(DS_LVL_HIT | DS_LVL_L1), 0x10, false) == -1 &&
	      st.nomap == 1 && st.st_l1hit == 1);
}

static struct c2c_sample mk(uint64_t addr, uint64_t ip, uint64_t ds, int cpu, int tid)
{
	struct c2c_sample s = { 0 };

	s.addr = addr;
	s.data_rel = addr;
	s.ip = ip;
	s.ip_rel = ip;
	s.data_src = ds;
	s.cpu = cpu;
	s.pid = 100;
	s.tid = tid;
	s.level = '.';
	s.cpumode = 2;
	s.ip_mapped = s.data_mapped = s.data_anon = true;
	s.code_map = (void *)1;
	s.weight = 100;
	return s;
}

static void test_lines(void)
{
	int cpu2node[4] = { 0, 0, 1, 1 };
	struct c2c_mem_range mem[2] = { { 0, 1 << 30, 0 }, { 1 << 30, 2ULL << 30, 1 } };
	struct c2c_config cfg = {
		.display = C2C_DISPLAY_TOT, .line_size = 64, .keys = { C2C_KEY_IADDR },
		.nr_keys = 1, .nr_cpus = 4, .nr_nodes = 2, .cpu2node = cpu2node, .mem = mem,
		.nr_mem = 2,
	};
	struct c2c *c = c2c__new(&cfg);
	struct c2c_sample s;
	const struct c2c_line *l;
	const struct c2c_entry *e;
	char buf[32];
	uint64_t hitm = LD(DS_LVL_L3, DS_SNOOP_HITM), rhitm = LD(DS_LVL_REM_CCE1, DS_SNOOP_HITM);

	/* line A (0x1000): 3 HITMs; line B (0x2040): 1 HITM + stores; line C: L1 hits only */
	for (int i = 0; i < 2; i++) {
		s = mk(0x1008, 0x400100, hitm, 0, 1);
		s.weight = 100 + i;
		s.phys_addr = 0x100;
		c2c__add_sample(c, &s);
	}
	s = mk(0x1010, 0x400200, rhitm, 2, 2);
	s.phys_addr = (1 << 30) + 0x40;
	c2c__add_sample(c, &s);
	s = mk(0x2048, 0x400300, hitm, 1, 1);
	c2c__add_sample(c, &s);
	s = mk(0x2040, 0x400400, ST(DS_LVL_HIT | DS_LVL_L1), 3, 2);
	c2c__add_sample(c, &s);
	s = mk(0x3000, 0x400500, LD(DS_LVL_L1, DS_SNOOP_NONE), 0, 1);
	c2c__add_sample(c, &s);
	c2c__finish(c);

	CHECK(c2c__nr_lines(c) == 3);
	CHECK(c2c__nr_shared(c) == 2);
	CHECK(c2c__total(c)->nr_entries == 6 && c2c__total(c)->tot_hitm == 4);
	CHECK(c2c__shared(c)->store == 1 && c2c__shared(c)->ld_l1hit == 0);
	l = c2c__line(c, 0);
	CHECK(l->addr == 0x1008 && l->stats.tot_hitm == 3 && !l->filtered && l->idx == 0);
	CHECK(l->nr_entries == 2);
	e = c2c__entry(c, l->entries[0]);
	CHECK(e->offset == 8 && e->stats.lcl_hitm == 2);
	CHECK(e->mean_lcl_hitm.n == 2 && e->mean_lcl_hitm.mean == 100.5);
	CHECK(c2c__cpuset_weight(c, e->cpuset) == 1);
	c2c__nodestr(c, l->nodeset, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0-1"));
	CHECK(l->paddr_cnt == 2);
	l = c2c__line(c, 1);
	CHECK(l->addr == 0x2048 && l->idx == 1 && l->nr_entries == 2);
	/* the store-only entry at offset 0 comes first (offsets ascend) */
	CHECK(c2c__entry(c, l->entries[0])->offset == 0);
	c2c__nodestr(c, l->nodeset, buf, sizeof(buf));
	CHECK(!strcmp(buf, "N/A"));
	l = c2c__line(c, 2);
	CHECK(l->filtered);
	c2c__delete(c);

	/* --show-all shows the L1-only line too */
	cfg.show_all = true;
	c = c2c__new(&cfg);
	s = mk(0x3000, 0x400500, LD(DS_LVL_L1, DS_SNOOP_NONE), 0, 1);
	c2c__add_sample(c, &s);
	c2c__finish(c);
	CHECK(c2c__nr_lines(c) == 1 && !c2c__line(c, 0)->filtered);
	/* the entry has neither stores nor HITMs: perf hides it even with --show-all */
	CHECK(c2c__entry(c, c2c__line(c, 0)->entries[0])->filtered);
	c2c__delete(c);
}

static void test_threshold(void)
{
	struct c2c_config cfg = { .display = C2C_DISPLAY_TOT, .line_size = 64,
				  .keys = { C2C_KEY_IADDR }, .nr_keys = 1 };
	struct c2c *c = c2c__new(&cfg);
	struct c2c_sample s;
	uint64_t hitm = LD(DS_LVL_L3, DS_SNOOP_HITM);

	/* 1 HITM of 1001 is below 0.1%: that line is hidden, but still shared */
	for (int i = 0; i < 1000; i++) {
		s = mk(0x1000, 0x400100, hitm, 0, 1);
		c2c__add_sample(c, &s);
	}
	s = mk(0x9000, 0x400100, hitm, 0, 1);
	c2c__add_sample(c, &s);
	c2c__finish(c);
	CHECK(c2c__nr_shared(c) == 2);
	CHECK(!c2c__line(c, 0)->filtered && c2c__line(c, 1)->filtered);
	c2c__delete(c);
}

/* Many lines and entries: the hash tables grow while samples arrive, and nothing is lost. */
static void test_growth(void)
{
	struct c2c_config cfg = { .display = C2C_DISPLAY_TOT, .line_size = 64,
				  .keys = { C2C_KEY_TID, C2C_KEY_IADDR }, .nr_keys = 2,
				  .show_all = true };
	struct c2c *c = c2c__new(&cfg);
	uint64_t hitm = LD(DS_LVL_L3, DS_SNOOP_HITM);
	uint32_t entries = 0, samples = 0;

	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < 20000; i++) {
			struct c2c_sample s = mk(0x100000 + (i % 3000) * 64 + (i % 8) * 8,
						 0x400000 + (i % 7) * 4, hitm, 0, 1 + i % 5);

			c2c__add_sample(c, &s);
		}
	c2c__finish(c);
	for (uint32_t i = 0; i < c2c__nr_lines(c); i++) {
		const struct c2c_line *l = c2c__line(c, i);

		entries += l->nr_entries;
		for (uint32_t k = 0; k < l->nr_entries; k++) {
			const struct c2c_entry *e = c2c__entry(c, l->entries[k]);

			samples += e->stats.nr_entries;
			/* every (offset, tid, iaddr) was sampled exactly twice */
			CHECK(e->stats.nr_entries % 2 == 0);
		}
	}
	CHECK(c2c__nr_lines(c) == 3000);
	CHECK(samples == 40000);
	/* i determines (line, offset, tid, ip); the key repeats every lcm(3000, 8, 5, 7) = 21000 */
	CHECK(entries == 20000);
	c2c__delete(c);
}

/* perf's callchain radix tree: a shorter chain splits a node, a new branch joins it. */
static void test_callchain(void)
{
	struct cc_forest f = { 0 };
	struct cc_frame a = { (void *)1, 0x10, "a", 0x10 }, b = { (void *)1, 0x20, "b", 0x20 },
			c = { (void *)1, 0x30, "c", 0x30 }, d = { (void *)1, 0x40, "d", 0x40 };
	struct cc_frame abc[] = { a, b, c }, ab[] = { a, b }, ad[] = { a, d };
	uint32_t root = cc_forest__new_root(&f);
	const struct cc_node *n, *x;

	cc_forest__append(&f, root, abc, 3, 1);
	cc_forest__append(&f, root, ab, 2, 2);
	cc_forest__append(&f, root, ad, 2, 4);
	cc_forest__sort(&f);
	n = &f.nodes[root];
	CHECK(n->nr_children == 1 && n->children_hit == 7);
	n = &f.nodes[n->children[0]];			/* "a": split twice */
	CHECK(n->nr_frames == 1 && n->hit == 0 && cc_node__cumul(n) == 7);
	CHECK(n->nr_children == 2);
	x = &f.nodes[n->children[0]];			/* "d" (4) sorts before "b" (3) */
	CHECK(x->nr_frames == 1 && f.frames[x->frame].ip == 0x40 && x->hit == 4);
	x = &f.nodes[n->children[1]];
	CHECK(x->nr_frames == 1 && f.frames[x->frame].ip == 0x20 && x->hit == 2 &&
	      x->children_hit == 1 && x->nr_children == 1);
	cc_forest__release(&f);
}

static void test_columns(void)
{
	struct c2c_config cfg = { .display = C2C_DISPLAY_TOT, .line_size = 64,
				  .keys = { C2C_KEY_IADDR }, .nr_keys = 1, .nr_cpus = 1,
				  .nr_nodes = 1, .cpu2node = (int[]){ 0 } };
	struct c2c *c = c2c__new(&cfg);
	struct c2c_view v;
	struct c2c_sample s = mk(0x1008, 0x400100, LD(DS_LVL_L3, DS_SNOOP_HITM), 0, 1);
	struct strbuf sb = STRBUF_INIT;
	struct table sub = { 0 };
	struct table_cell cell;

	c2c__add_sample(c, &s);
	c2c__finish(c);
	c2c__resolve(c, NULL, false);
	c2c_view__init(&v, c, true, false, false);
	CHECK(!strcmp(v.cl_hdr0, "----------- Cacheline ----------"));
	CHECK(!strcmp(v.off_hdr0, "--------- Data address ---------"));
	CHECK(!strcmp(v.lines.cols[4].name, "percent_costly_snoop"));
	CHECK(v.lines.nr_rows == 1 && v.lines.rows[0] == c2c__line(c, 0));
	table__cell_text(&v.lines, &v.lines.cols[4], v.lines.rows[0], 7, true, &sb);
	CHECK(!strcmp(sb.buf, "100.00%"));
	CHECK(!strcmp(table__header(&v.lines, &v.lines.cols[4], 0), "Tot"));
	/* the lines drill down into their entries, which know their line */
	CHECK(v.lines.drill(&v.lines, v.lines.rows[0], &sub) == 0 && sub.nr_rows == 1);
	CHECK(sub.parent == c2c__line(c, 0) && !strcmp(sub.cols[0].name, "cl_idx"));
	table_cell__init(&cell);
	table__cell(&sub, table__column(&sub, "offset"), sub.rows[0], &cell);
	CHECK(cell.kind == TABLE_ADDR && cell.u == 8);
	table_cell__release(&cell);
	table__release(&sub);
	strbuf__release(&sb);
	c2c_view__release(&v);
	c2c__delete(c);
}

/* All of a c2c's tables as --stdio lays them out: the lines, each line's row and Pareto rows. */
static void render(struct c2c *c, struct strbuf *out)
{
	static const struct table_text_style st = { "# ", "  ", "  ", 2, true, false };
	struct c2c_view v;

	c2c_view__init(&v, c, true, false, false);
	table_text__headers(&v.lines, &st, out);
	for (size_t i = 0; i < v.lines.nr_rows; i++)
		table_text__row(&v.lines, v.lines.rows[i], &st, out);
	for (size_t i = 0; i < v.lines.nr_rows; i++) {
		table_text__row(&v.cl_row, v.lines.rows[i], &st, out);
		c2c_view__entries(&v, v.lines.rows[i], &v.entries);
		if (!i)
			table_text__headers(&v.entries, &st, out);
		for (size_t k = 0; k < v.entries.nr_rows; k++)
			table_text__row(&v.entries, v.entries.rows[k], &st, out);
	}
	c2c_view__release(&v);
}

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* A recording where the lines' shares differ by mode: which lines pass 0.1% changes with -d. */
static struct c2c *display_c2c(enum c2c_display d, bool show_all)
{
	static int cpu2node[8] = { 0, 0, 1, 1, 2, 2, 3, 3 };
	static const struct c2c_mem_range mem[4] = {
		{ 0, 1ULL << 30, 0 }, { 1ULL << 30, 2ULL << 30, 1 },
		{ 2ULL << 30, 3ULL << 30, 2 }, { 3ULL << 30, 4ULL << 30, 3 },
	};
	const uint64_t classes[] = {
		LD(DS_LVL_L3, DS_SNOOP_HITM), LD(DS_LVL_REM_CCE1, DS_SNOOP_HITM),
		LD(DS_LVL_L2, DS_SNOOP_NONE) | DS_MK(SNOOPX, DS_SNOOPX_PEER),
		LD(DS_LVL_REM_CCE1, DS_SNOOP_NA) | DS_MK(SNOOPX, DS_SNOOPX_PEER),
		ST(DS_LVL_HIT | DS_LVL_L1), LD(DS_LVL_L1, DS_SNOOP_NONE),
	};
	struct c2c_config cfg = { .display = d, .line_size = 64, .keys = { C2C_KEY_IADDR },
				  .nr_keys = 1, .nr_cpus = 8, .nr_nodes = 4, .cpu2node = cpu2node,
				  .mem = mem, .nr_mem = 4, .show_all = show_all };
	struct c2c *c = c2c__new(&cfg);
	uint64_t x = 88172645463325252ULL;

	for (int i = 0; i < 60000; i++) {
		uint64_t r = rnd(&x), u = r % 1000;
		/* a few hot lines, a long tail; each line's class mix its own */
		uint64_t line = u * u * u / 1000000 * 3 + (r >> 10) % 3;
		uint64_t cls = (line * 7 + (r >> 20) % 4) % 6;
		struct c2c_sample s = mk(0x100000 + line * 64 + (r >> 30) % 8 * 8,
					 0x400000 + (r >> 40) % 16 * 4, classes[cls], (r >> 50) % 8,
					 1 + (r >> 50) % 4);
		/* the data in nodes 0, 1 and 3 (Node "0-1,3") on a few lines of the tail only */
		uint64_t node = line > 1500 && line % 5 == 0 ? (r >> 56) % 3 : 0;

		s.phys_addr = (node == 2 ? 3 : node) << 30 | (line * 64 + 0x1000);
		s.weight = 30 + (r >> 54) % 300;
		c2c__add_sample(c, &s);
	}
	return c;
}

/*
 * The browser's d (c2c__set_display, the entries sorted when asked for, a line named once):
 * the same tables, byte for byte, as a report made in that mode, in any order of modes.
 */
static void test_display(void)
{
	static const enum c2c_display seq[] = { C2C_DISPLAY_LCL, C2C_DISPLAY_RMT,
						 C2C_DISPLAY_PEER, C2C_DISPLAY_TOT,
						 C2C_DISPLAY_PEER, C2C_DISPLAY_LCL };

	for (int all = 0; all < 2; all++) {
		struct c2c *c = display_c2c(C2C_DISPLAY_TOT, all);
		uint64_t shown[4] = { 0 };

		c2c__finish(c);
		c2c__resolve(c, NULL, false);
		for (size_t i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
			struct c2c *fresh = display_c2c(seq[i], all);
			struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;

			c2c__set_display(c, seq[i]);
			c2c__resolve(c, NULL, false);
			c2c__finish(fresh);
			c2c__resolve(fresh, NULL, false);
			render(c, &a);
			render(fresh, &b);
			CHECK(a.len > 0 && a.len == b.len && !memcmp(a.buf, b.buf, a.len));
			if (a.len != b.len || memcmp(a.buf, b.buf, a.len))
				fprintf(stderr, "mode %d, show_all %d: the tables differ\n", seq[i], all);
			/* which lines are shown: a sum of their addresses */
			shown[seq[i]] = 0;
			for (uint32_t k = 0; k < c2c__nr_lines(c); k++)
				if (!c2c__line(c, k)->filtered)
					shown[seq[i]] += c2c__line(c, k)->addr;
			strbuf__release(&a);
			strbuf__release(&b);
			c2c__delete(fresh);
		}
		/* the recording is one where modes show different lines */
		if (!all)
			CHECK(shown[C2C_DISPLAY_LCL] != shown[C2C_DISPLAY_RMT] &&
			      shown[C2C_DISPLAY_RMT] != shown[C2C_DISPLAY_PEER] &&
			      shown[C2C_DISPLAY_LCL] != shown[C2C_DISPLAY_PEER]);
		c2c__delete(c);
	}
}

int main(void)
{
	test_decode();
	test_lines();
	test_threshold();
	test_growth();
	test_callchain();
	test_columns();
	test_display();
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	return failures ? 1 : 0;
}
