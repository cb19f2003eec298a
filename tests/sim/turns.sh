#!/bin/sh
# record --sim-turns N: the threads take turns every N modeled accesses, handing one baton
# around, so that they interleave whatever the scheduler does.  On two CPUs that both run a
# busy loop, two threads incrementing counters of one line show no HITM when left to the
# scheduler (they run at different times) and hundreds at every try when taking turns; the
# padded twin none.  Threads that block where lineup does not see it (a sleep, a barrier, a
# condition variable) while holding the baton lose it instead of stalling the run.
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/sim/sim-lib.sh"
need taskset
taskset -c 0-1 true 2>/dev/null || skip "this machine has fewer than 2 CPUs"

sim_build fs_adjacent gcc
sim_build fs_padded gcc
sim_build blocking gcc

# Usage: a positive number, and only with --sim.
expect_rc 2 "$LINEUP" record --sim --sim-turns 0 -o "$T/x.data" -- "$T/fs_adjacent-gcc" 10 2 \
	2>"$T/err"
grep -q -- '--sim-turns wants a number of accesses' "$T/err" || fail "--sim-turns 0: $(cat "$T/err")"
expect_rc 2 "$LINEUP" record --sim-turns 100 -o "$T/x.data" -- true 2>"$T/err"
grep -q -- '--sim-turns go with --sim' "$T/err" || fail "--sim-turns without --sim: $(cat "$T/err")"

for c in 0 1; do
	taskset -c $c sh -c 'while :; do :; done' &
done
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$T"' EXIT

hitm() {	# the HITM load samples record's summary counted
	sed -n 's/.* \([0-9]*\) of them HITM;.*/\1/p' "$1"
}

# 2 x 200,000 increments in turns of about 100 accesses: ~4,000 handoffs, each a HITM, one
# in 5 sampled (LINEUP_SIM_MISS_PERIOD): ~800 expected; a quarter of that is the bar.
for try in 1 2 3; do
	env -u LINEUP_SIM_YIELD LINEUP_SIM_MISS_PERIOD=5 taskset -c 0-1 "$LINEUP" record --sim \
		--sim-exact --sim-turns 100 -o "$T/a.data" -- "$T/fs_adjacent-gcc" 200000 2 \
		>/dev/null 2>"$T/a.err" || fail "record --sim-turns (a): $(cat "$T/a.err")"
	n=$(hitm "$T/a.err")
	[ "${n:-0}" -ge 200 ] || fail "try $try: taking turns on busy CPUs, ${n:-0} HITMs: $(cat "$T/a.err")"
	grep -q 'no contention' "$T/a.err" && fail "try $try: no contention said: $(cat "$T/a.err")"
	echo "# try $try: $n HITMs"
done
# perf reads the file the same.
if [ -n "${PERF:-}" ]; then
	n=$(c2c_stat "$T/a.data" "Load Local HITM")
	[ "${n:-0}" -ge 200 ] || fail "perf c2c counts ${n:-0} local HITMs in the turns' recording"
fi

env -u LINEUP_SIM_YIELD LINEUP_SIM_MISS_PERIOD=5 taskset -c 0-1 "$LINEUP" record --sim \
	--sim-exact --sim-turns 100 -o "$T/p.data" -- "$T/fs_padded-gcc" 200000 2 \
	>/dev/null 2>"$T/p.err" || fail "record --sim-turns (padded)"
[ "$(hitm "$T/p.err")" = 0 ] || fail "the padded twin has HITMs: $(cat "$T/p.err")"
grep -q 'no contention seen: the threads ran at the same time for [0-9.]* ms' "$T/p.err" ||
	fail "the padded twin, taking turns, not said to have overlapped: $(cat "$T/p.err")"

# Blocking holding the baton: the run ends (the timeout is a hang guard, not a measure), and
# the counters' line still shows HITMs.
for opts in --sim-exact ""; do
	# shellcheck disable=SC2086
	env -u LINEUP_SIM_YIELD LINEUP_SIM_MISS_PERIOD=5 timeout 300 taskset -c 0-1 "$LINEUP" \
		record --sim $opts --sim-turns 100 -o "$T/b.data" -- "$T/blocking-gcc" 50000 3 \
		>/dev/null 2>"$T/b.err" || fail "blocking workload, $opts: exit $?: $(cat "$T/b.err")"
	n=$(hitm "$T/b.err")
	[ "${n:-0}" -ge 1 ] || fail "blocking workload, $opts: no HITM: $(cat "$T/b.err")"
	echo "# blocking $opts: $n HITMs"
done
exit 0
