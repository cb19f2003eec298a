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
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyzer/data_src.h"
#include "cli/command.h"
#include "pipeline/sim_census.h"
#include "sampling/host.h"
#include "sampling/perf_file.h"
#include "sampling/workload.h"
#include "util/file.h"
#include "util/privdir.h"
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

/*
 * Run @argv in @dir, without a shell: a path is an argument, never command text (a --keep
 * DIR with quotes in it stays a name).  @env: one "NAME=VALUE" for the child, or NULL; @out:
 * the child's stdout (-1: ours).  Prints "$ @what" first.  The child's exit status, or
 * EXIT_RUNTIME when it could not be run or did not run to completion.
 */
static int run(const char *what, const char *dir, char *const argv[], const char *env, int out)
{
	const char *envv[] = { env, NULL };
	struct workload w = WORKLOAD_INIT;
	struct workload_opts o;
	char msg[PATH_MAX + 128];
	int rc;

	printf("\n$ %s\n", what);
	workload_opts__init(&o, argv);
	o.dir = dir;
	o.env = env ? envv : NULL;
	o.stdio[1] = out;
	rc = workload__prepare(&w, &o);
	if (rc < 0) {
		cli__error("demo: %s", w.err ? workload__strerror(&w, msg, sizeof(msg))
					     : strerror(-rc));
		return EXIT_RUNTIME;
	}
	rc = workload__wait(&w, true, NULL);
	if (rc < 0) {
		cli__error("demo: waitpid: %s", strerror(-rc));
		workload__end(&w);
		return EXIT_RUNTIME;
	}
	if (!WIFEXITED(w.status)) {
		cli__error("demo: '%s' %s", what,
			   workload__describe_status(w.status, msg, sizeof(msg)));
		return EXIT_RUNTIME;
	}
	return WEXITSTATUS(w.status);
}

/* Split @s on blanks into @v (at most @max - 1 words, NULL-terminated); @s is modified. */
static size_t split_words(char *s, char **v, size_t max)
{
	size_t n = 0;

	for (char *w = strtok(s, " \t\n"); w && n + 1 < max; w = strtok(NULL, " \t\n"))
		v[n++] = w;
	v[n] = NULL;
	return n;
}

