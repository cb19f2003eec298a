# The source side of suggest: moving member declarations, the groups, the diff (role: srcpatch).
check_PROGRAMS += tests/tools/srcpatch_run
tests_tools_srcpatch_run_SOURCES = tests/tools/srcpatch_run.c
tests_tools_srcpatch_run_LDADD = analyzer/libanalyzer.a util/libutil.a
check_PROGRAMS += tests/unit/srcpatch_test
tests_unit_srcpatch_test_SOURCES = tests/unit/srcpatch_test.c tests/unit/check.h
tests_unit_srcpatch_test_LDADD = analyzer/libanalyzer.a util/libutil.a
TESTS += tests/unit/srcpatch_test
SRCPATCH_TESTS = tests/srcpatch/kernel.sh tests/srcpatch/compile.sh tests/srcpatch/crlf.sh \
	tests/srcpatch/pack.sh
TESTS += $(SRCPATCH_TESTS)
dist_check_SCRIPTS += $(SRCPATCH_TESTS)
$(SRCPATCH_TESTS:.sh=.log): tests/tools/srcpatch_run
check_PROGRAMS += tests/unit/srcpatch_alloc_test
tests_unit_srcpatch_alloc_test_SOURCES = tests/unit/srcpatch_alloc_test.c tests/unit/check.h
tests_unit_srcpatch_alloc_test_LDADD = analyzer/libanalyzer.a util/libutil.a
TESTS += tests/unit/srcpatch_alloc_test
