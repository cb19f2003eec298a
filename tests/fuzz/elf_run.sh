#!/bin/sh
# Build the layout loaders' libFuzzer harness and run it on small objects.
#   tests/fuzz/elf_run.sh [SECONDS]      (default 60)
# Needs clang with libFuzzer; exits 77 (skip) without it.  Crashes are kept in
# tests/fuzz/crashes/ (add each as a regression seed in tests/fuzz/seeds/ once fixed).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${1:-60}
CLANG=${CLANG:-clang}
command -v "$CLANG" >/dev/null 2>&1 || { echo "SKIP: no clang" >&2; exit 77; }
work=${FUZZ_WORKDIR:-$(mktemp -d "${TMPDIR:-/tmp}/lineup-elf-fuzz.XXXXXX")}
mkdir -p "$work/corpus" "$top/tests/fuzz/crashes"

printf '#define _GNU_SOURCE 1\n' >"$work/config.h"
"$CLANG" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-std=gnu11 -I"$top" -I"$work" \
	"$top/tests/fuzz/elf_fuzz.c" "$top/dwarf/layout.c" "$top/dwarf/dwarf_types.c" \
	"$top/dwarf/btf.c" "$top/dwarf/debuginfo.c" "$top/dwarf/srcfile.c" "$top/analyzer/layout.c" \
	"$top/analyzer/layout_print.c" "$top/util/xalloc.c" "$top/util/strbuf.c" \
	"$top/util/arena.c" "$top/util/hmap.c" "$top/util/file.c" \
	-ldw -lelf -lbpf -o "$work/elf_fuzz"

# Seeds: the layout test program in a few shapes, small enough for the fuzzer to mutate.
src=$top/tests/layout
for v in 4 5; do
	gcc -g -gdwarf-$v -c "$src/structs.c" -I"$src" -o "$work/corpus/structs-gcc$v.o"
	"$CLANG" -g -gdwarf-$v -c "$src/structs.c" -I"$src" -o "$work/corpus/structs-clang$v.o"
done
gcc -g -gdwarf-4 -fdebug-types-section -shared -fPIC -I"$src" "$src/structs.c" \
	-o "$work/corpus/structs-tu4.so"
printf 'struct s { int a; char b:3; };\nstruct s v;\n' >"$work/tiny.c"
gcc -g -c "$work/tiny.c" -o "$work/corpus/tiny.o"
for f in "$top"/tests/fuzz/seeds/elf-*; do
	[ -f "$f" ] && cp "$f" "$work/corpus/"
done
# Issue 15's type cycles, as tests/layout/cycles.sh makes them from tests/layout/cycles.c: an
# array of itself, a typedef of itself, const <-> volatile, a struct containing itself; in
# DWARF (tests/tools/dwarf_patch) and in BTF (pahole -J, tests/tools/btf_patch.py) where
# those tools are there.
cp "$top/tests/layout/cycles.c" "$work/cyc.c"
set -- "arr_self.arr>=." "td_self.t>=." "cv_loop.cv>>=cv_loop.cv>" "self_member.in=self_member"
gcc -g -shared -fPIC "$work/cyc.c" -o "$work/cyc.so"
gcc -g -O1 -I"$top" -include "$work/config.h" "$top/tests/tools/dwarf_patch.c" -ldw -lelf \
	-o "$work/dwarf_patch" 2>/dev/null || true
k=0
for edit in "$@"; do
	k=$((k + 1))
	[ -x "$work/dwarf_patch" ] &&
		"$work/dwarf_patch" "$work/cyc.so" "$work/corpus/cycle-dwarf-$k.so" "$edit" >/dev/null
done
if command -v pahole >/dev/null && command -v python3 >/dev/null; then
	gcc -g -c "$work/cyc.c" -o "$work/cyc.o" && pahole -J "$work/cyc.o" 2>/dev/null &&
		objcopy --dump-section .BTF="$work/cyc.btf" "$work/cyc.o" 2>/dev/null &&
		cp "$work/cyc.o" "$work/corpus/cyc-btf.o" && k=0 &&
		for edit in "$@"; do
			k=$((k + 1))
			python3 "$top/tests/tools/btf_patch.py" "$work/cyc.btf" \
				"$work/corpus/cycle-btf-$k.btf" "$edit" >/dev/null
		done
fi

cd "$work"
# (tests/fuzz/elf_fuzz.c's mutator rewrites DWARF references and BTF type ids a quarter of
# the time each)
"$work/elf_fuzz" -max_total_time="$secs" -seed="${FUZZ_SEED:-1}" -max_len=131072 -rss_limit_mb=2048 -timeout=10 \
	-artifact_prefix="$top/tests/fuzz/crashes/elf-" -print_final_stats=1 "$work/corpus"
