#!/bin/sh
# Big-endian recordings: each real fixture rewritten as a big-endian machine writes it
# (tests/tools/perfswap, file and pipe mode).  perf reads those by swapping too: lineup's record
# counts must equal `perf report --stats` on the swapped file, and every sample lineup decodes
# from it must equal the one it decodes from the original.
. "$top_srcdir/tests/lib.sh"
need "${PERF:-perf}"
PERF=${PERF:-perf}
scratch
swap="$top_builddir/tests/tools/perfswap"
[ -x "$swap" ] || fail "$swap is not built"
dir="$SHARED/fixtures/perf-data"
[ -d "$dir" ] || skip "no fixtures at $dir"

stats() {
	awk '/^Aggregated stats:/ { on = 1; next } on && / events: / { print $1, $3 }
	     on && / stats:$/ { print }' "$1"
}

n=0
for f in "$dir"/*perf.data*; do
	b=$(basename "$f")
	case $b in *piped*) continue ;; esac
	for mode in file pipe; do
		if [ $mode = pipe ]; then
			"$swap" -p "$f" "$T/be" || fail "$b: perfswap -p failed"
		else
			"$swap" "$f" "$T/be" || fail "$b: perfswap failed"
		fi
		"$LINEUP" info --json -i "$T/be" >"$T/json" || fail "$b ($mode): lineup cannot read it"
		grep -q '"big_endian": true' "$T/json" || fail "$b ($mode): not seen as big-endian"
		"$PERF" report --stats -i "$T/be" >"$T/p.stats" 2>/dev/null ||
			fail "$b ($mode): perf cannot read the swapped file"
		"$LINEUP" info --stats -i "$T/be" >"$T/l.stats" || fail "$b ($mode): lineup failed"
		stats "$T/p.stats" >"$T/p.agg"
		stats "$T/l.stats" >"$T/l.agg"
		grep -q '^SAMPLE [1-9]' "$T/p.agg" || fail "$b ($mode): perf sees no samples"
		diff -u "$T/p.agg" "$T/l.agg" ||
			fail "$b ($mode): counts differ from perf on the big-endian file"
		# all but the event name (the swapped file keeps no EVENT_DESC)
		"$LINEUP" info --samples -i "$f" | awk '{ NF = 11; print }' >"$T/le.samples"
		"$LINEUP" info --samples -i "$T/be" | awk '{ NF = 11; print }' >"$T/be.samples"
		[ -s "$T/le.samples" ] || fail "$b: no samples"
		cmp -s "$T/le.samples" "$T/be.samples" ||
			fail "$b ($mode): samples differ after swapping: $(diff "$T/le.samples" "$T/be.samples" | head -5)"
		n=$((n + 1))
	done
done
[ $n -ge 10 ] || fail "only $n swapped recordings checked"
exit 0
