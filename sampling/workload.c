// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Launching a command (see workload.h).  The child's steps before exec are reported back
 * through a close-on-exec pipe: EOF says the exec happened, a struct report says what failed.
 */
#include <config.h>

#include "sampling/workload.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/xalloc.h"

extern char **environ;

struct report {
	int step, err;
};

void workload_opts__init(struct workload_opts *o, char *const *argv)
{
	memset(o, 0, sizeof(*o));
	o->argv = argv;
	o->stdio[0] = o->stdio[1] = o->stdio[2] = -1;
}

static size_t name_len(const char *s)
{
	return strcspn(s, "=");
}

/*
 * Our environment with @changes made (@only: @changes alone), for execvpe: built before the
 * fork (no setenv there).
 */
static char **make_env(const char *const *changes, bool only)
{
	size_t n = 0, k = 0, extra = 0;
	char **env;

	while (!only && environ && environ[n])
		n++;
	while (changes[extra])
		extra++;
	env = xcalloc(n + extra + 1, sizeof(*env));
	for (size_t i = 0; i < n; i++) {
		bool changed = false;

		for (size_t c = 0; c < extra && !changed; c++) {
			size_t len = name_len(changes[c]);

			changed = !strncmp(environ[i], changes[c], len) && environ[i][len] == '=';
		}
		if (!changed)
			env[k++] = environ[i];
	}
	for (size_t c = 0; c < extra; c++)
		if (changes[c][name_len(changes[c])] == '=')
			env[k++] = (char *)changes[c];
	env[k] = NULL;
	return env;
}

static _Noreturn void child_fail(int fd, enum workload_step step)
{
	struct report r = { .step = step, .err = errno };

	if (write(fd, &r, sizeof(r)) < 0)
		_exit(127);
	_exit(127);
}

/* In the child: async-signal-safe calls only, from here to the exec. */
static _Noreturn void child(const struct workload_opts *o, char **env, int go_fd, int report_fd)
{
	int src[3];

	if (go_fd >= 0) {
		char c;
		ssize_t n;

		while ((n = read(go_fd, &c, 1)) < 0 && errno == EINTR)
			;
		if (n != 1)
			_exit(127);	/* the parent gave up before starting it */
	}
	if (o->trace && ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0)
		child_fail(report_fd, WORKLOAD_EXEC);
	if (o->default_signals) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
	}
	/* Copies first, so that {1: 2, 2: f} means the parent's 2 and f, in either order. */
	for (int i = 0; i < 3; i++) {
		src[i] = o->stdio[i] < 0 ? -1 : fcntl(o->stdio[i], F_DUPFD_CLOEXEC, 3);
		if (o->stdio[i] >= 0 && src[i] < 0)
			child_fail(report_fd, WORKLOAD_REDIRECT);
	}
	for (int i = 0; i < 3; i++)
		if (src[i] >= 0 && dup2(src[i], i) < 0)
			child_fail(report_fd, WORKLOAD_REDIRECT);
	if (o->dir && chdir(o->dir) < 0)
		child_fail(report_fd, WORKLOAD_CHDIR);
	if (env)
		execvpe(o->argv[0], o->argv, env);
	else
		execvp(o->argv[0], o->argv);
	child_fail(report_fd, WORKLOAD_EXEC);
}

/* Read the child's report: 0 when it exec'd, else -errno after reaping it. */
static int read_report(struct workload *w)
{
	struct report r;
	ssize_t n;

	while ((n = read(w->report_fd, &r, sizeof(r))) < 0 && errno == EINTR)
		;
	close(w->report_fd);
	w->report_fd = -1;
	if (n != (ssize_t)sizeof(r))
		return 0;
	w->err = r.err ? r.err : EIO;
	w->step = (enum workload_step)r.step;
	workload__wait(w, true, NULL);
	w->pid = 0;
	return -w->err;
}

