# Tracepoints, hardware-breakpoint watching, `lineup watch` (role: watch).
check_PROGRAMS += tests/watch/tpdump
tests_watch_tpdump_SOURCES = tests/watch/tpdump.c
tests_watch_tpdump_CFLAGS = $(AM_CFLAGS) $(LIBTRACEEVENT_CFLAGS)
tests_watch_tpdump_LDADD = sampling/libsampling.a util/libutil.a $(LIBTRACEEVENT_LIBS) \
	$(LIBZSTD_LIBS)
TESTS += tests/watch/tracepoints.sh
dist_check_SCRIPTS += tests/watch/tracepoints.sh
