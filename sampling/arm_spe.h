/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_ARM_SPE_H
#define LINEUP_SAMPLING_ARM_SPE_H

/*
 * Arm SPE (Statistical Profiling Extension): the packet decoder, the record decoder and the
 * memory-sample synthesis that `perf c2c report` does on an AUX trace (perf's
 * itrace_synth_opts with only .mem set: one "memory" sample per load or store record).
 *
 * Three levels, each usable alone:
 *	arm_spe__packet()		one packet from bytes
 *	struct arm_spe_decoder		packets -> records (a record may span AUX buffers)
 *	struct arm_spe_synth		AUXTRACE buffers of several queues -> struct spe_sample
 *
 * perf's semantics kept (tools/perf/util/arm-spe*.c, 6.1): a record ends at a TIMESTAMP or an
 * END packet; PAD packets are skipped; a record still open when its queue's data ends is
 * dropped; data_src is computed from the op type, the events and the data source packet, with
 * the Neoverse N1/N2/V1 encoding when the recording's MIDR (CPUID header) says so, else the
 * generic one from the events; time is the timestamp through the TIME_CONV parameters; the
 * thread is the last CONTEXT packet's tid; in a trace without CONTEXT packets, the task the
 * last context switch on that CPU at or before the record switched to (SWITCH_CPU_WIDE out
 * records, as perf's arm_spe_context_switch), else the AUXTRACE buffer's tid.
 * Where perf differs: a bad packet is an error here (perf skips a byte and goes on), naming
 * the byte offset in the file (or in the buffer when no file offset is known).
 *
 * Ownership: the synth references the data given to arm_spe_synth__queue() until
 * arm_spe_synth__next() has returned 0 for it; everything else it owns.  No I/O, no globals.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* auxtrace_info.type of an Arm SPE trace (perf's enum auxtrace_type). */
#define ARM_SPE_AUXTRACE_TYPE 4
/* priv words of its AUXTRACE_INFO: the PMU's attr.type, and whether the mmaps are per CPU. */
enum { ARM_SPE_PRIV_PMU_TYPE, ARM_SPE_PRIV_PER_CPU_MMAPS, ARM_SPE_PRIV_MAX };

enum arm_spe_pkt_type {
	SPE_PKT_BAD,
	SPE_PKT_PAD,
	SPE_PKT_END,
	SPE_PKT_TIMESTAMP,
	SPE_PKT_ADDRESS,
	SPE_PKT_COUNTER,
	SPE_PKT_CONTEXT,
	SPE_PKT_OP_TYPE,
	SPE_PKT_EVENTS,
	SPE_PKT_DATA_SOURCE,
};

/* Address packet indexes. */
enum { SPE_ADDR_INS = 0, SPE_ADDR_BRANCH = 1, SPE_ADDR_DATA_VA = 2, SPE_ADDR_DATA_PA = 3 };
/* Counter packet indexes. */
enum { SPE_CNT_TOTAL_LAT = 0, SPE_CNT_ISSUE_LAT = 1, SPE_CNT_TRANS_LAT = 2 };
/* Operation type classes (the low two bits of the header). */
enum { SPE_OP_CLASS_OTHER = 0, SPE_OP_CLASS_LDST = 1, SPE_OP_CLASS_BRANCH = 2 };
/* Event bits of the events packet. */
enum {
	SPE_EV_L1D_ACCESS = 2, SPE_EV_L1D_REFILL = 3, SPE_EV_TLB_ACCESS = 4, SPE_EV_TLB_WALK = 5,
	SPE_EV_MISPRED = 7, SPE_EV_LLC_ACCESS = 8, SPE_EV_LLC_MISS = 9, SPE_EV_REMOTE_ACCESS = 10,
};
/* Neoverse data source packet values. */
enum {
	SPE_DS_L1D = 0x0, SPE_DS_L2 = 0x8, SPE_DS_PEER_CORE = 0x9, SPE_DS_LOCAL_CLUSTER = 0xa,
	SPE_DS_SYS_CACHE = 0xb, SPE_DS_PEER_CLUSTER = 0xc, SPE_DS_REMOTE = 0xd, SPE_DS_DRAM = 0xe,
};

struct arm_spe_pkt {
	enum arm_spe_pkt_type type;
	unsigned int index;
	uint64_t payload;
};

/*
 * Decode the packet at @buf (@len bytes available).  @pos is the packet's position in the
 * stream, for the alignment packet (which pads up to a multiple of 2..16 from there).  Returns
 * its length (> 0), SPE_NEED_MORE when @len cuts it, SPE_BAD_PACKET when the header is none
 * of SPE's.
 */
#define SPE_NEED_MORE (-1)
#define SPE_BAD_PACKET (-2)
int arm_spe__packet(const uint8_t *buf, size_t len, uint64_t pos, struct arm_spe_pkt *pkt);

/* Record op bits (first level, then the load/store second level). */
enum {
	SPE_OP_OTHER = 1 << 0, SPE_OP_LDST = 1 << 1, SPE_OP_BRANCH = 1 << 2,
	SPE_OP_LD = 1 << 16, SPE_OP_ST = 1 << 17,
};
/* Record event bits. */
enum {
	SPE_L1D_ACCESS = 1 << 0, SPE_L1D_MISS = 1 << 1, SPE_LLC_ACCESS = 1 << 2,
	SPE_LLC_MISS = 1 << 3, SPE_TLB_ACCESS = 1 << 4, SPE_TLB_MISS = 1 << 5,
	SPE_BRANCH_MISS = 1 << 6, SPE_REMOTE_ACCESS = 1 << 7,
};

