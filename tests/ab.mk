# lineup ab: the statistics on synthetic run times, and the command on real ones.
check_PROGRAMS += tests/unit/abstat_test
tests_unit_abstat_test_SOURCES = tests/unit/abstat_test.c tests/unit/check.h
tests_unit_abstat_test_LDADD = analyzer/libanalyzer.a -lm
TESTS += tests/unit/abstat_test
TESTS += tests/ab/ab.sh tests/ab/false_sharing.sh
dist_check_SCRIPTS += tests/ab/ab.sh tests/ab/false_sharing.sh
