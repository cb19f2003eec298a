#!/bin/sh
# README's first command ends in `lineup demo`: it must build, record, report and name the
# struct file members, on this machine (no memory PMU).
. "$top_srcdir/tests/lib.sh"
need gcc
scratch

"$LINEUP" demo -n 20000 -k "$T/d" >"$T/out" 2>&1 || { cat "$T/out"; fail "lineup demo failed"; }
for want in 'Trace Event Information' 'Shared Data Cache Line Table' \
	'struct file (size 96' 'f_count' 'f_op' '# contended cache lines'; do
	grep -q "$want" "$T/out" || { cat "$T/out"; fail "demo output lacks '$want'"; }
done
[ -s "$T/d/perf.data" ] || fail "demo -k kept no perf.data"
# Bad usage: a clear message and exit 2.
expect_rc 2 "$LINEUP" demo -w ../etc/passwd 2>/dev/null
expect_rc 2 "$LINEUP" demo -w no_such_workload 2>/dev/null
expect_rc 2 "$LINEUP" demo -n 0 2>"$T/err"
grep -q "iterations" "$T/err" || fail "demo -n 0 says nothing about --iterations"
exit 0
