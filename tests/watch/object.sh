#!/bin/sh
# lineup watch --object 'struct T'@ADDR on a user program (a global struct of a normally built
# program, the address as nm prints it, the layout from the program's DWARF): the load/store/
# RMW split of each member equals what the source does (tests/watch/gstruct.c), for a PIE and
# a non-PIE build.  Then lineup report --stdio and lineup fields read the recording: the
# written members are written from both CPUs (threads pinned), with transfers and their
# functions.  Also: --fields that names no member is a usage error, a member given twice takes
# one slot.
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/watch/lib-watch.sh"

# --fields naming no member: exit 2 with a message, never a crash (this segfaulted).
for f in '' ',' ' , '; do
	for target in object alloc; do
		if [ $target = object ]; then
			"$LINEUP" watch -o "$T/e.data" --object 'struct gstats@0x4000' --fields "$f" \
				-- true >"$T/out" 2>"$T/err"
		else
			"$LINEUP" watch -o "$T/e.data" --alloc filp --comm x --fields "$f" -- true \
				>"$T/out" 2>"$T/err"
		fi
		rc=$?
		[ $rc -eq 2 ] || fail "--fields '$f' with --$target: exit $rc, want 2: $(cat "$T/err")"
		grep -q "names no member" "$T/err" || fail "--fields '$f': $(cat "$T/err")"
	done
done

watch_lock
build_workload gstruct
cd "$T" || exit 99
addr=$(nm "$T/gstruct" | awk '$3 == "g_stats" { print $1 }')
[ -n "$addr" ] || fail "nm finds no g_stats in gstruct"

# member    hits load store rmw lock-rmw unknown (main's printf reads hits, refs, misses once)
expect() {
	got=$(member_row "$T/out" "$1" | cut -d' ' -f1-6)
	[ "$got" = "$2" ] || fail "$1: got '$got', want '$2' (hits load store rmw lock-rmw unknown)"
}
expect_all() {
	expect hits   "2001 1001 1000 0 0 0"
	expect refs   "2001 1 0 0 2000 0"
	expect name   "1001 1000 1 0 0 0"
	expect misses "1001 1 1000 0 0 0"
}

# hits and refs twice: four members, four slots (else "6 members but only 4 slots").
"$LINEUP" watch -o "$T/o.data" --object "struct gstats@0x$addr" \
	--fields hits,refs,hits,name,misses,refs -- "$T/gstruct" 1000 pin >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -ne 0 ] && grep -q 'cannot open a hardware breakpoint\|perf_event_paranoid' "$T/err"; then
	skip "no hardware breakpoints for this user: $(cat "$T/err")"
fi
[ $rc -eq 0 ] || fail "lineup watch --object exited $rc: $(cat "$T/err")"
cat "$T/out"
grep -q "member 'hits' given twice" "$T/err" || fail "duplicate not reported: $(cat "$T/err")"
grep -q '^# lineup watch: struct gstats at 0x' "$T/out" || fail "no header"
n=$(awk '$1 != "#" && $2 ~ /^[0-9]+$/ && NF >= 13' "$T/out" | wc -l)
[ "$n" -eq 4 ] || fail "$n member rows, want 4 (hits and refs once each)"
expect_all
grep -q 'store      thread_a+' "$T/out" && grep -q 'locked-rmw thread_b+' "$T/out" ||
	fail "code sites not named"
grep -q '^# not watched: pad' "$T/out" || fail "pad not listed as not watched"

# --binary names the program explicitly: the same.
"$LINEUP" watch -q -o "$T/b.data" --binary "$T/gstruct" --object "struct gstats@0x$addr" \
	--fields hits,refs,name,misses -- "$T/gstruct" 1000 >"$T/out" 2>"$T/err" ||
	fail "--object with --binary: $(cat "$T/err")"
expect_all

# Not a PIE: the address is the run-time one, used as is.
${CC:-cc} -O2 -g -pthread -no-pie -o "$T/gstruct-nopie" "$top_srcdir/tests/watch/gstruct.c" ||
	fail "cannot build gstruct -no-pie"
