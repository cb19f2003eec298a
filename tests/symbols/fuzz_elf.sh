#!/bin/sh
# Hostile objects: the symbolizer reads ELF headers, symbol tables, PLT relocations and DWARF
# of files it did not build.  150 copies of a test program with bytes flipped in its headers,
# section table, symbol tables and debug sections must each give an answer or no answer, never
# a crash (run it in an ASan+UBSan build to catch the quiet ones).
. "$top_srcdir/tests/lib.sh"
need gcc
need python3
scratch
TOOL="$top_builddir/tests/unit/symbolize"

cat > "$T/p.c" <<'SRC'
#include <stdio.h>
static inline int sq(int x) { return x * x; }
__attribute__((noinline)) int work(int n) { int t = 0; for (int i = 0; i < n; i++) t += sq(i); return t; }
int main(int argc, char **argv) { printf("%d\n", work(argc)); return 0; }
SRC
gcc -O2 -g -o "$T/p" "$T/p.c" || fail "gcc failed"
addrs=$(nm "$T/p" | awk '$2 ~ /^[tT]$/ { print $1 }' | tr '\n' ' ')

python3 - "$T/p" "$T" <<'PY' || fail "could not write the mutants"
import random, struct, sys
src, out = sys.argv[1], sys.argv[2]
data = bytearray(open(src, "rb").read())
shoff, = struct.unpack_from("<Q", data, 0x28)
shentsize, shnum = struct.unpack_from("<HH", data, 0x3a)
secs = []
for i in range(shnum):
    off = shoff + i * shentsize
    typ, = struct.unpack_from("<I", data, off + 4)
    soff, size = struct.unpack_from("<QQ", data, off + 0x18)
    secs.append((typ, soff, size))
# where to hit: ELF and program headers, the section table, symtab/dynsym/strtab, rela, debug
regions = [(0, 0x40), (0x40, 0x40 + 13 * 56), (shoff, shoff + shnum * shentsize)]
regions += [(o, o + s) for t, o, s in secs if t in (2, 3, 4, 11) or (t == 1 and s and o > 0x3000)]
rnd = random.Random(20261130)
for k in range(150):
    m = bytearray(data)
    for _ in range(rnd.choice((1, 2, 4, 16))):
        lo, hi = rnd.choice(regions)
        if hi > lo:
            p = rnd.randrange(lo, min(hi, len(m)))
            m[p] = rnd.choice((0, 0xff, rnd.randrange(256), m[p] ^ (1 << rnd.randrange(8))))
    open("%s/m%03d" % (out, k), "wb").write(m)
PY

crashes=0
for m in "$T"/m[0-9]*; do
	"$TOOL" -e "$m" $addrs > /dev/null 2> "$T/err"
	rc=$?
	if [ $rc -ge 128 ] || grep -q 'ERROR: AddressSanitizer\|runtime error' "$T/err"; then
		echo "crash ($rc) on $m:"; head -5 "$T/err"
		crashes=$((crashes + 1))
	fi
	"$TOOL" --perf -e "$m" $addrs > /dev/null 2> "$T/err"
	rc=$?
	if [ $rc -ge 128 ] || grep -q 'ERROR: AddressSanitizer\|runtime error' "$T/err"; then
		echo "crash ($rc) on $m (--perf):"; head -5 "$T/err"
		crashes=$((crashes + 1))
	fi
done
[ $crashes -eq 0 ] || fail "$crashes crashes on mutated objects"
echo "150 mutated objects, no crash"
