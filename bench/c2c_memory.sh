#!/bin/sh
# Peak memory of lineup report and perf c2c report per distinct entry (cache line, offset, code
# address: the Pareto's rows before any filter), side by side, on mkperf's generated recordings
# (nearly every sample its own entry: the worst case for both).
#
#   bench/c2c_memory.sh [SAMPLES...]      (from a build directory; default 1000000 10000000)
#   PERF_MAX=N bench/c2c_memory.sh ...     (run perf only up to N samples; default 2000000:
#                                           it takes about 1.6 KB an entry)
#
# Peak RSS by /usr/bin/time -v; the entries counted by mkperf --count-entries.  lineup's
# per-entry figure includes its fixed base (about 14 MB), so small recordings read high.
set -eu

B=${top_builddir:-.}
LINEUP=${LINEUP:-$B/lineup}
MKPERF=${MKPERF:-$B/tests/tools/mkperf}
PERF=${PERF:-perf}
PERF_MAX=${PERF_MAX:-2000000}
TIME=/usr/bin/time
[ $# -gt 0 ] || set -- 1000000 10000000

for x in "$LINEUP" "$MKPERF"; do
	[ -x "$x" ] || { echo "missing $x: run from a build directory after make" >&2; exit 2; }
done
[ -x "$TIME" ] || { echo "$TIME (GNU time) is not installed" >&2; exit 2; }
command -v "$PERF" >/dev/null || PERF_MAX=0

W=$(mktemp -d "${TMPDIR:-/tmp}/lineup-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT

# peak TOOL.time: the peak RSS in bytes
peak() {
	awk -F': ' '/Maximum resident set size/ {print $2 * 1024}' "$1"
}

printf '%10s %10s  %12s %8s  %12s %8s  %s\n' samples entries "lineup (MB)" "B/entry" \
	"perf (MB)" "B/entry" "lineup/perf"
for n in "$@"; do
	ent=$("$MKPERF" --generate "$n" --count-entries -o "$W/r.data" | awk '{print $3}')
	"$TIME" -v -o "$W/l.time" "$LINEUP" report --stdio -i "$W/r.data" >"$W/l.out" 2>"$W/l.err" ||
		{ cat "$W/l.err" >&2; exit 1; }
	l=$(peak "$W/l.time")
	p=- pe=- ratio=-
	if [ "$n" -le "$PERF_MAX" ]; then
		"$TIME" -v -o "$W/p.time" "$PERF" c2c report --stdio -i "$W/r.data" >"$W/p.out" \
			2>"$W/p.err" || { cat "$W/p.err" >&2; exit 1; }
		p=$(peak "$W/p.time")
		cmp -s "$W/l.out" "$W/p.out" || { echo "the outputs differ at $n samples" >&2; exit 1; }
	fi
	awk -v n="$n" -v e="$ent" -v l="$l" -v p="$p" 'BEGIN {
		if (p == "-")
			printf "%10d %10d  %12.1f %8.0f  %12s %8s  %s\n", n, e, l / 1048576, l / e, \
				"-", "-", "-"
		else
			printf "%10d %10d  %12.1f %8.0f  %12.1f %8.0f  %.3f (1/%.1f)\n", n, e, \
				l / 1048576, l / e, p / 1048576, p / e, l / p, p / l
	}'
	rm -f "$W/r.data"
done
