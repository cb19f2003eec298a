// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A main() for a libFuzzer harness built without libFuzzer (by make check, with the project's
 * compiler and sanitizer flags): runs LLVMFuzzerTestOneInput once on each file named, so the
 * inputs a fuzzer found stay regression tests where clang is missing.  Exits 0 when every
 * input ran (a crash is the sanitizer's, or the signal's, exit status), 2 when one is
 * unreadable.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

/* The harness's custom mutator falls back on libFuzzer's: never called here. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size)
{
	(void)data;
	(void)max_size;
	return size;
}

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		perror(path);
		return 2;
	}
	do {
		if (len == cap) {
			uint8_t *nb = realloc(buf, cap = cap ? cap * 2 : 65536);

			if (!nb) {
				free(buf);
				fclose(f);
				return 2;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 0;

	LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		if (run_file(argv[i]))
			rc = 2;
		else
			printf("%s: ok\n", argv[i]);
	}
	return rc;
}
