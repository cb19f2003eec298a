#!/bin/sh
# lineup fields on bad input: missing or corrupt recordings, objects without debug info or not
# ELF at all, a wrong --struct (with the closest names), malformed options, a recording with
# no data address, a module whose .ko is nowhere: a clear message, the documented exit code,
# never a crash.
. "$top_srcdir/tests/lib.sh"
scratch
F="$FIXTURES"
MKKERN="$top_builddir/tests/fields/mkkern"

# A tiny recording: one module sample whose .ko does not exist, one user sample.
cat >"$T/scenario" <<'SCEN'
kernel 0xffffffff81000000 0x1000000
module 0xffffffffc0a00000 0x10000 /nonexistent/lineup_touch.ko
load 0xffffffffc0a00005 0xffff888104e3a438 1 1001 0x010605800842 200
load 0xffffffffc0a00005 0xffff888104e3a438 2 1002 0x010605800842 200
SCEN
"$MKKERN" "$T/mod.data" <"$T/scenario" || fail "mkkern"

expect_rc 2 "$LINEUP" fields -i "$T/nonexistent.data" 2>"$T/err"
grep -q "nonexistent.data" "$T/err" || fail "missing file not named: $(cat "$T/err")"

if [ -f "$F/perf.data.piped.corrupted.zero_size_sample-3.2" ]; then
	expect_rc 2 "$LINEUP" fields -i "$F/perf.data.piped.corrupted.zero_size_sample-3.2" \
		2>"$T/err"
	grep -q "at byte [0-9]" "$T/err" || fail "corrupt file: no byte offset: $(cat "$T/err")"
fi
head -c 100 /dev/urandom >"$T/garbage"
must_fail "$LINEUP" fields -i "$T/garbage" 2>/dev/null

# No data address in the recording: nothing to say.
if [ -f "$F/perf.data.callgraph-3.8" ]; then
	expect_rc 1 "$LINEUP" fields -i "$F/perf.data.callgraph-3.8" 2>"$T/err"
	grep -q "no sample carries a data address" "$T/err" || fail "no-address message: $(cat "$T/err")"
fi

# Debug files: missing, not ELF, no DWARF.
expect_rc 2 "$LINEUP" fields -i "$T/mod.data" --debug-file "$T/none.ko" 2>"$T/err"
grep -q "none.ko" "$T/err" || fail "missing --debug-file not named"
echo "not an object" >"$T/text.ko"
expect_rc 2 "$LINEUP" fields -i "$T/mod.data" --debug-file "$T/text.ko" 2>"$T/err"
grep -q "not an ELF file" "$T/err" || fail "non-ELF debug file: $(cat "$T/err")"
printf 'int main(void) { return 0; }\n' >"$T/p.c"
if ${CC:-cc} -g0 -o "$T/nodebug" "$T/p.c" 2>/dev/null; then
	strip "$T/nodebug" 2>/dev/null
	expect_rc 2 "$LINEUP" fields -i "$T/mod.data" --debug-file "$T/nodebug" 2>"$T/err"
	grep -qi "no DWARF\|no debug" "$T/err" || fail "no debug info not said: $(cat "$T/err")"
fi

# A module without symbols: said once, the samples unresolved with the reason, exit 1.
expect_rc 1 "$LINEUP" fields -i "$T/mod.data" >"$T/out" 2>"$T/err"
grep -q "lineup_touch\]: a module without symbols here: pass its .ko with --debug-file" \
	"$T/err" || fail "module without symbols: $(cat "$T/err")"
[ "$(grep -c 'module without symbols' "$T/err")" -eq 1 ] || fail "the warning is not given once"
grep -q "unresolved 100.0% (2): object at the IP not found or without symbols" "$T/out" ||
	fail "unresolved reason missing: $(cat "$T/out")"

# A program built without debug info (-g0) but with the collector: the reason is said.
. "$top_srcdir/tests/sim/sim-lib.sh"
if command -v gcc >/dev/null 2>&1; then
	sim_build fs_adjacent gcc -g0
	sim_record "$T/nodbg.data" "$T/fs_adjacent-gcc" 20000 2
	expect_rc 1 "$LINEUP" fields -i "$T/nodbg.data" >"$T/out" 2>"$T/err"
	grep -q "HITM samples: [0-9]*, attributed 0 (0.0%)" "$T/out" || fail "-g0: $(head -3 "$T/out")"
	grep -q "unresolved 100.0% ([0-9]*): no debug info" "$T/out" ||
		fail "-g0: no 'no debug info' reason: $(head -5 "$T/out")"
fi

# Options.
expect_rc 2 "$LINEUP" fields -i "$T/mod.data" --type 'struct file' 2>"$T/err"
grep -q "'struct T'@ADDR" "$T/err" || fail "bad --type: $(cat "$T/err")"
expect_rc 2 "$LINEUP" fields -i "$T/mod.data" --type 'struct file@0xzz' 2>/dev/null
# A well-formed hint whose type nothing defines: said, exit 2 (was accepted with exit 0).
expect_rc 2 "$LINEUP" fields -i "$T/mod.data" --type 'struct nosuch'@0x1 2>"$T/err"
grep -q "unknown type 'struct nosuch'" "$T/err" || fail "unknown --type type: $(cat "$T/err")"
expect_rc 2 "$LINEUP" fields -i "$T/mod.data" --cache-type filp 2>/dev/null
expect_rc 2 "$LINEUP" fields -i "$T/mod.data" --line-size 48 2>/dev/null
expect_rc 2 "$LINEUP" fields -i "$T/mod.data" extra-argument 2>/dev/null

# A wrong --struct: the closest names from the debug info at hand.
printf 'struct counters { long a, b; };\nstruct counters counters;\nint main(void) { return 0; }\n' \
	>"$T/q.c"
if ${CC:-cc} -g -c -o "$T/q.o" "$T/q.c" 2>/dev/null; then
	expect_rc 1 "$LINEUP" fields -i "$T/mod.data" --debug-file "$T/q.o" --struct countres \
		2>"$T/err"
	grep -q "no struct named 'countres'.*closest: counters" "$T/err" ||
		fail "wrong --struct: $(cat "$T/err")"
fi
exit 0
