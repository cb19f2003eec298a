# Tracepoints, hardware-breakpoint watching, `lineup watch` (role: watch).
check_PROGRAMS += tests/watch/tpdump
tests_watch_tpdump_SOURCES = tests/watch/tpdump.c
tests_watch_tpdump_CFLAGS = $(AM_CFLAGS) $(LIBTRACEEVENT_CFLAGS)
tests_watch_tpdump_LDADD = sampling/libsampling.a util/libutil.a $(LIBTRACEEVENT_LIBS) \
	$(LIBZSTD_LIBS)
TESTS += tests/watch/tracepoints.sh
dist_check_SCRIPTS += tests/watch/tracepoints.sh
check_PROGRAMS += tests/watch/classify_test
tests_watch_classify_test_SOURCES = tests/watch/classify_test.c
tests_watch_classify_test_LDADD = dwarf/libdwarf.a util/libutil.a $(CAPSTONE_LIBS) $(LIBBPF_LIBS) \
	$(LIBDW_LIBS) $(LIBELF_LIBS)
TESTS += tests/watch/classify_test
TESTS += tests/watch/kernel.sh tests/watch/rotate.sh tests/watch/user.sh tests/watch/errors.sh \
	tests/watch/pair.sh tests/watch/object.sh tests/watch/output.sh
dist_check_SCRIPTS += tests/watch/output.sh
TESTS += tests/watch/cover.sh
dist_check_SCRIPTS += tests/watch/cover.sh
dist_check_SCRIPTS += tests/watch/kernel.sh tests/watch/rotate.sh tests/watch/user.sh \
	tests/watch/errors.sh tests/watch/pair.sh tests/watch/lib-watch.sh tests/watch/object.sh
check_PROGRAMS += tests/watch/tracing_data_test
tests_watch_tracing_data_test_SOURCES = tests/watch/tracing_data_test.c
tests_watch_tracing_data_test_LDADD = sampling/libsampling.a util/libutil.a $(LIBTRACEEVENT_LIBS)
TESTS += tests/watch/tracing_data_test
EXTRA_DIST += tests/fuzz/tracepoint_fuzz.c tests/fuzz/tracepoint_run.sh \
	tests/fuzz/seeds/tracepoint-kmem.bin tests/fuzz/seeds/tracepoint-crash-signed.bin \
	tests/fuzz/seeds/tracepoint-unterminated.bin
# Workloads the scripts build themselves (normally, without the sanitizer flags).
EXTRA_DIST += tests/watch/sharedfd.c tests/watch/gstruct.c
check_PROGRAMS += tests/watch/replay_test
tests_watch_replay_test_SOURCES = tests/watch/replay_test.c
tests_watch_replay_test_LDADD = analyzer/libanalyzer.a util/libutil.a
TESTS += tests/watch/replay_test
check_PROGRAMS += tests/unit/watch_object_test
tests_unit_watch_object_test_SOURCES = tests/unit/watch_object_test.c tests/unit/check.h
tests_unit_watch_object_test_LDADD = analyzer/libanalyzer.a util/libutil.a
TESTS += tests/unit/watch_object_test
check_PROGRAMS += tests/watch/setpoints_test
tests_watch_setpoints_test_SOURCES = tests/watch/setpoints_test.c
tests_watch_setpoints_test_LDADD = sampling/libsampling.a util/libutil.a $(LIBTRACEEVENT_LIBS) \
	$(LIBPERF_LIBS) $(LIBZSTD_LIBS)
TESTS += tests/watch/setpoints_test
TESTS += tests/watch/tables.sh
dist_check_SCRIPTS += tests/watch/tables.sh
# What each followed object is: a file's path, an allocation's call chain (issue 15, item 11).
TESTS += tests/watch/naming.sh
dist_check_SCRIPTS += tests/watch/naming.sh
EXTRA_DIST += tests/watch/pipeloop.c tests/watch/holdfile.c
# One section per object followed (issue 15, item 11).
TESTS += tests/watch/sections.sh
dist_check_SCRIPTS += tests/watch/sections.sh