naddr=$(nm "$T/gstruct-nopie" | awk '$3 == "g_stats" { print $1 }')
"$LINEUP" watch -q -o "$T/n.data" --object "struct gstats@0x$naddr" \
	--fields hits,refs,name,misses -- "$T/gstruct-nopie" 1000 >"$T/out" 2>"$T/err" ||
	fail "--object on a non-PIE: $(cat "$T/err")"
grep -q "^# lineup watch: struct gstats at 0x0*$(echo "$naddr" | sed 's/^0*//') " "$T/out" ||
	fail "non-PIE address changed: $(head -1 "$T/out"), nm says $naddr"
expect_all

# lineup report --stdio reads the recording: the totals and the Pareto rows by offset.
"$LINEUP" report --stdio -i "$T/o.data" >"$T/report" 2>"$T/report.err" ||
	fail "lineup report: $(cat "$T/report.err")"
for l in 'Total records *: *6004$' 'Locked Load/Store Operations *: *2000$' \
	'Load Operations *: *4003$' 'Store Operations *: *2001$' 'Total Shared Cache Lines *: *1$'; do
	grep -q "^  $l" "$T/report" || fail "report lacks '$l': $(head -40 "$T/report")"
done
# Pareto: offset, records, symbol per code address (1000 each from the loops).
for w in '0x0 1000 thread_a' '0x8 1000 thread_a' '0x8 1000 thread_b' '0x10 1000 thread_b' \
	'0x18 1000 thread_b'; do
	set -- $w
	awk -v o="$1" -v n="$2" -v s="$3" '$6 == o && $13 == n && $16 == s { f = 1 } END { exit !f }' \
		"$T/report" || fail "report Pareto has no row '$w': $(grep -A12 'Pareto' "$T/report")"
done

# lineup fields: written members written from both CPUs (both threads), with transfers and
# their functions; name read-mostly.  Text first (the columns of lineup fields), then JSON.
"$LINEUP" fields -i "$T/o.data" >"$T/fields" 2>"$T/fields.err" ||
	fail "lineup fields: $(cat "$T/fields.err")"
cat "$T/fields"
grep -q '^# all samples: 6004, attributed 6004 (100.0%)' "$T/fields" || fail "not all attributed"
awk '$4 == "refs" && $5 == "read-write" && $8 == 2000 && $9 > 0 && $13 == 2 && $15 == 2 &&
	/thread_a\+/ && /thread_b\+/ { f = 1 } END { exit !f }' "$T/fields" ||
	fail "lineup fields: refs not written by both threads from both CPUs with HITMs"
awk '$4 == "name" && $5 == "read-mostly" && $6 == 1000 && $7 == 1 { f = 1 } END { exit !f }' \
	"$T/fields" || fail "lineup fields: name not read-mostly"
"$LINEUP" fields -i "$T/o.data" --json >"$T/fields.json" 2>"$T/fields.err" ||
	fail "lineup fields --json: $(cat "$T/fields.err")"
python3 - "$T/fields.json" <<'PY' || fail "lineup fields --json on the watch recording"
import json, sys
d = json.load(open(sys.argv[1]))
m = {x["member"]: x for s in d["structs"] if s["type"] == "struct gstats" for x in s["members"]}
r = m["refs"]
assert r["locked"] == 2000 and r["stores"] == 0 and r["lcl_hitm"] > 0, r
assert r["cpus_write"] == 2 and r["threads_write"] == 2, r
assert "thread_a+" in r["code"] and "thread_b+" in r["code"], r
h = m["hits"]
assert h["stores"] == 1000 and h["threads_write"] == 1 and "thread_a+" in h["code"], h
assert m["misses"]["stores"] == 1000 and "thread_b+" in m["misses"]["code"], m["misses"]
assert m["name"]["loads"] == 1000 and m["name"]["stores"] == 1, m["name"]
assert m["pad"]["loads"] == 0 and m["pad"]["stores"] == 0, m["pad"]
PY
