// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sampling/watch.h: a failed watcher__set_points leaves nothing installed and does not crash.
 * lineup watch --rotate crashed (SIGSEGV in libperf's perf_evsel__disable) when the workload
 * exited between two groups: the new group's open failed with ESRCH, libperf closed what it
 * had opened, and the watcher then disabled evsels that had no fds.  Here the process is
 * gone for sure (a reaped child), the open fails every time, and a bad length fails before
 * any open: both must return an error, and the watcher must go on working.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sampling/watch.h"

static long word;

int main(void)
{
	struct watch_point pt = { .addr = (uintptr_t)&word, .len = 8, .type = WATCH_RW };
	struct watch_point bad = { .addr = (uintptr_t)&word + 1, .len = 8, .type = WATCH_RW };
	struct watch_opts wo = { .exclude_kernel = true };
	struct watcher *w, *self;
	char err[512];
	pid_t child = fork();
	int rc, failures = 0;

	if (child == 0)
		_exit(0);
	if (child < 0 || waitpid(child, NULL, 0) != child)
		return 99;
	/* Can this machine and user put a breakpoint on their own process at all? */
	wo.pid = getpid();
	if (watcher__new(&self, &wo, err, sizeof(err)) < 0)
		return 77;
	rc = watcher__set_points(self, &pt, 1, err, sizeof(err));
	if (rc < 0) {
		printf("SKIP: no breakpoint here: %s\n", err);
		watcher__delete(self);
		return 77;
	}
	wo.pid = child;		/* reaped: no such process */
	if (watcher__new(&w, &wo, err, sizeof(err)) < 0) {
		printf("FAIL: watcher__new: %s\n", err);
		return 1;
	}
	for (int i = 0; i < 3; i++) {
		rc = watcher__set_points(w, &pt, 1, err, sizeof(err));
		if (rc >= 0) {
			printf("FAIL: breakpoints installed on a process that is gone\n");
			failures++;
		}
	}
	rc = watcher__set_points(w, &bad, 1, err, sizeof(err));
	if (rc != -EINVAL) {
		printf("FAIL: a misaligned breakpoint gave %d, not -EINVAL: %s\n", rc, err);
		failures++;
	}
	watcher__clear_points(w);
	watcher__delete(w);
	/* The other watcher still works: its points replaced, then cleared. */
	if (watcher__set_points(self, &pt, 1, err, sizeof(err)) < 0) {
		printf("FAIL: a second set on this process: %s\n", err);
		failures++;
	}
	watcher__delete(self);
	return failures ? 1 : 0;
}
