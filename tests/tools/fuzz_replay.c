// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_replay: run a libFuzzer harness's LLVMFuzzerTestOneInput() on the files named, once
 * each, in a plain (gcc, sanitizer) build: the seeds and past crashes of tests/fuzz/ become
 * regression tests of `make check` on machines without clang.  Usage: fuzz_replay FILE...
 * Exit 0 when every input ran (a harness aborts on what it finds), 2 on a file it cannot read.
 */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	for (int a = 1; a < argc; a++) {
		FILE *f = fopen(argv[a], "rb");
		uint8_t *buf = NULL;
		size_t len = 0, cap = 0, n;

		if (!f) {
			perror(argv[a]);
			return 2;
		}
		do {
			buf = xgrow(buf, &cap, len + 65536, 1);
			n = fread(buf + len, 1, 65536, f);
			len += n;
		} while (n);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
	}
	return 0;
}
