#!/bin/sh
# The collector samples its model (--sim-window BURST/EVERY[/START], the default): plain
# accesses are modeled only inside windows of time shared by all threads, atomic RMWs always,
# and each sample's period is scaled by its thread's seen/modeled ratio.  With no exact start
# (START 0) and runs long enough for many windows, the verdicts of the false-sharing workloads
# hold as in exact mode ((a) the line and both offsets, (b) no shared line, (d) the stats
# slot, (e) one offset, (g) every redundant RMW counted), and the summed periods of the
# loads estimate the loads the program made.  --sim-exact (and LINEUP_SIM_WINDOW=0) model
# every access, with unscaled periods.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sim/sim-lib.sh"
scratch
need perf

# Usage: the window's syntax, and the options only with --sim.
for w in 0/10 10/5 1/2/3/4 x 5/ /5 -1/2 5/-10 1//2 1/70000000 200/2000/x; do
	expect_rc 2 "$LINEUP" record --sim --sim-window "$w" -o "$T/x.data" -- true 2>"$T/err"
	grep -q "sim-window" "$T/err" || fail "--sim-window $w: $(cat "$T/err")"
done
expect_rc 2 "$LINEUP" record --sim-exact -o "$T/x.data" -- true 2>/dev/null
expect_rc 2 "$LINEUP" record --sim-window 200/2000 -o "$T/x.data" -- true 2>/dev/null

# loads FILE: the mem-loads samples' summed period, their largest period, and their count.
loads() {
	"$PERF" script -i "$1" -F period,event 2>/dev/null |
		awk '/mem-loads/ { s += $1; n++; if ($1 > m) m = $1 } END { print s + 0, m + 0, n + 0 }'
}
# within A B PCT: A is within PCT% of B.
within() { [ $(($1 * 100)) -ge $(($2 * (100 - $3))) ] && [ $(($1 * 100)) -le $(($2 * (100 + $3))) ]; }

# Yielding, not taking turns (sim_record's default): inside 200 us windows a busy machine leaves
# the baton few handoffs, and a thread waiting for it spends CPU time that the periods' estimate
# reads as work (record --sim-turns says so).
export LINEUP_SIM_YIELD=500
sim_build fs_adjacent gcc
inc=$(src_line counters.h "(*c)++;")
sym=$(nm "$T/fs_adjacent-gcc" | awk '$3 == "counters" { print $1 }')

# Exact (the option and the environment): every period unscaled (hits at 1000 +- 50%, misses at
# 5 +- 50%), and their sum is the loads made: 2 threads x N (+ a few of main's).
N=200000
SIM_OPTS=--sim-exact sim_record "$T/exact.data" "$T/fs_adjacent-gcc" $N 2
read -r sum max n <<EOT
$(loads "$T/exact.data")
EOT
[ "$max" -le 1500 ] || fail "exact: a load sample with period $max (scaled?)"
within "$sum" $((2 * N)) 10 || fail "exact: loads' periods sum to $sum, not about $((2 * N))"
# The environment reaches the runtime too (what record --sim-window sets).
# The windows open on the runtime's timer thread: on a busy machine it may not run during a
# short program, so the run is long enough for many windows and is retried (3 tries).
export LINEUP_SIM_WINDOW=200/1000/0
for try in 1 2 3; do
	SIM_OPTS= sim_record "$T/env.data" "$T/fs_adjacent-gcc" 4000000 2
	read -r sum max n <<EOT
$(loads "$T/env.data")
EOT
	[ "$max" -gt 1500 ] && break
	echo "try $try: no scaled period (largest $max): the timer thread did not run?" >&2
done
unset LINEUP_SIM_WINDOW
[ "$max" -gt 1500 ] || fail "LINEUP_SIM_WINDOW=200/1000/0: no scaled period (largest $max)"

# Sampled, a fifth of the time, no exact start: (a)'s verdict, periods scaled, and with
# --sim-count (the hooks count loads between windows) their sum unbiased.
W="--sim-window 200/1000/0"
# Long enough for hundreds of windows also when a busy machine runs the two threads in turn:
# taking turns (sim_record), the threads meet in a window only when both get a CPU in it.
N=64000000
LINEUP_SIM_DEBUG=1 SIM_OPTS="$W --sim-count" sim_record_contended "$T/a.data" 20 "$T/fs_adjacent-gcc" $N 2
read -r sum max n <<EOT
$(loads "$T/a.data")
EOT
[ "$max" -gt 1500 ] || fail "sampled: no load sample has a scaled period (largest $max)"
within "$sum" $((2 * N)) 25 || fail "sampled: loads' periods sum to $sum, not about $((2 * N))"
grep -q 'patched sites [1-9]' "$T/record.err" 2>/dev/null &&
	fail "--sim-count: call sites were patched: $(cat "$T/record.err")"
