// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sampling/sample_layout against perf_sample__decode: for every combination of the fixed-size
 * sample_type bits (and a few variable ones, which must turn the fast path off), random
 * payloads read through the layout give the same fields as the full decoder, and a payload
 * one word short is one the decoder refuses.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/event.h"
#include "sampling/perf_file.h"
#include "sampling/sample_layout.h"

static int failures;

#define CHECK(cond, ...)                                                   \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                      \
			fputc('\n', stderr);                               \
			failures++;                                        \
		}                                                          \
	} while (0)

static uint64_t rnd(uint64_t *st)
{
	*st ^= *st << 13;
	*st ^= *st >> 7;
	*st ^= *st << 17;
	return *st;
}

static const uint64_t fixed_bits[] = {
	SF_IDENTIFIER, SF_IP, SF_TID, SF_TIME, SF_ADDR, SF_ID, SF_STREAM_ID, SF_CPU, SF_PERIOD,
	SF_WEIGHT, SF_DATA_SRC, SF_TRANSACTION, SF_PHYS_ADDR, SF_CGROUP, SF_DATA_PAGE_SIZE,
	SF_CODE_PAGE_SIZE, SF_WEIGHT_STRUCT,
};
#define NR_FIXED (sizeof(fixed_bits) / sizeof(fixed_bits[0]))

static uint64_t field(const uint8_t *p, int16_t off, int size)
{
	return size == 8 ? sample_layout__u64(p, off) : sample_layout__u32(p, off);
}

static void check_type(uint64_t t, uint64_t *seed)
{
	struct perf_attr attr;
	struct sample_layout l;
	struct sample s;
	uint64_t buf[32];
	const char *why;

	memset(&attr, 0, sizeof(attr));
	attr.sample_type = t;
	attr.sample_period = 4000;
	sample_layout__init(&l, &attr, false);
	CHECK(l.fixed, "sample_type %#" PRIx64 " has a fixed layout", t);
	CHECK(l.len == 8 * __builtin_popcountll(t & ~(uint64_t)SF_WEIGHT_STRUCT) +
		       ((t & SF_WEIGHT_STRUCT) && !(t & SF_WEIGHT) ? 8 : 0),
	      "sample_type %#" PRIx64 ": %u bytes", t, l.len);
	for (size_t k = 0; k < sizeof(buf) / 8; k++)
		buf[k] = rnd(seed);
	CHECK(!perf_sample__decode(&attr, buf, l.len, false, &s, &why), "decode %#" PRIx64, t);
	CHECK((l.ip >= 0 ? field((uint8_t *)buf, l.ip, 8) : 0) == s.ip, "ip %#" PRIx64, t);
	CHECK((l.tid >= 0 ? field((uint8_t *)buf, l.tid, 4) : 0) == s.pid, "pid %#" PRIx64, t);
	CHECK((l.tid >= 0 ? field((uint8_t *)buf, l.tid + 4, 4) : 0) == s.tid, "tid %#" PRIx64, t);
	CHECK((l.time >= 0 ? field((uint8_t *)buf, l.time, 8) : 0) == s.time, "time %#" PRIx64, t);
	CHECK((l.addr >= 0 ? field((uint8_t *)buf, l.addr, 8) : 0) == s.addr, "addr %#" PRIx64, t);
	CHECK((l.cpu >= 0 ? field((uint8_t *)buf, l.cpu, 4) : 0) == s.cpu, "cpu %#" PRIx64, t);
	CHECK((l.period >= 0 ? field((uint8_t *)buf, l.period, 8) : 0) == s.period,
	      "period %#" PRIx64, t);
	if (l.weight >= 0) {
		uint64_t w = field((uint8_t *)buf, l.weight, 8);

		CHECK(((t & SF_WEIGHT) ? w : (uint32_t)w) == s.weight, "weight %#" PRIx64, t);
	} else {
		CHECK(s.weight == 0, "no weight %#" PRIx64, t);
	}
	CHECK((l.data_src >= 0 ? field((uint8_t *)buf, l.data_src, 8) : 0) == s.data_src,
	      "data_src %#" PRIx64, t);
	CHECK((l.phys_addr >= 0 ? field((uint8_t *)buf, l.phys_addr, 8) : 0) == s.phys_addr,
	      "phys_addr %#" PRIx64, t);
	if (l.len)
		CHECK(perf_sample__decode(&attr, buf, l.len - 8, false, &s, &why),
		      "a payload one word short is refused (%#" PRIx64 ")", t);
}

int main(void)
{
	static const uint64_t variable[] = { SF_READ, SF_CALLCHAIN, SF_RAW, SF_BRANCH_STACK,
					     SF_REGS_USER, SF_STACK_USER, SF_REGS_INTR, SF_AUX };
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	unsigned int n = 0;

	/* every subset of the fixed bits would be 2^17: all of the ones c2c reads, random rest */
	for (uint32_t m = 0; m < (1u << NR_FIXED); m += 1 + (uint32_t)(rnd(&seed) % 61)) {
		uint64_t t = 0;

		for (size_t b = 0; b < NR_FIXED; b++)
			if (m & (1u << b))
				t |= fixed_bits[b];
		check_type(t, &seed);
		n++;
	}
	check_type(SF_IP | SF_TID | SF_TIME | SF_ADDR | SF_ID | SF_CPU | SF_PERIOD | SF_WEIGHT |
			   SF_DATA_SRC | SF_PHYS_ADDR, &seed);
	check_type(SF_IP | SF_TID | SF_TIME | SF_ADDR | SF_ID | SF_CPU | SF_PERIOD |
			   SF_WEIGHT_STRUCT | SF_DATA_SRC | SF_PHYS_ADDR, &seed);
	for (size_t v = 0; v < sizeof(variable) / sizeof(variable[0]); v++) {
		struct perf_attr attr;
		struct sample_layout l;

		memset(&attr, 0, sizeof(attr));
		attr.sample_type = SF_IP | SF_TID | SF_TIME | variable[v] | SF_DATA_SRC;
		sample_layout__init(&l, &attr, false);
		CHECK(!l.fixed, "sample_type bit %#" PRIx64 " is variable", variable[v]);
	}
	{
		struct perf_attr attr;
		struct sample_layout l;

		memset(&attr, 0, sizeof(attr));
		attr.sample_type = SF_IP | SF_TIME;
		sample_layout__init(&l, &attr, true);
		CHECK(!l.fixed, "a byte-swapped file takes the full decoder");
	}
	if (failures)
		return 1;
	printf("sample_layout: %u sample_types match perf_sample__decode\n", n);
	return 0;
}
