/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_EVENT_H
#define LINEUP_SAMPLING_EVENT_H

/*
 * lineup's own model of what a perf.data holds: the records the reader hands out and the
 * writer takes in.  No libperf, libtraceevent or kernel-header type appears here, so the
 * analyzer and the CLI depend on this file alone.  A command that reads samples starts at
 * sampling/session.h, which shows the whole flow: reader, ordered events, machine, filters,
 * resolution, the tool's callbacks.
 *
 * Ownership: pointers inside a struct sample or struct record (raw, callchain, branch stack,
 * filenames, comm) point into the reader's buffer and stay valid only until the next call to
 * the reader; copy what must outlive it.
 */

#include <stdbool.h>
#include <stdint.h>

/* perf_event_attr.sample_type bits, with the kernel's values (stable ABI). */
enum sample_field {
	SF_IP = 1ULL << 0,
	SF_TID = 1ULL << 1,
	SF_TIME = 1ULL << 2,
	SF_ADDR = 1ULL << 3,
	SF_READ = 1ULL << 4,
	SF_CALLCHAIN = 1ULL << 5,
	SF_ID = 1ULL << 6,
	SF_CPU = 1ULL << 7,
	SF_PERIOD = 1ULL << 8,
	SF_STREAM_ID = 1ULL << 9,
	SF_RAW = 1ULL << 10,
	SF_BRANCH_STACK = 1ULL << 11,
	SF_REGS_USER = 1ULL << 12,
	SF_STACK_USER = 1ULL << 13,
	SF_WEIGHT = 1ULL << 14,
	SF_DATA_SRC = 1ULL << 15,
	SF_IDENTIFIER = 1ULL << 16,
	SF_TRANSACTION = 1ULL << 17,
	SF_REGS_INTR = 1ULL << 18,
	SF_PHYS_ADDR = 1ULL << 19,
	SF_AUX = 1ULL << 20,
	SF_CGROUP = 1ULL << 21,
	SF_DATA_PAGE_SIZE = 1ULL << 22,
	SF_CODE_PAGE_SIZE = 1ULL << 23,
	SF_WEIGHT_STRUCT = 1ULL << 24,
};

/* perf record types (PERF_RECORD_*), kernel and user (perf tool) ranges. */
enum record_type {
	REC_MMAP = 1,
	REC_LOST = 2,
	REC_COMM = 3,
	REC_EXIT = 4,
	REC_THROTTLE = 5,
	REC_UNTHROTTLE = 6,
	REC_FORK = 7,
	REC_READ = 8,
	REC_SAMPLE = 9,
	REC_MMAP2 = 10,
	REC_AUX = 11,
	REC_ITRACE_START = 12,
	REC_LOST_SAMPLES = 13,
	REC_SWITCH = 14,
	REC_SWITCH_CPU_WIDE = 15,
	REC_NAMESPACES = 16,
	REC_KSYMBOL = 17,
	REC_BPF_EVENT = 18,
	REC_CGROUP = 19,
	REC_TEXT_POKE = 20,
	REC_AUX_OUTPUT_HW_ID = 21,
	REC_KERNEL_MAX,

	REC_HEADER_ATTR = 64,
	REC_HEADER_EVENT_TYPE = 65,
	REC_HEADER_TRACING_DATA = 66,
	REC_HEADER_BUILD_ID = 67,
	REC_FINISHED_ROUND = 68,
	REC_ID_INDEX = 69,
	REC_AUXTRACE_INFO = 70,
	REC_AUXTRACE = 71,
	REC_AUXTRACE_ERROR = 72,
	REC_THREAD_MAP = 73,
	REC_CPU_MAP = 74,
	REC_STAT_CONFIG = 75,
	REC_STAT = 76,
	REC_STAT_ROUND = 77,
	REC_EVENT_UPDATE = 78,
	REC_TIME_CONV = 79,
	REC_HEADER_FEATURE = 80,
	REC_COMPRESSED = 81,
	REC_FINISHED_INIT = 82,
	REC_COMPRESSED2 = 83,	/* perf 6.15+: u64 data_size, then the zstd data, 8-aligned */
	REC_USER_MAX,
};

