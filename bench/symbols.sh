#!/bin/sh
# The machine model and the symbolizer: every sample of one large recording resolved to
# symbol, object and source line (tests/tools/resolve: read, perf's time ordering,
# machine__resolve, symbols__lookup) against `perf script -F ip,sym,dso,srcline` doing the same
# on the same file: wall and CPU time, peak RSS, their ratios, and whether the output is
# identical.  Also the resolution alone (resolve --count, nothing printed).
#
#   bench/symbols.sh [SAMPLES] [OUT.data]     (from a build directory; default 2M samples)
set -eu

N=${1:-2000000}
OUT=${2:-${TMPDIR:-/tmp}/lineup-bench-symbols.data}
B=${top_builddir:-.}
MKPERF=${MKPERF:-$B/tests/tools/mkperf}
RESOLVE=${RESOLVE:-$B/tests/tools/resolve}
PERF=${PERF:-perf}
TIME=/usr/bin/time

for x in "$MKPERF" "$RESOLVE"; do
	[ -x "$x" ] || { echo "missing $x: run from a build directory after make check" >&2; exit 2; }
done
command -v "$PERF" >/dev/null || { echo "perf is not installed" >&2; exit 2; }
[ -x "$TIME" ] || { echo "$TIME (GNU time) is not installed" >&2; exit 2; }
W=$(mktemp -d "${TMPDIR:-/tmp}/lineup-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT

# (the generator's ips are in mkperf itself: a rebuilt mkperf means a new file)
"$MKPERF" --generate "$N" -o "$OUT" >/dev/null
size=$(wc -c <"$OUT")
cat "$OUT" >/dev/null

run() {	# NAME CMD...: prints "wall user+sys rss_kb"
	name=$1
	shift
	"$TIME" -f '%e %U %S %M' -o "$W/$name.time" "$@" >"$W/$name.out" 2>"$W/$name.err"
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$W/$name.time"
}
set -- $(run lineup "$RESOLVE" "$OUT")
lw=$1 lc=$2 lr=$3
set -- $(run count "$RESOLVE" --count "$OUT")
cw=$1 cc=$2 cr=$3
set -- $(run perf "$PERF" script -i "$OUT" -F ip,sym,dso,srcline)
pw=$1 pc=$2 pr=$3
grep -v '^$' "$W/perf.out" > "$W/perf.clean" || true
same=no
cmp -s "$W/lineup.out" "$W/perf.clean" && same=yes
printf '%s samples, %s bytes\n' "$N" "$size"
printf '%-34s %8s %8s %10s\n' "" wall_s cpu_s rss_kb
printf '%-34s %8s %8s %10s\n' "lineup (resolve, printed)" "$lw" "$lc" "$lr"
printf '%-34s %8s %8s %10s\n' "lineup (resolve --count)" "$cw" "$cc" "$cr"
printf '%-34s %8s %8s %10s\n' "perf script -F ip,sym,dso,srcline" "$pw" "$pc" "$pr"
awk -v lw="$lw" -v pw="$pw" -v lc="$lc" -v pc="$pc" -v lr="$lr" -v pr="$pr" 'BEGIN {
	printf "perf/lineup: wall %.1fx, cpu %.1fx; lineup/perf peak RSS %.2f\n",
	       pw / (lw > 0 ? lw : 0.01), pc / (lc > 0 ? lc : 0.01), lr / pr }'
echo "identical output: $same"
