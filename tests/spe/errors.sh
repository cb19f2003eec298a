#!/bin/sh
# Arm SPE traces that are wrong: a bad packet header, a packet cut by the end of its AUX
# buffer, an operation type of class 3, AUX data running past the end of the file: exit 2 with
# 'FILE: at byte N (0xN): what', N the bad byte's offset in the file.  Then truncations and
# byte flips all over a trace: exit 0 or 2, never a crash or a hang.
. "$top_srcdir/tests/lib.sh"
scratch
MKSPE="$top_builddir/tests/tools/mkspe"
[ -x "$MKSPE" ] || fail "mkspe was not built"

# $1: name, $2: raw AUX bytes (hex) on CPU 0, $3: the message expected, $4: the bad byte's
# position in the AUX data
bad() {
	printf 'cpus 1\ncomm 1 1 x time=1\nspe 0 ip=0x400000 ctx=1 op=ld va=0x1000 src=0 ts=10\nraw 0 %s\n' \
		"$2" >"$T/$1.txt"
	"$MKSPE" -o "$T/$1.data" "$T/$1.txt" || fail "mkspe $1"
	expect_rc 2 "$LINEUP" report --stdio -i "$T/$1.data" >/dev/null 2>"$T/err"
	grep -q "$3" "$T/err" || fail "$1: message: $(cat "$T/err")"
	# the offset named is the AUXTRACE record's + 48 + where the byte is in its data
	rec=$(sed -n 's/.*(AUXTRACE record at byte \([0-9]*\)).*/\1/p' "$T/err")
	at=$(sed -n 's/.*: at byte \([0-9]*\) (0x[0-9a-f]*): .*/\1/p' "$T/err")
	[ -n "$rec" ] && [ "$at" = $((rec + 48 + $4)) ] ||
		fail "$1: offset $at, expected AUXTRACE at $rec + 48 + $4: $(cat "$T/err")"
}
# one good record is 9+5+2+3+2+3+3+9+9+9 = 54 bytes
bad header 004900ff 'bad SPE packet header' 57
bad cut 000000000000b001 'SPE packet cut by the end of its AUX buffer' 60
bad class3 4b00 'SPE operation type packet of an unknown class' 54

# AUX data past the end of the file
printf 'cpus 1\nspe 0 ip=0x400000 op=ld va=0x1000 ts=10 repeat=50\naux 0\n' >"$T/t.txt"
"$MKSPE" -o "$T/t.data" "$T/t.txt" || fail "mkspe t"
size=$(stat -c %s "$T/t.data")
expect_rc 0 "$LINEUP" report --stdio -i "$T/t.data" >/dev/null
# find the AUXTRACE record (type 71 = 0x47, size 48): the first 8-aligned match
off=$(od -An -v -tx1 -w8 "$T/t.data" | awk '$1 == "47" && $2 == "00" && $3 == "00" && $4 == "00" && $7 == "30" && $8 == "00" { print (NR - 1) * 8; exit }')
[ -n "$off" ] || fail "no AUXTRACE record found in t.data"
head -c $((off + 48 + 100)) "$T/t.data" >"$T/cut.data"
expect_rc 2 "$LINEUP" report --stdio -i "$T/cut.data" >/dev/null 2>"$T/err"
grep -q "cut.data: at byte [0-9]* (0x[0-9a-f]*): " "$T/err" || fail "cut: $(cat "$T/err")"

# the same cut in pipe mode: the AUX data ends early
"$MKSPE" -o - "$T/t.txt" >"$T/t.pipe" || fail "mkspe -o - t"
psize=$(stat -c %s "$T/t.pipe")
head -c $((psize - 100)) "$T/t.pipe" | expect_rc 2 "$LINEUP" report --stdio -i - >/dev/null 2>"$T/err"
grep -q "<stdin>: at byte [0-9]* (0x[0-9a-f]*): .*run past the end" "$T/err" ||
	fail "pipe cut: $(cat "$T/err")"

# truncations and flips over the AUX data and the records around it
i=0
while [ $i -lt 40 ]; do
	cp "$T/t.data" "$T/f.data"
	pos=$((off + (i * 37) % 3000))
	[ $pos -lt "$size" ] || pos=$((size - 1))
	printf "\\$(printf '%03o' $(((i * 91 + 7) % 256)))" |
		dd of="$T/f.data" bs=1 seek=$pos conv=notrunc 2>/dev/null
	"$LINEUP" report --stdio -i "$T/f.data" >/dev/null 2>"$T/err"
	rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 2 ] || fail "flip at $pos: exit $rc $(cat "$T/err")"
	[ $rc -eq 0 ] || grep -q "f.data: " "$T/err" || fail "flip at $pos: $(cat "$T/err")"
	head -c $((off + i * 67)) "$T/t.data" >"$T/h.data"
	"$LINEUP" report --stdio -i "$T/h.data" >/dev/null 2>"$T/err"
	rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 2 ] || fail "cut at $((off + i * 67)): exit $rc $(cat "$T/err")"
	i=$((i + 1))
done
echo ok
