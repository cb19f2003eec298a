// SPDX-License-Identifier: GPL-2.0-or-later
/* kallsyms' lines (ksym.h). */
#include <config.h>

#include "util/ksym.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static char *skip_blanks(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* The next blank-separated word of *@s, NUL-terminated in place; NULL when there is none. */
static char *next_word(char **s)
{
	char *w = skip_blanks(*s), *e = w;

	if (!*w || *w == '\n')
		return NULL;
	while (*e && *e != ' ' && *e != '\t' && *e != '\n')
		e++;
	*s = *e ? e + 1 : e;
	*e = 0;
	return w;
}

int ksym__parse(char *line, struct ksym *out)
{
	char *p = line, *addr = next_word(&p), *type = next_word(&p), *name = next_word(&p);
	char *mod, *end;

	if (!addr || !type || !name || type[1])
		return -1;
	errno = 0;
	out->addr = strtoull(addr, &end, 16);
	if (*end || errno)
		return -1;
	out->type = type[0];
	out->name = name;
	out->module = NULL;
	mod = next_word(&p);
	if (mod && mod[0] == '[') {
		size_t n = strlen(mod);

		if (n > 2 && mod[n - 1] == ']') {
			mod[n - 1] = 0;
			out->module = mod + 1;
		}
	}
	return 0;
}

int ksym__for_each_in(FILE *f, int (*fn)(const struct ksym *sym, void *arg), void *arg)
{
	char line[1024];
	int rc = 0;

	while (!rc && fgets(line, sizeof(line), f)) {
		struct ksym s;

		if (!strchr(line, '\n') && !feof(f)) {
			int c;

			/* A line longer than any symbol name: skip the rest of it. */
			while ((c = getc(f)) != EOF && c != '\n')
				;
			continue;
		}
		if (ksym__parse(line, &s) == 0)
			rc = fn(&s, arg);
	}
	return rc;
}

int ksym__for_each_text(const char *text, size_t len,
			int (*fn)(const struct ksym *sym, void *arg), void *arg)
{
	const char *p = text, *end = text + len;
	int rc = 0;

	while (!rc && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = (size_t)((nl ? nl : end) - p);
		char line[1024];
		struct ksym s;

		if (ll < sizeof(line)) {	/* longer: no symbol line */
			memcpy(line, p, ll);
			line[ll] = '\0';
			if (ksym__parse(line, &s) == 0)
				rc = fn(&s, arg);
		}
		p += ll + 1;
	}
	return rc;
}
