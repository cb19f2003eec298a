/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A SAMPLE payload whose event has only fixed-size fields (no READ, CALLCHAIN, RAW,
 * BRANCH_STACK, REGS_USER, STACK_USER, REGS_INTR or AUX) has every field at a fixed offset:
 * reading the few a report needs straight from the payload skips the full decode.  Anything
 * else (and a payload shorter than the layout) goes through perf_sample__decode().
 */
#ifndef LINEUP_SAMPLING_SAMPLE_LAYOUT_H
#define LINEUP_SAMPLING_SAMPLE_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "sampling/event.h"

struct perf_attr;

/**
 * struct sample_layout - byte offsets of a fixed-layout sample's fields
 * @fixed: every field has a fixed offset (and the file is little-endian like this host)
 * @len: bytes a payload needs; a shorter one is malformed (perf_sample__decode says why)
 * @type: the event's sample_type
 * @ip..@phys_addr: offsets in the payload, or -1 when the event lacks the field
 */
struct sample_layout {
	bool fixed;
	uint16_t len;
	uint64_t type;
	int16_t ip, tid, time, addr, cpu, period, weight, data_src, phys_addr;
};

void sample_layout__init(struct sample_layout *l, const struct perf_attr *attr, bool swap);

static inline uint64_t sample_layout__u64(const void *payload, int16_t off)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)payload + off, 8);
	return v;
}

static inline uint32_t sample_layout__u32(const void *payload, int16_t off)
{
	uint32_t v;

	memcpy(&v, (const uint8_t *)payload + off, 4);
	return v;
}

#endif
