#!/bin/sh
# (e) true sharing: one atomic counter incremented by 3 threads.  Every HITM falls on one
# offset of one line (the counter's), every one of them locked; lineup report agrees with
# perf c2c report.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sim/sim-lib.sh"
scratch
need perf

sim_build atomic_counter clang
sim_record_contended "$T/e.data" 20 "$T/atomic_counter-clang" 30000 3
c2c_pareto "$T/e.data" >"$T/pareto"
inc=$(src_line atomic_counter.c "atomic_fetch_add_explicit(&io_stats.in_flight, 1, memory_order_relaxed);")
awk '$2 != "0.00%"' "$T/pareto" >"$T/hitm-rows"
[ -s "$T/hitm-rows" ] || fail "no HITM rows: $(cat "$T/pareto")"
# One offset (the compiler may unroll the loop: several code addresses, one source line; the
# main thread's final read of the total may add a HITM of its own, at the same offset).
offs=$(awk '{ print $1, $5 }' "$T/hitm-rows" | sort -u)
[ "$offs" = "0 0x0" ] || fail "HITMs on more than one offset: $(cat "$T/pareto")"
share=$(awk -v s="$inc" '$6 == s { sub(/%/, "", $2); t += $2 } END { printf "%d", t }' "$T/hitm-rows")
[ "$share" -ge 90 ] || fail "only $share% of the HITMs at $inc: $(cat "$T/hitm-rows")"
# Every HITM sample has the counter's address (same page offset: the program is PIE); the
# increments' are locked loads (the main thread's final plain read may add an unlocked one).
addr=$(nm "$T/atomic_counter-clang" | awk '$3 == "io_stats" { print $1 }')
"$PERF" script -i "$T/e.data" -F event,addr,data_src 2>/dev/null |
	awk '/mem-loads/ && /SNP HitM/ { print $2, (/LCK Yes/ ? "locked" : "unlocked") }' \
		>"$T/hitms"
awk '{ print $1 }' "$T/hitms" | sort -u >"$T/addrs"
[ "$(wc -l <"$T/addrs")" -eq 1 ] || fail "HITMs at several addresses: $(cat "$T/addrs")"
case "$(cat "$T/addrs")" in *$(printf '%x' $((0x$addr + 64)) | tail -c 3)) ;;
*) fail "the HITMs are not on io_stats.in_flight (io_stats at $addr): $(cat "$T/addrs")" ;;
esac
[ "$(grep -c ' unlocked$' "$T/hitms")" -le 2 ] || fail "unlocked HITMs: $(sort "$T/hitms" | uniq -c)"
hitm=$(c2c_stat "$T/e.data" "Load Local HITM")
locked=$(c2c_stat "$T/e.data" "Locked Load/Store Operations")
[ "$locked" -ge "$hitm" ] || fail "$hitm HITMs but only $locked locked operations"

# Nothing of the runtime itself is recorded (its own lock, its buffers, its writer).
"$PERF" script -i "$T/e.data" -F sym 2>/dev/null |
	grep -E 'simrt__|thread_retire|access_slow|sample_hit|rmw_merge|__tsan_|perf_writer__' |
	sort | uniq -c >"$T/self"
[ ! -s "$T/self" ] || fail "samples inside the runtime: $(cat "$T/self")"
same_as_perf "$T/e.data"
exit 0
