#!/bin/sh
# Field attribution on kernel code (issue 5's acceptance): build tests/kmod/lineup_touch.c
# against Debian's linux-headers, pick in its disassembly the instruction of each function that
# touches its field (objdump -d: the first memory operand based on a register), write a
# perf.data of kernel memory samples at those real IPs with data addresses inside instances,
# and check that `lineup fields`, without any hint, names the right type and member for at
# least 90% of the HITM-weighted samples, accounts for the rest with a reason, and gives the
# right verdicts (seed 003's false sharing with read-mostly victims, seed 004's true sharing
# with the sum side, seed 000's locked set_bit).
#
# The test only chooses *where* the samples are (the IP of an instruction, an address inside
# an instance); the type and member come from lineup's own analysis: capstone decodes the
# instruction and the DWARF location lists of the .ko say which variable lives in its base
# register.
. "$top_srcdir/tests/lib.sh"
scratch

need objdump
need python3
need make
. "$top_srcdir/tests/fields/kscenario.sh"
[ -n "${PERF:-}" ] && [ -x "$PERF" ] || skip "perf is not installed (perf script counts the samples)"
KVER=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | head -n1)
[ -n "$KVER" ] && [ -f "$KVER/Makefile" ] || skip "no linux-headers-*-amd64 in /usr/src"
MKKERN="$top_builddir/tests/fields/mkkern"

kernel_scenario

# perf itself reads it: same sample count.
n=$("$PERF" script -i "$T/perf.data" -F ip 2>/dev/null | wc -l)
[ "$n" -eq "$(grep -c '^load\|^store' "$T/scenario")" ] ||
	fail "perf script sees $n samples"

expect_rc 0 "$LINEUP" fields -i "$T/perf.data" --debug-file "$KO" --json >"$T/out.json" \
	2>"$T/err"
"$LINEUP" fields -i "$T/perf.data" --debug-file "$KO" >"$T/out.txt" 2>/dev/null ||
	fail "lineup fields --stdio failed"

python3 - "$T" <<'EOF' || { cat "$T/out.txt"; fail "attribution below the bar"; }
import json, sys, collections
T = sys.argv[1]
d = json.load(open(T + "/out.json"))
want_hitm = collections.Counter()
want_all = collections.Counter()
for line in open(T + "/expect"):
    typ, member, hitm = line.rstrip("\n").split("\t")
    want_all[(typ, member)] += 1
    if hitm == "1":
        want_hitm[(typ, member)] += 1
got_hitm = collections.Counter()
got_all = collections.Counter()
for s in d["structs"]:
    for m in s["members"]:
        got_hitm[(s["type"], m["member"])] += m["lcl_hitm"] + m["rmt_hitm"]
        got_all[(s["type"], m["member"])] += m["loads"] + m["stores"]
total_hitm = d["attribution"]["hitm"]["total"]
right = sum(min(n, got_hitm[k]) for k, n in want_hitm.items())
right_all = sum(min(n, got_all[k]) for k, n in want_all.items())
share = right / total_hitm
print("HITM samples: %d, right type+member: %d (%.1f%%); all samples right: %d of %d"
      % (total_hitm, right, 100 * share, right_all, d["samples"]))
for k in sorted(want_all):
    if got_all[k] != want_all[k]:
        print("  %s.%s: want %d samples, got %d" % (k[0], k[1], want_all[k], got_all[k]))
assert share >= 0.90, "only %.1f%% of HITM samples attributed right" % (100 * share)
# The rest is accounted for, with its reason.
unres = d["attribution"]["hitm"]["unresolved"]
assert sum(unres.values()) == total_hitm - right, unres
assert unres.get("no_symbols") == 8, unres
# Verdicts: struct file's line is false sharing with f_op, f_inode, f_path.dentry as victims;
# the partition's counters are true sharing; b_state's line is written by 8 CPUs.
lines = {}
for l in d["lines"]:
    for s in l["slots"]:
        lines.setdefault((s["type"], s["member"]), l)
fl = lines[("struct file", "f_count")]
assert fl["verdict"] == "false sharing", fl["verdict"]
victims = sorted(s["member"] for s in fl["slots"] if s["victim"])
assert victims == ["f_inode", "f_op", "f_path.dentry"], victims
assert "keep the written members" in fl["explanation"], fl["explanation"]
pl = lines[("struct lineup_hd_struct", "in_flight[0]")]
assert pl["verdict"] == "true sharing", pl["verdict"]
assert "per-CPU or sharded counter" in pl["explanation"] and "read 10 times" in pl["explanation"], pl["explanation"]
bl = lines[("struct buffer_head", "b_state")]
assert any(s["member"] == "b_state" and s["cpus_write"] == 8 and s["locked"] for s in bl["slots"])
EOF

grep -q '^struct file (size ' "$T/out.txt" || fail "no struct file table in the text output"

# The same accesses as lineup watch and PEBS record them: a locked RMW is one *load* sample
# with the lock bit, no store sample.  Its CPUs still count as writers.
python3 - "$T" <<'EOF' || fail "could not write the locked-loads scenario"
import sys
T = sys.argv[1]
out = []
for line in open(T + "/scenario"):
    f = line.split()
    if f and f[0] == "store" and (int(f[5], 16) >> 24) & 3 == 2:
        f[0] = "load"
        f[5] = "%#x" % ((0x010605800842 & ~(3 << 24)) | (2 << 24))  # LCL_HITM + LOCKED
    out.append(" ".join(f))
open(T + "/scenario2", "w").write("\n".join(out) + "\n")
EOF
"$MKKERN" "$T/locked.data" <"$T/scenario2" || fail "mkkern (locked loads)"
"$LINEUP" fields -i "$T/locked.data" --debug-file "$KO" --json >"$T/locked.json" 2>/dev/null ||
	fail "lineup fields on the locked-loads recording"
python3 - "$T/locked.json" <<'EOF' || fail "locked RMWs sampled as loads are not counted as writes"
import json, sys
d = json.load(open(sys.argv[1]))
m = {r["member"]: r for s in d["structs"] if s["type"] == "struct file" for r in s["members"]}
assert m["f_count"]["cpus_write"] == 8 and m["f_count"]["use"] == "read-write", m["f_count"]
assert m["f_op"]["use"] == "read-mostly", m["f_op"]
fl = [l for l in d["lines"] if any(s["member"] == "f_count" for s in l["slots"])][0]
assert fl["verdict"] == "false sharing" and fl["writer_cpus"] == 8, fl
assert sorted(s["member"] for s in fl["slots"] if s["victim"]) == ["f_inode", "f_op", "f_path.dentry"]
EOF

# The weakest evidence: a --type hint names the instance the kernel-proper samples touch.
"$LINEUP" fields -i "$T/perf.data" --debug-file "$KO" --type 'struct file@0xffff888104e3a400' \
	--json >"$T/hint.json" 2>/dev/null || fail "lineup fields --type failed"
python3 - "$T/hint.json" <<'PY' || fail "the --type hint did not attribute the rest"
import json, sys
h = json.load(open(sys.argv[1]))["attribution"]["hitm"]
assert h["share"] == 1.0 and h["by_evidence"]["hint"] == 8 and not h["unresolved"], h
PY
grep -q 'read-mostly victims' "$T/out.txt" || fail "no read-mostly victims in the text output"
exit 0
