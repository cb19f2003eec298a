# Arm SPE: the AUX trace decoder and the memory samples perf c2c makes of it (role: spe).
check_PROGRAMS += tests/unit/arm_spe_test
tests_unit_arm_spe_test_SOURCES = tests/unit/arm_spe_test.c
tests_unit_arm_spe_test_LDADD = sampling/libsampling.a util/libutil.a
TESTS += tests/unit/arm_spe_test
# mkspe: text scenario -> perf.data with an Arm SPE AUX trace (tests/tools/mkspe.c says how)
check_PROGRAMS += tests/tools/mkspe
tests_tools_mkspe_SOURCES = tests/tools/mkspe.c
tests_tools_mkspe_LDADD = sampling/libperfwriter.a
TESTS += tests/spe/oracle.sh
dist_check_SCRIPTS += tests/spe/oracle.sh
TESTS += tests/spe/errors.sh
dist_check_SCRIPTS += tests/spe/errors.sh
check_PROGRAMS += tests/unit/aux_ring_test
tests_unit_aux_ring_test_SOURCES = tests/unit/aux_ring_test.c
tests_unit_aux_ring_test_LDADD = sampling/libsampling.a sampling/libperfwriter.a util/libutil.a \
	$(LIBZSTD_LIBS)
TESTS += tests/unit/aux_ring_test
TESTS += tests/spe/record.sh
dist_check_SCRIPTS += tests/spe/record.sh
TESTS += tests/spe/fields.sh
dist_check_SCRIPTS += tests/spe/fields.sh
