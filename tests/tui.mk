# The terminal browser (tui/): the real lineup in a tmux pane, keys sent, screens compared.
EXTRA_DIST += tests/tui/lib.sh
TESTS += tests/tui/report.sh
dist_check_SCRIPTS += tests/tui/report.sh
TESTS += tests/tui/fields.sh
dist_check_SCRIPTS += tests/tui/fields.sh
check_PROGRAMS += tests/tui/suggest_view
tests_tui_suggest_view_SOURCES = tests/tui/suggest_view.c
tests_tui_suggest_view_LDADD = tui/libtui.a analyzer/libanalyzer.a util/libutil.a $(NCURSESW_LIBS) -lm
TESTS += tests/tui/suggest.sh
dist_check_SCRIPTS += tests/tui/suggest.sh
TESTS += tests/tui/display.sh
dist_check_SCRIPTS += tests/tui/display.sh
TESTS += tests/tui/suggest_cmd.sh
dist_check_SCRIPTS += tests/tui/suggest_cmd.sh
TESTS += tests/tui/browse.sh
dist_check_SCRIPTS += tests/tui/browse.sh
