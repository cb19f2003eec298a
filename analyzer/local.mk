noinst_LIBRARIES += analyzer/libanalyzer.a
analyzer_libanalyzer_a_SOURCES =
analyzer_libanalyzer_a_CFLAGS = $(AM_CFLAGS)
analyzer_libanalyzer_a_SOURCES += analyzer/layout.c analyzer/layout_print.c analyzer/layout.h
analyzer_libanalyzer_a_SOURCES += analyzer/flat_layout.c analyzer/flat_layout.h \
	analyzer/attribution.c analyzer/attribution.h \
	analyzer/attr_engine.c analyzer/attr_engine.h \
	analyzer/fields.c analyzer/fields.h analyzer/id_set.c analyzer/id_set.h \
	analyzer/suggest.c analyzer/suggest.h analyzer/suggest_text.c analyzer/suggest_text.h \
	analyzer/suggest_layout.c analyzer/suggest_layout.h \
	analyzer/array_align.c analyzer/array_align.h \
	analyzer/suggest_targets.c analyzer/suggest_targets.h
analyzer_libanalyzer_a_SOURCES += analyzer/coherence.c analyzer/coherence.h
analyzer_libanalyzer_a_SOURCES += analyzer/data_src.c analyzer/data_src.h analyzer/c2c.c \
	analyzer/c2c.h analyzer/c2c_columns.c analyzer/c2c_columns.h
analyzer_libanalyzer_a_SOURCES += analyzer/watch_replay.c analyzer/watch_replay.h \
	analyzer/watch_object.c analyzer/watch_object.h
analyzer_libanalyzer_a_SOURCES += analyzer/callchain.c analyzer/callchain.h
analyzer_libanalyzer_a_SOURCES += analyzer/table.c analyzer/table.h
analyzer_libanalyzer_a_SOURCES += analyzer/srcpatch.c analyzer/srcpatch.h analyzer/srcpatch_diff.c \
	analyzer/srcpatch_alloc.c
analyzer_libanalyzer_a_SOURCES += analyzer/abstat.c analyzer/abstat.h
analyzer_libanalyzer_a_SOURCES += analyzer/fields_diff.c analyzer/fields_diff.h \
	analyzer/fields_diff_table.c analyzer/fields_diff_table.h
analyzer_libanalyzer_a_SOURCES += analyzer/fields_table.c analyzer/fields_table.h
analyzer_libanalyzer_a_SOURCES += analyzer/watch_table.c analyzer/watch_table.h
# Which structs and lines a fields report shows (cli and the browser alike).
analyzer_libanalyzer_a_SOURCES += analyzer/fields_view.c analyzer/fields_view.h
