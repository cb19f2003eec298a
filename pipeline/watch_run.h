/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_PIPELINE_WATCH_RUN_H
#define LINEUP_PIPELINE_WATCH_RUN_H

/*
 * The watch engine: hardware breakpoints on chosen members of one real object (a kernel slab
 * object followed from kmem:kmem_cache_alloc, a global, or an address), every hit classified
 * load/store/RMW from the instruction that made it, replayed through the coherence model and
 * written as a standard perf.data.  A front end fills @cfg, runs the steps in order and
 * prints the results it leaves in the watch_run (cli/cmd_watch.c, the tables of
 * analyzer/watch_table.h); nothing here prints: what is said comes through @say.
 *
 *	watch_run__init(&r); then r.cfg, r.cmd_argv (the workload's argv), r.say
 *	watch_run__check, __load, __choose_method, __plan, __start, __loop   (each: 0 or a code)
 *	watch_run__stop; watch_run__classify; watch_run__replay; watch_run__write
 *	watch_run__end_workload; watch_run__release
 *
 * Ownership: @cfg's strings and the workload's argv are borrowed; the rest is the run's own.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyzer/watch_object.h"
#include "dwarf/code.h"
#include "pipeline/kobject.h"
#include "sampling/watch.h"
#include "sampling/workload.h"

struct code_reader;
struct rec_mmap;
struct wr_hit;

/* What the steps return: the exit status a command gives for it. */
enum { WATCH_OK = 0, WATCH_NOTHING = 1, WATCH_FAILED = 1, WATCH_BAD = 2 };

enum watch_say { WATCH_SAY_ERROR, WATCH_SAY_USAGE, WATCH_SAY_NOTE };

/* Hits kept in memory for the replay (48 bytes each): beyond, counted and left out. */
#define WATCH_MAX_HITS 50000000ULL
/* A W breakpoint's tag in pair mode: the member index with this bit. */
#define WATCH_PAIR_W 0x40000000
/* Later allocations kept for the --nth hint. */
#define WATCH_MAX_LATER 64
/* Skipped objects given a section of their own; beyond, counted only. */
#define WATCH_MAX_SECTIONS 16
/* An object freed this soon after its allocation is skipped. */
#define WATCH_SKIP_NS 250000000ULL

struct watch_cfg {
	const char *output;
	const char *object, *symbol, *alloc, *comm, *type, *fields, *binary, *method;
	long long pid, nth;
	bool all_fields, quiet, json, csv;
	const char *format;	/* the output format option given (they exclude each other) */
	double rotate, duration;
};

struct site {
	uint64_t ip;
	bool kernel;
	int member;
	struct access_info info;
	uint64_t count;
	uint64_t transfers;	/* of those, accesses that took the line from another CPU */
};

/*
 * An object followed and skipped (freed within WATCH_SKIP_NS of its allocation): its results, kept
 * for its own section of the report.
 */
struct skipped_object {
	struct watch_object o;	/* its members, counts and watch times */
	struct kobject_what what;
	uint64_t late;		/* @what read this long (ns) after its free, or 0 */
	long long nth;		/* its number among the matching allocations */
	uint64_t alloc_time, free_time, life_from;
	uint32_t alloc_tid, free_tid;
	char alloc_comm[32], free_comm[32];
	size_t nr_hits;
};