check_a() {
grep -q ' [1-9][0-9]* of them HITM;' "$T/record.err" || fail "(a): record's summary: $(cat "$T/record.err")"
grep -q 'no contention seen' "$T/record.err" && fail "(a): 'no contention': $(cat "$T/record.err")"
c2c_lines "$T/a.data" >"$T/a.lines"
c2c_pareto "$T/a.data" >"$T/a.pareto"
read -r idx addr hitm stores <"$T/a.lines" || fail "(a) sampled: perf c2c shows no shared line"
case $addr in *$(printf '%x' $((0x$sym)) | tail -c 3)) ;;
*) fail "(a) sampled: the hot line $addr is not the global counters ($sym)" ;;
esac
for off in 0x0 0x8; do
	awk -v o=$off -v s="$inc" '$1 == 0 && $5 == o && $6 == s && $2 != "0.00%"' "$T/a.pareto" |
		grep -q . || fail "(a) sampled: no HITM at offset $off from $inc: $(cat "$T/a.pareto")"
done
same_as_perf "$T/a.data"
}
check_a

# The default: between windows the two hook calls of the loop are patched to no-ops (x86-64),
# and the verdict is the same.  The periods between windows are then estimated from CPU time
# and the counting phases: this bare loop's estimate is several times too low (see
# sampling/simrt/simrt.h), so only that they are scaled.
if [ "$(uname -m)" = x86_64 ]; then
	# (Twice as long: patched, the loop runs through N in fewer windows.)
	LINEUP_SIM_DEBUG=1 SIM_OPTS=$W sim_record_contended "$T/a.data" 20 "$T/fs_adjacent-gcc" \
		$((2 * N)) 2
	grep -q 'patched sites [1-9]' "$T/record.err" ||
		fail "patched: no call site was patched: $(cat "$T/record.err")"
	read -r sum max n <<EOT
$(loads "$T/a.data")
EOT
	[ "$max" -gt 1500 ] || fail "patched: no load sample has a scaled period (largest $max)"
	check_a

	# Patching while the threads run never changes what the program computes: windows open
	# and close every 100 us (each time all sites are rewritten, through int3), and the stats
	# workload's sum of its counters is still exact.
	sim_build percpu_stats gcc
	LINEUP_SIM_DEBUG=1 SIM_OPTS="--sim-window 20/100/0" sim_record "$T/d.data" \
		"$T/percpu_stats-gcc" 20000000 2
	grep -qx "ops=40000000" "$T/record.err" ||
		fail "patched 10000 times a second: the counters are wrong: $(cat "$T/record.err")"
	grep -q 'patched sites [1-9]' "$T/record.err" ||
		fail "percpu_stats: no call site was patched: $(cat "$T/record.err")"

	# Patched, the loads between windows are estimated from the counting phase after each
	# window: where the program does more than the bare access, that holds.  The flag
	# workload's load periods, patched, within a factor of 2 of the counted ones (1.05 on a
	# quiet machine; CPU time in short phases is what a loaded one blurs).
	sim_build flag_word gcc
	SIM_OPTS="$W --sim-count" sim_record "$T/gc.data" "$T/flag_word-gcc" 2000000 2
	read -r csum max n <<EOT
$(loads "$T/gc.data")
EOT
	SIM_OPTS=$W sim_record "$T/gp.data" "$T/flag_word-gcc" 2000000 2
	read -r psum max n <<EOT
$(loads "$T/gp.data")
EOT
	[ $((psum * 2)) -ge "$csum" ] && [ "$psum" -le $((csum * 2)) ] ||
		fail "flag_word: patched loads' periods sum to $psum, counted $csum"
fi

