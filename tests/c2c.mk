# lineup report / analyzer c2c: unit tests on hand-built samples, and the perf c2c oracle.
check_PROGRAMS += tests/unit/c2c_test
tests_unit_c2c_test_SOURCES = tests/unit/c2c_test.c
tests_unit_c2c_test_LDADD = analyzer/libanalyzer.a util/libutil.a -lm
TESTS += tests/unit/c2c_test
TESTS += tests/c2c/oracle.sh
dist_check_SCRIPTS += tests/c2c/oracle.sh
TESTS += tests/c2c/formats.sh
dist_check_SCRIPTS += tests/c2c/formats.sh
TESTS += tests/c2c/memory.sh
dist_check_SCRIPTS += tests/c2c/memory.sh

# perf's delivery order on a recording written per CPU per round, interleaved
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
