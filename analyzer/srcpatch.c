// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Moving member declarations in C source: lexing, finding the definition, cutting its body
 * into items, checking the member set, writing the new order and its groups.  The unified
 * diff is in srcpatch_diff.c.  Every parse structure comes from one pool freed at the end of
 * the call; outputs are plain heap strings.
 */
#include <config.h>

#include "analyzer/srcpatch.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

/* Nesting beyond this (blocks in aggregates in blocks ...) is refused, not recursed into. */
#define MAX_DEPTH 32

/* ---- allocation: every parse structure of one call lives in the pool ---- */

struct pool {
	void **ptrs;
	size_t nr, cap;
};

static void *pool__zalloc(struct pool *p, size_t size)
{
	p->ptrs = xgrow(p->ptrs, &p->cap, p->nr + 1, sizeof(*p->ptrs));
	return p->ptrs[p->nr++] = xcalloc(1, size ? size : 1);
}

static void pool__release(struct pool *p)
{
	for (size_t i = 0; i < p->nr; i++)
		free(p->ptrs[i]);
	zfree(&p->ptrs);
	p->nr = p->cap = 0;
}

/* A growable array of pointers from the pool's point of view: freed with it. */
struct vec {
	void **v;
	unsigned int nr, cap;
};

static void vec__push(struct pool *p, struct vec *v, void *x)
{
	if (v->nr == v->cap) {
		unsigned int cap = v->cap ? 2 * v->cap : 8;
		void **nv = pool__zalloc(p, cap * sizeof(*nv));

		if (v->nr)
			memcpy(nv, v->v, v->nr * sizeof(*nv));
		v->v = nv;
		v->cap = cap;
	}
	v->v[v->nr++] = x;
}

/* ---- lexing ---- */

enum tok_kind { TK_IDENT, TK_NUM, TK_PUNCT, TK_STR, TK_COMMENT, TK_PP };

struct tok {
	enum tok_kind kind;
	uint32_t start, end;
	uint32_t line, end_line;
};

struct lexed {
	const char *text;
	size_t len;
	struct tok *toks;
	size_t nr, cap;
};

static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

static bool is_ident_char(char c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* Skip the block comment starting at @i, counting lines; returns the index after it. */
static size_t skip_block_comment(const char *s, size_t n, size_t i, uint32_t *line)
{
	for (i += 2; i < n; i++) {
		if (s[i] == '\n')
			(*line)++;
		else if (s[i] == '*' && i + 1 < n && s[i + 1] == '/')
			return i + 2;
	}
	return n;
}

/* The length of the backslash-newline at @i (a CRLF file's "\\\r\n" too), or 0. */
static size_t continuation(const char *s, size_t n, size_t i)
{
	if (s[i] != '\\' || i + 1 >= n)
		return 0;
	if (s[i + 1] == '\n')
		return 2;
	return s[i + 1] == '\r' && i + 2 < n && s[i + 2] == '\n' ? 3 : 0;
}

/*
 * The line ending of the lines the patcher writes into @t: "\r\n" when most of its lines end
 * so (a file edited on Windows), else "\n"; a file mixing both keeps each old line's own.
 */
static const char *text_eol(const char *t)
{
	size_t crlf = 0, lf = 0;

	for (const char *p = strchr(t, '\n'); p; p = strchr(p + 1, '\n')) {
		if (p > t && p[-1] == '\r')
			crlf++;
		else
			lf++;
	}
	return crlf > lf ? "\r\n" : "\n";
}

/* Skip to the end of a line (not past the '\n'), honouring backslash continuations. */
static size_t skip_line(const char *s, size_t n, size_t i, uint32_t *line, bool comments)
{
	while (i < n && s[i] != '\n') {
		if (continuation(s, n, i)) {
			i += continuation(s, n, i);
			(*line)++;
		} else if (comments && s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
			i = skip_block_comment(s, n, i, line);
		} else {
			i++;
		}
	}
	return i;
}

static void lex(struct lexed *lx, const char *text)
{
	const char *s = text;
	size_t n = strlen(text), i = 0;
	uint32_t line = 1;
	bool bol = true;

	lx->text = text;
	lx->len = n;
	while (i < n) {
		char c = s[i];
		size_t start = i;
		uint32_t sl = line;
		enum tok_kind kind;

		if (c == '\n') {
			line++;
			bol = true;
			i++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			i++;
			continue;
		}
		if (continuation(s, n, i)) {
			line++;
			i += continuation(s, n, i);
			continue;
		}
		if (c == '#' && bol) {
			kind = TK_PP;
			i = skip_line(s, n, i, &line, true);
		} else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
			kind = TK_COMMENT;
			i = skip_block_comment(s, n, i, &line);
		} else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
			kind = TK_COMMENT;
			i = skip_line(s, n, i, &line, false);
		} else if (is_ident_start(c)) {
			kind = TK_IDENT;
			while (i < n && is_ident_char(s[i]))
				i++;
		} else if ((c >= '0' && c <= '9') || (c == '.' && i + 1 < n && s[i + 1] >= '0' &&
						       s[i + 1] <= '9')) {
			kind = TK_NUM;
			while (i < n && (is_ident_char(s[i]) || s[i] == '.' ||
					 ((s[i] == '+' || s[i] == '-') &&
					  (s[i - 1] == 'e' || s[i - 1] == 'E' || s[i - 1] == 'p' ||
					   s[i - 1] == 'P'))))
				i++;
		} else if (c == '"' || c == '\'') {
			kind = TK_STR;
			for (i++; i < n && s[i] != c && s[i] != '\n'; i++)
				if (s[i] == '\\' && i + 1 < n)
					i++;
			if (i < n && s[i] == c)
				i++;
		} else {
			kind = TK_PUNCT;
			i++;
		}
		if (kind != TK_COMMENT)
			bol = false;
		lx->toks = xgrow(lx->toks, &lx->cap, lx->nr + 1, sizeof(*lx->toks));
		lx->toks[lx->nr++] = (struct tok){ kind, start, i, sl, line };
	}
}

static bool tok_is(const struct lexed *lx, size_t i, const char *s)
{
	const struct tok *t;
	size_t n = strlen(s);

	if (i >= lx->nr)
		return false;
	t = &lx->toks[i];
	return t->end - t->start == n && !memcmp(lx->text + t->start, s, n) && t->kind != TK_STR &&
	       t->kind != TK_COMMENT;
}

static bool tok_punct(const struct lexed *lx, size_t i, char c)
{
	return i < lx->nr && lx->toks[i].kind == TK_PUNCT && lx->text[lx->toks[i].start] == c;
}

static bool code_tok(const struct lexed *lx, size_t i)
{
	return lx->toks[i].kind != TK_COMMENT && lx->toks[i].kind != TK_PP;
}

/* The next token at or after @i that is code (not a comment or directive), or @lim. */
static size_t next_code(const struct lexed *lx, size_t i, size_t lim)
{
	while (i < lim && !code_tok(lx, i))
		i++;
	return i;
}

/* The token closing the bracket opened at @i, or @lim when unbalanced before @lim. */
static size_t match(const struct lexed *lx, size_t i, size_t lim)
{
	char open = lx->text[lx->toks[i].start];
	char close = open == '(' ? ')' : open == '[' ? ']' : '}';
	int depth = 0;

	for (; i < lim; i++) {
		if (!code_tok(lx, i) || lx->toks[i].kind != TK_PUNCT)
			continue;
		if (tok_punct(lx, i, open))
			depth++;
		else if (tok_punct(lx, i, close) && --depth == 0)
			return i;
	}
	return lim;
}

static char *tok_str(struct pool *p, const struct lexed *lx, size_t i)
{
	const struct tok *t = &lx->toks[i];
	char *s = pool__zalloc(p, t->end - t->start + 1);

	memcpy(s, lx->text + t->start, t->end - t->start);
	return s;
}

/* The directive's keyword: "ifdef" for "#  ifdef X"; "" when none. */
static size_t pp_keyword(const struct lexed *lx, size_t i, const char **kw)
{
	const char *s = lx->text + lx->toks[i].start + 1, *e = lx->text + lx->toks[i].end;
	size_t n = 0;

	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (s + n < e && is_ident_char(s[n]))
		n++;
	*kw = s;
	return n;
}

static bool pp_is(const struct lexed *lx, size_t i, const char *w)
{
	const char *kw;
	size_t n;

	if (lx->toks[i].kind != TK_PP)
		return false;
	n = pp_keyword(lx, i, &kw);
	return n == strlen(w) && !memcmp(kw, w, n);
}

/* ---- #pragma pack ---- */

/*
 * The packing in effect (GCC's and MSVC's #pragma pack, _Pragma("pack(...)")): members align
 * to at most @value bytes, an aligned attribute included, so no alignment can start a line.
 * __attribute__((packed)) is another thing: an aligned member of a packed struct keeps its
 * alignment (GCC and clang both), as the layout side assumes.
 */
struct pack {
	unsigned int value; /* 0: none */
	uint32_t line;	    /* of the directive that set it */
};

#define PACK_STACK 64

struct pack_stack {
	struct pack cur;
	struct {
		struct pack saved;
		const char *label; /* push's identifier, or NULL */
		size_t label_len;
	} v[PACK_STACK];
	unsigned int nr, lost; /* pushes beyond PACK_STACK: popped without effect */
};

static const char *skip_blanks(const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n' || *s == '\\'))
		s++;
	return s;
}

/* Apply "pack(ARGS)" at [s, e) (after "#pragma", or inside _Pragma's string) on line @line. */
static void pack__apply(struct pack_stack *ps, const char *s, const char *e, uint32_t line)
{
	const char *label = NULL;
	size_t label_len = 0;
	bool push = false, pop = false, has_n = false;
	unsigned long n = 0;

	s = skip_blanks(s, e);
	if (e - s < 4 || memcmp(s, "pack", 4) || (e - s > 4 && is_ident_char(s[4])))
		return;
	s = skip_blanks(s + 4, e);
	if (s == e || *s != '(')
		return;
	for (s++;;) {
		const char *w;

		while (s < e && (*s == ',' || *s == ' ' || *s == '\t' || *s == '\\' || *s == '\r' ||
				 *s == '\n'))
			s++;
		if (s == e || *s == ')')
			break;
		w = s;
		while (s < e && is_ident_char(*s))
			s++;
		if (s == w)
			return; /* not a pack pragma lineup reads: leave the state */
		if (*w >= '0' && *w <= '9') {
			n = strtoul(w, NULL, 0);
			has_n = true;
		} else if (s - w == 4 && !memcmp(w, "push", 4)) {
			push = true;
		} else if (s - w == 3 && !memcmp(w, "pop", 3)) {
			pop = true;
		} else if (s - w == 4 && !memcmp(w, "show", 4)) {
			return;
		} else {
			label = w;
			label_len = s - w;
		}
	}
	if (push) {
		if (ps->nr < PACK_STACK) {
			ps->v[ps->nr].saved = ps->cur;
			ps->v[ps->nr].label = label;
			ps->v[ps->nr++].label_len = label_len;
		} else {
			ps->lost++;
		}
	} else if (pop) {
		unsigned int k = ps->nr;

		if (ps->lost && !label) {
			ps->lost--;
		} else if (label) {
			/* back to the push of that label; none: nothing popped (as GCC) */
			while (k && !(ps->v[k - 1].label && ps->v[k - 1].label_len == label_len &&
				      !memcmp(ps->v[k - 1].label, label, label_len)))
				k--;
			if (k) {
				ps->nr = k - 1;
				ps->cur = ps->v[ps->nr].saved;
			}
		} else if (ps->nr) {
			ps->cur = ps->v[--ps->nr].saved;
		} else {
			ps->cur = (struct pack){ 0, 0 };
		}
	} else if (!has_n) {
		ps->cur = (struct pack){ 0, 0 }; /* pack(): the default */
	}
	if (has_n)
		ps->cur = (struct pack){ (unsigned int)(n > UINT32_MAX ? 0 : n), line };
}

/*
 * The tightest packing in effect over tokens [first, last] (a struct's definition: compilers
 * differ on whether its start or its end counts, and a pragma may sit inside it), from every
 * pack pragma before; .value 0 when none.  Conditional directives are not evaluated: a pragma
 * under any #if counts.
 */
static struct pack pack_at(const struct lexed *lx, size_t first, size_t last)
{
	struct pack_stack *ps = xcalloc(1, sizeof(*ps));
	struct pack best = { 0, 0 };

	for (size_t i = 0; i <= last && i < lx->nr; i++) {
		const struct tok *t = &lx->toks[i];
		bool changed = false;

		if (t->kind == TK_PP) {
			const char *s = lx->text + t->start + 1, *e = lx->text + t->end;

			s = skip_blanks(s, e);
			if (e - s > 6 && !memcmp(s, "pragma", 6) && !is_ident_char(s[6])) {
				pack__apply(ps, s + 6, e, t->line);
				changed = true;
			}
		} else if (t->kind == TK_IDENT && t->end - t->start == 7 &&
			   !memcmp(lx->text + t->start, "_Pragma", 7)) {
			size_t o = next_code(lx, i + 1, lx->nr), str = next_code(lx, o + 1, lx->nr);

			if (tok_punct(lx, o, '(') && str < lx->nr && lx->toks[str].kind == TK_STR &&
			    lx->toks[str].end - lx->toks[str].start >= 2) {
				pack__apply(ps, lx->text + lx->toks[str].start + 1,
					    lx->text + lx->toks[str].end - 1, t->line);
				changed = true;
			}
		}
		if ((i == first || (i > first && changed)) && ps->cur.value &&
		    (!best.value || ps->cur.value < best.value))
			best = ps->cur;
	}
	free(ps);
	return best;
}

