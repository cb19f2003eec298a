/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_PERF_FILE_H
#define LINEUP_SAMPLING_PERF_FILE_H

/*
 * The perf.data reader: file mode and pipe mode, either endianness, every attr size perf ever
 * wrote, the header feature sections, and then the records one by one in file order, decoded
 * into struct record (sampling/event.h).  One pass, memory bounded by a read window (plus the
 * header facts): the file is never held in memory whole.
 *
 *	struct perf_file *pf;
 *	char err[PERF_FILE_ERRMAX];
 *	if (perf_file__open(&pf, path, err, sizeof(err)) < 0) -> print err, exit 2
 *	const struct perf_header_info *h = perf_file__header(pf);
 *	struct record rec;
 *	while ((rc = perf_file__next_record(pf, &rec)) > 0) ... use rec ...
 *	if (rc < 0) -> print perf_file__errmsg(pf)
 *	perf_file__close(pf);
 *
 * Every length, count, index and offset read from the file is checked; errors name the file,
 * the byte offset and what was wrong.  In pipe mode the header facts arrive as records
 * (HEADER_ATTR, HEADER_FEATURE, HEADER_TRACING_DATA, EVENT_UPDATE, ID_INDEX); the reader
 * applies them to the header info as it meets them and still hands each record out, so
 * perf_file__header() grows while reading.  A file-mode perf.data read through a pipe keeps
 * what precedes its data (header, ids, attrs: as perf lays them out) and reads its feature
 * sections after the last record (h->header_at_end); a file whose attrs follow the data cannot
 * be streamed and gets a clear error.  Records come in file order, not time order:
 * FINISHED_ROUND records are handed out for consumers that want to sort by time.
 *
 * Ownership: the reader owns everything it hands out.  A struct record's pointers are valid
 * until the next perf_file__next_record(); the header info lives until perf_file__close()
 * (though its arrays may be reallocated when a pipe-mode header record arrives, so do not keep
 * pointers to its elements across perf_file__next_record() in pipe mode).
 *
 * Byte order: everything handed out is in host order, except the bytes of RAW (tracepoint
 * payloads: tell libtraceevent h->big_endian), STACK_USER and AUX, which are as recorded.  For a
 * big-endian file the u64 arrays a sample points to are swapped in place in the record's
 * payload: a copy of a payload must not be swapped (decoded with swap) a second time.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sampling/event.h"

#define PERF_FILE_ERRMAX 512

/* perf_event_attr flag bits (the bitfield word after read_format), kernel bit numbers. */
enum perf_attr_flag {
	ATTR_DISABLED = 0,
	ATTR_INHERIT = 1,
	ATTR_PINNED = 2,
	ATTR_EXCLUSIVE = 3,
	ATTR_EXCLUDE_USER = 4,
	ATTR_EXCLUDE_KERNEL = 5,
	ATTR_EXCLUDE_HV = 6,
	ATTR_EXCLUDE_IDLE = 7,
	ATTR_MMAP = 8,
	ATTR_COMM = 9,
	ATTR_FREQ = 10,
	ATTR_INHERIT_STAT = 11,
	ATTR_ENABLE_ON_EXEC = 12,
	ATTR_TASK = 13,
	ATTR_WATERMARK = 14,
	ATTR_PRECISE_IP = 15,		/* two bits: 15..16 */
	ATTR_MMAP_DATA = 17,
	ATTR_SAMPLE_ID_ALL = 18,
	ATTR_EXCLUDE_HOST = 19,
	ATTR_EXCLUDE_GUEST = 20,
	ATTR_EXCLUDE_CALLCHAIN_KERNEL = 21,
	ATTR_EXCLUDE_CALLCHAIN_USER = 22,
	ATTR_MMAP2 = 23,
	ATTR_COMM_EXEC = 24,
	ATTR_USE_CLOCKID = 25,
	ATTR_CONTEXT_SWITCH = 26,
	ATTR_WRITE_BACKWARD = 27,
	ATTR_NAMESPACES = 28,
	ATTR_KSYMBOL = 29,
	ATTR_BPF_EVENT = 30,
	ATTR_AUX_OUTPUT = 31,
	ATTR_CGROUP = 32,
	ATTR_TEXT_POKE = 33,
	ATTR_BUILD_ID = 34,
	ATTR_INHERIT_THREAD = 35,
	ATTR_REMOVE_ON_EXEC = 36,
	ATTR_SIGTRAP = 37,
};

