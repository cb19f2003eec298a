# Symbols, source lines, the machine model (role: symbols).
check_PROGRAMS += tests/unit/symbolize
tests_unit_symbolize_SOURCES = tests/unit/symbolize.c
tests_unit_symbolize_LDADD = dwarf/libdwarf.a util/libutil.a $(LIBDW_LIBS) $(LIBELF_LIBS)
TESTS += tests/symbols/addr2line.sh
dist_check_SCRIPTS += tests/symbols/addr2line.sh
