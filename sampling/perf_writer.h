/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_PERF_WRITER_H
#define LINEUP_SAMPLING_PERF_WRITER_H

/*
 * perf_writer - writes a perf.data file (file mode, or pipe mode with perf_writer__open_pipe;
 * host endianness) that perf 6.1 reads.
 *
 * Depends on libc and sampling/event.h only, so the software collector's runtime (linked into
 * user programs) links it too: it lives in its own sampling/libperfwriter.a.
 *
 * Life of a writer:
 *	w = perf_writer__new();
 *	perf_writer__add_event(w, &ev)		(one per event, before open)
 *	perf_writer__open(w, path)		(writes a provisional header)
 *	perf_writer__sample/mmap/comm/...	(streamed through a fixed-size buffer)
 *	perf_writer__set_... / __fill_host	(header features; any time before close)
 *	perf_writer__close(w)			(writes attrs, ids, features, fixes the header up)
 *	perf_writer__delete(w)
 *
 * The attrs and ids are written after the data, at close, so events keep their ids open until
 * then; a file never closed (perf_writer__open_fd) has data.size == 0, which perf reports as
 * unfinished.
 *
 * Errors: every function returning int returns 0 or -errno; perf_writer__strerror() then says
 * what was wrong (file, offset, which record or field).  After a write error every later call
 * returns the same error.
 *
 * Ownership: the writer copies every string and array it is given; the caller keeps its own.
 *
 * Concurrency: a writer is not thread-safe (callers serialize), and perf_writer__close
 * allocates, so it is not async-signal-safe.  perf_writer.c never calls perf_writer_host.c:
 * a runtime may compile perf_writer.c alone.
 *
 * Samples: struct sample (sampling/event.h) is encoded with the sample_type of its event
 * (sample->evsel), in kernel order; sample->present is ignored.  The header's misc is
 * (sample->misc & ~CPUMODE_MASK) | sample->cpumode.  WEIGHT_STRUCT takes weight (low 32
 * bits), ins_lat and retire_lat.  READ takes read_values: all the raw words of the read_format
 * part, for PERF_FORMAT_GROUP starting with nr (read_nr gives nr).  RAW is padded, as the
 * kernel does, so that 4 + raw_size is a multiple of 8.  STACK_USER's size must be a multiple
 * of 8.  AUX samples are written with an empty aux part.
 *
 * Other records take an optional struct sample @sid for their sample_id_all trailer (the
 * event is sid->evsel; NULL: event 0 with every field 0 but id, which is the event's first).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sampling/event.h"

struct perf_writer;

/* Header feature ids: enum perf_feature in sampling/event.h. */

/* perf_event_attr.type values. */
enum {
	PW_TYPE_HARDWARE = 0,
	PW_TYPE_SOFTWARE = 1,
	PW_TYPE_TRACEPOINT = 2,
	PW_TYPE_HW_CACHE = 3,
	PW_TYPE_RAW = 4,
	PW_TYPE_BREAKPOINT = 5,
};

/* read_format bits. */
enum {
	PW_FORMAT_TOTAL_TIME_ENABLED = 1 << 0,
	PW_FORMAT_TOTAL_TIME_RUNNING = 1 << 1,
	PW_FORMAT_ID = 1 << 2,
	PW_FORMAT_GROUP = 1 << 3,
	PW_FORMAT_LOST = 1 << 4,
};

/* branch_sample_type bit that adds hw_idx to BRANCH_STACK samples. */
#define PW_BRANCH_HW_INDEX (1ULL << 17)

/**
 * struct perf_writer_event - one event (a perf_event_attr and its ids).
 * @name:	the name perf shows (EVENT_DESC), e.g. "cpu/mem-loads,ldlat=30/P"
 * @raw_attr:	when set, a kernel struct perf_event_attr of @raw_attr_size bytes written as is
 *		(the recorder passes the attr it opened); the fields below are then ignored except
 *		@name and @ids
 * @precise_ip:	0..3 (the P modifiers)
 * @ids:	the event's sample ids (one per opened fd); none: the writer assigns one
 */
struct perf_writer_event {
	const char *name;
	const void *raw_attr;
	uint32_t raw_attr_size;
	uint32_t type;
	uint64_t config, config1, config2;
	uint64_t sample_period;		/* or sample_freq when @freq */
	uint64_t sample_type;		/* enum sample_field bits */
	uint64_t read_format;
	uint64_t branch_sample_type;
	uint64_t sample_regs_user, sample_regs_intr;
	uint32_t sample_stack_user;
	uint32_t precise_ip;
	bool freq, disabled, inherit, exclude_user, exclude_kernel, exclude_hv, exclude_idle;
	bool mmap, mmap2, mmap_data, comm, comm_exec, task, sample_id_all, enable_on_exec;
	const uint64_t *ids;
	uint32_t nr_ids;
};

