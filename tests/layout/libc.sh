#!/bin/sh
# Oracle on a real distribution debuginfo: glibc's, from libc6-dbg, which lineup must find by
# build-id under /usr/lib/debug/.build-id from the stripped libc.so.6 itself.  Every struct
# (some 400, from some 1800 compilation units) as lineup prints it equals pahole's output on
# the debug file.
. "$top_srcdir/tests/lib.sh"
scratch
[ -n "${PAHOLE:-}" ] || skip "pahole (dwarves) is not installed"
libc=$(ldd /bin/sh 2>/dev/null | awk '/libc.so/ { print $3 }')
[ -f "$libc" ] || skip "no libc.so found through ldd"
id=$(readelf -n "$libc" 2>/dev/null | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p')
[ -n "$id" ] || skip "$libc has no build-id"
dbg=/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
[ -f "$dbg" ] || skip "no separate debuginfo for $libc (Debian: libc6-dbg)"

"$PAHOLE" "$dbg" >"$T/pahole.txt" 2>/dev/null || fail "pahole failed on $dbg"
"$LINEUP" layout "$libc" >"$T/lineup.txt" 2>"$T/err" || fail "lineup layout $libc: $(cat "$T/err")"
n=$(grep -c '^struct ' "$T/pahole.txt")
[ "$n" -ge 100 ] || fail "pahole shows only $n structs for $libc"
pahole_diff "$T/pahole.txt" "$T/lineup.txt" >"$T/diff" || {
	head -60 "$T/diff" >&2
	fail "lineup layout differs from pahole on glibc's debuginfo"
}
"$PAHOLE" --expand_types "$dbg" >"$T/pahole.txt" 2>/dev/null
"$LINEUP" layout --expand "$libc" >"$T/lineup.txt" || fail "lineup layout --expand failed"
pahole_diff "$T/pahole.txt" "$T/lineup.txt" >"$T/diff" || {
	head -40 "$T/diff" >&2
	fail "--expand differs from pahole --expand_types on glibc's debuginfo"
}
# -C of the last struct pahole prints (the slow case for a loader that stops early)
last=$(awk '/^struct / { n = $2 } END { print n }' "$T/pahole.txt")
"$PAHOLE" -C "$last" "$dbg" >"$T/p.txt" 2>/dev/null
"$LINEUP" layout -C "$last" "$libc" >"$T/l.txt" || fail "-C $last failed"
pahole_diff "$T/p.txt" "$T/l.txt" || fail "-C $last differs from pahole"
echo "$n structs identical to pahole"
exit 0
