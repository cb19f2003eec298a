#!/bin/sh
# lineup report --stdio against perf c2c report --stdio on one large recording: wall time and
# peak RSS of each (/usr/bin/time -v), their ratios, and whether the outputs are identical.
#
#   bench/c2c_report.sh [SAMPLES] [OUT.data]      (from a build directory; default 12.5M samples)
#   REUSE=1 bench/c2c_report.sh N OUT              (keep OUT if it exists)
#   RUNS=5 bench/c2c_report.sh                      (runs of each tool, alternating; default 3)
#
# Each figure is the median of the runs (peak RSS: the largest); wall time depends on what else
# the machine runs, user+sys CPU time much less: both are printed, with their ratios.
# The recording is written by mkperf (lineup's perf.data writer) from a generated scenario that
# looks like a contended program: 16 threads on 16 CPUs in 2 NUMA nodes, 64 hot lines (HITMs,
# locked RMWs, stores from several functions) and 4096 cold lines (L1/LFB/L2/LLC/DRAM loads and
# stores), code addresses in mkperf's own functions so both tools resolve symbols and lines.
# The samples of the 25000 scenario lines are interleaved at random (mix), and written as perf
# record writes them: a FINISHED_ROUND every 50k samples, each round's samples CPU by CPU
# (percpu), so the file is not in time order and each round has to be sorted.
set -eu

N=${1:-12500000}
OUT=${2:-${TMPDIR:-/tmp}/lineup-bench-c2c.data}
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

MK=$(readlink -f "$MKPERF")
W=$(mktemp -d "${TMPDIR:-/tmp}/lineup-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT

# Function symbols of mkperf's text, for ip=SYMBOL+OFF.
nm --defined-only "$MK" | awk '$2 ~ /^[Tt]$/ && $3 !~ /\./ {print $3}' | sort -u | head -200 \
	>"$W/syms"
[ -s "$W/syms" ] || { echo "no function symbols in $MK" >&2; exit 2; }

# The scenario: 25000 sample lines, each repeated N/25000 times.
awk -v n="$N" -v mk="$MK" -v symfile="$W/syms" 'BEGIN {
	while ((getline s < symfile) > 0) sym[ns++] = s
	srand(42)
	print "cpus 16 sockets=2"
	print "event load"
	print "event store"
	print "comm 4000 4000 bench"
	for (t = 1; t < 16; t++) print "fork 4000 4000 " 4000 + t " 4000"
	print "mmap 4000 auto " mk
	print "anon 4000 0x7f0000000000 0x200000"
	print "percpu"
	print "mix"
	nlines = 25000
	rep = int(n / nlines); if (rep < 1) rep = 1
	split("LCL_HITM RMT_HITM LCL_HITM+LOCKED ST_L1HIT ST_L1MISS L1 LFB LCL_PEER RMT_HIT", hot, " ")
	split("L1 L1 L1 LFB L2 LLC LCL_DRAM RMT_DRAM ST_L1HIT ST_L1HIT ST_NA LOAD_NA L1+BLK_DATA UNCACHED L2+TLB_MISS", cold, " ")
	for (i = 0; i < nlines; i++) {
		t = int(rand() * 16)
		if (rand() < 0.3) {
			line = int(rand() * 64); src = hot[1 + int(rand() * 9)]
			ip = sym[int(rand() * 48) % ns] "+" 4 * int(rand() * 8)
		} else {
			line = 64 + int(rand() * 4096); src = cold[1 + int(rand() * 15)]
			ip = sym[(48 + int(rand() * 16)) % ns] "+" 4 * int(rand() * 4)
		}
		off = 8 * int(rand() * 8)
		ev = (src ~ /^ST_/) ? "store" : "load"
		node = t < 8 ? 0 : 1
		# decimal: awk (mawk) reads no hex constants and prints no %x or %d above 2^31
		printf "sample %s tid=%d cpu=%d ip=%s addr=%.0f src=%s weight=%d phys=%.0f repeat=%d\n", \
			ev, 4000 + t, t, ip, 139637976727552 + line * 64 + off, src, 30 + int(rand() * 500), \
			node * 2147483648 + 16777216 + line * 64 + off, rep
	}
	print "mix end seed=42 round=50000"
}' >"$W/scenario"

