// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tpdump FILE: print every sample of a perf.data file the way `perf script -F
 * trace:tid,cpu,time,event,trace -F sw:tid,time,event,addr,ip` does, tracepoint payloads
 * decoded by lineup's libtraceevent decoder from the file's own TRACING_DATA section (and
 * kernel symbols from /proc/kallsyms, as perf resolves %pS on the recording machine).
 * With -f, print every decoded field as name=value instead of the print format.
 * With -s SEED, write a fuzzing seed for tests/fuzz/tracepoint_fuzz.c instead: u32 length, the
 * TRACING_DATA section, then up to 64 payloads as u16 length + bytes.
 * With -t, load every truncation of the file's TRACING_DATA and of each payload instead: each
 * must fail cleanly with a message (never crash), and print how many did.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sampling/perf_file.h"
#include "sampling/tracepoint.h"
#include "util/strbuf.h"

int main(int argc, char **argv)
{
	const struct perf_header_info *h;
	struct tp_decoder *d;
	struct perf_file *pf;
	struct record rec;
	char err[512];
	int rc, fields = argc > 2 && !strcmp(argv[1], "-f");
	int trunc = argc > 2 && !strcmp(argv[1], "-t");
	FILE *seed = NULL;
	int nseed = 0;
	const char *path = argv[argc - 1];

	if (argc < 2) {
		fprintf(stderr, "usage: tpdump [-f] FILE\n");
		return 2;
	}
	if (perf_file__open(&pf, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "tpdump: %s\n", err);
		return 2;
	}
	h = perf_file__header(pf);
	d = tp_decoder__new();
	if (!h->tracing_data) {
		fprintf(stderr, "tpdump: %s: no TRACING_DATA\n", path);
		return 2;
	}
	if (tp_decoder__load_tracing_data(d, h->tracing_data, h->tracing_data_size, err,
					  sizeof(err)) < 0) {
		fprintf(stderr, "tpdump: %s: %s\n", path, err);
		return 2;
	}
	if (argc > 3 && !strcmp(argv[1], "-s")) {
		uint32_t n = (uint32_t)h->tracing_data_size;

		seed = fopen(argv[2], "wb");
		if (!seed) {
			perror(argv[2]);
			return 2;
		}
		fwrite(&n, 4, 1, seed);
		fwrite(h->tracing_data, 1, n, seed);
	}
	if (trunc) {
		uint64_t failed = 0;

		/* Every proper prefix of the section must be refused (the cursor is bounded). */
		for (uint64_t n = 0; n < h->tracing_data_size; n += 1 + n / 64) {
			struct tp_decoder *t = tp_decoder__new();

			if (tp_decoder__load_tracing_data(t, h->tracing_data, n, err, sizeof(err)) < 0)
				failed++;
			else if (n < h->tracing_data_size - 8)
				printf("accepted a tracing data prefix of %" PRIu64 " bytes\n", n);
			tp_decoder__delete(t);
		}
		printf("truncated tracing data refused: %" PRIu64 "\n", failed);
	}
	tp_decoder__load_kallsyms(d, "/proc/kallsyms");
	while ((rc = perf_file__next_record(pf, &rec)) > 0) {
		const struct sample *s = &rec.sample;
		const char *name;

		if (rec.type != REC_SAMPLE || s->evsel >= h->nr_evsels)
			continue;
		name = h->evsels[s->evsel].name;
		if ((s->present & SF_RAW) && seed) {
			uint16_t len = (uint16_t)s->raw_size;

			if (nseed++ < 64) {
				fwrite(&len, 2, 1, seed);
				fwrite(s->raw, 1, len, seed);
			}
			continue;
		}
		if (seed)
			continue;
		if ((s->present & SF_RAW) && trunc) {
			struct tp_event ev;

			for (uint32_t n = 0; n < s->raw_size; n++)
				if (tp_decoder__decode(d, s->raw, n, &ev, err, sizeof(err)) == 0 &&
				    n < 24)
					printf("decoded a %u-byte payload prefix\n", n);
			continue;
		}
		if (trunc)
			continue;
		if (s->present & SF_RAW) {
			struct strbuf sb = STRBUF_INIT;
			struct tp_event ev;

			if (tp_decoder__decode(d, s->raw, s->raw_size, &ev, err, sizeof(err)) < 0) {
				fprintf(stderr, "tpdump: %s: at byte %" PRIu64 ": %s\n", path,
					rec.offset, err);
				return 2;
			}
			if (fields) {
				for (unsigned int i = 0; i < ev.nr_fields; i++) {
					const struct tp_field *f = &ev.fields[i];

					if (f->kind == TP_NUM)
						strbuf__addf(&sb, "%s%s=%#" PRIx64, i ? " " : "", f->name,
							     f->num);
					else if (f->kind == TP_STR)
						strbuf__addf(&sb, "%s%s=%.*s", i ? " " : "", f->name,
							     (int)f->len, f->str);
				}
			} else {
				tp_decoder__print(d, s->raw, s->raw_size, s->cpu, &sb);
			}
			printf("%u [%03u] %" PRIu64 ".%06" PRIu64 ": %s:%s: %s\n", s->tid, s->cpu,
			       s->time / 1000000000, s->time % 1000000000 / 1000, ev.sys, ev.name,
			       sb.buf ? sb.buf : "");
			strbuf__release(&sb);
		} else {
			printf("%u %" PRIu64 ".%06" PRIu64 ": %s: %" PRIx64 " %" PRIx64 "\n", s->tid,
			       s->time / 1000000000, s->time % 1000000000 / 1000, name, s->addr,
			       s->ip);
		}
	}
	if (rc < 0) {
		fprintf(stderr, "tpdump: %s\n", perf_file__errmsg(pf));
		return 2;
	}
	if (seed)
		fclose(seed);
	tp_decoder__delete(d);
	perf_file__close(pf);
	return 0;
}