# clang makes `x++` one call (__tsan_read_write8, -tsan-compound-read-before-write): a load and
# a store for the model, two accesses for the weights.
if command -v clang >/dev/null; then
	sim_build fs_adjacent clang
	nm "$T/fs_adjacent-clang.o" | grep -q __tsan_read_write8 || fail "clang: no compound hook"
	# (Three times as long: clang's loop is faster, its threads overlap in fewer windows.)
	SIM_OPTS="$W --sim-count" sim_record_contended "$T/ac.data" 20 "$T/fs_adjacent-clang" \
		$((3 * N)) 2
	for ev in loads stores; do
		s=$("$PERF" script -i "$T/ac.data" -F period,event 2>/dev/null |
			awk -v e="mem-$ev" '$0 ~ e { s += $1 } END { print s + 0 }')
		within "$s" $((6 * N)) 25 || fail "clang: $ev' periods sum to $s, not about $((6 * N))"
	done
	c2c_pareto "$T/ac.data" >"$T/ac.pareto"
	for off in 0x0 0x8; do
		awk -v o=$off -v s="$inc" '$1 == 0 && $5 == o && $6 == s && $2 != "0.00%"' \
			"$T/ac.pareto" | grep -q . ||
			fail "clang sampled: no HITM at $off from $inc: $(cat "$T/ac.pareto")"
	done
fi

# (b) sampled: nothing shared.
sim_build fs_padded gcc
SIM_OPTS=$W sim_record "$T/b.data" "$T/fs_padded-gcc" $N 2
# record's closing line counts the samples and the time threads overlapped, and says when no
# load was a HITM although they did (they yield every 500 accesses: they take turns)
grep -q '^\[ lineup record --sim: wrote .* ([0-9]* bytes; [1-9][0-9]* load samples, 0 of them HITM; [1-9][0-9]* store samples); threads ran at the same time for [0-9.]* ms of [0-9.]* ms modeled ([0-9]*%) \]$' \
	"$T/record.err" || fail "(b): record's summary: $(cat "$T/record.err")"
# ... or, when another test held the other CPU and they overlapped under 1% of the time,
# that nothing can be concluded: both are the right word for what happened.  Judged from the
# milliseconds printed, rounded to 0.1 ms: within the rounding of 1% either word is right.
t=$(sed -n 's/^\[ lineup record --sim: .* at the same time for \([0-9.]*\) ms of \([0-9.]*\) ms.*/\1 \2/p' \
	"$T/record.err")
seen=$(echo "$t" | awk '{ print ((($1 + 0.05) * 100 >= $2 - 0.05) ? 1 : 0) }')
never=$(echo "$t" | awk '{ print ((($1 - 0.05) * 100 < $2 + 0.05) ? 1 : 0) }')
if grep -q 'no contention seen: the threads ran at the same time for [0-9.]* ms' \
	"$T/record.err"; then
	[ "$seen" = 1 ] || fail "(b): said they overlapped, $t: $(cat "$T/record.err")"
elif grep -q 'nothing can be concluded: the threads never ran at the same time' \
	"$T/record.err"; then
	[ "$never" = 1 ] || fail "(b): said they never overlapped, $t: $(cat "$T/record.err")"
else
	fail "(b): no word of overlap or of its absence: $(cat "$T/record.err")"
fi
n=$(lineup_stat "$T/b.data" "Total Shared Cache Lines")
[ "$n" = 0 ] || fail "(b) sampled: lineup report finds $n shared lines: $(c2c_lines "$T/b.data")"
[ "$(c2c_stat "$T/b.data" "Load Local HITM")" = 0 ] || fail "(b) sampled: HITMs without sharing"

# (d) sampled: the stats slots' line, HITMs at s->ops.
sim_build percpu_stats gcc
SIM_OPTS=$W sim_record_contended "$T/d.data" 20 "$T/percpu_stats-gcc" \
	32000000 2
ops=$(src_line percpu_stats.c "s->ops++;")
c2c_pareto "$T/d.data" | awk -v s="$ops" '$1 == 0 && $6 == s && $2 != "0.00%"' | grep -q . ||
	fail "(d) sampled: no HITM on s->ops: $(c2c_pareto "$T/d.data")"

