// SPDX-License-Identifier: GPL-2.0-or-later
/* The software collector's runner (sim_run.h), moved out of cli/ with its messages kept. */
#include <config.h>

#include "pipeline/sim_run.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dwarf/code.h"
#include "sampling/perf_writer.h"
#include "sampling/workload.h"
#include "util/privdir.h"

/* The exit statuses a command gives (cli/command.h's). */
enum { SIM_OK = 0, SIM_NOTHING = 1, SIM_FAILED = 1, SIM_BAD = 2 };

/*
 * A program linked with libtsan (-fsanitize=thread reached its link step, with flags other
 * than sim-flags' own) runs ThreadSanitizer's runtime, not lineup's, and records nothing: say
 * that before running it.  True when it was said.
 */
static bool links_libtsan(const char *prog, char *err, size_t errlen)
{
	char *path = workload__which(prog), lib[256];

	if (!path || code__needs_library(path, "libtsan.so", lib, sizeof(lib)) != 1) {
		free(path);
		return false;
	}
	snprintf(err, errlen, "record --sim: %s is linked with %s: -fsanitize=thread reached its link step, "
		   "so ThreadSanitizer's own runtime took the collector's place and nothing would "
		   "be recorded.  Rebuild it with the flags `lineup sim-flags` prints (they keep "
		   "libtsan out, in one step or two), or link with `lineup sim-flags --libs` and "
		   "without -fsanitize=thread", path, lib);
	free(path);
	return true;
}

/* Copy the pipe-mode recording @path to stdout: 0, or -1 after saying why. */
static int copy_to_stdout(const char *path, char *err, size_t errlen)
{
	char buf[1 << 16];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;

	if (fd < 0) {
		snprintf(err, errlen, "record --sim: %s: %s", path, strerror(errno));
		return -1;
	}
	while ((n = read(fd, buf, sizeof(buf))) != 0 && !rc) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || fwrite(buf, 1, n, stdout) != (size_t)n) {
			snprintf(err, errlen, "record --sim: %s: %s", n < 0 ? path : "standard output",
				 strerror(errno));
			rc = -1;
		}
	}
	close(fd);
	if (!rc && fflush(stdout)) {
		snprintf(err, errlen, "record --sim: standard output: %s", strerror(errno));
		rc = -1;
	}
	return rc;
}

int sim_run__run(const char *output, const struct sim_run_opts *o, int argc, char **argv,
		 struct sim_run_result *res, char *err, size_t errlen)
{
	char cwd[PATH_MAX], path[2 * PATH_MAX];
	char env_out[2 * PATH_MAX + 32], env_period[48], env_turns[48], env_window[256];
	struct privdir dir = { .fd = -1 };
	const char *env[8];
	struct sigaction ign = {.sa_handler = SIG_IGN}, oint, oterm;
	bool pipe_out = !strcmp(output, "-");
	struct workload w = WORKLOAD_INIT;
	struct workload_opts wo;
	struct sim_census *c = &res->census;
	struct stat st;
	int rc = SIM_BAD, nenv = 0;

	memset(res, 0, sizeof(*res));
	if (argc < 1) {
		snprintf(err, errlen, "record --sim: no program given (lineup record --sim -- PROG "
			 "ARGS)");
		return SIM_BAD;
	}
	if (links_libtsan(argv[0], err, errlen))
		return SIM_BAD;
	workload_opts__init(&wo, argv);
	if (pipe_out) {
		/* -o -: the runtime writes pipe mode into a directory of ours, copied out after */
		char why[PATH_MAX + 64];

		if (privdir__create(&dir, "lineup-sim", why, sizeof(why)) < 0) {
			snprintf(err, errlen, "record --sim: cannot make a directory %s", why);
			return SIM_FAILED;
		}
		privdir__expect(&dir, "perf.data");
		snprintf(path, sizeof(path), "%s/perf.data", dir.path);
	} else if (output[0] == '/') {
		/* The program may chdir: hand it an absolute path. */
		snprintf(path, sizeof(path), "%s", output);
	} else if (!getcwd(cwd, sizeof(cwd)) ||
		   snprintf(path, sizeof(path), "%s/%s", cwd, output) >= (int)sizeof(path)) {
		snprintf(err, errlen, "record --sim: cannot make an absolute path of %s", output);
		return SIM_BAD;
	}
	/* Before the run, as perf record: the directory takes a new file, an older recording
	 * becomes .old, a directory, link or device there is refused. */
	if (!pipe_out) {
		char why[PATH_MAX + 128];

		if (perf_writer__prepare_output(path, why, sizeof(why))) {
			snprintf(err, errlen, "record --sim: %s", why);
			return SIM_BAD;
		}
	}

	/* The runtime's settings, for the program only; a nested lineup's marker removed. */
	snprintf(env_out, sizeof(env_out), "LINEUP_SIM_OUTPUT=%s", path);
	env[nenv++] = env_out;
	if (pipe_out) {
		env[nenv++] = "LINEUP_SIM_PIPE=1";
		/* the recording is stdout's: the program's own output goes to stderr */
		wo.stdio[1] = STDERR_FILENO;
	}
	if (o->period) {
		snprintf(env_period, sizeof(env_period), "LINEUP_SIM_PERIOD=%llu", o->period);
		env[nenv++] = env_period;
	}
	if (o->turns) {
		snprintf(env_turns, sizeof(env_turns), "LINEUP_SIM_TURNS=%llu", o->turns);
		env[nenv++] = env_turns;
	}
	if (o->window) {
		snprintf(env_window, sizeof(env_window), "LINEUP_SIM_WINDOW=%s", o->window);
		env[nenv++] = env_window;
	}
	if (o->count)
		env[nenv++] = "LINEUP_SIM_PATCH=0";
	env[nenv++] = "LINEUP_SIM_ACTIVE";
	env[nenv] = NULL;
	wo.env = env;
	rc = workload__prepare(&w, &wo);
	if (rc < 0) {
		char why[PATH_MAX + 128];

		if (w.err)
			snprintf(err, errlen, "record --sim: %s",
				 workload__strerror(&w, why, sizeof(why)));
		else
			snprintf(err, errlen, "record --sim: cannot start %s: %s", argv[0],
				 strerror(-rc));
		rc = w.err ? SIM_BAD : SIM_FAILED;
		goto out;
	}
	/* ^C goes to the program, whose runtime writes what it has; we wait for it. */
	sigaction(SIGINT, &ign, &oint);
	sigaction(SIGTERM, &ign, &oterm);
	workload__wait(&w, true, NULL);
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGTERM, &oterm, NULL);

	if (stat(path, &st)) {
		snprintf(err, errlen, "record --sim: %s wrote no %s: was it built with `lineup "
			 "sim-flags`?", argv[0], pipe_out ? "recording" : path);
		rc = SIM_NOTHING;
		goto out;
	}
	res->status = w.status;
	res->size = (long long)st.st_size;
	if (w.status)
		workload__describe_status(w.status, res->status_text, sizeof(res->status_text));
	if (sim_census__read(c, path, err, errlen)) {
		rc = SIM_FAILED;	/* the runtime wrote a recording that cannot be read */
		goto out;
	}
	if (pipe_out && copy_to_stdout(path, err, errlen)) {
		rc = SIM_FAILED;
		goto out;
	}
	if (c->loads && !c->hitm)
		sim_census__no_contention(c, res->no_contention, sizeof(res->no_contention));
	rc = SIM_OK;
out:
	if (dir.path) {
		char why[PATH_MAX + 128];

		privdir__remove(&dir, why, sizeof(why));
	}
	return rc;
}
