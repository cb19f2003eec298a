#!/bin/sh
# lineup demo on a small, busy machine: two CPUs, both running another job.  The threads then
# meet only if they take turns, so the demo records with --sim-turns from the start
# (chosen from the CPUs it may use) and shows the contention.  And --keep DIR is a name, never
# shell text.
. "$top_srcdir/tests/lib.sh"
need gcc
need taskset
scratch
cd "$T" || exit 99

# --keep with quotes and a command in it: a directory of that name, nothing run.
"$LINEUP" demo -n 20000 -k "x';touch PWNED;'" >"$T/out" 2>&1 || { cat "$T/out"; fail "demo -k"; }
[ ! -e "$T/PWNED" ] || fail "demo --keep ran a command from the directory's name"
[ -s "$T/x';touch PWNED;'/perf.data" ] || fail "demo -k kept no perf.data in the odd-named dir"

# Two CPUs, each busy with a loop of its own (the demo and the loops share them).
taskset -c 0-1 true 2>/dev/null || skip "this machine has fewer than 2 CPUs"
for c in 0 1; do
	taskset -c $c sh -c 'while :; do :; done' &
done
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$T"' EXIT
taskset -c 0-1 "$LINEUP" demo -n 200000 >"$T/out" 2>&1 || { cat "$T/out"; fail "lineup demo failed"; }
grep -qF '$ lineup record --sim --sim-turns 100 ' "$T/out" ||
	{ cat "$T/out"; fail "on 2 CPUs the demo did not take turns"; }
grep -q '^line 0x[0-9a-f]*: false sharing' "$T/out" ||
	{ cat "$T/out"; fail "lineup demo on a busy 2-CPU machine names no false-sharing line"; }
grep -q 'struct file.f_count @' "$T/out" ||
	{ cat "$T/out"; fail "lineup demo does not name f_count on the contended line"; }
exit 0
