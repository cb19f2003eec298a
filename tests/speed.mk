# speed: the fixed-layout sample reader against the full decoder.
check_PROGRAMS += tests/unit/sample_layout_test
TESTS += tests/unit/sample_layout_test
tests_unit_sample_layout_test_SOURCES = tests/unit/sample_layout_test.c
tests_unit_sample_layout_test_LDADD = sampling/libsampling.a util/libutil.a $(LIBZSTD_LIBS)
