#!/bin/sh
# Issue 20, item 7: a short sampled run can leave a dozen load samples (one command gave 11,
# 481, 11, 11 and 207 in five runs), and from those `fields` printed "no contended line" as if
# it meant something.  A recording with fewer than 100 load samples gets a warning with its
# figures and what to change (a longer run, record --sim --sim-exact, a smaller period -c), in
# the text and the JSON; an ordinary recording gets none.
. "$top_srcdir/tests/lib.sh"
scratch
need gcc
need python3
pair_prog	# $T/prog and its recording: 5 HITM loads and 5 stores, on the variable itself here
sed 's/addr=0x7f0000000000/addr=shared/; s/addr=0x7f0000000008/addr=shared+8/' "$T/s" >"$T/s5"
"$top_builddir/tests/tools/mkperf" -o "$T/p.data" "$T/s5" || fail "mkperf"

"$LINEUP" fields -i "$T/p.data" >"$T/few.txt" 2>"$T/err" || fail "fields: $(cat "$T/err")"
grep -q "^# warning: too few samples for a verdict: 5 load samples (5 HITM) in all, fewer than 100" \
	"$T/few.txt" || fail "no warning on 5 load samples: $(tail -5 "$T/few.txt")"
for want in "a longer run" "lineup record --sim --sim-exact" "lineup record -c N"; do
	grep "^# warning: too few samples" "$T/few.txt" | grep -qF -- "$want" ||
		fail "the warning does not say '$want': $(grep '^# warning' "$T/few.txt")"
done
"$LINEUP" fields -i "$T/p.data" --json >"$T/few.json" || fail "fields --json"
python3 - "$T/few.json" <<'PY' || fail "--json: no too_few_samples for 5 load samples"
import json, sys
w = json.load(open(sys.argv[1]))["result"]["too_few_samples"]
assert w and w["loads"] == 5 and w["hitm"] == 5 and w["min_loads"] == 100, w
assert "--sim-exact" in w["text"], w
PY

# The same two threads, 200 samples of each kind: enough, no warning.
sed 's/repeat=5/repeat=200 step=1000/' "$T/s5" >"$T/s200"
"$top_builddir/tests/tools/mkperf" -o "$T/ok.data" "$T/s200" || fail "mkperf"
"$LINEUP" fields -i "$T/ok.data" >"$T/ok.txt" 2>"$T/err" || fail "fields: $(cat "$T/err")"
grep -q "^line 0x[0-9a-f]*: " "$T/ok.txt" || fail "no verdict on 200 HITMs: $(tail -5 "$T/ok.txt")"
! grep -q "too few samples" "$T/ok.txt" || fail "a warning on 200 load samples: $(grep warning "$T/ok.txt")"
"$LINEUP" fields -i "$T/ok.data" --json >"$T/ok.json" || fail "fields --json"
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["result"]["too_few_samples"] is None' \
	"$T/ok.json" || fail "--json: too_few_samples is not null on 200 load samples"
echo ok
