#!/bin/sh
# Debian's -dbgsym packages are dwz-compressed: types shared by several objects move to a
# supplementary file (.gnu_debugaltlink, /usr/lib/debug/.dwz/...).  lineup must read them
# there.  pahole 1.24 cannot (it finds nothing), so the oracle is pahole on the objects as they
# were before dwz: every struct, by name, must print the same.
. "$top_srcdir/tests/lib.sh"
scratch
[ -n "${PAHOLE:-}" ] || skip "pahole (dwarves) is not installed"
need dwz
need gcc
src=$top_srcdir/tests/layout
gcc -g -O0 -shared -fPIC -I"$src" "$src/structs.c" -o "$T/a.so" || fail "cannot build a.so"
cat >"$T/b.c" <<'EOC'
#include "hd_struct.h"
struct hd_struct x;
struct only_b { int q; long r; } ob;
int f(void) { return x.partno + ob.q; }
EOC
gcc -g -O0 -shared -fPIC -I"$src" "$T/b.c" -o "$T/b.so" || fail "cannot build b.so"
cp "$T/a.so" "$T/a0.so" && cp "$T/b.so" "$T/b0.so"
(cd "$T" && dwz -m common.dwz -M "$T/common.dwz" a.so b.so) || fail "dwz failed"
readelf -S "$T/b.so" | grep -q gnu_debugaltlink || fail "dwz made no supplementary file"

n=0
for f in a b; do
	for s in $("$PAHOLE" "$T/${f}0.so" 2>/dev/null | awk '/^struct / { print $2 }' | sort -u); do
		"$PAHOLE" -C "$s" "$T/${f}0.so" >"$T/p.txt" 2>/dev/null
		"$LINEUP" layout -C "$s" "$T/$f.so" >"$T/l.txt" 2>&1 ||
			fail "struct $s not found in dwz'd $f.so: $(cat "$T/l.txt")"
		pahole_diff "$T/p.txt" "$T/l.txt" || fail "struct $s of dwz'd $f.so differs"
		n=$((n + 1))
	done
done
[ $n -ge 20 ] || fail "only $n structs compared"
# hd_struct lives only in the supplementary file now
"$LINEUP" layout "$T/b.so" | grep -q '^struct hd_struct {' ||
	fail "the full dump misses the supplementary file's structs"
echo "$n structs of dwz'd objects identical to pahole on the originals"
exit 0
