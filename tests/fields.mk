# Field attribution and `lineup fields` (role: fields).
check_PROGRAMS += tests/unit/attribution_test
tests_unit_attribution_test_SOURCES = tests/unit/attribution_test.c tests/unit/check.h
tests_unit_attribution_test_LDADD = analyzer/libanalyzer.a util/libutil.a
TESTS += tests/unit/attribution_test
check_PROGRAMS += tests/unit/fields_test
tests_unit_fields_test_SOURCES = tests/unit/fields_test.c tests/unit/check.h
tests_unit_fields_test_LDADD = analyzer/libanalyzer.a util/libutil.a
TESTS += tests/unit/fields_test
check_PROGRAMS += tests/fields/mkkern
tests_fields_mkkern_SOURCES = tests/fields/mkkern.c tests/tools/kwriter.c tests/tools/kwriter.h
tests_fields_mkkern_LDADD = sampling/libperfwriter.a
TESTS += tests/fields/kernel.sh
dist_check_SCRIPTS += tests/fields/kernel.sh
EXTRA_DIST += tests/kmod/lineup_touch.c
TESTS += tests/fields/workloads.sh
dist_check_SCRIPTS += tests/fields/workloads.sh
TESTS += tests/fields/bad_input.sh
dist_check_SCRIPTS += tests/fields/bad_input.sh
TESTS += tests/fields/report.sh
dist_check_SCRIPTS += tests/fields/report.sh
TESTS += tests/fields/many_allocs.sh
dist_check_SCRIPTS += tests/fields/many_allocs.sh
check_PROGRAMS += tests/fields/kmemmix
tests_fields_kmemmix_SOURCES = tests/fields/kmemmix.c tests/fields/kmemmix_read.c \
	tests/fields/kmemmix.h
tests_fields_kmemmix_CFLAGS = $(AM_CFLAGS) $(LIBTRACEEVENT_CFLAGS)
tests_fields_kmemmix_LDADD = sampling/libsampling.a sampling/libperfwriter.a util/libutil.a \
	$(LIBTRACEEVENT_LIBS) $(LIBZSTD_LIBS)
TESTS += tests/fields/kmem.sh
dist_check_SCRIPTS += tests/fields/kmem.sh
TESTS += tests/fields/outputs.sh
dist_check_SCRIPTS += tests/fields/outputs.sh
EXTRA_DIST += tests/fields/kscenario.sh
TESTS += tests/fields/typedef.sh
dist_check_SCRIPTS += tests/fields/typedef.sh
EXTRA_DIST += tests/fields/lreg.c
