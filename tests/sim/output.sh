#!/bin/sh
# The collector's files: the spool has no name a link could be planted at; the recording is
# written to a new file (mode 0600, as perf's) renamed into place, never through a link; record
# --sim keeps an older recording as .old and refuses, before running anything, a directory, a
# link or a device at -o, and a directory that does not exist; -o - writes pipe mode on stdout.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sim/sim-lib.sh"
scratch
sim_build fs_adjacent gcc
prog="$T/fs_adjacent-gcc"
export LINEUP_SIM_TURNS=100

# The spool: before, OUT.spool.PID was opened O_CREAT|O_TRUNC, following a link planted there.
# (sh's pid is the program's after the exec.)
echo precious >"$T/victim"
LINEUP_SIM_OUTPUT="$T/s.data" sh -c 'ln -s "$1" "$2.spool.$$" && exec "$3" 20000' sh \
	"$T/victim" "$T/s.data" "$prog" >/dev/null || fail "run with a planted spool link"
[ "$(cat "$T/victim")" = precious ] || fail "the spool was written through a planted link"
[ -s "$T/s.data" ] || fail "no recording with a link at the old spool name"
[ "$(ls "$T" | grep -c spool)" = 1 ] || fail "a spool file was left behind: $(ls "$T")"

# The recording itself: a link at the output is replaced, not written through.
ln -s "$T/victim" "$T/l.data"
LINEUP_SIM_OUTPUT="$T/l.data" "$prog" 20000 >/dev/null || fail "run with LINEUP_SIM_OUTPUT a link"
[ "$(cat "$T/victim")" = precious ] || fail "the recording was written through a link"
[ -f "$T/l.data" ] && [ ! -L "$T/l.data" ] || fail "l.data is not a new regular file"
# An existing file replaced is the new one's mode, 0600, not the old one's.
echo old >"$T/m.data"
chmod 644 "$T/m.data"
LINEUP_SIM_OUTPUT="$T/m.data" "$prog" 20000 >/dev/null || fail "run over an existing file"
[ "$(stat -c %a "$T/m.data")" = 600 ] || fail "mode $(stat -c %a "$T/m.data"), want 600"
"$LINEUP" record --sim -o "$T/r.data" -- "$prog" 20000 >/dev/null 2>&1 || fail "record"
[ "$(stat -c %a "$T/r.data")" = 600 ] || fail "record: mode $(stat -c %a "$T/r.data")"
ls -a "$T" | grep -q '^\.[a-z]*\.data\.' && fail "a temporary file was left: $(ls -a "$T")"

# record --sim -o PATH: an older recording becomes PATH.old...
cp "$T/r.data" "$T/first"
"$LINEUP" record --sim -o "$T/r.data" -- "$prog" 20000 >/dev/null 2>&1 || fail "record again"
cmp -s "$T/r.data.old" "$T/first" || fail "the older recording was not kept as r.data.old"
# ...and anything else there is refused with exit 2 before the workload runs (it would
# print its time on stdout).
refused() {
	expect_rc 2 "$LINEUP" record --sim -o "$1" -- "$prog" 20000 >"$T/out" 2>"$T/err"
	grep -q "$2" "$T/err" || fail "-o $1: $(cat "$T/err")"
	[ ! -s "$T/out" ] || fail "-o $1: the workload ran"
}
mkdir "$T/dir.data"
refused "$T/dir.data" "is not a regular file (a directory)"
[ -d "$T/dir.data" ] && [ ! -e "$T/dir.data.old" ] || fail "the directory was moved"
ln -sf "$T/victim" "$T/l2.data"
refused "$T/l2.data" "is not a regular file (a symbolic link)"
[ -L "$T/l2.data" ] || fail "the link was moved"
refused /dev/null "/dev/null exists and is not a regular file (a device"
[ -c /dev/null ] || fail "/dev/null was moved"
refused "$T/no/such/dir/x.data" "cannot write $T/no/such/dir/x.data: No such file or directory"

# -o -: pipe mode on stdout, which perf and lineup read; the program's output goes to stderr.
"$LINEUP" record --sim -o - -- "$prog" 20000 >"$T/pipe.data" 2>"$T/err" ||
	fail "record --sim -o -: $(cat "$T/err")"
[ "$(od -A n -t x8 -j 8 -N 8 "$T/pipe.data" | tr -d ' ')" = 0000000000000010 ] ||
	fail "-o - did not write pipe mode"
"$LINEUP" report -i - --stdio <"$T/pipe.data" >"$T/rep" || fail "lineup report -i - of -o -"
grep -q 'Total records' "$T/rep" || fail "no report of -o -"
grep -q 'wrote standard output' "$T/err" || fail "no summary: $(cat "$T/err")"
if [ -n "${PERF:-}" ]; then
	cat "$T/pipe.data" | "$PERF" report -i - --stats >"$T/perf" 2>&1 ||
		fail "perf does not read -o -: $(head -3 "$T/perf")"
fi
exit 0
