#!/bin/sh
# lineup report --stdio against perf c2c report --stdio on a recording written as perf record
# writes one (mkperf percpu: each round holds every CPU's samples in turn, so the file is out
# of time order) with the samples of many kinds interleaved (mkperf mix), side-band records
# between the mixes and samples with equal times on several CPUs.  The order of delivery
# decides PA cnt, the first sample of each entry (its thread, shown data address) and the bits
# of the running means: lineup's run merge and its look-ahead (prefetching) delivery must give
# perf's order, byte for byte, in every display.
. "$top_srcdir/tests/lib.sh"
scratch
need gcc
need awk
[ -n "${PERF:-}" ] && [ -x "$PERF" ] || skip "perf is not installed"
MKPERF="$top_builddir/tests/tools/mkperf"
[ -x "$MKPERF" ] || fail "mkperf was not built"

# gcc -g -O0 -o prog prog.c
cat >"$T/prog.c" <<'EOF'
struct stats { long hits; long misses; long pad[6]; long flags; long refs; } shared_stats;
long counter[16];
long table[4] = { 1, 2, 3, 4 };
int reader(struct stats *s) { return s->hits + s->misses; }
void writer(struct stats *s) { s->hits++; s->flags |= 1; }
void bump(long *c) { __atomic_fetch_add(c, 1, __ATOMIC_RELAXED); }
int main(void) { writer(&shared_stats); bump(&counter[1]); return reader(&shared_stats); }
EOF
(cd "$T" && gcc -g -O0 -o prog prog.c) || fail "cannot build the test program"

# kinds N SEED LINES BASE: N sample kinds (thread, CPU, code, line and offset, class, weight,
# physical page on either node), each repeated 5..80 times; few lines, so that kinds share
# entries and the order decides PA cnt, the means and each entry's first sample.
kinds() {
	awk -v n="$1" -v seed="$2" -v lines="$3" -v base="$4" 'BEGIN {
		srand(seed)
		split("reader+8 reader+12 bump+12 writer+23 writer+30", ips, " ")
		split("LCL_HITM RMT_HITM LCL_HITM+LOCKED L1 LFB L2 LLC LCL_DRAM RMT_DRAM ST_L1HIT ST_L1MISS RMT_HIT LCL_PEER", cls, " ")
		for (i = 0; i < n; i++) {
			t = int(rand() * 8); c = cls[1 + int(rand() * 13)]
			ev = (c ~ /^ST_/) ? "store" : "load"
			line = int(rand() * lines); off = 8 * int(rand() * 8)
			node = int(rand() * 2)
			# decimal: mawk reads no hex constants and prints no %x or %d above 2^31
			printf "sample %s tid=%d cpu=%d ip=%s addr=%.0f src=%s weight=%d phys=%.0f repeat=%d\n", ev, 700 + t, t, ips[1 + int(rand() * 5)], base + line * 64 + off, c, 20 + int(rand() * 700), node * 2147483648 + 1048576 + line * 64 + off + 4096 * int(rand() * 2), 5 + int(rand() * 76)
		}
	}'
}

{
	echo "cpus 8 sockets=2"
	echo "event load"
	echo "event store"
	echo "comm 700 700 order"
	for t in 1 2 3 4 5 6 7; do echo "fork 700 700 $((700 + t)) 700"; done
	echo "mmap 700 auto $T/prog time=1"
	echo "anon 700 0x7f0000000000 0x10000 time=1"
	echo "percpu"
	echo "mix"
	kinds 400 7 8 139637976727552
	echo "mix end seed=3 round=1500"
	# side-band records between the mixes: a renamed thread, a new data mapping
	echo "comm 700 703 renamed"
	echo "anon 700 0x7f0000100000 0x10000"
	echo "mix"
	kinds 200 11 16 139637977776128
	kinds 100 13 8 139637976727552
	echo "mix end seed=5 round=6000"	# the queue grows past its first 4096 slots
	# equal times on several CPUs: perf keeps the file's order (CPU 0's buffer first)
	t=900000000
	for c in 5 2 0 7; do
		echo "sample load tid=$((700 + c)) cpu=$c time=$t ip=reader+8 addr=0x7f0000000040 src=LCL_HITM weight=$((100 + c)) phys=$((0x80000000 * (c % 2) + 0x200000))"
		echo "sample load tid=$((700 + c)) cpu=$c time=$((t + 1)) ip=reader+8 addr=0x7f0000000040 src=RMT_HITM weight=$((300 + c)) phys=$((0x80000000 * ((c + 1) % 2) + 0x200000))"
	done
	echo "round"
	echo "sample load tid=706 cpu=6 time=$((t - 5)) ip=bump+12 addr=0x7f0000000048 src=LCL_HITM weight=77 phys=0x300000"
	# code addresses in data objects of the PIE: perf prints "table+0xffff..." (its offset is
	# he->ip - map->unmap_ip(sym->start))
	echo "sample load tid=706 cpu=6 time=$((t + 7)) ip=table+8 addr=0x7f0000000050 src=LCL_HITM weight=78 phys=0x300000"
	echo "sample load tid=706 cpu=6 time=$((t + 8)) ip=_IO_stdin_used addr=0x7f0000000058 src=LCL_HITM weight=79 phys=0x300000"
	echo "round"
} >"$T/order.txt"
"$MKPERF" -o "$T/order.data" "$T/order.txt" || fail "mkperf failed"