/* ---- the words the parser must know ---- */

static bool in_list(const char *s, size_t n, const char *const *list)
{
	for (; *list; list++)
		if (strlen(*list) == n && !memcmp(*list, s, n))
			return true;
	return false;
}

static const char *const keywords[] = {
	"struct", "union", "enum", "const", "volatile", "restrict", "__restrict", "__restrict__",
	"signed", "unsigned", "__signed__", "short", "long", "int", "char", "float", "double",
	"void", "_Bool", "bool", "_Atomic", "static", "extern", "register", "typedef", "inline",
	"_Complex", "__extension__", "__volatile__", "__const", "__int128", "mutable", NULL,
};

static const char *const type_keywords[] = {
	"struct", "union", "enum", "signed", "unsigned", "__signed__", "short", "long", "int",
	"char", "float", "double", "void", "_Bool", "bool", "_Complex", "__int128", NULL,
};

/* Identifiers that annotate a declaration and are never its name. */
static const char *const attr_words[] = {
	"__packed", "__randomize_layout", "__no_randomize_layout", "____cacheline_aligned",
	"____cacheline_aligned_in_smp", "__cacheline_aligned", "__cacheline_aligned_in_smp",
	"____cacheline_internodealigned_in_smp", "__aligned_largest", "__designated_init",
	"__nonstring", "__deprecated", "__maybe_unused", "__always_unused", "__rcu", "__user",
	"__iomem", "__percpu", "__force", "__bitwise", "__private", "__read_mostly",
	"__attribute_const__", "__may_alias", "__no_kcsan", "__data_racy", NULL,
};

static bool tok_in(const struct lexed *lx, size_t i, const char *const *list)
{
	const struct tok *t = &lx->toks[i];

	return t->kind == TK_IDENT && in_list(lx->text + t->start, t->end - t->start, list);
}

/* An alignment attribute at least @n bytes strong among tokens [a, b). */
static bool has_alignment(const struct lexed *lx, size_t a, size_t b, unsigned int n)
{
	for (size_t i = a; i < b; i++) {
		const struct tok *t = &lx->toks[i];
		const char *s = lx->text + t->start;
		size_t len = t->end - t->start;

		if (t->kind != TK_IDENT)
			continue;
		if (strstr(s, "cacheline_") == s + 2 || strstr(s, "cacheline_") == s + 4 ||
		    (len > 20 && !memcmp(s, "____cacheline_intern", 20)))
			return true;
		if ((len == 9 && !memcmp(s, "__aligned", 9)) || (len == 7 && !memcmp(s, "alignas", 7)) ||
		    (len == 8 && !memcmp(s, "_Alignas", 8)) || (len == 7 && !memcmp(s, "aligned", 7)) ||
		    (len == 11 && !memcmp(s, "__aligned__", 11))) {
			size_t j = next_code(lx, i + 1, b);

			if (!tok_punct(lx, j, '('))
				continue;
			j = next_code(lx, j + 1, b);
			if (j < b && lx->toks[j].kind == TK_NUM) {
				if (strtoul(lx->text + lx->toks[j].start, NULL, 0) >= n)
					return true;
			} else if (j < b && !tok_punct(lx, j, ')')) {
				return true; /* SMP_CACHE_BYTES and the like: take it as a line */
			}
		}
	}
	return false;
}

/* ---- the model of a struct body ---- */

enum decl_kind {
	DECL_PLAIN,	 /* type declarator[, declarator ...]; */
	DECL_AGGREGATE, /* struct/union/enum { ... } [declarators]; */
	DECL_MACRO,	 /* a member macro whose members are known */
	DECL_UNKNOWN,	 /* a macro call lineup cannot name */
	DECL_MARKER,	 /* __cacheline_group_begin/end(): regenerated by the kernel style */
	DECL_RAND_START, /* randomized_struct_fields_start */
	DECL_RAND_END,
	DECL_DIRECTIVE, /* a preprocessor line that is not a conditional */
};

struct name {
	const char *s;
	unsigned int declarator; /* DECL_PLAIN: which one */
	bool bitfield;
	bool flex;
	struct item *item; /* the top item of the list it was found through */
};

struct declarator {
	size_t first, last, name; /* tokens; name == SIZE_MAX: unnamed */
	bool bitfield, flex;
};

struct list;

struct decl {
	enum decl_kind kind;
	size_t first, last; /* tokens, last is the ';' (or the macro's last token) */
	size_t prefix_end;  /* DECL_PLAIN: first token of declarator 0 */
	struct declarator *d;
	unsigned int nr_d;
	struct list *inner; /* aggregate body or struct_group members, NULL otherwise */
	struct vec names;   /* struct name *, flattened */
	bool anonymous;	    /* an aggregate without declarators: its inner names are ours */
	bool bitfield;
};

struct branch {
	size_t directive;
	struct list *list;
};

struct item {
	bool is_block;
	size_t chunk_start, chunk_end; /* bytes: leading comments .. trailing comment, newline */
	size_t code_first;	       /* first code token (or the #if) */
	uint32_t line;
	bool blank_before;
	struct vec decls; /* struct decl *: several when declarations share a line */
	struct branch *branches;
	unsigned int nr_branches;
	size_t endif;
	int active;	/* blocks: the branch the binary has, -1 none */
	bool ambiguous; /* several branches declare the same names */
	unsigned int index;
};

struct list {
	size_t span_start, span_end; /* bytes inside the braces / between directives */
	struct vec items;	     /* struct item * */
};

struct ctx {
	struct pool pool;
	const struct srcpatch_file *file;
	struct lexed lx;
	const struct srcpatch_request *req;
	struct srcpatch_outcome *oc;
	struct vec unknown; /* struct decl * of DECL_UNKNOWN, for the messages */
	bool kernel_groups;
	unsigned int line_size;
	const char *type; /* "struct file" or the typedef name */
	char indent[32];
	/* what ends the lines written: the file's own ending ("\r\n" in a CRLF file) */
	const char *eol;
	/* the #pragma pack in effect at the definition (.value 0: none) */
	struct pack pack;
	/* per slot: effective group and new_line (a block's first slot lends its to the block) */
	const char **group;
	bool *new_line;
	/* the checks' words: static_assert/offsetof, or GNU C's _Static_assert and
	 * __builtin_offsetof, which need no header */
	const char *assert_kw, *offsetof_kw;
};

static void outcome__add_warning(struct srcpatch_outcome *oc, char *msg)
{
	oc->warnings = xrealloc(oc->warnings, (oc->nr_warnings + 1) * sizeof(*oc->warnings));
	oc->warnings[oc->nr_warnings++] = msg;
}

/* "path:line: what" */
static char *located(struct ctx *c, uint32_t line, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;
	char *msg;

	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	strbuf__addf(&sb, "%s:%u: %s", c->file->path, line, msg ? msg : fmt);
	free(msg);
	return sb.buf;
}

static void __attribute__((format(printf, 3, 4))) warn(struct ctx *c, uint32_t line,
							const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	outcome__add_warning(c->oc, located(c, line, fmt, ap));
	va_end(ap);
}

/* The first error wins: later ones are usually its consequences. */
static int __attribute__((format(printf, 3, 4))) fail(struct ctx *c, uint32_t line,
						       const char *fmt, ...)
{
	va_list ap;

	if (c->oc->error)
		return c->oc->error;
	va_start(ap, fmt);
	c->oc->message = located(c, line, fmt, ap);
	va_end(ap);
	c->oc->error = -EINVAL;
	return -EINVAL;
}

static struct name *name__new(struct ctx *c, const char *s)
{
	struct name *n = pool__zalloc(&c->pool, sizeof(*n));

	n->s = s;
	return n;
}

static void decl__add_name(struct ctx *c, struct decl *d, const char *s, unsigned int dcl,
			   bool bitfield, bool flex)
{
	struct name *n = name__new(c, s);

	n->declarator = dcl;
	n->bitfield = bitfield;
	n->flex = flex;
	vec__push(&c->pool, &d->names, n);
}

/* ---- parsing declarations ---- */

static struct list *parse_list(struct ctx *c, size_t a, size_t b, size_t span_start,
			       size_t span_end, int depth);

/*
 * The name a declarator declares, among tokens [a, b): the last identifier that is neither
 * a keyword, an attribute, a struct tag, inside brackets nor a parameter list (a function
 * pointer's name sits in "(*name)").  In the first declarator a lone identifier with no type
 * before it is the type of an unnamed bit-field ("u8 :3").
 */
static size_t declarator_name(struct ctx *c, size_t a, size_t b, bool first, bool *bitfield,
			      bool *flex)
{
	const struct lexed *lx = &c->lx;
	size_t cands[16], nr = 0;
	bool typed = false;

	*bitfield = *flex = false;
	for (size_t i = a; i < b; i++) {
		if (!code_tok(lx, i))
			continue;
		if (tok_punct(lx, i, '[')) {
			size_t j = match(lx, i, b);

			if (next_code(lx, i + 1, b) == j)
				*flex = true;
			i = j;
		} else if (tok_punct(lx, i, ':')) {
			*bitfield = true;
			break;
		} else if (tok_punct(lx, i, '(')) {
			size_t j = next_code(lx, i + 1, b);

			if (!tok_punct(lx, j, '*') && !tok_punct(lx, j, '^') && !tok_punct(lx, j, '('))
				i = match(lx, i, b);
		} else if (lx->toks[i].kind == TK_IDENT) {
			size_t j = next_code(lx, i + 1, b);

			if (tok_punct(lx, j, '(') && !tok_punct(lx, next_code(lx, j + 1, b), '*')) {
				i = match(lx, j, b); /* typeof(), __aligned(), alignas() ... */
				typed = true;
			} else if (tok_is(lx, i, "struct") || tok_is(lx, i, "union") ||
				   tok_is(lx, i, "enum")) {
				typed = true;
				while (j < b && tok_in(lx, j, attr_words))
					j = next_code(lx, j + 1, b);
				if (j < b && lx->toks[j].kind == TK_IDENT)
					i = j;
			} else if (tok_in(lx, i, keywords)) {
				typed |= tok_in(lx, i, type_keywords);
			} else if (!tok_in(lx, i, attr_words) &&
				   strncmp(lx->text + lx->toks[i].start, "__attribute", 11)) {
				if (nr < 16)
					cands[nr++] = i;
				else
					cands[15] = i;
			}
		}
	}
	if (!nr || (first && nr == 1 && !typed))
		return SIZE_MAX;
	/* An attribute macro lineup does not know may follow the name: trust the binary. */
	for (size_t k = nr; k-- > 1;) {
		const struct tok *t = &lx->toks[cands[k]];
		bool known = false;

		for (unsigned int e = 0; e < c->req->nr_expected && !known; e++)
			known = strlen(c->req->expected[e]) == t->end - t->start &&
				!memcmp(c->req->expected[e], lx->text + t->start, t->end - t->start);
		if (known || k < nr - 1)
			return cands[k];
		if (!c->req->nr_expected)
			break;
		{
			const struct tok *p = &lx->toks[cands[k - 1]];

			for (unsigned int e = 0; e < c->req->nr_expected; e++)
				if (strlen(c->req->expected[e]) == p->end - p->start &&
				    !memcmp(c->req->expected[e], lx->text + p->start,
					    p->end - p->start))
					return cands[k - 1];
		}
		break;
	}
	return cands[nr - 1];
}

/* Split tokens [a, b) at top-level commas into declarators with their names. */
static void parse_declarators(struct ctx *c, struct decl *d, size_t a, size_t b, bool first,
			      unsigned int base)
{
	const struct lexed *lx = &c->lx;
	size_t start = a;

	for (size_t i = a; i <= b; i++) {
		struct declarator *dc;
		bool bf, flex;
		size_t nm;

		if (i < b && code_tok(lx, i) &&
		    (tok_punct(lx, i, '(') || tok_punct(lx, i, '[') || tok_punct(lx, i, '{'))) {
			i = match(lx, i, b);
			continue;
		}
		if (i < b && !tok_punct(lx, i, ','))
			continue;
		nm = declarator_name(c, start, i, first && !d->nr_d, &bf, &flex);
		if (nm != SIZE_MAX || next_code(lx, start, i) < i) {
			if (!(d->nr_d & (d->nr_d - 1))) {
				struct declarator *nd = pool__zalloc(&c->pool, 2 * (d->nr_d + 1) *
										     sizeof(*nd));

				if (d->nr_d)
					memcpy(nd, d->d, d->nr_d * sizeof(*nd));
				d->d = nd;
			}
			dc = &d->d[d->nr_d++];
			*dc = (struct declarator){ next_code(lx, start, i), i, nm, bf, flex };
			while (dc->last > dc->first && !code_tok(lx, dc->last - 1))
				dc->last--;
			if (nm != SIZE_MAX)
				decl__add_name(c, d, tok_str(&c->pool, lx, nm), base + d->nr_d - 1,
					       bf, flex);
			d->bitfield |= bf;
		}
		start = i + 1;
	}
}

