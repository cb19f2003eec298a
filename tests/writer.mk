# The perf.data writer, mkperf and lineup record (role: writer).

# mkperf: text scenario -> perf.data (tests/tools/mkperf.md); also the bench generator, so it is
# built by `make`, not only by `make check`.
noinst_PROGRAMS += tests/tools/mkperf
tests_tools_mkperf_SOURCES = tests/tools/mkperf.c
tests_tools_mkperf_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS)
tests_tools_mkperf_LDADD = sampling/libperfwriter.a $(LIBELF_LIBS)
EXTRA_DIST += tests/tools/mkperf.md
