/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef LINEUP_TUI_SCREEN_H
#define LINEUP_TUI_SCREEN_H

/*
 * The terminal, as the browser uses it: curses started on /dev/tty's terminal and put back on
 * every way out (a return, exit(), ^C, a crash signal: htop's and perf's ui__exit in the signal
 * handlers, tig's die()), colour only where the terminal has it and NO_COLOR is unset, and
 * text other than ASCII only in a UTF-8 locale ('?' otherwise).  The browser draws no line
 * graphics: its marks (heat, the source line, the rules of perf's headers) are ASCII.
 *
 * Attributes are named by what they mean (enum screen_attr); screen__attr gives the curses
 * attribute for the terminal at hand: a colour pair, or bold/reverse/underline in monochrome.
 *
 * Ownership: one screen per process at a time; screen__init/screen__exit bracket it.
 */
#include <stdbool.h>
#include <stddef.h>

#include "util/strbuf.h"

enum screen_attr {
	SA_NORMAL,
	SA_TITLE,	/* the top line */
	SA_HEADER,	/* column headers */
	SA_SORTED,	/* the header of the sort column */
	SA_CURSOR,	/* the selected row */
	SA_STATUS,	/* the bottom line */
	SA_HOT,		/* heat: most of the HITMs/writes */
	SA_WARM,
	SA_COOL,	/* some */
	SA_BOUNDARY,	/* a cache-line boundary */
	SA_ADD,		/* a patch's + line */
	SA_DEL,		/* a patch's - line */
	SA_MARK,	/* the source line of a code address */
	SA_NR,
};

/* 0, or -1 with @err saying why (no terminal, an unknown TERM). */
int screen__init(char *err, size_t errlen);
/* Put the terminal back (idempotent; also at exit and on fatal signals). */
void screen__exit(void);

int screen__attr(enum screen_attr a);
int screen__lines(void);
int screen__cols(void);

/*
 * Draw @text (UTF-8 in a UTF-8 locale, tabs expanded to 8) at row @y, skipping its first
 * @xoff display columns, in @width columns from column 0, padded with spaces, in @attr.
 */
void screen__put(int y, const char *text, int xoff, int width, int attr);
/* The display width of @len bytes of @text, as screen__put would draw them (tabs to 8). */
int screen__width(const char *text, size_t len);
/*
 * Append @len bytes of @text to @out as screen__put would draw them from column 0 (tabs
 * expanded), cut or padded with spaces to @width display columns: a cell of a row built of
 * several texts side by side.
 */
void screen__fit(const char *text, size_t len, int width, struct strbuf *out);
/*
 * What a KEY_MOUSE was: a click of the first button at row *@y, the wheel (*@wheel: -1 up, 1
 * down), or something the browser does not use.
 */
enum screen_mouse { SCREEN_MOUSE_NONE, SCREEN_MOUSE_CLICK, SCREEN_MOUSE_WHEEL };
enum screen_mouse screen__mouse(int *y, int *wheel);
/* The next key (curses key codes; KEY_RESIZE after a resize, KEY_MOUSE after a click). */
int screen__key(void);
void screen__refresh(void);
/* Erase, after a resize too (the new size is read). */
void screen__clear(void);

#endif
