#!/bin/sh
# lineup diff --per SYMBOL: counts compared per sample of the program's own progress, named by
# the user as a function its work runs in or a counter it updates.  Real recordings of one
# program run for two lengths normalise by either; on mkperf recordings whose housekeeping grows
# faster than the work, per-access normalisation is wrong by a known factor and --per is exact;
# a symbol no sample touches, and --norm progress without --per, are usage errors.
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/sim/sim-lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is needed to read the JSON"
. "$top_srcdir/tests/diff/diff-lib.sh"

# Twice the work: one thread (nothing contended), 400000 and 800000 increments.
sim_build fs_adjacent gcc
sim_record "$T/short.data" "$T/fs_adjacent-gcc" 400000 1
sim_record "$T/long.data" "$T/fs_adjacent-gcc" 800000 1
for per in thread_main counters; do
	"$LINEUP" diff --per $per --json "$T/short.data" "$T/long.data" >"$T/len.json" ||
		fail "diff --per $per"
	check "$T/len.json" "
assert j['norm'] == 'progress' and j['per'] == '$per', j['norm']
assert j['before']['progress_samples'] > 0 and j['after']['progress_samples'] > 0
assert 0.4 < j['scale'] < 0.6, j['scale']
assert j['scale'] == j['scales']['progress'], j['scales']
g = group('struct counters: a')
n = [g['loads_' + k] + g['stores_' + k] for k in ('before', 'after')]
assert abs(n[1] * j['scale'] / n[0] - 1) < 0.15, (n, j['scale'])
" "--per $per: recordings of different lengths not normalised"
done
"$LINEUP" diff --per thread_main "$T/short.data" "$T/long.data" >"$T/len.txt" || fail "stdio"
grep -q "^# changes: after's counts per unit of progress (--per's samples' periods summed), x0\.[456]" \
	"$T/len.txt" || fail "the basis not said: $(head -5 "$T/len.txt")"
grep -q '^# before .*; progress [0-9]* ([0-9]* samples in thread_main)' "$T/len.txt" ||
	fail "the progress not shown: $(head -5 "$T/len.txt")"

# Housekeeping that grows faster than the work: before, 100 samples in step() (writing the
# progress counter) and 100 in housekeeping(); after, 200 and 600.  Per access the work looks
# 4x, per step() or per write to `progress` it is 2x, and step()'s own counts do not change.
cat >"$T/prog.c" <<'C'
long progress;
long junk[64];
void step(void) { progress++; }
void housekeeping(void) { for (int i = 0; i < 64; i++) junk[i]++; }
int main(void) { step(); housekeeping(); return 0; }
C
"${CC:-cc}" -g -O0 -o "$T/prog" "$T/prog.c" || fail "cc"
MKPERF=$top_builddir/tests/tools/mkperf
for side in before:100:100 after:200:600; do
	IFS=: read -r name work house <<S
$side
S
	cat >"$T/$name.txt" <<SCN
c2c_events
comm 100 100 prog
mmap 100 auto $T/prog
sample store tid=100 cpu=0 ip=step addr=progress src=ST_L1HIT weight=10 repeat=$work
sample load tid=100 cpu=0 ip=housekeeping addr=junk src=L1 weight=4 repeat=$house
SCN
	"$MKPERF" -o "$T/$name.data" "$T/$name.txt" || fail "mkperf $name"
done
"$LINEUP" diff --json "$T/before.data" "$T/after.data" >"$T/acc.json" || fail "diff per access"
check "$T/acc.json" "
assert j['norm'] == 'accesses' and abs(j['scale'] - 0.25) < 1e-9, j['scale']
assert 'per' not in j and 'progress' not in j['before']
" "per access"
for per in step progress; do
	"$LINEUP" diff --per $per --json "$T/before.data" "$T/after.data" >"$T/p.json" ||
		fail "diff --per $per"
	check "$T/p.json" "
assert abs(j['scale'] - 0.5) < 1e-9, j['scale']
assert abs(j['scales']['accesses'] - 0.25) < 1e-9, j['scales']
assert j['before']['progress_samples'] == 100 and j['after']['progress_samples'] == 200
g = group('progress')
assert g['stores_change'] == 0, g
" "--per $per: not per unit of the program's progress"
done
# --per with another --norm: the progress is shown, the scale is the norm's.
"$LINEUP" diff --per step --norm accesses --json "$T/before.data" "$T/after.data" >"$T/p.json" ||
	fail "--per with --norm accesses"
check "$T/p.json" "
assert j['norm'] == 'accesses' and abs(j['scale'] - 0.25) < 1e-9, j
assert j['after']['progress'] == 200 * j['after']['accesses'] // 800, j['after']
" "--per with --norm accesses"

# Bad usage: a symbol nothing touches, --norm progress alone, an empty --per.
expect_rc 2 "$LINEUP" diff --per no_such_fn "$T/before.data" "$T/after.data" 2>"$T/err"
grep -q "^lineup: diff: --per no_such_fn: no sample of before ($T/before.data) has its code in no_such_fn or its data on it" \
	"$T/err" || fail "a --per that names nothing: $(cat "$T/err")"
expect_rc 2 "$LINEUP" diff --norm progress "$T/before.data" "$T/after.data" 2>"$T/err"
grep -q "name the progress with --per SYMBOL" "$T/err" || fail "--norm progress alone: $(cat "$T/err")"
expect_rc 2 "$LINEUP" diff --per '' "$T/before.data" "$T/after.data" 2>/dev/null
exit 0
