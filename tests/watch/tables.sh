#!/bin/sh
# lineup watch's tables (analyzer/watch_table.h): the member table and the per-line table in
# the text and, the line table too, in --json, with the same numbers; counts in the headline
# read as English ("1 cache line", not "1 cache lines").
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/watch/lib-watch.sh"
need python3
watch_lock
build_workload gstruct

"$LINEUP" watch -o "$T/w.data" --symbol g_stats --fields hits,refs -- "$T/gstruct" 100 \
	>"$T/out" 2>"$T/err"
rc=$?
if [ $rc -ne 0 ] && grep -q 'cannot open a hardware breakpoint\|perf_event_paranoid' "$T/err"; then
	skip "no hardware breakpoints for this user: $(cat "$T/err")"
fi
[ $rc -eq 0 ] || fail "lineup watch exited $rc: $(cat "$T/err")"
"$LINEUP" watch --json -o "$T/w.data" --symbol g_stats --fields hits,refs -- "$T/gstruct" 100 \
	>"$T/json" 2>"$T/err" || fail "watch --json: $(cat "$T/err")"

# struct gstats is one 64-byte line
grep -q '^# lineup watch: struct gstats at 0x[0-9a-f]* (64 bytes, 1 cache line)$' "$T/out" ||
	fail "headline: $(grep '^# lineup watch' "$T/out")"
grep -q '\b1 cache lines\|\b1 hits\|\b1 bytes' "$T/out" && fail "a count of 1 in the plural"
grep -q '^# line   members watched  *hits    writes transfers writer-cpus$' "$T/out" ||
	fail "no line table header"
python3 - "$T" <<'PY' || fail "the line table disagrees with the member table"
import json, sys
T = sys.argv[1]
text = open(T + "/out").read().split("\n")
rows = [l.split() for l in text if l.startswith("  0 ")]
assert len(rows) == 1 and rows[0][1:3] == ["hits", "refs"], rows
members = {l.split()[0]: l.split() for l in text if l.startswith("  hits ") or l.startswith("  refs ")}
assert int(rows[0][3]) == int(members["hits"][5]) + int(members["refs"][5]), (rows, members)
j = json.load(open(T + "/json"))
assert len(j["lines"]) == 1, j["lines"]
l = j["lines"][0]
assert l["line"] == 0 and l["members"] == "hits refs", l
assert l["hits"] == sum(m["hits"] for m in j["members"]), (l, j["members"])
assert l["writes"] == sum(m["stores"] + m["rmw"] + m["locked_rmw"] for m in j["members"]), l
assert all(m["watched_bytes"] == 8 and m["size"] == 8 for m in j["members"]), j["members"]
PY
exit 0
