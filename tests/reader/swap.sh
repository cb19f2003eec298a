#!/bin/sh
# Big-endian recordings: each real fixture rewritten as a big-endian machine writes it
# (tests/tools/perfswap: file mode with its features, pipe mode with and without
# HEADER_FEATURE records).  perf reads them by swapping too: lineup's record counts and whole
# header (-I) must equal perf's on the swapped file, and every sample and build-id lineup
# decodes from it must equal what it decodes from the original.
. "$top_srcdir/tests/lib.sh"
need "${PERF:-perf}"
PERF=${PERF:-perf}
scratch
swap="$top_builddir/tests/tools/perfswap"
[ -x "$swap" ] || fail "$swap is not built"
dir="$FIXTURES"
[ -d "$dir" ] || fail "no fixtures at $dir (tests/fixtures/perf-data is part of the checkout)"

stats() {
	awk '/^Aggregated stats:/ { on = 1; next } on && / events: / { print $1, $3 }
	     on && / stats:$/ { print }' "$1"
}

# The header's feature lines (what follows the file header block).
features() {
	grep -v '^# event :' "$1" | grep -v '^# lineup: byte order' |
		grep -Ev '^# (========|captured on|header version|data offset|data size|feat offset|missing features)|^#$'
}

n=0
for f in "$dir"/*perf.data*; do
	b=$(basename "$f")
	case $b in *piped*) continue ;; esac
	"$LINEUP" info --samples -i "$f" | awk '{ NF = 11; print }' >"$T/le.samples"
	[ -s "$T/le.samples" ] || fail "$b: no samples"
	"$LINEUP" info --header-only -I --extra -i "$f" | grep '^# lineup: build id' >"$T/le.buildids"

	# File mode: perf is the oracle for counts and the whole header (-I).
	"$swap" "$f" "$T/be" || fail "$b: perfswap failed"
	"$LINEUP" info --json -i "$T/be" >"$T/json" || fail "$b: lineup cannot read it"
	grep -q '"big_endian": true' "$T/json" || fail "$b: not seen as big-endian"
	"$PERF" report --stats -i "$T/be" >"$T/p.stats" 2>/dev/null ||
		fail "$b: perf cannot read the swapped file"
	"$LINEUP" info --stats -i "$T/be" >"$T/l.stats" || fail "$b: lineup failed"
	stats "$T/p.stats" >"$T/p.agg"
	stats "$T/l.stats" >"$T/l.agg"
	grep -q '^SAMPLE [1-9]' "$T/p.agg" || fail "$b: perf sees no samples"
	diff -u "$T/p.agg" "$T/l.agg" || fail "$b: counts differ from perf on the big-endian file"
	for I in "" -I; do
		"$PERF" report --header-only $I -i "$T/be" 2>/dev/null | grep -v '^# event :' >"$T/p.hdr"
		"$LINEUP" info --header-only $I --extra -i "$T/be" >"$T/l.hdr.all"
		grep -v '^# event :' "$T/l.hdr.all" | grep -v '^# lineup:' >"$T/l.hdr"
		diff -u "$T/p.hdr" "$T/l.hdr" || fail "$b: big-endian header differs from perf's ($I)"
	done
	features "$T/l.hdr.all" >"$T/be.features"
	grep '^# lineup: build id' "$T/l.hdr.all" | diff -u "$T/le.buildids" - ||
		fail "$b: build-ids differ after swapping"
	"$LINEUP" info --samples -i "$T/be" | awk '{ NF = 11; print }' >"$T/be.samples"
	cmp -s "$T/le.samples" "$T/be.samples" ||
		fail "$b: samples differ after swapping: $(diff "$T/le.samples" "$T/be.samples" | head -5)"

	# Pipe mode without features: perf is the oracle for the counts.
	"$swap" -P "$f" "$T/bep" || fail "$b: perfswap -P failed"
	"$PERF" report --stats -i "$T/bep" >"$T/p.stats" 2>/dev/null ||
		fail "$b: perf cannot read the swapped pipe"
	"$LINEUP" info --stats -i - <"$T/bep" >"$T/l.stats" || fail "$b: lineup failed on the pipe"
	stats "$T/p.stats" >"$T/p.agg"
	stats "$T/l.stats" >"$T/l.agg"
	diff -u "$T/p.agg" "$T/l.agg" || fail "$b: pipe counts differ from perf on the big-endian pipe"
	"$LINEUP" info --samples -i "$T/bep" | awk '{ NF = 11; print }' | cmp -s "$T/le.samples" - ||
		fail "$b: samples differ in the big-endian pipe"

	# Pipe mode with HEADER_FEATURE records (perf 6.1 cannot read those: it does not swap
	# the feature id): the same features as lineup reads from the big-endian file.
	"$swap" -p "$f" "$T/bepf" || fail "$b: perfswap -p failed"
	"$LINEUP" info --header-only -I --extra -i "$T/bepf" >"$T/l.hdr.all" ||
		fail "$b: lineup cannot read the big-endian pipe with features"
	# (a pipe's events keep their attr names, as in perf: group lines name them differently)
	features "$T/l.hdr.all" | grep -v '^# lineup: build id' | grep -v '^# group:' \
		>"$T/bep.features"
	grep -v '^# lineup: build id' "$T/be.features" | grep -v '^# group:' |
		diff -u - "$T/bep.features" || fail "$b: pipe features differ from the file's"
	n=$((n + 1))
done
[ $n -ge 10 ] || fail "only $n swapped recordings checked"
exit 0
