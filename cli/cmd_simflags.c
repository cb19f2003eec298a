// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lineup sim-flags: the compiler and linker flags that build a program for the software
 * collector: ThreadSanitizer instrumentation at compile time, lineup's runtime instead of
 * libtsan at link time.
 */
#include <config.h>

#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/command.h"
#include "sampling/host.h"

#ifndef LINEUP_LIBDIR
#define LINEUP_LIBDIR "/usr/local/lib"
#endif

#define SIM_LIB "liblineup-sim.a"
#define SIM_SPECS "lineup-sim.specs"

enum {
	OPT_CFLAGS = 1000,
	OPT_LIBS,
	OPT_CC,
};

static const struct cli_option simflags_options[] = {
    {OPT_CFLAGS, 0, "cflags", NULL, "print the compile flags (use them with -c)"},
    {OPT_LIBS, 0, "libs", NULL,
     "print the link flags (they keep libtsan out; with neither option, both sets, which work "
     "for a compile, a link, or both in one step)"},
    {OPT_CC, 0, "cc", "gcc|clang",
     "the compiler (default: from $CC, else gcc); they spell the options differently"},
    CLI_OPTION_END};

struct simflags_opts {
	const struct command *cmd;
	bool cflags, libs;
	const char *cc;
};

static int simflags_option(void *ctx, int id, const char *arg)
{
	struct simflags_opts *o = ctx;

	switch (id) {
	case OPT_CFLAGS:
		o->cflags = true;
		break;
	case OPT_LIBS:
		o->libs = true;
		break;
	case OPT_CC:
		o->cc = arg;
		break;
	}
	return 0;
}

/*
 * The runtime: $LINEUP_SIM_LIB, else beside this binary in a build tree
 * (BUILDDIR/sampling/simrt/), else in ../lib next to it (an installed tree that was moved, or
 * staged with DESTDIR), else in the configured libdir.  Returns false when none exists.
 */
static bool find_runtime(char *out, size_t size)
{
	const char *env = getenv("LINEUP_SIM_LIB");
	char *exe;

	if (env && *env) {
		snprintf(out, size, "%s", env);
		return access(out, R_OK) == 0;
	}
	if ((exe = host__self_exe())) {
		char *dir = dirname(exe);

		snprintf(out, size, "%s/sampling/simrt/" SIM_LIB, dir);
		bool found = !access(out, R_OK);

		if (!found) {
			snprintf(out, size, "%s/../lib/" SIM_LIB, dir);
			found = !access(out, R_OK);
		}
		free(exe);
		if (found)
			return true;
	}
	snprintf(out, size, "%s/" SIM_LIB, LINEUP_LIBDIR);
	return access(out, R_OK) == 0;
}

/*
 * gcc's instrumentation flag.  -fsanitize=thread seen by the driver at a link adds libtsan,
 * whose runtime then takes the place of lineup's (nothing is recorded): so where the specs
 * file installed beside the runtime is found, the flag goes to the compiler proper only
 * (cc1/cc1plus, through the specs), and these flags work in a one-step `gcc prog.c FLAGS` too.
 */
static void gcc_instrument_flag(const char *lib, char *out, size_t size)
{
	char dir[PATH_MAX + 32], specs[PATH_MAX + 64];

	snprintf(dir, sizeof(dir), "%s", lib);
	snprintf(specs, sizeof(specs), "%s/" SIM_SPECS, dirname(dir));
	if (*lib && !access(specs, R_OK))
		snprintf(out, size, "-specs=%s", specs);
	else
		snprintf(out, size, "-fsanitize=thread");
}

/*
 * gcc: the mem* calls kept calls (no builtin expansion), fortify's checked forms too (they
 * expand inline whatever -fno-builtin says: -U_FORTIFY_SOURCE), and not tail calls (a `jmp
 * memset` would have the runtime see the caller's caller as the call site).
 */
#define GCC_MEM_FLAGS                                                                              \
	"-fno-builtin-memset -fno-builtin-bzero -fno-builtin-memcpy -fno-builtin-memmove "         \
	"-fno-builtin-mempcpy -U_FORTIFY_SOURCE -fno-optimize-sibling-calls"

