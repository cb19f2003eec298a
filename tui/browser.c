// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "tui/browser.h"

#include <curses.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui/screen.h"
#include "util/xalloc.h"

#define CTRL(c) ((c) & 0x1f)
#define KEY_ESC 27
#define HSTEP 8
#define WHEEL_STEP 3
#define SCRIPT_END (KEY_MAX + 1)

/* The keys every view has, for the help screen. */
static const char common_help[] =
	"k, Up             previous row\n"
	"j, Down           next row\n"
	"PgUp, ^B          a page up\n"
	"PgDn, ^F, Space   a page down\n"
	"g, Home           first row\n"
	"G, End            last row\n"
	"<, >              scroll left, right\n"
	"/                 search (n: the next match, N: the one before)\n"
	"Enter, Right      go in: the row's details\n"
	"q, Esc, Left      back (q at the first view: quit)\n"
	"?, h, F1          this help\n"
	"^L                redraw\n"
	"mouse             a click selects a row, the wheel moves\n";

void browser__init(struct browser *b)
{
	memset(b, 0, sizeof(*b));
}

static void view_free(struct view *v)
{
	strbuf__release(&v->title);
	v->ops->release(v);
}

void browser__release(struct browser *b)
{
	while (b->depth > 0)
		view_free(b->views[--b->depth]);
	strbuf__release(&b->search);
	strbuf__release(&b->message);
	free(b->script);
	free(b->times);
}

bool browser__push(struct browser *b, struct view *v)
{
	if (b->depth == BROWSER_MAX_DEPTH) {
		view_free(v);
		browser__message(b, "too many views open: go back first");
		return false;
	}
	b->views[b->depth++] = v;
	return true;
}

void browser__message(struct browser *b, const char *fmt, ...)
{
	va_list ap;

	strbuf__reset(&b->message);
	va_start(ap, fmt);
	strbuf__vaddf(&b->message, fmt, ap);
	va_end(ap);
}

static struct view *top(struct browser *b)
{
	return b->views[b->depth - 1];
}

/* Rows of the screen for a view's rows: all but the title, the headers and the status line. */
static int page_rows(struct view *v)
{
	int n = screen__lines() - 2 - v->ops->nr_headers(v);

	return n > 0 ? n : 0;
}

/* Keep the cursor in the rows and on screen (after a move, a resize, a sort). */
static void clamp(struct view *v)
{
	size_t n = v->ops->nr_rows(v);
	size_t page = (size_t)page_rows(v);

	if (!n) {
		v->cur = v->top = 0;
		return;
	}
	if (v->cur >= n)
		v->cur = n - 1;
	if (!page)
		page = 1;
	if (v->cur < v->top)
		v->top = v->cur;
	if (v->cur >= v->top + page)
		v->top = v->cur - page + 1;
	/* a taller screen shows more of the end instead of blank rows */
	if (v->top + page > n)
		v->top = n > page ? n - page : 0;
	if (v->xoff < 0)
		v->xoff = 0;
}

static void draw_status(struct browser *b, struct view *v)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = v->ops->nr_rows(v);
	char right[64];
	int cols = screen__cols();

	if (b->message.len) {
		strbuf__add(&sb, b->message.buf, b->message.len);
	} else {
		if (v->ops->status)
			v->ops->status(v, &sb);
		if (b->search.len)
			strbuf__addf(&sb, "%s/%s", sb.len ? "  " : "", b->search.buf);
	}
	snprintf(right, sizeof(right), "  %zu/%zu  ?:help %s", n ? v->cur + 1 : 0, n,
		 b->depth > 1 ? "q:back" : "q:quit");
	/* the right part stays; the left is cut to what remains */
	if ((int)strlen(right) < cols) {
		int room = cols - (int)strlen(right);

		while ((int)sb.len < room)
			strbuf__add(&sb, " ", 1);
		if ((int)sb.len > room) {
			sb.len = room;
			sb.buf[room] = '\0';
		}
		strbuf__add(&sb, right, strlen(right));
	}
	screen__put(screen__lines() - 1, sb.buf ? sb.buf : "", 0, cols, screen__attr(SA_STATUS));
	strbuf__release(&sb);
}

