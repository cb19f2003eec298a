# The table model (analyzer/table.h) and its renderers.
check_PROGRAMS += tests/unit/table_test
tests_unit_table_test_SOURCES = tests/unit/table_test.c tests/unit/check.h
tests_unit_table_test_LDADD = analyzer/libanalyzer.a util/libutil.a -lm
TESTS += tests/unit/table_test
