// SPDX-License-Identifier: GPL-2.0-or-later
/* Which lines and structs a fields report shows (fields_view.h). */
#include <config.h>

#include "analyzer/fields_view.h"

#include <string.h>

#include "analyzer/flat_layout.h"

static bool is_asked(const struct fields_view *v, const char *name)
{
	return flat_layout__same_type(name, v->only_struct) ||
	       !strcmp(type_name__strip_tag(name), type_name__strip_tag(v->only_struct));
}

bool fields_view__struct_selected(const struct fields_view *v, const struct field_struct *fs)
{
	return !v->only_struct || is_asked(v, fs->layout->name);
}

bool fields_view__line_selected(const struct fields_view *v, const struct field_line *l)
{
	if (!v->only_struct)
		return true;
	for (size_t i = 0; i < l->nr_slots; i++)
		if (l->slots[i].layout && is_asked(v, l->slots[i].layout->name))
			return true;
	return false;
}

static bool has_line_addr(const struct align_finding *af, uint64_t addr)
{
	for (size_t i = 0; i < af->nr_lines; i++)
		if (af->lines[i] == addr)
			return true;
	return false;
}

bool fields_view__align_selected(const struct fields_view *v, const struct align_finding *af)
{
	if (!v->only_struct)
		return true;
	for (size_t i = 0; i < v->f->nr_lines; i++)
		if (has_line_addr(af, v->f->lines[i].addr) &&
		    fields_view__line_selected(v, &v->f->lines[i]))
			return true;
	return false;
}

bool fields_view__align_hides(const struct fields_view *v, uint64_t addr)
{
	const struct align_finding *af = array_align__of_line(v->align, addr);

	return af && af->causes & (ALIGN_BASE | ALIGN_INTERLEAVED);
}

bool fields_view__line_shown(const struct fields_view *v, const struct field_line *l)
{
	return field_line__listed(v->f, l, v->min_share) && fields_view__line_selected(v, l);
}

void fields_view__result(const struct fields_view *v, struct fields_view_result *r)
{
	const struct fields *f = v->f;
	uint64_t resolved = 0;

	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < v->align->nr_findings; i++)
		r->arrays += fields_view__align_selected(v, &v->align->findings[i]);
	for (size_t i = 0; i < f->nr_lines; i++) {
		const struct field_line *l = &f->lines[i];

		if (l->verdict == LINE_QUIET || !fields_view__line_selected(v, l) ||
		    fields_view__align_hides(v, l->addr))
			continue;
		if (fields_view__line_shown(v, l)) {
			r->listed++;
			r->by_verdict[l->verdict]++;
		} else {
			r->below++;
			r->below_hitm += field_stats__hitm(&l->st);
		}
	}
	for (int k = ATTR_NONE + 1; k < ATTR__NR; k++)
		resolved += f->attr_all.by_kind_weight[k];
	r->attribution = !resolved ? "none" :
			 resolved == f->attr_all.weight ? "complete" : "partial";
}

uint64_t line_slot__size(const struct line_slot *s)
{
	const struct flat_member *m;

	if (!s->layout || s->member < 0)
		return 1;
	m = &s->layout->members[s->member];
	return m->elem_size ? m->elem_size : m->size ? m->size : 1;
}
