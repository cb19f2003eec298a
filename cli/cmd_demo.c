// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lineup demo: the whole loop on a real program, on any machine (no memory PMU needed).
 * It builds the bundled workload shaped like the kernel's struct file (seed 003) for the
 * software collector, records it, and shows what perf c2c would show (report) and what
 * perf c2c cannot (fields: which members, who writes them, what kind of sharing).
 *
 * Each step runs this same binary as a child, exactly as a user would type it, so the demo
 * shows nothing that the subcommands do not.
 */
#include <config.h>

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyzer/data_src.h"
#include "cli/command.h"
#include "cli/sim_record.h"
#include "sampling/perf_file.h"
#include "util/strbuf.h"

enum { OPT_KEEP = 'k', OPT_WORKLOAD = 'w', OPT_ITER = 'n' };

static const struct cli_option demo_options[] = {
	{ OPT_KEEP, 'k', "keep", "DIR",
	  "build and record in DIR and keep it (default: a temporary directory, removed)" },
	{ OPT_WORKLOAD, 'w', "workload", "NAME",
	  "bundled workload: struct_file (default), fs_adjacent, fs_padded, atomic_counter, "
	  "percpu_stats, histogram, flag_word" },
	{ OPT_ITER, 'n', "iterations", "N", "iterations per thread (default 1000000)" },
	CLI_OPTION_END
};

struct demo_opts {
	const struct command *cmd;
	const char *keep;
	const char *workload;
	unsigned long long iterations;
};

static int demo_option(void *ctx, int id, const char *arg)
{
	struct demo_opts *o = ctx;

	switch (id) {
	case OPT_KEEP:
		o->keep = arg;
		break;
	case OPT_WORKLOAD:
		o->workload = arg;
		break;
	case OPT_ITER:
		if (cli__parse_u64(o->cmd, "--iterations", arg, &o->iterations))
			return EXIT_USAGE;
		if (!o->iterations)
			return cli__usage_error(o->cmd, "--iterations: must be at least 1");
		break;
	}
	return 0;
}

/* The workload sources: the source tree this binary was built from, else the installed copy. */
static bool find_workloads(char *dir, size_t size, const char *name)
{
	const char *cands[] = { LINEUP_SRCDIR "/tests/workloads", LINEUP_DATADIR "/workloads" };

	for (size_t i = 0; i < sizeof(cands) / sizeof(cands[0]); i++) {
		snprintf(dir, size, "%s/%s.c", cands[i], name);
		if (!access(dir, R_OK)) {
			snprintf(dir, size, "%s", cands[i]);
			return true;
		}
	}
	return false;
}

static int sh(const char *what, const char *cmdline)
{
	int st;

	printf("\n$ %s\n", what);
	fflush(stdout);
	st = system(cmdline);
	if (st == -1 || !WIFEXITED(st)) {
		cli__error("demo: '%s' did not run to completion", what);
		return EXIT_USAGE;
	}
	return WEXITSTATUS(st);
}

/*
 * Whether the recording shows the contention: at least 1% of its load samples found the line
 * modified in another thread's cache (HITM).  The workload's threads start together, but on a
 * busy machine one can finish before the scheduler runs the other: then little or nothing was
 * contended, and the demo says so and records again rather than show empty tables.
 * Returns 1, 0, or -1 when the file cannot be read.
 */
static int contended(const char *path)
{
	struct sim_census c;

	if (sim_record__census(path, &c))
		return -1;
	return c.hitm > 0 && c.hitm * 100 >= c.loads;
}