/* perf_event_attr.type values. */
enum perf_attr_type {
	ATTR_TYPE_HARDWARE = 0,
	ATTR_TYPE_SOFTWARE = 1,
	ATTR_TYPE_TRACEPOINT = 2,
	ATTR_TYPE_HW_CACHE = 3,
	ATTR_TYPE_RAW = 4,
	ATTR_TYPE_BREAKPOINT = 5,
};

/* read_format bits. */
enum perf_read_format {
	READ_FORMAT_TOTAL_TIME_ENABLED = 1 << 0,
	READ_FORMAT_TOTAL_TIME_RUNNING = 1 << 1,
	READ_FORMAT_ID = 1 << 2,
	READ_FORMAT_GROUP = 1 << 3,
	READ_FORMAT_LOST = 1 << 4,
};

/* branch_sample_type bit that puts hw_idx before the branch entries. */
#define BRANCH_SAMPLE_HW_INDEX (1ULL << 17)

/* The sizes perf_event_attr has had (PERF_ATTR_SIZE_VER0..VER8). */
#define PERF_ATTR_SIZE_VER0 64
#define PERF_ATTR_SIZE_LATEST 136

/**
 * struct perf_attr - a perf_event_attr, decoded to host order whatever size the file used;
 * fields beyond the file's attr size are zero.
 * @flags:	the bitfield word, bit n = enum perf_attr_flag n
 */
struct perf_attr {
	uint32_t type;
	uint32_t size;
	uint64_t config;
	uint64_t sample_period;		/* or sample_freq when ATTR_FREQ */
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t flags;
	uint32_t wakeup_events;
	uint32_t bp_type;
	uint64_t config1;		/* bp_addr */
	uint64_t config2;		/* bp_len */
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
	uint32_t aux_sample_size;
	uint64_t sig_data;
	uint64_t config3;
};

static inline bool perf_attr__flag(const struct perf_attr *a, enum perf_attr_flag bit)
{
	return (a->flags >> bit) & 1;
}

static inline unsigned int perf_attr__precise_ip(const struct perf_attr *a)
{
	return (a->flags >> ATTR_PRECISE_IP) & 3;
}

/**
 * struct perf_evsel - one event (attr) of the recording.
 * @idx:	index in perf_header_info.evsels, the value of struct sample.evsel
 * @name:	from EVENT_DESC / EVENT_UPDATE when the file names it, else perf's default
 *		name built from the attr ("cycles:u", "L1-dcache-load-misses", "raw 0x1cd")
 * @ids:	the sample ids that belong to this event
 */
struct perf_evsel {
	uint32_t idx;
	char *name;
	struct perf_attr attr;
	uint64_t *ids;
	uint32_t nr_ids;
	/* EVENT_UPDATE facts (pipe mode and some file-mode recordings). */
	char *unit;
	/* The name before an EVENT_UPDATE renamed the event (NULL: never renamed): what perf
	 * report --stats prints, since its tool does not apply event updates. */
	char *name_before_update;
	double scale;
	char *cpus;			/* cpu list as text, or NULL */
};

/* Header feature ids: enum perf_feature in sampling/event.h. */

/* Name of a feature as perf prints it ("HOSTNAME"), or NULL when unknown. */
const char *perf_feature__name(unsigned int feat);

struct perf_cpu_topo {		/* one CPU of CPU_TOPOLOGY */
	int32_t core_id, socket_id, die_id;	/* -1 when the file does not say */
};

struct perf_numa_node {
	uint32_t node;
	uint64_t mem_total, mem_free;	/* kB */
	char *cpus;			/* cpu list as text ("0-7,16-23") */
};

struct perf_cache_level {
	uint32_t level, line_size, sets, ways;
	char *type, *size, *map;	/* "Data", "32K", "0,56" */
};

struct perf_mem_node {
	uint64_t node, size;
	uint64_t nr_bits;		/* memory blocks in the bitmap */
	uint64_t *bitmap;		/* (nr_bits + 63) / 64 words */
};

struct perf_group_desc {
	char *name;
	uint32_t leader_idx, nr_members;
};

