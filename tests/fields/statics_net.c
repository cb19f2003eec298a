// SPDX-License-Identifier: GPL-2.0-or-later
/* One of two files with a `static ... stats` of its own (tests/fields/statics.sh). */
#include "statics.h"

struct net_stats {
	long rx;
	long tx;
};

static struct net_stats stats;

void net_count(int tx)
{
	if (tx)
		stats.tx++;
	else
		stats.rx++;
}
