#!/bin/sh
# lineup suggest on a pool of small locks (issue 16, item 4, the suggest half): 41 one-byte
# spinlocks in one line, each taken by every thread over the run but by one at a time
# (tests/realprog/spinpool.c).  fields calls that false sharing between instances; suggest
# must agree: no "true sharing ... per-CPU or sharded counter" advice, the lock type aligned
# to the line, and a patch that applies, builds and compiles to the predicted layout.  The
# patched program's recording then shows no contended line.
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/sim/sim-lib.sh"
need git

mkdir "$T/src"
cp "$top_srcdir/tests/realprog/spinpool.c" "$T/src/"
git -C "$T/src" init -q && git -C "$T/src" add . &&
	git -C "$T/src" -c user.name=t -c user.email=t@t commit -qm base || fail "git init"
WL=$T/src
sim_build spinpool gcc -g
sim_record_contended "$T/pool.data" 100 "$T/spinpool-gcc" 2 200000
(cd "$T/src" && "$LINEUP" suggest -i "$T/pool.data" --patch "$T/pool.diff" \
	--source-root "$T/src" --verify >"$T/out" 2>"$T/err") ||
	{ cat "$T/err" "$T/out" >&2; fail "suggest --patch --verify"; }
grep -q '^struct bucket_lock: new layout' "$T/out" || fail "no layout for struct bucket_lock: $(head "$T/out")"
! grep -q 'true sharing' "$T/out" || fail "true sharing said of a lock pool: $(grep 'true sharing' "$T/out")"
grep -q 'instances of struct bucket_lock share a cache line' "$T/out" ||
	fail "no word of the instances sharing lines: $(head -20 "$T/out")"
# Each lock changes owner only between phases: the recorded HITMs, re-bucketed on the padded
# lines in time, fall as the modeled transfers do (all of them stayed when they were
# re-bucketed on the writers over the whole run).
set -- $(sed -n 's/^struct bucket_lock: new layout, predicted .*, \([0-9]*\) -> \([0-9]*\) HITM samples$/\1 \2/p' "$T/out")
[ $# -eq 2 ] && [ "$1" -gt 0 ] && [ $(($2 * 10)) -le "$1" ] ||
	fail "the HITMs predicted to stay did not fall to a tenth: $(head -1 "$T/out")"
grep -q 'aligned(64)' "$T/pool.diff" || fail "the patch does not align the lock: $(cat "$T/pool.diff")"
(cd "$T/src" && git apply "$T/pool.diff") || fail "the patch does not apply"
sim_build spinpool gcc -g
sim_record "$T/after.data" "$T/spinpool-gcc" 2 200000
"$LINEUP" fields -i "$T/after.data" >"$T/after.txt" 2>&1 || fail "fields after: $(tail -3 "$T/after.txt")"
grep -q 'no contended line' "$T/after.txt" ||
	fail "the patched pool still contends: $(sed -n '/contended cache lines/,$p' "$T/after.txt" | head)"
