#!/bin/sh
# Heap blocks typed by their accesses (issue 16, item 3): a block whose allocation says nothing
# of its type -- malloc into a void * (tests/realprog/voidp_stats.c), placement new into raw
# memory (tests/realprog/spinlock_pool.cc) -- is typed by the operand types of the accesses
# to it and its elements named by index: `stats[1].bytes`, `arena[0].locked`, not
# <unattributed +0x28>.  Built with gcc and clang (g++, clang++) at -O0 and -O2 for the
# software collector (clang++ -O2 keeps no location for the slot pointer: the inlined
# methods' `this` types it); only the typing is checked here (the verdicts: tests/realprog).
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/sim/sim-lib.sh"
need python3
RP=$top_srcdir/tests/realprog

# check NAME TYPE VAR MEMBER...: fields --json names TYPE with MEMBERs, instances VAR[0] and
# VAR[1], and line slots as VAR[N].MEMBER
check() {
	p=$1
	shift
	"$LINEUP" fields -i "$p.data" --json >"$p.json" 2>"$T/err" ||
		fail "${p##*/}: lineup fields: $(cat "$T/err")"
	"$LINEUP" fields -i "$p.data" >"$p.txt" 2>&1 || fail "${p##*/}: lineup fields (stdio)"
	python3 - "$p.json" "$@" <<'PY' || { head -40 "$p.txt"; fail "${p##*/}: $1 not typed by its accesses"; }
import json, sys
d = json.load(open(sys.argv[1]))
typ, var, members = sys.argv[2], sys.argv[3], set(sys.argv[4:])
s = [s for s in d["structs"] if s["type"] == typ]
assert s, [x["type"] for x in d["structs"]]
got = {m["member"] for m in s[0]["members"] if m["loads"] + m["stores"]}
assert members <= got, (members, got)
names = {i["element"] for i in s[0]["hottest_instances"]}
assert {var + "[0]", var + "[1]"} <= names, names
PY
	if grep -q '^line ' "$p.txt"; then
		grep -q "^    $2\[[0-9]*\]\.[a-z]* @0x[0-9a-f]* ($1)" "$p.txt" ||
			fail "${p##*/}: no $2[N].member slot: $(grep -A4 '^line ' "$p.txt" | head -8)"
	fi
	! grep -q 'unattributed' "$p.txt" ||
		fail "${p##*/}: $(grep unattributed "$p.txt" | head -3)"
}

built=0
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || continue
	cxx=g++
	[ $cc = clang ] && cxx=clang++
	for o in 0 2; do
		p=$T/voidp-$cc-O$o
		cflags=$("$LINEUP" sim-flags --cc $cc --cflags) && libs=$("$LINEUP" sim-flags --cc $cc --libs) ||
			fail "sim-flags --cc $cc"
		# shellcheck disable=SC2086
		$cc $cflags -O$o -c -o "$p.o" "$RP/voidp_stats.c" && $cc -o "$p" "$p.o" $libs ||
			fail "$cc -O$o does not build voidp_stats.c"
		sim_record "$p.data" "$p" 2 20000
		check "$p" "struct wstat" stats words bytes
		built=$((built + 1))
		command -v $cxx >/dev/null 2>&1 || continue
		p=$T/pool-$cxx-O$o
		cflags=$("$LINEUP" sim-flags --cc $cxx --cflags) && libs=$("$LINEUP" sim-flags --cc $cxx --libs) ||
			fail "sim-flags --cc $cxx"
		# shellcheck disable=SC2086
		$cxx $cflags -O$o -c -o "$p.o" "$RP/spinlock_pool.cc" && $cxx -o "$p" "$p.o" $libs ||
			fail "$cxx -O$o does not build spinlock_pool.cc"
		sim_record "$p.data" "$p" 2 20000
		check "$p" "struct Slot" arena locked count
	done
done
[ $built -gt 0 ] || skip "neither gcc nor clang"
