#!/bin/sh
# Writes and copies through memset, bzero, memcpy, memmove and a fortified memcpy (__memcpy_chk)
# are recorded: gcc would expand them inline and clang 14 calls libc's, so neither would reach
# the collector without sim-flags' -fno-builtin-* and the runtime's interposed calls.  Each
# call's accesses carry its source line and are tied to the member it writes (or, for a copy's
# source, reads), with gcc and clang at -O0 and -O2; the calls still do their work, and a
# fortified copy past its destination still stops the program.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sim/sim-lib.sh"
scratch

n=100
# row MEMBER: the member's row of struct record's table: "LOADS STORES CODE..."
row() {
	awk -v m="$1" '/^struct record / { p = 1; next } p && /^$/ { p = 0 }
		p && $4 == m { s = $6 " " $7; for (i = 16; i <= NF; i++) s = s " " $i; print s }' \
		"$T/fields.txt"
}
# expect MEMBER loads|stores CALL: at least $n of them, and CALL's line among the member's code.
expect() {
	local r line want
	r=$(row "$1")
	line=$(src_line memwrites.c "$3")
	set -- "$1" "$2" "$3" $r
	case $2 in loads) want=$4 ;; *) want=$5 ;; esac
	[ "${want:-0}" -ge $n ] || fail "$cc $opt: $1: $want $2, not $n, from $3: $(cat "$T/fields.txt")"
	case " $* " in *" $line"[\;\ ]*) ;; *) fail "$cc $opt: $1: no access from $line: $*" ;; esac
}

for cc in gcc clang; do
	command -v $cc >/dev/null || continue
	for opt in -O0 -O2; do
		sim_build memwrites $cc $opt
		LINEUP_SIM_PERIOD=1 LINEUP_SIM_MISS_PERIOD=1 sim_record "$T/m.data" "$T/memwrites-$cc" $n
		grep -qx ok "$T/record.out" || fail "$cc $opt: the calls misbehaved: $(cat "$T/record.out")"
		"$LINEUP" fields --stdio -i "$T/m.data" >"$T/fields.txt" 2>"$T/fields.err" ||
			fail "$cc $opt: lineup fields: $(cat "$T/fields.err")"
		expect name stores "memset(rec.name,"
		expect key stores "bzero(rec.key,"
		expect copy stores "memcpy(rec.copy,"
		expect source loads "memcpy(rec.copy,"
		expect ring stores "memmove(rec.ring"
		expect checked stores "__builtin___memcpy_chk(rec.checked, rec.source, len,"
	done
	# Unrecorded, the calls work too; an overflowing fortified copy aborts as glibc's does.
	out=$("$T/memwrites-$cc" 10) || fail "$cc: unrecorded run: $out"
	[ "$out" = ok ] || fail "$cc: unrecorded run: $out"
	expect_rc 134 "$T/memwrites-$cc" 10 overflow 2>"$T/chk.err"
	grep -q "buffer overflow detected" "$T/chk.err" || fail "$cc: no fortify abort: $(cat "$T/chk.err")"
done
exit 0
