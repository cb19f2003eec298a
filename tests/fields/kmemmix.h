/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_TESTS_FIELDS_KMEMMIX_H
#define LINEUP_TESTS_FIELDS_KMEMMIX_H
/*
 * kmemmix's two halves: the reader (kmemmix_read.c, sampling/perf_file.h) and the writer
 * (kmemmix.c, sampling/perf_writer.h), whose headers cannot meet in one translation unit.
 */
#include <stddef.h>
#include <stdint.h>

struct kmem_alloc {
	uint32_t pid, tid, cpu;
	uint64_t time, ptr;
	void *raw;
	uint32_t raw_size;
};

struct kmem_recording {
	void *tracing_data;
	size_t tracing_data_size;
	uint64_t config;		/* the kmem:kmem_cache_alloc attr's config (event id) */
	struct kmem_alloc *allocs;	/* the filp allocations, in file order */
	size_t nr;
};

/* Read @path; exits with a message on error. */
void kmemmix__read(const char *path, struct kmem_recording *out);

#endif