# (c) sampled: the struct-file object's refcount and its read-mostly victims beside it.
sim_build struct_file gcc
SIM_OPTS=$W sim_record_contended "$T/c.data" 20 "$T/struct_file-gcc" 1000000 3
c2c_pareto "$T/c.data" >"$T/c.pareto"
for x in "0x38 atomic_fetch_add(&f->f_count, 1);" "0x20 sum += (long)f->f_inode"; do
	awk -v o="${x%% *}" -v s="$(src_line struct_file.c "${x#* }")" '$5 == o && $6 == s && $2 != "0.00%"' \
		"$T/c.pareto" | grep -q . || fail "(c) sampled: no HITM at $x: $(cat "$T/c.pareto")"
done

# (f) sampled: the histogram bins.
sim_build histogram gcc
SIM_OPTS=$W sim_record_contended "$T/f.data" 20 "$T/histogram-gcc" 32000000 2
upd=$(src_line histogram.c "hist[(image[p] * BINS / 256) * nthreads + t]++;")
c2c_pareto "$T/f.data" | awk -v s="$upd" '$6 == s && $2 != "0.00%"' | grep -q . ||
	fail "(f) sampled: no HITM on the bins: $(c2c_pareto "$T/f.data")"

# (e) sampled: all the HITMs on the one counter's offset.
sim_build atomic_counter gcc
SIM_OPTS=$W sim_record_contended "$T/e.data" 20 \
	"$T/atomic_counter-gcc" 1000000 3
offs=$(c2c_pareto "$T/e.data" | awk '$2 != "0.00%" { print $1, $5 }' | sort -u)
[ "$offs" = "0 0x0" ] || fail "(e) sampled: HITMs on more than one offset: $(c2c_pareto "$T/e.data")"

# (g) sampled: every RMW counted (all but the very first found the bit set), at its line.
sim_build flag_word gcc
SIM_OPTS=$W sim_record_contended "$T/g.data" 20 "$T/flag_word-gcc" \
	2000000 3
set_line=$(src_line flag_word.c "atomic_fetch_or(&bh.b_state, BH_Uptodate);")
"$PERF" script -i "$T/g.data" -F event,period,weight,ip,srcline 2>/dev/null |
	awk '/redundant-rmw/ { p = $1; w = $3; getline; gsub(/ /, ""); print p, w, $0 }' >"$T/rmw"
grep -qx "5999999 6000000 $set_line" "$T/rmw" ||
	fail "(g) sampled: expected 5999999 redundant of 6000000 RMWs at $set_line: $(cat "$T/rmw")"
read_line=$(src_line flag_word.c "sum += bh.b_blocknr * bh.b_size;")
c2c_pareto "$T/g.data" | awk -v s="$read_line" '$1 == 0 && $5 == "0x18" && $6 == s && $2 != "0.00%"' |
	grep -q . || fail "(g) sampled: no HITM on the reader at 0x18: $(c2c_pareto "$T/g.data")"

# The runtime's timer thread (it opens and closes the windows) keeps no process alive: main
# ends with pthread_exit after a fork (the child, not recorded, exits 3) and one thread; the
# process ends when that thread does, its loads' periods sum to about the loads it made.
cat >"$T/pe.c" <<'EOF2'
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
volatile long x;
static void *run(void *a)
{
	for (long i = 0; i < 16000000; i++)
		x++;
	return a;
}
int main(void)
{
	pthread_t t;
	int st = 0;
	pid_t p = fork();

	if (!p) {
		for (long i = 0; i < 1000000; i++)
			x++;
		_exit(3);
	}
	waitpid(p, &st, 0);
	printf("child %d\n", WEXITSTATUS(st));
	fflush(stdout);
	pthread_create(&t, 0, run, 0);
	pthread_exit(0);
}
EOF2
# shellcheck disable=SC2046
"$CC" $("$LINEUP" sim-flags --cflags) -O2 -c -o "$T/pe.o" "$T/pe.c" || fail "pe.c: compile"
# shellcheck disable=SC2046
"$CC" -o "$T/pe" "$T/pe.o" $("$LINEUP" sim-flags --libs) || fail "pe: link"
# Patched (the default; the child runs with every site a no-op) and counting.
for patch in 1 0; do
	LINEUP_SIM_PATCH=$patch LINEUP_SIM_OUTPUT="$T/pe.data" LINEUP_SIM_WINDOW=200/1000/0 \
		timeout -s KILL 60 "$T/pe" >"$T/pe.out" ||
		fail "pthread_exit from main: exit status $? (137: the process never ended)"
	grep -qx "child 3" "$T/pe.out" || fail "the forked child: $(cat "$T/pe.out")"
done
read -r sum max n <<EOT
$(loads "$T/pe.data")
EOT
within "$sum" 16000000 25 || fail "pthread_exit from main: loads' periods sum to $sum, not about 16000000"
exit 0