struct perf_writer *perf_writer__new(void);
void perf_writer__delete(struct perf_writer *w);
/* The last error's message ("" when none). */
const char *perf_writer__strerror(const struct perf_writer *w);

/*
 * Add an event; returns its index (the sample's evsel) or -errno.  With several events,
 * every one must place its id at the same position (SF_IDENTIFIER does), as perf requires,
 * and all must agree on sample_id_all.
 */
int perf_writer__add_event(struct perf_writer *w, const struct perf_writer_event *ev);
/*
 * Add the two events of an Intel `perf c2c record`, named and encoded as perf does:
 * "cpu/mem-loads,ldlat=LDLAT/P" (raw 0x1cd, config1 = ldlat, precise 2) and
 * "cpu/mem-stores/P" (raw 0x82d0), sampling IDENTIFIER|IP|TID|TIME|ADDR|CPU|PERIOD|DATA_SRC|
 * WEIGHT|PHYS_ADDR plus @extra_sample_type, period 1, sample_id_all, and the side-band flags
 * (mmap, mmap2, mmap_data, comm, task) on the load event.  perf c2c report itself accepts any
 * event with DATA_SRC; these names are what perf and people expect to see.  Sets *load and
 * *store to the evsel indexes; 0 or -errno.
 */
int perf_writer__add_c2c_events(struct perf_writer *w, unsigned int ldlat,
				uint64_t extra_sample_type, int *load, int *store);
/* Add one more id to event @evsel (another fd of the same event). */
int perf_writer__add_id(struct perf_writer *w, int evsel, uint64_t id);
/* The event's first id (what a sample's id/identifier should carry). */
uint64_t perf_writer__event_id(const struct perf_writer *w, int evsel);

/*
 * Write the file @path: a new file is created beside it (".NAME.XXXXXX" in its directory, mode
 * 0600, O_EXCL) and renamed to @path by a successful perf_writer__close, so what was at @path
 * stays whole until then, and a symbolic link there is replaced, never written through.
 * Refused when @path is a directory, a device, a FIFO or a socket.  A writer deleted before
 * its close removes the new file.
 */
int perf_writer__open(struct perf_writer *w, const char *path);
/*
 * Before a recording to @path, as perf record does: check that its directory takes a new file,
 * and move an existing non-empty regular file to PATH.old.  Anything else at @path (a
 * directory, a link, a device) is refused: 0, or -errno with the reason in @err.
 */
int perf_writer__prepare_output(const char *path, char *err, size_t errlen);
/* Same on an open regular file (written with pwrite from offset 0, truncated first). */
int perf_writer__open_fd(struct perf_writer *w, int fd);
/*
 * Pipe mode, on any fd (a pipe, a socket, stdout), written strictly in sequence as perf
 * record -o - writes it: the pipe header, a HEADER_ATTR record per event (so every event and
 * id must be known at this call), a HEADER_FEATURE record per feature set so far and perf's
 * end mark, HEADER_TRACING_DATA, HEADER_BUILD_ID records, FINISHED_INIT; then the records.
 * At close, features set after open (SAMPLE_TIME, ...) and later build-ids follow the data.
 * Set the header features before this call where the reader needs them early.
 */
int perf_writer__open_pipe(struct perf_writer *w, int fd);
/* Write everything that is buffered, the attrs, the features and the final header; closes
 * the file when perf_writer__open opened it (pipe mode: the last header records). */
int perf_writer__close(struct perf_writer *w);

/* Records. */
int perf_writer__sample(struct perf_writer *w, const struct sample *s);
/* MMAP or MMAP2 by m->is_mmap2; @misc: cpumode and MISC_MMAP_DATA (1 << 13) bits. */
int perf_writer__mmap(struct perf_writer *w, uint16_t misc, const struct rec_mmap *m,
		      const struct sample *sid);
int perf_writer__comm(struct perf_writer *w, const struct rec_comm *c, const struct sample *sid);
/* @type: REC_FORK or REC_EXIT. */
int perf_writer__task(struct perf_writer *w, uint32_t type, const struct rec_task *t,
		      const struct sample *sid);
int perf_writer__lost(struct perf_writer *w, const struct rec_lost *l, const struct sample *sid);
int perf_writer__finished_round(struct perf_writer *w);
/* A whole record (its 8-byte header included, size from it), copied as is: the recorder passes
 * the kernel's own records through. */
int perf_writer__raw_record(struct perf_writer *w, const void *rec);

