// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sampling/workload.h: the one launcher of record, record --sim, watch, ab, demo and suggest
 * --verify.  A command that does not exist, a directory that does not exist, a held command
 * that runs only when started (and not at all when given up), the environment set and unset
 * for the command only, its standard streams redirected in either order, and wait statuses in
 * words: each checked on real processes (/bin/sh).
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sampling/workload.h"
#include "tests/unit/check.h"

static char dir[] = "/tmp/lineup-workload-test.XXXXXX";

/* Run `sh -c SCRIPT` with @o's settings (argv replaced), wait; its status, or -1. */
static int sh(struct workload_opts *o, const char *script)
{
	char *argv[] = { "sh", "-c", (char *)script, NULL };
	struct workload w = WORKLOAD_INIT;

	o->argv = argv;
	if (workload__prepare(&w, o) < 0)
		return -1;
	if (workload__wait(&w, true, NULL) != 1)
		return -1;
	workload__end(&w);
	return w.status;
}

/* The file's text (up to 255 bytes). */
static const char *slurp(const char *path)
{
	static char buf[256];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
	return buf;
}

static void test_exec_errors(void)
{
	char *missing[] = { "lineup-no-such-command-xyz", NULL };
	char *sh_true[] = { "true", NULL };
	struct workload_opts o;
	struct workload w = WORKLOAD_INIT;
	char msg[256];
	int rc;

	workload_opts__init(&o, missing);
	rc = workload__prepare(&w, &o);
	CHECK(rc == -ENOENT);
	CHECK(w.err == ENOENT && w.step == WORKLOAD_EXEC && w.pid == 0);
	workload__strerror(&w, msg, sizeof(msg));
	CHECK(!strcmp(msg, "cannot run lineup-no-such-command-xyz: No such file or directory"));
	workload__end(&w);

	/* held: the error comes with the start */
	o.hold = true;
	CHECK(workload__prepare(&w, &o) == 0 && w.pid > 0);
	CHECK(workload__start(&w) == -ENOENT && w.err == ENOENT && w.pid == 0);
	workload__end(&w);

	workload_opts__init(&o, sh_true);
	o.dir = "/nonexistent-lineup-dir";
	CHECK(workload__prepare(&w, &o) == -ENOENT && w.step == WORKLOAD_CHDIR);
	workload__strerror(&w, msg, sizeof(msg));
	CHECK(!strcmp(msg, "cannot run true in /nonexistent-lineup-dir: No such file or directory"));
	workload__end(&w);
}

static void test_hold(void)
{
	char path[300], script[400];
	char *argv[] = { "sh", "-c", script, NULL };
	struct workload_opts o;
	struct workload w = WORKLOAD_INIT;
	struct stat st;

	snprintf(path, sizeof(path), "%s/ran", dir);
	snprintf(script, sizeof(script), "echo ran > %s", path);
	workload_opts__init(&o, argv);
	o.hold = true;

	/* given up before its start: it never runs */
	CHECK(workload__prepare(&w, &o) == 0);
	CHECK(workload__wait(&w, false, NULL) == 0);	/* held, not ended */
	workload__end(&w);
	CHECK(w.exited && WIFEXITED(w.status) && WEXITSTATUS(w.status) == 127);
	CHECK(stat(path, &st) < 0);

	CHECK(workload__prepare(&w, &o) == 0);
	CHECK(workload__start(&w) == 0);
	CHECK(workload__wait(&w, true, NULL) == 1 && w.status == 0);
	workload__end(&w);
	CHECK(!strcmp(slurp(path), "ran\n"));
	remove(path);
}

static void test_env_and_streams(void)
{
	const char *env[] = { "LINEUP_WL_SET=one two", "LINEUP_WL_GONE", NULL };
	struct workload_opts o;
	char path[300], errp[300];
	int fd, efd;

	setenv("LINEUP_WL_GONE", "x", 1);
	setenv("LINEUP_WL_SET", "old", 1);
	snprintf(path, sizeof(path), "%s/out", dir);
	snprintf(errp, sizeof(errp), "%s/err", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	efd = open(errp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	workload_opts__init(&o, NULL);
	o.env = env;
	o.stdio[1] = fd;
	CHECK(sh(&o, "echo \"$LINEUP_WL_SET|${LINEUP_WL_GONE-unset}\"") == 0);
	CHECK(!strcmp(slurp(path), "one two|unset\n"));
	/* ours unchanged */
	CHECK(!strcmp(getenv("LINEUP_WL_SET"), "old") && getenv("LINEUP_WL_GONE"));

	/* 1 and 2 swapped: each side as the parent had it */
	CHECK(ftruncate(fd, 0) == 0 && lseek(fd, 0, SEEK_SET) == 0);
	workload_opts__init(&o, NULL);
	o.stdio[1] = efd;
	o.stdio[2] = fd;
	CHECK(sh(&o, "echo to-out; echo to-err >&2") == 0);
	CHECK(!strcmp(slurp(path), "to-err\n"));
	CHECK(!strcmp(slurp(errp), "to-out\n"));
	close(fd);
	close(efd);
	remove(path);
	remove(errp);
}

static void test_status(void)
{
	struct workload_opts o;
	char buf[128];
	int st;

	workload_opts__init(&o, NULL);
	st = sh(&o, "exit 3");
	CHECK(!strcmp(workload__describe_status(st, buf, sizeof(buf)), "exited with status 3"));
	CHECK(workload__exit_code(st) == 3);
	st = sh(&o, "kill -TERM $$");
	CHECK(!strcmp(workload__describe_status(st, buf, sizeof(buf)),
		      "was killed by signal 15 (Terminated)"));
	CHECK(workload__exit_code(st) == 128 + SIGTERM);

	/* an ignored SIGTERM survives exec unless asked otherwise */
	signal(SIGTERM, SIG_IGN);
	CHECK(sh(&o, "kill -TERM $$; exit 4") == 4 << 8);
	o.default_signals = true;
	st = sh(&o, "kill -TERM $$; exit 4");
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	signal(SIGTERM, SIG_DFL);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 99;
	}
	test_exec_errors();
	test_hold();
	test_env_and_streams();
	test_status();
	rmdir(dir);
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures ? 1 : 0;
}
