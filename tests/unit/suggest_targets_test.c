// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * suggest_targets__sort on what a mutated perf.data can leave: no target at all (no array,
 * the qsort(NULL, 0) that UBSan reports), one, and an order to make.  This program is built
 * with analyzer/suggest_targets.c compiled again under -fsanitize=nonnull-attribute, trapping:
 * a NULL handed to qsort is a crash even in a build without the sanitizers.
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>

#include "analyzer/suggest_targets.h"
#include "tests/unit/check.h"
#include "util/xalloc.h"

/* The targets' flat layouts are only compared by address here. */
static const struct flat_layout *flat_at(int i)
{
	static char dummies[3];

	return (const struct flat_layout *)(void *)&dummies[i];
}

int main(void)
{
	struct suggest_targets_config cfg = { .line_size = 64, .max_growth = UINT64_MAX };
	struct suggest_targets ts;
	uint64_t at;

	/* nothing attributed: no array to sort */
	suggest_targets__init(&ts, &cfg);
	suggest_targets__sort(&ts);
	CHECK(ts.nr == 0 && ts.v == NULL);
	suggest_targets__release(&ts);

	/* three, most HITMs first, then most samples, and the index rebuilt */
	suggest_targets__init(&ts, &cfg);
	ts.v = xcalloc(3, sizeof(*ts.v));
	ts.nr = ts.cap = 3;
	for (int i = 0; i < 3; i++) {
		static const uint64_t hitm[] = { 1, 5, 1 }, samples[] = { 10, 5, 20 };

		ts.v[i].flat = flat_at(i);
		ts.v[i].hitm = hitm[i];
		ts.v[i].samples = samples[i];
		u64map__set(&ts.index, (uintptr_t)flat_at(i), i);
	}
	suggest_targets__sort(&ts);
	CHECK(ts.v[0].flat == flat_at(1) && ts.v[1].flat == flat_at(2) &&
	      ts.v[2].flat == flat_at(0));
	CHECK(u64map__get(&ts.index, (uintptr_t)flat_at(0), &at) && at == 2);
	suggest_targets__release(&ts);
	return failures != 0;
}
