// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The allocation side of srcpatch: the call that allocates a misaligned array rewritten to
 * return line-aligned memory (analyzer/array_align.h finds the array, the caller the call's
 * source line).  Only the text of the call changes, so the rest of the file, and any struct
 * rewrite made after it, keep their lines.
 */
#include <config.h>

#include "analyzer/srcpatch.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

/* Past a comment, string or character literal at @p (which starts one), or @p itself. */
static const char *skip_literal(const char *p)
{
	if (p[0] == '/' && p[1] == '/')
		return p + strcspn(p, "\n");
	if (p[0] == '/' && p[1] == '*') {
		const char *e = strstr(p + 2, "*/");

		return e ? e + 2 : p + strlen(p);
	}
	if (*p == '"' || *p == '\'') {
		char q = *p++;

		while (*p && *p != q && *p != '\n')
			p += p[0] == '\\' && p[1] ? 2 : 1;
		return *p == q ? p + 1 : p;
	}
	return p;
}

/* The ')' that closes the '(' at @open, or NULL. */
static const char *closing_paren(const char *open)
{
	int depth = 0;

	for (const char *p = open; *p;) {
		const char *q = skip_literal(p);

		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '(')
			depth++;
		else if (*p == ')' && --depth == 0)
			return p;
		p++;
	}
	return NULL;
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* An operator binding looser than '+' outside parentheses: the size needs parentheses. */
static bool needs_parens(const char *s, size_t n)
{
	int depth = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '(' || s[i] == '[')
			depth++;
		else if (s[i] == ')' || s[i] == ']')
			depth--;
		else if (!depth && strchr("<>=&^|?:,!", s[i]))
			return true;
	}
	return false;
}

static const char *const allocators[] = {
	"malloc", "calloc", "realloc", "reallocarray", "aligned_alloc", "posix_memalign",
	"memalign", "valloc", "pvalloc", "strdup", "kmalloc", "kzalloc", "kcalloc",
};

char *srcpatch__align_alloc(const struct srcpatch_file *file, unsigned int line,
			    unsigned int align, char *err, size_t errlen)
{
	const char *p = file->text, *end, *call = NULL, *name = NULL;
	unsigned int n = 1;
	int found = 0;

	while (n < line && *p)
		n += *p++ == '\n';
	if (n != line || !*p) {
		snprintf(err, errlen, "%s:%u: no such line (the file has %u)", file->path, line, n);
		return NULL;
	}
	end = p + strcspn(p, "\n");
	/* the allocating calls that start on the line */
	for (const char *q = p; q < end;) {
		const char *r = skip_literal(q);

		if (r != q) {
			q = r;
			continue;
		}
		if (!ident_char(*q) || (q > file->text && ident_char(q[-1]))) {
			q++;
			continue;
		}
		size_t len = 0;

		while (ident_char(q[len]))
			len++;
		for (size_t i = 0; i < sizeof(allocators) / sizeof(allocators[0]); i++) {
			const char *a = allocators[i], *o = q + len;

			if (strlen(a) != len || strncmp(q, a, len))
				continue;
			while (*o == ' ' || *o == '\t')
				o++;
			if (*o != '(')
				continue;
			found++;
			name = a;
			call = q;
		}
		q += len;
	}
	if (found != 1) {
		snprintf(err, errlen, "%s:%u: %s", file->path, line,
			 found ? "more than one allocating call on the line: align the array's "
				 "by hand" : "no allocating call found on the line");
		return NULL;
	}
	if (strcmp(name, "malloc")) {
		snprintf(err, errlen, "%s:%u: %s() is not rewritten (only malloc, whose size is one "
			 "expression): use aligned_alloc(%u, ...)%s by hand", file->path, line, name,
			 align, !strcmp(name, "calloc") ? " and memset" : "");
		return NULL;
	}
	const char *open = strchr(call, '('), *close = closing_paren(open);

	if (!close) {
		snprintf(err, errlen, "%s:%u: malloc's argument has no closing parenthesis",
			 file->path, line);
		return NULL;
	}
	const char *arg = open + 1;
	size_t arg_len = (size_t)(close - arg);

	while (arg_len && isspace((unsigned char)*arg))
		arg++, arg_len--;
	while (arg_len && isspace((unsigned char)arg[arg_len - 1]))
		arg_len--;
	if (!arg_len) {
		snprintf(err, errlen, "%s:%u: malloc() without a size", file->path, line);
		return NULL;
	}
	bool paren = needs_parens(arg, arg_len);
	struct strbuf sb = STRBUF_INIT;

	/* C11 wants aligned_alloc's size a multiple of the alignment: rounded up here */
	strbuf__add(&sb, file->text, (size_t)(call - file->text));
	strbuf__addf(&sb, "aligned_alloc(%u, (%s%.*s%s + %u) & ~(size_t)%u)", align,
		     paren ? "(" : "", (int)arg_len, arg, paren ? ")" : "", align - 1, align - 1);
	strbuf__add(&sb, close + 1, strlen(close + 1));
	return sb.buf;
}
