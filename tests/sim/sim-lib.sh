# Helpers for the software collector's tests (sourced after tests/lib.sh and scratch).

WL="$top_srcdir/tests/workloads"

# sim_build NAME COMPILER [CFLAGS...]: build tests/workloads/NAME.c for the collector into
# $T/NAME-COMPILER, with `lineup sim-flags`, compiling and linking in two steps (with gcc when
# COMPILER is not installed, under the same name).
sim_build() {
	local name=$1 want=$2 cc=$2 cflags libs
	shift 2
	if ! command -v "$cc" >/dev/null; then
		echo "sim_build: no $cc here, building $name-$want with gcc" >&2
		cc=gcc
	fi
	cflags=$("$LINEUP" sim-flags --cc "$cc" --cflags) || fail "sim-flags --cflags"
	libs=$("$LINEUP" sim-flags --cc "$cc" --libs) || fail "sim-flags --libs"
	# shellcheck disable=SC2086
	"$cc" $cflags -O2 "$@" -c -o "$T/$name-$want.o" "$WL/$name.c" ||
		fail "$cc could not compile $name.c for the collector"
	# shellcheck disable=SC2086
	"$cc" -o "$T/$name-$want" "$T/$name-$want.o" $libs ||
		fail "$cc could not link $name with the collector's runtime"
}

# sim_record OUT PROG ARGS...: record PROG with the collector, sampling misses densely
# (LINEUP_SIM_MISS_PERIOD=5 unless set) so that a short run still shows its contention, and
# with threads taking turns every 100 accesses (LINEUP_SIM_TURNS, `record --sim-turns`), so
# that they interleave whatever a busy machine's scheduler does (unless the test set
# LINEUP_SIM_YIELD or LINEUP_SIM_TURNS itself).  $SIM_OPTS: more `lineup record` options;
# unset, --sim-exact: the tests' runs are short, and a busy machine can stretch one past the
# collector's exact start into a window or two, which is not what they test (the sampled
# default is tests/sim/sampling.sh's); set it (even empty) for the windows.
sim_record() {
	local out=$1
	shift
	[ -n "${LINEUP_SIM_YIELD:-}" ] || export LINEUP_SIM_TURNS=${LINEUP_SIM_TURNS:-100}
	# shellcheck disable=SC2086
	LINEUP_SIM_MISS_PERIOD=${LINEUP_SIM_MISS_PERIOD:-5} \
		"$LINEUP" record --sim ${SIM_OPTS---sim-exact} -o "$out" -- "$@" >"$T/record.out" \
		2>"$T/record.err" ||
		{ cat "$T/record.err" >&2; fail "lineup record --sim $*"; }
	[ -s "$out" ] || fail "lineup record --sim wrote no $out"
}

# c2c_pareto FILE: perf c2c report's per-offset rows, one per line:
#   LINE_INDEX LCLHITM_PCT STORE_L1HIT_PCT STORE_L1MISS_PCT OFFSET SOURCE:LINE
c2c_pareto() {
	"$PERF" c2c report -i "$1" --stdio -N 2>/dev/null |
		awk '/Shared Cache Line Distribution Pareto/ { p = 1 }
		     p && /^ +[0-9]+ +[0-9]+ +[0-9]+ / { idx = $1 }
		     p && /^ +[0-9.]+% +[0-9.]+% / {
			src = ""
			for (i = NF; i > 0; i--) if ($i ~ /:[0-9]+$/) { src = $i; break }
			print idx, $2, $3, $4, $6, src
		     }'
}

# c2c_lines FILE: the Shared Data Cache Line Table: INDEX ADDRESS LCLHITM STORES
c2c_lines() {
	"$PERF" c2c report -i "$1" --stdio 2>/dev/null |
		awk '/Shared Data Cache Line Table/ { p = 1 } /Pareto/ { p = 0 }
		     p && /^ +[0-9]+ +0x[0-9a-f]+ / { print $1, $2, $7, $11 }'
}

# c2c_stat FILE NAME: one figure of perf c2c's "Trace Event Information".
c2c_stat() {
	"$PERF" c2c report -i "$1" --stdio --stats 2>/dev/null |
		awk -F: -v k="$2" '{ n = $1; gsub(/^ +| +$/, "", n) } n == k { gsub(/ /, "", $2); print $2; exit }'
}

# lineup_stat FILE NAME: the same figure from lineup report --stats.
lineup_stat() {
	"$LINEUP" report -i "$1" --stdio --stats 2>/dev/null |
		awk -F: -v k="$2" '{ n = $1; gsub(/^ +| +$/, "", n) } n == k { gsub(/ /, "", $2); print $2; exit }'
}

# The line in the workload source holding PATTERN: "file.c:N".
src_line() {
	local n
	n=$(grep -n -F -- "$2" "$WL/$1" | head -1 | cut -d: -f1)
	[ -n "$n" ] || fail "no '$2' in $1"
	echo "$1:$n"
}

# sim_record_contended OUT MIN PROG ARGS...: sim_record until perf c2c counts at least MIN
# Load Local HITMs, 5 tries at most.  Contention needs the threads to run at the same time,
# which a busy 2-CPU machine does not always grant: the model records what really happened.
sim_record_contended() {
	local out=$1 min=$2 try hitm
	shift 2
	for try in 1 2 3 4 5; do
		sim_record "$out" "$@"
		hitm=$(c2c_stat "$out" "Load Local HITM")
		[ "${hitm:-0}" -ge "$min" ] && return 0
		echo "try $try: $hitm HITMs from ${1##*/} (threads did not overlap?), again" >&2
	done
	fail "$* never showed $min HITMs in 5 runs"
}

# same_as_perf FILE: lineup report --stdio prints what perf c2c report --stdio prints: the
# same lines, offsets, code addresses and counts; and perf has no warning about the file.
same_as_perf() {
	"$LINEUP" report --stdio -i "$1" >"$T/lineup.txt" 2>"$T/lineup.err" ||
		{ cat "$T/lineup.err"; fail "lineup report -i $1"; }
	"$PERF" c2c report --stdio -i "$1" >"$T/perf.txt" 2>"$T/perf.err"
	# perf reads the collector's file without a complaint (warnings go to stderr).
	[ ! -s "$T/perf.err" ] || fail "perf c2c report warns about $1: $(head -5 "$T/perf.err")"
	diff "$T/perf.txt" "$T/lineup.txt" >"$T/diff" ||
		{ head -40 "$T/diff"; fail "lineup report differs from perf c2c report on $1"; }
}
