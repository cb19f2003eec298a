// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "tests/tools/kwriter.h"

#include <stdio.h>
#include <stdlib.h>

#include "sampling/perf_writer.h"

#define C2C_TYPE (SF_IDENTIFIER | SF_IP | SF_TID | SF_TIME | SF_ADDR | SF_CPU | SF_PERIOD | \
		  SF_DATA_SRC | SF_WEIGHT | SF_PHYS_ADDR)

void kwriter__die(const char *prog, const char *what, int line, struct perf_writer *w)
{
	fprintf(stderr, "%s: line %d: %s%s%s\n", prog, line, what, w ? ": " : "",
		w ? perf_writer__strerror(w) : "");
	exit(2);
}

struct perf_writer *kwriter__open(const char *prog, int argc, char **argv, bool stores)
{
	struct perf_writer *w;
	struct perf_writer_event ev = {
		.type = PW_TYPE_RAW, .sample_period = 1, .sample_type = C2C_TYPE, .precise_ip = 2,
		.mmap = true, .mmap2 = true, .comm = true, .task = true, .sample_id_all = true,
		.mmap_data = true,
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s OUT < SCENARIO\n", prog);
		exit(2);
	}
	w = perf_writer__new();
	ev.name = "cpu/mem-loads,ldlat=30/P";
	ev.config = 0x1cd;
	ev.config1 = 30;
	if (perf_writer__add_event(w, &ev) < 0)
		kwriter__die(prog, "load event", 0, w);
	if (stores) {
		ev.name = "cpu/mem-stores/P";
		ev.config = 0x82d0;
		ev.config1 = 0;
		if (perf_writer__add_event(w, &ev) < 0)
			kwriter__die(prog, "store event", 0, w);
	}
	if (perf_writer__open(w, argv[1]) < 0)
		kwriter__die(prog, "open", 0, w);
	return w;
}
