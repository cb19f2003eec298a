#!/bin/sh
# The runtime writes its perf.data when the program is killed (SIGTERM) or crashes (SIGSEGV),
# keeps a signal ignored at start ignored, and an instrumented child of a recorded program
# does not overwrite its parent's file.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sim/sim-lib.sh"
scratch
need perf

sim_build fs_adjacent gcc
for sig in TERM SEGV; do
	rm -f "$T/s.data"
	LINEUP_SIM_OUTPUT="$T/s.data" "$T/fs_adjacent-gcc" 1000000000000 2 >/dev/null 2>&1 &
	pid=$!
	sleep 0.5
	kill -$sig $pid
	wait $pid
	rc=$?
	[ $rc -gt 128 ] || fail "SIG$sig: the program exited with $rc, not by the signal"
	[ -s "$T/s.data" ] || fail "SIG$sig: no perf.data written"
	stores=$(c2c_stat "$T/s.data" "Store Operations")
	[ "${stores:-0}" -gt 0 ] || fail "SIG$sig: perf c2c reads no stores from the file"
done

# SIGTERM ignored by whoever started the program: it stays ignored, and the program finishes.
rm -f "$T/s.data"
(trap '' TERM; LINEUP_SIM_OUTPUT="$T/s.data" exec "$T/fs_adjacent-gcc" 3000000 2 >/dev/null 2>&1) &
pid=$!
sleep 0.1
kill -TERM $pid 2>/dev/null
wait $pid || fail "the program died of a SIGTERM it was started ignoring"
[ -s "$T/s.data" ] || fail "no perf.data after a normal exit"

# A recorded program that runs an instrumented child: the child records nothing.
rm -f "$T/s.data"
LINEUP_SIM_OUTPUT="$T/s.data" LINEUP_SIM_ACTIVE=1 "$T/fs_adjacent-gcc" 1000 2 >/dev/null 2>&1 ||
	fail "child run"
[ ! -e "$T/s.data" ] || fail "a process started with LINEUP_SIM_ACTIVE set wrote a recording"
exit 0
