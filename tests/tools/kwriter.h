/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_TESTS_TOOLS_KWRITER_H
#define LINEUP_TESTS_TOOLS_KWRITER_H
/*
 * What the test tools that write recordings of kernel memory samples (tests/fields/mkkern,
 * tests/tools/mkksym) share: the writer with the events `perf c2c record` opens on Intel, and
 * the error exit.
 */
#include <stdbool.h>

struct perf_writer;

/* Prints "PROG: line LINE: WHAT[: W's last error]" on stderr and exits 2. */
void __attribute__((noreturn)) kwriter__die(const char *prog, const char *what, int line,
					    struct perf_writer *w);

/*
 * For the command line "PROG OUT < SCENARIO" (else the usage line and exit 2): a writer opened
 * at OUT with the load event (index 0) and, with @stores, the store event (index 1); their
 * sample type has the id fields TID, TIME, CPU, IDENTIFIER.  Dies on failure.
 */
struct perf_writer *kwriter__open(const char *prog, int argc, char **argv, bool stores);

#endif