static int simflags_run(const struct command *cmd, int argc, char **argv)
{
	struct simflags_opts o = {.cmd = cmd};
	char lib[PATH_MAX + 32], instrument[PATH_MAX + 128];
	bool clang, have_lib;
	int rc, i = cli__parse(cmd, argc, argv, simflags_option, &o, &rc);

	if (i < 0)
		return rc;
	if (i < argc)
		return cli__usage_error(cmd, "unexpected argument '%s'", argv[i]);
	if (!o.cc) {
		const char *env = getenv("CC");

		o.cc = env && *env ? env : "gcc";
	}
	/*
	 * "clang", "clang-19", "/usr/bin/clang"; gcc otherwise.  gcc's -Wtsan warns that TSan
	 * does not model fences: this runtime performs them, so the warning is noise here.
	 * clang drops the read of a read-modify-write (x++) unless told not to, and that read
	 * is the load that finds the line Modified elsewhere: the HITM.  clang's
	 * -fno-sanitize-link-runtime keeps its tsan runtime out of a link with these flags.
	 * gcc's instrumentation skips memset/bzero/memcpy/memmove, and expands those of known
	 * sizes inline (mov or rep stos, never seen): GCC_MEM_FLAGS keeps them calls, which the
	 * runtime interposes.  (clang's turns them into calls itself.)
	 */
	{
		const char *base = strrchr(o.cc, '/');

		base = base ? base + 1 : o.cc;
		clang = !strncmp(base, "clang", 5);
		if (!clang && strncmp(base, "gcc", 3) && strncmp(base, "cc", 2) &&
		    !strstr(base, "-gcc") && strncmp(base, "g++", 3) && strncmp(base, "c++", 3) &&
		    !strstr(base, "-g++"))
			return cli__usage_error(cmd, "--cc: '%s' is neither gcc nor clang", o.cc);
	}
	if (!o.cflags && !o.libs)
		o.cflags = o.libs = true;
	have_lib = find_runtime(lib, sizeof(lib));
	if (o.libs && !have_lib) {
		cli__error("sim-flags: the collector's runtime %s is not built or installed "
			   "(looked beside this lineup and in %s)",
			   SIM_LIB, LINEUP_LIBDIR);
		return EXIT_NOTHING;
	}
	gcc_instrument_flag(have_lib ? lib : "", instrument, sizeof(instrument));
	if (o.cflags)
		printf("%s %s -g -fno-omit-frame-pointer",
		       clang ? "-fsanitize=thread" : instrument,
		       clang ? "-fno-sanitize-link-runtime -fno-sanitize-thread-func-entry-exit "
			       "-mllvm -tsan-compound-read-before-write"
			     : "--param=tsan-instrument-func-entry-exit=0 -Wno-tsan " GCC_MEM_FLAGS);
	if (o.cflags && o.libs)
		putchar(' ');
	if (o.libs)
		/* The hooks exported: a plugin built with --cflags and dlopen()ed finds them. */
		printf("-Wl,--whole-archive %s -Wl,--no-whole-archive "
		       "-Wl,--export-dynamic-symbol=__tsan_* -lpthread -latomic",
		       lib);
	putchar('\n');
	return EXIT_OK;
}

const struct command cmd_sim_flags = {
    .name = "sim-flags",
    .summary = "compiler and linker flags for the software collector (record --sim)",
    .usage = "[--cflags] [--libs] [--cc gcc|clang]",
    .description =
	"Print the flags that build a program for `lineup record --sim`: compile with "
	"-fsanitize=thread (ThreadSanitizer's instrumentation, function entry/exit hooks "
	"off) and link with lineup's runtime instead of libtsan, in one step or two:\n"
	"  cc prog.c $(lineup sim-flags) -o prog\n"
	"  cc $(lineup sim-flags --cflags) -c prog.c && cc prog.o $(lineup sim-flags --libs)\n"
	"With gcc the instrumentation flag reaches the compiler through lineup-sim.specs, "
	"installed beside the runtime, so that a link never adds libtsan (clang: "
	"-fno-sanitize-link-runtime).  "
	"With clang, `x++` on plain memory is one call (compound read-write), which makes "
	"tight loops cheaper to record than with gcc.  "
	"The runtime models each cache line's coherence state per thread (64- and 128-byte "
	"lines) and writes a perf.data that perf c2c and lineup report read.  It reads "
	"LINEUP_SIM_OUTPUT (the file; unset, the program runs unrecorded), LINEUP_SIM_PERIOD "
	"(sampling period of accesses that "
	"hit, 1000), LINEUP_SIM_MISS_PERIOD (of those that miss: HITMs, invalidations; "
	"PERIOD/20), LINEUP_SIM_WINDOW (BURST/EVERY[/START] microseconds, 200/2000/10000: "
	"after an exact START of CPU time, plain accesses are modeled in windows of BURST every EVERY, "
	"atomic RMWs and locks always; 0: every access; `lineup record --sim-window`), "
	"LINEUP_SIM_PATCH (0: between windows the hooks stay calls and count loads, "
	"`lineup record --sim-count`; otherwise, on x86-64, their call sites are patched to "
	"no-ops between windows), "
	"LINEUP_SIM_MAX_ALLOCS (allocations logged, 1000000: malloc, calloc, realloc, the "
	"aligned allocators and C++'s operator new and new[], which the runtime replaces, each "
	"at its caller's call site) and "
	"LINEUP_SIM_YIELD (each thread yields the CPU every N modeled accesses) and "
	"LINEUP_SIM_TURNS (`lineup record --sim-turns N`: the threads take turns every N modeled "
	"accesses, handing one baton around): threads contend only when they run at the same "
	"time, so where there are fewer free CPUs than threads, or the machine is busy, set "
	"LINEUP_SIM_TURNS, e.g. to 100 (sched_yield hands the CPU to another job, not always "
	"to the other thread).\n"
	"What is seen: every plain and atomic load and store the compiler instruments, struct "
	"copies and clears (ranges), the pthread locks, and the calls to memset, bzero, memcpy, "
	"memmove and mempcpy (and their fortified __*_chk forms) from the program and its "
	"libraries, as one access per cache line they touch at the call's address (a copy: its "
	"source read, then its destination written).  gcc expands those calls inline unless "
	"told not to: these flags tell it (-fno-builtin-memset ..., -U_FORTIFY_SOURCE, and "
	"-fno-optimize-sibling-calls so that the call's own address is the one recorded); a "
	"-D_FORTIFY_SOURCE given after them, or __builtin_memset written in the source, "
	"brings gcc's inline expansions of constant sizes back, and those are not seen.  Not "
	"seen either: code not compiled with these flags (other than the mem* calls it makes), "
	"the copies libc makes inside itself (stdio buffers, qsort, the str* and wmem* functions), "
	"and the kernel's writes (read(2) into a buffer).",
    .options = simflags_options,
    .run = simflags_run,
};
