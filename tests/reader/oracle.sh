#!/bin/sh
# Oracle: on every real recording in $FIXTURES, `lineup info` must count the
# same records per type and the same samples (and lost samples) per event as
# `perf report --stats`, and print the same header as `perf report --header-only` (and -I).
# The numbers are parsed out of both outputs and compared one by one.
. "$top_srcdir/tests/lib.sh"
need "${PERF:-perf}"
need python3
PERF=${PERF:-perf}
scratch

dir="$FIXTURES"
[ -d "$dir" ] || fail "no fixtures at $dir (tests/fixtures/perf-data is part of the checkout)"

# "NAME COUNT" lines of the Aggregated stats table (TOTAL, MMAP, SAMPLE ...).
aggregated() {
	awk '/^Aggregated stats:/ { on = 1; next }
	     on && / stats:$/ { exit }
	     on && / events: / { print $1, $3 }' "$1"
}

# "INDEX NAME KIND COUNT" per event block (INDEX: order of the blocks).
per_event() {
	awk '/^Aggregated stats:/ { on = 1; next }
	     on && / stats:$/ { n++; name = $0; sub(/ stats:$/, "", name); next }
	     on && n && / events: / { print n, $1, $3; print n, "name", name }' "$1"
}

# "name = N, , id = { ... }" of each event line.
events() {
	sed -n 's/^# event : \(name = .*, , id = {[^}]*}\).*/\1/p' "$1"
}

