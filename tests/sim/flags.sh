#!/bin/sh
# lineup sim-flags, and the instrumentation ABI as gcc and clang emit it: every __tsan_ symbol a
# test program needs is defined by the runtime, the program links without libtsan, and every
# atomic operation (performed by the runtime) gives the right result, single- and
# multi-threaded; the per-IP redundant RMW counts land at the right source line.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sim/sim-lib.sh"
scratch
need perf

# The flags themselves.
out=$("$LINEUP" sim-flags --cc gcc --cflags) || fail "sim-flags --cflags"
case "$out" in
"-specs=/"*"/lineup-sim.specs --param=tsan-instrument-func-entry-exit=0 -Wno-tsan -fno-builtin-memset -fno-builtin-bzero -fno-builtin-memcpy -fno-builtin-memmove -fno-builtin-mempcpy -U_FORTIFY_SOURCE -fno-optimize-sibling-calls -g -fno-omit-frame-pointer") ;;
*) fail "gcc cflags: $out" ;;
esac
out=$("$LINEUP" sim-flags --cc /usr/bin/clang-19 --cflags) || fail "sim-flags --cc clang"
[ "$out" = "-fsanitize=thread -fno-sanitize-link-runtime -fno-sanitize-thread-func-entry-exit -mllvm -tsan-compound-read-before-write -g -fno-omit-frame-pointer" ] ||
	fail "clang cflags: $out"
out=$("$LINEUP" sim-flags --libs) || fail "sim-flags --libs"
case "$out" in
"-Wl,--whole-archive /"*"/liblineup-sim.a -Wl,--no-whole-archive -Wl,--export-dynamic-symbol=__tsan_* -lpthread -latomic") ;;
*) fail "libs: $out" ;;
esac
lib=${out#-Wl,--whole-archive }
lib=${lib%% *}
[ -r "$lib" ] || fail "sim-flags names a runtime that is not there: $lib"
expect_rc 2 "$LINEUP" sim-flags --cc tcc 2>/dev/null
expect_rc 2 "$LINEUP" sim-flags extra 2>/dev/null
LINEUP_SIM_LIB=/nonexistent expect_rc 1 "$LINEUP" sim-flags --libs 2>/dev/null
# An installed tree, wherever it was moved: PREFIX/bin/lineup finds PREFIX/lib.
mkdir -p "$T/prefix/bin" "$T/prefix/lib"
cp "$LINEUP" "$T/prefix/bin/lineup" && cp "$lib" "$T/prefix/lib/" || fail "copy"
out=$("$T/prefix/bin/lineup" sim-flags --libs) || fail "installed sim-flags"
case "$out" in *" $T/prefix/bin/../lib/liblineup-sim.a "*) ;; *) fail "installed libs: $out" ;; esac

# The runtime shows the program only what it links against: the hooks and the calls it
# interposes (operator new and new[] among them).  Its own functions (coherence model, perf.data writer, simrt__) are local, so a
# program with functions of those names links and keeps its own.
extra=$(nm -g --defined-only "$lib" | awk 'NF == 3 { print $3 }' | grep -v -E \
	'^(__tsan_.*|memset|bzero|memcpy|memmove|mempcpy|__mem(set|cpy|move|pcpy)_chk|malloc|calloc|realloc|free|memalign|posix_memalign|aligned_alloc|pthread_(mutex|rwlock|spin)_.*|pthread_sigmask|pthread_attr_setsigmask_np|sigaction|signal|sigprocmask|sigsuspend|ppoll|pselect|epoll_pwait|dlclose|close|close_range|closefrom|dup2|dup3|exit|_exit|_Exit|exec(ve|vpe|v|vp|l|lp|le)|fexecve|_Zn[wa]m.*)$')
