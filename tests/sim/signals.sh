#!/bin/sh
# The runtime writes its perf.data when the program is killed (SIGTERM) or crashes (SIGSEGV),
# keeps a signal ignored at start ignored; run without lineup, or as an instrumented child of a
# recorded program, it writes nothing.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sim/sim-lib.sh"
scratch
need perf
ulimit -c 0 2>/dev/null	# the crashes below are on purpose: no core files

sim_build fs_adjacent gcc
for sig in TERM SEGV; do
	rm -f "$T/s.data"
	LINEUP_SIM_OUTPUT="$T/s.data" "$T/fs_adjacent-gcc" 1000000000000 2 >/dev/null 2>&1 &
	pid=$!
	# Once its two threads run (the runtime's handlers are in by then): a busy machine can
	# take seconds to get there.
	for i in $(seq 150); do
		[ "$(ls "/proc/$pid/task" 2>/dev/null | wc -l)" -ge 3 ] && break
		sleep 0.2
	done
	sleep 0.3
	kill -$sig $pid
	wait $pid
	rc=$?
	[ $rc -gt 128 ] || fail "SIG$sig: the program exited with $rc, not by the signal"
	[ -s "$T/s.data" ] || fail "SIG$sig: no perf.data written"
	stores=$(c2c_stat "$T/s.data" "Store Operations")
	[ "${stores:-0}" -gt 0 ] || fail "SIG$sig: perf c2c reads no stores from the file"
done

# ^C during `lineup record --sim`: the program gets SIGINT (re-enabled here: a background job
# of a script starts with SIGINT ignored), writes its recording and dies of it; lineup record
# waits for it, says so, and exits 0 with a readable file.
if command -v python3 >/dev/null && command -v pgrep >/dev/null; then
	rm -f "$T/s.data"
	python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$LINEUP" record --sim -o "$T/s.data" -- \
		"$T/fs_adjacent-gcc" 1000000000000 2 >/dev/null 2>"$T/int.err" &
	rec=$!
	# Never wait unbounded on an unbounded workload: whatever happens below, both go in 120 s.
	( sleep 120; kill -KILL $rec $(pgrep -P $rec) 2>/dev/null ) >/dev/null 2>&1 &
	watchdog=$!
	# The workload is the child of lineup record whose executable is the workload (lineup may
	# have other, short-lived children).
	prog=
	for i in $(seq 1 50); do
		sleep 0.2
		for c in $(pgrep -P $rec); do
			[ "$(readlink "/proc/$c/exe" 2>/dev/null)" = "$T/fs_adjacent-gcc" ] && prog=$c
		done
		[ -n "$prog" ] && break
	done
	[ -n "$prog" ] || { kill -KILL $rec $watchdog $(pgrep -P $watchdog) 2>/dev/null; fail "no workload process under lineup record"; }
	sleep 0.3
	kill -INT $prog
	wait $rec || { kill $watchdog $(pgrep -P $watchdog) 2>/dev/null; fail "lineup record --sim exited $? after the program's SIGINT: $(cat "$T/int.err")"; }
	kill $watchdog $(pgrep -P $watchdog) 2>/dev/null
	grep -q "killed by signal 2" "$T/int.err" || fail "no word of the SIGINT: $(cat "$T/int.err")"
	[ "$(c2c_stat "$T/s.data" "Store Operations")" -gt 0 ] || fail "SIGINT: no readable recording"
fi

# A real crash (a store through NULL) and abort(), after some contended work: the handler writes
# the recording, then the program dies of its signal as it would have.
cat >"$T/crash.c" <<'CEOF'
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
static _Atomic long counter;
static void *work(void *arg) { for (long i = 0; i < 200000; i++) counter++; return arg; }
int main(int argc, char **argv)
{
	pthread_t t[2];
	for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, work, NULL);
	for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
	if (!strcmp(argv[1], "abort")) abort();
	*(volatile long *)(intptr_t)(argc - 2) = counter;	/* NULL */
	return 0;
}
CEOF
"$CC" $("$LINEUP" sim-flags --cflags) -O1 -c -o "$T/crash.o" "$T/crash.c" &&
	"$CC" -o "$T/crash" "$T/crash.o" $("$LINEUP" sim-flags --libs) || fail "build crash.c"
for how in segv abort; do
	rm -f "$T/s.data"
	LINEUP_SIM_OUTPUT="$T/s.data" "$T/crash" $how 2>/dev/null
	rc=$?
	case $how in segv) want=139 ;; abort) want=134 ;; esac
	[ $rc -eq $want ] || fail "$how: exit status $rc, not $want"
	[ -s "$T/s.data" ] || fail "$how: no perf.data written"
	[ "$(c2c_stat "$T/s.data" "Locked Load/Store Operations")" -gt 0 ] ||
		fail "$how: perf c2c reads no locked operations from the file"
done

# SIGTERM ignored by whoever started the program: it stays ignored, and the program finishes.
rm -f "$T/s.data"
(trap '' TERM; LINEUP_SIM_OUTPUT="$T/s.data" exec "$T/fs_adjacent-gcc" 3000000 2 >/dev/null 2>&1) &
pid=$!
sleep 0.1
kill -TERM $pid 2>/dev/null
wait $pid || fail "the program died of a SIGTERM it was started ignoring"
[ -s "$T/s.data" ] || fail "no perf.data after a normal exit"

# Run as a plain program (no LINEUP_SIM_OUTPUT): it records nothing, writes no perf.data.
(cd "$T" && rm -f perf.data && "$T/fs_adjacent-gcc" 1000 2 >/dev/null 2>&1) || fail "plain run"
[ ! -e "$T/perf.data" ] || fail "an instrumented program run without lineup wrote perf.data"

# A recorded program that runs an instrumented child: the child records nothing.
rm -f "$T/s.data"
LINEUP_SIM_OUTPUT="$T/s.data" LINEUP_SIM_ACTIVE=1 "$T/fs_adjacent-gcc" 1000 2 >/dev/null 2>&1 ||
	fail "child run"
[ ! -e "$T/s.data" ] || fail "a process started with LINEUP_SIM_ACTIVE set wrote a recording"
exit 0
