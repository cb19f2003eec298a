#!/bin/sh
# Type units (gcc -fdebug-types-section, DWARF 4 .debug_types and DWARF 5 DW_UT_type): every
# struct lives in its own unit, referred to by signature.  pahole 1.24 mis-reads them (errors,
# a crash on DWARF 4), so the oracle is pahole on the same program built without type units.
. "$top_srcdir/tests/lib.sh"
scratch
[ -n "${PAHOLE:-}" ] || skip "pahole (dwarves) is not installed"
need gcc
src=$top_srcdir/tests/layout
gcc -g -gdwarf-5 -shared -fPIC -I"$src" "$src/structs.c" -o "$T/plain.so" || fail "build"
n=0
for v in 4 5; do
	gcc -g -gdwarf-$v -fdebug-types-section -shared -fPIC -I"$src" "$src/structs.c" \
		-o "$T/tu$v.so" || fail "cannot build with -gdwarf-$v -fdebug-types-section"
	for s in $("$PAHOLE" "$T/plain.so" | awk '/^struct / { print $2 }' | sort -u); do
		"$PAHOLE" -C "$s" "$T/plain.so" >"$T/p.txt"
		"$LINEUP" layout -C "$s" "$T/tu$v.so" >"$T/l.txt" 2>&1 ||
			fail "struct $s not found in DWARF $v type units: $(cat "$T/l.txt")"
		pahole_diff "$T/p.txt" "$T/l.txt" || fail "struct $s from DWARF $v type units differs"
		n=$((n + 1))
	done
	[ "$("$LINEUP" layout "$T/tu$v.so" | grep -c '^struct ')" -ge 10 ] ||
		fail "the full dump of DWARF $v type units misses structs"
done
[ $n -ge 20 ] || fail "only $n structs compared"
echo "$n structs from type units identical to pahole without them"
exit 0
