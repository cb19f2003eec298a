#!/bin/sh
# The report browser's d key shows the tables that report -d MODE shows: the cache-line table and
# the Pareto rows of its first and last lines after each d are the screens of a browser opened in
# that mode (report --fields: the Type, Member and Members columns too), on a recording whose
# lines change order from mode to mode.
. "$top_srcdir/tests/tui/lib.sh"
scratch
trap 'tui_stop; rm -rf "$T"' EXIT
LINEUP=$(cd "$(dirname "$LINEUP")" && pwd)/$(basename "$LINEUP")
MKPERF=$(cd "$top_builddir" && pwd)/tests/tools/mkperf
grep -q '^#define HAVE_NCURSESW 1' "$top_builddir/config.h" || skip "built without ncursesw"
"$MKPERF" --generate 20000 --lines 40 --seed 7 -o "$T/r.data" >/dev/null || fail "mkperf"
cd "$T" || exit 99

# The three screens of one mode: the lines (less the status line, where d leaves a message),
# the first line's Pareto rows, the last line's.
screens() {
	tui_settled "Shared Data Cache Line Table" | sed '$d' >"$1.lines"
	tui_keys Home Enter
	tui_settled "Cacheline 0x" >"$1.first"
	tui_keys q End Enter
	tui_settled "Cacheline 0x" >"$1.last"
	tui_keys q Home
	tui_settled "Shared Data Cache Line Table" >/dev/null
}

for m in tot lcl rmt peer; do
	tui_start 250 60 "$LINEUP" report --tui --fields --show-all -d $m -i r.data
	screens "$T/$m"
	tui_keys q
	tui_rc 0
done
grep -q "sorted on Local HITMs" "$T/lcl.lines" || fail "-d lcl: $(head -1 "$T/lcl.lines")"
cmp -s "$T/tot.first" "$T/lcl.first" && fail "the recording's first line is the same in two modes"

tui_start 250 60 "$LINEUP" report --tui --fields --show-all -i r.data
screens "$T/d0"
for m in lcl rmt peer tot; do
	tui_keys d
	screens "$T/d-$m"
	for s in lines first last; do
		cmp -s "$T/$m.$s" "$T/d-$m.$s" || {
			diff "$T/$m.$s" "$T/d-$m.$s" >&2
			fail "d to $m: the $s screen is not report -d $m's"
		}
	done
done
tui_keys q
tui_rc 0
tui_restored
