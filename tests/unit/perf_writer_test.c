// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit test of the perf.data writer's contract: misuse and I/O errors give -errno and a
 * message that says what was wrong, and the bytes it streams have the sizes the format says.
 * (That perf reads the files is tests/writer/perf_roundtrip.sh's job.)
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sampling/perf_writer.h"

static int failures;

#define CHECK(cond, ...)                                                        \
	do {                                                                    \
		if (!(cond)) {                                                  \
			fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__);   \
			fprintf(stderr, __VA_ARGS__);                           \
			fputc('\n', stderr);                                    \
			failures++;                                             \
		}                                                               \
	} while (0)

static const struct perf_writer_event c2c_load = {
	.name = "cpu/mem-loads,ldlat=30/P",
	.type = PW_TYPE_RAW,
	.config = 0x1cd,
	.config1 = 30,
	.sample_type = SF_IDENTIFIER | SF_IP | SF_TID | SF_TIME | SF_ADDR | SF_CPU | SF_PERIOD |
		       SF_DATA_SRC | SF_WEIGHT | SF_PHYS_ADDR,
	.sample_period = 1,
	.sample_id_all = true,
};

static void test_misuse(const char *dir)
{
	struct perf_writer *w = perf_writer__new();
	struct perf_writer_event ev = c2c_load;
	struct sample s = { 0 };
	char path[4096];
	int rc;

	/* several events without a common id position */
	ev.sample_type = SF_IP | SF_TID;
	CHECK(perf_writer__add_event(w, &ev) == 0, "first event");
	rc = perf_writer__add_event(w, &ev);
	CHECK(rc == -EINVAL, "second event without IDENTIFIER: %d", rc);
	CHECK(strstr(perf_writer__strerror(w), "SF_IDENTIFIER"), "message: %s",
	      perf_writer__strerror(w));
	/* records before open */
	rc = perf_writer__sample(w, &s);
	CHECK(rc == -EBADF, "sample before open: %d", rc);
	perf_writer__delete(w);

	/* a file that cannot be created names the path */
	w = perf_writer__new();
	CHECK(perf_writer__add_event(w, &c2c_load) == 0, "event");
	snprintf(path, sizeof(path), "%s/no/such/dir/perf.data", dir);
	rc = perf_writer__open(w, path);
	CHECK(rc == -ENOENT, "open in a missing directory: %d", rc);
	CHECK(strstr(perf_writer__strerror(w), path), "message names the file: %s",
	      perf_writer__strerror(w));
	perf_writer__delete(w);

	/* events after open, unknown events, records too big */
	w = perf_writer__new();
	CHECK(perf_writer__add_event(w, &c2c_load) == 0, "event");
	snprintf(path, sizeof(path), "%s/misuse.data", dir);
	CHECK(perf_writer__open(w, path) == 0, "open: %s", perf_writer__strerror(w));
	rc = perf_writer__add_event(w, &c2c_load);
	CHECK(rc == -EBUSY, "event after open: %d", rc);
	s.evsel = 3;
	rc = perf_writer__sample(w, &s);
	CHECK(rc == -EINVAL && strstr(perf_writer__strerror(w), "no event 3"), "unknown evsel: %d %s",
	      rc, perf_writer__strerror(w));
	CHECK(perf_writer__close(w) == 0, "close: %s", perf_writer__strerror(w));
	perf_writer__delete(w);

	w = perf_writer__new();
	ev = c2c_load;
	ev.sample_type |= SF_CALLCHAIN | SF_STACK_USER;
	CHECK(perf_writer__add_event(w, &ev) == 0, "event");
	CHECK(perf_writer__open(w, path) == 0, "open");
	{
		static uint64_t chain[10000];
		static uint8_t stack[16];

		s = (struct sample){ 0 };
		s.callchain_nr = 10000;
		s.callchain = chain;
		rc = perf_writer__sample(w, &s);
		CHECK(rc == -EMSGSIZE, "10000-entry callchain: %d", rc);
		s.callchain_nr = 2;
		s.stack_user = stack;
		s.stack_user_size = 12;
		rc = perf_writer__sample(w, &s);
		CHECK(rc == -EINVAL && strstr(perf_writer__strerror(w), "multiple of 8"),
		      "unaligned user stack: %d %s", rc, perf_writer__strerror(w));
		s.stack_user_size = 16;
		CHECK(perf_writer__sample(w, &s) == 0, "valid sample after errors: %s",
		      perf_writer__strerror(w));
	}
	CHECK(perf_writer__close(w) == 0, "close");
	rc = perf_writer__close(w);
	CHECK(rc == -EBADF, "second close: %d", rc);
	perf_writer__delete(w);
}