int workload__prepare(struct workload *w, const struct workload_opts *o)
{
	int go[2] = { -1, -1 }, rep[2];
	char **env = o->env ? make_env(o->env, o->env_only) : NULL;
	int rc;

	memset(w, 0, sizeof(*w));
	w->go_fd = w->report_fd = -1;
	w->cmd = o->argv[0];
	w->dir = o->dir;
	if (o->hold && pipe2(go, O_CLOEXEC) < 0) {
		rc = -errno;
		goto out;
	}
	if (pipe2(rep, O_CLOEXEC) < 0) {
		rc = -errno;
		goto out_go;
	}
	fflush(NULL);	/* what we buffered is not printed twice */
	w->pid = fork();
	if (w->pid < 0) {
		rc = -errno;
		w->pid = 0;
		close(rep[0]);
		close(rep[1]);
		goto out_go;
	}
	if (!w->pid) {
		if (go[1] >= 0)
			close(go[1]);
		close(rep[0]);
		child(o, env, go[0], rep[1]);
	}
	free(env);
	close(rep[1]);
	w->report_fd = rep[0];
	if (o->hold) {
		close(go[0]);
		w->go_fd = go[1];
		return 0;
	}
	return read_report(w);
out_go:
	if (go[0] >= 0) {
		close(go[0]);
		close(go[1]);
	}
out:
	free(env);
	return rc;
}

int workload__start(struct workload *w)
{
	if (w->go_fd < 0)
		return w->pid ? 0 : -ECHILD;
	if (write(w->go_fd, "g", 1) != 1) {
		int rc = -errno;

		workload__end(w);
		return rc;
	}
	close(w->go_fd);
	w->go_fd = -1;
	return read_report(w);
}

int workload__wait(struct workload *w, bool block, struct rusage *ru)
{
	pid_t p;

	if (w->exited)
		return 1;
	if (w->pid <= 0)
		return -ECHILD;
	while ((p = wait4(w->pid, &w->status, block ? 0 : WNOHANG, ru)) < 0)
		if (errno != EINTR)
			return -errno;
	if (p == 0)
		return 0;
	if (WIFSTOPPED(w->status))
		return 2;	/* traced: stopped, not ended */
	w->exited = true;
	return 1;
}

void workload__end(struct workload *w)
{
	bool held = w->go_fd >= 0;

	if (held)
		close(w->go_fd);	/* a held child reads EOF and exits (127) */
	if (w->report_fd >= 0)
		close(w->report_fd);
	w->go_fd = w->report_fd = -1;
	if (w->pid > 0 && !w->exited) {
		if (!held)
			kill(w->pid, SIGKILL);
		workload__wait(w, true, NULL);
	}
}

const char *workload__strerror(const struct workload *w, char *buf, size_t size)
{
	switch (w->step) {
	case WORKLOAD_CHDIR:
		snprintf(buf, size, "cannot run %s in %s: %s", w->cmd, w->dir ? w->dir : ".",
			 strerror(w->err));
		break;
	case WORKLOAD_REDIRECT:
		snprintf(buf, size, "cannot run %s: its standard streams: %s", w->cmd,
			 strerror(w->err));
		break;
	default:
		snprintf(buf, size, "cannot run %s: %s", w->cmd, strerror(w->err));
	}
	return buf;
}

const char *workload__describe_status(int status, char *buf, size_t size)
{
	if (WIFEXITED(status))
		snprintf(buf, size, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, size, "was killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else if (WIFSTOPPED(status))
		snprintf(buf, size, "was stopped by signal %d (%s)", WSTOPSIG(status),
			 strsignal(WSTOPSIG(status)));
	else
		snprintf(buf, size, "ended with wait status %#x", status);
	return buf;
}

int workload__exit_code(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 255;
}

char *workload__which(const char *name)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];
	struct stat st;

	if (!*name)
		return NULL;
	if (strchr(name, '/'))
		return realpath(name, NULL);
	for (const char *p = path ? path : "/usr/bin:/bin";; p++) {
		size_t n = strcspn(p, ":");

		if ((size_t)snprintf(buf, sizeof(buf), "%.*s%s%s", (int)n, p, n ? "/" : "", name) <
			    sizeof(buf) &&
		    !access(buf, X_OK) && !stat(buf, &st) && S_ISREG(st.st_mode))
			return realpath(buf, NULL);
		p += n;
		if (!*p)
			break;
	}
	return NULL;
}
