#!/bin/sh
# A recording with more distinct entries (cache line, offset, code address) than this process
# may take: report says so, early (a projection from the part read), then stops with exit 1
# while there is still room, naming what bounds it; never the allocator's abort or a kill.
# The bound here is RLIMIT_AS (ulimit -v), stepped from too small for the entries to enough.
. "$top_srcdir/tests/lib.sh"
scratch
MKPERF="$top_builddir/tests/tools/mkperf"
[ -x "$MKPERF" ] || fail "mkperf was not built"
# a sanitizer build reserves terabytes of address space: no RLIMIT_AS fits it
(ulimit -v 1000000 && "$LINEUP" --version) >/dev/null 2>&1 ||
	skip "lineup does not start within 1 GB of address space (a sanitizer build?)"

# 300,000 samples, nearly all of them distinct entries: about 100 MB of tables
"$MKPERF" --generate 300000 -o "$T/r.data" >/dev/null || fail "mkperf --generate failed"
expect_rc 0 "$LINEUP" report --stdio -i "$T/r.data" >"$T/full.out"
grep -q "Shared Data Cache Line Table" "$T/full.out" || fail "no report without a limit"

stopped=0 warned=0 whole=0
for kb in 60000 80000 100000 120000 140000 160000 200000 300000 400000; do
	(ulimit -v $kb && exec "$LINEUP" report --stdio -i "$T/r.data") >"$T/out" 2>"$T/err"
	rc=$?
	case $rc in
	0)
		cmp -s "$T/out" "$T/full.out" || fail "ulimit -v $kb: exit 0 with another report"
		whole=$((whole + 1))
		;;
	1)
		grep -q "stopped .* into the recording: its [0-9]* distinct entries .* MB is left (RLIMIT_AS), and the rest would not fit" "$T/err" ||
			{ cat "$T/err" >&2; fail "ulimit -v $kb: exit 1 without saying why"; }
		stopped=$((stopped + 1))
		;;
	*)
		cat "$T/err" >&2
		fail "ulimit -v $kb: exit $rc (a crash or the allocator's abort)"
		;;
	esac
	grep -q "warning: .*at this rate the rest needs about [0-9]* MB more, and [0-9]* MB is left for them (RLIMIT_AS)" "$T/err" &&
		warned=$((warned + 1))
done
[ $stopped -gt 0 ] || fail "no limit was small enough to stop the report"
[ $whole -gt 0 ] || fail "no limit was large enough for the whole report"
[ $warned -gt 0 ] || fail "no run warned before it ran out"
exit 0
