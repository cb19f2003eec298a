#!/bin/sh
# (g) buffer_head's b_state (seed 000): each pass of each thread sets a bit already set with an
# atomic or.  The recording counts those redundant RMWs exactly at the fetch_or's source line
# (all but the first of threads x iterations), and shows the readers of b_blocknr and b_size
# beside it taking HITMs.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sim/sim-lib.sh"
scratch
need perf

sim_build flag_word gcc
sim_record_contended "$T/g.data" 20 "$T/flag_word-gcc" 20000 3
set_line=$(src_line flag_word.c "atomic_fetch_or(&bh.b_state, BH_Uptodate);")
"$PERF" script -i "$T/g.data" -F event,period,weight,ip,srcline 2>/dev/null |
	awk '/redundant-rmw/ { p = $1; w = $3; getline; gsub(/ /, ""); print p, w, $0 }' >"$T/rmw"
grep -qx "59999 60000 $set_line" "$T/rmw" ||
	fail "expected 59999 redundant of 60000 RMWs at $set_line: $(cat "$T/rmw")"

c2c_pareto "$T/g.data" >"$T/pareto"
read_line=$(src_line flag_word.c "sum += bh.b_blocknr * bh.b_size;")
for off in 0x18 0x20; do
	awk -v o=$off -v s="$read_line" '$1 == 0 && $5 == o && $6 == s && $2 != "0.00%"' \
		"$T/pareto" | grep -q . || fail "no HITM on the reader at $off: $(cat "$T/pareto")"
done
awk -v s="$set_line" '$1 == 0 && $5 == "0x0" && $6 == s && $4 != "0.00%"' "$T/pareto" |
	grep -q . || fail "the redundant fetch_or does not show as invalidating stores"
exit 0
