# The perf.data reader (sampling/perf_file.*) and `lineup info`.
TESTS += tests/reader/oracle.sh tests/reader/corrupt.sh tests/reader/record.sh \
	tests/reader/features.sh tests/reader/header.sh
dist_check_SCRIPTS += tests/reader/oracle.sh tests/reader/corrupt.sh tests/reader/record.sh \
	tests/reader/features.sh tests/reader/header.sh

check_PROGRAMS += tests/unit/reader_test
TESTS += tests/unit/reader_test
tests_unit_reader_test_SOURCES = tests/unit/reader_test.c
tests_unit_reader_test_LDADD = sampling/libsampling.a util/libutil.a $(LIBZSTD_LIBS)

# libFuzzer harness of the reader: `make fuzz [FUZZ_SECONDS=60]` (needs clang; not built by
# default).  CI: tests/fuzz/run.sh (exit 77 when clang is missing).
EXTRA_DIST += tests/fuzz/reader_fuzz.c tests/fuzz/run.sh tests/fuzz/reader-seeds/README \
	tests/fuzz/reader-seeds/zstd-file.data tests/fuzz/reader-seeds/zstd-pipe.data \
	tests/fuzz/reader-seeds/be-ctx_switch.data tests/fuzz/reader-seeds/be-pipe-group.data
FUZZ_SECONDS = 60
fuzz:
	CLANG='$(CLANG)' FIXTURES='$(abs_top_srcdir)/tests/fixtures/perf-data' \
		$(SHELL) $(top_srcdir)/tests/fuzz/run.sh $(FUZZ_SECONDS)
.PHONY: fuzz

# perfswap: a little-endian recording rewritten as a big-endian machine writes it.
check_PROGRAMS += tests/tools/perfswap
tests_tools_perfswap_SOURCES = tests/tools/perfswap.c
tests_tools_perfswap_LDADD = sampling/libsampling.a util/libutil.a $(LIBZSTD_LIBS)
TESTS += tests/reader/swap.sh
dist_check_SCRIPTS += tests/reader/swap.sh

# The fixed-layout sample reader against the full decoder.
check_PROGRAMS += tests/unit/sample_layout_test
TESTS += tests/unit/sample_layout_test
tests_unit_sample_layout_test_SOURCES = tests/unit/sample_layout_test.c
tests_unit_sample_layout_test_LDADD = sampling/libsampling.a util/libutil.a $(LIBZSTD_LIBS)
