#!/bin/sh
# The man page's EXIT STATUS: 2 is bad usage or bad input only; a failure while running (no
# memory PMU to open, output that cannot be written) is 1.  Each command's own exceptions are in
# its section (ab: 1 is "not significant", a failing command 2).
. "$top_srcdir/tests/lib.sh"
scratch

# record on a machine without a memory PMU (an empty sysfs stands in for one): 1, said
mkdir -p "$T/sys/bus/event_source/devices"
LINEUP_SYSFS="$T/sys" expect_rc 1 "$LINEUP" record -o "$T/a.data" -- true 2>"$T/err"
grep -q "no memory-sampling PMU" "$T/err" || fail "record without a PMU: $(cat "$T/err")"
[ -e "$T/a.data" ] && fail "record without a PMU left $T/a.data"

# bad usage and bad input stay 2: an unknown option, a program that cannot be run
expect_rc 2 "$LINEUP" record --no-such-option -- true 2>/dev/null
expect_rc 2 "$LINEUP" record -e page-faults -o "$T/b.data" -- "$T/no-such-program" 2>"$T/err"
grep -q "cannot run $T/no-such-program" "$T/err" || fail "record of no program: $(cat "$T/err")"

# output that cannot be written: 1 (report, fields and info into /dev/full: tests/e2e/full.sh)
if [ -w /dev/full ]; then
	expect_rc 1 "$LINEUP" report --stdio -i "$FIXTURES/perf.data.weight_struct" \
		>/dev/full 2>"$T/err"
	grep -q "No space left on device" "$T/err" || fail "report into /dev/full: $(cat "$T/err")"
fi
exit 0
