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
# The patcher's libFuzzer harness (tests/fuzz/srcpatch_run.sh, needs clang), and its seeds and
# past crashes replayed through the same harness in the plain build (tests/srcpatch/fuzz_seeds.sh).
check_PROGRAMS += tests/tools/srcpatch_replay
tests_tools_srcpatch_replay_SOURCES = tests/tools/fuzz_replay.c tests/fuzz/srcpatch_fuzz.c
tests_tools_srcpatch_replay_LDADD = analyzer/libanalyzer.a util/libutil.a
TESTS += tests/srcpatch/fuzz_seeds.sh
dist_check_SCRIPTS += tests/srcpatch/fuzz_seeds.sh
tests/srcpatch/fuzz_seeds.log: tests/tools/srcpatch_replay
EXTRA_DIST += tests/fuzz/srcpatch_run.sh tests/fuzz/srcpatch-seeds/README \
	tests/fuzz/srcpatch-seeds/kernel.h tests/fuzz/srcpatch-seeds/groups.h \
	tests/fuzz/srcpatch-seeds/user.h tests/fuzz/srcpatch-seeds/eight.h \
	tests/fuzz/srcpatch-seeds/crlf.h tests/fuzz/srcpatch-seeds/nested.h \
	tests/fuzz/srcpatch-seeds/prefix-name.bin tests/fuzz/srcpatch-seeds/no-checks-left.bin \
	tests/fuzz/srcpatch-seeds/empty-old-diff.bin
