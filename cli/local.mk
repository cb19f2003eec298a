bin_PROGRAMS += lineup
lineup_SOURCES = cli/main.c cli/command.h cli/options.c cli/commands.c cli/cmd_help.c
lineup_CFLAGS = $(AM_CFLAGS) $(LIBDW_CFLAGS) $(LIBPERF_CFLAGS)
# Layer libraries, most dependent first.
lineup_LDADD = tui/libtui.a pipeline/libpipeline.a dwarf/libdwarf.a analyzer/libanalyzer.a \
	sampling/libsampling.a \
	util/libutil.a $(NCURSESW_LIBS) $(LIBDW_LIBS) $(LIBELF_LIBS) $(CAPSTONE_LIBS) \
	$(LIBBPF_LIBS) $(LIBTRACEEVENT_LIBS) $(LIBPERF_LIBS) $(LIBZSTD_LIBS) -lm -lpthread
lineup_LDADD += sampling/libperfwriter.a
lineup_SOURCES += cli/cmd_layout.c
lineup_SOURCES += cli/cmd_info.c
lineup_SOURCES += cli/cmd_simflags.c
lineup_CPPFLAGS = $(AM_CPPFLAGS) -DLINEUP_LIBDIR='"$(libdir)"'
lineup_SOURCES += cli/cmd_report.c
lineup_SOURCES += cli/cmd_fields.c
lineup_SOURCES += cli/cmd_watch.c
lineup_SOURCES += cli/cmd_record.c
lineup_SOURCES += cli/cmd_demo.c
lineup_CPPFLAGS += -DLINEUP_SRCDIR='"$(abs_top_srcdir)"' -DLINEUP_DATADIR='"$(pkgdatadir)"'
# The demo's workloads, installed so that an installed lineup can run `lineup demo` too.
workloadsdir = $(pkgdatadir)/workloads
dist_workloads_DATA = tests/workloads/workload.h tests/workloads/counters.h \
	tests/workloads/struct_file.c tests/workloads/fs_adjacent.c tests/workloads/fs_padded.c \
	tests/workloads/atomic_counter.c tests/workloads/percpu_stats.c \
	tests/workloads/histogram.c tests/workloads/flag_word.c
lineup_SOURCES += cli/output.c cli/output.h
lineup_SOURCES += cli/cmd_ab.c
lineup_SOURCES += cli/cmd_suggest.c
lineup_SOURCES += cli/cmd_diff.c
