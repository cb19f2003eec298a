#!/bin/sh
# Bad input: the corrupt fixture, and every fixture cut short at 28 offsets (some also through
# a pipe) or with a byte flipped at 16 places (~650 inputs), must give exit 2 with a message
# naming the file, the byte offset and what was wrong ("lineup: FILE: at byte N (0xN): ..."),
# never a signal and never a hang.  Exit 0 is allowed only where the mutation left a valid
# file: a pipe-mode file cut at a record boundary (found here by walking the record sizes), or
# a byte flipped past the header fields that every reader checks (magic, header size, attr
# size, attrs section, data offset: bytes 0-47 of a file-mode header, 0-15 of a pipe header).
. "$top_srcdir/tests/lib.sh"
need timeout
need dd
scratch

dir="$FIXTURES"
[ -d "$dir" ] || fail "no fixtures at $dir (tests/fixtures/perf-data is part of the checkout)"

# Run lineup info on $1 ($2 describes it; $3 = 1 when the mutated file may still be valid):
# exit 2 with a message naming the file and a byte offset, or exit 0 where allowed; anything
# else fails the test.
check() {
	timeout 20 "$LINEUP" info -i "$1" >/dev/null 2>"$T/err"
	rc=$?
	case $rc in
	0) [ "$3" = 1 ] || fail "$2: accepted (exit 0), but the file is not valid" ;;
	2)
		grep -q "^lineup: $1: at byte [0-9][0-9]* (0x[0-9a-f]*): ." "$T/err" ||
			fail "$2: exit 2 without naming the file and byte offset: $(cat "$T/err")"
		;;
	124) fail "$2: hangs (killed after 20 s)" ;;
	*)
		[ $rc -gt 128 ] && fail "$2: killed by signal $((rc - 128)): $(head -5 "$T/err")"
		fail "$2: exit $rc: $(head -5 "$T/err")"
		;;
	esac
}

# The corrupt fixture: a zero-size SAMPLE record (perf: "bad event header size").
bad="$dir/perf.data.piped.corrupted.zero_size_sample-3.2"
if [ -f "$bad" ]; then
	expect_rc 2 timeout 20 "$LINEUP" info -i "$bad" 2>"$T/err"
	grep -q "zero_size_sample-3.2: at byte 49104 (0xbfd0): record of type 9 has size 0" "$T/err" ||
		fail "corrupt fixture: unclear error: $(cat "$T/err")"
fi

# Not perf.data at all, empty, a directory, a missing file.
: >"$T/empty"
expect_rc 2 "$LINEUP" info -i "$T/empty" 2>/dev/null
printf 'hello, this is not a perf.data file\n' >"$T/text"
expect_rc 2 "$LINEUP" info -i "$T/text" 2>"$T/err"
grep -q "bad magic" "$T/err" || fail "text file: unclear error: $(cat "$T/err")"
expect_rc 2 "$LINEUP" info -i "$T/does-not-exist" 2>/dev/null

# A perf record --threads directory whose DIR/data.N files are damaged: the error names that
# file.  (DIR/data is a real recording; data.0 garbage, data.1 a record cut in half.)
mkdir "$T/dir.data"
cp "$dir/perf.data.ctx_switch_namespaces-4.14" "$T/dir.data/data"
printf 'not records at all, just text........' >"$T/dir.data/data.0"
expect_rc 2 "$LINEUP" info -i "$T/dir.data" >/dev/null 2>"$T/err"
grep -q "dir.data/data.0: at byte 0 (0x0): " "$T/err" || fail "damaged data.0: $(cat "$T/err")"
: >"$T/dir.data/data.0"
printf '\011\000\000\000\000\000\100\000' >"$T/dir.data/data.1"
expect_rc 2 "$LINEUP" info -i "$T/dir.data" >/dev/null 2>"$T/err"
grep -q "dir.data/data.1: at byte 0 (0x0): record of 64 bytes runs past the end" "$T/err" ||
	fail "cut data.1: $(cat "$T/err")"
rm -r "$T/dir.data"
expect_rc 2 "$LINEUP" info -i "$T" 2>"$T/err"
grep -q "without a perf.data 'data' file" "$T/err" || fail "plain directory: $(cat "$T/err")"

# "pipe" or "file" (the header's size field: 16 in pipe mode), then the offsets at which a
# record of the data ends (pipe mode: the whole stream after the 16-byte header), by the record
# sizes (u16 at byte 6 of each record header), in the file's byte order.
layout() {
	od -An -v -tu1 "$1" | awk '{ for (i = 1; i <= NF; i++) b[n++] = $i }
	END {
		be = (b[0] == 50)	# "2ELIFREP": a big-endian file
		hs = be ? b[14] * 256 + b[15] : b[8] + 256 * b[9]
		if (hs != 16) { print "file"; exit }
		print "pipe"
		o = 16
		print o
		while (o + 8 <= n) {
			s = be ? b[o + 6] * 256 + b[o + 7] : b[o + 6] + 256 * b[o + 7]
			if (s < 8) break
			o += s
			if (o <= n) print o
		}
	}'
}

n=0
for f in "$dir"/*perf.data*; do
	[ -f "$f" ] || continue
	b=$(basename "$f")
	size=$(wc -c <"$f")
	layout "$f" >"$T/layout"
	mode=$(head -n1 "$T/layout")
	if [ "$mode" = pipe ]; then hdr=16; else hdr=48; fi
	# Cut at 28 offsets: the header's fields, then spread over the file.
	for off in 0 8 12 16 40 72 104 110 $(awk -v s="$size" 'BEGIN {
		for (k = 1; k < 21; k++) print int(s * k / 21) + k % 8 }'); do
		[ "$off" -lt "$size" ] || continue
		head -c "$off" "$f" >"$T/cut"
		ok=0
		[ "$mode" = pipe ] && grep -qx "$off" "$T/layout" && ok=1
		check "$T/cut" "$b cut at $off" $ok
		n=$((n + 1))
		# every fourth cut also through a pipe (the read() path, not mmap)
		if [ $((n % 4)) -eq 0 ]; then
			cat "$T/cut" | timeout 20 "$LINEUP" info -i - >/dev/null 2>"$T/err"
			rc=$?
			case $rc in
			0) [ $ok = 1 ] || fail "$b cut at $off, piped: accepted (exit 0), but not valid" ;;
			2)
				grep -q "^lineup: <stdin>: at byte [0-9][0-9]* (0x[0-9a-f]*): ." "$T/err" ||
					fail "$b cut at $off, piped: $(cat "$T/err")"
				;;
			*) fail "$b cut at $off, piped: exit $rc: $(head -3 "$T/err")" ;;
			esac
		fi
	done
	# Flip one byte at 16 pseudo-random places (fixed seed per file, so failures repeat).
	for pos in $(awk -v s="$size" -v seed="$size" 'BEGIN {
		x = seed % 65536; for (k = 0; k < 16; k++) { x = (x * 1103515245 + 12345) % 2147483648;
		print (k < 5 ? x % 128 : x % s) } }'); do
		cp "$f" "$T/flip"
		chmod u+w "$T/flip"
		byte=$(od -An -tu1 -j "$pos" -N1 "$f" | tr -d ' ')
		printf "$(printf '\\%03o' $(((byte ^ 0xa5) & 255)))" |
			dd of="$T/flip" bs=1 seek="$pos" conv=notrunc 2>/dev/null
		ok=1
		[ "$pos" -lt $hdr ] && ok=0
		check "$T/flip" "$b with byte $pos flipped" $ok
		n=$((n + 1))
	done
done
[ $n -gt 400 ] || fail "only $n corrupted inputs tried"
exit 0
