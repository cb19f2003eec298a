#!/bin/sh
# The software collector's slowdown, workload by workload, in one run: each workload of
# tests/workloads built plainly (cc -O2) and for the collector (`lineup sim-flags`), run
# alternately RUNS times, and the median of the parallel section's wall time (the workloads
# time it themselves) compared.  The collector's runs write their perf.data with the default
# sampling periods; "total" is the whole process including that write.
#
#   bench/sim_overhead.sh [RUNS] [THREADS] [WINDOW] [WORKLOAD...]
#
# from a build directory; defaults 5, 2, the collector's default windows, every workload.
# WINDOW is `lineup record --sim-window`'s argument (LINEUP_SIM_WINDOW): 0 models every
# access (exact), e.g. 200/2000/10000 samples the model (the default).  The load average is
# printed before and after: on a shared machine, take the medians of several runs.
#
# Target: at most 5x (Predator, the best published instrumentation-based detector, reports
# about 6x on Phoenix and PARSEC).  These workloads are the worst case for any instrumentation:
# tight loops that do nothing but the contended access (key_clear's is a bzero and a memcpy per
# word, which the plain build expands inline and the collector's calls).  CC=clang compares clang builds: clang
# makes `x++` one call to the collector (compound read-write), gcc two.  Between windows the
# collector's call sites are patched to no-ops (x86-64); LINEUP_SIM_PATCH=0 in the environment
# keeps them calls that count loads (`record --sim-count`), the way to see what patching saves.
set -eu

RUNS=${1:-5}
THREADS=${2:-2}
WINDOW=${3:-}
[ $# -gt 3 ] && shift 3 || set --
B=${top_builddir:-.}
LINEUP=${LINEUP:-$B/lineup}
SRC=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
CC=${CC:-gcc}
WL=$SRC/tests/workloads

[ -x "$LINEUP" ] || { echo "missing $LINEUP: run from a build directory after make" >&2; exit 2; }
W=$(mktemp -d "${TMPDIR:-/tmp}/lineup-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT
CFLAGS_SIM=$("$LINEUP" sim-flags --cc "$CC" --cflags)
LIBS_SIM=$("$LINEUP" sim-flags --cc "$CC" --libs)

# name iterations: sized so that the plain build runs for tens of milliseconds at least (GNU
# time reports CPU time in 10 ms steps: cpu_x divides by the plain time + 5 ms).
WORKLOADS="fs_adjacent:100000000 fs_padded:100000000 struct_file:2000000 percpu_stats:50000000
atomic_counter:10000000 histogram:50000000 flag_word:10000000 mutex_pair:2000000
key_clear:20000000"

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
least() { sort -g | head -1; }

TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "$TIME (GNU time) is not installed" >&2; exit 2; }
echo "# $CC, runs $RUNS, threads $THREADS, window ${WINDOW:-default}, call sites $([ "${LINEUP_SIM_PATCH:-1}" = 0 ] && echo counting || echo patched); $(uptime | sed 's/.*load/load/')"
# wall_x: medians' ratio; best_x: the fastest runs' (noise on a shared machine only adds time).
printf '%-15s %10s %9s %9s %7s %7s %9s %9s %7s\n' workload iterations wall_plain wall_sim wall_x \
	best_x cpu_plain cpu_sim cpu_x
for w in $WORKLOADS; do
	name=${w%%:*}
	n=${w#*:}
	if [ $# -gt 0 ]; then
		case " $* " in *" $name "*) ;; *) continue ;; esac
	fi
	"$CC" -O2 -g -o "$W/$name-plain" "$WL/$name.c" -lpthread
	# shellcheck disable=SC2086
	"$CC" $CFLAGS_SIM -O2 -c -o "$W/$name.o" "$WL/$name.c"
	# shellcheck disable=SC2086
	"$CC" -o "$W/$name-sim" "$W/$name.o" $LIBS_SIM
	: >"$W/plain"
	: >"$W/sim"
	: >"$W/plain_total"
	: >"$W/sim_total"
	for r in $(seq "$RUNS"); do
		# The workloads print their timed section's seconds last.
		"$TIME" -f '%U %S' -o "$W/t" "$W/$name-plain" "$n" "$THREADS" 2>/dev/null |
			tail -1 >>"$W/plain"
		awk '{ print $1 + $2 }' "$W/t" >>"$W/plain_total"
		LINEUP_SIM_OUTPUT="$W/$name.data" LINEUP_SIM_WINDOW="$WINDOW" "$TIME" -f '%U %S' -o "$W/t" \
			"$W/$name-sim" "$n" "$THREADS" 2>/dev/null | tail -1 >>"$W/sim"
		awk '{ print $1 + $2 }' "$W/t" >>"$W/sim_total"
	done
	p=$(median <"$W/plain")
	s=$(median <"$W/sim")
	pt=$(median <"$W/plain_total")
	st=$(median <"$W/sim_total")
	bx=$(echo "$(least <"$W/sim") / $(least <"$W/plain")" | bc -l)
	printf '%-15s %10s %9.4f %9.4f %6.1fx %6.1fx %9.2f %9.2f %6.1fx\n' "$name" "$n" "$p" "$s" \
		"$(echo "$s / $p" | bc -l)" "$bx" "$pt" "$st" "$(echo "$st / ($pt + 0.005)" | bc -l)"
done
echo "# $(uptime | sed 's/.*load/load/')"
