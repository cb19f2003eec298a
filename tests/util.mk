# util/: text files read to a limit, files written in place of a link, bytes shown safely.
check_PROGRAMS += tests/unit/util_test
tests_unit_util_test_SOURCES = tests/unit/util_test.c tests/unit/check.h
tests_unit_util_test_LDADD = util/libutil.a
TESTS += tests/unit/util_test
