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
# The session: the reader, the ordered events and the machine joined (pipeline/recording.c
# adds dwarf/'s symbolizer).
sampling_libsampling_a_SOURCES += sampling/session.c sampling/session.h sampling/event.h
