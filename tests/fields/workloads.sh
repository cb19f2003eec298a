#!/bin/sh
# Field attribution in user space (issue 5's acceptance): each workload of tests/workloads is
# built for the software collector and recorded with `lineup record --sim`; `lineup fields`
# must attribute every sample on the contended objects (globals by their variable, heap
# objects by the allocation log and the variable the allocation is stored to) and give the
# right verdicts: false sharing for (a), (c), (d), (f); true sharing for (e); the read-mostly
# pointers of (c) as victims; nothing contended for (b); test-before-set for (g).
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/sim/sim-lib.sh"
need python3
# Attribution and verdicts on short runs: every access modeled (the sampled default's
# verdicts are tests/sim/sampling.sh's), so that a run the busy machine stretches past the
# exact start is not judged on a window or two.
SIM_OPTS=--sim-exact

# Both compilers where present: their DWARF differs (gcc: aranges, DW_OP_addr; clang 19:
# DWARF 5, no aranges, DW_OP_addrx) and so does the code around the collector's hooks.
compilers=
for cc in gcc clang; do
	command -v "$cc" >/dev/null 2>&1 && compilers="$compilers $cc"
done
[ -n "$compilers" ] || skip "neither gcc nor clang"

record() {	# record NAME THREADS CC
	sim_build "$1" "$3"
	# The verdicts need the threads to have overlapped: re-record (bounded) until the model saw
	# HITMs, except for (b), whose point is that there are none.  (At least 10: threads that
	# never overlapped still leave one or two, at main's own accesses.)
	if [ "$1" = fs_padded ]; then
		sim_record "$T/$1-$3.data" "$T/$1-$3" 40000 "$2"
	else
		sim_record_contended "$T/$1-$3.data" 10 "$T/$1-$3" 40000 "$2"
	fi
	expect_rc 0 "$LINEUP" fields -i "$T/$1-$3.data" --json >"$T/$1-$3.json" 2>"$T/$1.err"
	"$LINEUP" fields -i "$T/$1-$3.data" >"$T/$1-$3.txt" 2>&1 || fail "lineup fields --stdio on $1"
}

for cc in $compilers; do
for w in fs_adjacent:2 fs_padded:2 struct_file:4 percpu_stats:4 atomic_counter:4 \
	 histogram:4 flag_word:4; do
	record "${w%:*}" "${w#*:}" "$cc"
done

python3 - "$T" "$cc" <<'EOF' || fail "$cc: wrong attribution or verdict (outputs above)"
import json, sys
T, CC = sys.argv[1], sys.argv[2]
bad = []

def load(name):
    return json.load(open("%s/%s-%s.json" % (T, name, CC)))

def contended(d):
    return [l for l in d["lines"] if l["verdict"] != "not contended"]

def lines_of(d, typ):
    return [l for l in contended(d) if any(s["type"] == typ for s in l["slots"])]

def check(name, cond, what):
    if not cond:
        bad.append("%s: %s" % (name, what))

def all_attributed(name, d, typ):
    # Every sample on a line holding the object is attributed (no unattributed slot).
    ls = lines_of(d, typ)
    check(name, ls, "no contended line holds %s" % typ)
    for l in ls:
        for s in l["slots"]:
            check(name, s["type"], "unattributed bytes on line %s" % l["addr"])
    check(name, d["attribution"]["hitm"]["share"] >= 0.99,
          "HITM samples attributed: %.3f" % d["attribution"]["hitm"]["share"])

# (a) two threads, adjacent counters of a global struct: false sharing between a and b.
d = load("fs_adjacent")
all_attributed("a", d, "struct counters")
l = lines_of(d, "struct counters")[0]
check("a", l["verdict"] == "false sharing", l["verdict"])
check("a", sorted(s["member"] for s in l["slots"]) == ["a", "b"], l["slots"])

# (b) the same padded apart: no contended line holds the counters.
d = load("fs_padded")
check("b", not lines_of(d, "struct counters"), [l["verdict"] for l in lines_of(d, "struct counters")])

# (c) struct-file-like heap object: false sharing, f_op/f_inode/f_path.dentry are victims.
d = load("struct_file")
all_attributed("c", d, "struct file")
fs = [l for l in lines_of(d, "struct file") if l["verdict"] == "false sharing"]
check("c", fs, "no false-sharing line in struct file")
victims = {s["member"] for l in fs for s in l["slots"] if s["victim"]}
check("c", {"f_op", "f_inode", "f_path.dentry"} <= victims, victims)
written = {s["member"] for l in fs for s in l["slots"] if s["stores"]}
check("c", {"f_count", "f_lock"} <= written, written)
# The instruction's operand (the address handed to the __tsan_* hook) names the type too.
ev = [s for s in d["structs"] if s["type"] == "struct file"][0]["evidence"]
check("c", ev["operand"] > 0 and ev["allocation"] + ev["operand"] > 0, ev)

# (d) per-thread stats array on the heap: false sharing across instances of struct stats.
d = load("percpu_stats")
all_attributed("d", d, "struct stats")
ls = lines_of(d, "struct stats")
check("d", ls and all(l["verdict"] == "false sharing" for l in ls), [l["verdict"] for l in ls])
check("d", any(len({s["instance"] for s in l["slots"]}) >= 2 for l in ls), "one instance per line")

# (e) one atomic counter incremented by every thread: true sharing, per-CPU counter advice.
d = load("atomic_counter")
all_attributed("e", d, "struct io_stats")
l = lines_of(d, "struct io_stats")[0]
check("e", l["verdict"] == "true sharing", l["verdict"])
check("e", [s["member"] for s in l["slots"] if s["stores"]] == ["in_flight"], l["slots"])
check("e", "per-CPU or sharded counter" in l["explanation"], l["explanation"])

# (f) Phoenix-style histogram, per-thread bins packed: false sharing between elements.
d = load("histogram")
all_attributed("f", d, "heap hist")
ls = lines_of(d, "heap hist")
check("f", ls and all(l["verdict"] == "false sharing" for l in ls), [l["verdict"] for l in ls])
check("f", max(l["writer_groups"] for l in ls) >= 2, "one writer group")

# (g) flag word set although set: the redundant RMWs are counted, test-before-set suggested.
d = load("flag_word")
all_attributed("g", d, "struct buffer_head")
l = lines_of(d, "struct buffer_head")[0]
st = [s for s in l["slots"] if s["member"] == "b_state"][0]
check("g", st["redundant_rmw"] > 0 and st["redundant_rmw"] * 10 >= st["rmw"] * 9, st)
check("g", "test before set" in l["explanation"], l["explanation"])
check("g", {"b_blocknr", "b_size"} <= {s["member"] for s in l["slots"] if s["victim"]}, l["slots"])

for b in bad:
    print("FAIL", CC, b)
sys.exit(1 if bad else 0)
EOF
done
exit 0