void browser__draw(struct browser *b)
{
	struct view *v = top(b);
	struct strbuf sb = STRBUF_INIT;
	int cols = screen__cols(), lines = screen__lines();
	int nh = v->ops->nr_headers(v), page, y = 1;

	screen__clear();
	if (lines < 3 || cols < 10) {
		screen__put(0, "terminal too small", 0, cols, screen__attr(SA_NORMAL));
		screen__refresh();
		return;
	}
	clamp(v);
	page = page_rows(v);
	screen__put(0, v->title.buf ? v->title.buf : "", 0, cols, screen__attr(SA_TITLE));
	for (int i = 0; i < nh && y < lines - 1; i++, y++) {
		int attr;

		strbuf__reset(&sb);
		attr = v->ops->header(v, i, &sb);
		screen__put(y, sb.buf ? sb.buf : "", v->xoff, cols, screen__attr(attr));
	}
	for (int i = 0; i < page; i++, y++) {
		size_t r = v->top + (size_t)i;
		int attr;

		if (r >= v->ops->nr_rows(v))
			break;
		strbuf__reset(&sb);
		attr = v->ops->row(v, r, &sb);
		if (r == v->cur)
			attr = SA_CURSOR;
		screen__put(y, sb.buf ? sb.buf : "", v->xoff, cols, screen__attr(attr));
	}
	draw_status(b, v);
	screen__refresh();
	strbuf__release(&sb);
}

/* The next row from @from (included) that matches, in @dir, wrapping; -1 when none. */
static long search(struct view *v, size_t from, int dir, const char *needle)
{
	size_t n = v->ops->nr_rows(v);

	for (size_t k = 0; k < n; k++) {
		size_t i = dir > 0 ? (from + k) % n : (from + n - k % n) % n;

		if (v->ops->match(v, i, needle))
			return (long)i;
	}
	return -1;
}

static void find(struct browser *b, int dir, bool skip_current)
{
	struct view *v = top(b);
	size_t n = v->ops->nr_rows(v);
	long i;

	if (!b->search.len) {
		browser__message(b, "no search yet: / to search");
		return;
	}
	if (!n)
		return;
	i = search(v, skip_current ? (v->cur + n + (size_t)dir) % n : v->cur, dir, b->search.buf);
	if (i < 0)
		browser__message(b, "not found: %s", b->search.buf);
	else
		v->cur = (size_t)i;
}

/* A click selects the row under it; the wheel moves the cursor a few rows. */
static void mouse(struct view *v, size_t n, size_t page)
{
	int y, wheel = 0;
	int first = 1 + v->ops->nr_headers(v);	/* the screen row of the first row shown */

	switch (screen__mouse(&y, &wheel)) {
	case SCREEN_MOUSE_CLICK:
		if (y >= first && (size_t)(y - first) < page && v->top + (size_t)(y - first) < n)
			v->cur = v->top + (size_t)(y - first);
		break;
	case SCREEN_MOUSE_WHEEL:
		if (wheel < 0)
			v->cur = v->cur > WHEEL_STEP ? v->cur - WHEEL_STEP : 0;
		else if (n)
			v->cur = v->cur + WHEEL_STEP < n ? v->cur + WHEEL_STEP : n - 1;
		break;
	case SCREEN_MOUSE_NONE:
		break;
	}
}

static void help(struct browser *b)
{
	struct view *v = top(b), *h = text_view__new("Help: the keys");

	text_view__add(h, SA_HEADER, "Every view");
	text_view__add_text(h, SA_NORMAL, common_help);
	if (v->ops->help && *v->ops->help(v)) {
		text_view__add(h, SA_NORMAL, "%s", "");
		text_view__add(h, SA_HEADER, "This view");
		text_view__add_text(h, SA_NORMAL, v->ops->help(v));
	}
	browser__push(b, h);
}

