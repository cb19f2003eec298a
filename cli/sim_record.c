// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "cli/sim_record.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyzer/data_src.h"
#include "cli/command.h"
#include "sampling/perf_file.h"

int sim_record__run(const char *output, unsigned long long period, const char *window, bool count,
		    int argc, char **argv)
{
	char cwd[PATH_MAX], path[2 * PATH_MAX], old[2 * PATH_MAX + 8], num[32];
	struct sigaction ign = {.sa_handler = SIG_IGN}, oint, oterm;
	struct sim_census c;
	struct stat st;
	int status;
	pid_t pid;

	if (argc < 1) {
		cli__error("record --sim: no program given (lineup record --sim -- PROG ARGS)");
		return EXIT_USAGE;
	}
	if (!strcmp(output, "-")) {
		cli__error("record --sim: the collector writes a file, not a pipe: -o FILE");
		return EXIT_USAGE;
	}
	/* The program may chdir: hand it an absolute path. */
	if (output[0] == '/')
		snprintf(path, sizeof(path), "%s", output);
	else if (!getcwd(cwd, sizeof(cwd)) ||
		 snprintf(path, sizeof(path), "%s/%s", cwd, output) >= (int)sizeof(path)) {
		cli__error("record --sim: cannot make an absolute path of %s", output);
		return EXIT_USAGE;
	}
	/* Keep the previous recording as perf does, and know whether the program wrote one. */
	snprintf(old, sizeof(old), "%s.old", path);
	if (!stat(path, &st) && rename(path, old)) {
		cli__error("record --sim: cannot move %s aside: %s", path, strerror(errno));
		return EXIT_USAGE;
	}

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		cli__error("record --sim: fork: %s", strerror(errno));
		return EXIT_USAGE;
	}
	if (!pid) {
		setenv("LINEUP_SIM_OUTPUT", path, 1);
		if (period) {
			snprintf(num, sizeof(num), "%llu", period);
			setenv("LINEUP_SIM_PERIOD", num, 1);
		}
		if (window)
			setenv("LINEUP_SIM_WINDOW", window, 1);
		if (count)
			setenv("LINEUP_SIM_PATCH", "0", 1);
		unsetenv("LINEUP_SIM_ACTIVE");
		execvp(argv[0], argv);
		fprintf(stderr, "lineup: record --sim: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	/* ^C goes to the program, whose runtime writes what it has; we wait for it. */
	sigaction(SIGINT, &ign, &oint);
	sigaction(SIGTERM, &ign, &oterm);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGTERM, &oterm, NULL);

	if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && stat(path, &st))
		return EXIT_USAGE;
	if (stat(path, &st)) {
		cli__error("record --sim: %s wrote no %s: was it built with `lineup sim-flags`?",
			   argv[0], path);
		return EXIT_NOTHING;
	}
	if (WIFSIGNALED(status))
		fprintf(stderr, "lineup: record --sim: %s was killed by signal %d (%s)\n", argv[0],
			WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WEXITSTATUS(status))
		fprintf(stderr, "lineup: record --sim: %s exited with status %d\n", argv[0],
			WEXITSTATUS(status));
	if (sim_record__census(path, &c))
		return EXIT_USAGE;
	fprintf(stderr, "[ lineup record --sim: wrote %s (%lld bytes; %ld load samples, %ld of "
			"them HITM; %ld store samples) ]\n",
		output, (long long)st.st_size, c.loads, c.hitm, c.stores);
	if (c.loads && !c.hitm)
		fprintf(stderr, "lineup: record --sim: no load found its line modified by another "
				"thread: no contention seen (threads that never ran at the same "
				"time? where CPUs are fewer than threads, LINEUP_SIM_YIELD=500 "
				"makes them interleave)\n");
	return EXIT_OK;
}

int sim_record__census(const char *path, struct sim_census *c)
{
	struct perf_file *pf;
	struct record rec;
	char err[512];
	int rc;

	*c = (struct sim_census){ 0 };
	if (perf_file__open(&pf, path, err, sizeof(err))) {
		cli__error("%s", err);
		return -1;
	}
	while ((rc = perf_file__next_record(pf, &rec)) > 0) {
		struct data_src d;

		if (rec.type != REC_SAMPLE)
			continue;
		d = data_src__decode(rec.sample.data_src);
		if (d.op & DS_OP_LOAD) {
			c->loads++;
			c->hitm += (d.snoop & DS_SNOOP_HITM) != 0;
		} else if (d.op & DS_OP_STORE) {
			c->stores++;
		}
	}
	if (rc < 0)
		cli__error("%s", perf_file__errmsg(pf));
	perf_file__close(pf);
	return rc < 0 ? -1 : 0;
}
