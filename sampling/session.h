/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_SESSION_H
#define LINEUP_SAMPLING_SESSION_H

/*
 * The session: one recording, opened once and read once, its samples handed to a tool's
 * callbacks in perf's order and resolved as perf resolves them (perf's perf_session +
 * perf_tool).  Every command that reads samples goes through it:
 *
 *   perf.data ─► sampling/perf_file.h      records in file order; header facts
 *             ─► session__stats            counted as read (perf report --stats)
 *             ─► sampling/ordered_events.h time order, perf's rounds (FINISHED_ROUND)
 *             ─► sampling/machine.h        MMAP, COMM, FORK, EXIT, KSYMBOL applied in time
 *                                          order
 *             ─► tool->side_sample         every sample, first (allocation records...)
 *             ─► filters                   --time --pid --tid --cpu, then --comm
 *             ─► resolution                the thread and the ip's map (machine__resolve);
 *                                          on request the call chain's maps
 *             ─► tool->sample              struct session_sample
 *
 * So a sample is resolved against the maps as they were when it was taken, not as they are
 * at the end: a library unmapped and another mapped at its address later gives each period's
 * samples their own object.  Allocation records come before the samples they explain too.
 *
 *	struct session *s;
 *	struct session_opts so = { .path = "perf.data" };
 *	if (session__open(&s, &so, err, sizeof(err)) < 0) -> print err
 *	session__set_filter(s, &filter);		(optional: struct session_filter)
 *	struct session_tool tool = { .ctx = me, .sample = my_sample };
 *	if (session__run(s, &tool) < 0) -> print session__errmsg(s)
 *	... session__machine(s) for what was kept ...
 *	session__close(s);
 *
 * The filters are parsed here too (session_filter__parse_*), so every front end reads
 * "--time 1.5,2" and "--cpu 0-3,8" alike.
 *
 * Ownership: the session owns the reader, the machine and everything they
 * hand out (threads, maps and dsos stay valid until session__close, so a tool may keep them);
 * a struct session_sample and what its sample points to are valid only during the callback.
 * @opts' strings and the filter's lists must outlive the session.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sampling/event.h"
#include "sampling/machine.h"

struct perf_header_info;
struct session;

/**
 * struct session_opts - what to open and where to look for objects.
 * @path:	the perf.data ("-": stdin)
 * @no_auxtrace: skip AUX traces (Arm SPE) instead of decoding their samples (perf report
 *		--stats and --header-only count only what the file holds)
 */
struct session_opts {
	const char *path;
	bool no_auxtrace;
};

/**
 * struct session_filter - which samples reach the tool (perf's --time, --pid, --tid, --cpu,
 * --comm); an empty list lets everything through.
 * @time_start, @time_end: inclusive, in ns, when @has_time (samples without a time fail it)
 * @pids, @tids, @cpus: sorted, without duplicates (session_filter__parse_list keeps them so)
 * @comms:	the thread's command name at the sample's time
 */
struct session_filter {
	bool has_time;
	uint64_t time_start, time_end;
	int64_t *pids, *tids, *cpus;
	size_t nr_pids, nr_tids, nr_cpus;
	char **comms;
	size_t nr_comms;
};

/* "0-3,8" or "12,15" added to @list: 0, or -EINVAL when @s is not such a list. */
int session_filter__parse_list(const char *s, int64_t **list, size_t *nr);
/*
 * "START,END" in seconds as perf script prints them, either may be empty: 0, -EINVAL when it
 * is not that, -ERANGE when START is after END.
 */
int session_filter__parse_time(struct session_filter *f, const char *s);
/* "comm1,comm2" added to the names. */
void session_filter__add_comms(struct session_filter *f, const char *s);
bool session_filter__empty(const struct session_filter *f);
void session_filter__release(struct session_filter *f);

/**
 * struct session_sample - one sample as a tool gets it.
 * @sample:	the decoded sample (in a compact session only ip, pid/tid, time, addr, cpu,
 *		period, weight, data_src, phys_addr and the call chain are set; evsel, cpumode
 *		and present are always set)
 * @period:	perf's sample->period: PERIOD, else the event's sample_period
 * @al:		the thread and the ip's map in the sample's cpumode, at the sample's time
 *		(perf's machine__resolve); al.thread is never NULL
 */