struct perf_hybrid_node {
	char *pmu_name, *cpus;
};

struct perf_pmu_mapping {
	uint32_t type;
	char *name;
};

struct perf_pmu_caps {
	char *pmu_name;			/* "cpu" for CPU_PMU_CAPS */
	uint32_t nr_caps;
	char **caps;			/* "name=value" */
};

struct perf_build_id {
	int32_t pid;
	uint16_t misc;			/* cpumode bits */
	uint8_t size;			/* bytes of build_id used */
	uint8_t build_id[20];
	char *filename;
};

/**
 * struct perf_header_info - the facts of one recording, in lineup's own terms.
 * @features:	bitmap of the features the file carries (bit n = enum perf_feature n)
 * @cache_line_size: coherency line size of the level-1 data cache from CACHE, 0 if unknown
 * @tracing_data: the raw TRACING_DATA bytes (for the libtraceevent decoder), or NULL
 */
struct perf_header_info {
	bool pipe;
	bool big_endian;		/* recorded on a big-endian machine: everything swapped */
	bool header_at_end;		/* a file-mode perf.data read through a pipe: its
					   features are known after the last record */
	uint64_t file_size;		/* 0 for a pipe */
	int64_t mtime;			/* file modification time, for "captured on" */
	uint64_t header_size, attr_size;
	uint64_t data_offset, data_size, feat_offset;
	uint64_t features[FEAT_BITS / 64];

	struct perf_evsel *evsels;
	uint32_t nr_evsels;
	size_t evsels_cap;

	char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	uint32_t nr_cpus_online, nr_cpus_avail;
	uint64_t total_mem;		/* kB */
	char **cmdline;
	uint32_t nr_cmdline;

	/* CPU_TOPOLOGY */
	char **core_siblings, **thread_siblings, **die_siblings;
	uint32_t nr_core_siblings, nr_thread_siblings, nr_die_siblings;
	struct perf_cpu_topo *cpu_topo;	/* nr_cpu_topo entries, indexed by cpu */
	uint32_t nr_cpu_topo;

	struct perf_numa_node *numa_nodes;
	uint32_t nr_numa_nodes;

	uint32_t cache_version;
	struct perf_cache_level *caches;
	uint32_t nr_caches;
	uint32_t cache_line_size;

	uint64_t sample_time_first, sample_time_last;

	uint64_t mem_version, mem_block_size;
	struct perf_mem_node *mem_nodes;
	uint32_t nr_mem_nodes;

	struct perf_group_desc *groups;
	uint32_t nr_groups;

	struct perf_hybrid_node *hybrid_nodes;
	uint32_t nr_hybrid_nodes;

	struct perf_pmu_mapping *pmu_mappings;
	uint32_t nr_pmu_mappings;

	struct perf_pmu_caps cpu_pmu_caps;	/* CPU_PMU_CAPS (pmu_name "cpu") */
	struct perf_pmu_caps *pmu_caps;		/* PMU_CAPS */
	uint32_t nr_pmu_caps;

	struct perf_build_id *build_ids;
	uint32_t nr_build_ids;

	uint64_t clockid;		/* CLOCKID: clock resolution in ns */
	uint64_t dir_version;		/* DIR_FORMAT: a perf record --threads directory */

	bool has_compressed;
	uint32_t comp_version, comp_type, comp_level, comp_ratio, comp_mmap_len;

	void *tracing_data;
	uint64_t tracing_data_size;
};

static inline bool perf_header__has_feat(const struct perf_header_info *h, unsigned int feat)
{
	return feat < FEAT_BITS && ((h->features[feat / 64] >> (feat % 64)) & 1);
}

struct perf_file;

/*
 * Open @path ("-" reads standard input; a directory is perf record --threads' DIR/data followed
 * by DIR/data.N) and read its header: file header, attrs and their ids, and the feature sections
 * (file mode) or the pipe header (pipe mode).  Returns 0 and sets *pfp, or -errno with a message
 * in @err (file, byte offset, what was wrong).  A regular file is read through mmap windows,
 * anything else through read().
 */
int perf_file__open(struct perf_file **pfp, const char *path, char *err, size_t errsz);

/*
 * The same on a buffer in memory (tests, fuzzing); @name is used in messages.  The buffer must
 * stay valid until perf_file__close().
 */
