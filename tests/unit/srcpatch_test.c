// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * analyzer/srcpatch on C text written here: each case a source, a request and the exact new
 * text (or the refusal's message).  Cases: bit-fields, a union, an anonymous struct, a
 * flexible array, aligned(64) members, packed, #ifdef blocks, trailing comments, two structs
 * in one header, a source that no longer matches the binary, multi-declarator lines, member
 * macros, typedef'd anonymous structs, randstruct, the kernel's groups and their checks, the
 * diff's hunks, CRLF files, #pragma pack, and the bugs tests/fuzz/srcpatch_fuzz.c found.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/srcpatch.h"
#include "tests/unit/check.h"

/* "a,b@g!,c@" into slots: @g a group starts, @ the group ends, ! a new cache line. */
static struct srcpatch_slot *slots(const char *spec, unsigned int *nr, char **keep)
{
	char *s = strdup(spec), *save = NULL;
	struct srcpatch_slot *v = calloc(64, sizeof(*v));

	*nr = 0;
	*keep = s;
	for (char *t = strtok_r(s, ",", &save); t && *nr < 64; t = strtok_r(NULL, ",", &save)) {
		size_t len = strlen(t);
		char *at = strchr(t, '@');

		if (len && t[len - 1] == '!') {
			v[*nr].new_line = true;
			t[len - 1] = '\0';
		}
		if (at) {
			*at = '\0';
			v[*nr].group = at + 1;
		}
		v[*nr].member = t;
		(*nr)++;
	}
	return v;
}

static const char **names(const char *spec, unsigned int *nr, char **keep)
{
	char *s = strdup(spec), *save = NULL;
	const char **v = calloc(64, sizeof(*v));

	*nr = 0;
	*keep = s;
	for (char *t = strtok_r(s, ",", &save); t && *nr < 64; t = strtok_r(NULL, ",", &save))
		v[(*nr)++] = t;
	return v;
}

struct run {
	int ret;
	char *text, *diff, *error;
	unsigned int nr_warnings;
	char warnings[4][512];
	bool randomized;
	unsigned int line;
};

/* One request on one file; the result copied out, everything freed. */
static struct run run(const char *src, const char *name, unsigned int decl_line,
		      enum srcpatch_style style, const char *expected, const char *order,
		      const char *comment)
{
	struct srcpatch_file f = { "include/t.h", src };
	struct srcpatch_request r = { 0 };
	struct srcpatch *sp;
	struct run out = { 0 };
	char *k1, *k2;

	r.name = name;
	r.decl_line = decl_line;
	r.style = style;
	r.expected = names(expected, &r.nr_expected, &k1);
	r.slots = slots(order, &r.nr_slots, &k2);
	r.comment = comment;
	out.ret = srcpatch__make(&f, 1, &r, 1, &sp);
	if (out.ret >= 0) {
		const struct srcpatch_outcome *oc = &sp->outcomes[0];

		out.text = strdup(sp->texts[0]);
		out.diff = strdup(sp->diff);
		out.error = oc->message ? strdup(oc->message) : NULL;
		out.randomized = oc->randomized;
		out.line = oc->line;
		for (unsigned int w = 0; w < oc->nr_warnings && w < 4; w++)
			snprintf(out.warnings[out.nr_warnings++], 512, "%s", oc->warnings[w]);
		srcpatch__delete(sp);
	}
	free((void *)r.expected);
	free((void *)r.slots);
	free(k1);
	free(k2);
	return out;
}

static void run__release(struct run *r)
{
	free(r->text);
	free(r->diff);
	free(r->error);
}

static bool text_is(const char *got, const char *want, int line)
{
	if (got && !strcmp(got, want))
		return true;
	fprintf(stderr, "line %d: got:\n%s\n---- want:\n%s\n----\n", line, got ? got : "(null)", want);
	return false;
}
#define CHECK_TEXT(got, want) CHECK(text_is(got, want, __LINE__))

static bool has(const char *hay, const char *needle, int line)
{
	if (hay && strstr(hay, needle))
		return true;
	fprintf(stderr, "line %d: no \"%s\" in:\n%s\n", line, needle, hay ? hay : "(null)");
	return false;
}
#define CHECK_HAS(hay, needle) CHECK(has(hay, needle, __LINE__))

/* Run (GNU attribute style), and find @want in the new text (@ret 0) or the refusal (1). */
static void expect_at(const char *src, const char *name, unsigned int line, const char *expected,
		      const char *order, int ret, const char *want, int at)
{
	struct run r = run(src, name, line, SRCPATCH_ATTR_ALIGNED, expected, order, NULL);

	if (r.ret != ret)
		fprintf(stderr, "line %d: returned %d: %s\n", at, r.ret, r.error ? r.error : "");
	CHECK(r.ret == ret);
	CHECK(has(ret ? r.error : r.text, want, at));
	run__release(&r);
}
#define expect(src, name, line, expected, order, ret, want) \
	expect_at(src, name, line, expected, order, ret, want, __LINE__)

static const char two[] = "#include <assert.h>\n"
			  "#include <stddef.h>\n"
			  "\n"
			  "/* Two structs in one header. */\n"
			  "struct bits {\n"
			  "\tunsigned int a:1, b:3;\t/* flags */\n"
			  "\tlong x;\n"
			  "\tunsigned int c:4;\n"
			  "\tint m, n, o;\n"
			  "};\n"
			  "\n"
			  "/**\n"
			  " * struct mix - kernel-doc must stay adjacent\n"
			  " * @u: a union\n"
			  " */\n"
			  "struct mix {\n"
			  "\tunion {\n"
			  "\t\tint i;\n"
			  "\t\tfloat f;\n"
			  "\t} u;\n"
			  "\tstruct {\n"
			  "\t\tint p, q;\n"
			  "\t};\n"
			  "\tvoid (*fn)(int, char *);\t/* callback */\n"
			  "\tlong hot __attribute__((aligned(64)));\n"
			  "#ifdef CONFIG_X\n"
			  "\tint x1;\n"
			  "\tint x2;\n"
			  "#else\n"
			  "\tint y1;\n"
			  "#endif\n"
			  "\tint tail;\n"
			  "\tchar data[];\n"
			  "};\n";

#define BITS "a,b,x,c,m,n,o"
/* struct bits with a:1, b:3 moved after x */
#define BITS_HUNK                                          \
	"@@ -3,8 +3,8 @@\n"                                 \
	" \n"                                               \
	" /* Two structs in one header. */\n"               \
	" struct bits {\n"                                  \
	"-\tunsigned int a:1, b:3;\t/* flags */\n"          \
	" \tlong x;\n"                                      \
	"+\tunsigned int a:1, b:3;\t/* flags */\n"          \
	" \tunsigned int c:4;\n"                            \
	" \tint m, n, o;\n"                                 \
	" };\n"
#define MIX "u,p,q,fn,hot,x1,x2,tail,data"

static void test_unchanged(void)
{
	struct run r = run(two, "bits", 5, SRCPATCH_ATTR_ALIGNED, BITS, "a,b,x,c,m,n,o", NULL);

	CHECK(r.ret == 0);
	CHECK_TEXT(r.text, two);
	CHECK_TEXT(r.diff, "");
	run__release(&r);
}

/* Bit-fields move with their line; a bit-field cannot start an aligned line. */
static void test_bitfields(void)
{
	struct run r = run(two, "bits", 5, SRCPATCH_ATTR_ALIGNED, BITS, "x,a,b,c,m,n,o", NULL);

	CHECK(r.ret == 0);
	CHECK_HAS(r.diff, BITS_HUNK);
	run__release(&r);
	r = run(two, "bits", 5, SRCPATCH_ATTR_ALIGNED, BITS, "x,a,b,c@hot!,m,n,o", NULL);
	CHECK(r.ret == 1);
	CHECK_HAS(r.error, "include/t.h:8: c is a bit-field: it cannot start an aligned cache line");
	CHECK_TEXT(r.text, two);
	run__release(&r);
}

/* int m, n, o; split where the order separates them, the attribute on its declarator alone. */
static void test_multi_declarators(void)
{
	struct run r = run(two, "bits", 5, SRCPATCH_ATTR_ALIGNED, BITS, "o,m,x@hot!,a,b,c,n", NULL);

	CHECK(r.ret == 0);
	CHECK_HAS(r.text, "struct bits {\n"
			  "\tint o;\n"
			  "\tint m;\n"
			  "\tlong x __attribute__((aligned(64)));\n"
			  "\tunsigned int a:1, b:3;\t/* flags */\n"
			  "\tunsigned int c:4;\n"
			  "\tint n;\n"
			  "};\n"
			  "\n"
			  "/* Keep the cache-line groups of struct bits (see the comment above it). */\n"
			  "static_assert(offsetof(struct bits, x) % 64 == 0, \"x starts a cache line\");\n"
			  "static_assert(offsetof(struct bits, n) >= offsetof(struct bits, x), "
			  "\"n in cache line group hot\");\n"
			  "\n/**\n");
	run__release(&r);
	/* kept together in their order: the line stays as it is */
	r = run(two, "bits", 5, SRCPATCH_ATTR_ALIGNED, BITS, "m,n,o,a,b,x,c", NULL);
	CHECK_HAS(r.text, "struct bits {\n\tint m, n, o;\n\tunsigned int a:1, b:3;\t/* flags */\n"
			  "\tlong x;\n\tunsigned int c:4;\n};\n");
	run__release(&r);
}

/*
 * A comma declaration split in a body of exactly 8 items: one more element than items, and
 * the list's first 8 pointers fill their array (ASan read past it before).
 */
static void test_split_eight_items(void)
{
	static const char t[] = "struct eight {\n"
				"\tint a0;\n"
				"\tint a1;\n"
				"\tint a2;\n"
				"\tint a3;\n"
				"\tint a4;\n"
				"\tint a5;\n"
				"\tint a6;\n"
				"\tvolatile long a, b;\n"
				"};\n";
	struct run r = run(t, "eight", 1, SRCPATCH_ATTR_ALIGNED, "a0,a1,a2,a3,a4,a5,a6,a,b",
			   "a,a0,a1,a2,a3,a4,a5,a6,b", NULL);

	CHECK(r.ret == 0);
	CHECK_TEXT(r.text, "struct eight {\n"
			   "\tvolatile long a;\n"
			   "\tint a0;\n"
			   "\tint a1;\n"
			   "\tint a2;\n"
			   "\tint a3;\n"
			   "\tint a4;\n"
			   "\tint a5;\n"
			   "\tint a6;\n"
			   "\tvolatile long b;\n"
			   "};\n");
	run__release(&r);
}

/*
 * A member whose name starts another's (dev, dev_tracker): matching it against the binary's
 * names read the byte before "dev_tracker" (found by tests/fuzz/srcpatch_fuzz.c).
 */
static void test_prefix_names(void)
{
	static const char t[] = "struct q {\n\tvoid *dev;\n\tint dev_tracker;\n\tint qdisc;\n};\n";
	struct run r = run(t, "q", 1, SRCPATCH_ATTR_ALIGNED, "dev_tracker,dev,qdisc",
			   "dev_tracker,qdisc,dev", NULL);

	CHECK(r.ret == 0);
	CHECK_TEXT(r.text, "struct q {\n\tint dev_tracker;\n\tint qdisc;\n\tvoid *dev;\n};\n");
	run__release(&r);
	/* the unit's '|' name holds dev_tracker, not dev */
	r = run(t, "q", 1, SRCPATCH_ATTR_ALIGNED, "dev_tracker|x,qdisc", "qdisc", NULL);
	CHECK(r.ret == 1);
	CHECK_HAS(r.error, "only in the binary: none; only in the source: dev");
	run__release(&r);
}

/*
 * A union and an anonymous struct move whole, with their comments; the kernel-doc comment
 * stays on the struct, the layout comment above it; alignas into the anonymous struct would
 * align both p and q, so the type's attribute is used.
 */
static void test_units(void)
{
	struct run r = run(two, "mix", 16, SRCPATCH_ALIGNAS, MIX,
			   "hot@hotgrp!,u,p@cold!,x1,x2,fn,tail,data", "Layout by lineup\n\nsecond");

	CHECK(r.ret == 0);
	CHECK_HAS(r.text, "};\n"
			  "\n"
			  "/*\n"
			  " * Layout by lineup\n"
			  " *\n"
			  " * second\n"
			  " */\n"
			  "/**\n"
			  " * struct mix - kernel-doc must stay adjacent\n"
			  " * @u: a union\n"
			  " */\n"
			  "struct mix {\n"
			  "\tlong hot __attribute__((aligned(64)));\n"
			  "\tunion {\n"
			  "\t\tint i;\n"
			  "\t\tfloat f;\n"
			  "\t} u;\n"
			  "\tstruct {\n"
			  "\t\tint p, q;\n"
			  "\t} __attribute__((aligned(64)));\n"
			  "#ifdef CONFIG_X\n"
			  "\tint x1;\n"
			  "\tint x2;\n"
			  "#else\n"
			  "\tint y1;\n"
			  "#endif\n"
			  "\tvoid (*fn)(int, char *);\t/* callback */\n"
			  "\tint tail;\n"
			  "\tchar data[];\n"
			  "};\n");
	/* hot is aligned already: no second attribute, but the checks */
	CHECK_HAS(r.text, "static_assert(offsetof(struct mix, hot) % 64 == 0, \"hot starts a cache "
			  "line\");\n");
	CHECK_HAS(r.text, "static_assert(offsetof(struct mix, u) >= offsetof(struct mix, hot) &&\n"
			  "\t      offsetof(struct mix, u) < offsetof(struct mix, p), \"u in cache line "
			  "group hotgrp\");\n");
	run__release(&r);
	/* the unit found by the '|' name lineup watch gives it; a group inside it is refused */
	r = run(two, "mix", 16, SRCPATCH_ATTR_ALIGNED, MIX, "p|q,u,fn,hot,x1,x2,tail,data", NULL);
	CHECK(r.ret == 0);
	CHECK_HAS(r.text, "struct mix {\n\tstruct {\n\t\tint p, q;\n\t};\n\tunion {\n");
	run__release(&r);
}

static void test_mismatch(void)
{
	struct run r;

	/* the source lost x2 and gained "extra" since the binary was built */
	r = run(two, "mix", 16, SRCPATCH_ATTR_ALIGNED, "u,p,q,fn,hot,x1,extra,tail,data",
		"u,p,fn,hot,x1,x2,tail,data", NULL);
	CHECK(r.ret == 1);
	CHECK_HAS(r.error, "include/t.h:16: struct mix in the source differs from the debug info: "
			   "only in the binary: extra; only in the source: x2");
	CHECK_TEXT(r.diff, "");
	run__release(&r);
}

/* Orders the source cannot take, each with its reason (struct mix of two[]; NULL: taken). */
static const struct refusal {
	const char *order;
	unsigned int line;
	const char *style, *message;
} refusals[] = {
	{ "p,q@g!,u,fn,hot,x1,x2,tail,data", 16, "attr",
	  "a cache-line group cannot start at q, inside the unit declared at line 21" },
	{ "p,u,q,fn,hot,x1,x2,tail,data", 16, "attr", "include/t.h:21: q moves as one unit" },
	{ "data,u,p,fn,hot,x1,x2,tail", 16, "attr",
	  "include/t.h:33: data is a flexible array member: it must stay last" },
	{ "u,p,fn,hot,x1,x2,tail,data,nosuch", 16, "attr",
	  "nosuch (slot 9 of the new order) is not a member of struct mix" },
	{ "u,p,fn,hot,x1,x2,data", 16, "attr", "include/t.h:32: tail is not in the new order" },
	{ "hot,u,x1,p,x2,fn,tail,data", 16, "attr",
	  "include/t.h:26: the members under #ifdef CONFIG_X (lines 26-31) move as one block, but "
	  "the new order puts x2 apart from them" },
	{ "hot,u,p,fn,x1,x2@g,tail,data", 16, "groups",
	  "include/t.h:26: the cache-line group marker at x2 would be inside #ifdef CONFIG_X" },
	{ "hot,u,p,fn,x1@g,x2,tail,data", 16, "groups", NULL },
};

static void test_refusals(void)
{
	for (size_t k = 0; k < sizeof(refusals) / sizeof(refusals[0]); k++) {
		const struct refusal *f = &refusals[k];
		struct run r = run(two, "mix", f->line,
				   !strcmp(f->style, "groups") ? SRCPATCH_KERNEL_GROUPS :
								 SRCPATCH_ATTR_ALIGNED,
				   MIX, f->order, NULL);

		CHECK(r.ret == (f->message ? 1 : 0));
		if (f->message) {
			CHECK_HAS(r.error, f->message);
			CHECK_TEXT(r.text, two);
		}
		run__release(&r);
	}
}

/* #ifdef blocks: move whole, reorder inside the branch the binary has, stay put when inactive. */
static void test_ifdef(void)
{
	struct run r = run(two, "mix", 16, SRCPATCH_ATTR_ALIGNED, MIX, "u,p,fn,hot,x2,x1,tail,data", NULL);
	CHECK(r.ret == 0);
	CHECK_HAS(r.text, "#ifdef CONFIG_X\n\tint x2;\n\tint x1;\n#else\n\tint y1;\n#endif\n");
	run__release(&r);
	/* the #else branch is the binary's */
	r = run(two, "mix", 16, SRCPATCH_ATTR_ALIGNED, "u,p,q,fn,hot,y1,tail,data",
		"y1,u,p,fn,hot,tail,data", NULL);
	CHECK(r.ret == 0);
	CHECK_HAS(r.text, "struct mix {\n#ifdef CONFIG_X\n\tint x1;\n\tint x2;\n#else\n\tint y1;\n"
			  "#endif\n\tunion {\n");
	run__release(&r);
	/* neither: the block stays after hot, which it followed */
	r = run(two, "mix", 16, SRCPATCH_ATTR_ALIGNED, "u,p,q,fn,hot,tail,data",
		"hot,u,p,fn,tail,data", NULL);
	CHECK(r.ret == 0);
	CHECK_HAS(r.text, "struct mix {\n\tlong hot __attribute__((aligned(64)));\n#ifdef CONFIG_X\n");
	run__release(&r);
}

/* Two structs of one file: one diff, two hunks. */
static void test_two_structs(void)
{
	struct srcpatch_file f = { "include/t.h", two };
	struct srcpatch_slot s1[] = { { "x", NULL, false }, { "a", NULL, false }, { "b", NULL, false },
				      { "c", NULL, false }, { "m", NULL, false }, { "n", NULL, false },
				      { "o", NULL, false } };
	struct srcpatch_slot s2[] = { { "u", NULL, false },    { "p", NULL, false },
				      { "hot", NULL, false },  { "fn", NULL, false },
				      { "x1", NULL, false },   { "x2", NULL, false },
				      { "tail", NULL, false }, { "data", NULL, false } };
	const char *e1[] = { "a", "b", "x", "c", "m", "n", "o" };
	const char *e2[] = { "u", "p", "q", "fn", "hot", "x1", "x2", "tail", "data" };
	struct srcpatch_request r[2] = {
		{ .name = "bits", .decl_line = 5, .expected = e1, .nr_expected = 7, .slots = s1,
		  .nr_slots = 7, .style = SRCPATCH_ATTR_ALIGNED },
		{ .name = "mix", .decl_line = 16, .expected = e2, .nr_expected = 9, .slots = s2,
		  .nr_slots = 8, .style = SRCPATCH_ATTR_ALIGNED },
	};
	struct srcpatch *sp;

	CHECK(srcpatch__make(&f, 1, r, 2, &sp) == 0);
	CHECK_TEXT(sp->diff, "--- a/include/t.h\n"
			     "+++ b/include/t.h\n"
			     BITS_HUNK
			     "@@ -21,8 +21,8 @@\n"
			     " \tstruct {\n"
			     " \t\tint p, q;\n"
			     " \t};\n"
			     "-\tvoid (*fn)(int, char *);\t/* callback */\n"
			     " \tlong hot __attribute__((aligned(64)));\n"
			     "+\tvoid (*fn)(int, char *);\t/* callback */\n"
			     " #ifdef CONFIG_X\n"
			     " \tint x1;\n"
			     " \tint x2;\n");
	srcpatch__delete(sp);
}

/* The kernel's groups, old markers replaced, checks into the named function of another file. */
static void test_kernel_groups(void)
{
	static const char h[] = "struct tcp {\n"
				"\t__cacheline_group_begin(old);\n"
				"\tint rd;\n"
				"\t__cacheline_group_end(old);\n"
				"\tint wr;\t/* written */\n"
				"\tint cold;\n"
				"\tDECLARE_BITMAP(flags, 64);\n"
				"} __randomize_layout;\n";
	static const char c[] = "#include \"t.h\"\n"
				"\n"
				"static void __init tcp_struct_check(void)\n"
				"{\n"
				"\tCACHELINE_ASSERT_GROUP_MEMBER(struct tcp, old, rd);\n"
				"\tCACHELINE_ASSERT_GROUP_MEMBER(struct other, x, y);\n"
				"}\n";
	struct srcpatch_file f[2] = { { "include/t.h", h }, { "net/t.c", c } };
	struct srcpatch_slot s[] = { { "wr", "hot", true }, { "rd", "read", true },
				     { "flags", NULL, false }, { "cold", "", false } };
	const char *e[] = { "__cacheline_group_begin__old", "rd", "__cacheline_group_end__old",
			    "wr", "cold", "flags" };
	struct srcpatch_request r = { .name = "tcp", .decl_line = 1, .expected = e, .nr_expected = 6,
				      .slots = s, .nr_slots = 4, .style = SRCPATCH_KERNEL_GROUPS,
				      .check_fn = "tcp_struct_check" };
	struct srcpatch *sp;

	CHECK(srcpatch__make(f, 2, &r, 1, &sp) == 0);
	CHECK_TEXT(sp->texts[0], "struct tcp {\n"
				 "\t__cacheline_group_begin(hot) ____cacheline_aligned_in_smp;\n"
				 "\tint wr;\t/* written */\n"
				 "\t__cacheline_group_end(hot);\n"
				 "\n"
				 "\t__cacheline_group_begin(read) ____cacheline_aligned_in_smp;\n"
				 "\tint rd;\n"
				 "\tDECLARE_BITMAP(flags, 64);\n"
				 "\t__cacheline_group_end(read);\n"
				 "\n"
				 "\tint cold;\n"
				 "} __randomize_layout;\n");
	CHECK_TEXT(sp->texts[1], "#include \"t.h\"\n"
				 "\n"
				 "static void __init tcp_struct_check(void)\n"
				 "{\n"
				 "\tCACHELINE_ASSERT_GROUP_MEMBER(struct tcp, hot, wr);\n"
				 "\tCACHELINE_ASSERT_GROUP_MEMBER(struct tcp, read, rd);\n"
				 "\tCACHELINE_ASSERT_GROUP_MEMBER(struct tcp, read, flags);\n"
				 "\tCACHELINE_ASSERT_GROUP_MEMBER(struct other, x, y);\n"
				 "}\n");
	CHECK(sp->outcomes[0].randomized);
	CHECK(sp->outcomes[0].nr_warnings == 1);
	CHECK_HAS(sp->outcomes[0].warnings[0], "CONFIG_RANDSTRUCT off");
	CHECK_HAS(sp->diff, "--- a/net/t.c\n+++ b/net/t.c\n");
	srcpatch__delete(sp);
}

/*
 * The kernel's style with a check function, and an order without groups: the old checks go
 * and no new ones come (the empty text of the checks was a NULL string before).
 */
static void test_kernel_no_groups(void)
{
	static const char h[] = "struct tcp {\n\tint rd;\n\tint wr;\n};\n";
	static const char c[] = "static void tcp_struct_check(void)\n"
				"{\n"
				"\tCACHELINE_ASSERT_GROUP_MEMBER(struct tcp, old, rd);\n"
				"}\n";
	struct srcpatch_file f[2] = { { "include/t.h", h }, { "net/t.c", c } };
	struct srcpatch_slot s[] = { { "wr", NULL, false }, { "rd", NULL, false } };
	const char *e[] = { "rd", "wr" };
	struct srcpatch_request r = { .name = "tcp", .decl_line = 1, .expected = e, .nr_expected = 2,
				      .slots = s, .nr_slots = 2, .style = SRCPATCH_KERNEL_GROUPS,
				      .check_fn = "tcp_struct_check" };
	struct srcpatch *sp;

	CHECK(srcpatch__make(f, 2, &r, 1, &sp) == 0);
	CHECK_TEXT(sp->texts[0], "struct tcp {\n\tint wr;\n\tint rd;\n};\n");
	CHECK_TEXT(sp->texts[1], "static void tcp_struct_check(void)\n{\n}\n");
	srcpatch__delete(sp);
}

/* A typedef'd anonymous struct, packed, found by name when decl_line misses, two variants. */
static void test_find(void)
{
	static const char t[] = "typedef struct {\n"
				"\tchar c;\n"
				"\tint i;\n"
				"} __attribute__((packed)) pk_t;\n"
				"#if A\n"
				"struct v { int a; int b; };\n"
				"#else\n"
				"struct v {\n"
				"\tint b;\n"
				"\tint a;\n"
				"};\n"
				"#endif\n";
	struct run r;

	expect(t, "pk_t", 1, "c,i", "i,c", 0,
	       "typedef struct {\n\tint i;\n\tchar c;\n} __attribute__((packed)) pk_t;\n");
	r = run(t, "pk_t", 40, SRCPATCH_ATTR_ALIGNED, "c,i", "i@g!,c", NULL);
	CHECK(r.ret == 0 && r.nr_warnings >= 1);
	CHECK_HAS(r.warnings[0], "include/t.h:1: pk_t found here, not at line 40");
	CHECK_HAS(r.text, "_Static_assert(__builtin_offsetof(pk_t, i) % 64 == 0");
	run__release(&r);
	/* the one-line variant: rewritten one member a line */
	expect(t, "v", 6, "a,b", "b,a", 0, "#if A\nstruct v {\n\tint b;\n\tint a;\n};\n#else\n");
	expect(t, "v", 9, "a,b", "a,b", 0, "#else\nstruct v {\n\tint a;\n\tint b;\n};\n#endif\n");
	expect(t, "v", 30, "a,b", "a,b", 1,
	       "struct v is defined 2 times (lines 6, 8) and none contains line 30");
	expect(t, "nosuch", 1, "a", "a", 1, "include/t.h: no definition of struct nosuch");
}

/* Member macros, function pointers, arrays, randomized_struct_fields_start, an unknown macro. */
static void test_macros(void)
{
	static const char t[] = "struct task {\n"
				"\tunsigned int __state;\n"
				"\trandomized_struct_fields_start\n"
				"\tvoid *stack;\n"
				"\tstruct_group(addrs,\n"
				"\t\tint saddr;\n"
				"\t\tint daddr;\n"
				"\t);\n"
				"\tDECLARE_FLEX_ARRAY(int, ents);\n"
				"\tKABI_RESERVE(1);\n"
				"\tint (*handler[4])(void *);\n"
				"\tlong arr[2][3];\n"
				"\trandomized_struct_fields_end\n"
				"};\n";
	struct srcpatch_file f = { "t.h", t };
	struct srcpatch_scan *sc;
	struct run r;

	CHECK(srcpatch__scan(&f, "task", 1, &sc) == 0);
	CHECK(sc->outcome.randomized);
	CHECK(sc->nr_members == 9);
	if (sc->nr_members == 9) {
		CHECK(!strcmp(sc->members[2].name, "saddr") && !strcmp(sc->members[4].name, "addrs"));
		CHECK(sc->members[2].unit == sc->members[4].unit);
		CHECK(!strcmp(sc->members[5].name, "__empty_ents"));
		CHECK(!strcmp(sc->members[7].name, "handler") && !strcmp(sc->members[8].name, "arr"));
	}
	CHECK(sc->outcome.nr_warnings == 2);
	if (sc->outcome.nr_warnings == 2)
		CHECK_HAS(sc->outcome.warnings[1], "t.h:10: KABI_RESERVE() may declare members");
	srcpatch_scan__delete(sc);
	r = run(t, "task", 1, SRCPATCH_ATTR_ALIGNED,
		"__state,stack,saddr,daddr,addrs,__empty_ents,ents,handler,arr",
		"__state,arr,handler,addrs,stack,ents", NULL);
	CHECK(r.ret == 0);
	CHECK_HAS(r.text, "struct task {\n"
			  "\tunsigned int __state;\n"
			  "\trandomized_struct_fields_start\n"
			  "\tlong arr[2][3];\n"
			  "\trandomized_struct_fields_end\n"
			  "\tint (*handler[4])(void *);\n"
			  "\tstruct_group(addrs,\n"
			  "\t\tint saddr;\n"
			  "\t\tint daddr;\n"
			  "\t);\n"
			  "\tvoid *stack;\n"
			  "\tDECLARE_FLEX_ARRAY(int, ents);\n"
			  "\tKABI_RESERVE(1);\n"
			  "};\n");
	CHECK(r.randomized);
	run__release(&r);
	/* the binary has a member the unknown macro may declare: refused, the macro named */
	r = run(t, "task", 1, SRCPATCH_ATTR_ALIGNED,
		"__state,stack,saddr,daddr,addrs,__empty_ents,ents,kabi_reserved1,handler,arr",
		"__state,stack,addrs,ents,handler,arr", NULL);
	CHECK(r.ret == 1);
	CHECK_HAS(r.error, "only in the binary: kabi_reserved1; only in the source: none; line 10: "
			   "KABI_RESERVE() may declare members lineup cannot name");
	run__release(&r);
}

/* A file without a final newline, and the hunk header of a one-line change at its end. */
static void test_diff_edges(void)
{
	static const char t[] = "struct e {\n\tint a;\n\tint b;\n};";
	struct run r = run(t, "e", 1, SRCPATCH_KERNEL_ALIGNED, "a,b", "b,a", NULL);

	CHECK(r.ret == 0);
	CHECK_TEXT(r.diff, "--- a/include/t.h\n"
			   "+++ b/include/t.h\n"
			   "@@ -1,4 +1,4 @@\n"
			   " struct e {\n"
			   "-\tint a;\n"
			   " \tint b;\n"
			   "+\tint a;\n"
			   " };\n"
			   "\\ No newline at end of file\n");
	run__release(&r);
}

/*
 * #pragma pack caps every alignment, aligned attributes included: a layout that starts a line
 * is refused under it (the patch had aligned(64) members and checks that do not compile);
 * a plain reorder goes through, and so does the packing's end: pop, pack(), a label's pop.
 */
static void test_pragma_pack(void)
{
	static const char t[] = "#pragma pack(push, 1)\n"
				"struct wire {\n"
				"\tchar tag;\n"
				"\tlong lba;\n"
				"};\n"
				"#pragma pack(pop)\n"
				"struct after { char tag; long lba; };\n"
				"#  pragma pack(4)\n"
				"struct four { char tag; long lba; };\n"
				"#pragma pack()\n"
				"struct dflt { char tag; long lba; };\n"
				"_Pragma(\"pack(push, r1, 2)\")\n"
				"struct two { char tag; long lba; };\n"
				"_Pragma(\"pack(pop, r1)\")\n"
				"struct last { char tag; long lba; };\n";
	static const struct {
		const char *name, *message;
	} cases[] = {
		{ "wire", "include/t.h:2: struct wire is declared under #pragma pack(1) (include/t.h:1): "
			  "an aligned member would not start a line; lay it out by hand or remove "
			  "the packing" },
		{ "after", NULL },
		{ "four", "include/t.h:9: struct four is declared under #pragma pack(4) (include/t.h:8)" },
		{ "dflt", NULL },
		{ "two", "include/t.h:13: struct two is declared under #pragma pack(2) (include/t.h:12)" },
		{ "last", NULL },
	};
	struct run r;

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		r = run(t, cases[k].name, 0, SRCPATCH_ATTR_ALIGNED, "tag,lba", "lba@g!,tag", NULL);
		if (!cases[k].message) {
			CHECK(r.ret == 0);
			CHECK_HAS(r.text, "long lba __attribute__((aligned(64)));");
		} else {
			CHECK(r.ret == 1);
			CHECK_HAS(r.error, cases[k].message);
			CHECK_TEXT(r.text, t);
			CHECK_TEXT(r.diff, "");
		}
		run__release(&r);
	}
	/* the kernel's aligned group start too; a plain reorder is no alignment */
	r = run(t, "wire", 2, SRCPATCH_KERNEL_GROUPS, "tag,lba", "lba@g!,tag", NULL);
	CHECK(r.ret == 1);
	CHECK_HAS(r.error, "struct wire is declared under #pragma pack(1)");
	run__release(&r);
	r = run(t, "wire", 2, SRCPATCH_ATTR_ALIGNED, "tag,lba", "lba,tag", NULL);
	CHECK(r.ret == 0);
	CHECK_HAS(r.text, "struct wire {\n\tlong lba;\n\tchar tag;\n};\n");
	run__release(&r);
}