/* Where declarator 0 starts: back from its name over '*', '(' and pointer qualifiers. */
static size_t declarator_start(const struct lexed *lx, size_t a, size_t name)
{
	size_t s = name, i = name;

	while (i > a) {
		size_t p = i - 1;

		while (p > a && !code_tok(lx, p))
			p--;
		if (tok_punct(lx, p, '*') || tok_punct(lx, p, '(') || tok_is(lx, p, "const") ||
		    tok_is(lx, p, "volatile") || tok_is(lx, p, "restrict") || tok_is(lx, p, "__rcu"))
			s = i = p;
		else
			break;
	}
	while (s < name && !tok_punct(lx, s, '*') && !tok_punct(lx, s, '('))
		s = next_code(lx, s + 1, name + 1);
	return s;
}

/* Macro arguments [a, b) split at top-level commas: the token index of each start. */
static unsigned int macro_args(const struct lexed *lx, size_t a, size_t b, size_t *starts,
			       unsigned int max)
{
	unsigned int n = 0;

	if (max)
		starts[n++] = a;
	for (size_t i = a; i < b; i++) {
		if (!code_tok(lx, i))
			continue;
		if (tok_punct(lx, i, '(') || tok_punct(lx, i, '[') || tok_punct(lx, i, '{'))
			i = match(lx, i, b);
		else if (tok_punct(lx, i, ',') && n < max)
			starts[n++] = i + 1;
	}
	return n;
}

static void add_list_names(struct ctx *c, struct decl *d, const struct list *l, bool all);

/* A member macro: the names it declares as C reaches them, or DECL_UNKNOWN. */
static void parse_macro(struct ctx *c, struct decl *d, size_t call, size_t open, size_t close,
			int depth)
{
	const struct lexed *lx = &c->lx;
	const struct tok *t = &lx->toks[call];
	const char *m = lx->text + t->start;
	size_t len = t->end - t->start, args[4];
	unsigned int n = macro_args(lx, open + 1, close, args, 4);
	size_t a0 = next_code(lx, args[0], close);
	char *arg0 = a0 < close && lx->toks[a0].kind == TK_IDENT ? tok_str(&c->pool, lx, a0) : NULL;

#define IS(s) (len == strlen(s) && !memcmp(m, s, len))
	d->kind = DECL_MACRO;
	if ((IS("DECLARE_BITMAP") || IS("DECLARE_HASHTABLE") || IS("DECLARE_KFIFO") ||
	     IS("DECLARE_KFIFO_PTR")) && arg0) {
		decl__add_name(c, d, arg0, 0, false, false);
	} else if ((IS("DECLARE_FLEX_ARRAY") || IS("__DECLARE_FLEX_ARRAY")) && n >= 2) {
		/* struct { struct { } __empty_NAME; TYPE NAME[]; } */
		char *nm = tok_str(&c->pool, lx, next_code(lx, args[1], close));
		char *empty = pool__zalloc(&c->pool, strlen(nm) + 9);

		sprintf(empty, "__empty_%s", nm);
		decl__add_name(c, d, empty, 0, false, false);
		decl__add_name(c, d, nm, 0, false, true);
	} else if ((IS("__cacheline_group_begin") || IS("__cacheline_group_end") ||
		    IS("__cacheline_group_begin_aligned") || IS("__cacheline_group_end_aligned")) &&
		   arg0) {
		bool begin = len >= 23 && !memcmp(m + 19, "begin", 5);
		char *nm = pool__zalloc(&c->pool, strlen(arg0) + 32);

		d->kind = DECL_MARKER;
		sprintf(nm, "__cacheline_group_%s__%s", begin ? "begin" : "end", arg0);
		decl__add_name(c, d, nm, 0, false, false);
		if (IS("__cacheline_group_end_aligned")) {
			nm = pool__zalloc(&c->pool, strlen(arg0) + 32);
			sprintf(nm, "__cacheline_group_pad__%s", arg0);
			decl__add_name(c, d, nm, 0, false, false);
		}
	} else if ((IS("struct_group") || IS("struct_group_attr") || IS("struct_group_tagged") ||
		    IS("__struct_group")) &&
		   n >= 2) {
		/* union { struct { MEMBERS }; struct [TAG] { MEMBERS } NAME; } */
		unsigned int name_arg = IS("struct_group_tagged") || IS("__struct_group") ? 1 : 0;
		unsigned int members_arg = IS("struct_group") ? 1 :
					   IS("__struct_group")	 ? 3 :
								   2;
		size_t na = next_code(lx, args[name_arg], close);

		if (members_arg >= n) {
			d->kind = DECL_UNKNOWN;
			return;
		}
		d->inner = parse_list(c, args[members_arg], close, lx->toks[args[members_arg]].start,
				      lx->toks[close].start, depth + 1);
		if (!d->inner)
			return;
		add_list_names(c, d, d->inner, true);
		if (na < close && lx->toks[na].kind == TK_IDENT)
			decl__add_name(c, d, tok_str(&c->pool, lx, na), 0, false, false);
	} else {
		d->kind = DECL_UNKNOWN;
	}
#undef IS
}

static void collect_names(struct ctx *c, struct vec *out, const struct list *l, bool all);

static void add_list_names(struct ctx *c, struct decl *d, const struct list *l, bool all)
{
	collect_names(c, &d->names, l, all);
}

/* The declaration in tokens [a, e] (e its ';'). */
static struct decl *parse_decl(struct ctx *c, size_t a, size_t e, int depth)
{
	const struct lexed *lx = &c->lx;
	struct decl *d = pool__zalloc(&c->pool, sizeof(*d));
	size_t f = next_code(lx, a, e), brace = SIZE_MAX;

	d->first = f;
	d->last = e;
	if (tok_is(lx, f, "randomized_struct_fields_start") ||
	    tok_is(lx, f, "randomized_struct_fields_end")) {
		d->kind = tok_is(lx, f, "randomized_struct_fields_start") ? DECL_RAND_START :
									      DECL_RAND_END;
		c->oc->randomized = true;
		return d;
	}
	if (lx->toks[f].kind == TK_IDENT && !tok_in(lx, f, keywords) &&
	    strcmp(tok_str(&c->pool, lx, f), "alignas") && !tok_is(lx, f, "_Alignas") &&
	    strncmp(lx->text + lx->toks[f].start, "__attribute", 11) && !tok_is(lx, f, "typeof") &&
	    !tok_is(lx, f, "__typeof__") && !tok_is(lx, f, "_Atomic")) {
		size_t o = next_code(lx, f + 1, e);

		if (tok_punct(lx, o, '(') && !tok_punct(lx, next_code(lx, o + 1, e), '*')) {
			size_t cl = match(lx, o, e + 1);
			size_t after = next_code(lx, cl + 1, e + 1);

			/* A call, then only attributes and ';': a member macro. */
			while (after < e && (tok_in(lx, after, attr_words) ||
					     (lx->toks[after].kind == TK_IDENT &&
					      tok_punct(lx, next_code(lx, after + 1, e), '('))))
				after = tok_punct(lx, next_code(lx, after + 1, e), '(') ?
						next_code(lx, match(lx, next_code(lx, after + 1, e), e) + 1,
							  e + 1) :
						next_code(lx, after + 1, e + 1);
			if (after >= e) {
				parse_macro(c, d, f, o, cl, depth);
				if (d->kind == DECL_UNKNOWN)
					vec__push(&c->pool, &c->unknown, d);
				return d;
			}
		}
	}
	for (size_t i = f; i < e; i++) {
		if (!code_tok(lx, i))
			continue;
		if (tok_punct(lx, i, '{')) {
			brace = i;
			break;
		}
		if (tok_punct(lx, i, '(') || tok_punct(lx, i, '['))
			i = match(lx, i, e);
	}
	if (brace != SIZE_MAX) {
		size_t close = match(lx, brace, e);
		bool is_enum = false;

		for (size_t i = f; i < brace; i++)
			is_enum |= tok_is(lx, i, "enum");
		d->kind = DECL_AGGREGATE;
		if (!is_enum) {
			d->inner = parse_list(c, brace + 1, close, lx->toks[brace].end,
					      lx->toks[close].start, depth + 1);
			if (!d->inner)
				return d;
		}
		parse_declarators(c, d, close + 1, e, false, 0);
		if (!d->names.nr && !is_enum) {
			d->anonymous = true;
			add_list_names(c, d, d->inner, true);
		}
		return d;
	}
	d->kind = DECL_PLAIN;
	parse_declarators(c, d, f, e, true, 0);
	d->prefix_end = d->nr_d && d->d[0].name != SIZE_MAX ? declarator_start(lx, f, d->d[0].name) :
								f;
	return d;
}

/* ---- items: declarations with their comments, and conditional blocks ---- */

static size_t line_start(const char *s, size_t at)
{
	while (at > 0 && s[at - 1] != '\n')
		at--;
	return at;
}

static bool only_blank(const char *s, size_t a, size_t b)
{
	for (; a < b; a++)
		if (s[a] != ' ' && s[a] != '\t' && s[a] != '\r')
			return false;
	return true;
}

/* Set the item's chunk: whole lines when it has them to itself. */
static void item__chunk(struct ctx *c, struct item *it, size_t first_tok, size_t last_tok,
			size_t prev_end)
{
	const char *s = c->lx.text;
	size_t st = c->lx.toks[first_tok].start, ls = line_start(s, st), en = c->lx.toks[last_tok].end;
	size_t e = en, nl = 0;

	it->chunk_start = ls >= prev_end && only_blank(s, ls, st) ? ls : st;
	while (e < c->lx.len && (s[e] == ' ' || s[e] == '\t' || s[e] == '\r'))
		e++;
	it->chunk_end = e < c->lx.len && s[e] == '\n' ? e + 1 : en;
	for (size_t i = prev_end; i < it->chunk_start; i++)
		nl += s[i] == '\n';
	if (prev_end && s[prev_end - 1] == '\n')
		nl++;
	it->blank_before = nl >= 2;
}

/* The end of the declaration starting at code token @f: its ';', or a macro's ')'. */
static size_t decl_end(struct ctx *c, size_t f, size_t b)
{
	const struct lexed *lx = &c->lx;

	if (tok_is(lx, f, "randomized_struct_fields_start") ||
	    tok_is(lx, f, "randomized_struct_fields_end"))
		return f;
	for (size_t i = f; i < b; i++) {
		if (!code_tok(lx, i))
			continue;
		if (tok_punct(lx, i, ';'))
			return i;
		if (tok_punct(lx, i, '(') || tok_punct(lx, i, '[') || tok_punct(lx, i, '{')) {
			size_t m = match(lx, i, b);
			size_t nx = next_code(lx, m + 1, b);

			/* KABI_RESERVE(1) with no ';': the next declaration starts a line. */
			if (i == next_code(lx, f + 1, b) && tok_punct(lx, i, '(') && nx < b &&
			    lx->toks[nx].line > lx->toks[m].end_line && !tok_punct(lx, nx, ';') &&
			    !tok_in(lx, nx, attr_words) && lx->toks[nx].kind != TK_PUNCT)
				return m;
			i = m;
		}
	}
	return SIZE_MAX;
}

static struct item *parse_block(struct ctx *c, size_t p, size_t b, size_t *next, int depth)
{
	const struct lexed *lx = &c->lx;
	struct item *it = pool__zalloc(&c->pool, sizeof(*it));
	size_t dirs[64];
	unsigned int nd = 0;
	int nest = 0;

	it->is_block = true;
	it->active = -1;
	dirs[nd++] = p;
	for (size_t i = p + 1; i < b; i++) {
		if (lx->toks[i].kind != TK_PP)
			continue;
		if (pp_is(lx, i, "if") || pp_is(lx, i, "ifdef") || pp_is(lx, i, "ifndef")) {
			nest++;
		} else if (pp_is(lx, i, "endif")) {
			if (nest-- == 0) {
				it->endif = i;
				break;
			}
		} else if (!nest && (pp_is(lx, i, "elif") || pp_is(lx, i, "else") ||
				     pp_is(lx, i, "elifdef") || pp_is(lx, i, "elifndef"))) {
			if (nd == 64) {
				fail(c, lx->toks[i].line, "more than 64 branches in one #if block");
				return NULL;
			}
			dirs[nd++] = i;
		}
	}
	if (!it->endif) {
		fail(c, lx->toks[p].line, "#if without #endif inside the struct");
		return NULL;
	}
	it->branches = pool__zalloc(&c->pool, nd * sizeof(*it->branches));
	it->nr_branches = nd;
	for (unsigned int k = 0; k < nd; k++) {
		size_t end = k + 1 < nd ? dirs[k + 1] : it->endif;
		size_t ss = lx->toks[dirs[k]].end;

		if (ss < lx->len && lx->text[ss] == '\n')
			ss++;
		it->branches[k].directive = dirs[k];
		it->branches[k].list = parse_list(c, dirs[k] + 1, end, ss,
						  line_start(lx->text, lx->toks[end].start), depth + 1);
		if (!it->branches[k].list)
			return NULL;
	}
	*next = it->endif + 1;
	return it;
}

