// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "cli/sim_record.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/command.h"
#include "dwarf/code.h"
#include "sampling/perf_writer.h"
#include "pipeline/sim_census.h"
#include "sampling/workload.h"

/* @prog as execvp finds it: itself when it names a path, else the first match in $PATH. */
static bool find_program(const char *prog, char *out, size_t size)
{
	const char *path = getenv("PATH"), *p;

	if (strchr(prog, '/')) {
		snprintf(out, size, "%s", prog);
		return true;
	}
	for (p = path ? path : "/usr/bin:/bin"; *p; p += *p == ':') {
		size_t n = strcspn(p, ":");

		snprintf(out, size, "%.*s%s%s", (int)n, p, n ? "/" : "", prog);
		if (!access(out, X_OK))
			return true;
		p += n;
	}
	return false;
}

/*
 * A program linked with libtsan (-fsanitize=thread reached its link step, with flags other
 * than sim-flags' own) runs ThreadSanitizer's runtime, not lineup's, and records nothing: say
 * that before running it.  True when it was said.
 */
static bool links_libtsan(const char *prog)
{
	char path[PATH_MAX], lib[256];

	if (!find_program(prog, path, sizeof(path)) ||
	    code__needs_library(path, "libtsan.so", lib, sizeof(lib)) != 1)
		return false;
	cli__error("record --sim: %s is linked with %s: -fsanitize=thread reached its link step, "
		   "so ThreadSanitizer's own runtime took the collector's place and nothing would "
		   "be recorded.  Rebuild it with the flags `lineup sim-flags` prints (they keep "
		   "libtsan out, in one step or two), or link with `lineup sim-flags --libs` and "
		   "without -fsanitize=thread", path, lib);
	return true;
}

/* Copy the pipe-mode recording @path to stdout: 0, or -1 after saying why. */
static int copy_to_stdout(const char *path)
{
	char buf[1 << 16];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;

	if (fd < 0) {
		cli__error("record --sim: %s: %s", path, strerror(errno));
		return -1;
	}
	while ((n = read(fd, buf, sizeof(buf))) != 0 && !rc) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || fwrite(buf, 1, n, stdout) != (size_t)n) {
			cli__error("record --sim: %s: %s", n < 0 ? path : "standard output",
				   strerror(errno));
			rc = -1;
		}
	}
	close(fd);
	if (!rc && fflush(stdout)) {
		cli__error("record --sim: standard output: %s", strerror(errno));
		rc = -1;
	}
	return rc;
}

int sim_record__run(const char *output, const struct sim_record_opts *o, int argc, char **argv)
{
	char cwd[PATH_MAX], path[2 * PATH_MAX], err[PATH_MAX + 256];
	char env_out[2 * PATH_MAX + 32], env_period[48], env_turns[48], env_window[256];
	char tmpdir[PATH_MAX] = "";
	const char *env[8];
	struct sigaction ign = {.sa_handler = SIG_IGN}, oint, oterm;
	bool pipe_out = !strcmp(output, "-");
	struct workload w = WORKLOAD_INIT;
	struct workload_opts wo;
	struct sim_census c;
	struct stat st;
	int rc = EXIT_USAGE, nenv = 0;

	if (argc < 1) {
		cli__error("record --sim: no program given (lineup record --sim -- PROG ARGS)");
		return EXIT_USAGE;
	}
	if (links_libtsan(argv[0]))
		return EXIT_USAGE;
	workload_opts__init(&wo, argv);
	if (pipe_out) {
		/* -o -: the runtime writes pipe mode into a directory of ours, copied out after */
		const char *t = getenv("TMPDIR");

		snprintf(tmpdir, sizeof(tmpdir), "%s/lineup-sim.XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(tmpdir)) {
			cli__error("record --sim: cannot make a directory %s: %s", tmpdir,
				   strerror(errno));
			return EXIT_RUNTIME;
		}
		snprintf(path, sizeof(path), "%s/perf.data", tmpdir);
	} else if (output[0] == '/') {
		/* The program may chdir: hand it an absolute path. */
		snprintf(path, sizeof(path), "%s", output);
	} else if (!getcwd(cwd, sizeof(cwd)) ||
		   snprintf(path, sizeof(path), "%s/%s", cwd, output) >= (int)sizeof(path)) {
		cli__error("record --sim: cannot make an absolute path of %s", output);
		return EXIT_USAGE;
	}
	/* Before the run, as perf record: the directory takes a new file, an older recording
	 * becomes .old, a directory, link or device there is refused. */
	if (!pipe_out && perf_writer__prepare_output(path, err, sizeof(err))) {
		cli__error("record --sim: %s", err);
		return EXIT_USAGE;
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
		if (w.err)
			cli__error("record --sim: %s", workload__strerror(&w, err, sizeof(err)));
		else
			cli__error("record --sim: cannot start %s: %s", argv[0], strerror(-rc));
		rc = w.err ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	/* ^C goes to the program, whose runtime writes what it has; we wait for it. */
	sigaction(SIGINT, &ign, &oint);
	sigaction(SIGTERM, &ign, &oterm);
	workload__wait(&w, true, NULL);
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGTERM, &oterm, NULL);

	if (stat(path, &st)) {
		cli__error("record --sim: %s wrote no %s: was it built with `lineup sim-flags`?",
			   argv[0], pipe_out ? "recording" : path);
		rc = EXIT_NOTHING;
		goto out;
	}
	if (w.status)
		fprintf(stderr, "lineup: record --sim: %s %s\n", argv[0],
			workload__describe_status(w.status, err, sizeof(err)));
	if (sim_census__read(&c, path, err, sizeof(err))) {
		cli__error("%s", err);
		rc = EXIT_RUNTIME;	/* the runtime wrote a recording that cannot be read */
		goto out;
	}
	if (pipe_out && copy_to_stdout(path)) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	fprintf(stderr, "[ lineup record --sim: wrote %s (%lld bytes; %ld load samples, %ld of "
			"them HITM; %ld store samples)",
		pipe_out ? "standard output" : output, (long long)st.st_size, c.loads, c.hitm,
		c.stores);
	if (c.has_overlap)
		fprintf(stderr, "; threads ran at the same time for %.1f ms of %.1f ms modeled "
				"(%.0f%%)",
			c.overlap_ns / 1e6, c.observed_ns / 1e6,
			c.observed_ns ? 100.0 * c.overlap_ns / c.observed_ns : 0.0);
	fprintf(stderr, " ]\n");
	if (c.loads && !c.hitm) {
		char why[512];

		sim_census__no_contention(&c, why, sizeof(why));
		fprintf(stderr, "lineup: record --sim: %s\n", why);
	}
	rc = EXIT_OK;
out:
	if (*tmpdir) {
		unlink(path);
		rmdir(tmpdir);
	}
	return rc;
}
