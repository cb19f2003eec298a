# The perf.data reader (sampling/perf_file.*) and `lineup info`.
TESTS += tests/reader/oracle.sh tests/reader/corrupt.sh
dist_check_SCRIPTS += tests/reader/oracle.sh tests/reader/corrupt.sh

check_PROGRAMS += tests/unit/reader_test
TESTS += tests/unit/reader_test
tests_unit_reader_test_SOURCES = tests/unit/reader_test.c
tests_unit_reader_test_LDADD = sampling/libsampling.a util/libutil.a $(LIBZSTD_LIBS)
