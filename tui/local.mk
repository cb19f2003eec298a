noinst_LIBRARIES += tui/libtui.a
tui_libtui_a_CFLAGS = $(AM_CFLAGS) $(NCURSESW_CFLAGS)
tui_libtui_a_SOURCES = tui/tui.h
if HAVE_NCURSESW
tui_libtui_a_SOURCES += tui/tui.c tui/screen.c tui/screen.h tui/browser.c tui/browser.h \
	tui/table_view.c tui/text_view.c tui/report.c tui/suggest.c tui/fields.c \
	tui/views.h tui/suggest_target.c
else
tui_libtui_a_SOURCES += tui/none.c
endif