int perf_file__open_mem(struct perf_file **pfp, const void *buf, size_t size, const char *name,
			char *err, size_t errsz);

/* The same, reading the buffer front to back as if it came through a pipe. */
int perf_file__open_mem_stream(struct perf_file **pfp, const void *buf, size_t size,
			       const char *name, char *err, size_t errsz);

/* Returns 1 with the next record in @rec, 0 at the end of the data, -errno on error. */
int perf_file__next_record(struct perf_file *pf, struct record *rec);

/* The message of the last error ("FILE: at byte N (0xN): what was wrong"). */
const char *perf_file__errmsg(const struct perf_file *pf);

const struct perf_header_info *perf_file__header(const struct perf_file *pf);

/* The file offset of the next record to read (of the data section in a file-mode file). */
uint64_t perf_file__offset(const struct perf_file *pf);

/*
 * Hand SAMPLE records out undecoded: only rec.sample.evsel, misc and cpumode are set (present
 * is 0) and the caller decodes rec.payload (rec.size - 8 bytes) with perf_sample__decode() or
 * its own fixed-layout reader.  For readers that need a few fields of millions of samples.
 */
void perf_file__set_raw_samples(struct perf_file *pf, bool raw);
/* Decode a raw SAMPLE record in place (once): 0, or -EINVAL with perf_file__errmsg() set. */
int perf_file__decode_sample(struct perf_file *pf, struct record *rec);

/*
 * AUX area traces, as perf c2c report reads them (on by default): an Arm SPE trace
 * (AUXTRACE_INFO type 4 naming an event of the file) adds an event named "memory" to the
 * header, and its AUXTRACE records come with their data (rec.auxtrace.data, valid until the
 * next record), each followed by the SAMPLE records of the "memory" event decoded from it, one
 * per load or store (sampling/arm_spe.h).  They come in file order, so a consumer sorts them by
 * time with the rest, as perf's auxtrace queues interleave them.  Their rec.offset is the
 * AUXTRACE record's; their payload is a real sample encoding in the file's byte order
 * (raw-sample readers decode it as any other).  A bad packet is an error naming its byte
 * offset in the file.  Other AUX traces are skipped.  @on false: SPE traces are skipped too.
 */
void perf_file__set_auxtrace(struct perf_file *pf, bool on);

/* Event index of a sample id, or -1 when no event has that id. */
int perf_file__evsel_of_id(const struct perf_file *pf, uint64_t id);

/**
 * struct perf_id_info - what the recording says about one sample id.
 * @evsel:	the event it belongs to
 * @cpu, @tid:	where it counted, from ID_INDEX (-1 when the file has no ID_INDEX entry)
 * @mmap_idx:	the ring buffer it was read from (ID_INDEX idx)
 */
struct perf_id_info {
	int32_t evsel;
	int32_t cpu, tid;
	uint32_t mmap_idx;
};

/* Fill @out for @id: 0, or -1 when no event has that id. */
int perf_file__id_info(const struct perf_file *pf, uint64_t id, struct perf_id_info *out);

void perf_file__close(struct perf_file *pf);

/* perf's name for a record type ("SAMPLE", "MMAP2", "FINISHED_ROUND"), NULL when unknown. */
const char *perf_record__type_name(uint32_t type);

/*
 * Decode @size bytes of a PERF_RECORD_SAMPLE payload (after the 8-byte header) for an event
 * with attr @attr into @s.  @swap: the bytes are big-endian (the payload is swapped in place,
 * so it must be writable and 8-byte aligned).  Returns 0, or -EINVAL with a message in @why.
 * Exposed for unit tests; perf_file__next_record() does this for every sample.
 */
int perf_sample__decode(const struct perf_attr *attr, void *payload, size_t size, bool swap,
			struct sample *s, const char **why);

/*
 * Decode a perf_event_attr of @size bytes at @p (@swap: big-endian) into @out.  Returns 0, or
 * -EINVAL when @size is too small to be an attr.
 */
int perf_attr__decode(const void *p, size_t size, bool swap, struct perf_attr *out);

/* perf's default name of an event from its attr ("cycles:ppp", "dummy:HG"), into @buf. */
void perf_attr__default_name(const struct perf_attr *attr, char *buf, size_t size);

#endif
