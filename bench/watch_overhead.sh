#!/bin/sh
# lineup watch's cost, side by side in one run: the shared-fd workload (tests/watch/sharedfd.c,
# two threads doing pread + lseek on one fd) alone, then watched with 1, 2 and 4 breakpoints
# on its struct file, RUNS times each; prints the workload's iterations per second (median)
# and lineup's hits per second.  Root (kernel object).
#
#   bench/watch_overhead.sh [RUNS] [SECONDS]      (from a build directory; defaults 3 and 1)
#
# Each hit is a debug exception (#DB) and a perf sample; in a VM the #DB exits to the
# hypervisor, so expect a slowdown of 100x or more while watching a hot word.  That is why
# lineup watches a few words for short runs and rotates.
set -eu

RUNS=${1:-3}
SECS=${2:-1}
B=${top_builddir:-.}
LINEUP=${LINEUP:-$B/lineup}
SRC=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
CC=${CC:-gcc}
[ "$(id -u)" -eq 0 ] || { echo "needs root" >&2; exit 77; }
T=$(mktemp -d "${TMPDIR:-/tmp}/lineup-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
"$CC" -O2 -g -pthread -o "$T/sharedfd" "$SRC/tests/watch/sharedfd.c"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# iterations/s of both threads together, from the workload's own report
iters() { awk '/pread\+lseek/ { s += $3 } END { printf "%d\n", s / '"$SECS"' }'; }

printf '%-34s %14s %12s\n' "configuration" "iterations/s" "hits/s"
for i in $(seq "$RUNS"); do "$T/sharedfd" -p -t "$SECS" | iters; done | median >"$T/base"
printf '%-34s %14s %12s\n' "alone" "$(cat "$T/base")" "-"
for fields in f_op f_ref,f_op f_ref,f_pos_lock,f_pos,f_op; do
	: >"$T/it"
	: >"$T/hits"
	for i in $(seq "$RUNS"); do
		"$LINEUP" watch -q -o "$T/w.data" --alloc filp --comm lw-bench --fields "$fields" -- \
			"$T/sharedfd" -n lw-bench -p -d 200 -t "$SECS" >"$T/out" 2>/dev/null || true
		iters <"$T/out" >>"$T/it"
		sed -n 's/^# [0-9]* hits in .* s: \([0-9]*\) hits\/s.*/\1/p' "$T/out" >>"$T/hits"
	done
	printf '%-34s %14s %12s\n' "watch $fields" "$(median <"$T/it")" "$(median <"$T/hits")"
done
