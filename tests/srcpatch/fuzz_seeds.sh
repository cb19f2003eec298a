#!/bin/sh
# The source patcher's fuzzing seeds through its harness (tests/fuzz/srcpatch_fuzz.c, built
# here without libFuzzer by tests/tools/fuzz_replay.c): each past crash (.bin) as it was, and
# each header under every style, way of ordering and flag of the request (the first byte), at
# three line sizes and structs.  The harness aborts on a broken promise (the diff does not
# give the new text, a refused struct changed, a CRLF file got LF lines); a sanitizer build
# reports the rest.  prefix-name.bin read before a heap string, no-checks-left.bin crashed
# in strlen(NULL).
. "$top_srcdir/tests/lib.sh"
scratch
replay=$top_builddir/tests/tools/srcpatch_replay
seeds=$top_srcdir/tests/fuzz/srcpatch-seeds
set --
for f in "$seeds"/*.bin; do
	set -- "$@" "$f"
done
for f in "$seeds"/*.h; do
	b=$(basename "$f" .h)
	for b1 in 001 011 041; do
		b0=0
		while [ $b0 -lt 256 ]; do
			printf "\\$(printf %o $b0)\\$b1\\000\\000\\$(printf %o $((b0 % 200 + 1)))\\000\\000\\000" \
				>"$T/$b-$b0-$b1"
			cat "$f" >>"$T/$b-$b0-$b1"
			set -- "$@" "$T/$b-$b0-$b1"
			b0=$((b0 + 3))
		done
	done
done
[ $# -gt 100 ] || fail "only $# inputs from $seeds"
"$replay" "$@" >"$T/out" 2>&1 || { tail -20 "$T/out" >&2; fail "the harness stopped (exit $?)"; }
! grep -q 'Sanitizer\|runtime error' "$T/out" || { head -20 "$T/out" >&2; fail "a sanitizer report"; }
exit 0
