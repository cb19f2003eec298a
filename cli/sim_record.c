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

#include "cli/command.h"

int sim_record__run(const char *output, unsigned long long period, const char *window, bool count,
		    int argc, char **argv)
{
	char cwd[PATH_MAX], path[2 * PATH_MAX], old[2 * PATH_MAX + 8], num[32];
	struct sigaction ign = {.sa_handler = SIG_IGN}, oint, oterm;
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
	fprintf(stderr, "[ lineup record --sim: wrote %s (%lld bytes) ]\n", output,
		(long long)st.st_size);
	return EXIT_OK;
}
