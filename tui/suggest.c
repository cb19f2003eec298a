// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `lineup suggest --tui`: what the suggestion does, the current layout and the proposed one
 * with each cache line's HITMs (measured before, predicted after), the layout comment and the
 * patch, in one view (Tab goes from part to part).  The layouts are side by side where the
 * terminal is wide enough for both (each cut to its half), one above the other where it is
 * not; v chooses.  w writes the patch to a file, asking its name, and asking again before it
 * writes over a file that exists.
 *
 * Ownership: the view borrows the suggestion (tui__suggest's caller keeps it for the call).
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tui/browser.h"
#include "tui/screen.h"
#include "tui/tui.h"
#include "tui/views.h"
#include "util/file.h"
#include "util/xalloc.h"

#define MAX_PARTS 5
#define GUTTER " | "
#define GUTTER_W 3

enum layouts_shown { LAYOUTS_AUTO, LAYOUTS_BESIDE, LAYOUTS_ABOVE };

struct suggest_ctx {
	const struct tui_suggestion *s;
	char *current, *proposed;	/* the layouts with their lines' figures */
	enum layouts_shown shown;
	size_t part[MAX_PARTS];	/* first line of each part */
	int nr_parts;
};

/* Each line of @text, with its attribute: a patch's + and - lines, its hunks. */
static void add_lines(struct view *v, const char *text, bool diff)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);
		int attr = SA_NORMAL;

		if (diff && len && (p[0] == '+' || p[0] == '-') &&
		    strncmp(p, "+++", 3) && strncmp(p, "---", 3))
			attr = p[0] == '+' ? SA_ADD : SA_DEL;
		else if (diff && !strncmp(p, "@@", 2))
			attr = SA_BOUNDARY;
		else if (!diff && strstr(p, "/* line ") && strstr(p, " HITM"))
			attr = SA_BOUNDARY;
		text_view__add(v, attr, "%.*s", len, p);
		p += nl ? len + 1 : len;
	}
}

static void begin_part(struct view *v, struct suggest_ctx *sc, const char *heading)
{
	if (sc->nr_parts)
		text_view__add(v, SA_NORMAL, "%s", "");
	if (sc->nr_parts < MAX_PARTS)
		sc->part[sc->nr_parts++] = text_view__rows(v);
	text_view__add(v, SA_HEADER, "%s", heading);
}

static void add_part(struct view *v, struct suggest_ctx *sc, const char *heading,
		     const char *text, bool diff)
{
	if (!text || !*text)
		return;
	begin_part(v, sc, heading);
	add_lines(v, text, diff);
}

/*
 * @layout with a comment line after its first line and after each cache-line boundary (pahole's
 * "--- cacheline N boundary"): that line's HITMs and transfers (@f, by offset), @what they are.
 */
static char *with_figures(const char *layout, const struct tui_line_figures *f, size_t nr,
			  unsigned int line_size, const char *what)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = layout;
	bool first = true;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *b = memmem(p, len, "cacheline ", 10);
		long n = -1;

		strbuf__add(&sb, p, len);
		strbuf__add(&sb, "\n", 1);
		if (first) {
			n = 0;
		} else if (b && memmem(p, len, " boundary", 9)) {
			char *end;

			n = strtol(b + 10, &end, 10);
			if (end == b + 10 || strncmp(end, " boundary", 9))
				n = -1;
		}
		first = false;
		for (size_t i = 0; n >= 0 && line_size && i < nr; i++)
			if (f[i].offset == (uint64_t)n * line_size)
				strbuf__addf(&sb, "\t/* line %ld (+%" PRIu64 "): %" PRIu64 " HITM %s, "
					     "%" PRIu64 " transfers */\n", n, f[i].offset, f[i].hitm,
					     what, f[i].transfers);
		p += nl ? len + 1 : len;
	}
	return sb.buf ? sb.buf : xstrdup("");
}

/* The widest line of @text, and of its pahole part (to the offset comment's end). */
static void widths(const char *text, int *all, int *core)
{
	const char *p = text;

	*all = *core = 0;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *c = memmem(p, len, "*/", 2);
		int w = screen__width(p, len);

		if (w > *all)
			*all = w;
		w = screen__width(p, c ? (size_t)(c + 2 - p) : len);
		if (w > *core)
			*core = w;
		p += nl ? len + 1 : len;
	}
}

/* A layout's text cut into lines, each with the cache line of the layout it shows. */
struct seg_line {
	const char *s;
	size_t len;
	long seg;
};

