#!/bin/sh
# The perf.data reader alone: `lineup info --stats` (decodes every record and every sample
# field) against `perf report --stats` (which only finds each sample's event) on one large
# recording: wall and CPU time, peak RSS, their ratios, and whether the counts are identical.
#
#   bench/reader.sh [SAMPLES] [OUT.data]      (from a build directory; default 12M samples)
set -eu

N=${1:-12000000}
OUT=${2:-${TMPDIR:-/tmp}/lineup-bench-reader.data}
B=${top_builddir:-.}
LINEUP=${LINEUP:-$B/lineup}
MKPERF=${MKPERF:-$B/tests/tools/mkperf}
PERF=${PERF:-perf}
TIME=/usr/bin/time

for x in "$LINEUP" "$MKPERF"; do
	[ -x "$x" ] || { echo "missing $x: run from a build directory after make" >&2; exit 2; }
done
command -v "$PERF" >/dev/null || { echo "perf is not installed" >&2; exit 2; }
[ -x "$TIME" ] || { echo "$TIME (GNU time) is not installed" >&2; exit 2; }
W=$(mktemp -d "${TMPDIR:-/tmp}/lineup-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT

[ -s "$OUT" ] || "$MKPERF" --generate "$N" -o "$OUT" >/dev/null
size=$(wc -c <"$OUT")
cat "$OUT" >/dev/null	# both read it from the page cache

run() {	# NAME CMD...: prints "wall user+sys rss_kb"
	name=$1
	shift
	"$TIME" -f '%e %U %S %M' -o "$W/$name.time" "$@" >"$W/$name.out" 2>"$W/$name.err"
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$W/$name.time"
}
set -- $(run lineup "$LINEUP" info --stats -i "$OUT")
lw=$1 lc=$2 lr=$3
set -- $(run perf "$PERF" report --stats -i "$OUT")
pw=$1 pc=$2 pr=$3
same=no
cmp -s "$W/lineup.out" "$W/perf.out" && same=yes

awk -v size="$size" -v lw="$lw" -v lc="$lc" -v lr="$lr" -v pw="$pw" -v pc="$pc" -v pr="$pr" \
	-v same="$same" 'BEGIN {
	mb = size / 1048576
	printf "recording: %.0f MiB\n", mb
	printf "%-28s %8s %8s %10s %10s\n", "", "wall s", "cpu s", "MiB/s(cpu)", "peak RSS"
	printf "%-28s %8.2f %8.2f %10.0f %8.1f MiB\n", "lineup info --stats", lw, lc, mb / (lc ? lc : 0.01), lr / 1024
	printf "%-28s %8.2f %8.2f %10.0f %8.1f MiB\n", "perf report --stats", pw, pc, mb / (pc ? pc : 0.01), pr / 1024
	printf "ratios (perf / lineup): wall %.1fx, cpu %.1fx, RSS %.1fx; identical output: %s\n",
		pw / (lw ? lw : 0.01), pc / (lc ? lc : 0.01), pr / lr, same
}'
