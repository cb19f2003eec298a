# Struct layouts from DWARF and BTF against pahole (role: layout).
TESTS += tests/layout/user.sh tests/layout/kmod.sh tests/layout/btf.sh tests/layout/errors.sh \
	tests/layout/libc.sh tests/layout/dwz.sh tests/layout/typeunits.sh
TESTS += tests/layout/truncated.sh tests/layout/fuzz_seeds.sh tests/layout/decl_file.sh
dist_check_SCRIPTS += tests/layout/truncated.sh tests/layout/fuzz_seeds.sh \
	tests/layout/decl_file.sh
EXTRA_DIST += tests/fuzz/seeds/elf-btf-name-offset.bin tests/fuzz/seeds/elf-member-size-overflow.bin tests/fuzz/seeds/elf-name-blowup.bin tests/fuzz/seeds/elf-btf-type-tag-loop.bin tests/layout/cycles.c
dist_check_SCRIPTS += tests/layout/user.sh tests/layout/kmod.sh tests/layout/btf.sh \
	tests/layout/errors.sh tests/layout/libc.sh tests/layout/dwz.sh tests/layout/typeunits.sh
EXTRA_DIST += tests/layout/structs.c tests/layout/hd_struct.h tests/kmod/lineup_kmod.c \
	tests/kmod/Kbuild tests/fuzz/elf_fuzz.c tests/fuzz/elf_run.sh tests/fuzz/seeds/elf-btf-outside.bin \
	tests/fuzz/seeds/elf-dwarf-cycle.bin tests/fuzz/seeds/elf-params-loop.bin \
	bench/layout.sh
check_PROGRAMS += tests/unit/layout_test
tests_unit_layout_test_SOURCES = tests/unit/layout_test.c
tests_unit_layout_test_LDADD = analyzer/libanalyzer.a util/libutil.a
TESTS += tests/unit/layout_test
# The layout constructor against gcc and clang (role: layout).
check_PROGRAMS += tests/tools/layout_check
tests_tools_layout_check_SOURCES = tests/tools/layout_check.c
tests_tools_layout_check_CFLAGS = $(AM_CFLAGS) $(LIBDW_CFLAGS) $(LIBBPF_CFLAGS)
tests_tools_layout_check_LDADD = dwarf/libdwarf.a analyzer/libanalyzer.a util/libutil.a \
	$(LIBDW_LIBS) $(LIBELF_LIBS) $(LIBBPF_LIBS)
TESTS += tests/layout/build.sh
dist_check_SCRIPTS += tests/layout/build.sh
# Type cycles in hand-edited DWARF and BTF (role: layout).
check_PROGRAMS += tests/tools/dwarf_patch
tests_tools_dwarf_patch_SOURCES = tests/tools/dwarf_patch.c
tests_tools_dwarf_patch_CFLAGS = $(AM_CFLAGS) $(LIBDW_CFLAGS)
tests_tools_dwarf_patch_LDADD = $(LIBDW_LIBS) $(LIBELF_LIBS)
TESTS += tests/layout/cycles.sh
dist_check_SCRIPTS += tests/layout/cycles.sh
# Anonymous types shared by many members at every level: refused, never an hour of output.
TESTS += tests/layout/sharing.sh
dist_check_SCRIPTS += tests/layout/sharing.sh
EXTRA_DIST += tests/tools/btf_patch.py
# Qualified arrays in both compilers' orders, as arrays (issue 20).
TESTS += tests/layout/qualarr.sh
dist_check_SCRIPTS += tests/layout/qualarr.sh
EXTRA_DIST += tests/layout/qualarr.c
# C++ types in namespaces and classes, found by name (issue 20).
TESTS += tests/layout/cxx_scopes.sh
dist_check_SCRIPTS += tests/layout/cxx_scopes.sh
# The no-DWARF message's debuglink places as clean absolute paths (issue 15, item 11).
TESTS += tests/layout/nodwarf_path.sh
dist_check_SCRIPTS += tests/layout/nodwarf_path.sh
