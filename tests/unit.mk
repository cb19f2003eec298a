# Unit tests of the shared models: util/ and the table model (analyzer/table.h).
check_PROGRAMS += tests/unit/util_test
tests_unit_util_test_SOURCES = tests/unit/util_test.c tests/unit/check.h
tests_unit_util_test_LDADD = util/libutil.a
TESTS += tests/unit/util_test
# The table model (analyzer/table.h) and its renderers.
check_PROGRAMS += tests/unit/table_test
tests_unit_table_test_SOURCES = tests/unit/table_test.c tests/unit/check.h
tests_unit_table_test_LDADD = analyzer/libanalyzer.a util/libutil.a -lm
TESTS += tests/unit/table_test
