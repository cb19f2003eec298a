#!/bin/sh
# Issue 16, item 6: noise and length.  A synthetic recording without debug info (nothing can
# be attributed): one hot false-sharing line, 30 lines with 2 HITMs each, a line with stores
# from 2 CPUs but no HITM, a line with HITMs but no sampled store.  `fields` lists the hot
# line, sums up the 30 below --min-share (1% of all HITMs) in one line, gives no verdict to
# the last two, says "attribution: none" and exits 1; --min-share 0 lists the 30 as well.
# Then a real program (the collector): its hand-fixed twin prints "no contended line", both
# exit 0 with partial attribution.
. "$top_srcdir/tests/lib.sh"
scratch
MKKERN="$top_builddir/tests/fields/mkkern"

python3 - "$T" <<'PY' >"$T/scenario" || fail "the scenario"
LCL_HITM, ST = 0x010605800842, 0x010205080184
HOT, COLD, STORES, LOADS = 0xffff888100000000, 0xffff888100001000, 0xffff888100100000, 0xffff888100200000
IP = 0xffffffff81234567
t = 1000000000
print("kernel 0xffffffff81000000 0x1000000")
def s(kind, addr, cpu, ds):
    global t
    t += 1000
    print("%s %#x %#x %d %d %#x 200 %d" % (kind, IP, addr, cpu, 1000 + cpu, ds, t))
for i in range(200):            # the hot line: +0 by CPU 0, +8 by CPU 1, in turn
    for cpu in (0, 1):
        s("load", HOT + 8 * cpu, cpu, LCL_HITM)
        s("store", HOT + 8 * cpu, cpu, ST)
for k in range(30):             # 30 lines of 2 HITMs each: 60 of 460 HITMs, 0.43% each
    for cpu in (0, 1):
        s("load", COLD + 64 * k + 8 * cpu, cpu, LCL_HITM)
        s("store", COLD + 64 * k + 8 * cpu, cpu, ST)
for i in range(20):             # stores from 2 CPUs, no HITM: no verdict
    s("store", STORES + 8 * (i % 2), i % 2, ST)
for i in range(3):              # HITMs, no store sampled (stores were): no verdict
    s("load", LOADS + 8 * i, i % 2, LCL_HITM)
PY
"$MKKERN" "$T/noise.data" <"$T/scenario" || fail "mkkern"

expect_rc 1 "$LINEUP" fields -i "$T/noise.data" >"$T/out" 2>"$T/err"
grep -q "no sample could be tied to a struct member" "$T/err" || fail "exit 1 not said: $(cat "$T/err")"
grep -q "^# contended cache lines (each with 1% of all HITMs or more; --min-share changes it)$" \
	"$T/out" || fail "the threshold is not printed: $(cat "$T/out")"
[ "$(grep -c '^line 0x' "$T/out")" = 1 ] || fail "not one line listed: $(grep '^line' "$T/out")"
grep -q "^line 0xffff888100000000: false sharing (400 HITM, 400 writes by 2 CPUs)$" "$T/out" ||
	fail "the hot line: $(grep '^line' "$T/out")"
grep -q "^# 30 more contended lines below 1% of all HITMs each (60 HITM in all, 13.0% of all HITMs): not listed; --min-share 0 lists them$" \
	"$T/out" || fail "no summary of the small lines: $(tail -5 "$T/out")"
grep -q "^# 1 contended line: 1 false sharing, 0 true sharing, 0 one writer with readers$" "$T/out" ||
	fail "no count of the listed lines: $(tail -4 "$T/out")"
grep -q "^# attribution: none (0.0% of the samples, 0.0% of the HITMs tied to a member)$" "$T/out" ||
	fail "attribution none not said: $(tail -3 "$T/out")"

expect_rc 1 "$LINEUP" fields -i "$T/noise.data" --min-share 0 >"$T/all" 2>/dev/null
[ "$(grep -c '^line 0x' "$T/all")" = 31 ] || fail "--min-share 0: $(grep -c '^line' "$T/all") lines"
! grep -Eq "^line 0xffff8881001|^line 0xffff8881002|HITM, 0 writes by 0 CPUs|\(0 HITM," "$T/all" ||
	fail "a verdict without HITMs or without a store: $(grep '^line' "$T/all" | tail -3)"
! grep -q "below .* of all HITMs" "$T/all" || fail "--min-share 0 still sums up lines"
expect_rc 1 "$LINEUP" fields -i "$T/noise.data" --min-share 90 >"$T/half" 2>/dev/null
grep -q "^# 31 contended lines below 90% of all HITMs each" "$T/half" && grep -q "^no contended line at or above --min-share$" "$T/half" ||
	fail "--min-share 90: $(tail -4 "$T/half")"

"$LINEUP" fields -i "$T/noise.data" --json >"$T/json" 2>/dev/null
python3 - "$T/json" <<'PY' || fail "the JSON result"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["result"]
assert r["contended_lines"] == 1 and r["false_sharing"] == 1 and r["text"] == "contended lines", r
assert r["below_min_share"] == 30 and r["below_min_share_hitm"] == 60, r
assert r["min_share"] == 0.01 and r["attribution"] == "none", r
assert [l["addr"] for l in d["lines"]] == ["0xffff888100000000"], d["lines"]
PY

for bad in abc -1 101 ""; do
	expect_rc 2 "$LINEUP" fields -i "$T/noise.data" --min-share "$bad" 2>"$T/err"
	grep -q "min-share wants a percentage" "$T/err" || fail "--min-share '$bad': $(cat "$T/err")"
done

# A real program: the fixed twin has no contended line, and both runs exit 0 with partial
# attribution (the runtime's own variables are not all typed).
RP="$top_srcdir/tests/realprog"
cflags=$("$LINEUP" sim-flags --cc gcc --cflags) || fail "sim-flags"
libs=$("$LINEUP" sim-flags --cc gcc --libs) || fail "sim-flags"
for v in counters counters_fixed; do
	# shellcheck disable=SC2086
	gcc $cflags -O2 -c -o "$T/$v.o" "$RP/$v.c" && gcc -o "$T/$v" "$T/$v.o" $libs ||
		fail "building $v for the collector"
	LINEUP_SIM_TURNS=100 LINEUP_SIM_MISS_PERIOD=5 "$LINEUP" record --sim --sim-exact \
		-o "$T/$v.data" -- "$T/$v" 2 100000 >/dev/null 2>"$T/rec.err" ||
		{ cat "$T/rec.err"; fail "record --sim $v"; }
	expect_rc 0 "$LINEUP" fields -i "$T/$v.data" >"$T/$v.out" 2>"$T/$v.err"
	grep -Eq "^# attribution: (partial|complete) " "$T/$v.out" ||
		fail "$v: attribution not said: $(tail -3 "$T/$v.out")"
done
grep -q "^no contended line$" "$T/counters_fixed.out" ||
	fail "the fixed twin: $(sed -n '/^# contended/,$p' "$T/counters_fixed.out")"
! grep -q "^line 0x" "$T/counters_fixed.out" || fail "the fixed twin has a verdict"
exit 0