/*
 * Cut tokens [a, b) (a struct body, a branch, struct_group's members) into items; the list's
 * span is the bytes [span_start, span_end) that its items and the text around them fill.
 */
static struct list *parse_list(struct ctx *c, size_t a, size_t b, size_t span_start,
			       size_t span_end, int depth)
{
	const struct lexed *lx = &c->lx;
	struct list *l = pool__zalloc(&c->pool, sizeof(*l));
	size_t prev_end = span_start, i = a, lead = SIZE_MAX;

	if (depth > MAX_DEPTH) {
		fail(c, a < lx->nr ? lx->toks[a].line : 0, "nested more than %d deep", MAX_DEPTH);
		return NULL;
	}
	l->span_start = span_start;
	l->span_end = span_end;
	while (i < b) {
		struct item *it;
		size_t last;

		if (lx->toks[i].kind == TK_COMMENT) {
			if (lead == SIZE_MAX)
				lead = i;
			i++;
			continue;
		}
		if (pp_is(lx, i, "if") || pp_is(lx, i, "ifdef") || pp_is(lx, i, "ifndef")) {
			size_t nx;

			it = parse_block(c, i, b, &nx, depth);
			if (!it)
				return NULL;
			it->code_first = i;
			last = it->endif;
			i = nx;
		} else if (lx->toks[i].kind == TK_PP) {
			struct decl *d = pool__zalloc(&c->pool, sizeof(*d));

			if (pp_is(lx, i, "endif") || pp_is(lx, i, "else") || pp_is(lx, i, "elif")) {
				fail(c, lx->toks[i].line, "#%s without its #if inside the struct",
				     pp_is(lx, i, "endif") ? "endif" : "else");
				return NULL;
			}
			it = pool__zalloc(&c->pool, sizeof(*it));
			d->kind = DECL_DIRECTIVE;
			d->first = d->last = i;
			vec__push(&c->pool, &it->decls, d);
			it->code_first = i;
			last = i++;
		} else {
			size_t e = decl_end(c, i, b);

			if (e == SIZE_MAX) {
				fail(c, lx->toks[i].line, "a member declaration without its ';'");
				return NULL;
			}
			it = pool__zalloc(&c->pool, sizeof(*it));
			it->code_first = i;
			vec__push(&c->pool, &it->decls, parse_decl(c, i, e, depth));
			if (c->oc->error)
				return NULL;
			last = e;
			i = e + 1;
		}
		if (it->is_block) {
			/* a comment on the #endif line is part of the directive */
		} else {
			while (i < b && lx->toks[i].kind == TK_COMMENT &&
			       lx->toks[i].line == lx->toks[last].end_line)
				last = i++;
		}
		item__chunk(c, it, lead != SIZE_MAX ? lead : it->code_first, last, prev_end);
		it->line = lx->toks[it->code_first].line;
		it->index = l->items.nr;
		vec__push(&c->pool, &l->items, it);
		prev_end = it->chunk_end;
		lead = SIZE_MAX;
	}
	return l;
}

/* ---- names and the member set ---- */

static bool name_eq(const char *a, const char *b)
{
	return !strcmp(a, b);
}

/* Names of @l reachable in the binary (@all: every branch of every block). */
static void collect_names(struct ctx *c, struct vec *out, const struct list *l, bool all)
{
	for (unsigned int i = 0; i < l->items.nr; i++) {
		struct item *it = l->items.v[i];

		if (it->is_block) {
			for (unsigned int k = 0; k < it->nr_branches; k++)
				if (all || (int)k == it->active)
					collect_names(c, out, it->branches[k].list, all);
			continue;
		}
		for (unsigned int d = 0; d < it->decls.nr; d++) {
			struct decl *dc = it->decls.v[d];

			for (unsigned int n = 0; n < dc->names.nr; n++)
				vec__push(&c->pool, out, dc->names.v[n]);
		}
	}
}

/* "a|b|c" (an anonymous unit as lineup watch names it) holds each of them; "a" holds a. */
static bool alternatives_have(const char *x, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = x; p;) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);

		if (len == n && !memcmp(p, name, n))
			return true;
		p = bar ? bar + 1 : NULL;
	}
	return false;
}

static bool expected_has(struct ctx *c, const char *name)
{
	for (unsigned int e = 0; e < c->req->nr_expected; e++)
		if (alternatives_have(c->req->expected[e], name))
			return true;
	return false;
}

static bool is_marker_name(const char *s)
{
	return !strncmp(s, "__cacheline_group_begin__", 25) ||
	       !strncmp(s, "__cacheline_group_end__", 23) || !strncmp(s, "__cacheline_group_pad__", 23);
}

/* Which branch of each block the binary has: the one whose members the debug info names. */
static int mark_active(struct ctx *c, struct list *l)
{
	for (unsigned int i = 0; i < l->items.nr; i++) {
		struct item *it = l->items.v[i];

		if (!it->is_block) {
			for (unsigned int d = 0; d < it->decls.nr; d++) {
				struct decl *dc = it->decls.v[d];

				if (dc->inner && mark_active(c, dc->inner))
					return -EINVAL;
			}
			continue;
		}
		for (unsigned int k = 0; k < it->nr_branches; k++) {
			struct vec names = { 0 };
			bool any = false;

			if (mark_active(c, it->branches[k].list))
				return -EINVAL;
			collect_names(c, &names, it->branches[k].list, false);
			for (unsigned int n = 0; n < names.nr && !any; n++)
				any = expected_has(c, ((struct name *)names.v[n])->s);
			if (!any)
				continue;
			if (it->active < 0) {
				it->active = k;
			} else {
				struct vec first = { 0 };

				collect_names(c, &first, it->branches[it->active].list, false);
				if (first.nr != names.nr)
					return fail(c, c->lx.toks[it->branches[k].directive].line,
						    "two branches of the #if at line %u both have members "
						    "the binary has",
						    it->line);
				it->ambiguous = true;
			}
		}
	}
	/* the top items' names were collected before the blocks knew their branch: redo */
	for (unsigned int i = 0; i < l->items.nr; i++) {
		struct item *it = l->items.v[i];

		for (unsigned int d = 0; !it->is_block && d < it->decls.nr; d++) {
			struct decl *dc = it->decls.v[d];

			if (dc->inner && (dc->anonymous || dc->kind == DECL_MACRO)) {
				struct name *keep = NULL;

				if (dc->kind == DECL_MACRO && dc->names.nr)
					keep = dc->names.v[dc->names.nr - 1];
				dc->names.nr = 0;
				collect_names(c, &dc->names, dc->inner, false);
				if (keep)
					vec__push(&c->pool, &dc->names, keep);
			}
		}
	}
	return 0;
}

static bool skip_name(struct ctx *c, const char *s)
{
	return c->kernel_groups && is_marker_name(s);
}

/* The source must declare what the binary has: refuse with both differences otherwise. */
static int check_members(struct ctx *c, const struct list *body, uint32_t line)
{
	struct vec names = { 0 };
	struct strbuf only_bin = STRBUF_INIT, only_src = STRBUF_INIT;
	int ret = 0;

	collect_names(c, &names, body, false);
	for (unsigned int e = 0; e < c->req->nr_expected; e++) {
		const char *x = c->req->expected[e];
		bool found = false;

		if (skip_name(c, x))
			continue;
		/* (a name that starts another, dev of dev_tracker, is no match) */
		for (unsigned int n = 0; n < names.nr && !found; n++)
			found = alternatives_have(x, ((struct name *)names.v[n])->s);
		if (!found)
			strbuf__addf(&only_bin, "%s%s", only_bin.len ? ", " : "", x);
	}
	for (unsigned int n = 0; n < names.nr; n++) {
		const char *s = ((struct name *)names.v[n])->s;

		if (!skip_name(c, s) && !expected_has(c, s))
			strbuf__addf(&only_src, "%s%s", only_src.len ? ", " : "", s);
	}
	if (only_bin.len || only_src.len) {
		struct strbuf why = STRBUF_INIT;

		for (unsigned int u = 0; u < c->unknown.nr; u++) {
			struct decl *d = c->unknown.v[u];

			strbuf__addf(&why, "; line %u: %.*s() may declare members lineup cannot name",
				     c->lx.toks[d->first].line,
				     (int)(c->lx.toks[d->first].end - c->lx.toks[d->first].start),
				     c->lx.text + c->lx.toks[d->first].start);
		}
		ret = fail(c, line, "%s in the source differs from the debug info: only in the binary: %s; "
				    "only in the source: %s%s",
			   c->type, only_bin.len ? only_bin.buf : "none",
			   only_src.len ? only_src.buf : "none", why.len ? why.buf : "");
		strbuf__release(&why);
	}
	strbuf__release(&only_bin);
	strbuf__release(&only_src);
	return ret;
}

/* ---- finding the definition ---- */

struct def {
	size_t first, lbrace, rbrace, semi;
	bool randomized;
	bool by_typedef; /* named by its typedef, not by a tag */
};

static size_t skip_attrs(const struct lexed *lx, size_t i, size_t lim)
{
	while (i < lim && (tok_in(lx, i, attr_words) ||
			   !strncmp(lx->text + lx->toks[i].start, "__attribute", 11) ||
			   tok_is(lx, i, "__aligned") || tok_is(lx, i, "alignas") ||
			   tok_is(lx, i, "_Alignas"))) {
		size_t n = next_code(lx, i + 1, lim);

		i = tok_punct(lx, n, '(') ? next_code(lx, match(lx, n, lim) + 1, lim) : n;
	}
	return i;
}

/* Every definition of struct @name, or of a typedef @name of a struct. */
static unsigned int find_defs(const struct lexed *lx, const char *name, struct def *defs,
			      unsigned int max)
{
	unsigned int nr = 0;
	size_t n = lx->nr;

	for (size_t i = 0; i < n && nr < max; i++) {
		size_t j, k, first = i;
		bool tdef = false;

		if (!code_tok(lx, i))
			continue;
		if (tok_is(lx, i, "typedef")) {
			tdef = true;
			j = next_code(lx, i + 1, n);
			while (j < n && (tok_is(lx, j, "const") || tok_is(lx, j, "volatile")))
				j = next_code(lx, j + 1, n);
			if (!tok_is(lx, j, "struct"))
				continue;
			i = j;
		} else if (!tok_is(lx, i, "struct")) {
			continue;
		} else {
			/* "typedef struct x {": the typedef takes it */
			size_t p = i;

			while (p > 0 && !code_tok(lx, p - 1))
				p--;
			if (p > 0 && tok_is(lx, p - 1, "typedef"))
				continue;
		}
		j = skip_attrs(lx, next_code(lx, i + 1, n), n);
		k = j;
		if (j < n && lx->toks[j].kind == TK_IDENT)
			k = skip_attrs(lx, next_code(lx, j + 1, n), n);
		if (!tok_punct(lx, k, '{'))
			continue;
		{
			struct def d = { first, k, match(lx, k, n), 0, false, false };
			bool hit = k != j && tok_is(lx, j, name);

			if (d.rbrace >= n)
				continue;
			for (d.semi = d.rbrace + 1; d.semi < n && !tok_punct(lx, d.semi, ';');
			     d.semi++) {
				if (!code_tok(lx, d.semi))
					continue;
				if (tok_is(lx, d.semi, "__randomize_layout"))
					d.randomized = true;
				if (tdef && tok_is(lx, d.semi, name) && !hit)
					hit = d.by_typedef = true;
				if (tok_punct(lx, d.semi, '('))
					d.semi = match(lx, d.semi, n);
			}
			for (size_t a = i; a < k; a++)
				d.randomized |= tok_is(lx, a, "__randomize_layout");
			if (hit && d.semi < n)
				defs[nr++] = d;
		}
	}
	return nr;
}

static int find_def(struct ctx *c, struct def *out)
{
	struct def defs[16];
	const struct lexed *lx = &c->lx;
	unsigned int nr = find_defs(lx, c->req->name, defs, 16), line = c->req->decl_line;

	if (!nr) {
		c->oc->error = -ENOENT;
		c->oc->message = xasprintf("%s: no definition of %s", c->file->path, c->type);
		return -ENOENT;
	}
	if (defs[0].by_typedef)
		c->type = c->req->name;
	for (unsigned int k = 0; k < nr; k++) {
		if (line && lx->toks[defs[k].first].line <= line &&
		    line <= lx->toks[defs[k].semi].line) {
			*out = defs[k];
			return 0;
		}
	}
	if (nr > 1) {
		struct strbuf sb = STRBUF_INIT;
		int ret;

		for (unsigned int k = 0; k < nr; k++)
			strbuf__addf(&sb, "%s%u", k ? ", " : "", lx->toks[defs[k].first].line);
		ret = fail(c, line, "%s is defined %u times (lines %s) and none contains line %u",
			   c->type, nr, sb.buf, line);
		strbuf__release(&sb);
		return ret;
	}
	if (line)
		warn(c, lx->toks[defs[0].first].line, "%s found here, not at line %u (the debug info's "
						      "decl_line): the source may not match the binary",
		     c->type, line);
	*out = defs[0];
	return 0;
}

/* ---- the new order ---- */

struct elem {
	struct item *item;
	int from, to; /* DECL_PLAIN pieces: declarators [from, to); -1 for the whole item */
	int slot;     /* its first slot, -1 for an anchored item */
	struct vec sub; /* blocks: slot indices (as intptr_t) of the active branch */
	bool align;
};

