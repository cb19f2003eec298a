// SPDX-License-Identifier: GPL-2.0-or-later
/* The other file with a `static ... stats`: another type, another layout. */
#include "statics.h"

struct disk_stats {
	int reads;
	int flags;
	long writes;
	long errors;
};

static struct disk_stats stats;

void disk_count(int write)
{
	if (write)
		stats.writes++;
	else
		stats.reads++;
}
