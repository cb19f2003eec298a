// SPDX-License-Identifier: GPL-2.0-or-later
#include <config.h>

#include "tui/screen.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

static SCREEN *scr;
static volatile sig_atomic_t active;
static bool color, utf8, exit_hooked;	/* utf8: the locale's; else ASCII only */
static int attrs[SA_NR];

/* Signals that end the process: the terminal goes back first, then the default action runs. */
static const int fatal_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS,
				     SIGFPE, SIGILL, SIGABRT };
static struct sigaction old_actions[sizeof(fatal_signals) / sizeof(fatal_signals[0])];

static void on_fatal(int sig)
{
	/* endwin is what every curses program calls here: without it the shell is left raw */
	if (active) {
		active = 0;
		endwin();
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void at_exit(void)
{
	screen__exit();
}

/* NO_COLOR (no-color.org): present and not empty turns colour off. */
static bool no_color(void)
{
	const char *s = getenv("NO_COLOR");

	return s && *s;
}

static void set_attrs(void)
{
	static const struct {
		short fg, bg;
		int mono;
	} map[SA_NR] = {
		[SA_NORMAL] = { -1, -1, A_NORMAL },
		[SA_TITLE] = { COLOR_WHITE, COLOR_BLUE, A_REVERSE },
		[SA_HEADER] = { COLOR_CYAN, -1, A_BOLD },
		[SA_SORTED] = { COLOR_YELLOW, -1, A_BOLD | A_UNDERLINE },
		[SA_CURSOR] = { COLOR_BLACK, COLOR_GREEN, A_REVERSE },
		[SA_STATUS] = { COLOR_WHITE, COLOR_BLUE, A_REVERSE },
		[SA_HOT] = { COLOR_RED, -1, A_BOLD | A_UNDERLINE },
		[SA_WARM] = { COLOR_YELLOW, -1, A_BOLD },
		[SA_COOL] = { COLOR_GREEN, -1, A_NORMAL },
		[SA_BOUNDARY] = { COLOR_MAGENTA, -1, A_DIM },
		[SA_ADD] = { COLOR_GREEN, -1, A_BOLD },
		[SA_DEL] = { COLOR_RED, -1, A_NORMAL },
		[SA_MARK] = { COLOR_BLACK, COLOR_YELLOW, A_REVERSE },
	};

	for (int i = 0; i < SA_NR; i++) {
		attrs[i] = map[i].mono;
		if (color && i != SA_NORMAL) {
			init_pair((short)i, map[i].fg, map[i].bg);
			attrs[i] = COLOR_PAIR(i) | (map[i].mono & (A_BOLD | A_UNDERLINE));
		}
	}
}

int screen__init(char *err, size_t errlen)
{
	const char *term = getenv("TERM");

	setlocale(LC_CTYPE, "");
	utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(err, errlen, "the browser needs a terminal on standard input and output");
		return -1;
	}
	/* newterm, unlike initscr, returns instead of exiting on an unknown TERM */
	scr = newterm(term && *term ? term : "dumb", stdout, stdin);
	if (!scr) {
		snprintf(err, errlen, "cannot start the browser on terminal type '%s'",
			 term && *term ? term : "(unset)");
		return -1;
	}
	active = 1;
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_fatal;
		sigemptyset(&sa.sa_mask);
		sigaction(fatal_signals[i], &sa, &old_actions[i]);
	}
	if (!exit_hooked)
		exit_hooked = !atexit(at_exit);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	/* clicks and the wheel (a terminal's shift-drag still selects text) */
	mousemask(BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	set_escdelay(25);
	curs_set(0);
	color = has_colors() && !no_color();
	if (color) {
		start_color();
		use_default_colors();
	}
	set_attrs();
	return 0;
}

void screen__exit(void)
{
	if (!scr)
		return;
	if (active) {
		active = 0;
		endwin();
	}
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++)
		sigaction(fatal_signals[i], &old_actions[i], NULL);
	delscreen(scr);
	scr = NULL;
}

