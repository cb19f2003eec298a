// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for the tracepoint decoder (sampling/tracepoint.c): the input is a u32
 * length N, N bytes of a perf.data TRACING_DATA section, then tracepoint payloads, each a u16
 * length and its bytes.  Load the section, decode and print every payload.  Any crash,
 * sanitizer report or hang is a bug (ours, or libtraceevent's on input we let through).
 * Built by tests/fuzz/tracepoint_run.sh.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sampling/tracepoint.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	d = tp_decoder__new();
	if (tp_decoder__load_tracing_data(d, data + 4, n, err, sizeof(err)) == 0) {
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
	}
	tp_decoder__delete(d);
	return 0;
}
