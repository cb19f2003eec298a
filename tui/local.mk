noinst_LIBRARIES += tui/libtui.a
tui_libtui_a_SOURCES = tui/layer.c
tui_libtui_a_CFLAGS = $(AM_CFLAGS) $(NCURSESW_CFLAGS)
