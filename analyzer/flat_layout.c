// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "analyzer/flat_layout.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static bool member_contains(const struct flat_member *m, uint64_t offset)
{
	return offset >= m->offset && offset - m->offset < (m->size ? m->size : 1);
}

int flat_layout__member_at(const struct flat_layout *l, uint64_t offset)
{
	int best = -1;

	if (!l || offset >= l->size)
		return -1;
	for (unsigned int i = 0; i < l->nr_members; i++) {
		const struct flat_member *m = &l->members[i];

		if (m->offset > offset)
			break;
		/* Deeper wins; at equal depth the first (bitfields sharing a unit) wins. */
		if (member_contains(m, offset) && (best < 0 || m->depth > l->members[best].depth))
			best = (int)i;
	}
	return best;
}

int flat_layout__name_at(const struct flat_layout *l, uint64_t offset, char *buf, size_t n)
{
	int i = flat_layout__member_at(l, offset);
	const struct flat_member *m;

	if (!n)
		return i;
	if (i < 0) {
		uint64_t end = 0;

		if (!l || offset >= l->size) {
			snprintf(buf, n, "<beyond+%llu>", (unsigned long long)offset);
			return i;
		}
		for (unsigned int k = 0; k < l->nr_members; k++)
			if (l->members[k].offset + l->members[k].size > end)
				end = l->members[k].offset + l->members[k].size;
		if (offset >= end)
			snprintf(buf, n, "<padding+%llu>", (unsigned long long)(offset - end));
		else
			snprintf(buf, n, "<hole+%llu>", (unsigned long long)offset);
		return i;
	}
	m = &l->members[i];
	if (m->elem_size && m->size > m->elem_size)
		snprintf(buf, n, "%s[%llu]", m->path,
			 (unsigned long long)((offset - m->offset) / m->elem_size));
	else
		snprintf(buf, n, "%s", m->path);
	return i;
}

/* Skip qualifiers and blanks so "const struct file_operations *" matches its DWARF name. */
static const char *skip_noise(const char *s)
{
	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!strncmp(s, "const ", 6))
			s += 6;
		else if (!strncmp(s, "volatile ", 9))
			s += 9;
		else
			return s;
	}
}

int flat_layout__same_type(const char *a, const char *b)
{
	if (!a || !b)
		return 0;
	for (;;) {
		a = skip_noise(a);
		b = skip_noise(b);
		if (!*a || !*b)
			return !*a && !*b;
		if (*a != *b)
			return 0;
		a++;
		b++;
	}
}

int flat_layout__find_type_at(const struct flat_layout *l, uint64_t offset, const char *type)
{
	if (!l)
		return -1;
	if (offset == 0 && flat_layout__same_type(l->name, type))
		return FLAT_SELF;
	for (unsigned int i = 0; i < l->nr_members; i++) {
		const struct flat_member *m = &l->members[i];

		if (m->offset > offset)
			break;
		if (m->offset == offset && flat_layout__same_type(m->type, type))
			return (int)i;
	}
	return -1;
}
