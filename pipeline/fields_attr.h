/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_PIPELINE_FIELDS_ATTR_H
#define LINEUP_PIPELINE_FIELDS_ATTR_H

/*
 * Field attribution over one recording, for `lineup fields`, `lineup report --fields` and the
 * commands that build on them: the evidence sources joined.  The recording's side (sampling/)
 * gives the allocation records (the collector's alloc/free samples, kmem tracepoints decoded
 * with the recording's own tracing data) and the collector's RMW counts, and the maps that
 * lead from an IP or a data address to an object and a symbol; dwarf/ gives the operand type
 * at an IP and the variable at a data address (dwarf/vartype.h) and the types of the objects
 * at hand (dwarf/type_index.h); analyzer/attr_engine.h decides.
 *
 *	fields_attr__new(&fa, &opts, rec, err, sizeof(err));
 *	fields_attr__header(fa, perf_file__header(pf), path);	(kmem tracepoints' formats)
 *	for each record: the caller feeds its machine; for each sample,
 *		if (!fields_attr__side_sample(fa, h, &sample)) ... a memory sample: keep it
 *	after the last record: fields_attr__resolve(fa, &fs, &res) for each memory sample
 *	(or fields_attr__resolve_at() as the session hands them over, resolved, then
 *	fields_attr__finish() and
 *	fields_attr__settle() for those it left pending)
 *	warnings: while ((w = fields_attr__next_warning(fa))) the front end prints w
 *
 * Allocation records may come after the samples they explain (perf.data is in write order),
 * so resolve only after the whole file is read.  Nothing here prints.
 *
 * Ownership: the caller owns @opts and @rec, which must outlive the fields_attr; the
 * attr_results' layouts, paths and origins and the warnings stay valid until
 * fields_attr__delete().
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyzer/array_align.h"
#include "analyzer/attr_engine.h"

struct addr_loc;
struct machine;
struct perf_header_info;
struct recording;
struct sample;
struct strbuf;
struct fields_attr;

/* A list of option strings. */
struct fields_list {
	char **v;
	size_t nr, cap;
};

void fields_list__add(struct fields_list *l, const char *s);
void fields_list__release(struct fields_list *l);

/**
 * struct fields_attr_opts - where evidence comes from.
 * @debug_files: objects to take types from; a NAME.ko also gives module [NAME] its symbols
 * @hints:	'struct T'@ADDR
 * @cache_types: NAME=TYPE for kmem caches (over the built-in table)
 */
struct fields_attr_opts {
	const char *vmlinux;
	const char *symfs;
	struct fields_list debug_files;
	struct fields_list hints;
	struct fields_list cache_types;
};

/* The lists of @a freed (its strings are the caller's). */
void fields_attr_opts__release(struct fields_attr_opts *a);

/*
 * @fs from a decoded sample of the recording @h (absent fields 0): false when it carries no
 * data address.  A data breakpoint's sample without one (perf record -e mem:ADDR, no -d) has
 * the breakpoint's address.
 */
bool fields_sample__init(struct fields_sample *fs, const struct perf_header_info *h,
			 const struct sample *s);

/*
 * Whether @s's IP is the instruction after its access: a data breakpoint's trap (perf record
 * -e mem:ADDR), not a precise memory event's nor a lineup watch sample's whose access was
 * decoded (its data source says the kind, its IP is the access).
 */
bool fields_attr__is_trap(const struct perf_header_info *h, const struct sample *s);

/*
 * Move a trap's sample to its access: @fs->ip and @al->addr back to the start of the
 * instruction that ends there.  Left as they are where no instruction is known to end there.
 */
void fields_attr__trap_to_access(struct fields_attr *fa, struct fields_sample *fs,
				 struct addr_loc *al);

/* NULL when @hint is 'TYPE'@ADDR, else what is wrong with it. */
const char *fields_attr__check_hint(const char *hint);

/*
 * 0, or -EINVAL with @err naming the bad --debug-file, --vmlinux or --type.  The readers of
 * debug info are @rec's (pipeline/recording.h): one symbolizer and one index per recording.
 */