static const char *slot_name(struct ctx *c, int s, char *buf, size_t n)
{
	const char *m = c->req->slots[s].member, *bar = strchr(m, '|');

	if (!bar)
		return m;
	snprintf(buf, n, "%.*s", (int)(bar - m), m);
	return buf;
}

/* The item of @l holding member @name (and its declarator), or NULL. */
static struct item *find_item(struct ctx *c, const struct list *l, const char *name,
			      unsigned int *dcl)
{
	for (unsigned int i = 0; i < l->items.nr; i++) {
		struct item *it = l->items.v[i];
		struct vec names = { 0 };

		if (it->is_block) {
			if (it->active >= 0)
				collect_names(c, &names, it->branches[it->active].list, false);
		} else {
			for (unsigned int d = 0; d < it->decls.nr; d++) {
				struct decl *dc = it->decls.v[d];

				if (dc->kind == DECL_MARKER && c->kernel_groups)
					continue;
				for (unsigned int n = 0; n < dc->names.nr; n++)
					vec__push(&c->pool, &names, dc->names.v[n]);
			}
		}
		for (unsigned int n = 0; n < names.nr; n++) {
			struct name *nm = names.v[n];

			if (name_eq(nm->s, name)) {
				*dcl = nm->declarator;
				return it;
			}
		}
	}
	return NULL;
}

static bool item_splittable(const struct item *it)
{
	const struct decl *d;

	if (it->is_block || it->decls.nr != 1)
		return false;
	d = it->decls.v[0];
	return d->kind == DECL_PLAIN && d->nr_d > 1 && d->names.nr == d->nr_d;
}

static bool item_movable(struct ctx *c, const struct item *it)
{
	if (it->is_block)
		return it->active >= 0;
	for (unsigned int d = 0; d < it->decls.nr; d++) {
		const struct decl *dc = it->decls.v[d];

		if (dc->kind == DECL_MARKER && c->kernel_groups)
			continue;
		if (dc->names.nr)
			return true;
	}
	return false;
}

static bool item_is_marker(struct ctx *c, const struct item *it)
{
	return c->kernel_groups && !it->is_block && it->decls.nr == 1 &&
	       ((struct decl *)it->decls.v[0])->kind == DECL_MARKER;
}

static const char *item_cond(struct ctx *c, const struct item *it, char *buf, size_t n)
{
	const struct tok *t = &c->lx.toks[it->code_first];
	size_t len = t->end - t->start;
	const char *nl = memchr(c->lx.text + t->start, '\n', len);

	if (nl)
		len = nl - (c->lx.text + t->start);
	while (len && (c->lx.text[t->start + len - 1] == '\r' ||
		       c->lx.text[t->start + len - 1] == ' ' || c->lx.text[t->start + len - 1] == '\t'))
		len--;
	snprintf(buf, n, "%.*s", (int)len, c->lx.text + t->start);
	return buf;
}

/*
 * The elements of list @l in the order of slots @S (indices into the request's slots):
 * movable items at their first slot, split declarations as pieces, anchored items after the
 * member they followed.  NULL (with the outcome's error set) when the order cannot be kept.
 */
static struct vec *order_list(struct ctx *c, const struct list *l, const int *S, unsigned int nr,
			      bool top)
{
	unsigned int ni = l->items.nr;
	int *first = pool__zalloc(&c->pool, (ni + 1) * sizeof(int));
	int *last = pool__zalloc(&c->pool, (ni + 1) * sizeof(int));
	struct item **of = pool__zalloc(&c->pool, (nr + 1) * sizeof(*of));
	unsigned int *dcl = pool__zalloc(&c->pool, (nr + 1) * sizeof(*dcl));
	struct elem **head = pool__zalloc(&c->pool, (ni + 1) * sizeof(*head));
	struct vec *seq = pool__zalloc(&c->pool, sizeof(*seq)), order = { 0 };
	char buf[256], cb[256];

	for (unsigned int i = 0; i < ni; i++)
		first[i] = last[i] = -1;
	for (unsigned int p = 0; p < nr; p++) {
		const char *nm = slot_name(c, S[p], buf, sizeof(buf));
		struct item *it = find_item(c, l, nm, &dcl[p]);

		if (!it) {
			fail(c, c->oc->line, "%s (slot %d of the new order) is not a member of %s", nm,
			     S[p] + 1, c->type);
			return NULL;
		}
		of[p] = it;
		if (first[it->index] < 0)
			first[it->index] = p;
		else if (last[it->index] != (int)p - 1 && !item_splittable(it)) {
			if (it->is_block)
				fail(c, it->line, "the members under %s (lines %u-%u) move as one block, "
						  "but the new order puts %s apart from them",
				     item_cond(c, it, cb, sizeof(cb)), it->line,
				     c->lx.toks[it->endif].line, nm);
			else
				fail(c, it->line, "%s moves as one unit with the members declared with "
						  "it, but the new order puts it apart from them",
				     nm);
			return NULL;
		}
		last[it->index] = p;
	}
	for (unsigned int i = 0; i < ni; i++) {
		struct item *it = l->items.v[i];

		if (item_movable(c, it) && first[i] < 0) {
			struct vec names = { 0 };

			if (it->is_block)
				collect_names(c, &names, it->branches[it->active].list, false);
			else
				collect_names(c, &names, &(struct list){ 0, 0, { (void **)&it, 1, 1 } },
					      false);
			fail(c, it->line, "%s is not in the new order",
			     names.nr ? ((struct name *)names.v[0])->s : "a member");
			return NULL;
		}
		if (first[i] >= 0 && item_splittable(it)) {
			const struct decl *d = it->decls.v[0];

			for (unsigned int k = 0; k < d->nr_d; k++) {
				bool placed = false;

				for (unsigned int p = 0; p < nr && !placed; p++)
					placed = of[p] == it && dcl[p] == k;
				if (!placed) {
					fail(c, it->line, "%s is not in the new order",
					     ((struct name *)d->names.v[k])->s);
					return NULL;
				}
			}
		}
	}
	/* Flags inside a unit, a flexible array not last. */
	for (unsigned int p = 0; p < nr; p++) {
		struct item *it = of[p];
		int s = S[p];
		bool flagged = c->group[s] || c->new_line[s];

		if (flagged && first[it->index] != (int)p && !it->is_block && !item_splittable(it)) {
			fail(c, it->line, "a cache-line group cannot start at %s, inside the unit "
					  "declared at line %u: start it at the unit",
			     c->req->slots[s].member, it->line);
			return NULL;
		}
	}
	/* The elements, in slot order. */
	for (unsigned int p = 0; p < nr; p++) {
		struct item *it = of[p];
		struct elem *e;

		if (it->is_block) {
			if (first[it->index] != (int)p && c->kernel_groups && top && c->group[S[p]]) {
				fail(c, it->line, "the cache-line group marker at %s would be inside %s: "
						  "start or end the group at the block",
				     c->req->slots[S[p]].member, item_cond(c, it, buf, sizeof(buf)));
				return NULL;
			}
			if (first[it->index] != (int)p) {
				vec__push(&c->pool, &head[it->index]->sub, (void *)(intptr_t)S[p]);
				continue;
			}
		} else if (item_splittable(it)) {
			struct decl *d = it->decls.v[0];
			bool cont = p > 0 && of[p - 1] == it && dcl[p] == dcl[p - 1] + 1 &&
				    !c->group[S[p]] && !c->new_line[S[p]];
			struct elem *prev = order.nr ? order.v[order.nr - 1] : NULL;

			/* an aligned declarator stands alone: the attribute is for it only */
			if (cont && prev && prev->from >= 0 && c->new_line[prev->slot] &&
			    !c->kernel_groups)
				cont = false;
			if (cont && prev && prev->item == it) {
				prev->to = dcl[p] + 1;
				continue;
			}
			e = pool__zalloc(&c->pool, sizeof(*e));
			e->item = it;
			e->from = dcl[p];
			e->to = dcl[p] + 1;
			e->slot = S[p];
			vec__push(&c->pool, &order, e);
			(void)d;
			continue;
		} else if (first[it->index] != (int)p) {
			continue;
		}
		e = pool__zalloc(&c->pool, sizeof(*e));
		e->item = it;
		e->from = e->to = -1;
		e->slot = S[p];
		head[it->index] = e;
		if (it->is_block)
			vec__push(&c->pool, &e->sub, (void *)(intptr_t)S[p]);
		vec__push(&c->pool, &order, e);
	}
	/* A split declaration that came out whole and in order is the item itself. */
	for (unsigned int k = 0; k < order.nr; k++) {
		struct elem *e = order.v[k];

		if (e->from == 0 && e->to == (int)((struct decl *)e->item->decls.v[0])->nr_d) {
			e->from = e->to = -1;
			head[e->item->index] = e;
		} else if (e->from >= 0 && !head[e->item->index]) {
			if (e->from == 0)
				head[e->item->index] = e;
		}
	}
	/* Anchored items follow the member before them (randomized_struct_fields_start the one
	 * after it); existing group markers go when the kernel style writes new ones. */
	{
		struct vec *after = pool__zalloc(&c->pool, (ni + 1) * sizeof(struct vec));
		struct vec lead = { 0 };

		for (unsigned int i = 0; i < ni; i++) {
			struct item *it = l->items.v[i];
			int carrier = -1;

			if (item_movable(c, it) || (item_is_marker(c, it)))
				continue;
			if (!it->is_block && it->decls.nr == 1 &&
			    ((struct decl *)it->decls.v[0])->kind == DECL_RAND_START) {
				for (unsigned int j = i + 1; j < ni && carrier < 0; j++)
					if (item_movable(c, l->items.v[j]))
						carrier = -2 - (int)j;
			}
			for (int j = (int)i - 1; j >= 0 && carrier == -1; j--)
				if (item_movable(c, l->items.v[j]))
					carrier = j;
			if (carrier == -1) {
				vec__push(&c->pool, &lead, it);
				continue;
			}
			if (carrier <= -2) {
				/* before the next member: after whatever precedes it */
				unsigned int j = -2 - carrier;

				vec__push(&c->pool, &after[ni], it);
				((struct item *)it)->index = i;
				(void)j;
				head[i] = (struct elem *)(intptr_t)(j + 1);
				continue;
			}
			vec__push(&c->pool, &after[carrier], it);
		}
		for (unsigned int k = 0; k < lead.nr; k++) {
			struct elem *e = pool__zalloc(&c->pool, sizeof(*e));

			e->item = lead.v[k];
			e->from = e->to = e->slot = -1;
			vec__push(&c->pool, seq, e);
		}
		for (unsigned int k = 0; k < order.nr; k++) {
			struct elem *e = order.v[k];
			unsigned int idx = e->item->index;

			/* rand_start items go before the member they preceded */
			for (unsigned int r = 0; r < after[ni].nr; r++) {
				struct item *a = after[ni].v[r];

				if ((intptr_t)head[a->index] == (intptr_t)idx + 1 &&
				    (e->from <= 0)) {
					struct elem *x = pool__zalloc(&c->pool, sizeof(*x));

					x->item = a;
					x->from = x->to = x->slot = -1;
					vec__push(&c->pool, seq, x);
				}
			}
			vec__push(&c->pool, seq, e);
			if (e->from > 0)
				continue;
			for (unsigned int r = 0; r < after[idx].nr; r++) {
				struct elem *x = pool__zalloc(&c->pool, sizeof(*x));

				x->item = after[idx].v[r];
				x->from = x->to = x->slot = -1;
				vec__push(&c->pool, seq, x);
			}
		}
	}
	/* The flexible array stays last. */
	for (unsigned int k = 0; top && k < seq->nr; k++) {
		struct elem *e = seq->v[k];

		for (unsigned int d = 0; !e->item->is_block && d < e->item->decls.nr; d++) {
			struct decl *dc = e->item->decls.v[d];

			for (unsigned int n = 0; n < dc->names.nr; n++) {
				struct name *nm = dc->names.v[n];
				bool last_member = true;

				if (!nm->flex || (e->from >= 0 && (nm->declarator < (unsigned)e->from ||
								    nm->declarator >= (unsigned)e->to)))
					continue;
				for (unsigned int m = k + 1; m < seq->nr; m++)
					last_member &= !item_movable(c, ((struct elem *)seq->v[m])->item);
				if (!last_member) {
					fail(c, e->item->line, "%s is a flexible array member: it must stay "
							       "last",
					     nm->s);
					return NULL;
				}
			}
		}
	}
	return seq;
}

/* ---- writing ---- */

static void add_range(struct strbuf *sb, const char *s, size_t a, size_t b)
{
	if (b > a)
		strbuf__add(sb, s + a, b - a);
}

static const char *align_attr(struct ctx *c, char *buf, size_t n)
{
	switch (c->req->style) {
	case SRCPATCH_ALIGNAS:
		snprintf(buf, n, "alignas(%u) ", c->line_size);
		break;
	case SRCPATCH_ATTR_ALIGNED:
		snprintf(buf, n, " __attribute__((aligned(%u)))", c->line_size);
		break;
	default:
		if (c->line_size == 64)
			snprintf(buf, n, " ____cacheline_aligned_in_smp");
		else
			snprintf(buf, n, " __aligned(%u)", c->line_size);
	}
	return buf;
}

