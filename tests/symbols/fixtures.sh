#!/bin/sh
# Oracle on real recordings from other machines (../shared/fixtures/perf-data: perf 3.2 to
# 6.12, x86-64, i686, armv7, file and pipe mode): lineup's symbol and object for every sample
# equal `perf script -F ip,sym,dso`'s.  These exercise what a report machine that is not the
# recording machine does: a kernel whose build-id is not this one's gets no kallsyms symbols, a
# kernel map from "_stext" moves this kallsyms by the recorded delta, the vDSO is this
# process's, objects recorded without a build-id get their local file's.
# (Skipped: the callgraph and Intel PT files, where perf script prints more than one line a
# sample, and the corrupt one.)
. "$top_srcdir/tests/lib.sh"
[ -n "${PERF:-}" ] || skip "perf is not installed"
FIX="$FIXTURES"
[ -d "$FIX" ] || fail "no $FIX (tests/fixtures/perf-data is part of the checkout)"
scratch
export HOME="$T/home"	# no build-id cache
mkdir -p "$HOME"
n=0
for f in "$FIX"/perf.data.* "$FIX"/*.perf.data; do
	case "$f" in *callgraph*|*intel_pt*|*corrupted*|*LICENSE*|*README*) continue ;; esac
	[ -f "$f" ] || continue
	"$PERF" script -i "$f" -F ip,sym,dso > "$T/want" 2>/dev/null ||
		{ echo "perf script cannot read $f: skipped"; continue; }
	"$top_builddir/tests/tools/resolve" --no-srcline "$f" > "$T/got" 2>"$T/err" ||
		fail "resolve failed on $f: $(cat "$T/err")"
	if ! cmp -s "$T/want" "$T/got"; then
		diff "$T/want" "$T/got" | head -20
		fail "$(basename "$f"): lineup resolves samples differently from perf script"
	fi
	n=$((n + $(wc -l < "$T/got")))
done
[ $n -gt 1000 ] || fail "only $n samples compared"
echo "$n samples of the fixtures resolved like perf"
