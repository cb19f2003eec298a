# The software collector: coherence model, runtime, workloads (role: sim).
check_PROGRAMS += tests/unit/coherence_test
tests_unit_coherence_test_SOURCES = tests/unit/coherence_test.c tests/unit/check.h
tests_unit_coherence_test_LDADD = analyzer/libanalyzer.a
TESTS += tests/unit/coherence_test

SIM_TESTS = tests/sim/flags.sh tests/sim/false_sharing.sh tests/sim/struct_file.sh \
	tests/sim/true_sharing.sh tests/sim/redundant_rmw.sh tests/sim/signals.sh tests/sim/locks.sh \
	tests/sim/sampling.sh tests/sim/patch.sh tests/sim/ends.sh tests/sim/output.sh \
	tests/sim/onestep.sh tests/sim/overlap.sh tests/sim/memwrites.sh tests/sim/turns.sh
TESTS += $(SIM_TESTS)
dist_check_SCRIPTS += $(SIM_TESTS)
EXTRA_DIST += tests/sim/sim-lib.sh tests/workloads/workload.h tests/workloads/counters.h \
	tests/workloads/fs_adjacent.c tests/workloads/fs_padded.c tests/workloads/struct_file.c \
	tests/workloads/percpu_stats.c tests/workloads/atomic_counter.c \
	tests/workloads/histogram.c tests/workloads/flag_word.c tests/workloads/abi.c \
	tests/workloads/mutex_pair.c tests/workloads/memwrites.c tests/workloads/key_clear.c \
	tests/workloads/blocking.c
# The tests build workloads with the runtime.
$(SIM_TESTS:.sh=.log): sampling/simrt/liblineup-sim.a lineup
