// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The suggester meets the layout model (see suggest_layout.h).
 */
#include <config.h>

#include "analyzer/suggest_layout.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/layout.h"
#include "analyzer/srcpatch.h"
#include "util/arena.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The names C code reaches inside an anonymous member, '|'-joined, onto @sb. */
static void inner_names(const struct layout_type *t, struct strbuf *sb)
{
	for (uint32_t i = 0; t && i < t->nr_members; i++) {
		const struct layout_member *m = &t->members[i];

		if (m->name) {
			strbuf__addf(sb, "%s%s", sb->len ? "|" : "", m->name);
		} else if (m->type) {
			inner_names(m->type, sb);
		}
	}
}

static uint32_t member_align(const struct layout_type *t, const struct layout_member *m)
{
	uint32_t a = m->type_align ? m->type_align : m->natural_align;

	if (t->packed)
		a = 1;
	if (m->forced_align > a)
		a = m->forced_align;
	return a ? a : 1;
}

/* The bytes a member really occupies: a bit-field's bits, not its whole storage unit (gcc
 * puts `char c; unsigned a:3;` in one int: a's bits are byte 1, beside c). */
static void member_bytes(const struct layout_member *m, uint64_t *start, uint64_t *end)
{
	if (!m->bit_size) {
		*start = m->offset;
		*end = m->offset + m->size;
		return;
	}
	*start = m->offset + m->bit_offset / 8;
	*end = m->offset + (m->bit_offset + m->bit_size - 1) / 8 + 1;
}

static bool pinned(const char *name, const char *const *pins, unsigned int nr_pins, bool *used)
{
	for (unsigned int i = 0; i < nr_pins; i++) {
		const char *p = pins[i];
		size_t n = strlen(p);

		/* the unit's name, or one of an anonymous unit's '|'-joined names */
		for (const char *s = name; s; s = strchr(s, '|') ? strchr(s, '|') + 1 : NULL)
			if (!strncmp(s, p, n) && (s[n] == '\0' || s[n] == '|')) {
				used[i] = true;
				return true;
			}
	}
	return false;
}

int suggest_plan__init(struct suggest_plan *p, const struct layout_type *t,
		       const char *const *pins, unsigned int nr_pins, char *err, size_t errlen)
{
	bool *used = xcalloc(nr_pins + 1, sizeof(*used));
	int rc = 0;

	memset(p, 0, sizeof(*p));
	p->type = t;
	if (t->kind == LAYOUT_UNION) {
		snprintf(err, errlen, "union %s: its members share their bytes, there is no order "
			 "to suggest", t->name ? t->name : "(anonymous)");
		free(used);
		return -EINVAL;
	}
	p->units = xcalloc(t->nr_members + 1, sizeof(*p->units));
	p->first = xcalloc(t->nr_members + 1, sizeof(*p->first));
	p->count = xcalloc(t->nr_members + 1, sizeof(*p->count));
	p->unit_of = xcalloc(t->nr_members + 1, sizeof(*p->unit_of));
	p->names = xcalloc(t->nr_members + 1, sizeof(*p->names));
	for (uint32_t i = 0; i < t->nr_members; i++) {
		const struct layout_member *m = &t->members[i];
		struct suggest_unit *u;
		bool same_bits = i && m->bit_size && m->bit_unit &&
				 t->members[i - 1].bit_unit == m->bit_unit;

		uint64_t start, end;

		member_bytes(m, &start, &end);
		if (same_bits) {
			u = &p->units[p->nr_units - 1];
			p->count[p->nr_units - 1]++;
			if (start < u->offset) {
				u->size += u->offset - start;
				u->offset = start;
			}
			if (end > u->offset + u->size)
				u->size = end - u->offset;
			if (member_align(t, m) > u->align)
				u->align = member_align(t, m);
			u->elem_size = u->size;
			p->unit_of[i] = p->nr_units - 1;
			continue;
		}
		u = &p->units[p->nr_units];
		p->first[p->nr_units] = i;
		p->count[p->nr_units] = 1;
		p->unit_of[i] = p->nr_units;
		if (m->name) {
			p->names[p->nr_units] = xstrdup(m->name);
		} else {
			struct strbuf sb = { 0 };

			inner_names(m->type, &sb);
			p->names[p->nr_units] = xstrdup(sb.len ? sb.buf : "<anonymous>");
			strbuf__release(&sb);
		}
		u->name = p->names[p->nr_units];
		u->offset = start;
		u->size = end - start;
		u->align = member_align(t, m);
		u->forced_align = m->forced_align;
		u->nr_elems = m->bit_size ? 1 : m->nr_elems;
		u->elem_size = m->bit_size ? u->size : m->elem_size;
		u->flex = !m->bit_size && !m->nr_elems && !m->size && i + 1 == t->nr_members &&
			  m->decl_suffix && strchr(m->decl_suffix, '[');
		u->pinned = pinned(u->name, pins, nr_pins, used);
		p->nr_units++;
	}
	for (unsigned int i = 0; i < nr_pins; i++) {
		if (used[i])
			continue;
		struct strbuf sb = { 0 };

		for (unsigned int k = 0; k < p->nr_units && k < 12; k++)
			strbuf__addf(&sb, "%s%s", k ? ", " : "", p->names[k]);
		snprintf(err, errlen, "--pin %s: %s %s has no member of that name (it has %s%s)",
			 pins[i], layout_kind__name(t->kind), t->name ? t->name : "(anonymous)",
			 sb.buf ? sb.buf : "none", p->nr_units > 12 ? ", ..." : "");
		strbuf__release(&sb);
		rc = -ENOENT;
		break;
	}
	free(used);
	if (rc)
		suggest_plan__release(p);
	return rc;
}

