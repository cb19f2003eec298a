/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_DWARF_LAYOUT_H
#define LINEUP_DWARF_LAYOUT_H

/*
 * Layouts loaded from DWARF (dwarf_types.c) or BTF (btf.c) behind one interface (struct
 * layout_source), as pahole's loaders sit behind its ops table.  The model they fill, its
 * computations and its printer are analyzer/layout.h's.
 *
 * Ownership: a struct layout_source owns every struct layout_type it hands out and every name in
 * them (an arena freed by layout_source__delete); nothing points into libdw or libbpf memory.
 * Types found with layout_source__find stay valid until layout_source__delete; types handed to
 * a layout_source__for_each callback are valid only during that callback (the loader streams one
 * compilation unit at a time and recycles its memory).
 *
 * Return convention (libdw's): 0 found / done, 1 not found, negative -errno on error with a
 * message naming the file and what was wrong in the caller's buffer.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyzer/layout.h"

/* Options to layout_source__open(). */
enum {
	LAYOUT_EXPAND = 1 << 0,	/* fill layout_member.type for named struct/union members too */
	LAYOUT_BTF = 1 << 1,	/* read BTF: a raw BTF file or an ELF's .BTF section */
};

struct layout_source;

/**
 * layout_source__open - open an object to read layouts from.
 * @out:	the source, on success
 * @path:	ELF file (executable, shared library, .o, .ko, vmlinux, separate debuginfo), or
 *		with LAYOUT_BTF a raw BTF file (/sys/kernel/btf/vmlinux) or an ELF with .BTF;
 *		NULL with LAYOUT_BTF means /sys/kernel/btf/vmlinux
 * @flags:	LAYOUT_* flags
 * @err, @errlen: message buffer for failures: names the file and what was wrong, and for a
 *		missing debuginfo every place that was looked at
 *
 * Returns 0, -ENOENT when the file does not exist, -ENODATA when it has no debug info (or no
 * BTF), -EINVAL when it is not a valid ELF/BTF (truncated, corrupt), other -errno otherwise.
 */
int layout_source__open(struct layout_source **out, const char *path, unsigned int flags,
			char *err, size_t errlen);
void layout_source__delete(struct layout_source *src);

/* Whether the layouts come from BTF (alignments inferred, no "Force padding" in the text). */
bool layout_source__is_btf(const struct layout_source *src);

/*
 * The nested-type builders' guard against hostile debug info (DWARF and BTF alike): a type can
 * be made to contain itself (a cycle) or to share one type among many members at every level
 * (exponential).  Types being built sit on a stack of keys (a repeat is a cycle), and a budget
 * bounds the types built per top-level type.  No real C type comes near either limit.
 */
#define LAYOUT_BUILD_DEPTH (LAYOUT_MAX_DEPTH + 2)
#define LAYOUT_BUILD_BUDGET (1u << 18)

struct layout_build_guard {
	uint32_t budget;
	int sp;
	uint64_t stack[LAYOUT_BUILD_DEPTH];
};

/* Enter type @key at nesting @depth (0: a top-level type, which resets the guard): false when
 * it must be built as an empty stub (a cycle, too deep, or the budget spent).  A true return
 * is paired with layout_build_guard__leave() once the type is built. */
static inline bool layout_build_guard__enter(struct layout_build_guard *g, uint64_t key,
					     int depth)
{
	if (depth == 0) {
		g->budget = LAYOUT_BUILD_BUDGET;
		g->sp = 0;
	}
	if (!g->budget || g->sp >= LAYOUT_BUILD_DEPTH)
		return false;
	for (int i = 0; i < g->sp; i++)
		if (g->stack[i] == key)
			return false;
	g->budget--;
	g->stack[g->sp++] = key;
	return true;
}

static inline void layout_build_guard__leave(struct layout_build_guard *g)
{
	g->sp--;
}

/* Pointer size of the object (8 on x86-64); pahole's notion of natural pointer alignment. */
unsigned int layout_source__addr_size(const struct layout_source *src);

/**
 * layout_source__find - the first complete (non-declaration) struct/union/class named @name.
 * Returns 0 and *out (valid until layout_source__delete), 1 when there is none, -errno on error.
 */
int layout_source__find(struct layout_source *src, const char *name,
			const struct layout_type **out, char *err, size_t errlen);

/**
 * layout_source__for_each - every named struct/union/class once, by name, in the order pahole
 * prints them (first definition wins).  @cb returns 0 to go on, non-zero to stop (returned).
 * @unions selects whether unions are visited too (pahole's full dump shows structs and classes
 * only).  The type is valid only during the callback.
 */
int layout_source__for_each(struct layout_source *src, bool unions,
			    int (*cb)(const struct layout_type *type, void *arg), void *arg,
			    char *err, size_t errlen);

/**
 * layout_source__closest - up to @max names of structs closest to @name by edit distance,
 * best first, into @out (strings owned by the source).  Returns how many were stored.
 */
int layout_source__closest(struct layout_source *src, const char *name, const char **out,
			   int max);

#endif
