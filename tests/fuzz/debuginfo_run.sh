#!/bin/sh
# Build the attribution side's libFuzzer harness (symbols, vartype, type index, code reader)
# and run it on small objects of tests/fuzz/debuginfo_seed.c.
#   tests/fuzz/debuginfo_run.sh [SECONDS]      (default 60)
# FUZZ_SEED (default 1; 0: random), FUZZ_WORKDIR (default: a new temporary directory).
# Needs clang with libFuzzer; exits 77 (skip) without it.  Crashes are kept in
# tests/fuzz/crashes/debuginfo-* (add each as tests/fuzz/seeds/debuginfo-*.bin once fixed).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-60}
CLANG=${CLANG:-clang}
command -v "$CLANG" >/dev/null 2>&1 || { echo "SKIP: no clang" >&2; exit 77; }
work=${FUZZ_WORKDIR:-$(mktemp -d "${TMPDIR:-/tmp}/lineup-debuginfo-fuzz.XXXXXX")}
mkdir -p "$work/corpus" "$top/tests/fuzz/crashes"

printf '#define _GNU_SOURCE 1\n' >"$work/config.h"
"$CLANG" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-std=gnu11 -I"$top" -I"$work" \
	"$top/tests/fuzz/debuginfo_fuzz.c" "$top/dwarf/symbols.c" "$top/dwarf/vartype.c" \
	"$top/dwarf/code.c" "$top/dwarf/type_index.c" "$top/dwarf/debuginfo.c" \
	"$top/dwarf/layout.c" "$top/dwarf/dwarf_types.c" "$top/dwarf/btf.c" \
	"$top/analyzer/flat_layout.c" "$top/analyzer/layout.c" "$top/util/xalloc.c" \
	"$top/util/strbuf.c" "$top/util/arena.c" "$top/util/hmap.c" "$top/util/file.c" \
	"$top/util/ksym.c" "$top/dwarf/srcfile.c" \
	-ldw -lelf -lcapstone -lbpf -o "$work/debuginfo_fuzz"

# Seeds: the seed program as gcc and clang build it, -O0 and -O2, DWARF 4 and 5, relocatable
# objects (libdwfl relocates them, as it does a .ko), executables and shared objects; the C++
# one; the C one built for the software collector (-fsanitize=thread, its __tsan_* hooks
# stubbed: the calls vartype.c looks through); and the fuzzer's finds, kept.
src=$top/tests/fuzz/debuginfo_seed.c
for cc in gcc "$CLANG"; do
	n=$(basename "$cc")
	for o in 0 2; do
		for v in 4 5; do
			"$cc" -O$o -gdwarf-$v -c "$src" -o "$work/corpus/seed-$n-O$o-$v.o"
		done
	done
	"$cc" -O2 -gdwarf-5 "$src" -o "$work/corpus/seed-$n-O2-5.exe"
	"$cc" -O0 -gdwarf-4 "$src" -o "$work/corpus/seed-$n-O0-4.exe"
	"$cc" -O2 -gdwarf-4 -fPIC -shared "$src" -o "$work/corpus/seed-$n-O2-4.so"
done
cxx=$(command -v "${CLANG}++" || command -v clang++ || echo g++)
"$cxx" -O2 -gdwarf-5 -c "$top/tests/fuzz/debuginfo_seed.cc" -o "$work/corpus/seed-cxx-O2-5.o"
g++ -O2 -gdwarf-4 "$top/tests/fuzz/debuginfo_seed.cc" -o "$work/corpus/seed-cxx-O2-4.exe"
"$CLANG" -O1 -gdwarf-5 -fsanitize=thread -c "$src" -o "$work/tsan.o"
nm -u "$work/tsan.o" | awk '$2 ~ /^__tsan_/ { print "void " $2 "(void) {}" }' >"$work/hooks.c"
"$CLANG" -O1 "$work/tsan.o" "$work/hooks.c" -o "$work/corpus/seed-tsan.exe"
for f in "$top"/tests/fuzz/seeds/debuginfo-*; do
	[ -f "$f" ] && cp "$f" "$work/corpus/"
done

cd "$work"
# (the custom mutator of tests/fuzz/debuginfo_fuzz.c rewrites values inside the DWARF, symbol
# and code sections four times in five)
"$work/debuginfo_fuzz" -max_total_time="$secs" -seed="${FUZZ_SEED:-1}" -max_len=131072 \
	-rss_limit_mb=2048 -timeout=10 -artifact_prefix="$top/tests/fuzz/crashes/debuginfo-" \
	-print_final_stats=1 "$work/corpus"
