# The real-program corpus (issue 16): tests/realprog/NAME.case, NAME.c (the bug) and
# NAME_fixed.c (its hand-fixed twin), each run by tests/realprog/run.sh (role: fields).
TEST_EXTENSIONS += .case
CASE_LOG_COMPILER = timeout -k 10 600 $(SHELL) $(srcdir)/tests/realprog/run.sh
EXTRA_DIST += tests/realprog/run.sh
EXTRA_DIST += tests/realprog/linreg.case tests/realprog/linreg.c tests/realprog/linreg_fixed.c
TESTS += tests/realprog/linreg.case
EXTRA_DIST += tests/realprog/lockstat.case tests/realprog/lockstat.c tests/realprog/lockstat_fixed.c
TESTS += tests/realprog/lockstat.case
EXTRA_DIST += tests/realprog/partial.case tests/realprog/partial.c tests/realprog/partial_fixed.c
TESTS += tests/realprog/partial.case
EXTRA_DIST += tests/realprog/malloc16.case tests/realprog/malloc16.c tests/realprog/malloc16_fixed.c
TESTS += tests/realprog/malloc16.case
EXTRA_DIST += tests/realprog/histo_slot.case tests/realprog/histo_slot.c \
	tests/realprog/histo_slot_fixed.c
TESTS += tests/realprog/histo_slot.case
EXTRA_DIST += tests/realprog/block_matrix.case tests/realprog/block_matrix.c \
	tests/realprog/block_matrix_fixed.c
TESTS += tests/realprog/block_matrix.case
EXTRA_DIST += tests/realprog/strmatch_bzero.case tests/realprog/strmatch_bzero.c \
	tests/realprog/strmatch_bzero_fixed.c
TESTS += tests/realprog/strmatch_bzero.case
EXTRA_DIST += tests/realprog/mailbox_memcpy.case tests/realprog/mailbox_memcpy.c \
	tests/realprog/mailbox_memcpy_fixed.c
TESTS += tests/realprog/mailbox_memcpy.case
EXTRA_DIST += tests/realprog/spinpool.case tests/realprog/spinpool.c tests/realprog/spinpool_fixed.c
TESTS += tests/realprog/spinpool.case
EXTRA_DIST += tests/realprog/refcount.case tests/realprog/refcount.c tests/realprog/refcount_fixed.c
TESTS += tests/realprog/refcount.case
EXTRA_DIST += tests/realprog/counters.case tests/realprog/counters.c tests/realprog/counters_fixed.c
TESTS += tests/realprog/counters.case
EXTRA_DIST += tests/realprog/voidp_stats.case tests/realprog/voidp_stats.c \
	tests/realprog/voidp_stats_fixed.c
TESTS += tests/realprog/voidp_stats.case
EXTRA_DIST += tests/realprog/spinlock_pool.case tests/realprog/spinlock_pool.cc \
	tests/realprog/spinlock_pool_fixed.cc
TESTS += tests/realprog/spinlock_pool.case
EXTRA_DIST += tests/realprog/flex_tail.case tests/realprog/flex_tail.c \
	tests/realprog/flex_tail_fixed.c
TESTS += tests/realprog/flex_tail.case
EXTRA_DIST += tests/realprog/flex_voidp.case tests/realprog/flex_voidp.c \
	tests/realprog/flex_voidp_fixed.c
TESTS += tests/realprog/flex_voidp.case
EXTRA_DIST += tests/realprog/arena_carve.case tests/realprog/arena_carve.c \
	tests/realprog/arena_carve_fixed.c
TESTS += tests/realprog/arena_carve.case
EXTRA_DIST += tests/realprog/static_pool.case tests/realprog/static_pool.cc \
	tests/realprog/static_pool_fixed.cc
TESTS += tests/realprog/static_pool.case
EXTRA_DIST += tests/realprog/volatile_counters.case tests/realprog/volatile_counters.c \
	tests/realprog/volatile_counters_fixed.c
TESTS += tests/realprog/volatile_counters.case
EXTRA_DIST += tests/realprog/cxx_new.case tests/realprog/cxx_new.cc tests/realprog/cxx_new_fixed.cc
TESTS += tests/realprog/cxx_new.case
EXTRA_DIST += tests/realprog/interleaved.case tests/realprog/interleaved.c \
	tests/realprog/interleaved_fixed.c
TESTS += tests/realprog/interleaved.case
EXTRA_DIST += tests/realprog/refarray.case tests/realprog/refarray.c \
	tests/realprog/refarray_fixed.c
TESTS += tests/realprog/refarray.case
EXTRA_DIST += tests/realprog/rowarray.case tests/realprog/rowarray.c \
	tests/realprog/rowarray_fixed.c
TESTS += tests/realprog/rowarray.case
