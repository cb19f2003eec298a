/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_ANALYZER_SRCPATCH_H
#define LINEUP_ANALYZER_SRCPATCH_H

/*
 * The source side of `lineup suggest`: find a struct's definition in C source text, move its
 * member declarations into a new order, mark the cache-line groups, and write the unified diff.
 * Deciding the order is the suggester's job; this module only moves text, and refuses (with
 * the file:line and the reason) whatever it cannot move faithfully.
 *
 * How the text is read.  The file is lexed (comments, strings, line continuations and
 * preprocessor lines kept as tokens with their lines), the definition is found by its tag or
 * typedef name near the DWARF decl_line (or anywhere in the file if that name is unique there),
 * and its body is cut into items:
 *   - a member declaration with its own leading comment lines (no blank line between them and
 *     it) and its trailing comment (starting on the line of its ';'), its attributes included;
 *     `int a, b;` is one item declaring two names, split only when the order separates them;
 *   - a unit: an anonymous struct/union or a member macro (struct_group(), DECLARE_BITMAP(),
 *     DECLARE_FLEX_ARRAY(), __cacheline_group_begin/end()) declaring every name it contains;
 *     a unit moves whole;
 *   - a conditional block (#if/#ifdef/#ifndef ... #elif/#else ... #endif): it moves whole, its
 *     active branch (the one whose members the debug info has) reordered inside when the order
 *     asks; an inactive block (none of its members in the binary) stays after the member it
 *     followed;
 *   - nameless items (an unknown member macro, an unnamed bit-field, other preprocessor lines,
 *     randomized_struct_fields_start/end) stay attached to the member before them.
 * A member is named as C code reaches it: the inner names of an anonymous struct/union are
 * members of the outer struct ("f_llist"); such a unit is also found by any of its names or by
 * its names joined with '|' ("f_llist|f_rcuhead|f_iocb_flags", as `lineup watch` prints it).
 *
 * What comes out.  Items in the new order; where consecutive items were consecutive before,
 * the text between them is kept byte for byte (an unchanged struct gives an empty diff).  At
 * each group start, by style: the kernel's __cacheline_group_begin(G)/__cacheline_group_end(G)
 * markers (include/linux/cache.h, Linux 6.8+) with CACHELINE_ASSERT_GROUP_MEMBER checks, or an
 * alignment on the group's first member (____cacheline_aligned_in_smp, __attribute__((aligned))
 * or alignas) with static_assert(offsetof()) checks after the struct.  The caller's layout
 * comment goes above the struct (above its kernel-doc comment, which must stay adjacent).
 * The lines written end as the file's lines do (CRLF when most of them do).  Under #pragma
 * pack(N), N below the line size, no alignment can start a line (the pragma caps aligned
 * attributes too, where __attribute__((packed)) does not): such a layout is refused.
 *
 * Ownership: srcpatch__scan() and srcpatch__make() return objects that own every string they
 * point to, freed by srcpatch_scan__delete() and srcpatch__delete(); the caller's texts, names
 * and arrays are only borrowed during the call.  Pure: no I/O, no globals.
 */

#include <stdbool.h>
#include <stddef.h>

struct strbuf;

/* How a group start is written. */
enum srcpatch_style {
	/* Linux 6.8+: __cacheline_group_begin(G) [____cacheline_aligned_in_smp]; ...
	 * __cacheline_group_end(G); CACHELINE_ASSERT_GROUP_MEMBER() in @check_fn when the file
	 * has that function, else static_assert()s after the struct. */
	SRCPATCH_KERNEL_GROUPS,
	/* Older kernels: ____cacheline_aligned_in_smp on a group's first member. */
	SRCPATCH_KERNEL_ALIGNED,
	/* GNU C user space: __attribute__((aligned(N))) on a group's first member. */
	SRCPATCH_ATTR_ALIGNED,
	/* C11/C23/C++: alignas(N) before a group's first member. */
	SRCPATCH_ALIGNAS,
};

/* One source file, as the diff names it (-p1: "include/linux/fs.h" gives a/..., b/...). */
struct srcpatch_file {
	const char *path;
	const char *text; /* the whole file, NUL-terminated */
};

/**
 * struct srcpatch_slot - one position of the new order.
 * @member:	a member name (any name of a unit moves the unit; its other names may follow
 *		in the order but must then be adjacent to it)
 * @group:	NULL: the current group goes on; a name: a group of that name starts here;
 *		"": the current group ends here and the members from here on are in none
 * @new_line:	this member starts a new cache line: the alignment is written (unless the
 *		member has one already) and checked
 */
struct srcpatch_slot {
	const char *member;
	const char *group;
	bool new_line;
};

/**
 * struct srcpatch_request - one struct to rewrite.
 * @file:	index into the files passed with it
 * @name:	the struct's tag ("file" for struct file), or the typedef name of an anonymous one
 * @decl_line:	DW_AT_decl_line (0: unknown): the definition whose lines contain it is taken;
 *		if none does, the only definition of @name in the file (with a warning)
 * @expected:	the member names the debug info has, named as the slots name them; the source
 *		must declare exactly these (members of inactive #ifdef blocks aside) or the
 *		request is refused with the differences, both ways
 * @slots:	the new order: every member (unit) exactly once
 * @comment:	the layout comment's text, lines separated by '\n', without comment markers;
 *		NULL or "" for none
 * @style, @line_size: how group starts are written (aligned(@line_size), alignas(@line_size),
 *		the static_assert checks), @line_size 0 meaning 64
 * @check_fn:	SRCPATCH_KERNEL_GROUPS: the function whose body gets the
 *		CACHELINE_ASSERT_GROUP_MEMBER() lines (its old ones for this struct replaced); it
 *		is looked up in every file passed; NULL or not found: static_assert()s after
 *		the struct instead (with a warning when it was named)
 */