/* Where an alignment goes in decl @d: before its ';' or, alignas, before its first member. */
static size_t align_at(struct ctx *c, const struct decl *d, bool before)
{
	if (!before)
		return c->lx.toks[d->last].start;
	if (d->kind == DECL_AGGREGATE && d->anonymous && d->inner && d->inner->items.nr) {
		const struct item *it = d->inner->items.v[0];
		const struct decl *f = it->is_block || !it->decls.nr ? NULL : it->decls.v[0];

		/* alignas(N) int p, q; would align q too */
		if (!f || (f->kind == DECL_PLAIN && f->nr_d > 1) ||
		    (f->kind == DECL_AGGREGATE && !f->anonymous))
			return SIZE_MAX;
		return align_at(c, f, true);
	}
	return c->lx.toks[d->first].start;
}

static void emit_list(struct ctx *c, struct strbuf *out, const struct list *l, const int *S,
		      unsigned int nr, bool top);

/* End the output's line (trailing blanks dropped) unless it is ended. */
static void newline(struct ctx *c, struct strbuf *out)
{
	while (out->len && (out->buf[out->len - 1] == ' ' || out->buf[out->len - 1] == '\t' ||
			    out->buf[out->len - 1] == '\r'))
		out->buf[--out->len] = '\0';
	/* empty: the text starts after the struct's '{' */
	if (!out->len || out->buf[out->len - 1] != '\n')
		strbuf__add(out, c->eol, strlen(c->eol));
}

static void emit_group_marker(struct ctx *c, struct strbuf *out, const char *what, const char *g,
			      bool aligned)
{
	char buf[64];

	newline(c, out);
	strbuf__addf(out, "%s__cacheline_group_%s(%s)%s;%s", c->indent, what, g,
		     aligned ? align_attr(c, buf, sizeof(buf)) : "", c->eol);
}

/* One element's text: the item's chunk, with its piece, alignment or reordered branch. */
static void emit_elem(struct ctx *c, struct strbuf *out, const struct elem *e)
{
	const char *s = c->lx.text;
	const struct item *it = e->item;
	char buf[64];

	if (it->is_block && e->sub.nr) {
		const struct branch *br = &it->branches[it->active];
		int *sub = pool__zalloc(&c->pool, e->sub.nr * sizeof(int));

		for (unsigned int k = 0; k < e->sub.nr; k++)
			sub[k] = (int)(intptr_t)e->sub.v[k];
		add_range(out, s, it->chunk_start, br->list->span_start);
		emit_list(c, out, br->list, sub, e->sub.nr, false);
		add_range(out, s, br->list->span_end, it->chunk_end);
	} else if (e->from >= 0) {
		const struct decl *d = it->decls.v[0];
		const struct tok *t = c->lx.toks;
		size_t code = t[it->code_first].start, ls = line_start(s, code);

		if (e->from == 0)
			add_range(out, s, it->chunk_start, ls > it->chunk_start ? ls : it->chunk_start);
		if (e->align && c->req->style == SRCPATCH_ALIGNAS)
			strbuf__addf(out, "%s%s", c->indent, align_attr(c, buf, sizeof(buf)));
		else
			strbuf__add(out, c->indent, strlen(c->indent));
		add_range(out, s, t[d->first].start, t[d->prefix_end].start);
		for (int k = e->from; k < e->to; k++) {
			if (k > e->from)
				strbuf__add(out, ", ", 2);
			add_range(out, s, t[k ? d->d[k].first : d->prefix_end].start,
				  t[d->d[k].last - 1].end);
		}
		if (e->align && c->req->style != SRCPATCH_ALIGNAS)
			strbuf__addf(out, "%s", align_attr(c, buf, sizeof(buf)));
		strbuf__add(out, ";", 1);
		if (e->from == 0)
			add_range(out, s, t[d->last].end, it->chunk_end);
	} else if (e->align) {
		bool before = c->req->style == SRCPATCH_ALIGNAS;
		size_t at = align_at(c, it->decls.v[0], before);
		const char *attr = align_attr(c, buf, sizeof(buf));

		if (at == SIZE_MAX) {
			/* no member to put alignas on alone: the type's GNU attribute */
			at = align_at(c, it->decls.v[0], false);
			snprintf(buf, sizeof(buf), " __attribute__((aligned(%u)))", c->line_size);
		}
		add_range(out, s, it->chunk_start, at);
		strbuf__addf(out, "%s", attr);
		add_range(out, s, at, it->chunk_end);
	} else {
		add_range(out, s, it->chunk_start, it->chunk_end);
	}
}

/* End the line and leave a blank one, unless there is one or the line ended opens the body. */
static void blank_line(struct ctx *c, struct strbuf *out)
{
	size_t n;

	newline(c, out);
	n = out->len - 1; /* the '\n' */
	if (n && out->buf[n - 1] == '\r')
		n--;
	if (n && out->buf[n - 1] != '\n' && out->buf[n - 1] != '{')
		strbuf__add(out, c->eol, strlen(c->eol));
}

static bool ends_line(const struct strbuf *out)
{
	return out->len && out->buf[out->len - 1] == '\n';
}

static bool elem_has_flex(const struct elem *e)
{
	for (unsigned int d = 0; !e->item->is_block && d < e->item->decls.nr; d++) {
		const struct decl *dc = e->item->decls.v[d];

		for (unsigned int n = 0; n < dc->names.nr; n++)
			if (((const struct name *)dc->names.v[n])->flex)
				return true;
	}
	return false;
}

/* Alignment of each element, and which ones need it. */
static int plan_alignment(struct ctx *c, struct vec *seq, bool top)
{
	for (unsigned int k = 0; k < seq->nr; k++) {
		struct elem *e = seq->v[k];
		const struct item *it = e->item;
		const struct decl *d;
		char cb[256];

		if (e->slot < 0 || !c->new_line[e->slot])
			continue;
		if (c->kernel_groups && c->group[e->slot] && c->group[e->slot][0] && top)
			continue; /* the begin marker carries it */
		if (it->is_block) {
			if (c->kernel_groups && c->group[e->slot] && c->group[e->slot][0])
				continue;
			warn(c, it->line, "the cache line starting at %s is aligned inside %s: without "
					  "it the next members lose that alignment",
			     c->req->slots[e->slot].member, item_cond(c, it, cb, sizeof(cb)));
			continue;
		}
		d = it->decls.v[0];
		if (d->kind == DECL_PLAIN && d->bitfield)
			return fail(c, it->line, "%s is a bit-field: it cannot start an aligned cache "
						 "line; start the line at the member before or after its "
						 "storage unit",
				    c->req->slots[e->slot].member);
		if (d->kind == DECL_DIRECTIVE || d->kind == DECL_RAND_START || d->kind == DECL_RAND_END)
			continue;
		if (has_alignment(&c->lx, d->first, d->last + 1, c->line_size))
			continue;
		e->align = true;
	}
	return 0;
}

/*
 * Write list @l in the order of slots @S: unchanged runs byte for byte, moved items with a
 * blank line where they had one, the kernel's group markers at the top level.
 */
static void emit_list(struct ctx *c, struct strbuf *out, const struct list *l, const int *S,
		      unsigned int nr, bool top)
{
	const char *s = c->lx.text;
	struct vec *seq = nr ? order_list(c, l, S, nr, top) : NULL;
	const struct item *prev = NULL;
	const char *open = NULL;
	bool same, *changed;
	char **text;

	if (!seq) {
		if (!c->oc->error)
			add_range(out, s, l->span_start, l->span_end);
		return;
	}
	if (plan_alignment(c, seq, top))
		return;
	/*
	 * Each element's text first: an element whose text did not change keeps its spacing.
	 * A split declaration gives more elements than items: the list is the same only with as
	 * many, each in its place (items.v[k] is read only then).
	 */
	same = seq->nr == l->items.nr;
	text = pool__zalloc(&c->pool, (seq->nr + 1) * sizeof(*text));
	changed = pool__zalloc(&c->pool, (seq->nr + 1) * sizeof(*changed));
	for (unsigned int k = 0; k < seq->nr; k++) {
		const struct elem *e = seq->v[k];
		struct strbuf sb = STRBUF_INIT;
		size_t n = e->item->chunk_end - e->item->chunk_start;

		emit_elem(c, &sb, e);
		text[k] = pool__zalloc(&c->pool, sb.len + 1);
		memcpy(text[k], sb.buf, sb.len);
		changed[k] = sb.len != n || memcmp(sb.buf, s + e->item->chunk_start, n);
		strbuf__release(&sb);
		same = same && e->item == l->items.v[k] && !changed[k] &&
		       !(top && c->kernel_groups && e->slot >= 0 && c->group[e->slot]);
	}
	if (c->oc->error)
		return;
	if (same || !l->items.nr) {
		add_range(out, s, l->span_start, l->span_end);
		return;
	}
	{
		const struct item *f = l->items.v[0];

		add_range(out, s, l->span_start, f->chunk_start);
	}
	for (unsigned int k = 0; k < seq->nr; k++) {
		const struct elem *e = seq->v[k];
		const struct item *it = e->item;
		const char *g = top && c->kernel_groups && e->slot >= 0 ? c->group[e->slot] : NULL;
		bool marker = false;

		/* a group ends before a flexible array, which stays last */
		if (open && !g && elem_has_flex(e))
			g = "";
		if (g && open) {
			emit_group_marker(c, out, "end", open, false);
			open = NULL;
			marker = true;
		}
		if (g && g[0]) {
			blank_line(c, out);
			emit_group_marker(c, out, "begin", g, c->new_line[e->slot]);
			open = g;
			marker = true;
		} else if (g) {
			blank_line(c, out);
			marker = true;
		}
		if (!marker && prev && it->index == prev->index + 1 && !changed[k] &&
		    !changed[k - 1]) {
			add_range(out, s, prev->chunk_end, it->chunk_start);
		} else if (!marker && (prev || it->index) && it->blank_before) {
			blank_line(c, out);
		} else if (!marker && (prev || it->index)) {
			newline(c, out);
		}
		if (it->chunk_start != line_start(s, it->chunk_start) && ends_line(out))
			strbuf__add(out, c->indent, strlen(c->indent));
		strbuf__add(out, text[k], strlen(text[k]));
		prev = it;
	}
	if (open)
		emit_group_marker(c, out, "end", open, false);
	{
		const struct item *la = l->items.v[l->items.nr - 1];
		size_t a = la->chunk_end;

		if (prev != la || changed[seq->nr - 1] || open) {
			newline(c, out);
			while (a < l->span_end && (s[a] == ' ' || s[a] == '\t'))
				a++;
		}
		add_range(out, s, a, l->span_end);
	}
}

/* ---- the checks and the comment ---- */

struct edit {
	size_t start, end;
	char *text;
};

struct edits {
	struct edit *e;
	size_t nr, cap;
};

/* Takes @text; NULL (a strbuf nothing was written to: no checks left) is the empty text. */
static void edits__add(struct edits *ed, size_t start, size_t end, char *text)
{
	ed->e = xgrow(ed->e, &ed->cap, ed->nr + 1, sizeof(*ed->e));
	ed->e[ed->nr++] = (struct edit){ start, end, text ? text : xstrdup("") };
}

/* The name offsetof() can take for slot @s, or NULL (a bit-field, a conditional member). */
static const char *check_name(struct ctx *c, const struct list *body, int s, char *buf, size_t n)
{
	const char *nm = slot_name(c, s, buf, n);
	unsigned int dcl;
	struct item *it = find_item(c, body, nm, &dcl);

	if (!it || it->is_block)
		return NULL;
	for (unsigned int d = 0; d < it->decls.nr; d++) {
		const struct decl *dc = it->decls.v[d];

		for (unsigned int k = 0; k < dc->names.nr; k++) {
			const struct name *x = dc->names.v[k];

			if (name_eq(x->s, nm))
				return x->bitfield || x->flex ? NULL : nm;
		}
	}
	return NULL;
}

/* Words of a check: broken after its comparison operators, each "&&" on the left part. */
static void assert_words(struct vec *w, struct pool *p, const char *part, const char *tail)
{
	static const char *const ops[] = { " >= ", " <= ", " < ", " == " };
	const char *s = part;

	for (;;) {
		const char *best = NULL;
		size_t blen = 0;
		char *word;

		for (unsigned int k = 0; k < 4; k++) {
			const char *f = strstr(s, ops[k]);

			if (f && (!best || f < best)) {
				best = f;
				blen = strlen(ops[k]);
			}
		}
		if (!best) {
			word = pool__zalloc(p, strlen(s) + strlen(tail) + 1);
			sprintf(word, "%s%s", s, tail);
			vec__push(p, w, word);
			return;
		}
		word = pool__zalloc(p, best - s + blen);
		memcpy(word, s, best - s + blen - 1);
		vec__push(p, w, word);
		s = best + blen;
	}
}

/* "static_assert(A &&\n\t      B, MSG);": parts filled into 100 columns, a part too long
 * for a line of its own broken after its comparison. */
