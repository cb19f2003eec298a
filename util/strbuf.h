/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_UTIL_STRBUF_H
#define LINEUP_UTIL_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

/* A growable NUL-terminated string.  The caller owns buf and frees it with strbuf__release. */
struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
};

#define STRBUF_INIT { NULL, 0, 0 }

void strbuf__addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf__vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void strbuf__add(struct strbuf *sb, const char *s, size_t n);
void strbuf__reset(struct strbuf *sb);
void strbuf__release(struct strbuf *sb);
/* JSON-escape @s (without quotes) onto @sb. */
void strbuf__add_json(struct strbuf *sb, const char *s);
/* @s as one CSV field (RFC 4180): quoted, quotes doubled, when it holds a comma, quote or newline. */
void strbuf__add_csv(struct strbuf *sb, const char *s);
/*
 * @n bytes of @s, another program's output, safe to show on a terminal: each control character
 * but newline and tab (C0, DEL, C1 as UTF-8) and each byte of invalid UTF-8 as one '?'.  Byte
 * by byte, not whole escape sequences dropped: once its ESC is a '?', the rest of a sequence is
 * plain text, and the '?' shows that something was there.
 */
void strbuf__add_printable(struct strbuf *sb, const char *s, size_t n);

#endif