n=0
for args in "" "-d lcl" "-c tid,iaddr" "-NN --show-all" "-N -d rmt"; do
	# shellcheck disable=SC2086
	"$PERF" c2c report --stdio -i "$T/order.data" $args >"$T/perf.out" 2>"$T/perf.err" ||
		fail "perf c2c report $args failed: $(cat "$T/perf.err")"
	# shellcheck disable=SC2086
	"$LINEUP" report --stdio -i "$T/order.data" $args >"$T/lineup.out" 2>"$T/lineup.err" ||
		fail "lineup report $args failed: $(cat "$T/lineup.err")"
	diff -u "$T/perf.out" "$T/lineup.out" >"$T/diff" ||
		fail "lineup report $args differs from perf c2c report:
$(head -40 "$T/diff")"
	case $args in
	"")
		grep -q '\[\.\] table+0x' "$T/lineup.out" ||
			fail "no code address in a data object shown"
		cp "$T/lineup.out" "$T/main.out"
		;;
	*tid*)
		# samples after the COMM record show its name
		grep -q ':renamed ' "$T/lineup.out" || fail "no entry shows the renamed thread"
		;;
	esac
	n=$((n + 1))
done
# The general merge (more than 256 runs in a flush, or times from 2^56 on): a round of 400
# samples in falling time order (each one a run of its own), then the same at huge times;
# two samples a time (same thread and address, so the same -c tid entry): the order of ties
# shows in PA cnt.
for base in 1000000 144115188075855872; do
	{
		echo "cpus 8 sockets=2"
		echo "event load"
		echo "event store"
		echo "comm 700 700 order"
		for t in 1 2 3; do echo "fork 700 700 $((700 + t)) 700"; done
		echo "mmap 700 auto $T/prog time=1"
		echo "anon 700 0x7f0000000000 0x10000 time=1"
		# the 200 even ones falling, then the 200 odd ones: each pair's second sample is
		# in a later run than its first
		for i in $(seq 400 -2 2) $(seq 399 -2 1); do
			k=$(((i + 1) / 2))
			f=reader
			[ $((i % 2)) = 0 ] || f=writer
			# an entry (-c tid) sees pairs (A, B) and (A, A) by turns: its PA cnt
			# counts one change fewer when each pair comes second-first
			echo "sample load tid=$((700 + k % 4)) cpu=$((k % 4)) time=$((base + k)) ip=$f+8 addr=$((0x7f0000000000 + 8 * (k % 16))) src=LCL_HITM weight=$((10 + i)) phys=$((0x100000 + 0x80000000 * (i % 2) * (1 - k / 16 % 2)))"
		done
		echo "round"
		echo "sample load tid=701 cpu=1 time=$((base + 500)) ip=reader+8 addr=0x7f0000000008 src=RMT_HITM weight=5 phys=0x100000"
		echo "round"
	} >"$T/runs.txt"
	"$MKPERF" -o "$T/runs.data" "$T/runs.txt" || fail "mkperf failed (runs, $base)"
	for args in "" "-c tid"; do
		# shellcheck disable=SC2086
		"$PERF" c2c report --stdio -i "$T/runs.data" $args >"$T/perf.out" \
			2>"$T/perf.err" || fail "perf c2c report failed (runs, $base): $(cat "$T/perf.err")"
		# shellcheck disable=SC2086
		"$LINEUP" report --stdio -i "$T/runs.data" $args >"$T/lineup.out" \
			2>"$T/lineup.err" || fail "lineup report failed (runs, $base): $(cat "$T/lineup.err")"
		diff -u "$T/perf.out" "$T/lineup.out" >"$T/diff" ||
			fail "400 runs from time $base, $args: lineup report differs from perf c2c report:
$(head -40 "$T/diff")"
	done
done
grep -Eq '^ +[0-9.]+%.* [0-9]+ +([2-9]|[1-9][0-9]+) +0x[0-9a-f]+ ' "$T/main.out" ||
	fail "no entry with a PA cnt above 1: the test cannot tell the orders apart"
echo "ok: $n displays identical to perf's"
