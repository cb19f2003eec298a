/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_DWARF_LAYOUT_H
#define LINEUP_DWARF_LAYOUT_H

/*
 * dwarf/ -- every byte of debug info (libdw, libdwfl, libbpf's BTF and capstone are used here
 * and nowhere else; no Dwarf_Die leaves).  Four questions, four entry points:
 *
 *   what is this type's layout    layout.h (this file): layout_source__open on an ELF file
 *                                 (DWARF, through debuginfo.h's search: build-id, debuglink,
 *                                 debuginfod) or on BTF; it fills analyzer/layout.h's model.
 *   which function, which line    symbols.h: code addresses named as perf names them (ELF
 *                                 symbols, addr2line's source lines, inlines).
 *   what does this access touch   vartype.h (the variable at a data address, the type of the
 *                                 instruction's memory operand from DWARF locations) and
 *                                 type_index.h (the types of every object at hand, by name),
 *                                 which pipeline/fields_attr.h joins for attribution.
 *   what kind of access was it    code.h: the instruction before a breakpoint's trap decoded
 *                                 with capstone (load, store, locked RMW), for watch.
 *
 * Everything handed out is lineup's own structs, in arenas freed with their source.
 */

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
 * (exponential: 300 structs of 40 KB of DWARF, each holding one anonymous struct whose four
 * members share one type at eight levels, are 18 million lines of layout).  Types being built
 * sit on a stack of keys (a repeat is a cycle); a budget bounds the types and members built
 * per top-level type, and a second one the members of inline (anonymous) types built in one
 * walk of a file.  No real C type comes near them: the largest kernel struct expands to a few
 * thousand members, and all of vmlinux's anonymous types to a few hundred thousand.  A type
 * that would exceed them is refused with an error (@over), never printed cut short.
 */
#define LAYOUT_BUILD_DEPTH (LAYOUT_MAX_DEPTH + 2)
#define LAYOUT_BUILD_BUDGET (1u << 16)
/* Inline types and members one walk may build: proportional to the type information's size
 * (vmlinux's BTF, 5.5 MB: 7,111 of them, 182,295 with --expand) */
#define LAYOUT_WALK_BUDGET(type_bytes) ((1ull << 16) + (type_bytes))

struct layout_build_guard {
	uint32_t budget;
	bool over;		/* a budget ran out: the top-level type is refused */
	int sp;
	uint64_t walk_spent;	/* inline types and members built since the guard was zeroed */
	uint64_t walk_limit;	/* LAYOUT_WALK_BUDGET() of the source, set with the builder */
	uint64_t stack[LAYOUT_BUILD_DEPTH];
};

/* Pay for @n types or members built at nesting @depth; false (and @over) when a budget ran
 * out. */
static inline bool layout_build_guard__charge(struct layout_build_guard *g, uint32_t n,
					      int depth)
{
	if (g->over || n > g->budget ||
	    (depth > 0 && g->walk_spent + n > g->walk_limit)) {
		g->over = true;
		return false;
	}
	g->budget -= n;
	if (depth > 0)
		g->walk_spent += n;
	return true;
}

/* Enter type @key at nesting @depth (0: a top-level type, which resets the guard): false when
 * it must be built as an empty stub (a cycle, too deep, or a budget spent: @over).  A true
 * return is paired with layout_build_guard__leave() once the type is built. */
static inline bool layout_build_guard__enter(struct layout_build_guard *g, uint64_t key,
					     int depth)
{
	if (depth == 0) {
		g->budget = LAYOUT_BUILD_BUDGET;
		g->over = false;
		g->sp = 0;
	}
	if (g->sp >= LAYOUT_BUILD_DEPTH)
		return false;
	for (int i = 0; i < g->sp; i++)
		if (g->stack[i] == key)
			return false;
	if (!layout_build_guard__charge(g, 1, depth))
		return false;
	g->stack[g->sp++] = key;
	return true;
}

static inline void layout_build_guard__leave(struct layout_build_guard *g)
{
	g->sp--;
}

/*
 * Type names are built from their parts (pahole's declarator names: `int (*)(void (*)(...))`),
 * and a function type whose parameters share one function-pointer type at every level names
 * itself in 2^depth bytes.  No real name comes near 64 KiB: longer is refused (@over) like a
 * type over the budget.  False when the name in @len bytes is over it.
 */
#define LAYOUT_NAME_BUDGET (64u << 10)

static inline bool layout_build_guard__name(struct layout_build_guard *g, size_t len)
{
	if (len <= LAYOUT_NAME_BUDGET)
		return true;
	g->over = true;
	return false;
}

/* The error for type @name of @path refused by the guard's budgets (returns -E2BIG). */
int layout_build_guard__error(const struct layout_build_guard *g, const char *path,
			       const char *name, char *err, size_t errlen);

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
