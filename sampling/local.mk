noinst_LIBRARIES += sampling/libsampling.a
sampling_libsampling_a_SOURCES = sampling/layer.c
sampling_libsampling_a_CFLAGS = $(AM_CFLAGS) $(LIBPERF_CFLAGS) $(LIBTRACEEVENT_CFLAGS) $(LIBZSTD_CFLAGS)
