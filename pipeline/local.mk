# The joins: a recording, debug info and the analyzer brought together for a command (DESIGN.md).
# Linked after cli/ and tui/, before sampling/libsession.a, dwarf/ and analyzer/.
noinst_LIBRARIES += pipeline/libpipeline.a
pipeline_libpipeline_a_SOURCES = pipeline/suggest_verify.c pipeline/suggest_verify.h
