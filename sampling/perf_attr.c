// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf_event_attr decoding (any size, either endianness) and perf's default event names.
 */
#include <config.h>

#include "sampling/perf_file.h"

#include <byteswap.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sampling/perf_bytes.h"

/* A big-endian compiler allocates bitfields from the top bit of each byte down. */
static uint64_t flags_from_be(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++) {
		uint8_t b = p[i], r = 0;

		for (int k = 0; k < 8; k++)
			if (b & (1u << k))
				r |= 1u << (7 - k);
		v |= (uint64_t)r << (8 * i);
	}
	return v;
}

int perf_attr__decode(const void *src, size_t size, bool swap, struct perf_attr *out)
{
	/* Fields past the file's attr size are zero: copy into a zeroed latest-size buffer. */
	uint8_t b[PERF_ATTR_SIZE_LATEST];
	size_t n = size < sizeof(b) ? size : sizeof(b);

	memset(out, 0, sizeof(*out));
	if (size < PERF_ATTR_SIZE_VER0)
		return -EINVAL;
	memset(b, 0, sizeof(b));
	memcpy(b, src, n);

	out->type = ld32(b + 0, swap);
	out->size = ld32(b + 4, swap);
	out->config = ld64(b + 8, swap);
	out->sample_period = ld64(b + 16, swap);
	out->sample_type = ld64(b + 24, swap);
	out->read_format = ld64(b + 32, swap);
	out->flags = swap ? flags_from_be(b + 40) : ld64(b + 40, false);
	out->wakeup_events = ld32(b + 48, swap);
	out->bp_type = ld32(b + 52, swap);
	out->config1 = ld64(b + 56, swap);
	out->config2 = ld64(b + 64, swap);
	out->branch_sample_type = ld64(b + 72, swap);
	out->sample_regs_user = ld64(b + 80, swap);
	out->sample_stack_user = ld32(b + 88, swap);
	out->clockid = (int32_t)ld32(b + 92, swap);
	out->sample_regs_intr = ld64(b + 96, swap);
	out->aux_watermark = ld32(b + 104, swap);
	out->sample_max_stack = ld16(b + 108, swap);
	out->aux_sample_size = ld32(b + 112, swap);
	out->sig_data = ld64(b + 120, swap);
	out->config3 = ld64(b + 128, swap);
	return 0;
}

/* The modifier suffix perf appends (evsel__add_modifiers): ":u", ":ppp", ":HG"... */
static size_t add_modifiers(const struct perf_attr *a, char *bf, size_t size)
{
	size_t r = 0, colon = 0;
	bool excl_guest_default = false;

#define MOD(flag, c)                                                                   \
	do {                                                                           \
		if (!perf_attr__flag(a, flag) && r + 2 < size) {                       \
			if (!colon)                                                    \
				colon = ++r;                                           \
			bf[r++] = c;                                                   \
		}                                                                      \
	} while (0)

	if (size < 8)
		return 0;
	if (perf_attr__flag(a, ATTR_EXCLUDE_KERNEL) || perf_attr__flag(a, ATTR_EXCLUDE_USER) ||
	    perf_attr__flag(a, ATTR_EXCLUDE_HV)) {
		MOD(ATTR_EXCLUDE_KERNEL, 'k');
		MOD(ATTR_EXCLUDE_USER, 'u');
		MOD(ATTR_EXCLUDE_HV, 'h');
		excl_guest_default = true;
	}
	if (perf_attr__precise_ip(a)) {
		if (!colon)
			colon = ++r;
		for (unsigned int i = 0; i < perf_attr__precise_ip(a) && r + 2 < size; i++)
			bf[r++] = 'p';
		excl_guest_default = true;
	}
	if (perf_attr__flag(a, ATTR_EXCLUDE_HOST) ||
	    perf_attr__flag(a, ATTR_EXCLUDE_GUEST) == excl_guest_default) {
		MOD(ATTR_EXCLUDE_HOST, 'H');
		MOD(ATTR_EXCLUDE_GUEST, 'G');
	}
#undef MOD
	if (colon)
		bf[colon - 1] = ':';
	bf[r] = 0;
	return r;
}

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
	"ref-cycles",
};

static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
	"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
	"bpf-output", "cgroup-switches",
};

static const char *const cache_names[] = { "L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB",
					   "branch", "node" };
static const char *const cache_ops[][2] = { { "load", "loads" },
					    { "store", "stores" },
					    { "prefetch", "prefetches" } };
static const char *const cache_results[] = { "refs", "misses" };
/* Which ops each cache supports (perf's evsel__hw_cache_stat). */
static const unsigned int cache_valid_ops[] = { 7, 5, 7, 7, 1, 1, 7 };

static void hw_cache_name(uint64_t config, char *bf, size_t size)
{
	unsigned int type = config & 0xff, op = (config >> 8) & 0xff, res = (config >> 16) & 0xff;

	if (type >= 7)
		snprintf(bf, size, "unknown-ext-hardware-cache-type");
	else if (op >= 3)
		snprintf(bf, size, "unknown-ext-hardware-cache-op");
	else if (res >= 2)
		snprintf(bf, size, "unknown-ext-hardware-cache-result");
	else if (!(cache_valid_ops[type] & (1u << op)))
		snprintf(bf, size, "invalid-cache");
	else if (res)
		snprintf(bf, size, "%s-%s-%s", cache_names[type], cache_ops[op][0],
			 cache_results[res]);
	else
		snprintf(bf, size, "%s-%s", cache_names[type], cache_ops[op][1]);
}

void perf_attr__default_name(const struct perf_attr *a, char *bf, size_t size)
{
	size_t n;
	bool mods = true;

	if (!size)
		return;
	switch (a->type) {
	case ATTR_TYPE_RAW:
		snprintf(bf, size, "raw 0x%" PRIx64, a->config);
		break;
	case ATTR_TYPE_HARDWARE: {
		/* Hybrid CPUs put the PMU type in the config's top half (perf's x86 naming). */
		uint64_t ev = a->config & 0xffffffffULL, pmu = a->config >> 32;
		const char *hw = ev < sizeof(hw_names) / sizeof(hw_names[0]) ? hw_names[ev]
									    : "unknown-hardware";

		if (pmu)
			snprintf(bf, size, "cpu/%s/", hw);
		else
			snprintf(bf, size, "%s", hw);
		break;
	}
	case ATTR_TYPE_HW_CACHE:
		hw_cache_name(a->config, bf, size);
		break;
	case ATTR_TYPE_SOFTWARE:
		/* perf 6.1 knows the first ten; later ones print as unknown-software there. */
		snprintf(bf, size, "%s", a->config < 10 ? sw_names[a->config] : "unknown-software");
		break;
	case ATTR_TYPE_TRACEPOINT:
		snprintf(bf, size, "unknown tracepoint");
		mods = false;
		break;
	case ATTR_TYPE_BREAKPOINT:
		snprintf(bf, size, "mem:0x%" PRIx64 ":%s%s%s", a->config1,
			 (a->bp_type & 1) ? "r" : "", (a->bp_type & 2) ? "w" : "",
			 (a->bp_type & 4) ? "x" : "");
		break;
	default:
		snprintf(bf, size, "unknown attr type: %d", (int)a->type);
		mods = false;
		break;
	}
	n = strlen(bf);
	if (mods)
		add_modifiers(a, bf + n, size - n);
}
