#!/bin/sh
# lineup diff on real recordings of the bundled false-sharing pair (tests/workloads: the
# counters of fs_adjacent, and fs_padded, the fix), plain and locked increments: the line group
# of the counters loses its HITMs while every address moved; a recording against itself
# changes nothing; recordings of different lengths compare per access; recordings of different
# machines and line sizes are said to be, and compared; a side whose threads never ran at the
# same time is inconclusive; bad input.
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/sim/sim-lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 is needed to read the JSON"
. "$top_srcdir/tests/diff/diff-lib.sh"

for kind in plain locked; do
	def=
	[ $kind = locked ] && def=-DATOMIC_INC
	sim_build fs_adjacent gcc $def
	sim_build fs_padded gcc $def
	record_hitm "$T/before.data" "$T/fs_adjacent-gcc" 200000 2
	sim_record "$T/after.data" "$T/fs_padded-gcc" 200000 2

	"$LINEUP" diff --json "$T/before.data" "$T/after.data" >"$T/d.json" ||
		fail "$kind: diff exits $?"
	check "$T/d.json" '
g = group("struct counters: a, b")
assert g["hitm_before"] >= 10, g
# near zero: at most one in twenty of before, per access
assert g["hitm_after"] * j["scale"] <= max(1, g["hitm_before"] / 20), g
assert g["lines_before"] == 1 and g["lines_after"] == 2, g
assert g["addr_before"] != g["addr_after"], g
assert g["verdict_before"] == "false sharing" and g["verdict_after"] != "false sharing", g
s = [s for s in j["structs"] if s["name"] == "struct counters"][0]
assert s["layout_changed"], s
b = [m for m in s["members"] if m["member"] == "b"][0]
assert b["before_offset"] == 8 and b["after_offset"] == 128, b
' "$kind: the counters' HITMs did not fall to near zero"

	"$LINEUP" diff -C counters "$T/before.data" "$T/after.data" >"$T/d.txt" || fail "diff -C"
	cat "$T/d.txt"
	grep -q '^struct counters, layout changed:$' "$T/d.txt" || fail "$kind: no layout change said"
	grep -Eq '^ +8 +8 b +\| +128 +8 b +\+120 \(line 0 -> 2\)$' "$T/d.txt" ||
		fail "$kind: b's move not shown"

	# A recording against itself: no change anywhere.
	"$LINEUP" diff --json "$T/before.data" "$T/before.data" >"$T/self.json" || fail "self diff"
	check "$T/self.json" '
assert j["scale"] == 1
for r in j["lines"] + [m for s in j["structs"] for m in s["members"]]:
    for k, v in r.items():
        if k.endswith("_change"):
            assert v == 0, (k, r)
assert not any(s["layout_changed"] for s in j["structs"])
' "$kind: a recording against itself changed"
done

# CSV: the two tables in one stream.
"$LINEUP" diff --csv "$T/before.data" "$T/after.data" >"$T/d.csv" || fail "--csv"
head -1 "$T/d.csv" | grep -q '^table,hitm_before,hitm_after,hitm_change,' || fail "CSV header: $(head -1 "$T/d.csv")"
grep -q '^lines,' "$T/d.csv" && grep -q '^members,' "$T/d.csv" || fail "CSV tables"

# Different lengths: one thread (nothing contended, counts follow the work), twice the work.
# About 800 and 1600 samples of the counter: the sampling's own noise is a few percent.
sim_build fs_adjacent gcc
sim_record "$T/short.data" "$T/fs_adjacent-gcc" 400000 1
sim_record "$T/long.data" "$T/fs_adjacent-gcc" 800000 1
"$LINEUP" diff --json "$T/short.data" "$T/long.data" >"$T/len.json" || fail "diff of lengths"
check "$T/len.json" '
assert 0.4 < j["scale"] < 0.6, j["scale"]
g = group("struct counters: a")
n = [g["loads_" + k] + g["stores_" + k] for k in ("before", "after")]
assert 1.6 < n[1] / n[0] < 2.4, g
assert abs(n[1] * j["scale"] / n[0] - 1) < 0.15, (n, j["scale"])
' "recordings of different lengths not normalised"

# Never overlapping (one CPU, no yielding): inconclusive, never fixed.
taskset -c 0 env -u LINEUP_SIM_YIELD -u LINEUP_SIM_TURNS "$LINEUP" record --sim --sim-exact -o "$T/alone.data" -- \
	"$T/fs_padded-gcc" 200000 2 >/dev/null 2>&1 || fail "record on one CPU"
"$LINEUP" diff "$T/before.data" "$T/alone.data" >"$T/alone.txt" || fail "diff alone"
grep -q "^# inconclusive: in after ($T/alone.data) the threads never ran at the same time" \
	"$T/alone.txt" || fail "one side never overlapped: not said inconclusive: $(head "$T/alone.txt")"

# Different machines and line sizes: two recordings of the same accesses written by mkperf,
# one of a 64-byte machine, one of a 128-byte one.  Said, and the lines still matched.
MKPERF=$top_builddir/tests/tools/mkperf
"${CC:-cc}" -g -O2 -o "$T/fsa" "$WL/fs_adjacent.c" -lpthread || fail "cc"
for m in 64:alpha 128:beta; do
	cat >"$T/$m.txt" <<SCN
cacheline ${m%%:*}
hostname ${m#*:}
c2c_events
comm 100 100 fsa
fork 100 100 101 100
mmap 100 auto $T/fsa
sample load tid=100 cpu=0 ip=thread_main addr=counters src=LCL_HITM weight=200 repeat=20
sample store tid=101 cpu=1 ip=thread_main addr=counters+8 src=ST_L1MISS weight=10 repeat=20
SCN
	"$MKPERF" -o "$T/${m%%:*}.data" "$T/$m.txt" || fail "mkperf $m"
done
"$LINEUP" diff --json "$T/64.data" "$T/128.data" >"$T/m.json" || fail "diff of two machines"
check "$T/m.json" '
assert any("different machines (alpha" in n for n in j["notes"]), j["notes"]
assert any("different cache-line sizes (64 and 128 bytes)" in n for n in j["notes"]), j["notes"]
assert j["before"]["line_size"] == 64 and j["after"]["line_size"] == 128
g = group("struct counters: a, b")
assert g["hitm_before"] == 20 and g["hitm_after"] == 20, g
' "different machines"

# Bad input.
expect_rc 2 "$LINEUP" diff "$T/before.data" 2>"$T/err"
grep -q "two recordings are needed" "$T/err" || fail "one recording: $(cat "$T/err")"
expect_rc 2 "$LINEUP" diff "$T/before.data" "$T/no-such.data" 2>"$T/err"
grep -q "no-such.data" "$T/err" || fail "a missing recording not named: $(cat "$T/err")"
printf 'PERFILE2garbage' >"$T/bad.data"
expect_rc 2 "$LINEUP" diff "$T/bad.data" "$T/before.data" 2>"$T/err"
grep -q "bad.data" "$T/err" || fail "a bad recording not named: $(cat "$T/err")"
expect_rc 2 "$LINEUP" diff --norm weekly "$T/before.data" "$T/after.data" 2>/dev/null
expect_rc 1 "$LINEUP" diff -C no_such_struct "$T/before.data" "$T/after.data" 2>"$T/err"
grep -q "no struct 'no_such_struct'" "$T/err" || fail "-C of a missing struct"
exit 0
