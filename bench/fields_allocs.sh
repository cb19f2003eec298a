#!/bin/sh
# lineup fields on a recording of many allocations: N allocation records (the collector's
# lineup-sim/alloc/ samples; default 10M) from 64 threads, every block live before the first
# free, then N frees oldest first (the order that made matching a free by scanning the
# allocations quadratic: issue 15, finding 3), and a load in each thread's first block.
# Prints wall and CPU seconds and peak RSS of `lineup fields`, per million allocation
# records, and beside it `lineup info --stats` reading the same file (the reading alone).
#
#   bench/fields_allocs.sh [N] [OUT.data]     (from a build directory; ~56 bytes a record)
set -eu

N=${1:-10000000}
OUT=${2:-${TMPDIR:-/tmp}/lineup-bench-allocs.data}
B=${top_builddir:-.}
MKPERF=${MKPERF:-$B/tests/tools/mkperf}
LINEUP=${LINEUP:-$B/lineup}
TIME=/usr/bin/time
THREADS=64

for x in "$MKPERF" "$LINEUP"; do
	[ -x "$x" ] || { echo "missing $x: run from a build directory after make" >&2; exit 2; }
done
[ -x "$TIME" ] || { echo "$TIME (GNU time) is not installed" >&2; exit 2; }
W=$(mktemp -d "${TMPDIR:-/tmp}/lineup-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT

per=$((N / THREADS))
base=$((0x100000000))
ST=IDENTIFIER,IP,TID,TIME,ADDR,PERIOD
{
	echo "event load"
	echo "event lineup-sim/alloc/ sample_type=$ST"
	echo "event lineup-sim/free/ sample_type=$ST"
	echo "comm 1000 1000 allocs"
	t=1
	while [ $t -lt $THREADS ]; do echo "fork 1000 1000 $((1000 + t)) 1000"; t=$((t + 1)); done
	echo "anon 1000 $base $((THREADS * per * 64))"
	for phase in alloc load free; do
		t=0
		while [ $t -lt $THREADS ]; do
			b=$((base + t * per * 64))
			case $phase in
			alloc) echo "sample lineup-sim/alloc/ tid=$((1000 + t)) addr=$b period=64 repeat=$per addr_step=64" ;;
			load) echo "sample load tid=$((1000 + t)) addr=$((b + 8)) src=L1" ;;
			free) echo "sample lineup-sim/free/ tid=$((1000 + t)) addr=$b repeat=$per addr_step=64" ;;
			esac
			t=$((t + 1))
		done
	done
} >"$W/scenario"
"$MKPERF" -o "$OUT" "$W/scenario" >/dev/null
size=$(wc -c <"$OUT")
cat "$OUT" >/dev/null

run() {	# NAME CMD...: prints "wall user+sys rss_kb"
	name=$1
	shift
	"$TIME" -f '%e %U %S %M' -o "$W/$name.time" "$@" >"$W/$name.out" 2>"$W/$name.err" || true
	awk '{ printf "%s %.2f %s\n", $1, $2 + $3, $4 }' "$W/$name.time" | tail -1
}
set -- $(run fields "$LINEUP" fields -i "$OUT")
fw=$1 fc=$2 fr=$3
set -- $(run info "$LINEUP" info --stats -i "$OUT")
rw=$1 rc=$2 rr=$3
grep -q "^# allocation records: $((per * THREADS));" "$W/fields.out" ||
	echo "warning: fields did not count $((per * THREADS)) allocation records" >&2
printf '%s allocation records + as many frees, %s bytes\n' "$((per * THREADS))" "$size"
printf '%-34s %8s %8s %10s\n' "" wall_s cpu_s rss_kb
printf '%-34s %8s %8s %10s\n' "lineup fields" "$fw" "$fc" "$fr"
printf '%-34s %8s %8s %10s\n' "lineup info --stats (reading)" "$rw" "$rc" "$rr"
awk -v fw="$fw" -v rw="$rw" -v n="$((per * THREADS))" 'BEGIN {
	printf "fields: %.2f s per million allocation records; fields/info wall %.1fx\n",
	       fw / (n / 1e6), fw / (rw > 0 ? rw : 0.01) }'
[ -n "${REUSE:-}" ] || rm -f "$OUT"
