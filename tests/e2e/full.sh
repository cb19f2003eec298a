#!/bin/sh
# Output that could not be written is an error: `info` (and `layout`, which said so first) into
# a full device name the output and exit 1 (a failure while running), never 0.  (report and
# fields: tests/c2c/formats.sh and tests/fields/outputs.sh.)
. "$top_srcdir/tests/lib.sh"
scratch
[ -w /dev/full ] || skip "no /dev/full"
data="$FIXTURES/perf.data.weight_struct"
for opts in "" "--json" "--stats" "--header-only" "-I" "--json --header-only"; do
	expect_rc 1 "$LINEUP" info $opts -i "$data" >/dev/full 2>"$T/err"
	grep -q "writing standard output: No space left on device" "$T/err" ||
		fail "info $opts into /dev/full: $(cat "$T/err")"
	"$LINEUP" info $opts -i "$data" >/dev/null || fail "info $opts failed into /dev/null"
done
# A small output, held in stdio's buffer until the end: the final flush is checked too.
expect_rc 1 "$LINEUP" info --stats -i "$data" >/dev/full 2>"$T/err"
need gcc
printf 'struct s { int a; long b; };\nstruct s v;\n' >"$T/s.c"
gcc -g -c -o "$T/s.o" "$T/s.c" || fail "gcc"
for opts in "" "--json"; do
	expect_rc 1 "$LINEUP" layout $opts -C s "$T/s.o" >/dev/full 2>"$T/err"
	grep -q "writing standard output: No space left on device" "$T/err" ||
		fail "layout $opts into /dev/full: $(cat "$T/err")"
done
exit 0