struct session_sample {
	const struct sample *sample;
	uint64_t period;
	struct addr_loc al;
};

/**
 * struct session_tool - what a command does with the recording (perf's struct perf_tool).
 * @ctx:	handed to the callbacks
 * @sample:	each sample that passes the filters, resolved; a non-zero return stops the run
 *		and session__run returns it
 * @side_sample: each sample, before the filters and before @sample, decoded: true when the
 *		tool takes it for itself (an allocation record, a counter of its own), so that
 *		it goes no further
 * @unordered:	deliver in file order (perf's ordered_events = false)
 * @compact:	the tool needs only the fields listed at struct session_sample (and no
 *		@side_sample): samples are read straight from fixed-layout payloads and queued
 *		64 bytes each, the fast path for millions of memory samples
 * @callchains:	keep the call chains of a compact session (frame pointers only)
 */
struct session_tool {
	void *ctx;
	int (*sample)(void *ctx, struct session *s, const struct session_sample *ss);
	bool (*side_sample)(void *ctx, struct session *s, const struct sample *sample);
	bool unordered;
	bool compact;
	bool callchains;
};

/* perf's call-chain modes (setup_callchain): only frame pointers are resolved here. */
enum session_callchain {
	SESSION_CC_NONE,	/* no event has CALLCHAIN */
	SESSION_CC_FP,		/* frame pointers: resolved by session__callchain */
	SESSION_CC_UNSUPPORTED,	/* DWARF (REGS_USER + STACK_USER) or LBR (BRANCH_STACK) */
};

/* perf's PERF_MAX_STACK_DEPTH: longer chains are dropped, shorter cut at max_stack. */
#define SESSION_MAX_STACK 127

/**
 * struct session_frame - one frame of a resolved call chain, callee first.
 * @dso:	the object, NULL when the address is in no map
 * @sym:	the ELF symbol's name, NULL when none covers it; @sym_start its start
 */
struct session_frame {
	uint64_t ip;
	const struct dso *dso;
	uint64_t addr;		/* @ip in @dso's terms */
	const char *sym;	/* NULL here: pipeline/recording.h names it */
	uint64_t sym_start;
};

/**
 * struct session_stats - the records read, as perf report --stats counts them (u32 each,
 * wrapping as perf's do), in file order and before any filter.
 * @nr_events:	per record type; [0] is the total
 * @nr_samples, @nr_lost_samples: per event (LOST_SAMPLES by its sample id's event), @nr_evsels
 */
struct session_stats {
	uint32_t nr_events[REC_USER_MAX + 1];
	uint32_t *nr_samples, *nr_lost_samples;
	uint32_t nr_evsels;
};

/* 0, or -errno with @err naming the file and what was wrong. */
int session__open(struct session **out, const struct session_opts *opts, char *err,
		  size_t errlen);
void session__close(struct session *s);

/* Only samples that pass @f reach tool->sample (@f is copied; its lists are borrowed). */
void session__set_filter(struct session *s, const struct session_filter *f);

/*
 * Read the whole recording once, handing its samples to @tool.  0; -EINVAL with
 * session__errmsg() set when the file is bad (what is still queued then is not delivered);
 * or the tool's own non-zero return.  Once per session.
 */
int session__run(struct session *s, const struct session_tool *tool);

const char *session__errmsg(const struct session *s);
const char *session__path(const struct session *s);
/*
 * How much of the data section has been read: @done of @total bytes; false when the size is
 * not known beforehand (pipe mode).
 */
bool session__progress(const struct session *s, uint64_t *done, uint64_t *total);
/* The recording's header facts (in pipe mode they grow while the session runs). */
const struct perf_header_info *session__header(const struct session *s);
struct machine *session__machine(struct session *s);
const struct session_stats *session__stats(const struct session *s);

/* Known once the first record is read (pipe mode: once the events are). */
enum session_callchain session__callchain_mode(const struct session *s);

/*
 * The frame-pointer call chain of @ss, resolved at its time as perf's
 * thread__resolve_callchain_sample does (context markers switch the cpumode of the frames
 * after them, an unknown marker empties the chain, at most the running kernel's
 * perf_event_max_stack frames): into @out (SESSION_MAX_STACK entries).  Returns the number.
 */
uint32_t session__callchain(struct session *s, const struct session_sample *ss,
			    struct session_frame *out);

#endif