/*
 * perf.data header feature ids (HEADER_* in perf's util/header.h), shared by the reader
 * (perf_file.h) and the writer (perf_writer.h) so that one file can include both.
 */
enum perf_feature {
	FEAT_RESERVED = 0,
	FEAT_TRACING_DATA = 1,
	FEAT_BUILD_ID,
	FEAT_HOSTNAME,
	FEAT_OSRELEASE,
	FEAT_VERSION,
	FEAT_ARCH,
	FEAT_NRCPUS,
	FEAT_CPUDESC,
	FEAT_CPUID,
	FEAT_TOTAL_MEM,
	FEAT_CMDLINE,
	FEAT_EVENT_DESC,
	FEAT_CPU_TOPOLOGY,
	FEAT_NUMA_TOPOLOGY,
	FEAT_BRANCH_STACK,
	FEAT_PMU_MAPPINGS,
	FEAT_GROUP_DESC,
	FEAT_AUXTRACE,
	FEAT_STAT,
	FEAT_CACHE,
	FEAT_SAMPLE_TIME,
	FEAT_MEM_TOPOLOGY,
	FEAT_CLOCKID,
	FEAT_DIR_FORMAT,
	FEAT_BPF_PROG_INFO,
	FEAT_BPF_BTF,
	FEAT_COMPRESSED,
	FEAT_CPU_PMU_CAPS,
	FEAT_CLOCK_DATA,
	FEAT_HYBRID_TOPOLOGY,
	FEAT_PMU_CAPS,
	FEAT_LAST,
	FEAT_BITS = 256,
};

/* perf_event_header.misc cpumode values. */
enum cpumode {
	CPUMODE_UNKNOWN = 0,
	CPUMODE_KERNEL = 1,
	CPUMODE_USER = 2,
	CPUMODE_HYPERVISOR = 3,
	CPUMODE_GUEST_KERNEL = 4,
	CPUMODE_GUEST_USER = 5,
};
#define CPUMODE_MASK 7

/**
 * struct sample - one PERF_RECORD_SAMPLE, decoded.
 * @evsel:	index of the event (attr) it belongs to, in the session's event list
 * @present:	the sample_type bits of that event: which of the fields below are valid
 * @weight:	WEIGHT, or the low 32 bits (var1_dw) of WEIGHT_STRUCT
 * @ins_lat:	WEIGHT_STRUCT var2_w (instruction latency), 0 otherwise
 * @retire_lat:	WEIGHT_STRUCT var3_w, 0 otherwise
 * @data_src:	the raw perf_mem_data_src value (decode with analyzer/data_src.h)
 */
struct sample {
	uint32_t evsel;
	uint16_t cpumode;
	uint16_t misc;
	uint64_t present;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu, res;
	uint64_t period;
	uint64_t weight;
	uint16_t ins_lat, retire_lat;
	uint64_t data_src;
	uint64_t transaction;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size;
	uint64_t code_page_size;
	/* Variable-length parts, pointing into the reader's buffer. */
	uint64_t callchain_nr;
	const uint64_t *callchain;
	uint32_t raw_size;
	const void *raw;
	uint64_t branch_nr;
	uint64_t branch_hw_idx;		/* valid when the event has branch_sample_type HW_INDEX */
	const void *branch_entries;	/* branch_nr x {from, to, flags} u64 triples */
	uint64_t regs_user_abi, regs_user_mask;
	const uint64_t *regs_user;
	uint64_t regs_intr_abi, regs_intr_mask;
	const uint64_t *regs_intr;
	uint64_t stack_user_size;
	const void *stack_user;
	uint64_t stack_user_dyn_size;
	uint64_t read_nr;		/* READ: number of values (1 unless PERF_FORMAT_GROUP) */
	const uint64_t *read_values;	/* raw read_format words */
};

