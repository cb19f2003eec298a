#!/bin/sh
# The attribution side's fuzzing harness (tests/fuzz/debuginfo_fuzz.c: symbols, variable
# types, the type index and the code reader on one object) without libFuzzer, on the objects
# it starts from and on every input it found (tests/fuzz/seeds/debuginfo-*.bin): each runs to
# the end, no crash and no sanitizer report (make check in an ASan+UBSan build catches the
# quiet ones).  The inputs, and what they broke:
#   debuginfo-getscopes-leak.bin	(the fuzzer's) an inline instance whose abstract origin
#					is not found: libdw's dwarf_getscopes leaked (symbols.c)
#   debuginfo-no-functions.bin		(the fuzzer's) a mapped file with no function symbol:
#					qsort(NULL, 0) (code.c)
#   debuginfo-trace-leak.bin		(the fuzzer's) a register traced through a load not mov or lea:
#					the traced type's name leaked (vartype.c)
#   debuginfo-name-cycle.bin		(made with tests/tools/dwarf_patch) struct A holding
#					B's holding A's by name: type_index__find hung
#					(analyzer/flat_layout.c)
#   debuginfo-member-fanout.bin		(made with dwarf_patch) a struct of 400 members each
#					the struct itself: an operand query hung (vartype.c)
. "$top_srcdir/tests/lib.sh"
need gcc
scratch
TOOL="$top_builddir/tests/fuzz/debuginfo_replay"
src=$top_srcdir/tests/fuzz/debuginfo_seed.c

gcc -O0 -gdwarf-4 -o "$T/seed-O0" "$src" || fail "gcc failed"
gcc -O2 -gdwarf-5 -c -o "$T/seed-O2.o" "$src" || fail "gcc failed"
n=0
for f in "$T/seed-O0" "$T/seed-O2.o" "$top_srcdir"/tests/fuzz/seeds/debuginfo-*.bin; do
	[ -f "$f" ] || continue
	timeout 120 "$TOOL" "$f" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 0 ] || fail "exit $rc (124: hung) on $(basename "$f"): $(head -5 "$T/err")"
	! grep -q 'Sanitizer\|runtime error' "$T/err" ||
		fail "sanitizer report on $(basename "$f"): $(grep -m3 'ERROR\|error:' "$T/err")"
	n=$((n + 1))
done
[ $n -ge 4 ] || fail "only $n inputs"
echo "$n objects through the attribution side, no crash"
