// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The perf.data reader on hand-built buffers: every sample_type field decoded in kernel order,
 * little- and big-endian, every truncation of a sample rejected; attr flag bits from a
 * big-endian file; perf's default event names; and whole in-memory files (file mode and pipe
 * mode, both byte orders, with a zstd COMPRESSED record) read back record by record.
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "sampling/perf_file.h"
#include "util/xalloc.h"

static int failures;

#define CHECK(cond)                                                                    \
	do {                                                                           \
		if (!(cond)) {                                                         \
			fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #cond); \
			failures++;                                                    \
		}                                                                      \
	} while (0)

#define CHECK_EQ(a, b)                                                                 \
	do {                                                                           \
		unsigned long long _a = (a), _b = (b);                                 \
		if (_a != _b) {                                                        \
			fprintf(stderr, "%s:%d: FAIL: %s == %llu, expected %llu\n", __FILE__, \
				__LINE__, #a, _a, _b);                                 \
			failures++;                                                    \
		}                                                                      \
	} while (0)

/* A growable byte buffer written in either byte order. */
struct out {
	uint8_t *b;
	size_t len, cap;
	bool be;
};

static void put(struct out *o, const void *p, size_t n)
{
	o->b = xgrow(o->b, &o->cap, o->len + n, 1);
	memcpy(o->b + o->len, p, n);
	o->len += n;
}

static void put_n(struct out *o, uint64_t v, int n)
{
	uint8_t t[8];

	for (int i = 0; i < n; i++)
		t[o->be ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
	put(o, t, n);
}

static void p16(struct out *o, uint64_t v) { put_n(o, v, 2); }
static void p32(struct out *o, uint64_t v) { put_n(o, v, 4); }
static void p64(struct out *o, uint64_t v) { put_n(o, v, 8); }

static void pad8(struct out *o)
{
	while (o->len % 8)
		put(o, "", 1);
}

static void set64(struct out *o, size_t at, uint64_t v)
{
	size_t len = o->len;

	o->len = at;
	p64(o, v);
	o->len = len;
}

static void set16(struct out *o, size_t at, uint64_t v)
{
	size_t len = o->len;

	o->len = at;
	p16(o, v);
	o->len = len;
}

#define ALL_FIELDS                                                                      \
	(SF_IP | SF_TID | SF_TIME | SF_ADDR | SF_ID | SF_STREAM_ID | SF_CPU | SF_PERIOD |  \
	 SF_READ | SF_CALLCHAIN | SF_RAW | SF_BRANCH_STACK | SF_REGS_USER | SF_STACK_USER | \
	 SF_WEIGHT_STRUCT | SF_DATA_SRC | SF_TRANSACTION | SF_REGS_INTR | SF_PHYS_ADDR |   \
	 SF_CGROUP | SF_DATA_PAGE_SIZE | SF_CODE_PAGE_SIZE)

static void attr_all(struct perf_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->size = 136;
	a->sample_type = ALL_FIELDS;
	a->read_format = READ_FORMAT_GROUP | READ_FORMAT_ID | READ_FORMAT_TOTAL_TIME_ENABLED;
	a->branch_sample_type = BRANCH_SAMPLE_HW_INDEX;
	a->sample_regs_user = 0x5;	/* two registers */
	a->sample_regs_intr = 0x7;	/* three registers */
}

/* The sample body (after the record header) for attr_all(), in kernel order. */
static void sample_body(struct out *o)
{
	p64(o, 0xffffffff81000010ULL);		/* IP */
	p32(o, 100), p32(o, 101);		/* TID */
	p64(o, 123456789);			/* TIME */
	p64(o, 0x7ffd0000beefULL);		/* ADDR */
	p64(o, 42);				/* ID */
	p64(o, 43);				/* STREAM_ID */
	p32(o, 3), p32(o, 0);			/* CPU */
	p64(o, 10007);				/* PERIOD */
	p64(o, 2), p64(o, 999);			/* READ: nr, time_enabled */
	p64(o, 11), p64(o, 42), p64(o, 22), p64(o, 43);	/* {value, id} x 2 */
	p64(o, 3), p64(o, 0xfffffffffffffe00ULL), p64(o, 0x401000), p64(o, 0x401100);	/* CALLCHAIN */
	p32(o, 12);				/* RAW: size, then 12 bytes */
	put(o, "raw-payload!", 12);
	p64(o, 1), p64(o, 7);			/* BRANCH_STACK: nr, hw_idx */
	p64(o, 0x1000), p64(o, 0x2000), p64(o, 0x3);	/* from, to, flags */
	p64(o, 2), p64(o, 0xaa), p64(o, 0xbb);	/* REGS_USER: abi, 2 regs */
	p64(o, 16);				/* STACK_USER: size */
	put(o, "0123456789abcdef", 16);
	p64(o, 16);				/* dyn_size */
	p64(o, (3ULL << 48) | (77ULL << 32) | 250);	/* WEIGHT_STRUCT */
	p64(o, 0x68100142ULL);			/* DATA_SRC */
	p64(o, 0x5);				/* TRANSACTION */
	p64(o, 2), p64(o, 1), p64(o, 2), p64(o, 3);	/* REGS_INTR: abi, 3 regs */
	p64(o, 0x1234000);			/* PHYS_ADDR */
	p64(o, 9);				/* CGROUP */
	p64(o, 4096);				/* DATA_PAGE_SIZE */
	p64(o, 2097152);			/* CODE_PAGE_SIZE */
}

static void check_sample(const struct sample *s)
{
	CHECK_EQ(s->ip, 0xffffffff81000010ULL);
	CHECK_EQ(s->pid, 100);
	CHECK_EQ(s->tid, 101);
	CHECK_EQ(s->time, 123456789);
	CHECK_EQ(s->addr, 0x7ffd0000beefULL);
	CHECK_EQ(s->id, 42);
	CHECK_EQ(s->stream_id, 43);
	CHECK_EQ(s->cpu, 3);
	CHECK_EQ(s->period, 10007);
	CHECK_EQ(s->read_nr, 2);
	CHECK(s->read_values && s->read_values[0] == 2 && s->read_values[1] == 999 &&
	      s->read_values[4] == 22 && s->read_values[5] == 43);
	CHECK_EQ(s->callchain_nr, 3);
	CHECK(s->callchain && s->callchain[2] == 0x401100);
	CHECK_EQ(s->raw_size, 12);
	CHECK(s->raw && !memcmp(s->raw, "raw-payload!", 12));
	CHECK_EQ(s->branch_nr, 1);
	CHECK_EQ(s->branch_hw_idx, 7);
	CHECK(s->branch_entries && ((const uint64_t *)s->branch_entries)[1] == 0x2000);
	CHECK_EQ(s->regs_user_abi, 2);
	CHECK(s->regs_user && s->regs_user[1] == 0xbb);
	CHECK_EQ(s->stack_user_size, 16);
	CHECK(s->stack_user && !memcmp(s->stack_user, "0123456789abcdef", 16));
	CHECK_EQ(s->stack_user_dyn_size, 16);
	CHECK_EQ(s->weight, 250);
	CHECK_EQ(s->ins_lat, 77);
	CHECK_EQ(s->retire_lat, 3);
	CHECK_EQ(s->data_src, 0x68100142ULL);
	CHECK_EQ(s->transaction, 5);
	CHECK(s->regs_intr && s->regs_intr[2] == 3);
	CHECK_EQ(s->phys_addr, 0x1234000);
	CHECK_EQ(s->cgroup, 9);
	CHECK_EQ(s->data_page_size, 4096);
	CHECK_EQ(s->code_page_size, 2097152);
}

static void test_sample_decode(bool be)
{
	struct out o = { .be = be };
	struct perf_attr a;
	struct sample s;
	const char *why = NULL;
	uint64_t *copy;

	attr_all(&a);
	sample_body(&o);
	pad8(&o);
	copy = xmalloc(o.len);
	memcpy(copy, o.b, o.len);
	CHECK(perf_sample__decode(&a, copy, o.len, be, &s, &why) == 0);
	check_sample(&s);
	CHECK_EQ(s.present, ALL_FIELDS);

	/* Every shorter length is missing a field: each must be refused with a reason. */
	for (size_t n = 0; n + 8 <= o.len; n++) {
		memcpy(copy, o.b, o.len);
		why = NULL;
		if (perf_sample__decode(&a, copy, n, be, &s, &why) != -22 || !why) {
			fprintf(stderr, "FAIL: %s sample cut at %zu accepted\n", be ? "BE" : "LE", n);
			failures++;
			break;
		}
	}
	/* A callchain count that would run off the end. */
	{
		struct perf_attr c = { .sample_type = SF_CALLCHAIN };
		uint64_t buf[2] = { 1ULL << 60, 0 };

		CHECK(perf_sample__decode(&c, buf, sizeof(buf), false, &s, &why) == -22);
	}
	/* WEIGHT (not _STRUCT) is the whole u64. */
	{
		struct perf_attr w = { .sample_type = SF_WEIGHT };
		uint64_t buf[1] = { 0x123456789ULL };

		CHECK(perf_sample__decode(&w, buf, sizeof(buf), false, &s, &why) == 0);
		CHECK_EQ(s.weight, 0x123456789ULL);
	}
	free(copy);
	free(o.b);
}

/* A big-endian compiler puts bitfield bit 0 in the top bit of the first byte. */
static void be_bitfield(uint8_t *p, uint64_t flags)
{
	memset(p, 0, 8);
	for (int bit = 0; bit < 64; bit++)
		if (flags & (1ULL << bit))
			p[bit / 8] |= 0x80 >> (bit % 8);
}

static void test_attr_decode(void)
{
	uint8_t raw[PERF_ATTR_SIZE_LATEST];
	struct out o = { .be = true };
	struct perf_attr a;
	uint64_t flags = (1ULL << ATTR_DISABLED) | (1ULL << ATTR_EXCLUDE_KERNEL) |
			 (2ULL << ATTR_PRECISE_IP) | (1ULL << ATTR_SAMPLE_ID_ALL) |
			 (1ULL << ATTR_MMAP2) | (1ULL << ATTR_CGROUP);

	p32(&o, 4), p32(&o, 72);			/* type, size (VER1) */
	p64(&o, 0x1cd), p64(&o, 4000), p64(&o, SF_IP | SF_TID), p64(&o, READ_FORMAT_ID);
	be_bitfield(raw, flags);
	put(&o, raw, 8);
	p32(&o, 5), p32(&o, 3), p64(&o, 0x40), p64(&o, 8);	/* wakeup, bp_type, config1/2 */
	CHECK(perf_attr__decode(o.b, o.len, true, &a) == 0);
	CHECK_EQ(a.type, 4);
	CHECK_EQ(a.size, 72);
	CHECK_EQ(a.config, 0x1cd);
	CHECK_EQ(a.sample_type, SF_IP | SF_TID);
	CHECK_EQ(a.flags, flags);
	CHECK_EQ(perf_attr__precise_ip(&a), 2);
	CHECK(perf_attr__flag(&a, ATTR_SAMPLE_ID_ALL));
	CHECK_EQ(a.config1, 0x40);
	CHECK_EQ(a.branch_sample_type, 0);	/* past a VER1 attr: zero */
	CHECK(perf_attr__decode(o.b, 63, true, &a) < 0);
	free(o.b);
}

static void name_of(uint32_t type, uint64_t config, uint64_t flags, const char *want)
{
	struct perf_attr a = { .type = type, .config = config, .flags = flags };
	char buf[128];

	perf_attr__default_name(&a, buf, sizeof(buf));
	if (strcmp(buf, want)) {
		fprintf(stderr, "FAIL: default name '%s', expected '%s'\n", buf, want);
		failures++;
	}
}

static void test_names(void)
{
	uint64_t u = (1ULL << ATTR_EXCLUDE_KERNEL) | (1ULL << ATTR_EXCLUDE_HV);
	uint64_t g = 1ULL << ATTR_EXCLUDE_GUEST;

	name_of(ATTR_TYPE_HARDWARE, 0, 0, "cycles:HG");
	name_of(ATTR_TYPE_HARDWARE, 0, g, "cycles");
	name_of(ATTR_TYPE_HARDWARE, 0, u | g, "cycles:uH");
	name_of(ATTR_TYPE_HARDWARE, 0, u, "cycles:u");
	name_of(ATTR_TYPE_HARDWARE, 0, (3ULL << ATTR_PRECISE_IP) | g, "cycles:pppH");
	name_of(ATTR_TYPE_HARDWARE, 1, g, "instructions");
	name_of(ATTR_TYPE_HARDWARE, 0x400000000ULL, g | (3ULL << ATTR_PRECISE_IP), "cpu/cycles/:pppH");
	name_of(ATTR_TYPE_SOFTWARE, 9, 0, "dummy:HG");
	name_of(ATTR_TYPE_SOFTWARE, 9, g, "dummy");
	name_of(ATTR_TYPE_SOFTWARE, 9, 1ULL << ATTR_EXCLUDE_HOST, "dummy:G");
	name_of(ATTR_TYPE_HW_CACHE, 0x10000, g, "L1-dcache-load-misses");
	name_of(ATTR_TYPE_HW_CACHE, 0x0, g, "L1-dcache-loads");
	name_of(ATTR_TYPE_HW_CACHE, 0x104, g, "invalid-cache");
	name_of(ATTR_TYPE_RAW, 0x1cd, g, "raw 0x1cd");
	name_of(ATTR_TYPE_BREAKPOINT, 0, g | (1ULL << ATTR_EXCLUDE_KERNEL), "mem:0x0::uhH");
	name_of(ATTR_TYPE_TRACEPOINT, 7, 0, "unknown tracepoint");
	name_of(99, 0, 0, "unknown attr type: 99");
}

/*
 * A whole file-mode perf.data: one attr (two ids), data = COMM, SAMPLE, COMPRESSED{MMAP,
 * SAMPLE}, FINISHED_ROUND; features HOSTNAME, NRCPUS, CACHE.
 */
static struct out build_file(bool be, bool pipe)
{
	struct out o = { .be = be }, rec = { .be = be };
	size_t attr_at, data_at, data_size, feat_tab;
	uint64_t st = SF_IP | SF_TID | SF_TIME | SF_ID | SF_CPU | SF_PERIOD;
	uint8_t flags[8];

	p64(&o, 0x32454c4946524550ULL);	/* "PERFILE2" in the file's order */
	if (pipe) {
		p64(&o, 16);
	} else {
		p64(&o, 104), p64(&o, 136 + 16);
		p64(&o, 0), p64(&o, 136 + 16);	/* attrs section */
		p64(&o, 0), p64(&o, 0);		/* data section (set below) */
		p64(&o, 0), p64(&o, 0);		/* event types */
		p64(&o, (1ULL << FEAT_HOSTNAME) | (1ULL << FEAT_NRCPUS) | (1ULL << FEAT_CACHE));
		p64(&o, 0), p64(&o, 0), p64(&o, 0);
	}

	/* the attr */
	attr_at = o.len;
	if (pipe)
		p32(&o, REC_HEADER_ATTR), p16(&o, 0), p16(&o, 8 + 136 + 16);
	p32(&o, ATTR_TYPE_HARDWARE), p32(&o, 136), p64(&o, 0), p64(&o, 4000), p64(&o, st);
	p64(&o, READ_FORMAT_ID);
	if (be)
		be_bitfield(flags, (1ULL << ATTR_SAMPLE_ID_ALL) | (1ULL << ATTR_EXCLUDE_KERNEL) |
					   (1ULL << ATTR_EXCLUDE_HV));
	else
		memcpy(flags, (uint64_t[]){ (1ULL << ATTR_SAMPLE_ID_ALL) |
					    (1ULL << ATTR_EXCLUDE_KERNEL) |
					    (1ULL << ATTR_EXCLUDE_HV) }, 8);
	put(&o, flags, 8);
	while (o.len < attr_at + (pipe ? 8 : 0) + 136)
		put(&o, "", 1);
	if (pipe) {
		p64(&o, 500), p64(&o, 501);	/* ids */
	} else {
		p64(&o, 0), p64(&o, 16);	/* ids section: patched below */
		set64(&o, 24, attr_at);
		set64(&o, attr_at + 136, o.len);
		p64(&o, 500), p64(&o, 501);
	}

	/* data */
	data_at = o.len;
	/* COMM with sample_id_all trailer (TID TIME ID CPU) */
	p32(&o, REC_COMM), p16(&o, 0), p16(&o, 8 + 8 + 8 + 32);
	p32(&o, 7), p32(&o, 7);
	put(&o, "worker\0\0", 8);
	p32(&o, 7), p32(&o, 7), p64(&o, 1000), p64(&o, 501), p32(&o, 1), p32(&o, 0);
	/* SAMPLE */
	p32(&o, REC_SAMPLE), p16(&o, 2), p16(&o, 8 + 48);
	p64(&o, 0x401000), p32(&o, 7), p32(&o, 8), p64(&o, 2000), p64(&o, 500), p32(&o, 1),
		p32(&o, 0), p64(&o, 4000);
	/* COMPRESSED: an MMAP and a SAMPLE inside */
	p32(&rec, REC_MMAP), p16(&rec, 2), p16(&rec, 8 + 32 + 16 + 32);
	p32(&rec, 7), p32(&rec, 7), p64(&rec, 0x400000), p64(&rec, 0x1000), p64(&rec, 0);
	put(&rec, "/bin/worker\0\0\0\0\0", 16);
	p32(&rec, 7), p32(&rec, 7), p64(&rec, 1500), p64(&rec, 500), p32(&rec, 0), p32(&rec, 0);
	p32(&rec, REC_SAMPLE), p16(&rec, 2), p16(&rec, 8 + 48);
	p64(&rec, 0x401234), p32(&rec, 7), p32(&rec, 8), p64(&rec, 3000), p64(&rec, 501),
		p32(&rec, 0), p32(&rec, 0), p64(&rec, 4000);
	{
		size_t bound = ZSTD_compressBound(rec.len);
		uint8_t *z = xmalloc(bound);
		size_t zn = ZSTD_compress(z, bound, rec.b, rec.len, 3);
		size_t start = o.len;

		CHECK(!ZSTD_isError(zn));
		p32(&o, REC_COMPRESSED), p16(&o, 0), p16(&o, 0);
		put(&o, z, zn);	/* perf pads nothing: what follows may be unaligned */
		set16(&o, start + 6, o.len - start);
		free(z);
	}
	p32(&o, REC_FINISHED_ROUND), p16(&o, 0), p16(&o, 8);
	data_size = o.len - data_at;
	free(rec.b);
	if (pipe)
		return o;
	set64(&o, 40, data_at);
	set64(&o, 48, data_size);

	/* feature table then sections */
	feat_tab = o.len;
	for (int i = 0; i < 3; i++)
		p64(&o, 0), p64(&o, 0);
	{
		size_t at = o.len;

		p32(&o, 8), put(&o, "testbox\0", 8);
		set64(&o, feat_tab, at), set64(&o, feat_tab + 8, o.len - at);
		at = o.len;
		p32(&o, 4), p32(&o, 2);
		set64(&o, feat_tab + 16, at), set64(&o, feat_tab + 24, o.len - at);
		at = o.len;
		p32(&o, 1), p32(&o, 2);		/* version, count */
		p32(&o, 1), p32(&o, 64), p32(&o, 64), p32(&o, 8);
		p32(&o, 8), put(&o, "Data\0\0\0\0", 8);
		p32(&o, 4), put(&o, "32K\0", 4);
		p32(&o, 4), put(&o, "0-1\0", 4);
		p32(&o, 2), p32(&o, 128), p32(&o, 1024), p32(&o, 16);
		p32(&o, 8), put(&o, "Unified\0", 8);
		p32(&o, 8), put(&o, "1024K\0\0\0", 8);
		p32(&o, 4), put(&o, "0-1\0", 4);
		set64(&o, feat_tab + 32, at), set64(&o, feat_tab + 40, o.len - at);
	}
	return o;
}

/* where the bytes come from: memory, a regular file (mmap), memory read as a stream */
enum source { MEM, DISK, STREAM };

static void test_file(bool be, bool pipe, enum source src)
{
	bool on_disk = src == DISK;
	struct out o = build_file(be, pipe);
	char err[PERF_FILE_ERRMAX], path[] = "/tmp/reader_test.XXXXXX";
	struct perf_file *pf;
	const struct perf_header_info *h;
	struct record r;
	int n = 0, rc;
	uint32_t types[8];

	if (on_disk) {
		/* A regular file takes the mmap path rather than the copying one. */
		int fd = mkstemp(path);
		FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

		CHECK(f && fwrite(o.b, 1, o.len, f) == o.len);
		if (f)
			fclose(f);
		rc = perf_file__open(&pf, path, err, sizeof(err));
		unlink(path);
	} else if (src == STREAM) {
		rc = perf_file__open_mem_stream(&pf, o.b, o.len, "mem.data", err, sizeof(err));
	} else {
		rc = perf_file__open_mem(&pf, o.b, o.len, "mem.data", err, sizeof(err));
	}
	if (rc) {
		fprintf(stderr, "FAIL: open (%s, %s): %s\n", be ? "BE" : "LE",
			pipe ? "pipe" : "file", err);
		failures++;
		free(o.b);
		return;
	}
	h = perf_file__header(pf);
	CHECK_EQ(h->big_endian, be);
	CHECK_EQ(h->pipe, pipe);
	while ((rc = perf_file__next_record(pf, &r)) > 0 && n < 8) {
		types[n++] = r.type;
		if (r.type == REC_COMM) {
			CHECK(r.has_sample_id);
			CHECK_EQ(r.comm.pid, 7);
			CHECK(!strcmp(r.comm.comm, "worker"));
			CHECK_EQ(r.sample.time, 1000);
			CHECK_EQ(r.sample.id, 501);
			CHECK_EQ(r.sample.cpu, 1);
		} else if (r.type == REC_SAMPLE) {
			CHECK_EQ(r.sample.evsel, 0);
			CHECK_EQ(r.sample.cpumode, CPUMODE_USER);
			CHECK_EQ(r.sample.tid, 8);
			CHECK_EQ(r.sample.period, 4000);
			CHECK(r.sample.ip == 0x401000 || r.sample.ip == 0x401234);
		} else if (r.type == REC_MMAP) {
			CHECK_EQ(r.mmap.start, 0x400000);
			CHECK_EQ(r.mmap.len, 0x1000);
			CHECK(!strcmp(r.mmap.filename, "/bin/worker"));
			CHECK_EQ(r.sample.time, 1500);
		}
	}
	CHECK_EQ(rc, 0);
	if (rc < 0)
		fprintf(stderr, "  %s\n", perf_file__errmsg(pf));
	if (pipe) {
		CHECK_EQ(n, 7);
		CHECK_EQ(types[0], REC_HEADER_ATTR);
		memmove(types, types + 1, sizeof(types) - sizeof(types[0]));
	} else {
		CHECK_EQ(n, 6);
	}
	CHECK_EQ(types[0], REC_COMM);
	CHECK_EQ(types[1], REC_SAMPLE);
	CHECK_EQ(types[2], REC_COMPRESSED);
	CHECK_EQ(types[3], REC_MMAP);
	CHECK_EQ(types[4], REC_SAMPLE);
	CHECK_EQ(types[5], REC_FINISHED_ROUND);
	CHECK_EQ(h->nr_evsels, 1);
	CHECK(h->nr_evsels && !strcmp(h->evsels[0].name, "cycles:u"));
	CHECK(h->nr_evsels && h->evsels[0].nr_ids == 2 && h->evsels[0].ids[1] == 501);
	CHECK_EQ(perf_file__evsel_of_id(pf, 501), 0);
	CHECK_EQ((uint64_t)(int64_t)perf_file__evsel_of_id(pf, 502), (uint64_t)-1);
	if (!pipe) {
		CHECK(h->hostname && !strcmp(h->hostname, "testbox"));
		CHECK_EQ(h->nr_cpus_avail, 4);
		CHECK_EQ(h->nr_cpus_online, 2);
		CHECK_EQ(h->nr_caches, 2);
		CHECK_EQ(h->cache_line_size, 64);
	}
	perf_file__close(pf);
	if (on_disk) {
		free(o.b);
		return;
	}

	/* Every truncation is either a clean end or an error naming the file: never a crash. */
	for (size_t cut = 0; cut < o.len; cut++) {
		if ((src == STREAM ? perf_file__open_mem_stream : perf_file__open_mem)(
			    &pf, o.b, cut, "cut.data", err, sizeof(err))) {
			CHECK(!strncmp(err, "cut.data: ", 10));
			continue;
		}
		while ((rc = perf_file__next_record(pf, &r)) > 0)
			;
		if (rc < 0)
			CHECK(!strncmp(perf_file__errmsg(pf), "cut.data: at byte ", 18));
		perf_file__close(pf);
	}
	free(o.b);
}

static void test_zero_size_record(void)
{
	struct out o = build_file(false, true);
	char err[PERF_FILE_ERRMAX];
	struct perf_file *pf;
	struct record r;
	int rc, n = 0;

	/* Zero the size of the record after the attr: the reader must stop, not spin. */
	set16(&o, 16 + 8 + 136 + 16 + 6, 0);
	CHECK(perf_file__open_mem(&pf, o.b, o.len, "zero", err, sizeof(err)) == 0);
	while ((rc = perf_file__next_record(pf, &r)) > 0 && n < 100)
		n++;
	CHECK(rc < 0);
	CHECK(strstr(perf_file__errmsg(pf), "has size 0") != NULL);
	CHECK(perf_file__next_record(pf, &r) < 0);	/* and stays failed */
	perf_file__close(pf);
	free(o.b);
}

static void test_id_index(bool be)
{
	struct out o = { .be = be };
	char err[PERF_FILE_ERRMAX];
	struct perf_file *pf;
	struct perf_id_info info;
	struct record r;
	int rc;

	p64(&o, 0x32454c4946524550ULL), p64(&o, 16);
	p32(&o, REC_HEADER_ATTR), p16(&o, 0), p16(&o, 8 + 64 + 16);
	p32(&o, ATTR_TYPE_SOFTWARE), p32(&o, 64), p64(&o, 0), p64(&o, 1);
	p64(&o, SF_IP | SF_ID), p64(&o, 0), p64(&o, 0), p64(&o, 0), p64(&o, 0);
	p64(&o, 500), p64(&o, 501);
	p32(&o, REC_ID_INDEX), p16(&o, 0), p16(&o, 8 + 8 + 2 * 32);
	p64(&o, 2);
	p64(&o, 501), p64(&o, 3), p64(&o, 1), p64(&o, 77);
	p64(&o, 999), p64(&o, 0), p64(&o, 0), p64(&o, 0);	/* an id of no event: ignored */
	CHECK(perf_file__open_mem(&pf, o.b, o.len, "idx", err, sizeof(err)) == 0);
	while ((rc = perf_file__next_record(pf, &r)) > 0)
		;
	CHECK_EQ(rc, 0);
	CHECK(perf_file__id_info(pf, 501, &info) == 0);
	CHECK_EQ(info.evsel, 0);
	CHECK_EQ(info.cpu, 1);
	CHECK_EQ(info.tid, 77);
	CHECK_EQ(info.mmap_idx, 3);
	CHECK(perf_file__id_info(pf, 500, &info) == 0);
	CHECK_EQ((uint64_t)(int64_t)info.cpu, (uint64_t)-1);
	CHECK(perf_file__id_info(pf, 999, &info) == -1);
	CHECK(perf_file__header(pf)->nr_evsels == 1 &&
	      !strcmp(perf_file__header(pf)->evsels[0].name, "cpu-clock:HG"));
	perf_file__close(pf);
	free(o.b);
}

/* KSYMBOL, BPF_EVENT, CGROUP, TEXT_POKE, ITRACE_START, READ in either byte order. */
static void test_side_records(bool be)
{
	struct out o = { .be = be };
	char err[PERF_FILE_ERRMAX];
	struct perf_file *pf;
	struct record r;
	int rc, n = 0;

	p64(&o, 0x32454c4946524550ULL), p64(&o, 16);
	p32(&o, REC_HEADER_ATTR), p16(&o, 0), p16(&o, 8 + 64);
	p32(&o, ATTR_TYPE_SOFTWARE), p32(&o, 64), p64(&o, 0), p64(&o, 1);
	p64(&o, SF_IP), p64(&o, 0), p64(&o, 0), p64(&o, 0), p64(&o, 0);
	p32(&o, REC_KSYMBOL), p16(&o, 0), p16(&o, 8 + 16 + 16);
	p64(&o, 0xffffffffc0001000ULL), p32(&o, 120), p16(&o, 1), p16(&o, 0);
	put(&o, "bpf_prog_abc\0\0\0\0", 16);
	p32(&o, REC_BPF_EVENT), p16(&o, 0), p16(&o, 8 + 16);
	p16(&o, 1), p16(&o, 0), p32(&o, 717);
	put(&o, "\x21\x4c\x9a\x98\x46\xca\x6e\xee", 8);
	p32(&o, REC_CGROUP), p16(&o, 0), p16(&o, 8 + 8 + 16);
	p64(&o, 42);
	put(&o, "/sys/fs/x\0\0\0\0\0\0\0", 16);
	p32(&o, REC_TEXT_POKE), p16(&o, 0), p16(&o, 8 + 12 + 4);
	p64(&o, 0xffffffff81000000ULL), p16(&o, 2), p16(&o, 2);
	put(&o, "\x90\x90\xeb\x05", 4);
	p32(&o, REC_ITRACE_START), p16(&o, 0), p16(&o, 8 + 8);
	p32(&o, 7), p32(&o, 8);
	p32(&o, REC_READ), p16(&o, 0), p16(&o, 8 + 8 + 8);
	p32(&o, 9), p32(&o, 10), p64(&o, 123456);
	CHECK(perf_file__open_mem(&pf, o.b, o.len, "side", err, sizeof(err)) == 0);
	while ((rc = perf_file__next_record(pf, &r)) > 0) {
		n++;
		switch (r.type) {
		case REC_KSYMBOL:
			CHECK_EQ(r.ksymbol.addr, 0xffffffffc0001000ULL);
			CHECK_EQ(r.ksymbol.len, 120);
			CHECK_EQ(r.ksymbol.ksym_type, 1);
			CHECK(!strcmp(r.ksymbol.name, "bpf_prog_abc"));
			break;
		case REC_BPF_EVENT:
			CHECK_EQ(r.bpf.type, 1);
			CHECK_EQ(r.bpf.id, 717);
			CHECK_EQ(r.bpf.tag[0], 0x21);
			break;
		case REC_CGROUP:
			CHECK_EQ(r.cgroup.id, 42);
			CHECK(!strcmp(r.cgroup.path, "/sys/fs/x"));
			break;
		case REC_TEXT_POKE:
			CHECK_EQ(r.text_poke.addr, 0xffffffff81000000ULL);
			CHECK_EQ(r.text_poke.old_len, 2);
			CHECK(r.text_poke.bytes[2] == 0xeb);
			break;
		case REC_ITRACE_START:
			CHECK_EQ(r.itrace.pid, 7);
			CHECK_EQ(r.itrace.tid, 8);
			break;
		case REC_READ:
			CHECK_EQ(r.sample.pid, 9);
			CHECK_EQ(r.sample.tid, 10);
			CHECK_EQ(r.sample.read_nr, 1);
			CHECK(r.sample.read_values && r.sample.read_values[0] == 123456);
			break;
		}
	}
	CHECK_EQ(rc, 0);
	CHECK_EQ(n, 7);
	perf_file__close(pf);
	free(o.b);
}

/* perf 6.15's COMPRESSED2: a data size, then the zstd frame, the record padded to 8. */
static void test_compressed2(bool be)
{
	struct out o = { .be = be }, in = { .be = be };
	char err[PERF_FILE_ERRMAX];
	struct perf_file *pf;
	struct record r;
	int rc, n = 0, samples = 0;
	size_t bound, zn, start;
	uint8_t *z;

	p64(&o, 0x32454c4946524550ULL), p64(&o, 16);
	p32(&o, REC_HEADER_ATTR), p16(&o, 0), p16(&o, 8 + 64);
	p32(&o, ATTR_TYPE_SOFTWARE), p32(&o, 64), p64(&o, 0), p64(&o, 1);
	p64(&o, SF_IP | SF_TID), p64(&o, 0), p64(&o, 0), p64(&o, 0), p64(&o, 0);
	for (int i = 0; i < 3; i++) {
		p32(&in, REC_SAMPLE), p16(&in, 2), p16(&in, 8 + 16);
		p64(&in, 0x400000 + i), p32(&in, 5), p32(&in, 6);
	}
	bound = ZSTD_compressBound(in.len);
	z = xmalloc(bound);
	zn = ZSTD_compress(z, bound, in.b, in.len, 1);
	start = o.len;
	p32(&o, REC_COMPRESSED2), p16(&o, 0), p16(&o, 0);
	p64(&o, zn);
	put(&o, z, zn);
	pad8(&o);
	set16(&o, start + 6, o.len - start);
	p32(&o, REC_FINISHED_ROUND), p16(&o, 0), p16(&o, 8);
	CHECK(perf_file__open_mem(&pf, o.b, o.len, "c2", err, sizeof(err)) == 0);
	while ((rc = perf_file__next_record(pf, &r)) > 0) {
		n++;
		if (r.type == REC_SAMPLE) {
			CHECK_EQ(r.sample.ip, 0x400000 + samples);
			CHECK_EQ(r.sample.tid, 6);
			samples++;
		}
	}
	if (rc < 0)
		fprintf(stderr, "  %s\n", perf_file__errmsg(pf));
	CHECK_EQ(rc, 0);
	CHECK_EQ(n, 6);	/* ATTR, COMPRESSED2, 3 samples, FINISHED_ROUND */
	CHECK_EQ(samples, 3);
	perf_file__close(pf);
	free(z);
	free(in.b);
	free(o.b);
}

/* EVENT_DESC names the event owning its first id, whatever its position (perf does so). */
static void test_event_desc_by_id(void)
{
	struct out o = { 0 };
	char err[PERF_FILE_ERRMAX];
	struct perf_file *pf;
	const struct perf_header_info *h;
	size_t attrs_at, ids_at, data_at, tab_at, sec_at;
	static const char *const names[2] = { "second", "first" };

	p64(&o, 0x32454c4946524550ULL), p64(&o, 104), p64(&o, 64 + 16);
	p64(&o, 0), p64(&o, 2 * (64 + 16));	/* attrs: patched */
	p64(&o, 0), p64(&o, 8);			/* data: patched */
	p64(&o, 0), p64(&o, 0);
	p64(&o, 1ULL << FEAT_EVENT_DESC), p64(&o, 0), p64(&o, 0), p64(&o, 0);
	ids_at = o.len;
	p64(&o, 10), p64(&o, 20);
	attrs_at = o.len;
	for (int i = 0; i < 2; i++) {
		p32(&o, ATTR_TYPE_SOFTWARE), p32(&o, 64), p64(&o, (uint64_t)i), p64(&o, 1);
		p64(&o, SF_IP | SF_ID), p64(&o, 0), p64(&o, 0), p64(&o, 0), p64(&o, 0);
		p64(&o, ids_at + 8 * (size_t)i), p64(&o, 8);
	}
	data_at = o.len;
	p32(&o, REC_FINISHED_ROUND), p16(&o, 0), p16(&o, 8);
	tab_at = o.len;
	p64(&o, 0), p64(&o, 0);
	sec_at = o.len;
	p32(&o, 2), p32(&o, 64);
	for (int i = 0; i < 2; i++) {	/* listed in reverse: ids 20 then 10 */
		p32(&o, ATTR_TYPE_SOFTWARE), p32(&o, 64), p64(&o, (uint64_t)(1 - i)), p64(&o, 1);
		p64(&o, SF_IP | SF_ID), p64(&o, 0), p64(&o, 0), p64(&o, 0), p64(&o, 0);
		p32(&o, 1);
		p32(&o, 8), put(&o, names[i], strlen(names[i]) + 1);
		for (size_t k = strlen(names[i]) + 1; k < 8; k++)
			put(&o, "", 1);
		p64(&o, i ? 10 : 20);
	}
	set64(&o, 24, attrs_at);
	set64(&o, 40, data_at);
	set64(&o, tab_at, sec_at), set64(&o, tab_at + 8, o.len - sec_at);
	CHECK(perf_file__open_mem(&pf, o.b, o.len, "desc", err, sizeof(err)) == 0);
	if (pf) {
		h = perf_file__header(pf);
		CHECK(h->nr_evsels == 2 && !strcmp(h->evsels[0].name, "first") &&
		      !strcmp(h->evsels[1].name, "second"));
		perf_file__close(pf);
	} else {
		fprintf(stderr, "  %s\n", err);
	}
	free(o.b);
}

int main(void)
{
	test_event_desc_by_id();
	test_compressed2(false);
	test_compressed2(true);
	test_side_records(false);
	test_side_records(true);
	test_id_index(false);
	test_id_index(true);
	test_sample_decode(false);
	test_sample_decode(true);
	test_attr_decode();
	test_names();
	for (enum source src = MEM; src <= STREAM; src++) {
		test_file(false, false, src);
		test_file(true, false, src);
		test_file(false, true, src);
		test_file(true, true, src);
	}
	test_zero_size_record();
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	return failures ? 1 : 0;
}
