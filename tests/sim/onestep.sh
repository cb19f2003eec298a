#!/bin/sh
# `cc prog.c $(lineup sim-flags)`: the flags in one step, as build systems pass CFLAGS at the
# link too, build a program that records (with gcc the instrumentation reaches the compiler
# through lineup-sim.specs, so the driver adds no libtsan; clang: -fno-sanitize-link-runtime);
# --cflags pasted into a link does not bring libtsan either.  A program linked with libtsan
# (-fsanitize=thread at its link) is named as such before it runs, exit 2.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sim/sim-lib.sh"
scratch
export LINEUP_SIM_TURNS=100

for cc in gcc clang g++; do
	command -v $cc >/dev/null || continue
	src="$WL/fs_adjacent.c"
	# (C++ from the same file: it is C that C++ compiles)
	[ $cc = g++ ] && { cp "$src" "$T/fs.cc"; cp "$WL/counters.h" "$WL/workload.h" "$T/"; src="$T/fs.cc"; }
	# shellcheck disable=SC2046
	$cc -O2 -I"$WL" -o "$T/one-$cc" "$src" $("$LINEUP" sim-flags --cc $cc) 2>"$T/cc.err" ||
		fail "$cc: one-step build: $(cat "$T/cc.err")"
	! ldd "$T/one-$cc" | grep -q tsan || fail "$cc: the one-step build linked libtsan"
	"$LINEUP" record --sim -o "$T/one.data" -- "$T/one-$cc" 20000 >/dev/null 2>"$T/err" ||
		fail "$cc: record of the one-step build: $(cat "$T/err")"
	grep -q 'wrote .*[1-9][0-9]* load samples' "$T/err" || fail "$cc: nothing recorded: $(cat "$T/err")"
	# --cflags and --libs both at the link (a two-step build with CFLAGS in LDFLAGS too)
	# shellcheck disable=SC2046
	$cc $("$LINEUP" sim-flags --cc $cc --cflags) -O2 -I"$WL" -c -o "$T/two.o" "$src" &&
		$cc $("$LINEUP" sim-flags --cc $cc --cflags) -o "$T/two-$cc" "$T/two.o" \
			$("$LINEUP" sim-flags --cc $cc --libs) || fail "$cc: two-step build"
	! ldd "$T/two-$cc" | grep -q tsan || fail "$cc: --cflags at the link brought libtsan in"
done

# A program linked with libtsan the usual way: said exactly, before it runs.
if gcc -fsanitize=thread -O2 -I"$WL" -o "$T/tsan" "$WL/fs_adjacent.c" 2>/dev/null &&
	ldd "$T/tsan" | grep -q libtsan; then
	expect_rc 2 "$LINEUP" record --sim -o "$T/t.data" -- "$T/tsan" 20000 >"$T/out" 2>"$T/err"
	grep -q "tsan is linked with libtsan.so" "$T/err" || fail "libtsan not named: $(cat "$T/err")"
	grep -q "sim-flags" "$T/err" || fail "no hint at sim-flags: $(cat "$T/err")"
	[ ! -s "$T/out" ] || fail "the libtsan program ran"
	# through $PATH too
	PATH="$T:$PATH" expect_rc 2 "$LINEUP" record --sim -o "$T/t.data" -- tsan 20000 \
		>/dev/null 2>"$T/err"
	grep -q "$T/tsan is linked with libtsan" "$T/err" || fail "via PATH: $(cat "$T/err")"
fi

# sim-flags without an option: one line (it works in any step), both sets.
[ "$("$LINEUP" sim-flags | wc -l)" = 1 ] || fail "sim-flags prints more than a line"
exit 0