int screen__attr(enum screen_attr a)
{
	return attrs[a];
}

int screen__lines(void)
{
	return LINES;
}

int screen__cols(void)
{
	return COLS;
}

/* One character of @s at @*p: its wide char and display width (invalid bytes show as '?'). */
static wchar_t next_char(const char *s, size_t len, size_t *p, mbstate_t *st, int *w)
{
	wchar_t wc;
	size_t n;

	if (!utf8 || (unsigned char)s[*p] < 0x80) {
		unsigned char c = (unsigned char)s[(*p)++];

		*w = 1;
		return c < 0x20 || c >= 0x7f ? L'?' : (wchar_t)c;
	}
	n = mbrtowc(&wc, s + *p, len - *p, st);
	if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
		memset(st, 0, sizeof(*st));
		(*p)++;
		*w = 1;
		return L'?';
	}
	*p += n;
	*w = wcwidth(wc);
	if (*w < 0) {
		*w = 1;
		return L'?';
	}
	return wc;
}

void screen__put(int y, const char *text, int xoff, int width, int attr)
{
	size_t len = strlen(text), p = 0;
	mbstate_t st;
	int col = 0, x = 0;

	if (y < 0 || y >= LINES || width <= 0)
		return;
	memset(&st, 0, sizeof(st));
	attrset(attr);
	move(y, 0);
	while (p < len && x < width) {
		int w;
		wchar_t wc;

		if (text[p] == '\t') {
			int next = (col / 8 + 1) * 8;

			p++;
			for (; col < next && x < width; col++)
				if (col >= xoff) {
					addch(' ');
					x++;
				}
			continue;
		}
		wc = next_char(text, len, &p, &st, &w);
		if (col >= xoff && x + w <= width) {
			wchar_t s[2] = { wc, 0 };

			addnwstr(s, 1);
			x += w;
		} else if (col >= xoff) {
			break;
		}
		col += w;
	}
	for (; x < width; x++)
		addch(' ');
	attrset(A_NORMAL);
}

/*
 * Walk @len bytes of @text as screen__put draws them: @emit (when not NULL) gets each
 * character's bytes (a tab as spaces, what is not shown as '?') until @width columns are
 * filled; the columns used are returned.
 */
static int walk(const char *text, size_t len, int width, struct strbuf *emit)
{
	size_t p = 0;
	mbstate_t st;
	int col = 0;

	memset(&st, 0, sizeof(st));
	while (p < len && col < width) {
		size_t at = p;
		wchar_t wc;
		int w;

		if (text[p] == '\t') {
			int next = (col / 8 + 1) * 8;

			p++;
			for (; col < next && col < width; col++)
				if (emit)
					strbuf__add(emit, " ", 1);
			continue;
		}
		wc = next_char(text, len, &p, &st, &w);
		if (col + w > width)
			break;
		if (emit) {
			if (wc == L'?' && (p - at != 1 || text[at] != '?'))
				strbuf__add(emit, "?", 1);
			else
				strbuf__add(emit, text + at, p - at);
		}
		col += w;
	}
	return col;
}

int screen__width(const char *text, size_t len)
{
	return walk(text, len, 1 << 30, NULL);
}

void screen__fit(const char *text, size_t len, int width, struct strbuf *out)
{
	for (int col = walk(text, len, width, out); col < width; col++)
		strbuf__add(out, " ", 1);
}

enum screen_mouse screen__mouse(int *y, int *wheel)
{
	MEVENT ev;

	if (getmouse(&ev) != OK)
		return SCREEN_MOUSE_NONE;
	*y = ev.y;
	if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
		*wheel = ev.bstate & BUTTON4_PRESSED ? -1 : 1;
		return SCREEN_MOUSE_WHEEL;
	}
	return ev.bstate & BUTTON1_CLICKED ? SCREEN_MOUSE_CLICK : SCREEN_MOUSE_NONE;
}

int screen__key(void)
{
	return getch();
}

void screen__refresh(void)
{
	refresh();
}

void screen__clear(void)
{
	erase();
}
