#!/bin/sh
# The real-program corpus (issue 16): one bug shape per case, each with its hand-fixed twin.
#   tests/realprog/run.sh tests/realprog/NAME.case      (make check runs it per .case file)
# NAME.c (or .cc) has the bug, NAME_fixed.c its fix.  NAME.case is a shell fragment that sets:
#   args        the program's arguments
#   builds      the builds where the bug survives the optimiser: any of gcc-O0 gcc-O2 clang-O0
#               clang-O2 (C++ cases use g++ and clang++ for gcc and clang); default: all four
#   min_hitm    the HITMs the bug's recording must show (default 10)
#   cflags, libs  more compile and link flags (default: none, and -lpthread)
# and defines check_bug (and optionally check_fixed), called as
#   check_bug TXT JSON RC     `lineup fields` stdio output, its --json output, its exit code
# returning non-zero with a reason on stdout.  The default check_fixed: exit 0, and no line of
# the JSON with a verdict (the twin has no contended line).
# Each build of each program is recorded with `lineup record --sim`: the bug until it shows
# min_hitm HITMs, the twin until its threads ran at the same time for 2% of the run or more
# (a twin whose threads never met proves nothing; after 3 tries it is said, and checked anyway).
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/sim/sim-lib.sh"
case_file=$1
[ -f "$case_file" ] || fail "no case file $case_file"
[ -n "${PERF:-}" ] || skip "perf is not installed (the recordings' HITMs are counted with it)"
need python3
dir=$(cd "$(dirname "$case_file")" && pwd)
name=$(basename "$case_file" .case)

args= builds="gcc-O0 gcc-O2 clang-O0 clang-O2" min_hitm=10 cflags= libs=-lpthread
check_bug() { echo "$case_file defines no check_bug"; return 1; }
check_fixed() {
	[ "$3" -eq 0 ] || { echo "lineup fields exit $3 on the fixed twin"; return 1; }
	python3 - "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
bad = [l for l in d["lines"] if l.get("verdict", "not contended") != "not contended"]
if bad:
    print("the fixed twin still has contended lines: %s" %
          ", ".join("%s (%s)" % (l.get("address", "?"), l["verdict"]) for l in bad[:5]))
    sys.exit(1)
PY
}
. "$case_file"

src=$dir/$name.c fixed=$dir/${name}_fixed.c cxx=
if [ -f "$dir/$name.cc" ]; then
	src=$dir/$name.cc fixed=$dir/${name}_fixed.cc cxx=1
fi
[ -f "$src" ] && [ -f "$fixed" ] || fail "$name: needs $(basename "$src") and $(basename "$fixed")"

# build VARIANT SOURCE CC OPT: the program built for the collector as $T/VARIANT
build() {
	local f s l
	f=$("$LINEUP" sim-flags --cc "$3" --cflags) || fail "sim-flags --cc $3 --cflags"
	l=$("$LINEUP" sim-flags --cc "$3" --libs) || fail "sim-flags --cc $3 --libs"
	# shellcheck disable=SC2086
	"$3" $f -$4 $cflags -c -o "$T/$1.o" "$2" >"$T/cc.err" 2>&1 &&
		"$3" -o "$T/$1" "$T/$1.o" $l $libs >>"$T/cc.err" 2>&1 ||
		{ cat "$T/cc.err"; fail "$3 -$4 does not build $(basename "$2")"; }
}

# fields VARIANT: $T/VARIANT.txt, .json and .rc from lineup fields on $T/VARIANT.data
fields() {
	local rc=0
	"$LINEUP" fields -i "$T/$1.data" >"$T/$1.txt" 2>&1 || rc=$?
	echo "$rc" >"$T/$1.rc"
	"$LINEUP" fields -i "$T/$1.data" --json >"$T/$1.json" 2>"$T/$1.jerr" ||
		[ "$rc" -ne 0 ] || fail "$1: fields --json failed where stdio did not: $(cat "$T/$1.jerr")"
}

overlap_pct() {	# the share of the modeled time the threads overlapped, from record's summary
	sed -n 's/.*ran at the same time for .* modeled (\([0-9]*\)%).*/\1/p' "$T/record.out" \
		"$T/record.err" | head -1
}

ran=0
for b in $builds; do
	cc=${b%-*} opt=${b#*-}
	[ -n "$cxx" ] && { [ "$cc" = gcc ] && cc=g++ || cc=clang++; }
	if ! command -v "$cc" >/dev/null 2>&1; then
		echo "# $name $b: no $cc here, not built"
		continue
	fi
	build "$b-bug" "$src" "$cc" "$opt"
	build "$b-fixed" "$fixed" "$cc" "$opt"

	# shellcheck disable=SC2086
	sim_record_contended "$T/$b-bug.data" "$min_hitm" "$T/$b-bug" $args
	bug_hitm=$(c2c_stat "$T/$b-bug.data" "Load Local HITM")
	fields "$b-bug"
	why=$(check_bug "$T/$b-bug.txt" "$T/$b-bug.json" "$(cat "$T/$b-bug.rc")") ||
		{ cat "$T/$b-bug.txt"; fail "$name $b: $why"; }

	for try in 1 2 3; do
		# shellcheck disable=SC2086
		sim_record "$T/$b-fixed.data" "$T/$b-fixed" $args
		pct=$(overlap_pct)
		[ "${pct:-100}" -ge 2 ] && break
		echo "# $name $b: the twin's threads overlapped for ${pct}% of the run, again" >&2
	done
	[ "${pct:-100}" -ge 2 ] ||
		echo "# $name $b: the twin's threads hardly overlapped (${pct}%): checked anyway"
	fixed_hitm=$(c2c_stat "$T/$b-fixed.data" "Load Local HITM")
	fields "$b-fixed"
	why=$(check_fixed "$T/$b-fixed.txt" "$T/$b-fixed.json" "$(cat "$T/$b-fixed.rc")") ||
		{ cat "$T/$b-fixed.txt"; fail "$name $b, the fixed twin: $why"; }
	echo "# $name $b: bug ${bug_hitm:-0} HITM, twin ${fixed_hitm:-0} HITM (overlap ${pct:-?}%)"
	ran=$((ran + 1))
done
[ "$ran" -gt 0 ] || skip "$name: none of its builds ($builds) has a compiler here"
