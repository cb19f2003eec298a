// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the layout loaders: the input is written to a memfd and opened as an
 * ELF object with DWARF (and as BTF), then every struct is built and printed, and a name is
 * looked up.  Any crash, sanitizer report or hang is a bug.  Built by tests/fuzz/elf_run.sh
 * (clang -fsanitize=fuzzer,address,undefined) with small objects as seeds.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1	/* memfd_create */
#endif
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dwarf/layout.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int print(const struct layout_type *t, void *arg)
{
	struct layout_print_opts o = { .line_size = 64, .addr_size = 8 };
	const struct layout_member *path[8];
	struct strbuf sb = STRBUF_INIT;

	layout__print(t, &o, &sb);
	layout__print_json(t, &o, &sb);
	strbuf__release(&sb);
	for (uint64_t off = 0; off < t->size && off < 4096; off += 8)
		layout__member_at(t, off, path, 8);
	return 0;
}

static void try(const char *path, unsigned int flags)
{
	struct layout_source *src;
	const struct layout_type *t;
	const char *close[3];
	char err[512];

	if (layout_source__open(&src, path, flags, err, sizeof(err)))
		return;
	layout_source__for_each(src, true, print, NULL, err, sizeof(err));
	if (layout_source__find(src, "bits", &t, err, sizeof(err)) == 0)
		print(t, NULL);
	layout_source__closest(src, "bitz", close, 3);
	layout_source__delete(src);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = memfd_create("elf_fuzz", 0);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		try(path, 0);
		try(path, LAYOUT_BTF);
	}
	close(fd);
	return 0;
}
