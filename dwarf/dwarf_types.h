/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_DWARF_DWARF_TYPES_H
#define LINEUP_DWARF_DWARF_TYPES_H

/*
 * Internals shared by the layout loaders (dwarf_types.c for DWARF, btf.c for BTF) and the
 * source interface in layout.c: the loader ops table behind struct layout_source and the
 * declaration-text builders.  Not for use outside dwarf/.
 *
 * Ownership: every loaded name and layout lives in an arena (util/arena.h) of the source;
 * strings are copied in, never borrowed from libdw or libbpf.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dwarf/layout.h"
#include "util/arena.h"
#include "util/hmap.h"

#include <string.h>

#include "util/strbuf.h"

/* strbuf__add of a C string: the type-name builders append many short pieces */
static inline void sb_put(struct strbuf *sb, const char *s)
{
	strbuf__add(sb, s, strlen(s));
}

/* Append every string up to a NULL. */
void sb_cat(struct strbuf *sb, ...);
/* Append an unsigned decimal. */
void sb_u64(struct strbuf *sb, uint64_t v);

/*
 * The loaders' describe_member (pahole's type__fprintf for a member) walks its own type graph
 * and builds a member's declaration from the same pieces: the qualifiers in @pre ("const "...),
 * the type name in @tn, what follows the member's name in @suffix, and @kw_len, the length of
 * a "struct "-like keyword pahole prints before padding the name.
 */
/* The end of "typedef a -> b" in @note, kept as @m's typedef note; @note is released. */
void layout_member__typedef_note(struct arena *a, struct layout_member *m, struct strbuf *note);
/*
 * An array member @m takes its element @em's declaration: the element's type name after the
 * qualifiers in @pre (moved into @tn, @pre left empty), its prefix, type and typedef note (both
 * when the array's own typedef has one too).  Returns the kw_len of the array's type name.
 */
uint32_t layout_member__take_elem(struct arena *a, struct layout_member *m,
				  const struct layout_member *em, struct strbuf *pre,
				  struct strbuf *tn);
/* The end: @m's decl_prefix (if unset), type_name, pad_from and decl_suffix; releases all three. */
void layout_member__finish(struct arena *a, struct layout_member *m, struct strbuf *pre,
			   struct strbuf *tn, struct strbuf *suffix, uint32_t kw_len);
/* The end of a parameter list: "void)" for none, ", ...)" for a variadic one, else ")". */
void layout__params_end(struct strbuf *sb, bool none, bool variadic);

struct layout_source_ops {
	int (*find)(struct layout_source *src, const char *name, const struct layout_type **out,
		    char *err, size_t errlen);
	int (*for_each)(struct layout_source *src, bool unions,
			int (*cb)(const struct layout_type *type, void *arg), void *arg,
			char *err, size_t errlen);
	/* Every struct/union name, for suggestions; @cb may be called twice for a name. */
	void (*names)(struct layout_source *src, void (*cb)(const char *name, void *arg),
		      void *arg);
	void (*delete)(struct layout_source *src);
};

struct layout_source {
	const struct layout_source_ops *ops;
	struct arena arena;	/* long-lived: found types, names */
	unsigned int addr_size;
	unsigned int flags;
	char *path;
	uint64_t type_bytes;	/* the size of the type information: scales the build budget */
};

int dwarf_source__open(struct layout_source **out, const char *path, unsigned int flags,
		       char *err, size_t errlen);
int btf_source__open(struct layout_source **out, const char *path, unsigned int flags,
		     char *err, size_t errlen);

#endif
