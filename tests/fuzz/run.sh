#!/bin/sh
# Build the perf.data reader's libFuzzer harness and run it on its seed corpus.
#   tests/fuzz/run.sh [SECONDS]      (default 60; CI calls it with no argument)
# Needs clang with libFuzzer (Debian: clang); exits 77 (skip) without it.  Crashes are kept
# in tests/fuzz/crashes/ (add each to tests/fuzz/reader-seeds/ once fixed).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-60}
CLANG=${CLANG:-clang}
command -v "$CLANG" >/dev/null 2>&1 || { echo "SKIP: no clang" >&2; exit 77; }
work=${FUZZ_WORKDIR:-$(mktemp -d "${TMPDIR:-/tmp}/lineup-fuzz.XXXXXX")}
mkdir -p "$work/corpus" "$top/tests/fuzz/crashes"

zstd_libs=$(pkg-config --libs libzstd 2>/dev/null || echo -lzstd)
printf '#define _GNU_SOURCE 1\n' >"$work/config.h"
"$CLANG" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-std=gnu11 -I"$top" -I"$work" \
	"$top/tests/fuzz/reader_fuzz.c" "$top/sampling/perf_file.c" "$top/sampling/perf_header.c" \
	"$top/sampling/perf_attr.c" "$top/sampling/perf_sample.c" "$top/sampling/arm_spe.c" \
	"$top/util/xalloc.c" \
	$zstd_libs -o "$work/reader_fuzz"

# Seeds: the real recordings (at most their first 64 KiB) and tests/fuzz/reader-seeds.
fixtures=${FIXTURES:-$top/tests/fixtures/perf-data}
for f in "$fixtures"/*perf.data* "$top"/tests/fuzz/reader-seeds/*.data; do
	[ -f "$f" ] || continue
	b=$(basename "$f")
	# whole when small, else its first 64 KiB (header, attrs, the first records)
	head -c 65536 "$f" >"$work/corpus/$b"
done

cd "$work"
"$work/reader_fuzz" -max_total_time="$secs" -seed="${FUZZ_SEED:-1}" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
	-artifact_prefix="$top/tests/fuzz/crashes/" -print_final_stats=1 "$work/corpus"
