#!/bin/sh
# lineup ab on the locked-add false-sharing pair (tests/workloads: two threads' counters on one
# line, and the same counters 128 bytes apart): the padded build is better, with an interval
# tight around a large ratio.  That needs the two threads to run at the same time: on one CPU,
# or a machine so busy that they take turns (their CPU time is no more than their wall time),
# there is no false sharing to remove, and the test skips.
. "$top_srcdir/tests/lib.sh"
scratch
[ "$(nproc)" -ge 2 ] || skip "one CPU: two threads never share a line at the same time"

WL=$top_srcdir/tests/workloads
${CC:-cc} -O2 -DATOMIC_INC -o "$T/adjacent" "$WL/fs_adjacent.c" -lpthread || fail "cc"
${CC:-cc} -O2 -DATOMIC_INC -o "$T/padded" "$WL/fs_padded.c" -lpthread || fail "cc"

"$LINEUP" ab -n 20 --json -- "$T/adjacent" 20000000 2 --- "$T/padded" 20000000 2 >"$T/ab.json"
rc=$?
cat "$T/ab.json"
[ $rc -le 1 ] || fail "ab failed (exit $rc)"
command -v python3 >/dev/null 2>&1 || skip "python3 is needed to read the JSON"
python3 - "$T/ab.json" $rc <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
rc = int(sys.argv[2])
# Whether both builds' threads ran in parallel in every run: CPU time well above wall time.
# One run where they took turns (another test on the other CPU) is a different experiment.
par = min((u + s) / w for side in (j["a"], j["b"])
          for u, s, w in zip(side["user_s"], side["sys_s"], side["wall_s"]))
if par < 1.5:
    print("SKIP: the threads took turns in a run (CPU/wall %.2f): the machine is busy" % par)
    sys.exit(77)
assert rc == 0 and j["verdict"] == "better", j["verdict"]
lo, hi = j["ci"]
assert j["ratio"] > 1.5, j["ratio"]
# Tight: the interval within a factor 1.5 from end to end (4.2-4.8 around 4.5 on an idle
# machine with 20 runs).
assert hi / lo < 1.5, (lo, hi)
print("false sharing pair: %.2fx faster padded, 95%% CI %.2f to %.2f" % (j["ratio"], lo, hi))
PY
