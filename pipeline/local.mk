# The joins (DESIGN.md): a recording, debug info and the analyzer brought together for a
# command; linked after cli/ and tui/, before the layers they join.
noinst_LIBRARIES += pipeline/libpipeline.a
pipeline_libpipeline_a_CFLAGS = $(AM_CFLAGS) $(LIBTRACEEVENT_CFLAGS)
# The evidence of attribution joined (fields_attr), the fields pipeline on it (fields_load),
# the c2c pipeline (c2c_load), report --fields' columns (report_fields), the census
# (sim_census), the suggestion's pipeline (suggest_load) and --verify (suggest_verify).
pipeline_libpipeline_a_SOURCES = \
	pipeline/fields_attr.c pipeline/fields_attr.h pipeline/fields_load.c pipeline/fields_load.h \
	pipeline/sim_census.c pipeline/sim_census.h pipeline/report_fields.c pipeline/report_fields.h \
	pipeline/c2c_load.c pipeline/c2c_load.h \
	pipeline/suggest_load.c pipeline/suggest_load.h \
	pipeline/suggest_verify.c pipeline/suggest_verify.h \
	pipeline/recording.c pipeline/recording.h
# What a kernel object that watch follows is: a file's path, an allocation's call chain (its
# memory read through dwarf/code.h, its offsets from dwarf/layout.h's BTF).
pipeline_libpipeline_a_SOURCES += pipeline/kobject.c pipeline/kobject.h
# The collector runner (record --sim) and the watch engine (its tables: analyzer/watch_table.h).
pipeline_libpipeline_a_SOURCES += pipeline/watch_run.c pipeline/watch_run.h
pipeline_libpipeline_a_SOURCES += pipeline/sim_run.c pipeline/sim_run.h
