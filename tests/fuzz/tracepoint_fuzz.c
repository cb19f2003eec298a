// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the tracepoint decoder (sampling/tracepoint.c): the input is a u32
 * length N, N bytes of a perf.data TRACING_DATA section, then tracepoint payloads, each a u16
 * length and its bytes.  Load the section, decode and print every payload.  Any crash,
 * sanitizer report or hang is a bug (ours, or libtraceevent's on input we let through).
 * Built by tests/fuzz/tracepoint_run.sh.
 *
 * Speed: libtraceevent takes milliseconds to parse a real recording's formats (kmalloc's
 * print format alone is 5 KB), twice here (sampling/tracepoint.c's checker, then the parse
 * itself), which held the harness to 20 inputs a second.  So the decoders of the last 512
 * tracing datas are kept, and an input whose tracing data is the same bytes as one of them
 * decodes its payloads with it; and the mutator below changes the payloads 63 times out of
 * 64, the formats once.  The formats are still fuzzed, the payloads much faster.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/tracepoint.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

/* The decoders of the last tracing datas (NULL where one did not load), by their bytes. */
#define NR_CACHED 512

static struct cached {
	uint8_t *bytes;
	size_t len;
	uint64_t hash, used;
	struct tp_decoder *d;
} cache[NR_CACHED];
static uint64_t clock_;

static uint64_t hash_of(const uint8_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

static struct tp_decoder *decoder_for(const uint8_t *td, size_t n)
{
	uint64_t h = hash_of(td, n);
	struct cached *c = &cache[0];
	char err[512];

	for (int i = 0; i < NR_CACHED; i++) {
		if (cache[i].bytes && cache[i].hash == h && cache[i].len == n &&
		    !memcmp(cache[i].bytes, td, n)) {
			cache[i].used = ++clock_;
			return cache[i].d;
		}
		if (cache[i].used < c->used)
			c = &cache[i];
	}
	/* the least recently used one makes room */
	tp_decoder__delete(c->d);
	free(c->bytes);
	c->bytes = malloc(n ? n : 1);
	memcpy(c->bytes, td, n);
	c->len = n;
	c->hash = h;
	c->used = ++clock_;
	c->d = tp_decoder__new();
	if (tp_decoder__load_tracing_data(c->d, td, n, err, sizeof(err))) {
		tp_decoder__delete(c->d);
		c->d = NULL;
	}
	return c->d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tp_decoder *d;
	char err[512];
	uint32_t n;
	size_t off;

	if (size < 4)
		return 0;
	memcpy(&n, data, 4);
	if (n > size - 4)
		n = size - 4;
	d = decoder_for(data + 4, n);
	if (!d)
		return 0;
	off = 4 + n;
	while (off + 2 <= size) {
		uint16_t len;
		struct tp_event ev;
		struct strbuf sb = STRBUF_INIT;

		memcpy(&len, data + off, 2);
		off += 2;
		if (len > size - off)
			len = size - off;
		if (tp_decoder__decode(d, data + off, len, &ev, err, sizeof(err)) == 0)
			tp_decoder__print(d, data + off, len, 0, &sb);
		strbuf__release(&sb);
		off += len;
	}
	return 0;
}

/* The payloads 63 times out of 64 (the decoder is then a cached one), else anything. */
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	uint32_t n;
	size_t head;

	if (size >= 4 && seed % 64) {
		memcpy(&n, data, 4);
		head = 4 + (size_t)n;
		if (head < size && head < max_size)
			return head + LLVMFuzzerMutate(data + head, size - head, max_size - head);
	}
	return LLVMFuzzerMutate(data, size, max_size);
}
