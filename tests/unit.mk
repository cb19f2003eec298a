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
# The layering of the tree (issue 22), and a front end linked without cli/.
check_PROGRAMS += tests/tools/fields_headless
tests_tools_fields_headless_SOURCES = tests/tools/fields_headless.c
tests_tools_fields_headless_LDADD = pipeline/libpipeline.a dwarf/libdwarf.a \
	analyzer/libanalyzer.a sampling/libsampling.a util/libutil.a \
	$(LIBDW_LIBS) $(LIBELF_LIBS) $(CAPSTONE_LIBS) $(LIBBPF_LIBS) $(LIBTRACEEVENT_LIBS) \
	$(LIBPERF_LIBS) $(LIBZSTD_LIBS) -lm -lpthread
TESTS += tests/layering.sh
dist_check_SCRIPTS += tests/layering.sh
tests/layering.log: tests/tools/fields_headless