/* The closing "};" and the size summary after it: aligned with the other side's. */
#define SEG_TRAILER LONG_MAX

/*
 * The lines of @text, each tagged with its segment: 0 from the first line, N from pahole's
 * "--- cacheline N boundary" on, SEG_TRAILER from the size summary (or the closing brace);
 * *@nr of them.
 */
static struct seg_line *segments(const char *text, size_t *nr)
{
	struct seg_line *v = NULL;
	size_t cap = 0;
	long seg = 0;
	const char *p = text;

	*nr = 0;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const char *b = memmem(p, len, "cacheline ", 10);

		if (seg != SEG_TRAILER && b && memmem(p, len, " boundary", 9)) {
			char *end;
			long n = strtol(b + 10, &end, 10);

			if (end != b + 10 && !strncmp(end, " boundary", 9))
				seg = n;
		} else if ((len && p[0] == '}') || memmem(p, len, "/* size: ", 9)) {
			/* the summary with the blank line before it */
			if (seg != SEG_TRAILER && *nr && !v[*nr - 1].len)
				v[*nr - 1].seg = SEG_TRAILER;
			seg = SEG_TRAILER;
		}
		v = xgrow(v, &cap, *nr + 1, sizeof(*v));
		v[(*nr)++] = (struct seg_line){ p, len, seg };
		p += nl ? len + 1 : len;
	}
	return v;
}

/*
 * The two layouts side by side in @cols columns, aligned on cache-line boundaries: each
 * line's rows start on the same screen row on both sides (its figures beside each other), the
 * side with fewer rows for that line padded with blank rows.  True, or false when the
 * terminal is too narrow for both layouts' members and offsets (one above the other then).
 */
static bool add_beside(struct view *v, struct suggest_ctx *sc, int cols)
{
	int lall, lcore, rall, rcore, lw;
	struct strbuf row = STRBUF_INIT;
	struct seg_line *l, *r;
	size_t nl, nr, i = 0, j = 0;

	widths(sc->current, &lall, &lcore);
	widths(sc->proposed, &rall, &rcore);
	lw = lall + GUTTER_W + rall <= cols ? lall : (cols - GUTTER_W) / 2;
	if (lw < lcore || cols - GUTTER_W - lw < rcore)
		return false;
	screen__fit("Current layout (measured)", 25, lw, &row);
	strbuf__addf(&row, "%sProposed layout (predicted)", GUTTER);
	begin_part(v, sc, row.buf);
	l = segments(sc->current, &nl);
	r = segments(sc->proposed, &nr);
	while (i < nl || j < nr) {
		/* the next segment of either side, the lower first: both when they are the same */
		long seg = i < nl && (j >= nr || l[i].seg <= r[j].seg) ? l[i].seg : r[j].seg;

		while ((i < nl && l[i].seg == seg) || (j < nr && r[j].seg == seg)) {
			bool lin = i < nl && l[i].seg == seg, rin = j < nr && r[j].seg == seg;
			const char *ls = lin ? l[i].s : "", *rs = rin ? r[j].s : "";
			size_t llen = lin ? l[i].len : 0, rlen = rin ? r[j].len : 0;
			bool fig = (memmem(ls, llen, "/* line ", 8) && memmem(ls, llen, " HITM", 5)) ||
				   (memmem(rs, rlen, "/* line ", 8) && memmem(rs, rlen, " HITM", 5));

			strbuf__reset(&row);
			screen__fit(ls, llen, lw, &row);
			strbuf__add(&row, GUTTER, GUTTER_W);
			/* its tabs from its own first column */
			screen__fit(rs, rlen, screen__width(rs, rlen), &row);
			text_view__add(v, fig ? SA_BOUNDARY : SA_NORMAL, "%s", row.buf);
			i += lin;
			j += rin;
		}
	}
	free(l);
	free(r);
	strbuf__release(&row);
	return true;
}

/* The view's lines for a terminal @cols wide (again after a resize, or v). */
static void fill(void *ctx, struct view *v, int cols)
{
	struct suggest_ctx *sc = ctx;
	const struct tui_suggestion *s = sc->s;

	sc->nr_parts = 0;
	add_part(v, sc, "What it does", s->summary, false);
	if (sc->shown == LAYOUTS_ABOVE || !*sc->proposed || !add_beside(v, sc, cols)) {
		add_part(v, sc, "Current layout (measured)", sc->current, false);
		add_part(v, sc, "Proposed layout (predicted)", sc->proposed, false);
	}
	add_part(v, sc, "Layout comment", s->comment, false);
	add_part(v, sc, "Patch", s->patch, true);
}

