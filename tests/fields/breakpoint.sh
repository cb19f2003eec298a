#!/bin/sh
# Hardware-breakpoint recordings (issue 20, item 2): perf record -e mem:ADDR/8:rw on the
# members of tests/fields/bp_stats.c's global struct (its address from nm) and of its struct
# at a fixed address, written by two threads, with and without -d.  An x86 data breakpoint
# traps after the access: the sample's IP is the next instruction's, and without -d the
# sample has no data address (the breakpoint's is in the attr) and the recording no data
# mapping.  `lineup fields` must tie the samples to the right members (95% or more) and name
# the accessing instruction as their code; the fixed struct is reached through a pointer, so
# only that instruction's operand can type it.
. "$top_srcdir/tests/lib.sh"
scratch
need python3
need objdump
need nm
[ -n "${PERF:-}" ] && [ -x "$PERF" ] || skip "perf is not installed"
SRC=$top_srcdir/tests/fields/bp_stats.c
FIXED=0x10000000

# check P DATA: the samples on the members their breakpoints watch, at the store instructions
check() {
	"$LINEUP" fields -i "$2" --json >"$2.json" 2>"$T/err" ||
		fail "${2##*/}: lineup fields: $(cat "$T/err")"
	"$PERF" script -i "$2" -F event 2>/dev/null | sort | uniq -c >"$2.events"
	objdump -d --no-show-raw-insn "$1" >"$1.dis" || fail "objdump ${1##*/}"
	python3 - "$2.json" "$2.events" "$1.dis" "$(nm "$1" | awk '$3 == "gstats" { print $1 }')" \
		"$FIXED" <<'PY' || fail "${2##*/}: breakpoint samples not on their members"
import json, re, sys
d = json.load(open(sys.argv[1]))
g, fixed = int(sys.argv[4], 16), int(sys.argv[5], 16)
want = {"hits": 0, "misses": 0}
for line in open(sys.argv[2]):
    n, ev = line.split()
    addr = int(re.match(r"mem:(0x[0-9a-f]+)", ev).group(1), 16)
    want[{g: "hits", g + 8: "misses", fixed: "hits", fixed + 8: "misses"}[addr]] += int(n)
total = d["samples"]
got = {}
code = {}
for s in d["structs"]:
    for m in s["members"]:
        if m["loads"] + m["stores"]:
            got[(s["type"], m["member"])] = m["loads"] + m["stores"]
            code[m["member"]] = m["code"]
right = sum(min(got.get(("struct stats", m), 0), n) for m, n in want.items())
print("samples %d, right %d (%.1f%%): want %s, got %s" % (total, right, 100.0 * right / total,
                                                         want, got))
assert right >= 0.95 * total, "only %.1f%% on the right members" % (100.0 * right / total)
# each member's code: the stores in the thread that bumps it, not the instructions after
dis = open(sys.argv[3]).read()
for func, member in (("hitter", "hits"), ("misser", "misses")):
    body = re.search(r"^([0-9a-f]+) <%s>:\n((?:\s+[0-9a-f]+:.*\n)+)" % func, dis, re.M)
    start = int(body.group(1), 16)
    stores = ["%s+%#x" % (func, int(m.group(1), 16) - start) for m in
              re.finditer(r"^\s+([0-9a-f]+):\s+add\S*\s+\$0x1,.*\)", body.group(2), re.M)]
    assert stores and all(st in code[member] for st in stores), (member, stores, code[member])
PY
}

built=0
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || continue
	p=$T/bp-$cc
	$cc -O2 -g -no-pie -pthread -o "$p" "$SRC" || fail "$cc does not build bp_stats.c"
	g=$(nm "$p" | awk '$3 == "gstats" { print $1 }')
	[ -n "$g" ] || fail "no gstats in ${p##*/}"
	set --
	for a in $((0x$g)) $((0x$g + 8)) $((FIXED)) $((FIXED + 8)); do
		set -- "$@" -e "mem:$(printf '%#x' "$a")/8:rw"
	done
	for d in "" -d; do
		out=$p$d.data
		# shellcheck disable=SC2086
		"$PERF" record -q $d -o "$out" "$@" -- "$p" 20000 >"$T/rec.out" 2>&1 ||
			{ cat "$T/rec.out"; skip "perf record of mem: breakpoints fails here"; }
		[ "$("$PERF" script -i "$out" -F ip 2>/dev/null | wc -l)" -ge 80000 ] ||
			skip "perf recorded too few breakpoint hits (no fixed mapping at $FIXED?)"
		check "$p" "$out"
	done
	built=$((built + 1))
done
[ $built -gt 0 ] || skip "neither gcc nor clang"
exit 0
