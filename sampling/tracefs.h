/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_TRACEFS_H
#define LINEUP_SAMPLING_TRACEFS_H

/*
 * The kernel's tracefs: where it is, tracepoint ids and format files, trace options.
 *
 * lineup reads tracepoint payloads through perf_event_open (PERF_SAMPLE_RAW), never through
 * the tracefs ring buffer, so it enables nothing here: tracefs only names the events (their
 * id for perf_event_attr.config) and describes their payload (the format file that
 * libtraceevent parses).
 *
 * Ownership: strings returned through char ** are malloc'ed and freed by the caller.
 * Errors: 0 or -errno, with a message naming the path in the caller's buffer.
 */
#include <stddef.h>

/**
 * tracefs__dir - the tracefs mount point, mounting it at /sys/kernel/tracing when it is not
 * mounted anywhere (a fresh VM often has the directory but nothing in it).
 * @mounted:	set to 1 when this call mounted it (it is left mounted: other tools and
 *		concurrent lineup runs may be using it), else 0; may be NULL
 * Returns the path (static storage) or NULL with the reason in @err.
 */
const char *tracefs__dir(int *mounted, char *err, size_t errlen);

/* Read the whole file tracefs/@rel (NUL-terminated) into *buf, its length in *len. */
int tracefs__read(const char *rel, char **buf, size_t *len, char *err, size_t errlen);

/* The numeric id of tracepoint @sys:@name (its events/SYS/NAME/id file): >= 0, or -errno. */
long long tracefs__event_id(const char *sys, const char *name, char *err, size_t errlen);

/* The format file of @sys:@name, into *buf (length in *len). */
int tracefs__event_format(const char *sys, const char *name, char **buf, size_t *len,
			  char *err, size_t errlen);

/*
 * Build a perf.data TRACING_DATA section (as perf's trace-event-info.c lays it out, version
 * 0.6) describing the tracepoints @events ("sys:name") of the running kernel: header page,
 * header event, their format files; no ftrace events, kallsyms, printk formats or cmdlines.
 * *out is malloc'ed.
 */
int tracefs__tracing_data(const char *const *events, unsigned int n, void **out, size_t *len,
			  char *err, size_t errlen);

/*
 * A trace option (trace_options / options/NAME): 1 set, 0 clear, -errno (-ENOENT when this
 * kernel has no such option).
 */
int tracefs__option_get(const char *name, char *err, size_t errlen);
int tracefs__option_set(const char *name, int on, char *err, size_t errlen);

#endif
