# The source side of suggest: moving member declarations, the groups, the diff (role: srcpatch).
check_PROGRAMS += tests/tools/srcpatch_run
tests_tools_srcpatch_run_SOURCES = tests/tools/srcpatch_run.c
tests_tools_srcpatch_run_LDADD = analyzer/libanalyzer.a util/libutil.a
