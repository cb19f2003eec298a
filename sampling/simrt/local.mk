# The software collector's runtime (role: sim).  Linked into programs built with
# `lineup sim-flags`, so it is built without the sanitizers (an instrumented program has no
# ASan runtime) and position-independent; it compiles its own copies of the coherence model
# (its step inline from analyzer/coherence.h) and the perf.data writer for the same reason.
#
# Its objects are linked into one (ld -r) whose hidden symbols are then made local, so that
# the program sees only what it links against (the __tsan_ hooks and the interposed libc calls,
# visibility "default"), never the runtime's own coherence__*, perf_writer__*, simrt__*: a
# program with functions of those names (lineup itself, instrumented) links and runs.
noinst_LIBRARIES += sampling/simrt/libsimrt-parts.a
sampling_simrt_libsimrt_parts_a_SOURCES = sampling/simrt/simrt.h sampling/simrt/tsan.c \
	sampling/simrt/access.h sampling/simrt/runtime.c sampling/simrt/alloc.c sampling/simrt/locks.c \
	sampling/simrt/output.c sampling/simrt/patch.c sampling/simrt/memops.c sampling/simrt/turns.c \
	analyzer/coherence.c analyzer/coherence.h sampling/perf_writer.c sampling/perf_writer.h \
	sampling/perf_writer_host.c sampling/small_file.c sampling/small_file.h
sampling_simrt_libsimrt_parts_a_CFLAGS = $(WARN_CFLAGS) -std=gnu11 -g -O2 -fPIC \
	-fno-omit-frame-pointer -fno-sanitize=all -Wno-missing-prototypes -fvisibility=hidden
OBJCOPY = objcopy
# (installed beside the libraries: automake has no lib_DATA, hence a directory of its own)
simrtlibdir = $(libdir)
simrtlib_DATA = sampling/simrt/liblineup-sim.a sampling/simrt/lineup-sim.specs
CLEANFILES += sampling/simrt/liblineup-sim.a sampling/simrt/simrt-all.o \
	sampling/simrt/lineup-sim.specs
# gcc's -fsanitize=thread for the compiler proper only (`gcc -specs=`, what `lineup sim-flags`
# prints for gcc): a driver that never sees the option adds no libtsan to a link, so the flags
# work for a one-step `gcc prog.c $(lineup sim-flags)`.  (A specs file has no comments.)
sampling/simrt/lineup-sim.specs: Makefile
	$(AM_V_GEN)printf '*cc1:\n+ -fsanitize=thread\n\n*cc1plus:\n+ -fsanitize=thread\n\n' >$@
sampling/simrt/liblineup-sim.a: sampling/simrt/libsimrt-parts.a
	$(AM_V_GEN)rm -f $@ sampling/simrt/simrt-all.o && \
	$(CC) -r -nostdlib -o sampling/simrt/simrt-all.o \
		-Wl,--whole-archive sampling/simrt/libsimrt-parts.a -Wl,--no-whole-archive && \
	$(OBJCOPY) --localize-hidden sampling/simrt/simrt-all.o && \
	$(AR) rcs $@ sampling/simrt/simrt-all.o
EXTRA_DIST += sampling/simrt/local.mk
