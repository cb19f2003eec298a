# The terminal browser (tui/): the real lineup in a tmux pane, keys sent, screens compared.
EXTRA_DIST += tests/tui/lib.sh
TESTS += tests/tui/report.sh
dist_check_SCRIPTS += tests/tui/report.sh
TESTS += tests/tui/fields.sh
dist_check_SCRIPTS += tests/tui/fields.sh
