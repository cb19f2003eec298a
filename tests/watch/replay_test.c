// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * analyzer/watch_replay: hits replayed in time order through the coherence model.
 * Expected values worked out by hand from MESI:
 *   - CPU 0 and CPU 1 alternate locked RMWs on one word: every access after the first takes
 *     the line Modified from the other CPU (a HITM load part and an invalidation);
 *   - a word only read by both CPUs on another line: no transfer after the first two misses;
 *   - a new breakpoint group (rotation) forgets the line states.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/watch_replay.h"

static int failed;

#define EXPECT(cond, ...)                                                 \
	do {                                                              \
		if (!(cond)) {                                            \
			printf("FAIL %s:%d: ", __FILE__, __LINE__);       \
			printf(__VA_ARGS__);                              \
			printf("\n");                                     \
			failed++;                                         \
		}                                                         \
	} while (0)

int main(void)
{
	struct wr_hit hits[40];
	uint64_t cpu_kinds[2][2 * WR_NR_KINDS];
	struct wr_field f[2] = {
		{ .addr = 0x1000, .wlen = 8, .cpu_kinds = cpu_kinds[0] },	/* line 0x40 */
		{ .addr = 0x1048, .wlen = 8, .cpu_kinds = cpu_kinds[1] },	/* line 0x41 */
	};
	size_t n = 0;

	memset(hits, 0, sizeof(hits));
	/* 10 alternating locked RMWs on field 0, listed out of order (the replay sorts). */
	for (int i = 9; i >= 0; i--)
		hits[n++] = (struct wr_hit){ .time = 100 + 10 * i, .cpu = i % 2, .field = 0,
					     .kind = WR_LOCKED_RMW, .site = -1 };
	/* 6 loads on field 1, alternating CPUs. */
	for (int i = 0; i < 6; i++)
		hits[n++] = (struct wr_hit){ .time = 105 + 10 * i, .cpu = i % 2, .field = 1,
					     .kind = WR_LOAD, .site = -1 };
	/* One unknown: counted, not modeled. */
	hits[n++] = (struct wr_hit){ .time = 300, .cpu = 1, .field = 1, .kind = WR_UNKNOWN };
	wr_report__replay(hits, n, f, 2, 6, 2);

	EXPECT(f[0].hits == 10 && f[0].kinds[WR_LOCKED_RMW] == 10, "f0 hits %lu", f[0].hits);
	EXPECT(f[0].transfers == 9, "f0 transfers %lu, want 9", f[0].transfers);
	EXPECT(f[0].hitm == 9, "f0 hitm %lu, want 9", f[0].hitm);
	EXPECT(f[0].writer_cpus == 2 && f[0].reader_cpus == 2, "f0 cpus %u/%u", f[0].writer_cpus,
	       f[0].reader_cpus);
	EXPECT(f[1].hits == 7 && f[1].kinds[WR_LOAD] == 6 && f[1].kinds[WR_UNKNOWN] == 1,
	       "f1 hits %lu", f[1].hits);
	EXPECT(f[1].transfers == 0, "f1 transfers %lu, want 0 (clean sharing)", f[1].transfers);
	EXPECT(f[1].writer_cpus == 0 && f[1].reader_cpus == 2, "f1 cpus %u/%u", f[1].writer_cpus,
	       f[1].reader_cpus);
	EXPECT(cpu_kinds[0][0 * WR_NR_KINDS + WR_LOCKED_RMW] == 5 &&
	       cpu_kinds[0][1 * WR_NR_KINDS + WR_LOCKED_RMW] == 5, "f0 per CPU");
	/* Sorted by time; data_src of unknown hits says "not available". */
	for (size_t i = 1; i < n; i++)
		EXPECT(hits[i - 1].time <= hits[i].time, "not sorted at %zu", i);
	EXPECT(hits[n - 1].kind == WR_UNKNOWN && (hits[n - 1].data_src & 1), "unknown data_src");

	/* Rotation: the same two accesses, but in different groups, imply nothing. */
	memset(hits, 0, sizeof(hits));
	hits[0] = (struct wr_hit){ .time = 1, .cpu = 0, .field = 0, .kind = WR_STORE, .group = 1 };
	hits[1] = (struct wr_hit){ .time = 2, .cpu = 1, .field = 0, .kind = WR_LOAD, .group = 2 };
	wr_report__replay(hits, 2, f, 2, 6, 2);
	EXPECT(f[0].transfers == 0, "transfer across groups: %lu", f[0].transfers);
	hits[1].group = 1;
	wr_report__replay(hits, 2, f, 2, 6, 2);
	EXPECT(f[0].transfers == 1 && f[0].hitm == 1, "same group: %lu transfers, %lu hitm",
	       f[0].transfers, f[0].hitm);
	if (!failed)
		printf("ok   watch replay: transfers, HITMs, per-CPU counts, rotation\n");
	return failed ? 1 : 0;
}
