#!/bin/sh
# Anonymous structs named by their typedef (issue 16): `typedef struct { ... } lreg_args;`, as
# Phoenix and many C libraries write them.  tests/fields/lreg.c keeps per-thread sums in a heap
# array of them (one 56-byte element per thread: false sharing).  Built with gcc and clang at
# -O0 and -O2 for the software collector: `lineup fields` and `report --fields` name the type
# lreg_args and its members (not "heap args" and <unattributed +0x28>, nor "allocation of
# unknown type" at -O0, where the result of calloc is spilled to the stack first), with the
# verdict false sharing; `layout -C lreg_args` prints what `pahole -C lreg_args` prints.
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/sim/sim-lib.sh"
need python3
[ -n "${PERF:-}" ] || skip "perf is not installed (the contention check counts its HITMs)"
compilers=
for cc in gcc clang; do
	command -v "$cc" >/dev/null 2>&1 && compilers="$compilers $cc"
done
[ -n "$compilers" ] || skip "neither gcc nor clang"

for cc in $compilers; do
	cflags=$("$LINEUP" sim-flags --cc "$cc" --cflags) || fail "sim-flags --cflags"
	libs=$("$LINEUP" sim-flags --cc "$cc" --libs) || fail "sim-flags --libs"
	for o in 0 2; do
		p=$T/lreg-$cc-O$o
		# shellcheck disable=SC2086
		"$cc" $cflags -O$o -c -o "$p.o" "$top_srcdir/tests/fields/lreg.c" &&
			"$cc" -o "$p" "$p.o" $libs || fail "$cc -O$o does not build lreg.c"
		if [ -n "${PAHOLE:-}" ]; then
			"$PAHOLE" -C lreg_args "$p" >"$T/pahole.txt" 2>/dev/null
			"$LINEUP" layout -C lreg_args "$p" >"$T/lineup.txt" ||
				fail "$cc -O$o: lineup layout -C lreg_args: exit $?"
			grep -q '^typedef struct {' "$T/lineup.txt" || fail "$(cat "$T/lineup.txt")"
			pahole_diff "$T/pahole.txt" "$T/lineup.txt" ||
				fail "$cc -O$o: layout -C lreg_args differs from pahole"
		fi
		sim_record_contended "$p.data" 10 "$p" 40000 2
		"$LINEUP" fields -i "$p.data" --json >"$p.json" 2>"$T/err" ||
			fail "$cc -O$o: lineup fields: $(cat "$T/err")"
		"$LINEUP" fields -i "$p.data" >"$p.txt" 2>&1 || fail "$cc -O$o: lineup fields"
		python3 - "$p.json" <<'PY' || { cat "$p.txt"; fail "$cc -O$o: lreg_args not named"; }
import json, sys
d = json.load(open(sys.argv[1]))
s = [s for s in d["structs"] if s["type"] == "lreg_args"]
assert s, [x["type"] for x in d["structs"]]
assert {"SX", "SY", "SXX", "SYY", "SXY"} <= {m["member"] for m in s[0]["members"]}, s[0]
assert d["attribution"]["hitm"]["share"] >= 0.99, d["attribution"]
ls = [l for l in d["lines"] if l["verdict"] != "not contended"]
assert ls and ls[0]["verdict"] == "false sharing", [l["verdict"] for l in ls]
assert all(x["type"] == "lreg_args" for x in ls[0]["slots"]), ls[0]["slots"]
PY
		! grep -q 'unattributed\|allocation of unknown type' "$p.txt" ||
			fail "$cc -O$o: $(grep 'unattributed\|unknown type' "$p.txt" | head -3)"
		"$LINEUP" report --fields --stdio -i "$p.data" >"$T/report" 2>&1 ||
			fail "$cc -O$o: report --fields: $(tail -3 "$T/report")"
		grep -q ' lreg_args  *SX ' "$T/report" ||
			fail "$cc -O$o: report --fields does not name lreg_args.SX: $(grep -m3 0x "$T/report")"
	done
done
