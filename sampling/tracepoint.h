/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_SAMPLING_TRACEPOINT_H
#define LINEUP_SAMPLING_TRACEPOINT_H

/*
 * Decoding tracepoint payloads (PERF_SAMPLE_RAW) with libtraceevent, from the events' format
 * files: the running kernel's (tracefs) or a perf.data file's own TRACING_DATA section.  No
 * libtraceevent type leaks out of this header.
 *
 * Ownership: the decoder owns everything it hands out; a struct tp_event stays valid until
 * the next tp_decoder__decode on the same decoder; names of events and fields until
 * tp_decoder__delete.
 * Errors: 0 or -errno with a message (what, and for TRACING_DATA the byte offset) in @err.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf;
struct tp_decoder;

enum tp_field_kind {
	TP_NUM,		/* an integer (pointers included) */
	TP_STR,		/* a string: fixed char[] or __data_loc/__rel_loc char[] */
	TP_BYTES,	/* any other array, raw */
};

/**
 * struct tp_field - one decoded field of a tracepoint record (common_* fields included).
 * @num:	TP_NUM: the value, sign-extended into the u64 when @is_signed
 * @str:	TP_STR: the text (not necessarily NUL-terminated within the payload: use @len),
 *		TP_BYTES: the bytes; both point into the payload
 */
struct tp_field {
	const char *name;
	enum tp_field_kind kind;
	bool is_signed;
	uint64_t num;
	const char *str;
	size_t len;
};

struct tp_event {
	int id;
	const char *sys;
	const char *name;
	unsigned int nr_fields;
	const struct tp_field *fields;
};

struct tp_decoder *tp_decoder__new(void);
void tp_decoder__delete(struct tp_decoder *d);

/* Parse one event format file (the text of a tracefs format file); returns its id or -errno. */
int tp_decoder__add_format(struct tp_decoder *d, const char *sys, const char *fmt, size_t len,
			   char *err, size_t errlen);

/* The same from the running kernel's tracefs; returns the event's id or -errno. */
int tp_decoder__add_tracefs(struct tp_decoder *d, const char *sys, const char *name, char *err,
			    size_t errlen);

/*
 * Load a perf.data TRACING_DATA section (HEADER_TRACING_DATA feature or the payload of a
 * PERF_RECORD_HEADER_TRACING_DATA): header page, ftrace and event formats, kallsyms, printk
 * formats and saved cmdlines, as perf's trace-event-read.c lays them out.
 */
int tp_decoder__load_tracing_data(struct tp_decoder *d, const void *data, size_t len, char *err,
				  size_t errlen);

/*
 * Register kernel function symbols from a kallsyms-format file (/proc/kallsyms) so %pS/%ps
 * in print formats show "func+0xoff" as perf does.  Returns the number registered or -errno
 * (-EFBIG for a file past 64 MiB, -EILSEQ for one with a NUL byte).
 */
int tp_decoder__load_kallsyms(struct tp_decoder *d, const char *path);

/* Find an event id by system and name: >= 0, or -ENOENT. */
int tp_decoder__find(const struct tp_decoder *d, const char *sys, const char *name);

/*
 * Decode @raw (a PERF_SAMPLE_RAW payload of @size bytes) into @out.
 * Returns 0, -ENOENT when the event id in the payload is unknown, -EINVAL when the payload is
 * shorter than its fields say (the message names the field).
 */
int tp_decoder__decode(struct tp_decoder *d, const void *raw, size_t size, struct tp_event *out,
		       char *err, size_t errlen);

/* The field named @name of a decoded event, or NULL. */
const struct tp_field *tp_event__field(const struct tp_event *ev, const char *name);

/*
 * Append the event's text as its print format renders it (what `perf script` prints after
 * "sys:name: ") to @sb.  Returns 0, -ENOENT for an unknown event, or -EINVAL when a field
 * runs past the payload.  It decodes the payload itself: the last tp_decoder__decode()'s
 * fields are then this payload's.
 */
int tp_decoder__print(struct tp_decoder *d, const void *raw, size_t size, int cpu,
		      struct strbuf *sb);

#endif