nfiles=0
for f in "$dir"/*perf.data*; do
	[ -f "$f" ] || continue
	nfiles=$((nfiles + 1))
	b=$(basename "$f")
	"$PERF" report --stats -i "$f" >"$T/p.stats" 2>"$T/p.err"
	prc=$?
	"$LINEUP" info --stats -i "$f" >"$T/l.stats" 2>"$T/l.err"
	lrc=$?
	if [ $prc -ne 0 ] || ! grep -q '^Aggregated stats' "$T/p.stats"; then
		# perf cannot read it: lineup must refuse it too, clearly, with exit 2.
		[ $lrc -eq 2 ] || fail "$b: perf rejects it but lineup exits $lrc"
		grep -q "$b: at byte [0-9]" "$T/l.err" ||
			fail "$b: error does not name the file and byte offset: $(cat "$T/l.err")"
		continue
	fi
	[ $lrc -eq 0 ] || fail "$b: lineup info exits $lrc: $(cat "$T/l.err")"

	aggregated "$T/p.stats" >"$T/p.agg"
	aggregated "$T/l.stats" >"$T/l.agg"
	[ -s "$T/p.agg" ] || fail "$b: parsed no counts from perf's output"
	grep -q '^TOTAL [0-9]' "$T/p.agg" || fail "$b: no TOTAL in perf's output"
	diff -u "$T/p.agg" "$T/l.agg" || fail "$b: record counts differ from perf report --stats"

	per_event "$T/p.stats" | grep -v ' name ' >"$T/p.ev"
	per_event "$T/l.stats" | grep -v ' name ' >"$T/l.ev"
	diff -u "$T/p.ev" "$T/l.ev" || fail "$b: per-event sample counts differ from perf"

	"$PERF" report --header-only -i "$f" >"$T/p.hdr" 2>/dev/null
	"$LINEUP" info --header-only -i "$f" >"$T/l.hdr" 2>"$T/l.err" ||
		fail "$b: lineup info --header-only failed: $(cat "$T/l.err")"

	# Event names: perf --stats uses the attr's default name in pipe mode even where the
	# recording names the event (EVENT_UPDATE); lineup keeps the recording's name, which is
	# the name perf's own header (EVENT_DESC) prints.
	per_event "$T/p.stats" | awk '$2 == "name"' >"$T/p.names"
	per_event "$T/l.stats" | awk '$2 == "name"' >"$T/l.names"
	if ! diff -q "$T/p.names" "$T/l.names" >/dev/null; then
		grep -q '^# data size      : 0$' "$T/p.hdr" ||
			fail "$b: event names differ from perf's: $(diff "$T/p.names" "$T/l.names")"
		while read -r n _ name; do
			grep -q "^# event : name = $name, " "$T/p.hdr" ||
				fail "$b: event $n named '$name', perf says $(sed -n "${n}p" "$T/p.names")"
		done <"$T/l.names"
	fi

	# The whole header, line for line, as perf prints it (lineup's own extra lines are marked
	# "# lineup:"; event lines are compared below), plain and with -I.
	for I in "" -I; do
		"$PERF" report --header-only $I -i "$f" 2>/dev/null | grep -v '^# event :' >"$T/p.full"
		"$LINEUP" info --header-only $I -i "$f" 2>"$T/l.err" |
			grep -v '^# event :' | grep -v '^# lineup:' >"$T/l.full" ||
			fail "$b: lineup info --header-only $I failed: $(cat "$T/l.err")"
		if grep -q 'ID information is not available$' "$T/p.full"; then
			# perf drops the per-CPU core/socket ids when its own re-computed string
			# padding says the section has none (weight_struct); lineup reads them.
			grep -v 'ID information is not available$' "$T/p.full" >"$T/p.tmp"
			mv "$T/p.tmp" "$T/p.full"
			grep -v '^# CPU [0-9]*: Core ID' "$T/l.full" |
				grep -v 'ID information is not available$' >"$T/l.tmp"
			mv "$T/l.tmp" "$T/l.full"
		fi
		grep -q '^# header version : 1' "$T/p.full" || fail "$b: perf printed no header"
		diff -u "$T/p.full" "$T/l.full" ||
			fail "$b: header differs from perf report --header-only $I"
	done

	events "$T/p.hdr" >"$T/p.events"
	events "$T/l.hdr" >"$T/l.events"
	if [ -s "$T/p.events" ]; then
		diff -u "$T/p.events" "$T/l.events" || fail "$b: event names/ids differ from perf's header"
	fi

	# JSON carries the same counts.
	"$LINEUP" info --json -i "$f" >"$T/l.json" || fail "$b: --json failed"
	total=$(awk '$1 == "TOTAL" { print $2 }' "$T/p.agg")
	grep -q "\"records\": {\"TOTAL\": $total[,}]" "$T/l.json" || fail "$b: JSON TOTAL is not $total"
	python3 -m json.tool "$T/l.json" >/dev/null || fail "$b: --json is not valid JSON"
done
[ $nfiles -ge 10 ] || fail "only $nfiles fixtures found in $dir"

# Pipe mode from standard input.
f="$dir/perf.data.piped.target-3.8"
"$LINEUP" info --stats -i - <"$f" >"$T/stdin.stats" || fail "reading a pipe from stdin failed"
"$PERF" report --stats -i "$f" >"$T/p.stats" 2>/dev/null
aggregated "$T/p.stats" >"$T/p.agg"
aggregated "$T/stdin.stats" >"$T/l.agg"
diff -u "$T/p.agg" "$T/l.agg" || fail "stdin pipe: counts differ from perf"
cat "$f" | "$LINEUP" info --stats -i - >"$T/stdin2.stats" || fail "reading a real pipe failed"
aggregated "$T/stdin2.stats" | diff -u "$T/p.agg" - || fail "real pipe: counts differ from perf"

# A file-mode recording through a pipe: the header before the data, the features after it
# (read at the end): the same output as from the file.
for f in "$dir"/perf.data.weight_struct "$dir"/perf.data.hybrid_topology "$dir"/perf.data.intel_pt-4.14; do
	"$LINEUP" info -I -i "$f" | grep -v '^# captured on' >"$T/file.out"
	cat "$f" | "$LINEUP" info -I -i - >"$T/pipe.out" || fail "$(basename "$f") through a pipe failed"
	diff -u "$T/file.out" "$T/pipe.out" || fail "$(basename "$f"): a pipe reads differently"
	cat "$f" | "$LINEUP" info --header-only -i - | grep -q '^# hostname : ' ||
		fail "$(basename "$f"): --header-only through a pipe lacks the features"
done
exit 0
