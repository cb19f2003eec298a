/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_PIPELINE_SUGGEST_LOAD_H
#define LINEUP_PIPELINE_SUGGEST_LOAD_H

/*
 * One recording read into the suggesters (analyzer/suggest_targets.h) and what a suggestion
 * is made of once they have decided: the pipeline of `lineup suggest` and of the browser's
 * suggestion view.  The recording is read by pipeline/fields_load.h, each attributed access
 * handed to its struct's suggester; the misaligned arrays are found (analyzer/array_align.h);
 * a patch is made from the source files the debug info names (analyzer/srcpatch.h).  Nothing
 * here prints: what a front end should say comes through @say.
 *
 *	struct suggest_load sl;
 *	rc = suggest_load__run(&sl, &opts, err, sizeof(err));	0, or -errno with @err said
 *	mark the structs wanted: sl.ts.v[k].selected = true
 *	suggest_load__decide(&sl);
 *	suggest_load__patch(&sl, &patch, recording);	the diff in patch.diff
 *	suggest_load__print_layout(&sl, t, after, &sb);	the layouts, annotated
 *	suggest_patch__release(&patch);
 *	suggest_load__release(&sl);				after a failed run too
 *
 * Ownership: @opts and everything it points to are borrowed and must outlive the
 * suggest_load; the rest is its own.  A suggest_patch owns its texts.
 */
#include <stdbool.h>
#include <stdint.h>

#include "analyzer/srcpatch.h"
#include "analyzer/suggest_targets.h"
#include "pipeline/fields_attr.h"
#include "pipeline/fields_load.h"
#include "util/arena.h"
#include "util/strbuf.h"

struct align_finding;
struct array_align;
struct session_filter;
struct suggest_names;

/**
 * struct suggest_load_opts - what to read and how to suggest.
 * @input, @attr, @filter: the recording, the evidence, the samples to count (NULL: all)
 * @line_size, @double_cl: 0: the recording's line size, else 64; doubled
 * @max_growth:	bytes the struct may grow by (UINT64_MAX: no bound), or @max_growth_lines
 *		lines when that is not 0
 * @pins:	members kept at their offsets
 * @source_root: the tree the debug info's paths are under (NULL: the current directory)
 * @style:	enum srcpatch_style, -1: the tree's own
 * @by_name:	the structs were chosen by name: only their arrays' allocations are patched
 * @say:	a message for the user (@warning: a warning, else an error's words), NULL: none
 */
struct suggest_load_opts {
	const char *input;
	const struct fields_attr_opts *attr;
	const struct session_filter *filter;
	unsigned int line_size;
	bool double_cl;
	uint64_t max_growth, max_growth_lines;
	const struct fields_list *pins;
	const char *source_root;
	int style;
	bool by_name;
	void (*say)(void *ctx, bool warning, const char *msg);
	void *say_ctx;
};

/**
 * struct suggest_load - a recording read for suggestions.
 * @ld:		the recording and its field tables (ld.fields, ld.fa)
 * @ts:		a suggester per attributed struct
 * @line_size:	the lines suggested for
 * @align:	arrays whose threads' elements share lines
 */
struct suggest_load {
	const struct suggest_load_opts *o;
	struct fields_load ld;
	struct suggest_targets ts;
	unsigned int line_size;
	uint64_t max_growth;
	struct arena arena;
	struct array_align *align;
};

/* Read @o->input: 0, or -EINVAL (it cannot be read), -ENODATA (no data address), @err said. */
int suggest_load__run(struct suggest_load *sl, const struct suggest_load_opts *o, char *err,
		      size_t errlen);
void suggest_load__release(struct suggest_load *sl);

/* Decide the selected structs' layouts (padded array elements first); whether one is made. */
bool suggest_load__decide(struct suggest_load *sl);

/* Whether finding @af concerns the selected structs (all, unless by_name). */
bool suggest_load__align_selected(const struct suggest_load *sl, const struct align_finding *af);
/* A finding whose fix lineup can write: an aligned allocation, a padded element. */
bool suggest_load__align_fixable(const struct align_finding *af);

/*
 * How a suggestion's words name things (suggest_text.h): its members' code through the
 * recording's symbols.  @nc holds the words' buffer: strbuf__release(&nc->sb) after.
 */
struct suggest_load_names {
	struct suggest_load *sl;
	struct suggest_target *t;
	struct strbuf sb;
};

void suggest_load__names(struct suggest_load *sl, struct suggest_target *t, const char *recording,
			 struct suggest_names *n, struct suggest_load_names *nc);

/* The current layout of @t (@after false) or the suggested one, annotated with its figures. */
void suggest_load__print_layout(struct suggest_load *sl, struct suggest_target *t, bool after,
				struct strbuf *out);

/* One misaligned array's allocating call, rewritten or not (and why). */
struct suggest_alloc_fix {
	const struct align_finding *af;
	char *where;		/* "file.c:42" */
	char *message;		/* why not, or NULL when rewritten */
	int file;		/* the suggest_patch file rewritten, -1: none */
};

/**
 * struct suggest_patch - the source files of the suggested structs and the patcher's answer.
 * @paths:	where each file is here
 * @req_target:	the struct of each request
 * @orig:	each file as read (files[].text: what srcpatch is given)
 * @allocs:	the misaligned arrays' allocations
 * @diff:	every change, allocations and structs, as one diff
 */
struct suggest_patch {
	struct srcpatch_file *files;
	char **paths;
	unsigned int nr_files;
	struct srcpatch_request *reqs;
	struct suggest_target **req_target;
	unsigned int nr_reqs;
	struct srcpatch *sp;
	char **comments;
	char **names;		/* by-name matches: the source's units, the slots' names */
	unsigned int nr_names;
	char **orig;
	struct suggest_alloc_fix *allocs;
	unsigned int nr_allocs;
	char *diff;
};

/*
 * The patch of the selected structs whose layout was decided, and of their arrays'
 * allocations: 0, or 1 when something could not be patched (said), @p->diff made either way.
 */
int suggest_load__patch(struct suggest_load *sl, struct suggest_patch *p, const char *recording);
void suggest_patch__release(struct suggest_patch *p);

/* File @f of @p as patched (its text as read where nothing changed it). */
const char *suggest_patch__text(const struct suggest_patch *p, unsigned int f);

#endif
