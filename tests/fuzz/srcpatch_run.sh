#!/bin/sh
# Build the source patcher's libFuzzer harness and run it on real-looking headers.
#   tests/fuzz/srcpatch_run.sh [SECONDS]      (default 60; FUZZ_SEED=0 fuzzes at random)
# Needs clang with libFuzzer; exits 77 (skip) without it.  Crashes are kept in
# tests/fuzz/crashes/srcpatch-* (add each to tests/fuzz/srcpatch-seeds/ as a .bin once fixed).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-60}
CLANG=${CLANG:-clang}
command -v "$CLANG" >/dev/null 2>&1 || { echo "SKIP: no clang" >&2; exit 77; }
work=${FUZZ_WORKDIR:-$(mktemp -d "${TMPDIR:-/tmp}/lineup-srcpatch-fuzz.XXXXXX")}
mkdir -p "$work/corpus" "$top/tests/fuzz/crashes"

printf '#define _GNU_SOURCE 1\n' >"$work/config.h"
"$CLANG" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-std=gnu11 -I"$top" -I"$work" \
	"$top/tests/fuzz/srcpatch_fuzz.c" "$top/analyzer/srcpatch.c" \
	"$top/analyzer/srcpatch_diff.c" "$top/analyzer/srcpatch_alloc.c" \
	"$top/util/xalloc.c" "$top/util/strbuf.c" -o "$work/srcpatch_fuzz"

# Seeds: each header under a few requests (tests/fuzz/srcpatch_fuzz.c reads the first 8
# bytes as the request: style and order, line size and struct, decl_line, the order's seed),
# and the inputs of past crashes (.bin) as they were.
for f in "$top"/tests/fuzz/srcpatch-seeds/*.h; do
	[ -f "$f" ] || continue
	b=$(basename "$f" .h)
	k=0
	# style|mode<<2|flags, line size|struct<<3, decl_line (2), seed (4)
	for req in '\000\001\000\000\001\000\000\000' '\001\003\000\000\007\000\000\000' \
		'\042\011\000\000\045\001\000\000' '\203\020\000\000\231\002\000\000' \
		'\140\030\000\000\017\000\000\000' '\026\041\000\000\052\000\000\000'; do
		k=$((k + 1))
		{ printf "$req"; cat "$f"; } >"$work/corpus/$b-$k"
	done
done
for f in "$top"/tests/fuzz/srcpatch-seeds/*.bin; do
	[ -f "$f" ] && cp "$f" "$work/corpus/"
done

cd "$work"
"$work/srcpatch_fuzz" -max_total_time="$secs" -seed="${FUZZ_SEED:-1}" -max_len=16384 \
	-rss_limit_mb=2048 -timeout=10 -artifact_prefix="$top/tests/fuzz/crashes/srcpatch-" \
	-print_final_stats=1 "$work/corpus"
