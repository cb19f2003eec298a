# lineup diff: two recordings matched by what their lines hold.
TESTS += tests/diff/diff.sh tests/diff/per.sh tests/diff/workloads.sh
dist_check_SCRIPTS += tests/diff/diff.sh tests/diff/per.sh tests/diff/workloads.sh
EXTRA_DIST += tests/diff/diff-lib.sh
check_PROGRAMS += tests/unit/fields_diff_test
tests_unit_fields_diff_test_SOURCES = tests/unit/fields_diff_test.c tests/unit/check.h
tests_unit_fields_diff_test_LDADD = analyzer/libanalyzer.a util/libutil.a -lm
TESTS += tests/unit/fields_diff_test
