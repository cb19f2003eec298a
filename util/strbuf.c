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

/* The length of the UTF-8 sequence at @s (at most @n bytes) if it is a valid one and not a C1
 * control (U+0080..U+009F, which terminals obey as ESC-sequences), else 0. */
static size_t printable_utf8(const unsigned char *s, size_t n)
{
	static const unsigned int least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	unsigned int cp = s[0] & (0x7f >> len);

	if (s[0] < 0xc2 || s[0] > 0xf4 || len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < least[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || cp <= 0x9f)
		return 0;
	return len;
}

void strbuf__add_printable(struct strbuf *sb, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len;

	for (size_t i = 0; i < n; i += len) {
		len = u[i] >= 0x80 ? printable_utf8(u + i, n - i) : 0;
		if (len) {
			strbuf__add(sb, s + i, len);
			continue;
		}
		len = 1;
		if (u[i] == '\n' || u[i] == '\t' || (u[i] >= 0x20 && u[i] < 0x7f))
			strbuf__add(sb, s + i, 1);
		else
			strbuf__add(sb, "?", 1);
	}
}