struct watch_run {
	struct watch_cfg cfg;
	/* what the engine says: an error, a usage error, a note (the front end prints them) */
	void (*say)(void *ctx, enum watch_say kind, const char *msg);
	void *say_ctx;
	bool kernel, pie, pair;
	struct watch_object o;	/* its address 0 until known */
	struct rec_mmap *maps;	/* the user workload's mappings at attach time */
	size_t nr_maps;
	char type_name[128];
	int slots;
	size_t group, nr_groups, group_size;
	uint64_t group_since;	/* CLOCK_MONOTONIC ns when the current group went in */
	struct watcher *w;
	struct workload wl;	/* the workload (CMD), wl.pid 0: none */
	/* allocation following */
	long long nth_seen;
	uint64_t alloc_time, free_time;
	uint32_t alloc_tid, free_tid;
	char alloc_comm[32], free_comm[32];
	bool freed;
	struct watch_alloc alloc_rec, free_rec;	/* written to the perf.data */
	struct kobject_namer *namer;	/* says what each followed kernel object is */
	struct kobject_what what;	/* ... what the current one is */
	char *type_owned, *method_owned, *exe;
	/* hits */
	struct watch_hit *hits;
	int *hit_member;
	size_t nr_hits, hits_cap;
	uint64_t dropped_after_free;
	uint64_t hits_over_cap;	/* hits not kept: more than WATCH_MAX_HITS */
	uint64_t start_ns, end_ns;
	/*
	 * Where the object's life began: its allocation, or the watch's start for an object given
	 * by address (ns on CLOCK_MONOTONIC, as the hits' times); it ends at the free, or at
	 * end_ns.  Cover is the share of that life a member's breakpoint was on.
	 */
	uint64_t life_from;
	/* objects freed within WATCH_SKIP_NS of their allocation, skipped (--alloc without --nth) */
	unsigned int skipped;
	struct skipped_object *skips;	/* the first WATCH_MAX_SECTIONS of them */
	size_t nr_skips;
	/*
	 * --nth chose the object: the allocations that matched after it, followed (while the
	 * workload runs) to tell which N would have watched an object that lived long.
	 */
	bool tracking;
	struct {
		long long nth;
		uint64_t ptr, time, free_time;	/* free_time 0: not freed (yet) */
	} later[WATCH_MAX_LATER];
	size_t nr_later;
	long long later_seen;
	bool settled;		/* the object outlived WATCH_SKIP_NS, or --nth chose it: no skipping */
	bool stopping;		/* the last records are read: no new object */
	const char *why;	/* the watch stopped: "the object was freed", ... */
	/* the run's tools, and what it learned */
	char **cmd_argv;
	const char *method;	/* how hits are classified, for the report */
	struct code_reader *code;
	struct site *sites;
	size_t nr_sites, sites_cap;
	struct wr_hit *wh;	/* the hits as the replay takes them */
	size_t nr_wh;
	/* threads seen: tid -> comm */
	struct {
		uint32_t pid, tid;
		char comm[16];
	} *threads;
	size_t nr_threads, threads_cap;
};

/* An empty run on this machine's line size and CPUs; then cfg, cmd_argv and say are set. */
void watch_run__init(struct watch_run *r);
void watch_run__release(struct watch_run *r);

/* The options that go together, and where the object is: kernel or user. */
int watch_run__check(struct watch_run *r);
/* The object's type and members, and its address where it is known before the run. */
int watch_run__load(struct watch_run *r);
/* How each hit's kind is told: code bytes to decode, or breakpoint pairs. */
void watch_run__choose_method(struct watch_run *r);
/* Breakpoint slots: how many members one group watches, and how many groups rotate. */
int watch_run__plan(struct watch_run *r);
/* Breakpoints on the object (when its address is known), then the workload let go. */
int watch_run__start(struct watch_run *r);
/* Hits and allocations read until the object is freed, the workload exits, the duration
 * ends or a signal comes (r->why says which). */
int watch_run__loop(struct watch_run *r);
/* Breakpoints off, the stop said, the hits on freed memory dropped. */
void watch_run__stop(struct watch_run *r);
/* Every hit classified (load/store/RMW) and tied to its code site. */
void watch_run__classify(struct watch_run *r);
/* The exact access order through the coherence model: transfers per member and site. */
void watch_run__replay(struct watch_run *r);
/* The hits as a perf.data at cfg.output: 0, or -1 (said). */
int watch_run__write(const struct watch_run *r, int argc, char **argv);
/* The workload is never left behind: ended on a signal, waited for otherwise. */
void watch_run__end_workload(struct watch_run *r);

/* SIGINT, SIGTERM, SIGHUP: the loop ends. */
void watch_run__on_signal(int sig);
int watch_run__signal(void);

uint64_t watch_run__now_ns(void);
const char *watch_run__duration_text(double secs, char *buf, size_t size);
/* The object's life so far, in seconds. */
double watch_run__life_secs(const struct watch_run *r);
/* How late after its free the object's name was read (0: in its life). */
uint64_t watch_run__named_late(const struct watch_run *r);

#endif
