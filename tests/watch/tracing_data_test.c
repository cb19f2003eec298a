// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tracepoint decoder on fuzzing seeds (tests/fuzz/tracepoint_fuzz.c's input format: u32
 * length, a TRACING_DATA section, u16-length payloads):
 *   tracepoint-kmem.bin		a real kmem recording's: loads, every payload decodes and prints
 *   tracepoint-crash-signed.bin	one byte changed in a format ("signed:0\n" for "signed:0;")
 *					made libtraceevent segfault: refused with a message (and the
 *					kmem one still loads after: the checker process is started
 *					again)
 *   tracepoint-unterminated.bin	a fuzzer find: a char[] field ending its payload without a
 *					NUL was printed past the payload's end; each payload is put
 *					against a page that cannot be read, and must print
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sampling/tracepoint.h"
#include "util/strbuf.h"

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *buf;
	long n;

	if (!fp || fseek(fp, 0, SEEK_END) || (n = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET)) {
		perror(path);
		exit(99);
	}
	buf = malloc(n ? n : 1);
	if (!buf || fread(buf, 1, n, fp) != (size_t)n)
		exit(99);
	fclose(fp);
	*len = n;
	return buf;
}

/* Each payload of tracepoint-unterminated.bin ends where an unreadable page begins. */
static int unterminated(const char *src)
{
	long page = sysconf(_SC_PAGESIZE);
	char path[4096], err[512];
	unsigned char *buf, *map;
	size_t len, off;
	uint32_t n;
	int printed = 0;
	struct tp_decoder *d;

	snprintf(path, sizeof(path), "%s/tests/fuzz/seeds/tracepoint-unterminated.bin", src);
	buf = slurp(path, &len);
	memcpy(&n, buf, 4);
	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED || mprotect(map + page, page, PROT_NONE))
		exit(99);
	d = tp_decoder__new();
	if (tp_decoder__load_tracing_data(d, buf + 4, n, err, sizeof(err)) < 0) {
		printf("FAIL the unterminated seed's tracing data is refused: %s\n", err);
		return 1;
	}
	for (off = 4 + n; off + 2 <= len;) {
		uint16_t l;
		struct strbuf sb = STRBUF_INIT;

		memcpy(&l, buf + off, 2);
		off += 2;
		if (l > len - off)
			l = len - off;
		if (l <= page) {
			memcpy(map + page - l, buf + off, l);
			printed += tp_decoder__print(d, map + page - l, l, 0, &sb) == 0;
		}
		strbuf__release(&sb);
		off += l;
	}
	printf("ok   %d payloads with an unterminated string printed within their bytes\n",
	       printed);
	tp_decoder__delete(d);
	munmap(map, 2 * page);
	free(buf);
	return 0;
}

int main(void)
{
	const char *src = getenv("top_srcdir");
	char path[4096], err[512];
	unsigned char *buf;
	size_t len, off;
	uint32_t n;
	int failed = 0, decoded = 0;
	struct tp_decoder *d;

	if (!src)
		src = ".";
	snprintf(path, sizeof(path), "%s/tests/fuzz/seeds/tracepoint-kmem.bin", src);
	buf = slurp(path, &len);
	memcpy(&n, buf, 4);
	d = tp_decoder__new();
	if (tp_decoder__load_tracing_data(d, buf + 4, n, err, sizeof(err)) < 0) {
		printf("FAIL kmem seed refused: %s\n", err);
		failed++;
	}
	for (off = 4 + n; off + 2 <= len;) {
		uint16_t l;
		struct tp_event ev;
		struct strbuf sb = STRBUF_INIT;

		memcpy(&l, buf + off, 2);
		off += 2;
		if (tp_decoder__decode(d, buf + off, l, &ev, err, sizeof(err)) < 0 ||
		    tp_decoder__print(d, buf + off, l, 0, &sb) < 0 || !sb.len ||
		    strncmp(ev.sys, "kmem", 4)) {
			printf("FAIL payload at %zu: %s\n", off, err);
			failed++;
		} else if (!decoded++) {
			printf("ok   first payload: %s:%s: %s\n", ev.sys, ev.name, sb.buf);
		}
		strbuf__release(&sb);
		off += l;
	}
	printf("ok   %d payloads decoded\n", decoded);
	if (decoded < 10)
		failed++;
	tp_decoder__delete(d);
	free(buf);

	snprintf(path, sizeof(path), "%s/tests/fuzz/seeds/tracepoint-crash-signed.bin", src);
	buf = slurp(path, &len);
	memcpy(&n, buf, 4);
	d = tp_decoder__new();
	if (tp_decoder__load_tracing_data(d, buf + 4, n, err, sizeof(err)) == 0 ||
	    !strstr(err, "makes libtraceevent crash")) {
		printf("FAIL crashing format not refused (%s)\n", err);
		failed++;
	} else {
		printf("ok   %s\n", err);
	}
	tp_decoder__delete(d);
	free(buf);

	/* after a crash of the checker, a good tracing data loads again */
	snprintf(path, sizeof(path), "%s/tests/fuzz/seeds/tracepoint-kmem.bin", src);
	buf = slurp(path, &len);
	memcpy(&n, buf, 4);
	d = tp_decoder__new();
	if (tp_decoder__load_tracing_data(d, buf + 4, n, err, sizeof(err)) < 0) {
		printf("FAIL kmem seed refused after a crash: %s\n", err);
		failed++;
	} else {
		printf("ok   kmem seed loads after a crash\n");
	}
	tp_decoder__delete(d);
	free(buf);

	failed += unterminated(src);
	return failed ? 1 : 0;
}
