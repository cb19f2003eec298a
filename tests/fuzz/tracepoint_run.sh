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
	"$top/util/xalloc.c" "$top/util/strbuf.c" "$top/util/file.c" "$top/util/ksym.c" \
	$(pkg-config --cflags --libs libtraceevent) \
	-o "$work/tracepoint_fuzz"
# Seeds: each one's tracing data and its first 512 bytes of payloads (a few dozen payloads
# printed per input would be most of the time; one mutation changes one of them).
max=0
for f in "$top"/tests/fuzz/seeds/tracepoint-*; do
	[ -f "$f" ] || continue
	n=$(od -A n -t u4 -N 4 "$f" | tr -d ' ')
	head -c $((4 + n + 512)) "$f" >"$work/corpus/$(basename "$f")"
	[ $((4 + n + 512)) -le $max ] || max=$((4 + n + 512))
done
cd "$work"
# libtraceevent leaks on some malformed formats (its bug, not a crash): leaks allocated inside
# it are not reported, lineup's own still are.  (The formats are parsed in a checker process
# kept across inputs: sampling/tracepoint.c.)  Short allocation stacks and a smaller
# quarantine: each input makes thousands of libtraceevent allocations, and recording their
# stacks was most of the time.  About 1,000 inputs a second here.
printf 'leak:libtraceevent.so\n' >"$work/lsan.supp"
ASAN_OPTIONS=malloc_context_size=5:quarantine_size_mb=16 \
LSAN_OPTIONS=suppressions="$work/lsan.supp" "$work/tracepoint_fuzz" -max_total_time="$secs" \
	-seed="${FUZZ_SEED:-1}" -max_len=$((max + 512)) -rss_limit_mb=2048 -timeout=10 \
	-artifact_prefix="$top/tests/fuzz/crashes/tracepoint-" -print_final_stats=1 "$work/corpus"
