# speed: the fixed-layout sample reader against the full decoder.
check_PROGRAMS += tests/unit/sample_layout_test
TESTS += tests/unit/sample_layout_test
tests_unit_sample_layout_test_SOURCES = tests/unit/sample_layout_test.c
tests_unit_sample_layout_test_LDADD = sampling/libsampling.a util/libutil.a $(LIBZSTD_LIBS)

# speed2: perf's delivery order on a recording written per CPU per round, interleaved
TESTS += tests/c2c/order.sh
dist_check_SCRIPTS += tests/c2c/order.sh
check_PROGRAMS += tests/unit/c2c_prefetch_test
TESTS += tests/unit/c2c_prefetch_test
tests_unit_c2c_prefetch_test_SOURCES = tests/unit/c2c_prefetch_test.c
tests_unit_c2c_prefetch_test_LDADD = analyzer/libanalyzer.a util/libutil.a -lm
TESTS += tests/c2c/kernel.sh
dist_check_SCRIPTS += tests/c2c/kernel.sh
TESTS += tests/c2c/kmod.sh
dist_check_SCRIPTS += tests/c2c/kmod.sh
