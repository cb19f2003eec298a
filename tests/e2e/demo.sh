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
# The other half of the loop: the suggestion and its patch, applied, built, recorded again,
# the two recordings compared and the two builds timed.
for want in 'struct file: new layout, predicted' 'wrote fix.diff' '+++ b/struct_file.c' \
	'$ patch -p1 -d src -i ../fix.diff' '$ lineup ab -n 10'; do
	grep -qF -- "$want" "$T/out" || { cat "$T/out"; fail "demo output lacks '$want'"; }
done
[ -s "$T/d/after.data" ] || fail "demo -k kept no after.data"
if "$LINEUP" diff --help >/dev/null 2>&1; then
	grep -qF '$ lineup diff perf.data after.data' "$T/out" || fail "demo shows no lineup diff"
fi
grep -q '__attribute__((aligned(64)))' "$T/d/src/struct_file.c" && fail "the demo's copy stayed patched"

# What the README runs (default iterations): the contended line and its verdict.  The demo
# records again (3 tries at most) when the threads hardly overlapped on a busy machine; only
# when all three did not can the verdict be missing.
"$LINEUP" demo >"$T/out" 2>&1 || { cat "$T/out"; fail "lineup demo (defaults) failed"; }
if ! grep -q 'try 3 of 3' "$T/out"; then
	grep -q '^line 0x[0-9a-f]*: false sharing' "$T/out" ||
		{ cat "$T/out"; fail "lineup demo names no false-sharing line"; }
	grep -q 'struct file.f_count @' "$T/out" ||
		{ cat "$T/out"; fail "lineup demo does not name f_count on the contended line"; }
else
	echo "note: the demo's threads never overlapped in 3 tries (busy machine)" >&2
fi
# Bad usage: a clear message and exit 2.
expect_rc 2 "$LINEUP" demo -w ../etc/passwd 2>/dev/null
expect_rc 2 "$LINEUP" demo -w no_such_workload 2>/dev/null
expect_rc 2 "$LINEUP" demo -n 0 2>"$T/err"
grep -q "iterations" "$T/err" || fail "demo -n 0 says nothing about --iterations"
exit 0
