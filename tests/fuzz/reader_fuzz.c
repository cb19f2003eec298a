// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the perf.data reader: open the input as a perf.data in memory, read
 * every record and touch what the record points to.  Any crash, sanitizer report, hang or
 * unbounded allocation is a bug.  Built by tests/fuzz/run.sh (clang -fsanitize=fuzzer,address).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sampling/perf_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void touch(const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; p && i < n; i++)
		sink += b[i];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[PERF_FILE_ERRMAX];
	struct perf_file *pf;
	struct record rec;
	int n = 0;

	/* odd lengths are read front to back as through a pipe, even ones as a file */
	if ((size & 1 ? perf_file__open_mem_stream : perf_file__open_mem)(&pf, data, size, "fuzz",
									   err, sizeof(err)) < 0)
		return 0;
	while (perf_file__next_record(pf, &rec) > 0 && n++ < 1000000) {
		const struct sample *s = &rec.sample;

		touch(rec.payload, rec.size - 8u);
		switch (rec.type) {
		case REC_SAMPLE:
			touch(s->callchain, s->callchain_nr * 8);
			touch(s->raw, s->raw_size);
			touch(s->branch_entries, s->branch_nr * 24);
			touch(s->regs_user, (size_t)__builtin_popcountll(s->regs_user_mask) * 8);
			touch(s->regs_intr, (size_t)__builtin_popcountll(s->regs_intr_mask) * 8);
			touch(s->stack_user, s->stack_user_size);
			break;
		case REC_MMAP:
		case REC_MMAP2:
			touch(rec.mmap.filename, strlen(rec.mmap.filename));
			break;
		case REC_COMM:
			touch(rec.comm.comm, strlen(rec.comm.comm));
			break;
		case REC_NAMESPACES:
			touch(rec.ns.link_info, rec.ns.nr * 16);
			break;
		default:
			break;
		}
	}
	{
		const struct perf_header_info *h = perf_file__header(pf);

		for (uint32_t i = 0; i < h->nr_evsels; i++)
			touch(h->evsels[i].name, strlen(h->evsels[i].name));
		touch(h->tracing_data, h->tracing_data_size);
	}
	perf_file__close(pf);
	return 0;
}
