#!/bin/sh
# An object file cut short says "truncated" and where (the header table or section that runs
# past the end, with byte offsets), exit 2; it used to say "no .debug_info section".
. "$top_srcdir/tests/lib.sh"
need gcc
need python3
scratch
src=$top_srcdir/tests/layout
gcc -g -c "$src/structs.c" -I"$src" -o "$T/s.o" || fail "structs.c does not compile"
size=$(stat -c %s "$T/s.o")
for n in 1000 $((size / 2)) $((size - 1)); do
	head -c $n "$T/s.o" >"$T/cut.o"
	expect_rc 2 "$LINEUP" layout "$T/cut.o" >/dev/null 2>"$T/err"
	grep -q "cut.o: truncated: the section headers (bytes [0-9]* to [0-9]*, e_shoff at byte 40) end past the end of the file ($n bytes)" "$T/err" ||
		fail "cut at $n bytes: $(cat "$T/err")"
done
# The section headers whole, a section's bytes gone: the section is named.
python3 - "$T/s.o" "$T/sec.o" <<'PY' || fail "cannot build the cut file"
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
shoff, = struct.unpack_from('<Q', b, 40)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 58)
# .debug_info's offset moved to 16 bytes before the end of the file
strtab_off = struct.unpack_from('<Q', b, shoff + shstrndx * shentsize + 24)[0]
for i in range(shnum):
    h = shoff + i * shentsize
    name = struct.unpack_from('<I', b, h)[0]
    s = b[strtab_off + name:b.index(0, strtab_off + name)].decode()
    if s == '.debug_info':
        struct.pack_into('<Q', b, h + 24, len(b) - 16)
        break
else:
    sys.exit(1)
open(sys.argv[2], 'wb').write(b)
PY
expect_rc 2 "$LINEUP" layout "$T/sec.o" >/dev/null 2>"$T/err"
grep -q "sec.o: truncated: section .debug_info (bytes [0-9]* to [0-9]*, its header at byte [0-9]*) runs past the end of the file" "$T/err" ||
	fail "a section past the end: $(cat "$T/err")"
exit 0
