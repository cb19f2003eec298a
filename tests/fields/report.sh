#!/bin/sh
# lineup report --fields: the Pareto rows get Type and Member (field attribution), in --stdio,
# --csv and always in --json, while the default --stdio stays perf c2c's layout.
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/sim/sim-lib.sh"
need python3
[ -n "${PERF:-}" ] && [ -x "$PERF" ] || skip "perf is not installed (the default --stdio is diffed with perf c2c)"
CC=${CC:-gcc}
case $CC in *clang*) cc=clang ;; *) cc=gcc ;; esac
need "$cc"

sim_build struct_file "$cc"
sim_record "$T/sf.data" "$T/struct_file-$cc" 20000 4

"$LINEUP" report -i "$T/sf.data" --stdio >"$T/plain" 2>"$T/err" || fail "report --stdio"
grep -q "Member" "$T/plain" && fail "the default --stdio has a Member column"
"$PERF" c2c report -i "$T/sf.data" --stdio >"$T/perf" 2>"$T/perf.err" ||
	fail "perf c2c report failed on the recording: $(head -5 "$T/perf.err")"
diff -u "$T/perf" "$T/plain" >"$T/diff" ||
	{ head -30 "$T/diff" >&2; fail "default --stdio differs from perf c2c"; }

"$LINEUP" report -i "$T/sf.data" --stdio --fields >"$T/fields" 2>"$T/err" ||
	fail "report --fields: $(cat "$T/err")"
grep -q "Type *Member" "$T/fields" || fail "no Type/Member header"
grep -q "struct file  *f_op " "$T/fields" || fail "no f_op row: $(grep -m3 'struct file' "$T/fields")"
grep -q "struct file  *f_count " "$T/fields" || fail "no f_count row"

"$LINEUP" report -i "$T/sf.data" --json >"$T/json" 2>"$T/err" || fail "report --json"
"$LINEUP" report -i "$T/sf.data" --csv --fields >"$T/csv" 2>"$T/err" || fail "report --csv --fields"
python3 - "$T" <<'PY' || fail "Type/Member missing from --json or --csv"
import csv, json, sys
T = sys.argv[1]
d = json.load(open(T + "/json"))
members = {(e["type"], e["member"]) for l in d["lines"] for e in l["entries"]}
assert ("struct file", "f_op") in members and ("struct file", "f_count") in members, members
rows = [r for r in csv.reader(open(T + "/csv")) if r]
hdr = [r for r in rows if "member" in r]
assert hdr, "no member column in the CSV"
i = hdr[-1].index("member")
assert any(len(r) > i and r[i] == "f_op" for r in rows), "no f_op in the CSV"
PY
exit 0