int fields_attr__new(struct fields_attr **out, const struct fields_attr_opts *opts,
		     struct recording *rec, char *err, size_t errlen);
void fields_attr__delete(struct fields_attr *fa);

/* The recording's header: its tracing data decodes kmem tracepoints. */
void fields_attr__header(struct fields_attr *fa, const struct perf_header_info *h,
			 const char *input);

/*
 * A sample of an allocation-tracking event (the collector's alloc/free, kmem tracepoints) or
 * of the collector's RMW counts: recorded, and true returned (it is no memory sample).
 */
bool fields_attr__side_sample(struct fields_attr *fa, const struct perf_header_info *h,
			      const struct sample *s);

/* Whether @s is such a sample, without recording it (for a second pass over the file). */
bool fields_attr__is_side_sample(const struct perf_header_info *h, const struct sample *s);

/* Attribute one memory sample: 0 resolved, 1 not (res->reason says why). */
int fields_attr__resolve(struct fields_attr *fa, const struct fields_sample *s,
			 struct attr_result *res);

/*
 * The same, for a caller that keeps the samples whose answer depends on a heap block's type
 * (@p->block set: malloc into a void *, placement new into raw memory, typed by the operands
 * of all the block's accesses): after the last sample, fields_attr__finish(), then
 * fields_attr__settle() for each of them.
 */
int fields_attr__resolve_later(struct fields_attr *fa, const struct fields_sample *s,
			       struct attr_result *res, struct attr_pending *p);
/* The same for a sample the session resolved: @al is its thread and its ip's map. */
int fields_attr__resolve_at(struct fields_attr *fa, const struct fields_sample *s,
			    const struct addr_loc *al, struct attr_result *res,
			    struct attr_pending *p);
void fields_attr__finish(struct fields_attr *fa);
int fields_attr__settle(struct fields_attr *fa, const struct attr_pending *p,
			struct attr_result *res);

/* What the sources had to say once ("a module without symbols here ..."), oldest first. */
const char *fields_attr__next_warning(struct fields_attr *fa);

/* The layout of @type ("struct file"), for attr_types.find; NULL when no object has it. */
const struct flat_layout *fields_attr__find_type(void *fa, const char *type);

/* The object (ELF file, or BTF) whose debug info gave @flat, or NULL (not an object's). */
const char *fields_attr__type_object(const struct fields_attr *fa, const struct flat_layout *flat);

/* Name a code address seen by fields_attr__resolve ("func+0x12 file.c:42"): a fields_ip_namer. */
void fields_attr__name_ip(void *fa, uint64_t ip, struct strbuf *out);

size_t fields_attr__rmw(const struct fields_attr *fa, const struct fields_rmw **out);
size_t fields_attr__nr_allocs(const struct fields_attr *fa);

/*
 * The heap object holding @addr at @time, from the allocation records: 0 with *@out, else 1.
 * An align_objects.at (analyzer/array_align.h); its allocating call can then be named with
 * fields_attr__name_ip() and placed with fields_attr__source_line().
 */
int fields_attr__object_at(void *fa, uint64_t addr, uint64_t time, struct align_object *out);

/*
 * The source file (its full path, as the line table has it) and line of a code address that
 * fields_attr__name_ip() can name: 0, or 1 when the debug info does not say.
 */
int fields_attr__source_line(struct fields_attr *fa, uint64_t ip, const char **file,
			     unsigned int *line);

/* Whether some object at hand defines struct @name, and the closest names to it. */
int fields_attr__has_struct(struct fields_attr *fa, const char *name);
int fields_attr__closest(struct fields_attr *fa, const char *name, const char **out, int max);

/* The first --type hint whose type no object at hand defines (after resolving), or NULL. */
const char *fields_attr__unknown_hint(struct fields_attr *fa);

/* "file" for "struct file" (also union/class). */
const char *fields_attr__strip_tag(const char *name);

#endif
