#!/bin/sh
# lineup suggest, the whole loop on the bundled workloads (issue 12's acceptance): record with
# the software collector, suggest with --patch and --verify, `git apply` the patch in a copy of
# the sources, rebuild, record again: the false-sharing workloads' contended lines are gone
# (HITMs on the struct at most 5% of before, and lineup diff of the two recordings says so);
# true sharing is left with the per-CPU advice; a
# padded struct is "nothing to do"; the ring's head and tail go to different lines and its
# read-only mask to neither.
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/sim/sim-lib.sh"
need python3
need git

# A copy of the workloads in a git tree: what a user's checkout is.
mkdir "$T/src"
cp "$top_srcdir"/tests/workloads/*.[ch] "$T/src/"
git -C "$T/src" init -q && git -C "$T/src" add . &&
	git -C "$T/src" -c user.name=t -c user.email=t@t commit -qm base || fail "git init"
WL=$T/src

hitm_of() {	# hitm_of DATA TYPE [MEMBER_RE]: HITM samples on TYPE's members (matching MEMBER_RE)
	"$LINEUP" fields -i "$1" --json >"$T/f.json" 2>/dev/null || fail "lineup fields -i $1"
	python3 - "$T/f.json" "$2" "${3:-.}" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
print(sum(s["hitm"] for l in d["lines"] for s in l["slots"]
          if s["type"] == sys.argv[2] and re.search(sys.argv[3], s["member"] or "")))
PY
}

# loop NAME THREADS TYPE [MEMBER_RE]: the whole loop; leaves $T/NAME.json (suggest's answer).
# The HITMs that must go: on every member, or on those MEMBER_RE matches (the false sharing,
# where a truly shared member keeps its own).
loop() {
	local name=$1 threads=$2 type=$3 re=${4:-.} before after
	sim_build "$name" gcc
	sim_record_contended "$T/$name.data" 10 "$T/$name-gcc" 40000 "$threads"
	before=$(hitm_of "$T/$name.data" "$type" "$re")
	(cd "$T/src" && "$LINEUP" suggest -i "$T/$name.data" -C "$type" --patch "$T/$name.diff" \
		--source-root "$T/src" --verify --json >"$T/$name.json" 2>"$T/$name.err") ||
		{ cat "$T/$name.err" "$T/$name.json" >&2; fail "$name: suggest --patch --verify"; }
	# lineup verify: the patch under review is the suggestion, and compiles as predicted;
	# one changed line is the first difference, exit 1
	(cd "$T/src" && "$LINEUP" verify -i "$T/$name.data" -C "$type" --source-root "$T/src" \
		"$T/$name.diff" >"$T/$name.verify" 2>&1) ||
		{ cat "$T/$name.verify"; fail "$name: lineup verify of suggest's own patch"; }
	grep -q '^verify: ok' "$T/$name.verify" || { cat "$T/$name.verify"; fail "$name: verify"; }
	sed '0,/^+\t/s/^+\t/+ \t/' "$T/$name.diff" >"$T/$name.bad"
	(cd "$T/src" && "$LINEUP" verify -i "$T/$name.data" -C "$type" --source-root "$T/src" \
		"$T/$name.bad" >/dev/null 2>"$T/$name.bad.err")
	[ $? -eq 1 ] && grep -q "differs from the patch lineup suggests" "$T/$name.bad.err" ||
		{ cat "$T/$name.bad.err"; fail "$name: verify of a changed patch"; }
	git -C "$T/src" apply --check "$T/$name.diff" ||
		{ cat "$T/$name.diff" >&2; fail "$name: git apply --check refuses the patch"; }
	(cd "$T/src" && patch --dry-run -s -p1 <"$T/$name.diff") >/dev/null ||
		fail "$name: patch --dry-run -p1 refuses the patch"
	git -C "$T/src" apply "$T/$name.diff" || fail "$name: git apply"
	# the patched build beside the first (whose recording names it by path and build-id)
	mv "$T/$name-gcc" "$T/$name-orig"
	sim_build "$name" gcc
	mv "$T/$name-gcc" "$T/$name-patched"
	mv "$T/$name-orig" "$T/$name-gcc"
	sim_record "$T/$name-after.data" "$T/$name-patched" 40000 "$threads"
	after=$(hitm_of "$T/$name-after.data" "$type" "$re")
	echo "$name: $type HITMs $before before, $after after the patch"
	if [ $((after * 20)) -gt "$before" ]; then	# what went wrong, for the log
		cat "$T/$name.json" "$T/$name.diff"
		"$LINEUP" fields -i "$T/$name-after.data" | head -40
	fi
	[ "$before" -ge 10 ] || fail "$name: only $before HITMs before"
	[ $((after * 20)) -le "$before" ] ||
		fail "$name: $after HITMs after the patch, more than 5% of $before"
	# lineup diff of the two recordings says the same, per access, with every address moved
	"$LINEUP" diff --json "$T/$name.data" "$T/$name-after.data" >"$T/$name.dj" ||
		fail "$name: lineup diff exits $?"
	python3 - "$T/$name.dj" "$type" "$re" <<'PY' || { cat "$T/$name.dj"; fail "$name: diff"; }
import json, re, sys
j = json.load(open(sys.argv[1]))
s = [s for s in j["structs"] if s["name"] == sys.argv[2]][0]
assert s["layout_changed"], s["name"]
ms = [m for m in s["members"] if re.search(sys.argv[3], m["member"])]
before = sum(m["hitm_before"] for m in ms)
after = sum(m["hitm_after"] for m in ms) * j["scale"]
assert before >= 10 and after <= max(1, before / 20), (before, after)
g = [g for g in j["lines"] if sys.argv[2] + ":" in g["holds"]]
assert g and all(x["addr_before"] != x["addr_after"] for x in g if x["addr_after"]), g
PY
	git -C "$T/src" checkout -q -- . || fail "git checkout"
}

# A source that no longer matches the binary: refused, the differing members named.
sim_build fs_adjacent gcc
sim_record_contended "$T/stale.data" 10 "$T/fs_adjacent-gcc" 40000 2
sed -i 's/volatile long b;/volatile long b_renamed;/' "$T/src/counters.h"
"$LINEUP" suggest -i "$T/stale.data" -C counters --patch "$T/stale.diff" \
	--source-root "$T/src" >"$T/stale.out" 2>"$T/stale.err"
rc=$?
[ $rc -eq 1 ] || { cat "$T/stale.err"; fail "a stale source: exit $rc, want 1"; }
grep -q 'b_renamed' "$T/stale.err" && grep -q "counters" "$T/stale.err" ||
	{ cat "$T/stale.err"; fail "a stale source: the differing members not named"; }
[ ! -s "$T/stale.diff" ] || fail "a stale source: a patch was written"
git -C "$T/src" checkout -q -- . || fail "git checkout"

loop fs_adjacent 2 "struct counters"

# struct file: f_count, f_lock and f_pos_lock are written by every thread (true sharing, said
# as such); the read-mostly members' HITMs are the false sharing, and they go.
loop struct_file 4 "struct file" '^(f_op|f_inode|f_path)'

loop percpu_stats 4 "struct stats"

python3 - "$T" <<'PY' || fail "wrong suggestion (above)"
import json, sys
T = sys.argv[1]
bad = []
for name in ("fs_adjacent", "struct_file", "percpu_stats"):
    d = json.load(open("%s/%s.json" % (T, name)))["structs"][0]
    if d["status"] != "ok" or not d.get("verify", {}).get("ok"):
        bad.append("%s: %s %s" % (name, d["status"], d.get("verify")))
    if name != "struct_file" and d["after"]["transfers"] * 20 > d["before"]["transfers"]:
        bad.append("%s: predicted %d -> %d" % (name, d["before"]["transfers"], d["after"]["transfers"]))
d = json.load(open("%s/struct_file.json" % T))["structs"][0]
m = {x["name"]: x for x in d["members"]}
line = lambda n: m[n]["new_offset"] // 64
for ro in ("f_op", "f_inode"):
    for w in ("f_count", "f_lock", "f_pos_lock"):
        if line(ro) == line(w):
            bad.append("struct_file: %s shares a line with %s" % (ro, w))
# the read-mostly line: no HITM predicted, and no transfer but the first read of main()'s
# setup stores by each of the 4 threads; the written line keeps its own
ro = [l for l in d["after"]["lines"] if l["offset"] == line("f_op") * 64]
if not ro or ro[0]["transfers"] > 4 or ro[0]["hitm_measured"]:
    bad.append("struct_file: the read-mostly line still moves: %s" % ro)
if not d["after"]["hitm_measured"] < d["before"]["hitm_measured"]:
    bad.append("struct_file: HITMs predicted %d -> %d" % (d["before"]["hitm_measured"],
                                                           d["after"]["hitm_measured"]))
if not any(f["kind"] == "true_sharing" for f in d["findings"]):
    bad.append("struct_file: no true-sharing advice for f_count")
for b in bad:
    print("FAIL", b)
sys.exit(1 if bad else 0)
PY

# True sharing: one atomic counter every thread adds to.  Nothing to reorder; per-CPU advice.
sim_build atomic_counter gcc
sim_record_contended "$T/ac.data" 10 "$T/atomic_counter-gcc" 40000 4
expect_rc 1 "$LINEUP" suggest -i "$T/ac.data" -C io_stats >"$T/ac.txt" 2>&1
grep -q "nothing to do" "$T/ac.txt" || { cat "$T/ac.txt"; fail "atomic_counter: not 'nothing to do'"; }
grep -q "per-CPU or sharded counter" "$T/ac.txt" ||
	{ cat "$T/ac.txt"; fail "atomic_counter: no per-CPU advice"; }

# Seed 000: a flag word set although already set: the test-before-set advice, with the counts.
sim_build flag_word gcc
sim_record_contended "$T/fw.data" 10 "$T/flag_word-gcc" 40000 4
"$LINEUP" suggest -i "$T/fw.data" -C buffer_head >"$T/fw.txt" 2>&1
[ $? -le 1 ] || { cat "$T/fw.txt"; fail "flag_word: suggest"; }
grep -q "test before set: [0-9]* of [0-9]* locked RMWs on b_state changed nothing" "$T/fw.txt" ||
	{ cat "$T/fw.txt"; fail "flag_word: no test-before-set advice on b_state"; }

# Already padded: nothing to do.
sim_build fs_padded gcc
sim_record "$T/pad.data" "$T/fs_padded-gcc" 40000 2
expect_rc 1 "$LINEUP" suggest -i "$T/pad.data" -C counters >"$T/pad.txt" 2>&1
grep -q "nothing to do" "$T/pad.txt" || { cat "$T/pad.txt"; fail "fs_padded: not 'nothing to do'"; }

# The ring: head and tail written (by one thread each) and read by the other, never
# read-mostly; on different lines, and the read-only mask on neither's.
sim_build ring gcc
sim_record_contended "$T/ring.data" 10 "$T/ring-gcc" 40000 2
"$LINEUP" suggest -i "$T/ring.data" -C ring --json >"$T/ring.json" 2>"$T/ring.err" ||
	{ cat "$T/ring.err"; fail "ring: suggest"; }
"$LINEUP" fields -i "$T/ring.data" --json >"$T/ringf.json" 2>/dev/null || fail "ring: fields"
python3 - "$T" <<'PY' || fail "ring: wrong classification or layout"
import json, sys
T = sys.argv[1]
d = json.load(open("%s/ring.json" % T))["structs"][0]
m = {x["name"]: x for x in d["members"]}
bad = []
for n in ("head", "tail"):
    if m[n]["use"] != "written" or len(m[n]["writers"]) != 1:
        bad.append("suggest: %s is %s, writers %s" % (n, m[n]["use"], m[n]["writers"]))
if m["mask"]["use"] != "read-mostly":
    bad.append("suggest: mask is %s" % m["mask"]["use"])
line = lambda n: m[n]["new_offset"] // 64
if line("head") == line("tail"):
    bad.append("head and tail share line %d" % line("head"))
if line("mask") in (line("head"), line("tail")):
    bad.append("mask shares a line with head or tail")
f = json.load(open("%s/ringf.json" % T))
ring = [s for s in f["structs"] if s["type"] == "struct ring"][0]
for mem in ring["members"]:
    if mem["member"] in ("head", "tail") and mem["use"] == "read-mostly":
        bad.append("fields: %s is read-mostly" % mem["member"])
for b in bad:
    print("FAIL", b)
sys.exit(1 if bad else 0)
PY
exit 0