/* A full disk: the error comes with the offset, and sticks. */
static void test_enospc(void)
{
	struct perf_writer *w = perf_writer__new();
	struct sample s = { 0 };
	int fd = open("/dev/full", O_WRONLY), rc = 0;

	if (fd < 0) {
		fprintf(stderr, "no /dev/full, skipping the ENOSPC case\n");
		perf_writer__delete(w);
		return;
	}
	CHECK(perf_writer__add_event(w, &c2c_load) == 0, "event");
	rc = perf_writer__open_fd(w, fd);
	CHECK(rc == -ENOSPC, "open on /dev/full: %d", rc);
	CHECK(strstr(perf_writer__strerror(w), "offset 0"), "message: %s", perf_writer__strerror(w));
	rc = perf_writer__sample(w, &s);
	CHECK(rc == -ENOSPC, "sample after ENOSPC: %d", rc);
	rc = perf_writer__close(w);
	CHECK(rc == -ENOSPC, "close after ENOSPC: %d", rc);
	close(fd);
	perf_writer__delete(w);
}

/* Streaming: many samples through the fixed buffer; the file has exactly the expected size. */
static void test_stream(const char *dir)
{
	struct perf_writer *w = perf_writer__new();
	char path[4096];
	struct stat st;
	const uint64_t n = 300000;	/* 26 MB: several buffer flushes */
	uint64_t data;

	snprintf(path, sizeof(path), "%s/stream.data", dir);
	CHECK(perf_writer__add_event(w, &c2c_load) == 0, "event");
	CHECK(perf_writer__open(w, path) == 0, "open");
	for (uint64_t i = 0; i < n; i++) {
		struct sample s = { .ip = i, .pid = 1, .tid = 1, .time = i, .addr = i * 8,
				    .weight = i, .data_src = 0x68100142, .phys_addr = i };

		s.id = perf_writer__event_id(w, 0);
		if (perf_writer__sample(w, &s)) {
			CHECK(0, "sample %llu: %s", (unsigned long long)i, perf_writer__strerror(w));
			break;
		}
	}
	data = perf_writer__data_size(w);
	CHECK(data == n * 88, "data size %llu, expected %llu", (unsigned long long)data,
	      (unsigned long long)n * 88);
	CHECK(perf_writer__nr_samples(w) == n, "nr_samples");
	CHECK(perf_writer__close(w) == 0, "close: %s", perf_writer__strerror(w));
	perf_writer__delete(w);
	/* header, data, 1 feature section (EVENT_DESC) + SAMPLE_TIME, ids, attrs */
	CHECK(stat(path, &st) == 0, "stat");
	{
		uint64_t event_desc = 8 + 128 + 4 + 4 + 64 + 8, sample_time = 16;
		uint64_t want = 104 + n * 88 + 2 * 16 + event_desc + sample_time + 8 + 128 + 16;

		CHECK((uint64_t)st.st_size == want, "file size %llu, expected %llu",
		      (unsigned long long)st.st_size, (unsigned long long)want);
	}
	unlink(path);
}

static void test_build_id(const char *dir)
{
	uint8_t bid[20];
	char path[4096];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s/not-elf", dir);
	f = fopen(path, "w");
	fputs("hello, not an ELF file\n", f);
	fclose(f);
	n = perf_writer__read_build_id(path, bid);
	CHECK(n == -ENOEXEC, "build-id of a text file: %d", n);
	n = perf_writer__read_build_id("/nonexistent/file", bid);
	CHECK(n == -ENOENT, "build-id of a missing file: %d", n);
	/* a truncated ELF header is not a crash */
	f = fopen(path, "w");
	fputs("\177ELF\2\1\1", f);
	fclose(f);
	n = perf_writer__read_build_id(path, bid);
	CHECK(n <= 0, "build-id of a truncated ELF: %d", n);
}

int main(void)
{
	char dir[] = "/tmp/perf_writer_test.XXXXXX";

	if (!mkdtemp(dir))
		return 99;
	test_misuse(dir);
	test_enospc();
	test_stream(dir);
	test_build_id(dir);
	{
		char cmd[4200];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", dir);
	}
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	return failures ? 1 : 0;
}
