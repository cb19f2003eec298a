// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Layouts from every object at hand, flattened once per type, for attribution.
 */
#include <config.h>

#include "dwarf/type_index.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyzer/flat_layout.h"
#include "dwarf/layout.h"
#include "util/xalloc.h"

#define KERNEL_BTF "/sys/kernel/btf/vmlinux"

struct source_entry {
	char *path;
	struct layout_source *src;	/* NULL when it could not be opened */
	char *error;
};

struct type_entry {
	char *name;
	struct flat_layout *flat;	/* NULL: no source had it */
	const char *path;		/* the source it was read from (its entry's string) */
	size_t searched;		/* the sources looked in (a miss: those added later not) */
};

struct type_index {
	struct source_entry *sources;
	size_t nr_sources, cap_sources;
	struct type_entry *types;
	size_t nr_types, cap_types;
};

struct type_index *type_index__new(void)
{
	return xcalloc(1, sizeof(struct type_index));
}

void type_index__delete(struct type_index *ti)
{
	if (!ti)
		return;
	for (size_t i = 0; i < ti->nr_types; i++) {
		free(ti->types[i].name);
		flat_layout__delete(ti->types[i].flat);
	}
	free(ti->types);
	for (size_t i = 0; i < ti->nr_sources; i++) {
		if (ti->sources[i].src)
			layout_source__delete(ti->sources[i].src);
		free(ti->sources[i].path);
		free(ti->sources[i].error);
	}
	free(ti->sources);
	free(ti);
}

static struct source_entry *add_source(struct type_index *ti, const char *path)
{
	struct source_entry *e;
	char err[2048] = "";
	int rc;

	for (size_t i = 0; i < ti->nr_sources; i++)
		if (!strcmp(ti->sources[i].path, path))
			return &ti->sources[i];
	ti->sources = xgrow(ti->sources, &ti->cap_sources, ti->nr_sources + 1,
			    sizeof(*ti->sources));
	e = &ti->sources[ti->nr_sources++];
	memset(e, 0, sizeof(*e));
	e->path = xstrdup(path);
	/* The running kernel's BTF is the layout source of last resort for kernel types (no
	 * vmlinux with DWARF on most machines; lineup watch's recordings need it). */
	rc = !strcmp(path, KERNEL_BTF) ?
		     layout_source__open(&e->src, NULL, LAYOUT_BTF, err, sizeof(err)) :
		     layout_source__open(&e->src, path, 0, err, sizeof(err));
	if (rc < 0) {
		e->src = NULL;
		e->error = xstrdup(err[0] ? err : strerror(-rc));
	}
	return e;
}

int type_index__add_source(struct type_index *ti, const char *path, char *err, size_t errlen)
{
	struct source_entry *e = add_source(ti, path);

	if (e->src)
		return 0;
	snprintf(err, errlen, "%s", e->error);
	return -EINVAL;
}

/* Named struct members' layouts come from the source the outer type was found in. */
static const struct layout_type *resolve_in_source(void *ctx, const char *type_id)
{
	const struct layout_type *sub;
	char err[256];

	if (layout_source__find(ctx, type_id, &sub, err, sizeof(err)) != 0)
		return NULL;
	return sub;
}

static bool find_in(struct source_entry *e, const char *tag, const struct layout_type **lt)
{
	char err[256];

	return e->src && layout_source__find(e->src, tag, lt, err, sizeof(err)) == 0;
}

const struct flat_layout *type_index__find(struct type_index *ti, const char *name, bool kernel)
{
	const struct layout_type *lt = NULL;
	struct layout_source *src = NULL;
	const char *tag = type_name__strip_tag(name), *path = NULL;
	struct type_entry *t = NULL;
	size_t from = 0, k;
	char *fname;

	for (k = 0; k < ti->nr_types; k++)
		if (flat_layout__same_type(ti->types[k].name, name))
			break;
	if (k < ti->nr_types) {
		/* a miss holds until a source is added: the object of a later sample's code */
		if (ti->types[k].flat || ti->types[k].searched == ti->nr_sources)
			return ti->types[k].flat;
		from = ti->types[k].searched;
	}
	for (size_t i = from; i < ti->nr_sources && !src; i++)
		if (find_in(&ti->sources[i], tag, &lt)) {
			src = ti->sources[i].src;
			path = ti->sources[i].path;
		}
	if (!src && kernel && !access(KERNEL_BTF, R_OK)) {
		struct source_entry *e = add_source(ti, KERNEL_BTF);

		if (find_in(e, tag, &lt)) {
			src = e->src;
			path = e->path;
		}
	}
	if (k < ti->nr_types) {
		t = &ti->types[k];
	} else {
		ti->types = xgrow(ti->types, &ti->cap_types, ti->nr_types + 1, sizeof(*ti->types));
		t = &ti->types[ti->nr_types++];
		t->name = xstrdup(name);
		t->flat = NULL;
	}
	t->path = path;
	t->searched = ti->nr_sources;
	if (!src)
		return NULL;	/* remembered as missing, in the sources at hand */
	/* a typedef'd anonymous struct goes by its typedef, as vartype names it */
	fname = !lt->name && lt->typedef_name ? xstrdup(lt->typedef_name) :
		xasprintf("%s %s", layout_kind__name(lt->kind), lt->name ? lt->name : tag);
	t->flat = flat_layout__new(lt, fname, resolve_in_source, src);
	free(fname);
	return t->flat;
}

const char *type_index__path_of(const struct type_index *ti, const struct flat_layout *flat)
{
	for (size_t i = 0; flat && i < ti->nr_types; i++)
		if (ti->types[i].flat == flat)
			return ti->types[i].path;
	return NULL;
}

int type_index__has(struct type_index *ti, const char *name)
{
	const char *tag = type_name__strip_tag(name);
	const struct layout_type *lt;

	for (size_t i = 0; i < ti->nr_sources; i++)
		if (find_in(&ti->sources[i], tag, &lt))
			return 1;
	return 0;
}

int type_index__closest(struct type_index *ti, const char *name, const char **out, int max)
{
	int n = 0;

	for (size_t i = 0; i < ti->nr_sources && !n; i++)
		if (ti->sources[i].src)
			n = layout_source__closest(ti->sources[i].src, type_name__strip_tag(name),
						   out, max);
	return n;
}
