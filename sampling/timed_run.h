/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_TIMED_RUN_H
#define LINEUP_SAMPLING_TIMED_RUN_H

/*
 * One timed run of a command, for `lineup ab`: wall time, the CPU time of the command and its
 * children (user and system, from wait4), and where the PMU allows, its cycles and instructions
 * (counting events that follow it into its children, enabled at its exec).  The command's
 * standard output goes to /dev/null unless asked; its standard error is kept (the last 4 KB) so
 * that a failure can be shown.
 *
 * Ownership: struct timed_run is the caller's; nothing here outlives a call.
 */

#include <stdbool.h>
#include <stdint.h>

#define TIMED_RUN_ERR_TAIL 4096

/**
 * struct timed_run - what one run measured.
 * @wall_s:	wall-clock seconds from fork to the command's end
 * @user_s, @sys_s: CPU seconds, the command and its waited-for children
 * @cycles, @instructions: counted by the PMU; @have_counters false when it cannot count
 * @status:	the wait status (WIFEXITED ...)
 * @exec_errno:	0, or why the command could not be started (then @status is meaningless)
 * @err:	the last bytes of its standard error, NUL-terminated
 */
struct timed_run {
	double wall_s, user_s, sys_s;
	uint64_t cycles, instructions;
	bool have_counters;
	int status;
	int exec_errno;
	char err[TIMED_RUN_ERR_TAIL + 1];
};

/*
 * Run @argv (argv[0] looked up in PATH) once and measure it into @r; @show_output: its standard
 * output goes to ours.  Returns 0 when it ran (whatever its exit status), -errno when it could not
 * be started (fork, exec: r->exec_errno says which) or measured.
 */
int timed_run__exec(char *const argv[], bool show_output, struct timed_run *r);

/* Whether the run succeeded: started, exited, with status 0. */
bool timed_run__ok(const struct timed_run *r);

/**
 * struct timed_series - one command's measured runs (warm-ups not included).
 * @n:		runs
 * @wall, @user, @sys: seconds per run
 * @cycles, @instructions: per run, when @have_counters (every run counted)
 */
struct timed_series {
	unsigned n, cap;
	double *wall, *user, *sys;
	uint64_t *cycles, *instructions;
	bool have_counters;
};

/**
 * struct timed_ab - an A/B timing: what to run, and what it measured.
 * @argv:	the commands, A ([0]) and B ([1])
 * @warmup:	runs of each discarded first (caches, page cache, CPU frequency)
 * @max_runs:	runs of each at most (>= 2)
 * @show_output: the commands' standard output goes to ours
 * @enough:	asked at each point where both sides have as many runs: true stops early
 * @progress:	told after each run (may be NULL)
 * @ctx:	passed to @enough and @progress
 * @s:		the measured runs of A and B (timed_ab__release frees them)
 * @failed:	after timed_ab__run returned 1: the side whose run failed, and that run in @fail
 */
struct timed_ab {
	char *const *argv[2];
	unsigned warmup, max_runs;
	bool show_output;
	bool (*enough)(void *ctx, const struct timed_series s[2]);
	void (*progress)(void *ctx, const struct timed_series s[2], bool warming);
	void *ctx;
	struct timed_series s[2];
	int failed;
	struct timed_run fail;
};

/*
 * Run A and B alternately, ABBA ABBA ... (in each block of four both sides have the same mean
 * position, so a steady drift of the machine, a CPU warming up or a neighbour's job starting,
 * falls on both alike), after @warmup discarded runs of each, until each has @max_runs or
 * @enough says so.  Returns 0; 1 when a run failed or could not start (@failed, @fail say
 * which and how); -errno when a run could not be measured.
 */
int timed_ab__run(struct timed_ab *ab);
void timed_ab__release(struct timed_ab *ab);

#endif