static void write_patch(struct browser *b, const struct tui_suggestion *s)
{
	struct strbuf name = STRBUF_INIT, yes = STRBUF_INIT, q = STRBUF_INIT;
	struct stat st;
	bool replace = false;
	char err[PATH_MAX + 64];
	int rc;

	if (!s->patch || !*s->patch) {
		browser__message(b, "there is no patch to write");
		return;
	}
	if (s->patch_name)
		strbuf__add(&name, s->patch_name, strlen(s->patch_name));
	if (!browser__prompt(b, "write the patch to: ", &name) || !name.len) {
		browser__message(b, "not written");
		goto out;
	}
	/* lstat: a link is not asked about, it is refused (the writer refuses it too, if one is
	 * planted after the question) */
	if (!lstat(name.buf, &st)) {
		if (!S_ISREG(st.st_mode)) {
			browser__message(b, "%s is %s: not written", name.buf,
					 S_ISDIR(st.st_mode)   ? "a directory"
					 : S_ISLNK(st.st_mode) ? "a symbolic link"
							       : "not a regular file");
			goto out;
		}
		strbuf__addf(&q, "%s exists: write over it? (y/N) ", name.buf);
		if (!browser__prompt(b, q.buf, &yes) || strcmp(yes.buf ? yes.buf : "", "y")) {
			browser__message(b, "%s left as it was", name.buf);
			goto out;
		}
		replace = true;
	}
	rc = file__write_atomic(name.buf, s->patch, strlen(s->patch), replace, err, sizeof(err));
	if (rc == -EEXIST)
		browser__message(b, "%s appeared meanwhile: not written", name.buf);
	else if (rc)
		browser__message(b, "cannot write %s", err);
	else
		browser__message(b, "the patch is in %s", name.buf);
out:
	strbuf__release(&name);
	strbuf__release(&yes);
	strbuf__release(&q);
}

static enum view_key suggest_key(void *ctx, struct browser *b, struct view *v, int key)
{
	struct suggest_ctx *sc = ctx;

	switch (key) {
	case 'w':
		write_patch(b, sc->s);
		return VIEW_KEY_DONE;
	case 'v':
		sc->shown = sc->shown == LAYOUTS_ABOVE ? LAYOUTS_AUTO : LAYOUTS_ABOVE;
		text_view__refill(v);
		browser__message(b, sc->shown == LAYOUTS_ABOVE ? "the layouts one above the other" :
				 "the layouts side by side where the terminal is wide enough");
		return VIEW_KEY_DONE;
	case '\t':
		for (int i = 0; i < sc->nr_parts; i++)
			if (sc->part[i] > v->cur || i + 1 == sc->nr_parts) {
				size_t to = sc->part[i] > v->cur ? sc->part[i] : sc->part[0];

				v->cur = v->top = to;
				break;
			}
		return VIEW_KEY_DONE;
	}
	return VIEW_KEY_UNUSED;
}

static void suggest_free(void *ctx)
{
	struct suggest_ctx *sc = ctx;

	free(sc->current);
	free(sc->proposed);
	free(sc);
}

struct view *suggest_view__new(const struct tui_suggestion *s)
{
	struct suggest_ctx *sc = xcalloc(1, sizeof(*sc));
	struct view *v = text_view__new(s->title ? s->title : "suggestion");

	sc->s = s;
	sc->current = with_figures(s->current ? s->current : "", s->before, s->nr_before,
				   s->line_size, "measured");
	sc->proposed = with_figures(s->proposed ? s->proposed : "", s->after, s->nr_after,
				    s->line_size, "predicted");
	text_view__set_keys(v, suggest_key,
			    "Tab               the next part (what it does, the layouts, the\n"
			    "                  comment, the patch)\n"
			    "v                 the layouts one above the other, or side by side\n"
			    "                  (where the terminal is wide enough: the default),\n"
			    "                  each cache line's rows level on both sides\n"
			    "w                 write the patch to a file (asks its name; never\n"
			    "                  writes over a file without asking)\n",
			    sc, suggest_free);
	text_view__set_fill(v, fill);
	return v;
}

int tui__suggest(const struct tui_suggestion *s, char *err, size_t errlen)
{
	return browser__browse(suggest_view__new(s), err, errlen);
}