/* `SELF sim-flags --cc CC`'s one line (flags for a one-step build) into @buf; 0 or an exit code. */
static int sim_flags(const char *self, const char *cc, char *buf, size_t size)
{
	char *const argv[] = { (char *)self, "sim-flags", "--cc", (char *)cc, NULL };
	struct workload w = WORKLOAD_INIT;
	struct workload_opts o;
	char msg[PATH_MAX + 128];
	int fd[2], rc;
	size_t len = 0;
	ssize_t n;

	if (pipe2(fd, O_CLOEXEC)) {
		cli__error("demo: pipe: %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	workload_opts__init(&o, argv);
	o.stdio[1] = fd[1];
	rc = workload__prepare(&w, &o);
	close(fd[1]);
	if (rc < 0) {
		cli__error("demo: %s", w.err ? workload__strerror(&w, msg, sizeof(msg))
					     : strerror(-rc));
		close(fd[0]);
		return EXIT_RUNTIME;
	}
	while (len + 1 < size && (n = read(fd[0], buf + len, size - 1 - len)) != 0)
		if (n > 0)
			len += (size_t)n;
		else if (errno != EINTR)
			break;
	buf[len] = 0;
	close(fd[0]);
	workload__wait(&w, true, NULL);
	workload__end(&w);
	if (!WIFEXITED(w.status) || WEXITSTATUS(w.status) || !len)
		return WIFEXITED(w.status) && WEXITSTATUS(w.status) ? WEXITSTATUS(w.status)
								    : EXIT_RUNTIME;
	return 0;
}

/* @text into a new @path (the demo's own directory only). */
static int demo_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	size_t len = strlen(text);

	if (fd < 0 || write(fd, text, len) != (ssize_t)len || close(fd)) {
		cli__error("demo: cannot write %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return EXIT_RUNTIME;
	}
	return 0;
}

/*
 * `record --sim-turns` for the first recording.  Two threads contend only while both run;
 * where the CPUs this process may use are not comfortably more than the threads (a 2-CPU
 * machine with another job running), they would run at different times and hardly ever meet,
 * and yielding hands the CPU to the other job as often as to the other thread: taking turns
 * every 100 modeled accesses (a baton handed between them) makes them interleave whatever the
 * scheduler does.  0 where CPUs are plenty.
 */
static unsigned int first_turns(unsigned int threads)
{
	cpu_set_t set;
	int cpus = 0;

	if (!sched_getaffinity(0, sizeof(set), &set))
		cpus = CPU_COUNT(&set);
	return cpus > 0 && (unsigned int)cpus >= threads + 2 ? 0 : 100;
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
	char err[PERF_FILE_ERRMAX];

	if (sim_census__read(&c, path, err, sizeof(err))) {
		cli__error("demo: %s", err);
		return -1;
	}
	return c.hitm > 0 && c.hitm * 100 >= c.loads;
}

/* Whether this build has the subcommand @name (the demo shows what it has). */
static bool demo_has_command(const char *name)
{
	for (const struct command *const *c = lineup_commands; *c; c++)
		if (!strcmp((*c)->name, name))
			return true;
	return false;
}

/* What the demo's steps share. */
struct demo {
	const char *self, *dir, *cc, *workload;
	char iters[32];
	int devnull;
	struct strbuf what;
};

/*
 * Build src/WORKLOAD.c for the collector into @out, in one step: CC's words, the source,
 * sim-flags' line (with @plain, an ordinary -O2 build for timing).
 */
static int demo_build(struct demo *d, const char *out, bool plain)
{
	char flags[2 * PATH_MAX + 512], ccbuf[256], file[NAME_MAX + 16], *av[96];
	size_t nav;
	int rc;

	snprintf(ccbuf, sizeof(ccbuf), "%s", d->cc);
	nav = split_words(ccbuf, av, 8);
	if (!nav)
		return EXIT_USAGE;
	if (plain) {
		snprintf(flags, sizeof(flags), "-pthread");
	} else if ((rc = sim_flags(d->self, av[0], flags, sizeof(flags)))) {
		return rc;
	}
	snprintf(file, sizeof(file), "src/%s.c", d->workload);
	av[nav++] = "-O2";
	av[nav++] = "-Isrc";
	av[nav++] = file;
	nav += split_words(flags, av + nav, sizeof(av) / sizeof(av[0]) - nav - 3);
	av[nav++] = "-o";
	av[nav++] = (char *)out;
	av[nav] = NULL;
	strbuf__reset(&d->what);
	strbuf__addf(&d->what, "%s -O2 src/%s.c %s -o %s", d->cc, d->workload,
		     plain ? "-pthread" : "$(lineup sim-flags)", out);
	return run(d->what.buf, d->dir, av, NULL, -1);
}

/*
 * Record ./@prog with the collector into @data, again (3 tries) while the two threads hardly
 * met, taking turns more often each time; @turns carries what worked over to the next
 * recording.
 */
static int demo_record(struct demo *d, const char *prog, const char *data, unsigned int *turns)
{
	char path[NAME_MAX + 3], file[PATH_MAX + 16], nturns[16];

	snprintf(path, sizeof(path), "./%s", prog);
	for (int try = 1;; try++) {
		char *rec[16] = { (char *)d->self, "record", "--sim" };
		int rc, found, n = 3;

		snprintf(nturns, sizeof(nturns), "%u", *turns);
		if (*turns) {
			/* every access modeled: taking turns inside the sampled windows, a busy
			 * machine leaves a handful of handoffs per window */
			rec[n++] = "--sim-turns";
			rec[n++] = nturns;
			rec[n++] = "--sim-exact";
		}
		rec[n++] = "-o";
		rec[n++] = (char *)data;
		rec[n++] = "--";
		rec[n++] = path;
		rec[n++] = d->iters;
		rec[n++] = "2";
		rec[n] = NULL;
		strbuf__reset(&d->what);
		strbuf__addf(&d->what, "lineup record --sim%s%s%s -o %s -- ./%s %s 2",
			     *turns ? " --sim-turns " : "", *turns ? nturns : "",
			     *turns ? " --sim-exact" : "", data, prog, d->iters);
		rc = run(d->what.buf, d->dir, rec, NULL, d->devnull);
		if (rc)
			return rc;
		snprintf(file, sizeof(file), "%s/%s", d->dir, data);
		found = contended(file);
		if (found < 0)
			return EXIT_RUNTIME;
		if (found || try == 3)
			return 0;
		/* The threads hardly met: make them take turns, then more often. */
		*turns = *turns ? *turns / 5 : 100;
		printf("(few HITMs: the two threads hardly ran at the same time, the machine is "
		       "busy; recording again with --sim-turns %u, so that they take turns: "
		       "try %d of 3)\n", *turns, try + 1);
	}
}

/* Copy the workload and the headers beside it into DIR/src: the sources the patch changes. */
static int demo_copy_sources(struct demo *d, const char *src)
{
	static const char *const files[] = { "workload.h", "counters.h" };
	char from[2 * PATH_MAX], to[2 * PATH_MAX], name[NAME_MAX + 4];
	int rc = 0;

	snprintf(to, sizeof(to), "%s/src", d->dir);
	if (mkdir(to, 0755) && errno != EEXIST) {
		cli__error("demo: cannot create %s: %s", to, strerror(errno));
		return EXIT_RUNTIME;
	}
	for (size_t i = 0; i <= sizeof(files) / sizeof(files[0]) && !rc; i++) {
		const char *f = i < sizeof(files) / sizeof(files[0]) ? files[i] : name;
		char err[2 * PATH_MAX + 160];
		char *text;

		snprintf(name, sizeof(name), "%s.c", d->workload);
		snprintf(from, sizeof(from), "%s/%s", src, f);
		snprintf(to, sizeof(to), "%s/src/%s", d->dir, f);
		if (!(text = file__read_text(from, FILE_SOURCE, err, sizeof(err)))) {
			cli__error("demo: %s", err);
			return EXIT_RUNTIME;
		}
		rc = demo_write(to, text);
		free(text);
	}
	return rc;
}

/*
 * The other half of the loop: suggest a layout and its patch, apply it to the copied
 * sources, build and record the patched program, and show the two recordings side by side
 * and the two plain builds timed against each other.
 */
static int demo_fix(struct demo *d, unsigned int *turns)
{
	char *const sug[] = { (char *)d->self, "suggest", "-i", "perf.data", "--patch", "fix.diff",
			      "--source-root", "src", NULL };
	/* patch -d changes into src first: the patch file is named from there */
	char *const pat[] = { "patch", "-s", "-p1", "-d", "src", "-i", "../fix.diff", NULL };
	char *const dif[] = { (char *)d->self, "diff", "perf.data", "after.data", NULL };
	char fixed[PATH_MAX], fixed_plain[PATH_MAX + 4], plain_a[PATH_MAX], plain_b[PATH_MAX];
	char err[2 * PATH_MAX + 160], file[PATH_MAX + 16];
	char *text;
	int rc;

	rc = run("lineup suggest -i perf.data --patch fix.diff --source-root src   # the new layout",
		 d->dir, sug, NULL, -1);
	if (rc == EXIT_NOTHING) {
		printf("\n(nothing to patch: the layout cannot remove this contention)\n");
		return 0;
	}
	if (rc)
		return rc;
	snprintf(file, sizeof(file), "%s/fix.diff", d->dir);
	if (!(text = file__read_text(file, FILE_PATCH, err, sizeof(err)))) {
		cli__error("demo: %s", err);
		return EXIT_RUNTIME;
	}
	printf("\n$ cat fix.diff\n%s", text);
	free(text);
	rc = run("patch -p1 -d src -i ../fix.diff", d->dir, pat, NULL, -1);
	if (rc)
		return rc;
	snprintf(fixed, sizeof(fixed), "%s.fixed", d->workload);
	rc = demo_build(d, fixed, false);
	if (!rc)
		rc = demo_record(d, fixed, "after.data", turns);
	if (!rc && demo_has_command("diff"))
		rc = run("lineup diff perf.data after.data       # before and after, line by line",
			 d->dir, dif, NULL, -1);
	if (rc)
		return rc;
	/* timing: ordinary builds of both sources (the collector's hooks would weigh in) */
	snprintf(plain_b, sizeof(plain_b), "%s.fixed.plain", d->workload);
	snprintf(fixed_plain, sizeof(fixed_plain), "./%s", plain_b);
	rc = demo_build(d, plain_b, true);
	if (rc)
		return rc;
	rc = run("patch -R -s -p1 -d src -i ../fix.diff", d->dir,
		 (char *const[]){ "patch", "-R", "-s", "-p1", "-d", "src", "-i", "../fix.diff", NULL },
		 NULL, -1);
	snprintf(plain_a, sizeof(plain_a), "%s.plain", d->workload);
	if (!rc)
		rc = demo_build(d, plain_a, true);
	if (rc)
		return rc;
	{
		char a[PATH_MAX + 4];
		char *const ab[] = { (char *)d->self, "ab", "-n", "10", "--", a, d->iters, "2",
				     "---", fixed_plain, d->iters, "2", NULL };

		snprintf(a, sizeof(a), "./%s", plain_a);
		strbuf__reset(&d->what);
		strbuf__addf(&d->what, "lineup ab -n 10 -- ./%s %s 2 --- ./%s %s 2   # timed",
			     plain_a, d->iters, plain_b, d->iters);
		rc = run(d->what.buf, d->dir, ab, NULL, -1);
		/* ab's 1 is "not significant or worse": said by ab itself, not a demo failure */
		if (rc == EXIT_NOTHING)
			rc = 0;
	}
	return rc;
}

static int demo_run(const struct command *cmd, int argc, char **argv)
{
	struct demo_opts o = { .cmd = cmd, .workload = "struct_file", .iterations = 1000000 };
	char src[PATH_MAX], err[PATH_MAX + 128], *self = NULL;
	struct privdir tmp = { .fd = -1 };
	struct demo d = { .what = STRBUF_INIT };
	unsigned int turns;
	int rc, i = cli__parse(cmd, argc, argv, demo_option, &o, &rc);

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
	if (!(self = host__self_exe())) {
		cli__error("demo: cannot find this binary (/proc/self/exe): %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	d.self = self;
	d.workload = o.workload;
	d.cc = getenv("CC") && *getenv("CC") ? getenv("CC") : "gcc";
	snprintf(d.iters, sizeof(d.iters), "%llu", o.iterations);
	if (o.keep) {
		d.dir = o.keep;
		if (mkdir(d.dir, 0755) && errno != EEXIST) {
			cli__error("demo: cannot create %s: %s", d.dir, strerror(errno));
			free(self);
			return EXIT_USAGE;
		}
	} else if (privdir__create(&tmp, "lineup-demo", err, sizeof(err)) < 0) {
		cli__error("demo: cannot create a temporary directory: %s", err);
		free(self);
		return EXIT_RUNTIME;
	} else {
		d.dir = tmp.path;
	}
	d.devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);

	printf("lineup demo: workload '%s' (%s/%s.c), in %s\n"
	       "Built for the software collector, so no memory PMU is needed.\n",
	       o.workload, src, o.workload, d.dir);
	rc = demo_copy_sources(&d, src);
	if (!rc)
		rc = demo_build(&d, o.workload, false);
	turns = first_turns(2);
	if (!rc)
		rc = demo_record(&d, o.workload, "perf.data", &turns);
	if (!rc) {
		char *const rep[] = { self, "report", "-i", "perf.data", "--stdio", NULL };

		rc = run("lineup report -i perf.data --stdio      # perf c2c report's tables and "
			 "numbers", d.dir, rep, NULL, -1);
	}
	if (!rc) {
		char *const fld[] = { self, "fields", "-i", "perf.data", NULL };

		rc = run("lineup fields -i perf.data              # the members behind the hot line",
			 d.dir, fld, NULL, -1);
	}
	if (!rc)
		rc = demo_fix(&d, &turns);
	if (d.devnull >= 0)
		close(d.devnull);
	/* our own temporary directory only: never what --keep named */
	if (!o.keep && privdir__remove_all(&tmp, err, sizeof(err)) < 0)
		cli__error("demo: could not remove %s", err);
	strbuf__release(&d.what);
	free(self);
	return rc;
}

const struct command cmd_demo = {
	.name = "demo",
	.summary = "the whole loop on a bundled workload: record, report, fields, suggest, patch, "
		   "record again, diff, ab",
	.usage = "[-w NAME] [-n N] [-k DIR]",
	.description = "Build a bundled workload (default: an object shaped like the kernel's "
		       "struct file, used by two threads) for the software collector, record it "
		       "with 'lineup record --sim', and show 'lineup report --stdio' (perf c2c's "
		       "tables) and 'lineup fields' (the members, their writers, the verdict); then "
		       "'lineup suggest' writes a patch of the new layout, which is applied to a "
		       "copy of the sources, built and recorded again: 'lineup diff' shows both "
		       "recordings side by side and 'lineup ab' times the two builds.",
	.options = demo_options,
	.run = demo_run,
};