/* MMAP and MMAP2 records. */
struct rec_mmap {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	/*
	 * MMAP2 only: the build-id when has_build_id; maj..ino_generation either way, as perf
	 * reads them (with a build-id, the same bytes, unswapped: perf's dso id).
	 */
	bool is_mmap2;
	bool has_build_id;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint8_t build_id_size;
	uint8_t build_id[20];
	uint32_t prot, flags;
	const char *filename;
};

struct rec_comm {
	uint32_t pid, tid;
	bool exec;		/* misc & PERF_RECORD_MISC_COMM_EXEC */
	const char *comm;
};

/* FORK and EXIT share a layout. */
struct rec_task {
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct rec_lost {
	uint64_t id, lost;	/* LOST_SAMPLES: only lost */
};

/* THROTTLE and UNTHROTTLE. */
struct rec_throttle {
	uint64_t time, id, stream_id;
};

/* SWITCH and SWITCH_CPU_WIDE (next_prev_* only in the latter). */
struct rec_switch {
	bool out;		/* misc & PERF_RECORD_MISC_SWITCH_OUT */
	bool preempt;		/* misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT */
	uint32_t next_prev_pid, next_prev_tid;
};

struct rec_namespaces {
	uint32_t pid, tid;
	uint64_t nr;
	const uint64_t *link_info;	/* nr x {dev, ino} */
};

struct rec_aux {
	uint64_t aux_offset, aux_size, flags;
};

/* KSYMBOL: a kernel symbol (BPF program, trampoline...) registered or unregistered. */
struct rec_ksymbol {
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type;	/* PERF_RECORD_KSYMBOL_TYPE_* (1 BPF, 2 OOL) */
	uint16_t flags;		/* 1: unregister */
	const char *name;
};

/* BPF_EVENT: a BPF program loaded or unloaded. */
struct rec_bpf_event {
	uint16_t type;		/* PERF_BPF_EVENT_PROG_LOAD 1, _UNLOAD 2 */
	uint16_t flags;
	uint32_t id;
	uint8_t tag[8];
};

/* CGROUP: a cgroup id and its path. */
struct rec_cgroup {
	uint64_t id;
	const char *path;
};

/* TEXT_POKE: kernel text changed at addr (old bytes, then new bytes). */
struct rec_text_poke {
	uint64_t addr;
	uint16_t old_len, new_len;
	const uint8_t *bytes;	/* old_len + new_len bytes */
};

/* ITRACE_START: the task whose instruction trace starts. */
struct rec_itrace_start {
	uint32_t pid, tid;
};

/*
 * AUXTRACE: the trace data (size bytes) follows the record in the file; the reader skips it,
 * or with perf_file__set_auxtrace hands it out in @data (valid until the next record).
 */
struct rec_auxtrace {
	uint64_t size, offset, reference;
	uint32_t idx, tid, cpu;
	const void *data;
};

/**
 * struct record - one record from perf.data, decoded.
 * @type:	enum record_type
 * @misc:	perf_event_header.misc
 * @offset:	byte offset of the record in the file (in a decompressed stream: of the
 *		COMPRESSED record that carried it), for error messages
 * @sample:	for every kernel record type of an event with sample_id_all, the trailing
 *		sample_id fields are decoded into sample (pid/tid/time/id/stream_id/cpu)
 */
struct record {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
	uint64_t offset;
	struct sample sample;
	bool has_sample_id;
	union {
		struct rec_mmap mmap;
		struct rec_comm comm;
		struct rec_task task;
		struct rec_lost lost;
		struct rec_throttle throttle;
		struct rec_switch sw;
		struct rec_namespaces ns;
		struct rec_aux aux;
		struct rec_auxtrace auxtrace;
		struct rec_ksymbol ksymbol;
		struct rec_bpf_event bpf;
		struct rec_cgroup cgroup;
		struct rec_text_poke text_poke;
		struct rec_itrace_start itrace;
		uint64_t feature_id;	/* HEADER_FEATURE */
	};
	const void *payload;	/* the raw record after its 8-byte header */
};

#endif
