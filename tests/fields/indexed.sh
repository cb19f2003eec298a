#!/bin/sh
# Indexed operands, as a PMU samples them (issue 20, item 1): tests/fields/indexed_pair.c built
# with gcc and clang at -O1..-O3, no instrumentation, two threads bumping a calloc'd pair's
# `a` and `b`, then a global pair's.  gcc -O2 stores through (%rdx) and 0x8(%rdx); clang -O2
# folds both into one addq $1,(%rcx,%rsi,1), clang -O1 into one addq $1,(%rdx) whose %rdx is
# &p->a or &p->b by the path: a sample's member then follows from its data address only against
# the object's start.  Where nothing gives that start, `lineup fields` must say so
# (ambiguous_index), never name `a` for both nor invent a second pair; where something does
# (an allocation record, another access with no index, the global's own address), every
# sample is named right.
#
# The samples are the program's real accesses: gdb stops at each store instruction of worker()
# (and at peek()'s load) and prints the address the operand computes from the registers; a
# recording (mkperf) puts a sample at each.  The truth is that address against the pair's.
. "$top_srcdir/tests/lib.sh"
scratch
need python3
need objdump
need nm
need gdb
MKPERF=$top_builddir/tests/tools/mkperf
SRC=$top_srcdir/tests/fields/indexed_pair.c

# accesses P: $P.hits, "IP THREAD ADDR" for each access the program makes (gdb, 20 iterations
# a thread, no ASLR: its PIE sits where mkperf maps it), $P.addr the heap pair's address
accesses() {
	python3 - "$1" <<'PY' || fail "${1##*/}: could not write the gdb script"
import re, subprocess, sys
p = sys.argv[1]
dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", p], capture_output=True,
                     text=True, check=True).stdout
funcs = {m.group(2): (int(m.group(1), 16), m.group(3)) for m in
         re.finditer(r"^([0-9a-f]+) <([^>]+)>:\n((?:\s+[0-9a-f]+:.*\n)+)", dis, re.M)}
MEM = r"(-?0x[0-9a-f]+)?\(%(r[a-z0-9]+)(?:,%(r[a-z0-9]+),(\d))?\)"
out = ["set pagination off", "set confirm off", "set print thread-events off"]
def watch(func, stores):
    start, body = funcs[func]
    for ins in body.splitlines():
        m = re.match(r"\s+([0-9a-f]+):\s+(\S+)\s+(.*)", ins)
        if not m or m.group(2).startswith(("nop", "lea", "cs", "data16")):
            continue
        ops = m.group(3)
        mm = re.search(MEM, ops)
        if not mm or mm.group(2) in ("rsp", "rbp", "rip"):
            continue
        # worker() writes nothing but the pair: its stores (the last operand in memory)
        if stores and not (m.group(2).startswith(("add", "inc", "mov", "sub")) and
                           ops.endswith(")")):
            continue
        ea = "$%s + %d" % (mm.group(2), int(mm.group(1), 16) if mm.group(1) else 0)
        if mm.group(3):
            ea += " + $%s * %s" % (mm.group(3), mm.group(4))
        out.extend(["break *%s+%d" % (func, int(m.group(1), 16) - start), "commands", "silent",
                    'printf "hit %%#lx %%d %%#lx\\n", $pc, $_thread, %s' % ea, "continue",
                    "end"])
watch("worker", True)
watch("peek", False)
out.append("run 20 >%s.addr" % p)
open(p + ".gdb", "w").write("\n".join(out) + "\n")
PY
	gdb -batch -nx -x "$1.gdb" "$1" >"$1.gdbout" 2>&1 || true
	grep '^hit ' "$1.gdbout" | cut -d' ' -f2- >"$1.hits"
	[ -s "$1.hits" ] && [ -s "$1.addr" ] || {
		tail -5 "$1.gdbout"
		skip "gdb cannot trace ${1##*/} here"
	}
}