bool browser__key(struct browser *b, int key)
{
	struct view *v = top(b);
	size_t n = v->ops->nr_rows(v);
	size_t page = (size_t)page_rows(v);
	enum view_key vk;

	strbuf__reset(&b->message);
	if (key == '\r' || key == KEY_ENTER || key == KEY_RIGHT)
		key = '\n';
	vk = v->ops->key ? v->ops->key(v, b, key) : VIEW_KEY_UNUSED;
	if (vk == VIEW_KEY_QUIT)
		return false;
	if (vk == VIEW_KEY_DONE)
		return true;
	if (!page)
		page = 1;
	switch (key) {
	case KEY_UP:
	case 'k':
		if (v->cur)
			v->cur--;
		break;
	case KEY_DOWN:
	case 'j':
		if (v->cur + 1 < n)
			v->cur++;
		break;
	case KEY_PPAGE:
	case CTRL('b'):
		v->cur = v->cur > page ? v->cur - page : 0;
		v->top = v->top > page ? v->top - page : 0;
		break;
	case KEY_NPAGE:
	case CTRL('f'):
	case ' ':
		if (n) {
			v->cur = v->cur + page < n ? v->cur + page : n - 1;
			v->top += page;
		}
		break;
	case KEY_HOME:
	case 'g':
		v->cur = 0;
		break;
	case KEY_END:
	case 'G':
		v->cur = n ? n - 1 : 0;
		break;
	case '>':
		v->xoff += HSTEP;
		break;
	case '<':
		v->xoff = v->xoff > HSTEP ? v->xoff - HSTEP : 0;
		break;
	case '/': {
		struct strbuf q = STRBUF_INIT;

		if (browser__prompt(b, "/", &q) && q.len) {
			strbuf__reset(&b->search);
			strbuf__add(&b->search, q.buf, q.len);
			find(b, 1, true);
		}
		strbuf__release(&q);
		break;
	}
	case 'n':
		find(b, 1, true);
		break;
	case 'N':
		find(b, -1, true);
		break;
	case '?':
	case 'h':
	case KEY_F(1):
		help(b);
		break;
	case 'q':
	case KEY_ESC:
	case KEY_LEFT:
		if (b->depth == 1) {
			if (key == 'q')
				return false;
			browser__message(b, "q quits");
			break;
		}
		view_free(b->views[--b->depth]);
		break;
	case '\n':
		browser__message(b, "nothing below this row");
		break;
	case CTRL('l'):
		clearok(stdscr, TRUE);
		break;
	case KEY_MOUSE:
		mouse(v, n, page);
		break;
	case KEY_RESIZE:
	default:
		break;
	}
	return true;
}

/*
 * Keys from a script instead of the terminal (LINEUP_TUI_SCRIPT, as tig's TIG_SCRIPT): one key a
 * line, a character or a name (Enter, Esc, Up, Down, Left, Right, PgUp, PgDn, Home, End, Tab),
 * "/TEXT" for a search; each key's time to answer (the key and the redraw) is kept, and said
 * on standard error at the end: how the benchmark measures a key press.
 */
static const struct {
	const char *name;
	int key;
} key_names[] = {
	{ "Enter", '\n' }, { "Esc", KEY_ESC }, { "Up", KEY_UP }, { "Down", KEY_DOWN },
	{ "Left", KEY_LEFT }, { "Right", KEY_RIGHT }, { "PgUp", KEY_PPAGE },
	{ "PgDn", KEY_NPAGE }, { "Home", KEY_HOME }, { "End", KEY_END }, { "Tab", '\t' },
};

static void script_add(struct browser *b, int key)
{
	b->script = xgrow(b->script, &b->cap_script, b->nr_script + 1, sizeof(*b->script));
	b->script[b->nr_script++] = key;
}