[ -z "$extra" ] || fail "the runtime exports its own symbols: $extra"
cat >"$T/names.c" <<'EOF'
#include <stdio.h>
int coherence__step(int x) { return x + 1; }
int perf_writer__open(int x) { return x * 2; }
int simrt__init(int x) { return x - 3; }
volatile int v = 10;
int main(void)
{
	printf("%d %d %d\n", coherence__step(v), perf_writer__open(v), simrt__init(v));
	return 0;
}
EOF
# shellcheck disable=SC2046
"$CC" $("$LINEUP" sim-flags --cflags) -O2 -c -o "$T/names.o" "$T/names.c" &&
	"$CC" -o "$T/names" "$T/names.o" $("$LINEUP" sim-flags --libs) 2>"$T/ld.err" ||
	fail "a program with the runtime's internal names does not link: $(cat "$T/ld.err")"
LINEUP_SIM_OUTPUT="$T/names.data" "$T/names" >"$T/names.out" || fail "names: exit status $?"
grep -qx "11 20 7" "$T/names.out" || fail "names: $(cat "$T/names.out")"
[ -s "$T/names.data" ] || fail "names: no recording"

# lineup record --sim: usage errors, and a program not built for the collector.
expect_rc 2 "$LINEUP" record --sim -o "$T/x.data" 2>/dev/null
expect_rc 1 "$LINEUP" record --sim -o "$T/x.data" -- true 2>"$T/err"
grep -q "sim-flags" "$T/err" || fail "no hint at sim-flags: $(cat "$T/err")"
expect_rc 2 "$LINEUP" record --sim -o "$T/x.data" -- "$T/no-such-program" 2>/dev/null
expect_rc 1 "$LINEUP" record --sim -o - -- true 2>/dev/null

for cc in gcc clang; do
	command -v $cc >/dev/null || continue
	sim_build abi $cc -Wno-atomic-alignment 2>"$T/cc.err" || { cat "$T/cc.err"; fail "$cc build"; }
	# Every hook the compiler emitted is defined by the runtime, and libtsan is not linked.
	nm -u "$T/abi-$cc.o" | awk '$2 ~ /^__tsan_/ { print $2 }' | sort >"$T/needed"
	[ "$(wc -l <"$T/needed")" -ge 20 ] || fail "$cc emitted few __tsan_ calls: $(cat "$T/needed")"
	nm --defined-only "$lib" | awk '$2 == "T" { print $3 }' | sort -u >"$T/defined"
	missing=$(comm -23 "$T/needed" "$T/defined")
	[ -z "$missing" ] || fail "$cc needs hooks the runtime lacks: $missing"
	! ldd "$T/abi-$cc" | grep -q tsan || fail "$cc linked libtsan"
	# Right results, one thread and four.
	for n in 1 4; do
		out=$(LINEUP_SIM_OUTPUT="$T/abi.data" "$T/abi-$cc" 20000 $n 2>&1) ||
			fail "abi-$cc $n threads: $out"
		echo "$out" | grep -qx ok || fail "abi-$cc with $n threads: $out"
	done
	# The fetch_or that always finds its bit set: 4 threads x 20000, all redundant, at its line.
	want=$(src_line abi.c "atomic_fetch_or(&bits, 1);")
	"$PERF" script -i "$T/abi.data" -F event,period,ip,srcline 2>/dev/null |
		awk '/redundant-rmw/ { p = $1; getline; gsub(/ /, ""); print p, $0 }' >"$T/rmw"
	grep -qx "80000 $want" "$T/rmw" || fail "$cc: no 80000 redundant RMWs at $want: $(cat "$T/rmw")"
	# Accesses between __tsan_ignore_thread_begin/end are not recorded (40000 of them would
	# give ~40 samples at the default period).
	ign=$(src_line abi.c "ignored[i & 7]++;")
	"$PERF" script -i "$T/abi.data" -F srcline 2>/dev/null | tr -d ' ' | grep -qx "$ign" &&
		fail "$cc: samples at $ign, inside __tsan_ignore_thread_begin/end"
done

# The period reaches the runtime (-c, as perf record spells it): L1-hit samples carry it.
"$LINEUP" record --sim -c 7 -o "$T/p.data" -- "$T/abi-gcc" 1000 1 >/dev/null 2>&1 ||
	fail "record --sim -c 7"
"$PERF" script -i "$T/p.data" -F event,period 2>/dev/null | awk '/mem-stores/ { print $1 }' |
	sort -u | grep -qx 7 || fail "no store sample with period 7"
exit 0
