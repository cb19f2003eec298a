#!/bin/sh
# The browser on a large recording: what opening it costs beside `lineup report --stdio` on the
# same file (the tables are computed once, as for --stdio), and how long a key press takes to
# answer with about 10,000 cache lines shown (the key and the redraw, measured inside lineup
# through LINEUP_TUI_SCRIPT, in a real terminal: a tmux pane of 80x24).
#
#   bench/tui.sh [SAMPLES] [LINES]        (from a build directory; default 2M samples, 10000 lines;
#                                           12500000 samples make the issue's 1.1 GB recording)
#   RUNS=5 bench/tui.sh                     (runs of each; default 3)
#   FIELDS=0 bench/tui.sh                   (only plain report; default: plain, then --fields,
#                                            which adds the Type, Member and Members columns)
#   KEEP=/tmp/big.data bench/tui.sh ...     (the recording kept there, and used again if there)
#
# The recording is mkperf's generated one (tests/tools/mkperf --generate) with LINES hot lines;
# --show-all shows every line (the -d threshold would hide lines with a 1/10000 share).
# Opening is timed as tests/tui/ sees a screen: from the pane's start until tmux's capture of
# it shows the cache-line table (polled every 20 ms), against `report --stdio` into /dev/null.
# The first Enter on a line reads the recording again for its structs (once, as `lineup
# fields` would): timed apart from the keys.
# Figures, not assertions: medians of the runs, user+sys CPU time beside the wall time.
set -eu

N=${1:-2000000}
NL=${2:-10000}
RUNS=${RUNS:-3}
B=${top_builddir:-.}
LINEUP=$(readlink -f "${LINEUP:-$B/lineup}")
MKPERF=${MKPERF:-$B/tests/tools/mkperf}
TIME=/usr/bin/time

for x in "$LINEUP" "$MKPERF"; do
	[ -x "$x" ] || { echo "missing $x: run from a build directory after make" >&2; exit 2; }
done
command -v tmux >/dev/null || { echo "tmux is not installed" >&2; exit 2; }
[ -x "$TIME" ] || { echo "$TIME (GNU time) is not installed" >&2; exit 2; }
grep -q '^#define HAVE_NCURSESW 1' "$B/config.h" || { echo "built without ncursesw" >&2; exit 2; }

W=$(mktemp -d "${TMPDIR:-/tmp}/lineup-bench-tui.XXXXXX")
trap 'tmux -S "$W/sock" kill-server 2>/dev/null; rm -rf "$W"' EXIT
R=${KEEP:-$W/r.data}
[ -s "$R" ] || "$MKPERF" --generate "$N" --lines "$NL" -o "$R" >/dev/null
echo "recording: $N samples, $NL lines, $(du -m "$R" | cut -f1) MB"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# One browser run in a fresh pane: $1 the key script, $2 where its figures go.
pane() {
	tmux -S "$W/sock" kill-server 2>/dev/null || true
	cat >"$W/pane.sh" <<EOF
LINEUP_TUI_SCRIPT=$1 $TIME -f "%e %U %S" -o "$2.time" "$LINEUP" report --tui --show-all \
	$OPTS -i "$R" 2>"$2.err"
echo done >"$2.done"
EOF
	rm -f "$2.done"
	tmux -S "$W/sock" -f /dev/null new-session -d -x 80 -y 24 \
		env TERM=screen LANG=C.UTF-8 sh "$W/pane.sh"
	while ! [ -f "$2.done" ]; do sleep 0.2; done
}

# A key script: one key a line.
script() {
	name=$1
	shift
	: >"$W/$name.keys"
	for k in "$@"; do echo "$k" >>"$W/$name.keys"; done
}
rep() { n=$1; shift; i=0; while [ $i -lt "$n" ]; do printf '%s\n' "$@"; i=$((i + 1)); done; }
script move $(rep 200 j) $(rep 50 PgDn) End Home $(rep 50 PgUp) $(rep 100 k)
script sort s s s s s S S s s s
script search /0x7f000 n n n n n N N N /10 n n
script enter $(rep 20 Enter q j)
script display $(rep 8 d)
script first Enter
script into Enter q $(rep 20 j Enter q) $(rep 20 l q)
echo q >"$W/quit"

# Seconds from a pane's start until its screen shows the cache-line table; the pane then quits.
first_screen() {
	tmux -S "$W/sock" kill-server 2>/dev/null || true
	rm -f "$W/fs.done"
	cat >"$W/fs.sh" <<EOF
$TIME -f "%e %U %S" -o "$W/fs.time" "$LINEUP" report --tui --show-all $OPTS -i "$R" 2>/dev/null
echo done >"$W/fs.done"
EOF
	t0=$(date +%s%N)
	tmux -S "$W/sock" -f /dev/null new-session -d -x 80 -y 24 \
		env TERM=screen LANG=C.UTF-8 sh "$W/fs.sh"
	until tmux -S "$W/sock" capture-pane -p 2>/dev/null | grep -q "Shared Data Cache Line Table"; do
		sleep 0.02
	done
	t1=$(date +%s%N)
	tmux -S "$W/sock" send-keys q
	while ! [ -f "$W/fs.done" ]; do sleep 0.1; done
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", (b - a) / 1e9 }'
}

# The opening against --stdio, then each kind of key, for report with $OPTS.
measure() {
	: >"$W/stdio.t"
	: >"$W/tui.t"
	: >"$W/first.t"
	for r in $(seq "$RUNS"); do
		$TIME -f "%e %U %S" -o "$W/s.time" "$LINEUP" report --stdio --show-all $OPTS \
			-i "$R" >/dev/null
		cat "$W/s.time" >>"$W/stdio.t"
		first_screen >>"$W/first.t"
		cat "$W/fs.time" >>"$W/tui.t"
	done
	sw=$(awk '{ print $1 }' "$W/stdio.t" | median)
	sc=$(awk '{ print $2 + $3 }' "$W/stdio.t" | median)
	fw=$(median <"$W/first.t")
	tc=$(awk '{ print $2 + $3 }' "$W/tui.t" | median)
	echo "report --stdio $OPTS:             wall ${sw}s  user+sys ${sc}s"
	echo "report --tui $OPTS, first screen: wall ${fw}s  (open+quit user+sys ${tc}s)"
	awk -v a="$fw" -v b="$sw" -v c="$tc" -v d="$sc" 'BEGIN {
		printf "browser / stdio: wall %.2f, user+sys %.2f\n", a / b, c / d }'
	for s in move sort search enter display into; do
		pane "$W/$s.keys" "$W/$s"
		printf '%-8s %s\n' "$s:" "$(grep 'scripted keys' "$W/$s.err" | sed 's/^lineup: //')"
	done
	pane "$W/first.keys" "$W/first"
	echo "first Enter on a line (reads the recording for its structs, once): $(grep \
		'scripted keys' "$W/first.err" | sed 's/^.*median //; s/,.*//')"
}

echo "keys answered at $NL lines (the key and the redraw, in lineup; the target: 50 ms)"
OPTS=
measure
if [ "${FIELDS:-1}" != 0 ]; then
	OPTS=--fields
	measure
fi