static int demo_run(const struct command *cmd, int argc, char **argv)
{
	struct demo_opts o = { .cmd = cmd, .workload = "struct_file", .iterations = 1000000 };
	char self[PATH_MAX], src[PATH_MAX], tmpl[] = "/tmp/lineup-demo.XXXXXX";
	struct strbuf c = STRBUF_INIT, what = STRBUF_INIT;
	const char *dir, *cc = getenv("CC");
	int rc, i = cli__parse(cmd, argc, argv, demo_option, &o, &rc);
	ssize_t n;

	if (i < 0)
		return rc;
	if (i < argc)
		return cli__usage_error(cmd, "unexpected argument '%s'", argv[i]);
	if (strpbrk(o.workload, "/. '\"$`\\"))
		return cli__usage_error(cmd, "--workload: '%s' is not a workload name", o.workload);
	if (!find_workloads(src, sizeof(src), o.workload)) {
		cli__error("demo: workload '%s' not found in %s/tests/workloads or %s/workloads",
			   o.workload, LINEUP_SRCDIR, LINEUP_DATADIR);
		return EXIT_USAGE;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		cli__error("demo: cannot find this binary (/proc/self/exe): %s", strerror(errno));
		return EXIT_USAGE;
	}
	self[n] = '\0';
	if (!cc || !*cc)
		cc = "gcc";
	if (o.keep) {
		dir = o.keep;
		if (mkdir(dir, 0755) && errno != EEXIST) {
			cli__error("demo: cannot create %s: %s", dir, strerror(errno));
			return EXIT_USAGE;
		}
	} else if (!(dir = mkdtemp(tmpl))) {
		cli__error("demo: cannot create a temporary directory: %s", strerror(errno));
		return EXIT_USAGE;
	}

	printf("lineup demo: workload '%s' (%s/%s.c), in %s\n"
	       "Built for the software collector, so no memory PMU is needed.\n",
	       o.workload, src, o.workload, dir);

	strbuf__addf(&what, "%s $(lineup sim-flags --cflags) -O2 -c %s.c && %s %s.o "
		     "$(lineup sim-flags --libs) -o %s", cc, o.workload, cc, o.workload, o.workload);
	strbuf__addf(&c, "cd '%s' && %s $('%s' sim-flags --cflags --cc %s) -O2 -I'%s' -c '%s/%s.c' "
		     "-o w.o && %s w.o $('%s' sim-flags --libs --cc %s) -o '%s'",
		     dir, cc, self, cc, src, src, o.workload, cc, self, cc, o.workload);
	rc = sh(what.buf, c.buf);
	if (rc)
		goto out;

	strbuf__reset(&what);
	strbuf__reset(&c);
	strbuf__addf(&what, "lineup record --sim -o perf.data -- ./%s %llu 2", o.workload,
		     o.iterations);
	strbuf__addf(&c, "cd '%s' && '%s' record --sim -o perf.data -- ./%s %llu 2 >/dev/null",
		     dir, self, o.workload, o.iterations);
	for (int try = 1;; try++) {
		char data[PATH_MAX];
		int found;

		rc = sh(what.buf, c.buf);
		if (rc)
			goto out;
		snprintf(data, sizeof(data), "%s/perf.data", dir);
		found = contended(data);
		if (found < 0) {
			rc = EXIT_USAGE;
			goto out;
		}
		if (found || try == 3)
			break;
		printf("(few HITMs: the two threads hardly ran at the same time, the machine is "
		       "busy; recording again, try %d of 3)\n", try + 1);
	}

	strbuf__reset(&c);
	strbuf__addf(&c, "cd '%s' && '%s' report -i perf.data --stdio", dir, self);
	rc = sh("lineup report -i perf.data --stdio      # perf c2c report's tables and numbers",
		c.buf);
	if (rc)
		goto out;

	strbuf__reset(&c);
	strbuf__addf(&c, "cd '%s' && '%s' fields -i perf.data", dir, self);
	rc = sh("lineup fields -i perf.data              # the members behind the hot line", c.buf);
out:
	if (!o.keep) {
		strbuf__reset(&c);
		strbuf__addf(&c, "rm -rf '%s'", dir);
		if (system(c.buf))
			cli__error("demo: could not remove %s", dir);
	}
	strbuf__release(&c);
	strbuf__release(&what);
	return rc;
}

const struct command cmd_demo = {
	.name = "demo",
	.summary = "the whole loop on a bundled workload: build, record --sim, report, fields",
	.usage = "[-w NAME] [-n N] [-k DIR]",
	.description = "Build a bundled workload (default: an object shaped like the kernel's "
		       "struct file, used by two threads) for the software collector, record it "
		       "with 'lineup record --sim', and show 'lineup report --stdio' (perf c2c's "
		       "tables) and 'lineup fields' (the members, their writers, the verdict).",
	.options = demo_options,
	.run = demo_run,
};
