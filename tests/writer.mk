# The perf.data writer, mkperf and lineup record (role: writer).

# mkperf: text scenario -> perf.data (tests/tools/mkperf.md); also the bench generator, so it is
# built by `make`, not only by `make check`.
noinst_PROGRAMS += tests/tools/mkperf
tests_tools_mkperf_SOURCES = tests/tools/mkperf.c
tests_tools_mkperf_CFLAGS = $(AM_CFLAGS) $(LIBELF_CFLAGS)
tests_tools_mkperf_LDADD = sampling/libperfwriter.a $(LIBELF_LIBS)
EXTRA_DIST += tests/tools/mkperf.md

TESTS += tests/writer/perf_roundtrip.sh
dist_check_SCRIPTS += tests/writer/perf_roundtrip.sh
TESTS += tests/writer/c2c_classes.sh
dist_check_SCRIPTS += tests/writer/c2c_classes.sh
check_PROGRAMS += tests/unit/perf_writer_test
tests_unit_perf_writer_test_SOURCES = tests/unit/perf_writer_test.c
tests_unit_perf_writer_test_LDADD = sampling/libperfwriter.a
TESTS += tests/unit/perf_writer_test
TESTS += tests/writer/host_header.sh
dist_check_SCRIPTS += tests/writer/host_header.sh
check_PROGRAMS += tests/unit/pmu_test
tests_unit_pmu_test_SOURCES = tests/unit/pmu_test.c
tests_unit_pmu_test_LDADD = sampling/libsampling.a sampling/libperfwriter.a util/libutil.a
TESTS += tests/unit/pmu_test
TESTS += tests/writer/record.sh tests/writer/record_user.sh
dist_check_SCRIPTS += tests/writer/record.sh tests/writer/record_user.sh
TESTS += tests/writer/tracing_data.sh
dist_check_SCRIPTS += tests/writer/tracing_data.sh
# samples: TID and ADDR of every sample as lineup's reader decodes them (record.sh)
check_PROGRAMS += tests/tools/samples
tests_tools_samples_SOURCES = tests/tools/samples.c
tests_tools_samples_LDADD = sampling/libsampling.a util/libutil.a $(LIBZSTD_LIBS)
# The running machine's facts (sampling/host.h): kallsyms, kernel and process maps.
check_PROGRAMS += tests/unit/host_test
tests_unit_host_test_SOURCES = tests/unit/host_test.c tests/unit/check.h
tests_unit_host_test_LDADD = sampling/libsampling.a util/libutil.a
TESTS += tests/unit/host_test
check_PROGRAMS += tests/unit/workload_test
tests_unit_workload_test_SOURCES = tests/unit/workload_test.c tests/unit/check.h
tests_unit_workload_test_LDADD = sampling/libsampling.a util/libutil.a
TESTS += tests/unit/workload_test