# scenario P VARIANT: $P.VARIANT.data and $P.VARIANT.want (the samples of a and of b);
# VARIANT: plain (the heap pair's stores alone), alloc (with its allocation record), peek
# (with peek()'s unindexed load of its a), global (the global pair's stores)
scenario() {
	python3 - "$1" "$2" <<'PY' || fail "${1##*/}: could not write the $2 scenario"
import subprocess, sys
p, variant = sys.argv[1], sys.argv[2]
heap = int(open(p + ".addr").read().split()[0], 16)
nm = subprocess.run(["nm", p], capture_output=True, text=True, check=True).stdout
g = 0x555555554000 + [int(l.split()[0], 16) for l in nm.splitlines() if l.split()[-1] == "g"][0]
obj = g if variant == "global" else heap
syms = {int(l.split()[0], 16): l.split()[2] for l in nm.splitlines()
        if len(l.split()) == 3 and l.split()[1] in "tT"}
def where(ip):
    s = max(a for a in syms if a <= ip - 0x555555554000)
    return syms[s], ip - 0x555555554000 - s
out = ["event load", "event store"]
if variant == "alloc":
    out.append("event lineup-sim/alloc/")
out += ["comm 100 100 pair", "mmap 100 auto %s" % p, "anon 100 %#x 0x21000" % (heap & ~0xfff)]
if variant == "alloc":
    out.append("sample lineup-sim/alloc/ tid=100 cpu=0 addr=%#x period=16" % heap)
want = {"a": 0, "b": 0}
tids = set()
for line in open(p + ".hits"):
    ip, thread, addr = (int(x, 0) for x in line.split())
    func, off = where(ip)
    if addr - obj not in (0, 8) or (func == "peek" and (variant != "peek" or addr != heap)):
        continue
    if thread not in tids:
        tids.add(thread)
        out.insert(out.index("mmap 100 auto %s" % p), "fork 100 100 %d 100" % (100 + thread))
    ev = "load" if func == "peek" else "store"
    out.append("sample %s tid=%d cpu=%d ip=%s+%#x addr=%#x src=%s" %
               (ev, 100 + thread, thread % 2, func, off, addr,
                "L1" if ev == "load" else "ST_L1MISS"))
    want["a" if addr == obj else "b"] += 1
assert want["a"] and want["b"], "no access to the pair's a and b: %s" % want
open("%s.%s.s" % (p, variant), "w").write("\n".join(out) + "\n")
open("%s.%s.want" % (p, variant), "w").write("%d %d\n" % (want["a"], want["b"]))
PY
	"$MKPERF" -o "$1.$2.data" "$1.$2.s" || fail "${1##*/}: mkperf ($2)"
}

# check P VARIANT MODE: MODE right (every sample named right) or open (right, or said to be
# ambiguous); in both, one instance of the pair
check() {
	"$LINEUP" fields -i "$1.$2.data" --json >"$1.$2.json" 2>"$T/err"
	[ -s "$1.$2.json" ] || fail "${1##*/} $2: lineup fields: $(cat "$T/err")"
	python3 - "$1.$2.json" "$1.$2.want" "$3" <<'PY' || fail "${1##*/} $2: wrong attribution"
import json, sys
d = json.load(open(sys.argv[1]))
wa, wb = map(int, open(sys.argv[2]).read().split())
mode = sys.argv[3]
got = {"a": 0, "b": 0}
for s in d["structs"]:
    assert s["type"] == "struct pair", "a sample named in %s" % s["type"]
    assert len(s["hottest_instances"]) == 1, "a phantom pair: %s" % s["hottest_instances"]
    for m in s["members"]:
        got[m["member"]] = m["loads"] + m["stores"]
unres = d["attribution"]["all"]["unresolved"]
print("want a=%d b=%d, got a=%d b=%d, unresolved %s" % (wa, wb, got["a"], got["b"], unres))
if mode == "right":
    assert (got["a"], got["b"]) == (wa, wb) and not unres
else:
    assert got["a"] <= wa and got["b"] <= wb, "a sample named the wrong member"
    assert set(unres) <= {"ambiguous_index"}, unres
    assert got["a"] + got["b"] + sum(unres.values()) == wa + wb
PY
}

built=0
for cc in gcc clang; do
	command -v $cc >/dev/null 2>&1 || continue
	for o in 1 2 3; do
		p=$T/pair-$cc-O$o
		$cc -O$o -g -pthread -o "$p" "$SRC" || fail "$cc -O$o does not build indexed_pair.c"
		accesses "$p"
		for v in plain alloc peek global; do
			scenario "$p" $v
		done
		check "$p" plain open
		check "$p" alloc right
		check "$p" peek right
		check "$p" global right
		built=$((built + 1))
	done
done
[ $built -gt 0 ] || skip "neither gcc nor clang"
exit 0
