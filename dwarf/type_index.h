/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_DWARF_TYPE_INDEX_H
#define LINEUP_DWARF_TYPE_INDEX_H

/*
 * The types of the objects at hand, for attribution: layout sources in lookup order (the
 * --debug-file objects, -k vmlinux, then the objects the samples' code lives in, and the
 * running kernel's BTF as the last resort for kernel types), each type flattened once
 * (analyzer/flat_layout.h) with the names as declared (atomic_long_t, spinlock_t: the sources
 * are opened without LAYOUT_EXPAND; named struct members are looked up in the same source).
 *
 * Ownership: the index owns its sources and flat layouts; what it returns lives until
 * type_index__delete().
 */
#include <stdbool.h>
#include <stddef.h>

struct flat_layout;
struct type_index;

struct type_index *type_index__new(void);
void type_index__delete(struct type_index *ti);

/* Add @path as a source (once): 0, or -errno with what is wrong in @err. */
int type_index__add_source(struct type_index *ti, const char *path, char *err, size_t errlen);

/*
 * The flat layout of @name ("struct file"), from the first source that has it; @kernel: the
 * running kernel's BTF may answer too (a user program's struct is no kernel struct of that
 * name).  NULL when none has it; a miss is remembered.
 */
const struct flat_layout *type_index__find(struct type_index *ti, const char *name, bool kernel);

/* The object file (or BTF) @flat was read from, or NULL when it is none of the index's. */
const char *type_index__path_of(const struct type_index *ti, const struct flat_layout *flat);

/* Whether some source defines struct @name, and the closest names to it in the first one. */
int type_index__has(struct type_index *ti, const char *name);
int type_index__closest(struct type_index *ti, const char *name, const char **out, int max);

#endif
