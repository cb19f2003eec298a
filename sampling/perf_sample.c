// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PERF_RECORD_SAMPLE decoding: every sample_type field, in the order the kernel writes them
 * (perf_output_sample), each length checked against the record.
 */
#include <config.h>

#include "sampling/perf_file.h"

#include <errno.h>
#include <string.h>

#include "sampling/perf_bytes.h"

struct cursor {
	uint8_t *p, *end;
	bool swap;
	const char *why;
};

static inline bool has(struct cursor *c, size_t n, const char *what)
{
	if ((size_t)(c->end - c->p) < n) {
		c->why = what;
		return false;
	}
	return true;
}

static inline bool u64_field(struct cursor *c, uint64_t *v, const char *what)
{
	if (!has(c, 8, what))
		return false;
	*v = ld64(c->p, c->swap);
	c->p += 8;
	return true;
}

/* An array of @n u64 words; swapped in place for a big-endian file. */
static bool u64_array(struct cursor *c, uint64_t n, const uint64_t **out, const char *what)
{
	if (n > (size_t)(c->end - c->p) / 8) {
		c->why = what;
		return false;
	}
	if (c->swap)
		swap64_array(c->p, n);
	*out = (const uint64_t *)(void *)c->p;
	c->p += n * 8;
	return true;
}

static uint64_t read_format_words(uint64_t rf, uint64_t nr)
{
	/* Per value: value, [id], [lost]; plus the header words. */
	unsigned int per = 1 + !!(rf & READ_FORMAT_ID) + !!(rf & READ_FORMAT_LOST);
	unsigned int hdr = !!(rf & READ_FORMAT_TOTAL_TIME_ENABLED) +
			   !!(rf & READ_FORMAT_TOTAL_TIME_RUNNING);

	if (rf & READ_FORMAT_GROUP)
		return 1 + hdr + per * nr;
	return hdr + per;
}

/*
 * Zero a struct sample with plain vector stores: memset of this size compiles to `rep stos`,
 * whose start-up cost is a large share of decoding a small sample.
 */
static inline void sample_clear(struct sample *s)
{
	typedef uint64_t v4 __attribute__((vector_size(32), aligned(8), may_alias));
	uint8_t *p = (uint8_t *)s;
	size_t i = 0;

	/* the empty asm keeps the compiler from turning the loop back into memset */
	for (; i + 32 <= sizeof(*s); i += 32) {
		*(v4 *)(void *)(p + i) = (v4){ 0, 0, 0, 0 };
		__asm__("" : : "r"(p) : "memory");
	}
	for (; i < sizeof(*s); i++)
		p[i] = 0;
}

int perf_sample__decode(const struct perf_attr *attr, void *payload, size_t size, bool swap,
			struct sample *s, const char **why)
{
	struct cursor c = { payload, (uint8_t *)payload + size, swap, NULL };
	uint64_t t = attr->sample_type, v;

	sample_clear(s);
	s->present = t;

#define U64(field, what)                                                               \
	do {                                                                           \
		if (!u64_field(&c, &(field), what))                                    \
			goto bad;                                                      \
	} while (0)

