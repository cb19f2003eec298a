#!/bin/sh
# lineup fields' outputs render one member table and one verdict structure: --json carries each
# contended line's verdict part by part (kind, advice, writer groups, victims, the truly shared
# member, the sum side's reads, redundant RMWs), not only its sentence; --csv is one table; one
# output format at a time; a write error names the output and fails.
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/sim/sim-lib.sh"
need python3
need gcc
SIM_OPTS=--sim-exact

# (e) one counter written by every thread: true sharing, a per-CPU counter with its sum side;
# (g) a flag word set again and again: redundant RMWs; (c) struct-file-like: victims.
for w in atomic_counter flag_word struct_file; do
	sim_build $w gcc
	n=0
	while :; do
		sim_record "$T/$w.data" "$T/$w-gcc" 20000 4
		"$LINEUP" fields --json -i "$T/$w.data" >"$T/$w.json" 2>"$T/err" ||
			fail "fields --json $w: $(cat "$T/err")"
		grep -q '"verdict":"true sharing"\|"verdict":"false sharing"' "$T/$w.json" && break
		n=$((n + 1))
		[ $n -lt 5 ] || fail "$w: no contended line in 5 recordings"
	done
done

python3 - "$T" <<'PY' || fail "the verdict's parts are wrong or missing from --json"
import json, sys
T = sys.argv[1]
def lines(w):
    return [l for l in json.load(open("%s/%s.json" % (T, w)))["lines"]]
c = [l for l in lines("atomic_counter") if l["verdict"] == "true sharing"][0]
p = c["parts"]
assert p["kind"] == "true sharing" and p["advice"] == "per-CPU counter", p
assert p["true_shared"] == "in_flight" and p["true_shared_writer_cpus"] >= 2, p
assert p["writer_groups"] == [["in_flight"]] and p["victims"] == [], p
assert "reads" in p["sum_side"] and "readers" in p["sum_side"], p
assert "per-CPU" in c["explanation"], c["explanation"]
f = [l for l in lines("flag_word") if l["parts"]["redundant_rmws"]][0]["parts"]
r = f["redundant_rmws"][0]
assert r["member"] == "b_state" and 0 < r["redundant"] <= r["checked"], r
assert r["code"] and "flag_word.c" in r["code"][0], r
assert f["victims"], f
s = [l for l in lines("struct_file") if l["verdict"] == "false sharing"][0]["parts"]
assert s["kind"] == "false sharing" and s["advice"] != "none" and s["writer_groups"], s
for g in s["writer_groups"]:
    assert g and all(isinstance(m, str) for m in g), s
PY

# The member table: the same rows in the three formats.
"$LINEUP" fields --stdio -i "$T/struct_file.data" >"$T/stdio" || fail "fields --stdio"
"$LINEUP" fields --csv -i "$T/struct_file.data" >"$T/csv" || fail "fields --csv"
python3 - "$T" <<'PY' || fail "--csv and --json disagree"
import csv, json, sys
T = sys.argv[1]
rows = list(csv.reader(open(T + "/csv")))
assert rows[0][:3] == ["struct", "offset", "size"] and [] not in rows, rows[0]
h = rows[0]
j = json.load(open(T + "/struct_file.json"))
members = [(s["type"], m["member"], m["loads"], m["stores"]) for s in j["structs"] for m in s["members"]]
c = [(r[h.index("struct")], r[h.index("member")], int(r[h.index("loads")]),
      int(r[h.index("stores")])) for r in rows[1:]]
assert c == members, (c[:5], members[:5])
PY
grep -q "^ *Offset  *Size  *CL Member  *Use " "$T/stdio" || fail "no member table header in --stdio"

for pair in "--json --csv" "--stdio --csv"; do
	expect_rc 2 "$LINEUP" fields $pair -i "$T/struct_file.data" >"$T/out" 2>"$T/err"
	[ -s "$T/out" ] && fail "fields $pair wrote to stdout"
	grep -q "exclude each other" "$T/err" || fail "fields $pair: $(cat "$T/err")"
done

if [ -w /dev/full ]; then
	for f in --stdio --json --csv; do
		expect_rc 1 "$LINEUP" fields $f -i "$T/struct_file.data" >/dev/full 2>"$T/err"
		grep -q "writing standard output: No space left on device" "$T/err" ||
			fail "fields $f into /dev/full: $(cat "$T/err")"
	done
fi
exit 0
