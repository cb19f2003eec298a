// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `lineup fields --tui`: the structs, each struct's member table (analyzer/fields_table.h, the
 * table --stdio, --json and --csv print) and its layout as a heat map: pahole's text from the
 * layout model's printer (analyzer/layout.h), each member's HITMs (or writes, when the struct
 * has no HITM) added through the printer's annotation hook, coloured and marked by its share,
 * each cache-line boundary with the verdict of that line.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/fields.h"
#include "analyzer/fields_table.h"
#include "analyzer/flat_layout.h"
#include "analyzer/layout.h"
#include "tui/browser.h"
#include "tui/screen.h"
#include "tui/tui.h"
#include "tui/views.h"
#include "util/xalloc.h"

struct fields_browser {
	const struct tui_fields *tf;
	struct fields_table ft;		/* the shown struct's rows (filled again for another) */
	const struct field_struct *fs;	/* the struct ft holds */
};

/* A heat map view's own: its struct, its measure, what Enter does. */
struct heat_view {
	const struct fields *f;
	const struct field_struct *fs;
	bool by_writes;			/* the measure: writes, not HITMs */
	void (*enter)(void *ctx, struct browser *b, const struct field_struct *fs);
	void *ctx;
};

/* The heat map's gutter: the heat as marks too, so that it reads without colour. */
static const char *const heat_mark[] = { "    ", "#   ", "##  ", "### " };
static const int heat_attr[] = { SA_NORMAL, SA_COOL, SA_WARM, SA_HOT };

/* The member's share of the struct's HITMs (or writes): 0 (none) .. 3 (a quarter or more). */
static int heat_of(uint64_t v, uint64_t total)
{
	if (!v || !total)
		return 0;
	if (v * 4 >= total)
		return 3;
	if (v * 20 >= total)
		return 2;
	return 1;
}

struct heat_ctx {
	const struct field_struct *fs;
	const struct fields *f;
	bool by_hitm;			/* else by writes */
	uint64_t total;
	size_t scanned, line;		/* newlines counted in the output so far */
	int *heat;			/* per output line, -1: none */
	size_t nr_heat, cap_heat;
};

static size_t line_of(struct heat_ctx *h, const struct strbuf *out)
{
	for (; h->scanned < out->len; h->scanned++)
		if (out->buf[h->scanned] == '\n')
			h->line++;
	return h->line;
}

static void set_heat(struct heat_ctx *h, size_t line, int heat)
{
	while (h->nr_heat <= line) {
		h->heat = xgrow(h->heat, &h->cap_heat, h->nr_heat + 1, sizeof(*h->heat));
		h->heat[h->nr_heat++] = -1;
	}
	h->heat[line] = heat;
}

static void annotate_member(void *ctx, const struct layout_member *m, uint64_t offset, int depth,
			    struct strbuf *out)
{
	struct heat_ctx *h = ctx;
	const struct flat_layout *fl = h->fs->layout;
	const struct field_stats *st = NULL;
	uint64_t v;

	for (unsigned int i = 0; i < fl->nr_members && !st; i++)
		if (fl->members[i].member == m && fl->members[i].offset == offset)
			st = &h->fs->members[i];
	if (!st)
		return;
	v = h->by_hitm ? field_stats__hitm(st) : st->writes;
	set_heat(h, line_of(h, out), heat_of(v, h->total));
	if (st->loads || st->stores)
		strbuf__addf(out, "  HITM %" PRIu64 " ld %" PRIu64 " st %" PRIu64,
			     field_stats__hitm(st), st->loads, st->stores);
}

/* The verdict of the struct's line @k: the hottest contended data line holding its members. */
static enum line_verdict struct_line_verdict(const struct fields *f, const struct field_struct *fs,
					     uint64_t k)
{
	for (size_t i = 0; i < f->nr_lines; i++) {
		const struct field_line *l = &f->lines[i];

		if (l->verdict == LINE_QUIET)
			continue;
		for (size_t s = 0; s < l->nr_slots; s++) {
			const struct line_slot *sl = &l->slots[s];

			if (sl->layout == fs->layout && sl->member >= 0 &&
			    fs->layout->members[sl->member].offset / f->line_size == k)
				return l->verdict;
		}
	}
	return LINE_QUIET;
}