	if (t & SF_IDENTIFIER)
		U64(s->id, "sample too short for IDENTIFIER");
	if (t & SF_IP)
		U64(s->ip, "sample too short for IP");
	if (t & SF_TID) {
		if (!has(&c, 8, "sample too short for TID"))
			goto bad;
		s->pid = ld32(c.p, swap);
		s->tid = ld32(c.p + 4, swap);
		c.p += 8;
	}
	if (t & SF_TIME)
		U64(s->time, "sample too short for TIME");
	if (t & SF_ADDR)
		U64(s->addr, "sample too short for ADDR");
	if (t & SF_ID)
		U64(s->id, "sample too short for ID");
	if (t & SF_STREAM_ID)
		U64(s->stream_id, "sample too short for STREAM_ID");
	if (t & SF_CPU) {
		if (!has(&c, 8, "sample too short for CPU"))
			goto bad;
		s->cpu = ld32(c.p, swap);
		s->res = ld32(c.p + 4, swap);
		c.p += 8;
	}
	if (t & SF_PERIOD)
		U64(s->period, "sample too short for PERIOD");
	if (t & SF_READ) {
		uint64_t rf = attr->read_format, nr = 1;

		if (rf & READ_FORMAT_GROUP) {
			if (!has(&c, 8, "sample too short for READ"))
				goto bad;
			nr = ld64(c.p, swap);
			if (nr > size / 8) {
				c.why = "READ group count larger than the sample";
				goto bad;
			}
		}
		s->read_nr = nr;
		if (!u64_array(&c, read_format_words(rf, nr), &s->read_values,
			       "READ values run past the end of the sample"))
			goto bad;
	}
	if (t & SF_CALLCHAIN) {
		U64(s->callchain_nr, "sample too short for CALLCHAIN");
		if (!u64_array(&c, s->callchain_nr, &s->callchain,
			       "CALLCHAIN entries run past the end of the sample"))
			goto bad;
	}
	if (t & SF_RAW) {
		if (!has(&c, 4, "sample too short for RAW"))
			goto bad;
		s->raw_size = ld32(c.p, swap);
		c.p += 4;
		if (!has(&c, s->raw_size, "RAW data runs past the end of the sample"))
			goto bad;
		s->raw = c.p;
		c.p += s->raw_size;
	}
	if (t & SF_BRANCH_STACK) {
		U64(s->branch_nr, "sample too short for BRANCH_STACK");
		if (attr->branch_sample_type & BRANCH_SAMPLE_HW_INDEX)
			U64(s->branch_hw_idx, "sample too short for BRANCH_STACK hw_idx");
		else
			s->branch_hw_idx = UINT64_MAX;
		if (s->branch_nr > (size_t)(c.end - c.p) / 24) {
			c.why = "BRANCH_STACK entries run past the end of the sample";
			goto bad;
		}
		{
			const uint64_t *e;

			if (!u64_array(&c, s->branch_nr * 3, &e, "BRANCH_STACK"))
				goto bad;
			s->branch_entries = e;
		}
	}
	if (t & SF_REGS_USER) {
		U64(s->regs_user_abi, "sample too short for REGS_USER");
		if (s->regs_user_abi) {
			s->regs_user_mask = attr->sample_regs_user;
			if (!u64_array(&c, __builtin_popcountll(s->regs_user_mask), &s->regs_user,
				       "REGS_USER run past the end of the sample"))
				goto bad;
		}
	}
	if (t & SF_STACK_USER) {
		U64(s->stack_user_size, "sample too short for STACK_USER");
		if (s->stack_user_size) {
			if (!has(&c, s->stack_user_size,
				 "STACK_USER data runs past the end of the sample"))
				goto bad;
			s->stack_user = c.p;
			c.p += s->stack_user_size;
			U64(s->stack_user_dyn_size, "sample too short for STACK_USER dyn_size");
		}
	}
	if (t & (SF_WEIGHT | SF_WEIGHT_STRUCT)) {
		U64(v, "sample too short for WEIGHT");
		if (t & SF_WEIGHT) {
			s->weight = v;
		} else {
			/* union perf_sample_weight: var1_dw is the low half on either endianness */
			s->weight = (uint32_t)v;
			s->ins_lat = (uint16_t)(v >> 32);
			s->retire_lat = (uint16_t)(v >> 48);
		}
	}
	if (t & SF_DATA_SRC)
		U64(s->data_src, "sample too short for DATA_SRC");
	if (t & SF_TRANSACTION)
		U64(s->transaction, "sample too short for TRANSACTION");
	if (t & SF_REGS_INTR) {
		U64(s->regs_intr_abi, "sample too short for REGS_INTR");
		if (s->regs_intr_abi) {
			s->regs_intr_mask = attr->sample_regs_intr;
			if (!u64_array(&c, __builtin_popcountll(s->regs_intr_mask), &s->regs_intr,
				       "REGS_INTR run past the end of the sample"))
				goto bad;
		}
	}
	if (t & SF_PHYS_ADDR)
		U64(s->phys_addr, "sample too short for PHYS_ADDR");
	if (t & SF_CGROUP)
		U64(s->cgroup, "sample too short for CGROUP");
	if (t & SF_DATA_PAGE_SIZE)
		U64(s->data_page_size, "sample too short for DATA_PAGE_SIZE");
	if (t & SF_CODE_PAGE_SIZE)
		U64(s->code_page_size, "sample too short for CODE_PAGE_SIZE");
	if (t & SF_AUX) {
		U64(v, "sample too short for AUX");
		if (!has(&c, v, "AUX data runs past the end of the sample"))
			goto bad;
		c.p += v;
	}
#undef U64
	return 0;
bad:
	*why = c.why;
	return -EINVAL;
}