/**
 * struct arm_spe_record - one sampled operation, from its packets.
 * @context_id:	the CONTEXT packet's value, UINT64_MAX when the record has none
 */
struct arm_spe_record {
	uint32_t type;			/* SPE_L1D_ACCESS... */
	uint32_t op;			/* SPE_OP_... */
	uint32_t latency;		/* total latency counter */
	uint16_t source;		/* data source packet */
	uint64_t from_ip, to_ip;
	uint64_t timestamp;
	uint64_t virt_addr, phys_addr;
	uint64_t context_id;
};

/* Packets -> records.  Zero it (or arm_spe_decoder__init) before the first buffer. */
struct arm_spe_decoder {
	struct arm_spe_record rec;	/* the record being built */
	bool open;			/* rec has packets and no end yet */
};

void arm_spe_decoder__init(struct arm_spe_decoder *d);

/*
 * Decode from @buf[*pos, len) up to the end of the next record: 1 and the record in *out,
 * 0 when the buffer ends first (the open record carries over to the next buffer), or
 * -EINVAL with *pos at the bad packet and @why set.  @base: stream position of @buf[0].
 */
int arm_spe_decoder__next(struct arm_spe_decoder *d, const uint8_t *buf, size_t len,
			  size_t *pos, uint64_t base, struct arm_spe_record *out, const char **why);

/* Whether the MIDR is a Neoverse N1, N2 or V1 (the data source encoding perf knows). */
bool arm_spe__midr_common_ds(uint64_t midr);
/* perf_mem_data_src of a record as perf's arm_spe__synth_data_source; 0: not a load/store. */
uint64_t arm_spe__data_src(const struct arm_spe_record *r, uint64_t midr);

/* TIME_CONV: perf's struct perf_tsc_conversion. */
struct spe_time_conv {
	uint16_t time_shift;
	uint32_t time_mult;
	uint64_t time_zero, time_cycles, time_mask;
	bool cap_user_time_zero, cap_user_time_short;
};
/* perf's tsc_to_perf_time, and perf_time_to_tsc (0 when time_mult is 0: perf divides). */
uint64_t spe_time_conv__perf_time(const struct spe_time_conv *tc, uint64_t cyc);
uint64_t spe_time_conv__tsc(const struct spe_time_conv *tc, uint64_t ns);

/**
 * struct spe_sample - what perf's arm_spe__synth_mem_sample fills in.
 * @period:	always 1
 * @kernel:	cpumode kernel (ip at or above 2^63: perf's kernel_start without a kernel map)
 * @pid, @tid:	-1 when unknown
 */
struct spe_sample {
	uint64_t ip, addr, phys_addr, time, data_src, weight, period;
	int32_t pid, tid, cpu;
	bool kernel;
};

struct arm_spe_synth;

/*
 * @midr: from the CPUID header (0 when absent); @tc: the last TIME_CONV before the
 * AUXTRACE_INFO; @timeless: no event samples TIME (samples then have time 0).
 */
struct arm_spe_synth *arm_spe_synth__new(uint64_t midr, const struct spe_time_conv *tc,
					 bool timeless);
void arm_spe_synth__delete(struct arm_spe_synth *s);

/* A COMM or FORK: @tid belongs to @pid (the pid a CONTEXT packet's tid is given). */
void arm_spe_synth__thread(struct arm_spe_synth *s, int32_t pid, int32_t tid);

/*
 * A SWITCH_CPU_WIDE "out" record at @time on @cpu: the task switched to is @pid/@tid (its
 * next_prev fields).  Records of that CPU from then on belong to it, unless the trace has
 * CONTEXT packets.  Switches must come in time order per CPU (as one CPU's ring gives them).
 */
void arm_spe_synth__switch(struct arm_spe_synth *s, int32_t cpu, uint64_t time, int32_t pid,
			   int32_t tid);

/*
 * An AUXTRACE buffer of queue @idx (@cpu, @tid as the record says): @size bytes at @data,
 * found at stream position @file_off (for error offsets and alignment).  Returns 0, or
 * -EINVAL (a queue number beyond 65535) with @why set.
 */
int arm_spe_synth__queue(struct arm_spe_synth *s, uint32_t idx, int32_t cpu, int32_t tid,
			 const void *data, uint64_t size, uint64_t file_off, const char **why);

/*
 * The next memory sample of the queued buffer: 1, 0 when the buffer is done, -EINVAL on a bad
 * packet (*err_off: its stream position, @why: what).
 */
int arm_spe_synth__next(struct arm_spe_synth *s, struct spe_sample *out, uint64_t *err_off,
			const char **why);

/*
 * Encode @smp as a PERF_RECORD_SAMPLE payload for sample_type @type (the synthesized event's:
 * IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD, WEIGHT, DATA_SRC, PHYS_ADDR
 * are written, the other bits must be clear) with @id as id and stream id, in big-endian
 * when @big_endian.  Writes at most 8 * 14 bytes to @out; returns the payload size.
 */
size_t spe_sample__encode(const struct spe_sample *smp, uint64_t type, uint64_t id,
			  bool big_endian, uint8_t *out);
#define SPE_SAMPLE_MAX 112

#endif