struct srcpatch_request {
	unsigned int file;
	const char *name;
	unsigned int decl_line;
	const char *const *expected;
	unsigned int nr_expected;
	const struct srcpatch_slot *slots;
	unsigned int nr_slots;
	const char *comment;
	enum srcpatch_style style;
	unsigned int line_size;
	const char *check_fn;
};

/**
 * struct srcpatch_outcome - what became of one request.
 * @error:	0, or -EINVAL (refused: @message says why), -ENOENT (struct not found)
 * @message:	for an error, "path:line: what" (NULL when @error is 0)
 * @warnings:	"path:line: what" each (randstruct, a decl_line that missed, a group that
 *		starts inside a conditional block, a missing #include for static_assert ...)
 * @randomized:	the struct is __randomize_layout or has randomized_struct_fields_start:
 *		the layout holds only with CONFIG_RANDSTRUCT off (the caller says so)
 * @line, @end_line: where the definition was found ("struct NAME {" .. "};"), 1-based
 */
struct srcpatch_outcome {
	int error;
	char *message;
	char **warnings;
	unsigned int nr_warnings;
	bool randomized;
	unsigned int line, end_line;
};

/**
 * struct srcpatch - the result of srcpatch__make().
 * @outcomes:	one per request, in request order
 * @texts:	one per file: its new text (the old one's copy when nothing changed in it)
 * @diff:	the unified diff of every file changed (context 3, a/ b/ paths), "" if none
 */
struct srcpatch {
	struct srcpatch_outcome *outcomes;
	unsigned int nr_outcomes;
	char **texts;
	unsigned int nr_texts;
	char *diff;
};

/*
 * Rewrite every request's struct in its file.  A refused request leaves its struct unchanged
 * and the others still go through (several structs of one file give one diff).  Returns 0 when
 * every request was applied, 1 when some were refused (see each outcome), -EINVAL when the
 * requests themselves are malformed (a file index out of range: *out is NULL then).
 */
int srcpatch__make(const struct srcpatch_file *files, unsigned int nr_files,
		   const struct srcpatch_request *reqs, unsigned int nr_reqs, struct srcpatch **out);
void srcpatch__delete(struct srcpatch *sp);

/**
 * struct srcpatch_member - a member as the source declares it (srcpatch__scan()).
 * @name:	as C code reaches it (an anonymous unit's inner names are members)
 * @line:	the line of its declaration
 * @unit:	members with the same @unit move together (an anonymous struct/union, a member
 *		macro, a multi-declarator line only when kept whole: 0-based, per struct)
 * @block:	the conditional block it is in (0: none): the members of one block stay
 *		contiguous in any order the patch can write
 * @cond:	that block's directive as written ("#ifdef CONFIG_EPOLL"), or NULL
 * @bitfield:	declared with a width
 */
struct srcpatch_member {
	char *name;
	unsigned int line;
	unsigned int unit;
	unsigned int block;
	char *cond;
	bool bitfield;
};

/**
 * struct srcpatch_scan - a struct's definition as found (for constraints and name matching).
 * @outcome:	found or not, where, randstruct, warnings (an unknown member macro ...)
 * @members:	in declaration order, every branch of every conditional block included
 */
struct srcpatch_scan {
	struct srcpatch_outcome outcome;
	struct srcpatch_member *members;
	unsigned int nr_members;
};

/*
 * Find struct @name (tag or typedef name) in @file near @decl_line and list its members.
 * Returns 0 found (with *out), 1 not found or not parsable (*out says why in
 * outcome.message).  *out is always set and freed with srcpatch_scan__delete().
 */
int srcpatch__scan(const struct srcpatch_file *file, const char *name, unsigned int decl_line,
		   struct srcpatch_scan **out);
void srcpatch_scan__delete(struct srcpatch_scan *scan);

/*
 * The allocating call that starts on line @line (1-based) of @file rewritten to return memory
 * aligned to @align bytes (a power of two): malloc(SIZE) becomes aligned_alloc(ALIGN, SIZE
 * rounded up to a multiple of ALIGN, as C11 asks), the rest of the text unchanged (the size
 * expression keeps its lines).  Refused, with "path:line: why" in @err and NULL returned: no
 * allocating call on the line, more than one, and the ones that take more than an expression
 * to align (calloc needs a memset, realloc a copy) or are aligned already.  Returns the new
 * text, which the caller frees.
 */
char *srcpatch__align_alloc(const struct srcpatch_file *file, unsigned int line,
			    unsigned int align, char *err, size_t errlen);

/*
 * Append to @out the unified diff (context 3, "--- a/PATH" "+++ b/PATH") that turns @old into
 * @new, as `git apply` and `patch -p1` read it; nothing when they are equal.
 */
void srcpatch__diff(struct strbuf *out, const char *path, const char *old, const char *new);

#endif