static void annotate_line(void *ctx, uint32_t line, uint64_t offset, struct strbuf *out)
{
	struct heat_ctx *h = ctx;

	set_heat(h, line_of(h, out), -2);
	strbuf__addf(out, "  <- line %u: %s", line,
		     line_verdict__name(struct_line_verdict(h->f, h->fs, line)));
}

/* The struct's layout into text view @v (emptied first), the cursor at @member's line. */
static void fill_heat(struct heat_view *hv, struct view *v, const char *member)
{
	const struct fields *f = hv->f;
	const struct field_struct *fs = hv->fs;
	const struct layout_type *type = fs->layout->type;
	struct heat_ctx h = { .fs = fs, .f = f };
	struct layout_annotate an = { annotate_member, annotate_line, &h };
	struct layout_print_opts po = { .line_size = f->line_size, .addr_size = 8,
					.annotate = &an };
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	size_t n = 0, go = 0;
	uint64_t lines = (fs->layout->size + f->line_size - 1) / f->line_size;

	/* by HITMs, unless asked for writes or there is none */
	h.by_hitm = !hv->by_writes && field_stats__hitm(&fs->total) > 0;
	h.total = h.by_hitm ? field_stats__hitm(&fs->total) : fs->total.writes;
	text_view__clear(v);
	strbuf__reset(&v->title);
	strbuf__addf(&v->title, "%s: heat by %s (#: a share, ###: a quarter or more)",
		     fs->layout->name, h.by_hitm ? "HITMs" : "writes");
	for (uint64_t k = 0; k < lines; k++)
		text_view__add(v, SA_HEADER, "line %" PRIu64 " (bytes %" PRIu64 "-%" PRIu64 "): %s",
			       k, k * f->line_size, (k + 1) * f->line_size - 1,
			       line_verdict__name(struct_line_verdict(f, fs, k)));
	if (hv->enter)
		text_view__add(v, SA_NORMAL, "Enter: the suggested layout beside this one");
	text_view__add(v, SA_NORMAL, "%s", "");
	/* the hooks see each line as it is printed: the heat of each line comes with the text */
	layout__print(type, &po, &sb);
	for (p = sb.buf ? sb.buf : ""; *p; n++) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);
		int heat = n < h.nr_heat ? h.heat[n] : -1;

		if (member && !go && heat >= 0) {
			const char *semi = memchr(p, ';', (size_t)len);

			/* the member's line: its name ends just before the ';' */
			if (semi && semi - p > (int)strlen(member) &&
			    !strncmp(semi - strlen(member), member, strlen(member)))
				go = text_view__rows(v);
		}
		text_view__add(v, heat >= 0 ? heat_attr[heat] : heat == -2 ? SA_BOUNDARY : SA_NORMAL,
			       "%s%.*s", heat >= 0 ? heat_mark[heat] : "    ", len, p);
		p += nl ? len + 1 : len;
	}
	if (go)
		text_view__goto(v, go);
	free(h.heat);
	strbuf__release(&sb);
}

static enum view_key heat_key(void *ctx, struct browser *b, struct view *v, int key)
{
	struct heat_view *hv = ctx;

	if (key == '\n' && hv->enter) {
		hv->enter(hv->ctx, b, hv->fs);
		return VIEW_KEY_DONE;
	}
	if (key != 'w')
		return VIEW_KEY_UNUSED;
	hv->by_writes = !hv->by_writes;
	fill_heat(hv, v, NULL);
	return VIEW_KEY_DONE;
}

struct view *heat_view__new(struct browser *b, const struct fields *f, const struct field_struct *fs,
			    const char *member,
			    void (*enter)(void *ctx, struct browser *b, const struct field_struct *fs),
			    void *ctx)
{
	struct heat_view *hv;
	struct view *v;

	if (!fs->layout->type) {
		browser__message(b, "%s: no layout to show", fs->layout->name);
		return NULL;
	}
	hv = xcalloc(1, sizeof(*hv));
	*hv = (struct heat_view){ .f = f, .fs = fs, .enter = enter, .ctx = ctx };
	v = text_view__new("");
	fill_heat(hv, v, member);
	text_view__set_keys(v, heat_key, enter ?
			    "w                 heat by writes instead of HITMs (and back)\\n"
			    "Enter             the suggestion: the proposed layout beside this one,\\n"
			    "                  each line's HITMs, the comment, the patch\\n" :
			    "w                 heat by writes instead of HITMs (and back)\\n", hv, free);
	return v;
}

