#!/bin/sh
# Same-named statics (issue 20, item 3): tests/fields/statics_net.c and statics_disk.c each
# have a `static struct ... stats` of a type of their own, statics_main.c's lock_note() and
# queue_note() each a function-scope `static struct ... s`; two threads bump one member of
# each.  Built with gcc and clang at -O0 and -O2 for the software collector and recorded, every
# sample must be named with its own variable's type and member: looked up by the name alone,
# both `stats` took the first one's type, and a function's static (gcc's s.0, clang's
# lock_note.s) was found by no name at all.  clang -O2 also splits each static struct into a
# global per member (stats.0, stats.1: DWARF pieces).
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/sim/sim-lib.sh"
need python3
D=$top_srcdir/tests/fields

# check P: the four statics' samples named with their types and members, no other type
check() {
	"$LINEUP" fields -i "$1.data" --json >"$1.json" 2>"$T/err" ||
		fail "${1##*/}: lineup fields: $(cat "$T/err")"
	python3 - "$1.json" <<'PY' || fail "${1##*/}: statics not named by their own types"
import json, sys
d = json.load(open(sys.argv[1]))
want = {"struct net_stats": {"rx", "tx"}, "struct disk_stats": {"reads", "writes"},
        "struct lock_stats": {"acquired", "contended"},
        "struct queue_stats": {"pushed", "popped"}}
got = {}
for s in d["structs"]:
    got[s["type"]] = {m["member"] for m in s["members"] if m["loads"] + m["stores"]}
print("got %s; unresolved %s" % (got, d["attribution"]["all"]["unresolved"]))
for t, members in want.items():
    assert got.get(t) == members, (t, got.get(t), members)
# (the loop's bound, read on one of those lines, is the only other variable)
extra = set(got) - set(want) - {"var iterations"}
assert not extra, "samples named in other types: %s" % extra
# (the runtime's own, the thread library's: a sample or two outside the program's variables)
unres = sum(d["attribution"]["all"]["unresolved"].values())
assert unres <= d["samples"] / 100, d["attribution"]["all"]["unresolved"]
PY
}

built=0
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || continue
	cflags=$("$LINEUP" sim-flags --cc $cc --cflags) && libs=$("$LINEUP" sim-flags --cc $cc --libs) ||
		fail "sim-flags --cc $cc"
	for o in 0 2; do
		p=$T/statics-$cc-O$o
		for f in main net disk; do
			# shellcheck disable=SC2086
			$cc $cflags -O$o -c -o "$p-$f.o" "$D/statics_$f.c" ||
				fail "$cc -O$o does not build statics_$f.c"
		done
		# shellcheck disable=SC2086
		$cc -o "$p" "$p-main.o" "$p-net.o" "$p-disk.o" $libs || fail "$cc -O$o: link"
		sim_record "$p.data" "$p" 20000
		check "$p"
		built=$((built + 1))
	done
done
[ $built -gt 0 ] || skip "neither gcc nor clang"
exit 0
