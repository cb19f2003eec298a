noinst_LIBRARIES += sampling/libsampling.a
sampling_libsampling_a_SOURCES =
# The perf.data reader.
sampling_libsampling_a_SOURCES += sampling/perf_file.c sampling/perf_file.h sampling/perf_bytes.h \
	sampling/perf_header.c sampling/perf_header.h sampling/perf_attr.c sampling/perf_sample.c
sampling_libsampling_a_SOURCES += sampling/machine.c sampling/machine.h
# The running machine: kallsyms, kernel and process maps (libc only).
sampling_libsampling_a_SOURCES += sampling/host.c sampling/host.h
sampling_libsampling_a_CFLAGS = $(AM_CFLAGS) $(LIBPERF_CFLAGS) $(LIBTRACEEVENT_CFLAGS) $(LIBZSTD_CFLAGS)
sampling_libsampling_a_SOURCES += sampling/tracefs.c sampling/tracefs.h \
	sampling/tracepoint.c sampling/tracepoint.h
# The perf.data writer: libc only, so the software collector's runtime links it too.
noinst_LIBRARIES += sampling/libperfwriter.a
sampling_libperfwriter_a_SOURCES = sampling/perf_writer.c sampling/perf_writer.h \
	sampling/perf_writer_host.c sampling/small_file.c sampling/small_file.h
sampling_libsampling_a_SOURCES += sampling/watch.c sampling/watch.h
include sampling/simrt/local.mk
sampling_libsampling_a_SOURCES += sampling/pmu.c sampling/pmu.h
sampling_libsampling_a_SOURCES += sampling/recorder.c sampling/recorder.h
sampling_libsampling_a_SOURCES += sampling/ordered_events.c sampling/ordered_events.h
sampling_libsampling_a_SOURCES += sampling/sample_layout.c sampling/sample_layout.h
sampling_libsampling_a_SOURCES += sampling/arm_spe.c sampling/arm_spe.h
sampling_libsampling_a_SOURCES += sampling/aux_ring.c sampling/aux_ring.h
# Launching a command: the one fork/exec of every command that runs one.
sampling_libsampling_a_SOURCES += sampling/workload.c sampling/workload.h
sampling_libsampling_a_SOURCES += sampling/timed_run.c sampling/timed_run.h
# The session: the reader, the ordered events, the machine and the symbolizer joined; the
# evidence of attribution joined (sampling/fields_attr.c); the fields pipeline on them
# (sampling/fields_load.c), the c2c pipeline (c2c_load.c), report --fields' columns
# (report_fields.c), the census (sim_census.c) and the suggestion's pipeline (suggest_load.c).  They use dwarf/'s symbols and answers, so they are linked before
# dwarf/libdwarf.a.
noinst_LIBRARIES += sampling/libsession.a
sampling_libsession_a_SOURCES = sampling/session.c sampling/session.h \
	sampling/fields_attr.c sampling/fields_attr.h sampling/fields_load.c sampling/fields_load.h \
	sampling/sim_census.c sampling/sim_census.h sampling/report_fields.c sampling/report_fields.h \
	sampling/c2c_load.c sampling/c2c_load.h \
	sampling/suggest_load.c sampling/suggest_load.h
# What a kernel object that watch follows is: a file's path, an allocation's call chain (its
# memory read through dwarf/code.h, its offsets from dwarf/layout.h's BTF).
sampling_libsession_a_SOURCES += sampling/kobject.c sampling/kobject.h
sampling_libsession_a_CFLAGS = $(AM_CFLAGS) $(LIBTRACEEVENT_CFLAGS)
