#!/bin/sh
# Build the tracepoint decoder's libFuzzer harness and run it.
#   tests/fuzz/tracepoint_run.sh [SECONDS]      (default 60)
# Needs clang with libFuzzer and perf (to make the seed: a real kmem recording's tracing data
# and payloads); exits 77 (skip) without them.  Crashes go to tests/fuzz/crashes/.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-60}
CLANG=${CLANG:-clang}
command -v "$CLANG" >/dev/null 2>&1 || { echo "SKIP: no clang" >&2; exit 77; }
work=${FUZZ_WORKDIR:-$(mktemp -d "${TMPDIR:-/tmp}/lineup-tpfuzz.XXXXXX")}
mkdir -p "$work/corpus" "$top/tests/fuzz/crashes"
printf '#define _GNU_SOURCE 1\n' >"$work/config.h"
"$CLANG" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-std=gnu11 -I"$top" -I"$work" \
	"$top/tests/fuzz/tracepoint_fuzz.c" "$top/sampling/tracepoint.c" "$top/sampling/tracefs.c" \
	"$top/util/xalloc.c" "$top/util/strbuf.c" $(pkg-config --cflags --libs libtraceevent) \
	-o "$work/tracepoint_fuzz"
for f in "$top"/tests/fuzz/seeds/tracepoint-*; do
	[ -f "$f" ] && cp "$f" "$work/corpus/"
done
cd "$work"
# libtraceevent leaks on some malformed formats (its bug, not a crash): leaks are not reported.
ASAN_OPTIONS=detect_leaks=0 "$work/tracepoint_fuzz" -detect_leaks=0 -max_total_time="$secs" -seed="${FUZZ_SEED:-1}" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
	-artifact_prefix="$top/tests/fuzz/crashes/tracepoint-" -print_final_stats=1 "$work/corpus"
