#!/bin/sh
# A broken optional feature section (a CPUDESC cut short, as perf 3.14 wrote some): perf reads
# the samples, so does lineup, with a warning naming the section and its byte offset; the
# feature is left out.  A file header whose size is neither of perf's two (2^63 here) is
# refused, as perf refuses it.
. "$top_srcdir/tests/lib.sh"
need python3
scratch
src="$FIXTURES/perf.data.weight_struct"

# patch FILE FEATURE-ID: the feature section's first u32 (a string's length) made far too big
patch_feature() {
	python3 - "$1" "$2" <<'PY' || fail "cannot patch $1"
import struct, sys
path, feat = sys.argv[1], int(sys.argv[2])
b = bytearray(open(path, 'rb').read())
data_off, data_size = struct.unpack_from('<QQ', b, 40)
bits = struct.unpack_from('<4Q', b, 72)
k = 0
for f in range(256):
    if (bits[f // 64] >> (f % 64)) & 1:
        if f == feat:
            off, size = struct.unpack_from('<QQ', b, data_off + data_size + 16 * k)
            struct.pack_into('<I', b, off, 0x7fff0000)
            open(path, 'wb').write(b)
            print(off)
            sys.exit(0)
        k += 1
sys.exit(1)
PY
}
cp "$src" "$T/cpudesc.data"
at=$(patch_feature "$T/cpudesc.data" 8) # HEADER_CPUDESC
"$LINEUP" info --stats -i "$T/cpudesc.data" >"$T/l.stats" 2>"$T/err" ||
	fail "a broken CPUDESC is refused: $(cat "$T/err")"
# (noticed after the length, 4 bytes into the section)
grep -q "warning: $T/cpudesc.data: at byte $((at + 4)) (.*): bad CPUDESC feature section" "$T/err" ||
	fail "no warning naming the section: $(cat "$T/err")"
grep -q 'SAMPLE events:' "$T/l.stats" || fail "no samples read: $(cat "$T/l.stats")"
"$LINEUP" info --header-only -i "$T/cpudesc.data" 2>/dev/null | grep -q '^# missing features: .*CPUDESC' ||
	fail "the broken CPUDESC is not left out"
"$LINEUP" report --stdio -i "$T/cpudesc.data" >/dev/null 2>&1 || fail "report refuses it"
if [ -n "${PERF:-}" ]; then
	# the same counts as perf, which reads it too
	"$PERF" report --stats -i "$T/cpudesc.data" >"$T/p.stats" 2>/dev/null ||
		fail "perf does not read the patched file (the test's patch is wrong)"
	grep 'events:' "$T/p.stats" | tr -s ' ' | sed 's/(.*//' >"$T/p.ev"
	grep 'events:' "$T/l.stats" | tr -s ' ' | sed 's/(.*//' >"$T/l.ev"
	diff -u "$T/p.ev" "$T/l.ev" || fail "counts differ from perf's on a broken CPUDESC"
fi

# A header size of 2^63: refused, exit 2, naming byte 8.
cp "$src" "$T/big.data"
printf '\000\000\000\000\000\000\000\200' |
	dd of="$T/big.data" bs=1 seek=8 conv=notrunc 2>/dev/null
expect_rc 2 "$LINEUP" info -i "$T/big.data" >/dev/null 2>"$T/err"
grep -q "at byte 8 (0x8): file header size 9223372036854775808" "$T/err" ||
	fail "header size: $(cat "$T/err")"
if [ -n "${PERF:-}" ]; then
	"$PERF" report --stats -i "$T/big.data" >/dev/null 2>&1 &&
		fail "perf reads a 2^63-byte header (the test's premise is wrong)"
fi
exit 0
