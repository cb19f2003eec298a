#!/bin/sh
# lineup info --header-only prints what perf report --header-only prints, every line of it:
# the event lines with the attr's fields decoded as perf decodes them (sample_type and
# read_format by name, each flag on its own), and nothing of lineup's own (that is --extra's).
. "$top_srcdir/tests/lib.sh"
[ -n "${PERF:-}" ] || skip "perf is not installed"
scratch
n=0
for f in "$FIXTURES"/*perf.data*; do
	b=$(basename "$f")
	case $b in *corrupted*) continue ;; esac	# (perf prints the header before the bad record)
	"$PERF" report --header-only -i "$f" >"$T/p.hdr" 2>/dev/null || continue
	grep -q '^# header version' "$T/p.hdr" || continue
	"$LINEUP" info --header-only -i "$f" >"$T/l.hdr" 2>"$T/err" ||
		fail "$b: lineup info --header-only: $(cat "$T/err")"
	diff -u "$T/p.hdr" "$T/l.hdr" || fail "$b: lineup's header is not perf's"
	grep -q '^# lineup:' "$T/l.hdr" && fail "$b: lineup's own lines without --extra"
	"$LINEUP" info --header-only --extra -i "$f" | grep -q '^# lineup: cache line size' ||
		fail "$b: --extra does not add lineup's facts"
	n=$((n + 1))
done
[ $n -ge 8 ] || fail "only $n recordings compared"
# The collector's events and perf c2c's (IDENTIFIER, DATA_SRC, WEIGHT: perf's table order).
printf 'c2c_events\ncomm 1 1 x\nsample load tid=1 cpu=0 ip=0x1000 addr=0x2000 src=LCL_HITM\n' |
	"$top_builddir/tests/tools/mkperf" -o "$T/c2c.data" - || fail "mkperf"
"$PERF" report --header-only -i "$T/c2c.data" 2>/dev/null | grep '^# event' >"$T/p.ev"
"$LINEUP" info --header-only -i "$T/c2c.data" | grep '^# event' >"$T/l.ev"
[ -s "$T/p.ev" ] || fail "perf prints no event line for the c2c events"
diff -u "$T/p.ev" "$T/l.ev" || fail "c2c event lines differ from perf's"
exit 0
