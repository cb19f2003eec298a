#!/bin/sh
# False sharing against the clock: workload (a), two threads incrementing adjacent counters,
# against (b), the same counters 128 bytes apart, both uninstrumented (cc -O2), run
# alternately RUNS times in one run; prints each median and the ratio a/b, for plain volatile
# increments (a load and a store: the store buffer forwards, so the line moves less often) and
# for locked adds (every increment needs the line Modified: refcounts, statistics counters).
# This is what the collector's verdict on (a) is worth on this machine.
#
#   bench/false_sharing_ab.sh [RUNS] [ITERATIONS]     (defaults 7 and 100000000)
set -eu

RUNS=${1:-7}
N=${2:-100000000}
SRC=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
CC=${CC:-gcc}
WL=$SRC/tests/workloads
W=$(mktemp -d "${TMPDIR:-/tmp}/lineup-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "runs $RUNS, $N increments per thread, 2 threads, $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg)"
for kind in plain atomic; do
	def=
	[ $kind = atomic ] && def=-DATOMIC_INC
	"$CC" -O2 $def -o "$W/a" "$WL/fs_adjacent.c" -lpthread
	"$CC" -O2 $def -o "$W/b" "$WL/fs_padded.c" -lpthread
	: >"$W/ta"
	: >"$W/tb"
	for r in $(seq "$RUNS"); do
		"$W/a" "$N" 2 2>/dev/null >>"$W/ta"
		"$W/b" "$N" 2 2>/dev/null >>"$W/tb"
	done
	a=$(median <"$W/ta")
	b=$(median <"$W/tb")
	echo "$kind increments:"
	echo "  (a) adjacent counters: $(tr '\n' ' ' <"$W/ta")-> median ${a}s"
	echo "  (b) padded counters:   $(tr '\n' ' ' <"$W/tb")-> median ${b}s"
	printf '  a/b wall-time ratio: %.2fx\n' "$(echo "$a / $b" | bc -l)"
done
