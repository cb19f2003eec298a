# The software collector's runtime (role: sim).  Linked into programs built with
# `lineup sim-flags`, so it is built without the sanitizers (an instrumented program has no
# ASan runtime) and position-independent; it compiles its own copies of the coherence model
# and the perf.data writer for the same reason.
lib_LIBRARIES += sampling/simrt/liblineup-sim.a
sampling_simrt_liblineup_sim_a_SOURCES = sampling/simrt/simrt.h sampling/simrt/tsan.c \
	sampling/simrt/access.h sampling/simrt/runtime.c sampling/simrt/alloc.c sampling/simrt/locks.c \
	sampling/simrt/output.c sampling/simrt/patch.c \
	analyzer/coherence.h sampling/perf_writer.c sampling/perf_writer.h \
	sampling/perf_writer_host.c sampling/small_file.c sampling/small_file.h
sampling_simrt_liblineup_sim_a_CFLAGS = $(WARN_CFLAGS) -std=gnu11 -g -O2 -fPIC \
	-fno-omit-frame-pointer -fno-sanitize=all -Wno-missing-prototypes
EXTRA_DIST += sampling/simrt/local.mk