void suggest_plan__release(struct suggest_plan *p)
{
	for (unsigned int i = 0; p->names && i < p->nr_units; i++)
		free(p->names[i]);
	free(p->names);
	free(p->units);
	free(p->first);
	free(p->count);
	free(p->unit_of);
	memset(p, 0, sizeof(*p));
}

int suggest_plan__build(const struct suggest_plan *p, const struct suggest_result *r,
			struct arena *arena, struct layout_type **out, uint64_t *offsets,
			char *err, size_t errlen)
{
	const struct layout_type *t = p->type;
	struct layout_member *mem = arena__zalloc(arena, (t->nr_members + 1) * sizeof(*mem));
	unsigned int *at = xcalloc(p->nr_units + 1, sizeof(*at));
	uint32_t n = 0;
	int rc;

	for (unsigned int k = 0; k < r->nr_units; k++) {
		unsigned int u = r->order[k];

		at[u] = n;
		for (unsigned int j = 0; j < p->count[u]; j++) {
			mem[n] = t->members[p->first[u] + j];
			if (!j && r->align_attr[u] > mem[n].forced_align)
				mem[n].forced_align = r->align_attr[u];
			n++;
		}
	}
	struct layout_spec spec = {
		.kind = t->kind, .name = t->name, .typedef_name = t->typedef_name, .members = mem,
		.nr_members = n, .packed = t->packed, .forced_align = t->forced_align,
		.decl_file = t->decl_file, .decl_line = t->decl_line,
	};

	rc = layout__build(arena, &spec, out, err, errlen);
	if (!rc && offsets)
		for (unsigned int u = 0; u < p->nr_units; u++) {
			uint64_t start = UINT64_MAX, s1, e1;

			for (unsigned int j = 0; j < p->count[u]; j++) {
				member_bytes(&(*out)->members[at[u] + j], &s1, &e1);
				if (s1 < start)
					start = s1;
			}
			offsets[u] = start;
		}
	free(at);
	return rc;
}

