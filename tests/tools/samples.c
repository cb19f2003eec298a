// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * samples FILE: print "TID ADDR" (ADDR in hex) for every sample, as lineup's own reader
 * (sampling/perf_file.h) decodes it, so tests can hold it against `perf script -F tid,addr`.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>

#include "sampling/event.h"
#include "sampling/perf_file.h"

int main(int argc, char **argv)
{
	struct perf_file *pf;
	struct record rec;
	char err[512];
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: samples FILE\n");
		return 2;
	}
	if (perf_file__open(&pf, argv[1], err, sizeof(err)) < 0) {
		fprintf(stderr, "samples: %s\n", err);
		return 2;
	}
	while ((rc = perf_file__next_record(pf, &rec)) > 0)
		if (rec.type == REC_SAMPLE)
			printf("%" PRIu32 " %" PRIx64 "\n", rec.sample.tid, rec.sample.addr);
	if (rc < 0)
		fprintf(stderr, "samples: %s\n", perf_file__errmsg(pf));
	perf_file__close(pf);
	return rc < 0 ? 2 : 0;
}
