# The layout suggester and `lineup suggest` (role: suggest).
check_PROGRAMS += tests/unit/suggest_test
tests_unit_suggest_test_SOURCES = tests/unit/suggest_test.c tests/unit/check.h
tests_unit_suggest_test_LDADD = analyzer/libanalyzer.a util/libutil.a
TESTS += tests/unit/suggest_test
check_PROGRAMS += tests/unit/suggest_layout_test
tests_unit_suggest_layout_test_SOURCES = tests/unit/suggest_layout_test.c tests/unit/check.h
tests_unit_suggest_layout_test_LDADD = analyzer/libanalyzer.a util/libutil.a
TESTS += tests/unit/suggest_layout_test
# suggest_targets.c again, under a trapping nonnull check: a NULL given to qsort is a crash
# in every build, not only in the sanitizers' (-fsanitize-undefined-trap-on-error: no runtime).
check_PROGRAMS += tests/unit/suggest_targets_test
tests_unit_suggest_targets_test_SOURCES = tests/unit/suggest_targets_test.c tests/unit/check.h \
	analyzer/suggest_targets.c
# In a plain build, a NULL handed to qsort traps (SIGILL) without UBSan's runtime; a sanitizer
# build reports it through the runtime the other objects need (trap-on-error would keep that
# runtime out of the link).
if SANITIZERS
tests_unit_suggest_targets_test_CFLAGS = $(AM_CFLAGS)
else
tests_unit_suggest_targets_test_CFLAGS = $(AM_CFLAGS) -fsanitize=nonnull-attribute \
	-fsanitize-undefined-trap-on-error
endif
tests_unit_suggest_targets_test_LDADD = analyzer/libanalyzer.a util/libutil.a -lm
TESTS += tests/unit/suggest_targets_test
TESTS += tests/suggest/workloads.sh tests/suggest/kernel.sh tests/suggest/options.sh \
	tests/suggest/watch.sh tests/suggest/align.sh tests/suggest/pool.sh \
	tests/suggest/hostile.sh tests/suggest/untrusted.sh tests/suggest/dwarf5.sh
dist_check_SCRIPTS += tests/suggest/workloads.sh tests/suggest/kernel.sh \
	tests/suggest/options.sh tests/suggest/watch.sh tests/suggest/align.sh tests/suggest/pool.sh \
	tests/suggest/hostile.sh tests/suggest/untrusted.sh tests/suggest/dwarf5.sh
# --verify's private directory (util/privdir.h).
check_PROGRAMS += tests/unit/privdir_test
tests_unit_privdir_test_SOURCES = tests/unit/privdir_test.c tests/unit/check.h
tests_unit_privdir_test_LDADD = util/libutil.a
TESTS += tests/unit/privdir_test