/* TIME_CONV (perf_event_mmap_page's time fields): perf converts AUX trace timestamps with it. */
struct perf_writer_time_conv {
	uint64_t time_shift, time_mult, time_zero, time_cycles, time_mask;
	bool cap_user_time_zero, cap_user_time_short;
};
int perf_writer__time_conv(struct perf_writer *w, const struct perf_writer_time_conv *tc);
/* AUXTRACE_INFO: the trace @type (4: Arm SPE) and its priv words. */
int perf_writer__auxtrace_info(struct perf_writer *w, uint32_t type, const uint64_t *priv,
			       uint32_t nr_priv);
/*
 * AUXTRACE: the record (size, offset, reference, idx, tid, cpu from @a), then a->size bytes of
 * @data, zero-padded to a multiple of 8 (the record's size says the padded size, as perf
 * record writes it).  In file mode each one goes into the AUXTRACE feature, the index perf
 * reads to queue the trace before the records.
 */
int perf_writer__auxtrace(struct perf_writer *w, const struct rec_auxtrace *a, const void *data);

/* Header features. Each setter replaces what was set before. */
int perf_writer__set_string(struct perf_writer *w, enum perf_feature feat, const char *s);
void perf_writer__set_nrcpus(struct perf_writer *w, uint32_t avail, uint32_t online);
void perf_writer__set_total_mem(struct perf_writer *w, uint64_t kb);
void perf_writer__set_cmdline(struct perf_writer *w, int argc, const char *const *argv);
/* SAMPLE_TIME; without it, the first and last sample times written are used. */
void perf_writer__set_sample_time(struct perf_writer *w, uint64_t first, uint64_t last);
void perf_writer__set_tracing_data(struct perf_writer *w, const void *data, size_t size);

/**
 * struct perf_writer_cpu_topology - CPU_TOPOLOGY.
 * @core_sibs:	one cpu list per package ("0-3"), perf's "sibling sockets"
 * @thread_sibs: one cpu list per core ("0,4"), "sibling threads"
 * @die_sibs:	one cpu list per die; nr_die_sibs 0 leaves the die part out
 * @core_id, @socket_id, @die_id: per CPU, nr_cpus entries (nr_cpus is NRCPUS' avail)
 */
struct perf_writer_cpu_topology {
	uint32_t nr_core_sibs, nr_thread_sibs, nr_die_sibs;
	const char *const *core_sibs;
	const char *const *thread_sibs;
	const char *const *die_sibs;
	uint32_t nr_cpus;
	const uint32_t *core_id, *socket_id, *die_id;
};
int perf_writer__set_cpu_topology(struct perf_writer *w, const struct perf_writer_cpu_topology *t);
/* NUMA_TOPOLOGY: one node; memory in kB; @cpus a cpu list ("0-3,8"). */
int perf_writer__add_numa_node(struct perf_writer *w, uint32_t node, uint64_t mem_total_kb,
			       uint64_t mem_free_kb, const char *cpus);
/* CACHE: one cache; @type "Data"/"Instruction"/"Unified", @size "32K", @map "0-1". */
int perf_writer__add_cache(struct perf_writer *w, uint32_t level, uint32_t line_size,
			   uint32_t sets, uint32_t ways, const char *type, const char *size,
			   const char *map);
/* MEM_TOPOLOGY: the memory block size, then per node the set of memory blocks (bit i = block
 * i, @nbits bits in u64 words). */
void perf_writer__set_mem_block_size(struct perf_writer *w, uint64_t bytes);
int perf_writer__add_mem_node(struct perf_writer *w, uint64_t node, const uint64_t *blocks,
			      uint64_t nbits);
/* BUILD_ID: @cpumode CPUMODE_USER or CPUMODE_KERNEL, @pid -1 for the host kernel. */
int perf_writer__add_build_id(struct perf_writer *w, int32_t pid, uint16_t cpumode,
			      const uint8_t *build_id, uint8_t size, const char *filename);

/*
 * Fill every feature above from the running machine: uname, /proc/cpuinfo, /proc/meminfo,
 * and the topology, NUMA, cache and memory-block trees under @sysfs ("/sys" when NULL).
 * What cannot be read is left out.  Does not set CMDLINE, BUILD_ID or SAMPLE_TIME.
 */
int perf_writer__fill_host(struct perf_writer *w, const char *sysfs);

/*
 * Read the GNU build-id note of the ELF file @path (32/64-bit, either endianness), into
 * @out (20 bytes at most); returns its size, 0 when the file has none, or -errno.
 */
int perf_writer__read_build_id(const char *path, uint8_t out[20]);

/* Statistics, for tests and notes. */
uint64_t perf_writer__nr_samples(const struct perf_writer *w);
uint64_t perf_writer__data_size(const struct perf_writer *w);

#endif
