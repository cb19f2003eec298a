# Symbols, source lines, the machine model (role: symbols).
check_PROGRAMS += tests/unit/symbolize
tests_unit_symbolize_SOURCES = tests/unit/symbolize.c
tests_unit_symbolize_LDADD = dwarf/libdwarf.a util/libutil.a $(LIBDW_LIBS) $(LIBELF_LIBS)
TESTS += tests/symbols/addr2line.sh
dist_check_SCRIPTS += tests/symbols/addr2line.sh
# resolve: perf.data samples through the machine model and the symbolizer, printed as
# `perf script -F ip,sym,dso,srcline` prints them (tests/symbols/machine.sh diffs the two).
check_PROGRAMS += tests/tools/resolve
tests_tools_resolve_SOURCES = tests/tools/resolve.c
tests_tools_resolve_LDADD = pipeline/libpipeline.a dwarf/libdwarf.a \
	analyzer/libanalyzer.a sampling/libsampling.a \
	util/libutil.a \
	$(LIBDW_LIBS) $(LIBELF_LIBS) $(CAPSTONE_LIBS) $(LIBBPF_LIBS) $(LIBTRACEEVENT_LIBS) \
	$(LIBZSTD_LIBS)
TESTS += tests/symbols/machine.sh
dist_check_SCRIPTS += tests/symbols/machine.sh
TESTS += tests/symbols/fifo.sh
dist_check_SCRIPTS += tests/symbols/fifo.sh
TESTS += tests/symbols/kmod.sh
dist_check_SCRIPTS += tests/symbols/kmod.sh
check_PROGRAMS += tests/unit/ordered_test
tests_unit_ordered_test_SOURCES = tests/unit/ordered_test.c
tests_unit_ordered_test_LDADD = sampling/libsampling.a util/libutil.a
TESTS += tests/unit/ordered_test
TESTS += tests/symbols/fuzz_elf.sh
dist_check_SCRIPTS += tests/symbols/fuzz_elf.sh
check_PROGRAMS += tests/tools/mkksym
tests_tools_mkksym_SOURCES = tests/tools/mkksym.c tests/tools/kwriter.c tests/tools/kwriter.h
tests_tools_mkksym_LDADD = sampling/libperfwriter.a
TESTS += tests/symbols/ksymbol.sh
dist_check_SCRIPTS += tests/symbols/ksymbol.sh
TESTS += tests/symbols/fixtures.sh
dist_check_SCRIPTS += tests/symbols/fixtures.sh
TESTS += tests/symbols/vmlinux.sh
dist_check_SCRIPTS += tests/symbols/vmlinux.sh
EXTRA_DIST += tests/symbols/fakek.sh
TESTS += tests/symbols/recordings.sh
dist_check_SCRIPTS += tests/symbols/recordings.sh
TESTS += tests/symbols/percpu.sh
dist_check_SCRIPTS += tests/symbols/percpu.sh
# Shared setup of the tests/symbols/*.sh oracles, sourced by them.
EXTRA_DIST += tests/symbols/lib-symbols.sh
TESTS += tests/symbols/debuglink_fifo.sh
dist_check_SCRIPTS += tests/symbols/debuglink_fifo.sh
# The attribution side's libFuzzer harness, replayed without libFuzzer on its seeds and finds
# (tests/fuzz/debuginfo_run.sh fuzzes with it; CI runs that).
check_PROGRAMS += tests/fuzz/debuginfo_replay
tests_fuzz_debuginfo_replay_SOURCES = tests/fuzz/debuginfo_fuzz.c tests/fuzz/fuzz_main.c
tests_fuzz_debuginfo_replay_CFLAGS = $(AM_CFLAGS) $(LIBDW_CFLAGS) $(CAPSTONE_CFLAGS)
tests_fuzz_debuginfo_replay_LDADD = dwarf/libdwarf.a analyzer/libanalyzer.a util/libutil.a \
	$(LIBDW_LIBS) $(LIBELF_LIBS) $(CAPSTONE_LIBS) $(LIBBPF_LIBS)
TESTS += tests/symbols/fuzz_debuginfo.sh
dist_check_SCRIPTS += tests/symbols/fuzz_debuginfo.sh
EXTRA_DIST += tests/fuzz/debuginfo_run.sh tests/fuzz/debuginfo_seed.c \
	tests/fuzz/debuginfo_seed.cc tests/fuzz/seeds/debuginfo-getscopes-leak.bin \
	tests/fuzz/seeds/debuginfo-no-functions.bin tests/fuzz/seeds/debuginfo-trace-leak.bin \
	tests/fuzz/seeds/debuginfo-name-cycle.bin tests/fuzz/seeds/debuginfo-member-fanout.bin
