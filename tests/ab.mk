# lineup ab: the statistics on synthetic run times, and the command on real ones.
check_PROGRAMS += tests/unit/abstat_test
tests_unit_abstat_test_SOURCES = tests/unit/abstat_test.c tests/unit/check.h
tests_unit_abstat_test_LDADD = analyzer/libanalyzer.a -lm
TESTS += tests/unit/abstat_test
TESTS += tests/ab/ab.sh tests/ab/false_sharing.sh
dist_check_SCRIPTS += tests/ab/ab.sh tests/ab/false_sharing.sh
# lineup diff: two recordings matched by what their lines hold.
TESTS += tests/diff/diff.sh tests/diff/per.sh tests/diff/workloads.sh
dist_check_SCRIPTS += tests/diff/diff.sh tests/diff/per.sh tests/diff/workloads.sh
EXTRA_DIST += tests/diff/diff-lib.sh
check_PROGRAMS += tests/unit/fields_diff_test
tests_unit_fields_diff_test_SOURCES = tests/unit/fields_diff_test.c tests/unit/check.h
tests_unit_fields_diff_test_LDADD = analyzer/libanalyzer.a util/libutil.a -lm
TESTS += tests/unit/fields_diff_test