static void add_assert(struct ctx *c, struct strbuf *sb, const char **parts, unsigned int nr,
		       const char *msg)
{
	size_t col = strlen(c->assert_kw) + 1;
	char cont[32];

	/* continuation lines line up after "static_assert(" */
	snprintf(cont, sizeof(cont), "%s\t%*s", c->eol, (int)(col > 8 ? col - 8 : 0), "");
	strbuf__addf(sb, "%s(", c->assert_kw);
	for (unsigned int k = 0; k <= nr; k++) {
		const char *tail = k + 1 < nr ? " &&" : msg ? "," : ");";
		struct vec w = { 0 };
		char *whole;

		if (k == nr && !msg)
			break;
		if (k == nr) {
			whole = pool__zalloc(&c->pool, strlen(msg) + 5);
			sprintf(whole, "\"%s\");", msg);
		} else {
			whole = pool__zalloc(&c->pool, strlen(parts[k]) + 4);
			sprintf(whole, "%s%s", parts[k], tail);
		}
		if (k && col + 1 + strlen(whole) > 100) {
			strbuf__add(sb, cont, strlen(cont));
			col = strlen(c->assert_kw) + 1;
		} else if (k) {
			strbuf__add(sb, " ", 1);
			col++;
		}
		if (col + strlen(whole) <= 100 || k == nr) {
			strbuf__add(sb, whole, strlen(whole));
			col += strlen(whole);
			continue;
		}
		assert_words(&w, &c->pool, parts[k], tail);
		for (unsigned int i = 0; i < w.nr; i++) {
			size_t len = strlen(w.v[i]);

			if (i && col + 1 + len > 100) {
				strbuf__add(sb, cont, strlen(cont));
				col = strlen(c->assert_kw) + 1;
			} else if (i) {
				strbuf__add(sb, " ", 1);
				col++;
			}
			strbuf__add(sb, w.v[i], len);
			col += len;
		}
	}
	strbuf__add(sb, c->eol, strlen(c->eol));
}

/*
 * The checks that keep the groups: per group member, that it sits between its group's first
 * member (or begin marker) and the next group's; per aligned start, its alignment.
 * @fn: CACHELINE_ASSERT_GROUP_MEMBER() lines for a function body; else static_asserts.
 */
static void make_checks(struct ctx *c, const struct list *body, struct strbuf *sb, bool fn)
{
	const struct srcpatch_request *r = c->req;
	const char *T = c->type;
	char b1[256], b2[256], b3[256];

	for (unsigned int s = 0; s < r->nr_slots; s++) {
		const char *g = c->group[s] ? c->group[s] : NULL;
		const char *m = check_name(c, body, s, b1, sizeof(b1));
		int start = s;

		if (!m)
			continue;
		while (start > 0 && !c->group[start])
			start--;
		g = c->group[start];
		if (c->new_line[s] && !c->kernel_groups) {
			char *p = xasprintf("%s(%s, %s) %% %u == 0", c->offsetof_kw, T, m,
					    c->line_size);
			char *msg = xasprintf("%s starts a cache line", m);

			add_assert(c, sb, (const char **)&p, 1, msg);
			free(p);
			free(msg);
		}
		if (!g || !g[0])
			continue;
		if (c->kernel_groups && fn) {
			strbuf__addf(sb, "\tCACHELINE_ASSERT_GROUP_MEMBER(%s, %s, %s);%s", T, g, m,
				     c->eol);
		} else if (c->kernel_groups) {
			char *p[2] = {
				xasprintf("offsetof(%s, %s) >= offsetofend(%s, __cacheline_group_begin__%s)",
					  T, m, T, g),
				xasprintf("offsetofend(%s, %s) <= offsetof(%s, __cacheline_group_end__%s)",
					  T, m, T, g),
			};

			char *msg = xasprintf("%s in cache line group %s", m, g);

			add_assert(c, sb, (const char **)p, 2, msg);
			free(p[0]);
			free(p[1]);
			free(msg);
		} else {
			/* between the group's first member and the next group's */
			const char *f = NULL, *nx = NULL;
			char *p[2] = { NULL, NULL };
			char *msg;
			unsigned int np = 0;

			for (unsigned int k = start; k < r->nr_slots && !f; k++)
				if (k == (unsigned int)start || !c->group[k])
					f = check_name(c, body, k, b2, sizeof(b2));
				else
					break;
			for (unsigned int k = s + 1; k < r->nr_slots && !nx; k++)
				if (c->group[k]) {
					nx = check_name(c, body, k, b3, sizeof(b3));
					if (!nx)
						break;
				}
			if (!f || !strcmp(f, m)) {
				if (!nx)
					continue;
			} else {
				p[np++] = xasprintf("%s(%s, %s) >= %s(%s, %s)", c->offsetof_kw, T, m,
						    c->offsetof_kw, T, f);
			}
			if (nx)
				p[np++] = xasprintf("%s(%s, %s) < %s(%s, %s)", c->offsetof_kw, T, m,
						    c->offsetof_kw, T, nx);
			msg = xasprintf("%s in cache line group %s", m, g);
			add_assert(c, sb, (const char **)p, np, msg);
			free(p[0]);
			free(p[1]);
			free(msg);
		}
	}
}

/* The layout comment: above the struct, above a kernel-doc comment that must stay adjacent;
 * a comment there whose first line is the new one's is the old version: replaced. */
static void comment_edit(struct ctx *c, const struct def *d, struct edits *ed)
{
	const struct lexed *lx = &c->lx;
	const char *s = lx->text, *txt = c->req->comment;
	size_t at = line_start(s, lx->toks[d->first].start), end = SIZE_MAX, p = d->first;
	struct strbuf sb = STRBUF_INIT;
	size_t first_len = strcspn(txt, "\n");

	/* comments directly above (no blank line between) */
	while (p > 0 && lx->toks[p - 1].kind == TK_COMMENT &&
	       lx->toks[p - 1].end_line + 1 >= lx->toks[p].line) {
		const struct tok *t = &lx->toks[p - 1];
		const char *body = s + t->start + 2;

		while (*body == '*' || *body == ' ' || *body == '\n' || *body == '\r' ||
		       *body == '\t')
			body++;
		if (!strncmp(body, txt, first_len) && first_len) {
			at = line_start(s, t->start);
			end = t->end;
			while (end < lx->len && s[end] != '\n')
				end++;
			if (end < lx->len)
				end++;
			break;
		}
		if (!strncmp(s + t->start, "/**", 3) && s[t->start + 3] != '/')
			at = line_start(s, t->start);
		p--;
	}
	if (end == SIZE_MAX)
		end = at;
	strbuf__addf(&sb, "/*%s", c->eol);
	for (const char *l = txt; *l;) {
		size_t n = strcspn(l, "\n");

		if (n)
			strbuf__addf(&sb, " * %.*s%s", (int)n, l, c->eol);
		else
			strbuf__addf(&sb, " *%s", c->eol);
		l += n + (l[n] == '\n');
	}
	strbuf__addf(&sb, " */%s", c->eol);
	edits__add(ed, at, end, sb.buf);
}

/* Static asserts after the struct, replacing the ones a previous run put there. */
static void asserts_edit(struct ctx *c, const struct def *d, const struct list *body,
			 struct edits *ed)
{
	const struct lexed *lx = &c->lx;
	const char *s = lx->text;
	struct strbuf sb = STRBUF_INIT, hdr = STRBUF_INIT;
	size_t at = lx->toks[d->semi].end, end, i = d->semi + 1;

	while (at < lx->len && s[at] != '\n')
		at++;
	if (at < lx->len)
		at++;
	end = at;
	while (i < lx->nr && lx->toks[i].kind == TK_COMMENT &&
	       lx->toks[i].line == lx->toks[d->semi].line)
		i++;
	strbuf__addf(&hdr, "/* Keep the cache-line groups of %s (see the comment above it). */",
		     c->type);
	/* the previous run's block: our comment line and the static_asserts after it */
	if (i < lx->nr && lx->toks[i].kind == TK_COMMENT &&
	    lx->toks[i].end - lx->toks[i].start == hdr.len &&
	    !memcmp(s + lx->toks[i].start, hdr.buf, hdr.len)) {
		i++;
		while (tok_is(lx, i, "static_assert") || tok_is(lx, i, "_Static_assert")) {
			size_t o = next_code(lx, i + 1, lx->nr);

			if (!tok_punct(lx, o, '('))
				break;
			i = next_code(lx, match(lx, o, lx->nr) + 1, lx->nr);
			if (!tok_punct(lx, i, ';'))
				break;
			end = lx->toks[i].end;
			i++;
		}
		while (end < lx->len && s[end] != '\n')
			end++;
		if (end < lx->len)
			end++;
	}
	make_checks(c, body, &sb, false);
	if (sb.len) {
		struct strbuf all = STRBUF_INIT;

		strbuf__addf(&all, "%s%s%s%s", c->eol, hdr.buf, c->eol, sb.buf);
		edits__add(ed, at, end == at ? at : end, all.buf);
		if (end != at) {
			/* drop the blank line before the old block with it */
			if (at < lx->len && s[at] == '\n')
				ed->e[ed->nr - 1].start = at;
		}
		if (c->req->style == SRCPATCH_ALIGNAS && !strstr(s, "<assert.h>"))
			warn(c, lx->toks[d->semi].line, "static_assert needs <assert.h> (before C23) "
							"and offsetof <stddef.h>");
	} else if (end != at) {
		edits__add(ed, at, end, xstrdup(""));
	}
	strbuf__release(&sb);
	strbuf__release(&hdr);
}

/* CACHELINE_ASSERT_GROUP_MEMBER() lines in function @fn of some file: 0, or 1 not found. */
static int check_fn_edit(struct ctx *c, const struct srcpatch_file *files, unsigned int nr_files,
			 const struct list *body, struct edits *eds, unsigned int *which)
{
	const char *fn = c->req->check_fn;

	for (unsigned int f = 0; f < nr_files; f++) {
		struct lexed lx = { 0 };
		const char *eol = c->eol;
		int found = 1;

		lex(&lx, files[f].text);
		/* the checks are lines of that file: its line ending */
		c->eol = text_eol(files[f].text);
		for (size_t i = 0; i < lx.nr && found; i++) {
			size_t o, cl, br, ins, ins_end;
			int depth = 0;
			struct strbuf sb = STRBUF_INIT;

			if (!tok_is(&lx, i, fn))
				continue;
			for (size_t k = 0; k < i; k++)
				if (code_tok(&lx, k))
					depth += tok_punct(&lx, k, '{') - tok_punct(&lx, k, '}');
			o = next_code(&lx, i + 1, lx.nr);
			if (depth || !tok_punct(&lx, o, '('))
				continue;
			cl = match(&lx, o, lx.nr);
			br = next_code(&lx, cl + 1, lx.nr);
			if (!tok_punct(&lx, br, '{'))
				continue;
			/* the old checks of this type go, the new ones where the first one was */
			ins = ins_end = SIZE_MAX;
			make_checks(c, body, &sb, true);
			for (size_t k = br + 1, end = match(&lx, br, lx.nr); k < end; k++) {
				size_t a = next_code(&lx, k + 1, end), semi, st, e;

				if (!(tok_is(&lx, k, "CACHELINE_ASSERT_GROUP_MEMBER") ||
				      tok_is(&lx, k, "CACHELINE_ASSERT_GROUP_SIZE")) ||
				    !tok_punct(&lx, a, '('))
					continue;
				semi = next_code(&lx, match(&lx, a, end) + 1, end);
				a = next_code(&lx, a + 1, end);
				st = lx.toks[a].start;
				if (!tok_punct(&lx, semi, ';') ||
				    strncmp(lx.text + st, c->type, strlen(c->type)) ||
				    is_ident_char(lx.text[st + strlen(c->type)]))
					continue;
				st = line_start(lx.text, lx.toks[k].start);
				e = lx.toks[semi].end;
				if (e + 1 < lx.len && lx.text[e] == '\r' && lx.text[e + 1] == '\n')
					e++;
				if (e < lx.len && lx.text[e] == '\n')
					e++;
				if (ins == SIZE_MAX)
					ins = st;
				else if (st != ins_end)
					edits__add(&eds[f], st, e, xstrdup(""));
				if (st == ins || st == ins_end)
					ins_end = e;
				k = semi;
			}
			if (ins == SIZE_MAX) {
				ins = ins_end = lx.toks[br].end;
				while (ins < lx.len && lx.text[ins] != '\n')
					ins++;
				if (ins < lx.len)
					ins++;
				ins_end = ins;
			}
			edits__add(&eds[f], ins, ins_end, sb.buf);
			*which = f;
			found = 0;
		}
		free(lx.toks);
		c->eol = eol;
		if (!found)
			return 0;
	}
	return 1;
}

/* ---- requests ---- */

static void ctx__init(struct ctx *c, const struct srcpatch_file *file,
		      const struct srcpatch_request *r, struct srcpatch_outcome *oc)
{
	memset(c, 0, sizeof(*c));
	c->file = file;
	c->req = r;
	c->oc = oc;
	c->kernel_groups = r->style == SRCPATCH_KERNEL_GROUPS;
	/* GNU C user space without <assert.h> and <stddef.h>: checks that need neither */
	bool gnu = r->style == SRCPATCH_ATTR_ALIGNED &&
		   !(strstr(c->file->text, "<assert.h>") && strstr(c->file->text, "<stddef.h>"));

	c->assert_kw = gnu ? "_Static_assert" : "static_assert";
	c->offsetof_kw = gnu ? "__builtin_offsetof" : "offsetof";
	c->line_size = r->line_size ? r->line_size : 64;
	lex(&c->lx, file->text);
	c->eol = text_eol(file->text);
	strcpy(c->indent, "\t");
}

