/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_RECORDER_H
#define LINEUP_SAMPLING_RECORDER_H

/*
 * The recorder: opens sampling events through libperf (per CPU, following a started
 * workload's threads with inherit, or system-wide), reads the kernel's ring buffers and writes
 * a standard perf.data through the perf writer: the kernel's own records (SAMPLE, MMAP2, COMM,
 * FORK, EXIT, LOST ...) as they come, a FINISHED_ROUND after each pass, COMM/MMAP2 synthesized
 * from /proc for what existed before recording (as perf does), and the header features
 * (host, topology, NUMA, CACHE, memory topology, CMDLINE, EVENT_DESC, build-ids of the files
 * samples hit).  An existing output file becomes OUTPUT.old, as with perf record; output "-"
 * writes pipe mode to stdout (the workload's stdout then goes to stderr).  No libperf type
 * appears in this header.
 */

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * struct recorder_event - one event to open.
 * @name:	the name written to EVENT_DESC
 * @precise_ip:	the highest precision to try; the recorder steps down when refused
 * @period:	sample period; 0: a frequency of @freq Hz (default 4000) for hardware events,
 *		period 1 for software events
 * @group_leader: opened as the leader of a group with the next event (pmu_event's)
 * @raw:	also sample RAW (tracepoints: the payload, decoded with TRACING_DATA)
 * @aux:	an AUX-area event (Arm SPE; one at most): opened per CPU with its AUX area
 *		mapped; its trace goes into the file as AUXTRACE records after an
 *		AUXTRACE_INFO (and TIME_CONV), as perf record writes it; period default 4096
 */
struct recorder_event {
	char name[160];
	uint32_t type;
	uint64_t config, config1, config2;
	uint8_t precise_ip;
	uint64_t period;
	uint32_t freq;
	bool group_leader, raw;
	bool aux;
};

/**
 * struct recorder_opts - what to record.
 * @argv:	the workload (argv[0] looked up in PATH), started by the recorder; NULL with
 *		@system_wide, which then runs until *@stop becomes non-zero
 * @cpu_list:	CPUs to record on ("0-3,6"); NULL: all online CPUs
 * @mmap_pages:	ring buffer data pages per CPU (a power of two; 0: 128)
 * @cmdline:	written to CMDLINE
 * @tracing_data: the TRACING_DATA feature for tracepoint events (tracefs__tracing_data)
 */
struct recorder_opts {
	const char *output;
	struct recorder_event events[8];
	unsigned int nr_events;
	bool system_wide;
	const char *cpu_list;
	bool exclude_kernel, exclude_user;
	unsigned int mmap_pages;
	char **argv;
	int cmdline_argc;
	const char *const *cmdline;
	const void *tracing_data;
	size_t tracing_size;
	volatile sig_atomic_t *stop;
};

struct recorder_stats {
	uint64_t samples, records, lost_records, lost_samples, bytes;
	uint64_t aux_bytes, aux_lost;	/* AUX trace written, and overwritten before read */
	/* PHYS_ADDR was refused (it needs perf_event_paranoid <= 1 or CAP_PERFMON, as kernel
	 * profiling does): recorded without it, so perf c2c's PA cnt column stays 0. */
	bool no_phys_addr;
	/* Kernel samples were refused (perf_event_paranoid > 1): every event excludes the
	 * kernel and hypervisor and is named NAME:u, as perf's fallback does. */
	bool user_only;
	int paranoid;
	int workload_status;	/* wait status of the workload */
	bool workload_run;
	int exec_errno;		/* the workload could not be run (exec's errno), else 0 */
	bool bad_options;	/* the options asked for what cannot be (an offline CPU ...) */
};

/*
 * Record.  Returns 0, or -errno with @err saying what failed (which event could not be
 * opened and why, the file that could not be written, the program that could not be run).
 */
int recorder__run(const struct recorder_opts *o, struct recorder_stats *st, char *err,
		  size_t errlen);

#endif
