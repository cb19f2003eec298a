// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kmemmix - from a real `perf record -e kmem:kmem_cache_alloc` recording, write a perf.data
 * that holds its tracing data and its filp allocations (the raw tracepoint payloads as the
 * kernel wrote them) followed, for each struct file allocated, by kernel memory samples inside
 * that object at IPs of the kernel proper (no symbols there: only the allocation record can
 * tell the type).  Used by tests/fields/kmem.sh.
 *
 *   kmemmix IN OUT        prints "N OBJECTS" (filp allocations used) on stdout
 *
 * Each object gets, right after its allocation: 2 HITM loads at +0x28 (f_op in Linux 6.1's
 * layout), 2 locked stores at +0x38 (f_count), from CPUs 0..3.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/perf_writer.h"
#include "tests/fields/kmemmix.h"

#define C2C_TYPE (SF_IDENTIFIER | SF_IP | SF_TID | SF_TIME | SF_ADDR | SF_CPU | SF_PERIOD | \
		  SF_DATA_SRC | SF_WEIGHT)
#define TP_TYPE (SF_IDENTIFIER | SF_IP | SF_TID | SF_TIME | SF_CPU | SF_PERIOD | SF_RAW)

static void die(const char *what, const char *why)
{
	fprintf(stderr, "kmemmix: %s: %s\n", what, why);
	exit(2);
}

int main(int argc, char **argv)
{
	struct kmem_recording kr;
	struct perf_writer *w;
	struct perf_writer_event ev = {
		.sample_period = 1, .mmap = true, .mmap2 = true, .comm = true, .task = true,
		.sample_id_all = true,
	};

	if (argc != 3) {
		fprintf(stderr, "usage: kmemmix IN OUT\n");
		return 2;
	}
	kmemmix__read(argv[1], &kr);
	w = perf_writer__new();
	ev.name = "kmem:kmem_cache_alloc";
	ev.type = PW_TYPE_TRACEPOINT;
	ev.config = kr.config;
	ev.sample_type = TP_TYPE;
	if (perf_writer__add_event(w, &ev) < 0)
		die("event", perf_writer__strerror(w));
	ev.name = "cpu/mem-loads,ldlat=30/P";
	ev.type = PW_TYPE_RAW;
	ev.config = 0x1cd;
	ev.config1 = 30;
	ev.precise_ip = 2;
	ev.sample_type = C2C_TYPE;
	if (perf_writer__add_event(w, &ev) < 0)
		die("event", perf_writer__strerror(w));
	ev.name = "cpu/mem-stores/P";
	ev.config = 0x82d0;
	ev.config1 = 0;
	if (perf_writer__add_event(w, &ev) < 0)
		die("event", perf_writer__strerror(w));
	if (perf_writer__open(w, argv[2]) < 0)
		die(argv[2], perf_writer__strerror(w));
	perf_writer__set_tracing_data(w, kr.tracing_data, kr.tracing_data_size);
	perf_writer__set_nrcpus(w, 4, 4);
	{
		struct rec_mmap m = { .pid = (uint32_t)-1, .start = 0xffffffff81000000ULL,
				      .len = 0x1000000, .pgoff = 0xffffffff81000000ULL,
				      .is_mmap2 = true, .filename = "[kernel.kallsyms]_text" };

		if (perf_writer__mmap(w, CPUMODE_KERNEL, &m, NULL) < 0)
			die("mmap", perf_writer__strerror(w));
	}
	for (size_t i = 0; i < kr.nr; i++) {
		const struct kmem_alloc *a = &kr.allocs[i];
		struct sample out = { 0 };

		out.evsel = 0;
		out.cpumode = CPUMODE_KERNEL;
		out.ip = 0xffffffff81200000ULL;
		out.pid = a->pid;
		out.tid = a->tid;
		out.time = a->time;
		out.cpu = a->cpu;
		out.period = 1;
		out.id = perf_writer__event_id(w, 0);
		out.raw = a->raw;
		out.raw_size = a->raw_size;
		if (perf_writer__sample(w, &out) < 0)
			die("sample", perf_writer__strerror(w));
		for (int k = 0; k < 4; k++) {
			struct sample m = { 0 };
			int store = k >= 2;

			m.evsel = store ? 2 : 1;
			m.cpumode = CPUMODE_KERNEL;
			m.ip = 0xffffffff81234567ULL + (uint64_t)k;
			m.pid = m.tid = 100 + (uint32_t)k;
			m.time = a->time + 1 + (uint64_t)k;
			m.cpu = (uint32_t)k;
			m.period = 1;
			m.id = perf_writer__event_id(w, (int)m.evsel);
			m.addr = a->ptr + (store ? 0x38 : 0x28);
			m.weight = store ? 0 : 250;
			/* LCL_HITM and ST_L1MISS+LOCKED, as tests/tools/mkperf --classes gives them */
			m.data_src = store ? 0x010206080184ULL : 0x010605800842ULL;
			if (perf_writer__sample(w, &m) < 0)
				die("sample", perf_writer__strerror(w));
		}
		free(a->raw);
	}
	if (perf_writer__close(w) < 0)
		die(argv[2], perf_writer__strerror(w));
	perf_writer__delete(w);
	printf("%zu\n", kr.nr);
	free(kr.allocs);
	free(kr.tracing_data);
	return 0;
}
