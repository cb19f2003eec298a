noinst_LIBRARIES += dwarf/libdwarf.a
dwarf_libdwarf_a_SOURCES = dwarf/layer.c
dwarf_libdwarf_a_CFLAGS = $(AM_CFLAGS) $(LIBDW_CFLAGS) $(CAPSTONE_CFLAGS) $(LIBBPF_CFLAGS)