static void ctx__release(struct ctx *c)
{
	free(c->lx.toks);
	pool__release(&c->pool);
}

/* Find the definition, parse its body, set the outcome's place; the body or NULL. */
static struct list *ctx__body(struct ctx *c, struct def *d)
{
	const struct lexed *lx = &c->lx;
	struct list *body;

	if (find_def(c, d))
		return NULL;
	c->type = d->by_typedef ? c->req->name : c->type;
	c->oc->line = lx->toks[d->first].line;
	c->oc->end_line = lx->toks[d->semi].line;
	c->oc->randomized |= d->randomized;
	c->pack = pack_at(lx, d->first, d->rbrace);
	body = parse_list(c, d->lbrace + 1, d->rbrace, lx->toks[d->lbrace].end,
			  lx->toks[d->rbrace].start, 0);
	if (body && body->items.nr) {
		const struct item *f = body->items.v[0];
		const char *s = lx->text + f->chunk_start;
		size_t n = strspn(s, " \t");

		if (n && n < sizeof(c->indent) && f->chunk_start == line_start(lx->text, f->chunk_start))
			snprintf(c->indent, sizeof(c->indent), "%.*s", (int)n, s);
	}
	if (body && mark_active(c, body))
		return NULL;
	return body;
}

static void type_name(struct ctx *c, char *buf, size_t n)
{
	snprintf(buf, n, "struct %s", c->req->name);
	c->type = buf;
}

static int request__run(const struct srcpatch_file *files, unsigned int nr_files,
			const struct srcpatch_request *r, struct srcpatch_outcome *oc,
			struct edits *eds)
{
	struct ctx c;
	struct def d;
	struct list *body;
	struct strbuf nb = STRBUF_INIT;
	struct edits mine = { 0 }, *fe = xcalloc(nr_files, sizeof(*fe));
	char tname[256];
	int *S, ret = 0;
	unsigned int fn_file = 0;

	ctx__init(&c, &files[r->file], r, oc);
	type_name(&c, tname, sizeof(tname));
	body = ctx__body(&c, &d);
	if (!body || check_members(&c, body, oc->line))
		goto out;
	if (oc->randomized)
		warn(&c, oc->line, "%s is randomized (__randomize_layout or "
				   "randomized_struct_fields_start): this layout holds only with "
				   "CONFIG_RANDSTRUCT off",
		     c.type);
	c.group = pool__zalloc(&c.pool, (r->nr_slots + 1) * sizeof(*c.group));
	c.new_line = pool__zalloc(&c.pool, (r->nr_slots + 1) * sizeof(*c.new_line));
	S = pool__zalloc(&c.pool, (r->nr_slots + 1) * sizeof(*S));
	for (unsigned int s = 0; s < r->nr_slots; s++)
		for (unsigned int t = 0; t < s && r->slots[s].member; t++)
			if (r->slots[t].member && !strcmp(r->slots[s].member, r->slots[t].member)) {
				fail(&c, oc->line, "%s is twice in the new order", r->slots[s].member);
				goto out;
			}
	{
		unsigned int n = 0;

		for (unsigned int s = 0; s < r->nr_slots; s++) {
			if (!r->slots[s].member || (c.kernel_groups && is_marker_name(r->slots[s].member)))
				continue;
			c.group[s] = r->slots[s].group;
			c.new_line[s] = r->slots[s].new_line;
			S[n++] = s;
		}
		/* markers named in the order are skipped: give their groups to the next slot */
		for (unsigned int s = 0; s + 1 < r->nr_slots; s++)
			if (r->slots[s].member && c.kernel_groups &&
			    is_marker_name(r->slots[s].member) && !c.group[s + 1]) {
				c.group[s + 1] = r->slots[s].group;
				c.new_line[s + 1] |= r->slots[s].new_line;
			}
		/* under #pragma pack(N) an alignment is capped at N: its check would not hold */
		for (unsigned int s = 0; s < r->nr_slots && c.pack.value &&
					 c.pack.value < c.line_size; s++)
			if (c.new_line[s]) {
				fail(&c, oc->line, "%s is declared under #pragma pack(%u) (%s:%u): an "
						   "aligned member would not start a line; lay it out "
						   "by hand or remove the packing",
				     c.type, c.pack.value, c.file->path, c.pack.line);
				goto out;
			}
		emit_list(&c, &nb, body, S, n, true);
	}
	if (oc->error)
		goto out;
	edits__add(&mine, c.lx.toks[d.lbrace].end, c.lx.toks[d.rbrace].start, nb.buf);
	nb.buf = NULL;
	if (r->comment && r->comment[0])
		comment_edit(&c, &d, &mine);
	if (c.kernel_groups && r->check_fn &&
	    !check_fn_edit(&c, files, nr_files, body, fe, &fn_file)) {
		/* the checks went into the function */
	} else {
		if (c.kernel_groups && r->check_fn)
			warn(&c, oc->line, "no function %s() in the files given: the checks are "
					   "static_asserts after the struct",
			     r->check_fn);
		asserts_edit(&c, &d, body, &mine);
	}
	for (size_t k = 0; k < mine.nr; k++)
		edits__add(&eds[r->file], mine.e[k].start, mine.e[k].end, mine.e[k].text);
	for (unsigned int f = 0; f < nr_files; f++)
		for (size_t k = 0; k < fe[f].nr; k++)
			edits__add(&eds[f], fe[f].e[k].start, fe[f].e[k].end, fe[f].e[k].text);
	mine.nr = 0;
	for (unsigned int f = 0; f < nr_files; f++)
		fe[f].nr = 0;
out:
	(void)fn_file;
	ret = oc->error;
	for (size_t k = 0; k < mine.nr; k++)
		free(mine.e[k].text);
	free(mine.e);
	for (unsigned int f = 0; f < nr_files; f++) {
		for (size_t k = 0; k < fe[f].nr; k++)
			free(fe[f].e[k].text);
		free(fe[f].e);
	}
	free(fe);
	strbuf__release(&nb);
	ctx__release(&c);
	return ret;
}

static int edit_cmp(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start ? 1 : 0;
}

int srcpatch__make(const struct srcpatch_file *files, unsigned int nr_files,
		   const struct srcpatch_request *reqs, unsigned int nr_reqs, struct srcpatch **out)
{
	struct srcpatch *sp;
	struct edits *eds;
	struct strbuf diff = STRBUF_INIT;
	bool refused = false;

	*out = NULL;
	for (unsigned int r = 0; r < nr_reqs; r++)
		if (reqs[r].file >= nr_files || !reqs[r].name)
			return -EINVAL;
	sp = xcalloc(1, sizeof(*sp));
	sp->outcomes = xcalloc(nr_reqs ? nr_reqs : 1, sizeof(*sp->outcomes));
	sp->nr_outcomes = nr_reqs;
	sp->texts = xcalloc(nr_files ? nr_files : 1, sizeof(*sp->texts));
	sp->nr_texts = nr_files;
	eds = xcalloc(nr_files ? nr_files : 1, sizeof(*eds));
	for (unsigned int r = 0; r < nr_reqs; r++) {
		size_t before[64];

		for (unsigned int f = 0; f < nr_files && f < 64; f++)
			before[f] = eds[f].nr;
		if (request__run(files, nr_files, &reqs[r], &sp->outcomes[r], eds))
			refused = true;
		/* two requests editing the same text: the later one is refused */
		for (unsigned int f = 0; f < nr_files && f < 64; f++) {
			bool clash = false;

			for (size_t k = before[f]; k < eds[f].nr && !clash; k++)
				for (size_t j = 0; j < before[f] && !clash; j++)
					clash = eds[f].e[k].start < eds[f].e[j].end &&
						eds[f].e[j].start < eds[f].e[k].end;
			if (clash) {
				struct srcpatch_outcome *oc = &sp->outcomes[r];

				for (size_t k = before[f]; k < eds[f].nr; k++)
					free(eds[f].e[k].text);
				eds[f].nr = before[f];
				oc->error = -EINVAL;
				oc->message = xasprintf("%s:%u: %s is requested twice", files[f].path,
							oc->line, reqs[r].name);
				refused = true;
			}
		}
	}
	for (unsigned int f = 0; f < nr_files; f++) {
		struct strbuf nt = STRBUF_INIT;
		const char *t = files[f].text;
		size_t at = 0;

		if (eds[f].nr)
			qsort(eds[f].e, eds[f].nr, sizeof(*eds[f].e), edit_cmp);
		for (size_t k = 0; k < eds[f].nr; k++) {
			add_range(&nt, t, at, eds[f].e[k].start);
			strbuf__add(&nt, eds[f].e[k].text, strlen(eds[f].e[k].text));
			at = eds[f].e[k].end;
			free(eds[f].e[k].text);
		}
		strbuf__add(&nt, t + at, strlen(t + at));
		free(eds[f].e);
		sp->texts[f] = nt.buf ? nt.buf : xstrdup("");
		srcpatch__diff(&diff, files[f].path, t, nt.buf);
	}
	free(eds);
	sp->diff = diff.buf ? diff.buf : xstrdup("");
	*out = sp;
	return refused ? 1 : 0;
}

static void outcome__release(struct srcpatch_outcome *oc)
{
	free(oc->message);
	for (unsigned int w = 0; w < oc->nr_warnings; w++)
		free(oc->warnings[w]);
	free(oc->warnings);
}

void srcpatch__delete(struct srcpatch *sp)
{
	if (!sp)
		return;
	for (unsigned int r = 0; r < sp->nr_outcomes; r++)
		outcome__release(&sp->outcomes[r]);
	free(sp->outcomes);
	for (unsigned int f = 0; f < sp->nr_texts; f++)
		free(sp->texts[f]);
	free(sp->texts);
	free(sp->diff);
	free(sp);
}

/* ---- scanning ---- */

static void scan_list(struct ctx *c, struct srcpatch_scan *sc, const struct list *l,
		      unsigned int *unit, unsigned int block, const char *cond, unsigned int *blocks)
{
	char cb[256];

	for (unsigned int i = 0; i < l->items.nr; i++) {
		const struct item *it = l->items.v[i];

		if (it->is_block) {
			unsigned int b = block ? block : ++*blocks;

			for (unsigned int k = 0; k < it->nr_branches; k++) {
				const char *cd = cond;
				struct item tmp = *it;

				tmp.code_first = it->branches[k].directive;
				if (!cd)
					cd = pool__zalloc(&c->pool, 256), item_cond(c, &tmp, (char *)cd, 256);
				scan_list(c, sc, it->branches[k].list, unit, b, cd, blocks);
			}
			continue;
		}
		for (unsigned int d = 0; d < it->decls.nr; d++) {
			const struct decl *dc = it->decls.v[d];

			for (unsigned int n = 0; n < dc->names.nr; n++) {
				const struct name *nm = dc->names.v[n];
				struct srcpatch_member *m;
				unsigned int u = *unit;

				if (item_splittable(it))
					u += nm->declarator;
				sc->members = xrealloc(sc->members,
						       (sc->nr_members + 1) * sizeof(*sc->members));
				m = &sc->members[sc->nr_members++];
				m->name = xstrdup(nm->s);
				m->line = it->line;
				m->unit = u;
				m->block = block;
				m->cond = cond ? xstrdup(cond) : NULL;
				m->bitfield = nm->bitfield;
			}
		}
		*unit += item_splittable(it) ? ((struct decl *)it->decls.v[0])->nr_d : 1;
		(void)cb;
	}
}

int srcpatch__scan(const struct srcpatch_file *file, const char *name, unsigned int decl_line,
		   struct srcpatch_scan **out)
{
	struct srcpatch_scan *sc = xcalloc(1, sizeof(*sc));
	struct srcpatch_request r = { .name = name, .decl_line = decl_line };
	struct ctx c;
	struct def d;
	struct list *body;
	char tname[256];
	unsigned int unit = 0, blocks = 0;

	*out = sc;
	ctx__init(&c, file, &r, &sc->outcome);
	type_name(&c, tname, sizeof(tname));
	body = ctx__body(&c, &d);
	if (body) {
		if (sc->outcome.randomized)
			warn(&c, sc->outcome.line, "%s is randomized: a layout holds only with "
						   "CONFIG_RANDSTRUCT off",
			     c.type);
		for (unsigned int u = 0; u < c.unknown.nr; u++) {
			struct decl *dc = c.unknown.v[u];
			const struct tok *t = &c.lx.toks[dc->first];

			warn(&c, t->line, "%.*s() may declare members lineup cannot name",
			     (int)(t->end - t->start), c.lx.text + t->start);
		}
		scan_list(&c, sc, body, &unit, 0, NULL, &blocks);
	}
	ctx__release(&c);
	return sc->outcome.error ? 1 : 0;
}

void srcpatch_scan__delete(struct srcpatch_scan *sc)
{
	if (!sc)
		return;
	for (unsigned int m = 0; m < sc->nr_members; m++) {
		free(sc->members[m].name);
		free(sc->members[m].cond);
	}
	free(sc->members);
	outcome__release(&sc->outcome);
	free(sc);
}
