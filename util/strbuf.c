// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "util/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static void strbuf__grow(struct strbuf *sb, size_t extra)
{
	sb->buf = xgrow(sb->buf, &sb->cap, sb->len + extra + 1, 1);
}

void strbuf__add(struct strbuf *sb, const char *s, size_t n)
{
	strbuf__grow(sb, n);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf__vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	size_t room = sb->cap > sb->len ? sb->cap - sb->len : 0;
	va_list aq;
	int n;

	/* into the room there is first: most pieces fit, and are formatted once */
	va_copy(aq, ap);
	n = vsnprintf(room ? sb->buf + sb->len : NULL, room, fmt, aq);
	va_end(aq);
	if (n < 0) {
		if (sb->buf)
			sb->buf[sb->len] = '\0';
		return;
	}
	if ((size_t)n >= room) {
		strbuf__grow(sb, n);
		vsnprintf(sb->buf + sb->len, n + 1, fmt, ap);
	}
	sb->len += n;
}

void strbuf__addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf__vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf__reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void strbuf__release(struct strbuf *sb)
{
	zfree(&sb->buf);
	sb->len = sb->cap = 0;
}

void strbuf__add_json(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			strbuf__addf(sb, "\\%c", c);
		else if (c < 0x20)
			strbuf__addf(sb, "\\u%04x", c);
		else
			strbuf__add(sb, (const char *)&c, 1);
	}
}

void strbuf__add_csv(struct strbuf *sb, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		strbuf__add(sb, s, strlen(s));
		return;
	}
	strbuf__add(sb, "\"", 1);
	for (; *s; s++) {
		if (*s == '"')
			strbuf__add(sb, "\"", 1);
		strbuf__add(sb, s, 1);
	}
	strbuf__add(sb, "\"", 1);
}
