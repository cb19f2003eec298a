#!/bin/sh
# The collector says whether threads ran at the same time, and "no contention seen" says which
# it means: threads that overlapped for T with no line moving, or threads that never
# overlapped (nothing can be concluded).  One CPU (taskset) and no yielding: two threads never
# run at once, whatever the machine's load; yielding every 500 accesses, or taking turns every
# 100 (--sim-turns): they interleave, and that counts.  Both in an exact run and in the sampled
# default (windows).
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/sim/sim-lib.sh"
need taskset

sim_build fs_padded gcc
sim_build fs_adjacent gcc

for opts in --sim-exact ""; do
	# shellcheck disable=SC2086
	taskset -c 0 env -u LINEUP_SIM_YIELD -u LINEUP_SIM_TURNS "$LINEUP" record --sim $opts -o "$T/one.data" -- \
		"$T/fs_padded-gcc" 2000000 2 >/dev/null 2>"$T/one.err" ||
		fail "record --sim $opts on one CPU: $(cat "$T/one.err")"
	grep -q 'threads ran at the same time for 0\.0 ms of [0-9.]* ms modeled (0%) \]$' \
		"$T/one.err" || fail "$opts, one CPU: overlap not 0: $(cat "$T/one.err")"
	grep -q 'no contention seen, and nothing can be concluded: the threads never ran at the same time' \
		"$T/one.err" || fail "$opts, one CPU: not said inconclusive: $(cat "$T/one.err")"
	grep -q 'record again with --sim-turns 100' "$T/one.err" || fail "$opts: the way out not said"

	# (taking turns on a CPU that other jobs also want can leave under 1% overlapped: again)
	for try in 1 2 3; do
		# shellcheck disable=SC2086
		taskset -c 0 env LINEUP_SIM_YIELD=500 "$LINEUP" record --sim $opts \
			-o "$T/yield.data" -- "$T/fs_padded-gcc" 2000000 2 >/dev/null \
			2>"$T/yield.err" || fail "record --sim $opts, yielding: $(cat "$T/yield.err")"
		grep -q 'no contention seen: the threads ran at the same time' "$T/yield.err" &&
			break
		echo "try $try: under 1% overlapped: $(cat "$T/yield.err")" >&2
	done
	grep -q 'threads ran at the same time for [0-9.]* ms of' "$T/yield.err" &&
		! grep -q 'for 0\.0 ms of' "$T/yield.err" ||
		fail "$opts, yielding: no overlap: $(cat "$T/yield.err")"
	grep -q 'no contention seen: the threads ran at the same time for [0-9.]* ms' \
		"$T/yield.err" || fail "$opts, yielding: not said overlapped: $(cat "$T/yield.err")"

	# The unfixed counters, taking turns (the way out said above): HITMs, and no word of no
	# contention, at the first try whatever else the CPU runs.
	# shellcheck disable=SC2086
	taskset -c 0 env -u LINEUP_SIM_YIELD "$LINEUP" record --sim $opts --sim-turns 100 \
		-o "$T/a.data" -- "$T/fs_adjacent-gcc" 2000000 2 >/dev/null 2>"$T/a.err" ||
		fail "record (a)"
	grep -q ' [1-9][0-9]* of them HITM;' "$T/a.err" || fail "$opts (a): no HITM: $(cat "$T/a.err")"
	grep -q 'no contention' "$T/a.err" && fail "$opts (a): no contention said: $(cat "$T/a.err")"
done

# The account is a sample of its own event, which perf reads too, and which fields does not
# take for a memory access.
if command -v "${PERF:-perf}" >/dev/null 2>&1; then
	"${PERF:-perf}" script -i "$T/yield.data" -F event,period 2>/dev/null |
		grep -q 'lineup-sim/overlap/' || fail "perf script sees no lineup-sim/overlap/ sample"
fi
"$LINEUP" fields -i "$T/a.data" >"$T/fields" 2>&1 || fail "fields: $(cat "$T/fields")"
grep -q '^# all samples: \([0-9]*\), attributed \1 (100.0%)' "$T/fields" ||
	fail "fields counts the overlap sample as unattributed: $(head -5 "$T/fields")"
exit 0
