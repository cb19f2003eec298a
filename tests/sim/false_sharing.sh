#!/bin/sh
# Workloads with false sharing, recorded with `lineup record --sim` and read back by
# perf c2c report (the oracle): (a) two adjacent counters, (d) a packed per-thread stats array
# (heap), (f) a Phoenix-style histogram with per-thread bins packed (heap); and (b), the padded
# fix of (a), where no line is contended.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sim/sim-lib.sh"
scratch
need perf

# (a): one line, HITMs and stores at offsets 0x0 and 0x8, both at the increment's line.
sim_build fs_adjacent gcc
sim_record_contended "$T/a.data" 20 "$T/fs_adjacent-gcc" 1000000 2
c2c_lines "$T/a.data" >"$T/a.lines"
c2c_pareto "$T/a.data" >"$T/a.pareto"
read -r idx addr hitm stores <"$T/a.lines" || fail "(a): perf c2c shows no shared line"
[ "$hitm" -ge 20 ] || fail "(a): the hottest line has $hitm HITMs: $(cat "$T/a.lines")"
inc=$(src_line counters.h "(*c)++;")
for off in 0x0 0x8; do
	awk -v o=$off -v s="$inc" '$1 == 0 && $5 == o && $6 == s && $2 != "0.00%"' "$T/a.pareto" |
		grep -q . || fail "(a): no HITM at offset $off from $inc: $(cat "$T/a.pareto")"
done
# The counters are a global: the line is the variable's.
sym=$(nm "$T/fs_adjacent-gcc" | awk '$3 == "counters" { print $1 }')
case $addr in *$(printf '%x' $((0x$sym)) | tail -c 3)) ;;
*) fail "(a): the hot line $addr is not the global counters ($sym)" ;;
esac
same_as_perf "$T/a.data"

# (b): the same counters 128 bytes apart, run 10 times longer (so the threads surely overlap):
# lineup report finds no shared line at all, nor does perf c2c.  (Each worker's first read of
# `iterations`, which main wrote, is one real HITM; the miss period of 5 starts its countdown at
# 2 or more, so that single first miss is never the sampled one.)
sim_build fs_padded gcc
LINEUP_SIM_MISS_PERIOD=5 sim_record "$T/b.data" "$T/fs_padded-gcc" 1000000 2
n=$(lineup_stat "$T/b.data" "Total Shared Cache Lines")
[ "$n" = 0 ] || fail "(b): lineup report finds $n shared lines: $(c2c_lines "$T/b.data")"
[ "$(c2c_stat "$T/b.data" "Load Local HITM")" = 0 ] || fail "(b): HITMs without sharing"
[ "$(lineup_stat "$T/a.data" "Total Shared Cache Lines")" -ge 1 ] ||
	fail "(a): lineup report finds no shared line"
same_as_perf "$T/b.data"
"$PERF" script -i "$T/b.data" -F event 2>/dev/null | grep -q pair-hitm &&
	fail "(b): 128 bytes apart, yet pair-hitm samples"

# (b) padded to 64 bytes only: no 64-byte line is shared, but each counter's line is the
# other's adjacent-line pair, which the 128-byte model sees contended (lineup-sim/pair-hitm/,
# at the increment's line) and perf c2c does not count as accesses.
"$CC" $("$LINEUP" sim-flags --cc gcc --cflags) -O2 -DPAD=64 -c -o "$T/pad64.o" "$WL/fs_padded.c" &&
	"$CC" -o "$T/pad64" "$T/pad64.o" $("$LINEUP" sim-flags --libs) || fail "build PAD=64"
# (Every access modeled; re-recorded, 5 times at most, until the threads overlapped.)
for try in 1 2 3 4 5; do
	SIM_OPTS=--sim-exact sim_record "$T/b64.data" "$T/pad64" 1000000 2
	[ "$(c2c_stat "$T/b64.data" "Load Local HITM")" = 0 ] || fail "(b64): HITMs on 64-byte lines"
	n=$("$PERF" script -i "$T/b64.data" -F event,ip,srcline 2>/dev/null |
		awk -v s="$inc" '/pair-hitm/ { getline; gsub(/ /, ""); if ($0 == s) n++ } END { print n + 0 }')
	[ "$n" -ge 10 ] && break
	echo "try $try: $n pair-hitm samples (threads did not overlap?), again" >&2
done
[ "$n" -ge 10 ] || fail "(b64): $n pair-hitm samples at $inc"

# (d): per-thread stats packed 24 bytes apart on the heap: the line holding slots 0 and 1 is
# contended by two threads (cpu cnt 2 on its offsets).
sim_build percpu_stats clang
sim_record_contended "$T/d.data" 20 "$T/percpu_stats-clang" 1000000 2
c2c_pareto "$T/d.data" >"$T/d.pareto"
ops=$(src_line percpu_stats.c "s->ops++;")
bytes=$(src_line percpu_stats.c "s->bytes += i & 255;")
awk -v s="$ops" '$1 == 0 && $6 == s && $2 != "0.00%"' "$T/d.pareto" | grep -q . ||
	fail "(d): no HITM on s->ops: $(cat "$T/d.pareto")"
awk -v s="$bytes" '$1 == 0 && $6 == s' "$T/d.pareto" | grep -q . ||
	fail "(d): s->bytes not on the hot line: $(cat "$T/d.pareto")"
n=$(awk '$1 == 0 { print $5 }' "$T/d.pareto" | sort -u | wc -l)
[ "$n" -ge 4 ] || fail "(d): the hot line should show both threads' fields, has $n offsets"

# (f): histogram bins of both threads side by side.
sim_build histogram gcc
sim_record_contended "$T/f.data" 20 "$T/histogram-gcc" 1000000 2
c2c_pareto "$T/f.data" >"$T/f.pareto"
upd=$(src_line histogram.c "hist[(image[p] * BINS / 256) * nthreads + t]++;")
awk -v s="$upd" '$1 == 0 && $6 == s && $2 != "0.00%"' "$T/f.pareto" | grep -q . ||
	fail "(f): no HITM on the bins: $(cat "$T/f.pareto")"
same_as_perf "$T/f.data"
exit 0