void suggest_plan__slots(const struct suggest_plan *p, const struct suggest_result *r,
			 struct srcpatch_slot **slots, unsigned int *nr_slots,
			 const char ***expected, unsigned int *nr_expected)
{
	const struct layout_type *t = p->type;
	struct srcpatch_slot *s = xcalloc(t->nr_members + 1, sizeof(*s));
	const char **e = xcalloc(t->nr_members + 1, sizeof(*e));
	unsigned int ns = 0, ne = 0;
	int prev_group = -1;

	for (unsigned int k = 0; k < r->nr_units; k++) {
		unsigned int u = r->order[k];
		int g = r->profiles[u].group;
		const char *group = NULL;

		if (g >= 0 && r->groups[g].first == k)
			group = r->groups[g].name;
		else if (g < 0 && prev_group >= 0)
			group = "";	/* a cold member after a group: the group ends */
		prev_group = g;
		for (unsigned int j = 0; j < p->count[u]; j++) {
			const struct layout_member *m = &t->members[p->first[u] + j];

			s[ns].member = m->name ? m->name : p->names[u];
			if (!j) {
				s[ns].group = group;
				s[ns].new_line = r->align_attr[u] != 0 ||
						 (group && *group && k && r->groups[g].aligned);
			}
			ns++;
		}
	}
	for (unsigned int u = 0; u < p->nr_units; u++)
		for (unsigned int j = 0; j < p->count[u]; j++) {
			const struct layout_member *m = &t->members[p->first[u] + j];

			e[ne++] = m->name ? m->name : p->names[u];
		}
	*slots = s;
	*nr_slots = ns;
	*expected = e;
	*nr_expected = ne;
}

/*
 * The unit of member @m of the printed layout (depth 0 only), or -1; *@first: @m is the unit's
 * first member (a bit-field unit's figures are printed once).
 */
static int printed_unit(const struct suggest_print_ctx *c, const struct layout_member *m,
			bool *first)
{
	const struct layout_type *t = c->printed;

	if (m < t->members || m >= t->members + t->nr_members)
		return -1;
	size_t i = (size_t)(m - t->members);

	if (!c->after) {
		unsigned int u = c->plan->unit_of[i];

		*first = c->plan->first[u] == i;
		return (int)u;
	}
	/* the built layout holds the units in the result's order, their members in theirs */
	for (unsigned int k = 0; k < c->res->nr_units; k++) {
		unsigned int u = c->res->order[k];

		if (i < c->plan->count[u]) {
			*first = i == 0;
			return (int)u;
		}
		i -= c->plan->count[u];
	}
	return -1;
}

static void annotate_member(void *ctx, const struct layout_member *m, uint64_t offset, int depth,
			    struct strbuf *out)
{
	const struct suggest_print_ctx *c = ctx;
	bool first = false;
	int u = depth ? -1 : printed_unit(c, m, &first);

	(void)offset;
	if (u < 0 || !first)
		return;
	const struct suggest_profile *p = &c->res->profiles[u];

	if (p->use == SUGGEST_COLD) {
		strbuf__addf(out, " cold");
		return;
	}
	strbuf__addf(out, " %s", p->group >= 0 ? c->res->groups[p->group].name :
						 suggest_use__name(p->use));
	strbuf__addf(out, " L:%" PRIu64 " S:%" PRIu64, p->loads, p->stores);
	if (p->hitm)
		strbuf__addf(out, " HITM:%" PRIu64, p->hitm);
	if (p->writers.nr)
		strbuf__addf(out, " W:%" PRIu32 "thr", p->writers.nr);
}

static void annotate_line(void *ctx, uint32_t line, uint64_t offset, struct strbuf *out)
{
	const struct suggest_print_ctx *c = ctx;
	const struct suggest_prediction *pr = c->after ? &c->res->after : &c->res->before;

	(void)line;
	for (unsigned int i = 0; i < pr->nr_lines; i++) {
		if (pr->lines[i].offset != offset)
			continue;
		if (c->after)
			strbuf__addf(out, " predicted: %" PRIu64 " transfers", pr->lines[i].transfers);
		else
			strbuf__addf(out, " measured: %" PRIu64 " HITM, modeled %" PRIu64
					  " transfers", pr->lines[i].hitm_measured,
				     pr->lines[i].transfers);
	}
}

void suggest_plan__annotate(struct suggest_print_ctx *ctx, struct layout_annotate *out)
{
	memset(out, 0, sizeof(*out));
	out->member = annotate_member;
	out->cacheline = annotate_line;
	out->ctx = ctx;
}