/* Every line of @t ends in CRLF (a last line without an ending aside). */
static bool all_crlf(const char *t, int line)
{
	for (const char *p = strchr(t, '\n'); p; p = strchr(p + 1, '\n'))
		if (p == t || p[-1] != '\r') {
			fprintf(stderr, "line %d: an LF line at offset %zu in:\n%s\n", line,
				(size_t)(p - t), t);
			return false;
		}
	return true;
}

/*
 * A CRLF header: the lines written (a split declaration, the group markers, the layout
 * comment, the checks) end in CRLF as the file's do; a #define continued with a backslash
 * before CRLF is one directive, not code.
 */
static void test_crlf(void)
{
	static const char t[] = "#include <assert.h>\r\n"
				"#include <stddef.h>\r\n"
				"\r\n"
				"struct crlf {\r\n"
				"\tlong head;\t/* producer */\r\n"
				"\tint a, b;\r\n"
				"#define FLAG(x) \\\r\n"
				"\t((x) << 1)\r\n"
				"\tlong tail;\r\n"
				"};\r\n";
	struct run r = run(t, "crlf", 4, SRCPATCH_ATTR_ALIGNED, "head,a,b,tail", "head@p!,b,tail@c!,a",
			   "Layout by lineup\n\nsecond");

	CHECK(r.ret == 0);
	CHECK(all_crlf(r.text, __LINE__));
	CHECK_TEXT(r.text, "#include <assert.h>\r\n"
			   "#include <stddef.h>\r\n"
			   "\r\n"
			   "/*\r\n"
			   " * Layout by lineup\r\n"
			   " *\r\n"
			   " * second\r\n"
			   " */\r\n"
			   "struct crlf {\r\n"
			   "\tlong head __attribute__((aligned(64)));\t/* producer */\r\n"
			   "\tint b;\r\n"
			   "\tlong tail __attribute__((aligned(64)));\r\n"
			   "\tint a;\r\n"
			   "#define FLAG(x) \\\r\n"
			   "\t((x) << 1)\r\n"
			   "};\r\n"
			   "\r\n"
			   "/* Keep the cache-line groups of struct crlf (see the comment above it). */\r\n"
			   "static_assert(offsetof(struct crlf, head) % 64 == 0, \"head starts a cache line\");\r\n"
			   "static_assert(offsetof(struct crlf, head) < offsetof(struct crlf, tail),\r\n"
			   "\t      \"head in cache line group p\");\r\n"
			   "static_assert(offsetof(struct crlf, b) >= offsetof(struct crlf, head) &&\r\n"
			   "\t      offsetof(struct crlf, b) < offsetof(struct crlf, tail), "
			   "\"b in cache line group p\");\r\n"
			   "static_assert(offsetof(struct crlf, tail) % 64 == 0, \"tail starts a cache line\");\r\n"
			   "static_assert(offsetof(struct crlf, a) >= offsetof(struct crlf, tail), "
			   "\"a in cache line group c\");\r\n");
	/* the diff's lines are the new text's, CRLF and all */
	CHECK_HAS(r.diff, "\n+\tint b;\r\n");
	run__release(&r);
	r = run(t, "crlf", 4, SRCPATCH_KERNEL_GROUPS, "head,a,b,tail", "tail@c!,b,head@p!,a", NULL);
	CHECK(r.ret == 0);
	CHECK(all_crlf(r.text, __LINE__));
	CHECK_HAS(r.text, "struct crlf {\r\n"
			  "\t__cacheline_group_begin(c) ____cacheline_aligned_in_smp;\r\n"
			  "\tlong tail;\r\n"
			  "\tint b;\r\n"
			  "\t__cacheline_group_end(c);\r\n"
			  "\r\n"
			  "\t__cacheline_group_begin(p) ____cacheline_aligned_in_smp;\r\n"
			  "\tlong head;\t/* producer */\r\n"
			  "\tint a;\r\n"
			  "#define FLAG(x) \\\r\n"
			  "\t((x) << 1)\r\n"
			  "\t__cacheline_group_end(p);\r\n"
			  "};\r\n");
	run__release(&r);
}

int main(void)
{
	test_unchanged();
	test_bitfields();
	test_multi_declarators();
	test_split_eight_items();
	test_prefix_names();
	test_units();
	test_mismatch();
	test_refusals();
	test_ifdef();
	test_two_structs();
	test_kernel_groups();
	test_kernel_no_groups();
	test_find();
	test_macros();
	test_diff_edges();
	test_crlf();
	test_pragma_pack();
	return failures != 0;
}