static int script_load(struct browser *b, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[256];

	if (!f) {
		snprintf(err, errlen, "LINEUP_TUI_SCRIPT: %s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "\n");
		bool named = false;

		line[len] = '\0';
		if (!len)
			continue;
		for (size_t i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
			if (!strcmp(line, key_names[i].name)) {
				script_add(b, key_names[i].key);
				named = true;
			}
		if (named)
			continue;
		if (line[0] == '/' && len > 1) {
			for (size_t i = 0; i < len; i++)
				script_add(b, (unsigned char)line[i]);
			script_add(b, '\n');
		} else if (len == 1) {
			script_add(b, (unsigned char)line[0]);
		} else {
			snprintf(err, errlen, "LINEUP_TUI_SCRIPT: %s: '%s' is no key", path, line);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	b->scripted = true;
	return 0;
}

static int next_key(struct browser *b)
{
	if (!b->scripted)
		return screen__key();
	/* the script's end quits, as if the user had pressed q at every view (a prompt
	 * reads it as a cancel) */
	return b->at_script < b->nr_script ? b->script[b->at_script++] : SCRIPT_END;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void script_report(struct browser *b)
{
	double sum = 0;

	if (!b->nr_times)
		return;
	for (size_t i = 0; i < b->nr_times; i++)
		sum += b->times[i];
	qsort(b->times, b->nr_times, sizeof(*b->times), cmp_double);
	fprintf(stderr, "lineup: %zu scripted keys: median %.3f ms, mean %.3f ms, max %.3f ms "
		"(key and redraw)\n", b->nr_times, b->times[b->nr_times / 2], sum / b->nr_times,
		b->times[b->nr_times - 1]);
}

bool browser__prompt(struct browser *b, const char *question, struct strbuf *out)
{
	for (;;) {
		struct strbuf line = STRBUF_INIT;
		int key;

		strbuf__addf(&line, "%s%s", question, out->buf ? out->buf : "");
		screen__put(screen__lines() - 1, line.buf, 0, screen__cols(),
			    screen__attr(SA_NORMAL));
		move(screen__lines() - 1, (int)line.len < screen__cols() ? (int)line.len : 0);
		curs_set(1);
		screen__refresh();
		strbuf__release(&line);
		key = next_key(b);
		curs_set(0);
		switch (key) {
		case '\n':
		case '\r':
		case KEY_ENTER:
			return true;
		case KEY_ESC:
		case CTRL('g'):
		case CTRL('c'):
		case SCRIPT_END:
			return false;
		case KEY_BACKSPACE:
		case 127:
		case CTRL('h'):
			if (out->len)
				out->buf[--out->len] = '\0';
			break;
		case KEY_RESIZE:
			browser__draw(b);
			break;
		default:
			if (key >= 0x20 && key < 0x100 && key != 127) {
				char c = (char)key;

				strbuf__add(out, &c, 1);
			}
			break;
		}
	}
}

int browser__browse(struct view *v, char *err, size_t errlen)
{
	struct browser b;
	int rc;

	browser__init(&b);
	browser__push(&b, v);
	rc = browser__run(&b, err, errlen);
	browser__release(&b);
	return rc;
}

int browser__run(struct browser *b, char *err, size_t errlen)
{
	if (!b->depth) {
		snprintf(err, errlen, "nothing to browse");
		return -1;
	}
	if (getenv("LINEUP_TUI_SCRIPT") && !b->scripted &&
	    script_load(b, getenv("LINEUP_TUI_SCRIPT"), err, errlen) < 0)
		return -1;
	if (screen__init(err, errlen) < 0)
		return -1;
	browser__draw(b);
	for (int errs = 0;;) {
		double t0;
		int key;
		bool go_on;

		key = next_key(b);
		/* a closed terminal reads ERR for ever: leave rather than spin */
		if (key == ERR) {
			if (++errs > 100)
				break;
			continue;
		}
		errs = 0;
		if (key == SCRIPT_END)
			break;
		t0 = now_ms();
		go_on = browser__key(b, key) && b->depth;
		if (go_on)
			browser__draw(b);
		if (b->scripted) {
			b->times = xgrow(b->times, &b->cap_times, b->nr_times + 1, sizeof(*b->times));
			b->times[b->nr_times++] = now_ms() - t0;
		}
		if (!go_on)
			break;
	}
	screen__exit();
	script_report(b);
	return 0;
}
