# Arm SPE: the AUX trace decoder and the memory samples perf c2c makes of it (role: spe).
check_PROGRAMS += tests/unit/arm_spe_test
tests_unit_arm_spe_test_SOURCES = tests/unit/arm_spe_test.c
tests_unit_arm_spe_test_LDADD = sampling/libsampling.a util/libutil.a
TESTS += tests/unit/arm_spe_test