if [ "${REUSE:-0}" = 1 ] && [ -s "$OUT" ]; then
	echo "reusing $OUT (REUSE=1)"
else
	echo "writing $OUT ($N samples)..."
	"$MKPERF" -o "$OUT" "$W/scenario"
fi
SIZE=$(stat -c %s "$OUT")
echo "recording: $OUT, $SIZE bytes"

RUNS=${RUNS:-3}

# run NAME CMD...: one run, appending wall, user+sys and peak RSS to NAME.wall/.cpu/.rss
run() {
	name=$1
	shift
	"$TIME" -v -o "$W/$name.time" "$@" >"$W/$name.out" 2>"$W/$name.err" || {
		echo "$name failed:" >&2
		cat "$W/$name.err" >&2
		exit 1
	}
	awk -F': ' '/Elapsed \(wall clock\)/ {
			n = split($2, p, ":"); s = 0
			for (i = 1; i <= n; i++) s = s * 60 + p[i]
			print s
		}' "$W/$name.time" >>"$W/$name.wall"
	awk -F': ' '/Maximum resident set size/ {print $2}' "$W/$name.time" >>"$W/$name.rss"
	awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$W/$name.time" >>"$W/$name.cpu"
}

median() {
	sort -n "$1" | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

i=0
while [ "$i" -lt "$RUNS" ]; do
	run lineup "$LINEUP" report --stdio -i "$OUT"
	run perf "$PERF" c2c report --stdio -i "$OUT"
	i=$((i + 1))
done

lw=$(median "$W/lineup.wall") pw=$(median "$W/perf.wall")
lr=$(sort -n "$W/lineup.rss" | tail -1) pr=$(sort -n "$W/perf.rss" | tail -1)
lc=$(median "$W/lineup.cpu") pc=$(median "$W/perf.cpu")
echo "runs: $RUNS of each (median wall and user+sys, largest peak RSS); load average:" \
	"$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo "lineup wall: $(tr '\n' ' ' <"$W/lineup.wall")  cpu: $(tr '\n' ' ' <"$W/lineup.cpu")"
echo "perf   wall: $(tr '\n' ' ' <"$W/perf.wall")  cpu: $(tr '\n' ' ' <"$W/perf.cpu")"
if cmp -s "$W/lineup.out" "$W/perf.out"; then same="identical"; else same="DIFFERENT"; fi
printf '%-8s %10s %14s %14s\n' tool "wall (s)" "user+sys (s)" "peak RSS (MB)"
printf '%-8s %10.2f %14.2f %14.1f\n' lineup "$lw" "$lc" "$(echo "$lr" | awk '{print $1 / 1024}')"
printf '%-8s %10.2f %14.2f %14.1f\n' perf "$pw" "$pc" "$(echo "$pr" | awk '{print $1 / 1024}')"
awk -v lw="$lw" -v pw="$pw" -v lr="$lr" -v pr="$pr" -v lc="$lc" -v pc="$pc" 'BEGIN {
	printf "speed: lineup is %.1fx faster (wall), %.1fx (CPU time); ", \
		pw / (lw > 0 ? lw : 0.001), pc / (lc > 0 ? lc : 0.001)
	printf "memory: lineup uses %.3f of perf'"'"'s peak RSS (1/%.0f)\n", lr / pr, pr / lr
}'
echo "outputs: $same ($(wc -l <"$W/lineup.out") lines)"
[ "$same" = identical ] || { diff "$W/perf.out" "$W/lineup.out" | head -20; exit 1; }
