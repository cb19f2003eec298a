#!/bin/sh
# (h) pthread mutexes, spinlocks and rwlocks: their lock words are in the program's data but glibc's code
# is not instrumented, so the runtime interposes the calls and models glibc's accesses.  Two
# threads' packed {mutex, counter} pairs share a line (HITMs at the lock words, from the
# pthread_mutex_lock line); a shared spinlock's line is contended from pthread_spin_lock; the
# locks still lock; lineup report agrees with perf c2c report.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sim/sim-lib.sh"
scratch
need perf

sim_build mutex_pair gcc
sim_record_contended "$T/h.data" 20 "$T/mutex_pair-gcc" 20000 2
grep -qx ok "$T/record.out" || fail "the locks misbehaved: $(cat "$T/record.out")"
c2c_pareto "$T/h.data" >"$T/pareto"
lock=$(src_line mutex_pair.c "pthread_mutex_lock(&p->lock);")
spin=$(src_line mutex_pair.c "pthread_spin_lock(&total_lock);")
# per[] is 64-byte aligned: per[0].lock.__lock at 0x0, per[1].lock.__lock at 0x30.
for off in 0x0 0x30; do
	awk -v o=$off -v s="$lock" '$5 == o && $6 == s && $2 != "0.00%"' "$T/pareto" | grep -q . ||
		fail "no HITM on the lock word at $off from $lock: $(cat "$T/pareto")"
done
awk -v s="$spin" '$6 == s && $2 != "0.00%"' "$T/pareto" | grep -q . ||
	fail "no HITM on the spinlock from $spin: $(cat "$T/pareto")"
# The reader-writer lock (64-byte aligned): readers' RMWs of __readers, offset 0x0.
rd=$(src_line mutex_pair.c "pthread_rwlock_rdlock(&table_lock);")
awk -v s="$rd" '$5 == "0x0" && $6 == s && $2 != "0.00%"' "$T/pareto" | grep -q . ||
	fail "no HITM on the rwlock's reader count from $rd: $(cat "$T/pareto")"
[ "$(c2c_stat "$T/h.data" "Locked Load/Store Operations")" -gt 0 ] || fail "no locked operations"
same_as_perf "$T/h.data"

# clang too, and the locks still work with 4 threads.
sim_build mutex_pair clang
"$LINEUP" record --sim -o "$T/h4.data" -- "$T/mutex_pair-clang" 5000 4 >"$T/out" 2>/dev/null ||
	fail "record mutex_pair-clang"
grep -qx ok "$T/out" || fail "clang build, 4 threads: $(cat "$T/out")"
exit 0
