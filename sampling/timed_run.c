// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Timed runs of a command (see timed_run.h).  The command is held before its exec
 * (sampling/workload.h) until its counters are open (they are enabled by its exec, so the fork
 * and the wait are not counted); a failed exec comes back with its errno.
 */
#include <config.h>

#include "sampling/timed_run.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sampling/workload.h"
#include "util/xalloc.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A counter of @config on @pid and its future children, enabled at its exec; -1 if the PMU
 * (or perf_event_paranoid) says no. */
static int counter_open(pid_t pid, uint64_t config)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(a),
		.config = config,
		.disabled = 1,
		.enable_on_exec = 1,
		.inherit = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};

	return (int)syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static uint64_t counter_read(int fd)
{
	uint64_t v = 0;

	if (fd < 0 || read(fd, &v, sizeof(v)) != sizeof(v))
		return 0;
	return v;
}

/* The last TIMED_RUN_ERR_TAIL bytes of the file behind @fd into @r->err. */
static void err_tail(int fd, struct timed_run *r)
{
	off_t end = lseek(fd, 0, SEEK_END), from;
	ssize_t n;

	r->err[0] = '\0';
	if (end <= 0)
		return;
	from = end > TIMED_RUN_ERR_TAIL ? end - TIMED_RUN_ERR_TAIL : 0;
	n = pread(fd, r->err, (size_t)(end - from), from);
	r->err[n > 0 ? n : 0] = '\0';
}

int timed_run__exec(char *const argv[], bool show_output, struct timed_run *r)
{
	char tmpl[] = "/tmp/lineup-ab.XXXXXX";
	struct workload w = WORKLOAD_INIT;
	struct workload_opts o;
	int err_fd, null, fd_cyc, fd_ins, rc;
	struct rusage ru;
	double t0;

	memset(r, 0, sizeof(*r));
	err_fd = mkstemp(tmpl);
	if (err_fd < 0)
		return -errno;
	unlink(tmpl);
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	workload_opts__init(&o, argv);
	o.hold = true;
	o.stdio[0] = null;
	o.stdio[1] = show_output ? -1 : null;
	o.stdio[2] = err_fd;
	t0 = now_s();
	rc = workload__prepare(&w, &o);
	if (rc)
		goto out;
	fd_cyc = counter_open(w.pid, PERF_COUNT_HW_CPU_CYCLES);
	fd_ins = fd_cyc < 0 ? -1 : counter_open(w.pid, PERF_COUNT_HW_INSTRUCTIONS);
	rc = workload__start(&w);
	if (!rc && (rc = workload__wait(&w, true, &ru)) > 0)
		rc = 0;
	r->wall_s = now_s() - t0;
	r->status = w.status;
	r->exec_errno = w.err;
	if (!rc) {
		r->user_s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
		r->sys_s = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
		r->have_counters = fd_cyc >= 0 && fd_ins >= 0;
		r->cycles = counter_read(fd_cyc);
		r->instructions = counter_read(fd_ins);
	}
	if (fd_cyc >= 0)
		close(fd_cyc);
	if (fd_ins >= 0)
		close(fd_ins);
	err_tail(err_fd, r);
out:
	workload__end(&w);
	if (null >= 0)
		close(null);
	close(err_fd);
	return rc;
}

bool timed_run__ok(const struct timed_run *r)
{
	return !r->exec_errno && WIFEXITED(r->status) && !WEXITSTATUS(r->status);
}

static void series_add(struct timed_series *s, const struct timed_run *r)
{
	if (s->n == s->cap) {
		size_t cap = s->cap;

		s->wall = xgrow(s->wall, &cap, s->n + 1, sizeof(*s->wall));
		cap = s->cap;
		s->user = xgrow(s->user, &cap, s->n + 1, sizeof(*s->user));
		cap = s->cap;
		s->sys = xgrow(s->sys, &cap, s->n + 1, sizeof(*s->sys));
		cap = s->cap;
		s->cycles = xgrow(s->cycles, &cap, s->n + 1, sizeof(*s->cycles));
		cap = s->cap;
		s->instructions = xgrow(s->instructions, &cap, s->n + 1, sizeof(*s->instructions));
		s->cap = cap;
	}
	s->have_counters = (s->n == 0 || s->have_counters) && r->have_counters;
	s->wall[s->n] = r->wall_s;
	s->user[s->n] = r->user_s;
	s->sys[s->n] = r->sys_s;
	s->cycles[s->n] = r->cycles;
	s->instructions[s->n] = r->instructions;
	s->n++;
}

/* One run of @side; 0, 1 when it failed (said in @ab), -errno. */
static int ab_once(struct timed_ab *ab, int side, bool keep)
{
	struct timed_run r;
	int rc = timed_run__exec(ab->argv[side], ab->show_output, &r);

	if (rc && !r.exec_errno)
		return rc; /* (not the command's fault: fork, pipes) */
	if (!timed_run__ok(&r)) {
		ab->failed = side;
		ab->fail = r;
		return 1;
	}
	if (keep)
		series_add(&ab->s[side], &r);
	return 0;
}

int timed_ab__run(struct timed_ab *ab)
{
	int rc;

	ab->failed = -1;
	for (unsigned i = 0; i < 2 * ab->warmup; i++) {
		rc = ab_once(ab, i % 2, false);
		if (rc)
			return rc;
		if (ab->progress)
			ab->progress(ab->ctx, ab->s, true);
	}
	for (unsigned long i = 0;; i++) {
		int side = i % 4 == 1 || i % 4 == 2;

		if (ab->s[side].n < ab->max_runs) {
			rc = ab_once(ab, side, true);
			if (rc)
				return rc;
			if (ab->progress)
				ab->progress(ab->ctx, ab->s, false);
		}
		if (ab->s[0].n >= ab->max_runs && ab->s[1].n >= ab->max_runs)
			return 0;
		if (ab->s[0].n == ab->s[1].n && ab->s[0].n && ab->enough && ab->enough(ab->ctx, ab->s))
			return 0;
	}
}

void timed_ab__release(struct timed_ab *ab)
{
	for (int k = 0; k < 2; k++) {
		struct timed_series *s = &ab->s[k];

		free(s->wall);
		free(s->user);
		free(s->sys);
		free(s->cycles);
		free(s->instructions);
		*s = (struct timed_series){ 0 };
	}
}
