noinst_LIBRARIES += analyzer/libanalyzer.a
analyzer_libanalyzer_a_SOURCES = analyzer/layer.c
analyzer_libanalyzer_a_CFLAGS = $(AM_CFLAGS)