static void heat_map(struct fields_browser *fb, struct browser *b, const char *member)
{
	struct view *v = heat_view__new(b, fb->tf->f, fb->fs, member, NULL, NULL);

	if (v)
		browser__push(b, v);
}

/* The member under the cursor's path (the heat map opens at its line). */
static const char *row_member(const struct table *t, const void *row)
{
	const struct fields_row *r = row;
	const char *dot;

	if (!r || !r->m)
		return NULL;
	dot = strrchr(r->m->path, '.');
	return dot ? dot + 1 : r->m->path;
}

static bool member_enter(void *ctx, struct browser *b, const struct table *t, const void *row)
{
	heat_map(ctx, b, row_member(t, row));
	return true;
}

static enum view_key member_key(void *ctx, struct browser *b, struct view *v, int key)
{
	if (key != 'l')
		return VIEW_KEY_UNUSED;
	heat_map(ctx, b, NULL);
	return VIEW_KEY_DONE;
}

static const char member_help[] =
	"Enter             the layout as a heat map, at this member\n"
	"l                 the layout as a heat map (pahole's format, members by\n"
	"                  their share of the HITMs or writes, each line's verdict)\n";

static void member_view(struct fields_browser *fb, struct browser *b, const struct field_struct *fs)
{
	struct strbuf title = STRBUF_INIT;
	struct view *v;

	fb->fs = fs;
	fields_table__fill(&fb->ft, fs, fb->tf->all_members);
	strbuf__addf(&title, "%s: %" PRIu64 " HITM, %" PRIu64 " loads, %" PRIu64 " stores - %s",
		     fs->layout->name, field_stats__hitm(&fs->total), fs->total.loads,
		     fs->total.stores, fb->tf->input);
	v = table_view__new(&fb->ft.t, title.buf, member_enter, fb);
	table_view__set_keys(v, member_key, member_help);
	browser__push(b, v);
	strbuf__release(&title);
}

/* The struct list (several structs): Enter opens one's members. */
static enum view_key list_key(void *ctx, struct browser *b, struct view *v, int key)
{
	struct fields_browser *fb = ctx;

	if (key != '\n' || v->cur >= fb->tf->nr_structs)
		return VIEW_KEY_UNUSED;
	/* the list is on top: the member view that held ft's rows before is gone */
	member_view(fb, b, fb->tf->structs[v->cur]);
	return VIEW_KEY_DONE;
}

int tui__fields(const struct tui_fields *tf, char *err, size_t errlen)
{
	struct fields_browser fb = { .tf = tf };
	struct browser b;
	int rc;

	if (!tf->nr_structs) {
		snprintf(err, errlen, "%s: no struct to show", tf->input);
		return -1;
	}
	fields_table__init(&fb.ft, tf->f->line_size, tf->namer, tf->namer_ctx);
	browser__init(&b);
	if (tf->nr_structs == 1) {
		member_view(&fb, &b, tf->structs[0]);
	} else {
		struct view *v = text_view__new("");

		strbuf__addf(&v->title, "%zu structs - %s (Enter: the members)", tf->nr_structs,
			     tf->input);
		for (size_t i = 0; i < tf->nr_structs; i++) {
			const struct field_struct *fs = tf->structs[i];

			text_view__add(v, SA_NORMAL, "%-40s %8" PRIu64 " HITM %8" PRIu64 " loads %8"
				       PRIu64 " stores", fs->layout->name, field_stats__hitm(&fs->total),
				       fs->total.loads, fs->total.stores);
		}
		text_view__set_keys(v, list_key, "Enter             the struct's member table\n",
				    &fb, NULL);
		browser__push(&b, v);
	}
	rc = browser__run(&b, err, errlen);
	browser__release(&b);
	fields_table__release(&fb.ft);
	return rc;
}
