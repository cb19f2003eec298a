// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * analyzer/watch_object: what `lineup watch` reports per member and per cache line, with the
 * line size and the number of CPUs as parameters: an object's lines at 64 and 128 bytes,
 * writer CPUs counted on a 200-CPU machine (ids 3, 67 and 131 are three CPUs, not one as a
 * 64-bit mask folded them), the watched words, the members not watched, and the pair
 * method's kinds.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/watch_object.h"
#include "tests/unit/check.h"

static void write_by(struct watch_member *m, unsigned int cpu, enum wr_kind k, uint64_t n)
{
	m->st.cpu_kinds[(size_t)cpu * WR_NR_KINDS + k] += n;
	m->st.kinds[k] += n;
	m->st.hits += n;
}

static void test_lines(void)
{
	struct watch_object o;
	struct watch_line *lines;
	int a, b, c, out[8];
	size_t nr;

	watch_object__init(&o, 64, 200);
	o.addr = 0x1030;
	o.size = 0x60;	/* 0x1030..0x108f: lines 0x1000, 0x1040, 0x1080 */
	a = watch_object__add_member(&o, "a", 0x00, 8);
	b = watch_object__add_member(&o, "b", 0x08, 4);
	c = watch_object__add_member(&o, "c", 0x20, 2);
	watch_object__add_member(&o, "pad", 0x22, 0x3e);
	o.nr_top = o.nr_members;
	watch_object__watch(&o, a);
	watch_object__watch(&o, b);
	watch_object__watch(&o, c);
	watch_object__place_words(&o);
	CHECK(o.members[a].wlen == 8 && o.members[a].st.addr == 0x1030);
	CHECK(o.members[b].wlen == 4 && o.members[b].st.addr == 0x1038);
	CHECK(o.members[c].wlen == 2 && o.members[c].st.addr == 0x1050);
	CHECK(watch_object__nr_lines(&o) == 3);
	CHECK(watch_object__line_of(&o, &o.members[a]) == 0);
	CHECK(watch_object__line_of(&o, &o.members[c]) == 1);

	for (int i = a; i <= c; i++)
		o.members[i].st.cpu_kinds = calloc(200 * WR_NR_KINDS, sizeof(uint64_t));
	/* a and b share line 0: written by CPUs 3, 67, 131 (and read by 70) */
	write_by(&o.members[a], 3, WR_LOCKED_RMW, 5);
	write_by(&o.members[a], 67, WR_STORE, 2);
	write_by(&o.members[b], 131, WR_RMW, 1);
	write_by(&o.members[b], 3, WR_STORE, 1);
	write_by(&o.members[b], 70, WR_LOAD, 9);
	o.members[a].st.transfers = 4;
	o.members[a].watched_ns = o.members[b].watched_ns = 1000000000;
	/* c: only read, and never had a breakpoint: left out of its line */
	write_by(&o.members[c], 199, WR_LOAD, 1);

	nr = watch_object__lines(&o, &lines);
	CHECK(nr == 3);
	CHECK(lines[0].nr_members == 2 && lines[0].members[0] == a && lines[0].members[1] == b);
	CHECK(lines[0].hits == 18 && lines[0].writes == 9 && lines[0].transfers == 4);
	CHECK(lines[0].writer_cpus == 3);
	CHECK(lines[1].line == 1 && lines[1].nr_members == 0 && lines[1].writer_cpus == 0);
	CHECK(lines[2].line == 2 && lines[2].hits == 0);
	watch_lines__free(lines, nr);

	CHECK(watch_member__cover(&o.members[a], 4.0) == 250);	/* 25.0% of a 4 s run */
	CHECK(watch_object__never_watched(&o) == 1);		/* c */
	CHECK(watch_object__not_watched(&o, false, out) == 1 && out[0] == 3);	/* pad */
	CHECK(watch_object__not_watched(&o, true, out) == 2 && out[0] == 2 && out[1] == 3);

	/* The same object with 128-byte lines: two lines, a, b and c on the first. */
	o.line_size = 128;
	CHECK(watch_object__nr_lines(&o) == 2);
	CHECK(watch_object__line_of(&o, &o.members[c]) == 0);
	o.members[c].watched_ns = 1;
	nr = watch_object__lines(&o, &lines);
	CHECK(nr == 2 && lines[0].nr_members == 3 && lines[0].writer_cpus == 3 &&
	      lines[0].hits == 19);
	watch_lines__free(lines, nr);

	/* A copy keeps the counts while the original is reset for the next object. */
	{
		struct watch_object k;

		watch_object__copy(&k, &o);
		watch_object__reset(&o);
		CHECK(!o.addr && !o.members[a].st.hits && !o.members[a].st.cpu_kinds &&
		      !o.members[c].watched_ns && o.nr_order == k.nr_order);
		CHECK(k.addr == 0x1030 && k.members[a].st.hits == 7 &&
		      k.members[c].watched_ns == 1 && !strcmp(k.members[b].name, "b") &&
		      k.members[a].name != o.members[a].name && k.order[0] == a);
		nr = watch_object__lines(&k, &lines);
		CHECK(nr == 2 && lines[0].hits == 19);
		watch_lines__free(lines, nr);
		watch_object__exit(&k);
	}
	watch_object__exit(&o);
}

static void test_pairs(void)
{
	enum { W = 0x40000000 };
	/* A write (RW + W halves, same CPU, IP, thread), a read (RW alone), a W alone. */
	struct wr_hit h[] = {
		{ .time = 100, .ip = 0x10, .cpu = 70, .tid = 5, .field = 1 },
		{ .time = 101, .ip = 0x10, .cpu = 70, .tid = 5, .field = 1 | W },
		{ .time = 200, .ip = 0x20, .cpu = 70, .tid = 5, .field = 1 },
		{ .time = 300, .ip = 0x30, .cpu = 3, .tid = 6, .field = 1 | W },
		/* same word and IP but another CPU: no pair */
		{ .time = 300, .ip = 0x30, .cpu = 4, .tid = 6, .field = 1 },
	};
	int *k = wr_hits__pair_kinds(h, 5, W);

	CHECK(k[0] == WR_STORE && k[1] == -1);
	CHECK(k[2] == WR_LOAD);
	CHECK(k[3] == WR_STORE && k[4] == WR_LOAD);
	free(k);
}

int main(void)
{
	test_lines();
	test_pairs();
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
