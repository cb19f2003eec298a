/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_WORKLOAD_H
#define LINEUP_SAMPLING_WORKLOAD_H

/*
 * Launching a command: the one fork/exec of lineup (record, record --sim, watch, ab, demo and
 * suggest --verify's compiler all start theirs here), in the manner of perf's
 * evlist__prepare_workload / evlist__start_workload.
 *
 *	struct workload_opts o;
 *	struct workload w;
 *
 *	workload_opts__init(&o, argv);
 *	o.hold = true;				(counters are opened on w.pid before it runs)
 *	if (workload__prepare(&w, &o) < 0)	... fork or pipe failed: -errno
 *	open counters on w.pid, enabled by its exec
 *	if (workload__start(&w) < 0)		... it could not run: workload__strerror(&w ...)
 *	workload__wait(&w, true, NULL);		w.status: workload__describe_status()
 *	workload__end(&w);			(kills and reaps one that still runs)
 *
 * A failed exec (or chdir, or redirection) in the child is reported to the parent through a
 * close-on-exec pipe with its errno, as posix_spawn does: the parent learns it from
 * workload__prepare() (not held) or workload__start() (held), and the child, reaped there,
 * never runs anything of the caller's.  The environment changes are made in the parent, so the
 * child between fork and exec calls only async-signal-safe functions.
 *
 * Ownership: @argv, @dir and @env are borrowed until workload__prepare() returns; the fds in
 * @stdio stay the caller's (the child gets copies).  struct workload is the caller's; its pipes
 * are closed by workload__end().
 */
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct rusage;

/**
 * struct workload_opts - what to run and how.
 * @argv:	the command, NULL-terminated; argv[0] found in $PATH as execvp finds it
 * @dir:	the directory it runs in; NULL: ours
 * @env:	"NAME=VALUE" to set, "NAME" to unset, for the command only; NULL-terminated or NULL
 * @env_only:	the command's environment is @env's "NAME=VALUE" entries alone, nothing of ours
 * @stdio:	what becomes its standard input, output and error: a descriptor of ours, or -1 to
 *		leave it as ours (workload_opts__init sets -1)
 * @hold:	held before its exec until workload__start(), so that events can be opened on its
 *		pid and enabled by its exec (enable_on_exec)
 * @trace:	PTRACE_TRACEME: the kernel stops it (SIGTRAP) right after its exec, before its first
 *		instruction, for a tracer that reads its maps first
 * @default_signals: SIGINT and SIGTERM at their defaults in the command even where ours ignore
 *		them (an ignored signal survives exec)
 */
struct workload_opts {
	char *const *argv;
	const char *dir;
	const char *const *env;
	int stdio[3];
	bool hold, trace, default_signals, env_only;
};

void workload_opts__init(struct workload_opts *o, char *const *argv);

/* What the child could not do before its command ran. */
enum workload_step { WORKLOAD_EXEC, WORKLOAD_CHDIR, WORKLOAD_REDIRECT };

/**
 * struct workload - one started command.
 * @pid:	its process id (0 once reaped or never started)
 * @status:	its wait status once workload__wait() said it ended
 * @exited:	it ended and was reaped
 * @err, @step: why it could not run (0: it ran), and at which step
 * @cmd:	argv[0], for messages (borrowed)
 */
struct workload {
	pid_t pid;
	int status;
	bool exited;
	int err;
	enum workload_step step;
	const char *cmd, *dir;
	int go_fd, report_fd;
};

/*
 * The program @name runs as, as execvp finds it: @name's real path when it holds a '/', else
 * the first executable regular file of that name in $PATH (an empty entry: the current
 * directory; no $PATH: /usr/bin:/bin).  A new string, or NULL.  The one PATH search of lineup.
 */
char *workload__which(const char *name);

/* A struct workload that holds nothing yet (workload__end() on it does nothing). */
#define WORKLOAD_INIT { .go_fd = -1, .report_fd = -1 }

/*
 * Fork the child.  Not held: returns once it has exec'd (or failed to).  0, or -errno: a fork
 * or pipe failed (@w->err 0), or the child could not run (@w->err, @w->step say why; it has
 * been reaped).
 */
int workload__prepare(struct workload *w, const struct workload_opts *o);

/* Let a held child exec: 0 once it has, or -errno as workload__prepare (reaped then). */
int workload__start(struct workload *w);

/*
 * Wait for the child's end (@block), or look whether it ended: 1 ended (@w->status), 0 still
 * running, 2 stopped under ptrace (@trace: @w->status says by what), -errno.  @ru: its resource
 * use (and its waited-for children's), or NULL.
 */
int workload__wait(struct workload *w, bool block, struct rusage *ru);

/* Close the pipes; a held child exits (127) unrun, one still running is killed (SIGKILL);
 * either is reaped. */
void workload__end(struct workload *w);

/* Why it could not run, into @buf: "cannot run gcc: No such file or directory". */
const char *workload__strerror(const struct workload *w, char *buf, size_t size);

/* A wait status in words: "exited with status 3", "was killed by signal 9 (Killed)". */
const char *workload__describe_status(int status, char *buf, size_t size);

/* A wait status as a shell gives it: the exit status, or 128 + the signal's number. */
int workload__exit_code(int status);

#endif
