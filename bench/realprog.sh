#!/bin/sh
# What the real-program corpus's hand fixes are worth (issue 16): each tests/realprog case's
# bug against its fixed twin, uninstrumented, timed side by side with `lineup ab` (ABBA order,
# a 95% interval on the ratio, "not significant" when it contains 1).  Each pair is built with
# the first of the case's builds (where the bug survives the optimiser) and run with its
# bench_args (default: its args).  Prints one line per case: the ratio bug/twin and the verdict.
#
#   bench/realprog.sh [RUNS] [CASE...]       (default 10 runs, every case)
set -u
SRC=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
LINEUP=${LINEUP:-$SRC/lineup}
RUNS=${1:-10}
[ $# -gt 0 ] && shift
W=$(mktemp -d "${TMPDIR:-/tmp}/lineup-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT
cases=$*
[ -n "$cases" ] || cases=$(ls "$SRC"/tests/realprog/*.case | sed 's|.*/||; s|\.case$||')

echo "runs $RUNS, $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"
printf '%-16s %-9s %-24s %s\n' case build "bug/twin [95% interval]" verdict
for name in $cases; do
	args= builds="gcc-O0 gcc-O2 clang-O0 clang-O2" cflags= libs=-lpthread bench_args=
	. "$SRC/tests/realprog/$name.case"
	[ -n "$bench_args" ] || bench_args=$args
	b=${builds%% *}
	cc=${b%-*} opt=${b#*-} ext=c
	if [ -f "$SRC/tests/realprog/$name.cc" ]; then
		ext=cc
		[ "$cc" = gcc ] && cc=g++ || cc=clang++
	fi
	command -v "$cc" >/dev/null 2>&1 || { printf '%-16s %-9s no %s here\n' "$name" "$b" "$cc"; continue; }
	# shellcheck disable=SC2086
	"$cc" -g -$opt $cflags -o "$W/bug" "$SRC/tests/realprog/$name.$ext" $libs &&
		"$cc" -g -$opt $cflags -o "$W/fixed" "$SRC/tests/realprog/${name}_fixed.$ext" $libs ||
		{ printf '%-16s %-9s does not build\n' "$name" "$b"; continue; }
	# shellcheck disable=SC2086
	"$LINEUP" ab -n "$RUNS" -p 0 --json -- "$W/bug" $bench_args --- "$W/fixed" $bench_args \
		>"$W/ab.json" 2>"$W/ab.err"
	python3 - "$W/ab.json" "$name" "$b" <<'PY' || { printf '%-16s %-9s ab failed: %s\n' "$name" "$b" "$(head -c 200 "$W/ab.err")"; }
import json, sys
d = json.load(open(sys.argv[1]))
lo, hi = d["ci"]
print("%-16s %-9s %-24s %s" % (sys.argv[2], sys.argv[3],
      "%.2fx [%.2f, %.2f]" % (d["ratio"], lo, hi), d["verdict"]))
PY
done
