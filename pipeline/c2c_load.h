/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_PIPELINE_C2C_LOAD_H
#define LINEUP_PIPELINE_C2C_LOAD_H

/*
 * One recording read into perf c2c's tables (analyzer/c2c.h): the pipeline of `lineup report`
 * and of any other front end that shows them.  The session (sampling/session.h) delivers the
 * samples in perf's order, filtered and resolved; each is resolved further as perf's
 * sample__resolve_mem does (the data address's map, the call chain) and added to the c2c,
 * a few samples late so that what it will touch is prefetched meanwhile; the c2c is made
 * when the first sample comes (pipe mode sends the CPUs, nodes and line size as records).
 * With @fields the Type and Member columns (pipeline/report_fields.h) see every sample too.
 *
 *	struct c2c_load *l;
 *	rc = c2c_load__run(&l, &opts, err, sizeof(err));	0, or -errno with @err said
 *	warnings: fields_attr__next_warning(report_fields__attr(c2c_load__fields(l)))
 *	c2c__resolve(c2c_load__c2c(l), c2c_load__resolver(l), ...) ... print ...
 *	c2c_load__delete(l);
 *
 * Ownership: @opts' strings, filter and attribution options are borrowed and must outlive the
 * c2c_load; everything it hands out (the c2c, the session, the resolver) is its own, freed by
 * c2c_load__delete, which a failed c2c_load__run leaves to the caller too.
 */
#include <stdbool.h>
#include <stddef.h>

#include "analyzer/c2c.h"

struct c2c_load;
struct fields_attr_opts;
struct perf_header_info;
struct report_fields;
struct session;
struct session_filter;
struct strbuf;

/**
 * struct c2c_load_opts - what to read and how to count it.
 * @input, @vmlinux, @symfs: the recording, and where its objects are
 * @filter:	the samples to count (NULL: all)
 * @cfg:	the c2c's settings from the command line (display, coalesce keys); the rest
 *		(line size, CPUs, nodes, memory) come from the recording and the fields below
 * @display_set: -d was given (else an arm64 recording is shown in peer mode, as perf does)
 * @line_size:	0: the recording's, else 64; @double_cl doubles it
 * @show_all, @node_info: as perf c2c report's
 * @fields:	the Type and Member columns, with the evidence of @fattr
 */
struct c2c_load_opts {
	const char *input, *vmlinux, *symfs;
	const struct session_filter *filter;
	struct c2c_config cfg;
	bool display_set;
	unsigned int line_size;
	bool double_cl, show_all;
	int node_info;
	bool fields;
	const struct fields_attr_opts *fattr;
	/*
	 * Said at once while the recording is read: that at the rate so far its entries will
	 * not fit in memory (NULL: not said).  When they would not fit any more, the run stops
	 * first, with -ENOMEM and @err saying so, rather than be killed with nothing said.
	 */
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
};

int c2c_load__run(struct c2c_load **out, const struct c2c_load_opts *opts, char *err,
		  size_t errlen);
void c2c_load__delete(struct c2c_load *l);

struct c2c *c2c_load__c2c(struct c2c_load *l);
struct session *c2c_load__session(struct c2c_load *l);
const struct perf_header_info *c2c_load__header(struct c2c_load *l);
/* The Type and Member columns, NULL without @fields. */
struct report_fields *c2c_load__fields(struct c2c_load *l);
/* Names the threads and code addresses of the entries c2c__resolve shows. */
const struct c2c_resolver *c2c_load__resolver(struct c2c_load *l);

/*
 * The source file (full path, into @path) and line of an entry's code address, for a browser:
 * 0, or -1 when there is none.  @ctx is the c2c_load.
 */
int c2c_load__source(void *ctx, const struct c2c_entry *e, struct strbuf *path,
		     unsigned int *line);

#endif
