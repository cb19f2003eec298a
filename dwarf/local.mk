noinst_LIBRARIES += dwarf/libdwarf.a
dwarf_libdwarf_a_SOURCES =
dwarf_libdwarf_a_SOURCES += dwarf/symbols.c dwarf/symbols.h
dwarf_libdwarf_a_CFLAGS = $(AM_CFLAGS) $(LIBDW_CFLAGS) $(CAPSTONE_CFLAGS) $(LIBBPF_CFLAGS)
dwarf_libdwarf_a_SOURCES += dwarf/layout.c dwarf/layout.h dwarf/dwarf_types.c dwarf/dwarf_types.h \
	dwarf/btf.c dwarf/debuginfo.c dwarf/debuginfo.h dwarf/srcfile.c dwarf/srcfile.h
dwarf_libdwarf_a_SOURCES += dwarf/code.c dwarf/code.h
dwarf_libdwarf_a_SOURCES += dwarf/vartype.c dwarf/vartype.h dwarf/type_index.c dwarf/type_index.h
