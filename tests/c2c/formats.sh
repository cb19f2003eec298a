#!/bin/sh
# lineup report: --json and --csv carry the numbers --stdio prints (one column table drives all
# three; --csv as one table with a table column), the filters perf lacks (--pid, --tid, --cpu,
# --comm, --time), one output format at a time, write errors, bad usage and bad input.
. "$top_srcdir/tests/lib.sh"
need python3
[ -n "${PERF:-}" ] && [ -x "$PERF" ] || skip "perf is not installed (the pipe-mode check uses perf inject)"
scratch
MKPERF="$top_builddir/tests/tools/mkperf"
[ -x "$MKPERF" ] || fail "mkperf was not built"

cat >"$T/s.txt" <<'EOF'
cpus 4 sockets=2
event load
event store
comm 10 10 alpha
fork 10 10 11 10
comm 10 11 beta
anon 10 0x7f0000000000 0x10000
sample load tid=10 cpu=0 time=1000000000 ip=0x401000 addr=0x7f0000000000 src=LCL_HITM weight=100 repeat=4
sample load tid=11 cpu=2 time=2000000000 ip=0x401010 addr=0x7f0000000008 src=RMT_HITM weight=300 repeat=2
sample store tid=11 cpu=3 time=3000000000 ip=0x401020 addr=0x7f0000000010 src=ST_L1HIT weight=5
sample load tid=10 cpu=1 time=4000000000 ip=0x401030 addr=0x7f0000000040 src=LCL_HITM weight=50
EOF
"$MKPERF" -o "$T/s.data" "$T/s.txt" || fail "mkperf failed"

"$LINEUP" report --stdio -i "$T/s.data" >"$T/stdio" || fail "--stdio failed"
"$LINEUP" report --json -i "$T/s.data" >"$T/json" || fail "--json failed"
"$LINEUP" report --csv -i "$T/s.data" >"$T/csv" || fail "--csv failed"

python3 - "$T/json" "$T/stdio" "$T/csv" <<'EOF' || fail "--json/--csv disagree with --stdio"
import csv, json, sys
j = json.load(open(sys.argv[1]))
stdio = open(sys.argv[2]).read().split("\n")
t = j["trace_event_information"]
assert t["nr_entries"] == 8 and t["lcl_hitm"] == 5 and t["rmt_hitm"] == 2, t
assert any(l.startswith("  Total records") and l.split()[-1] == "8" for l in stdio)
assert j["shared_cache_lines"] == 2
lines = j["lines"]
assert len(lines) == 2, lines
# the Shared Data Cache Line Table rows of --stdio, as numbers
rows = [l.split() for l in stdio if l.startswith("      ") and "0x7f" in l and "%" in l
        and len(l.split()) == 23]
assert len(rows) == 2, rows
for row, line in zip(rows, lines):
    assert int(row[0]) == line["cl_idx"] and row[1] == line["dcacheline"]
    assert float(row[4].rstrip("%")) == line["percent_costly_snoop"]
    assert int(row[5]) == line["tot_hitm"] and int(row[8]) == line["tot_recs"]
e = lines[0]["entries"]
assert [x["offset"] for x in e] == ["0x0", "0x8", "0x10"], e
assert e[0]["mean_lcl"] == 100 and e[1]["mean_rmt"] == 300, e
assert e[0]["dso"] == "[unknown]" and e[0]["cl_srcline"] == "??:0", e
assert e[0]["symbol"] == "[.] 0x0000000000401000", e
assert len(set(lines[0])) == len(lines[0])
# --csv is one table: one header, the rows told apart by its first column, every row as wide
r = list(csv.reader(open(sys.argv[3])))
assert [] not in r and r[0][:2] == ["table", "cl_idx"], r[0]
assert all(len(x) == len(r[0]) for x in r), "CSV rows of different widths"
h = r[0]
ls = [dict(zip(h, x)) for x in r[1:] if x[0] == "lines"]
es = [dict(zip(h, x)) for x in r[1:] if x[0] == "entries"]
assert len(ls) == 2 and len(es) == 4 and len(r) == 7, r
assert [x["cl_idx"] for x in es] == ["0", "0", "0", "1"], es
assert int(ls[0]["tot_hitm"]) == lines[0]["tot_hitm"] and ls[0]["offset"] == "", ls[0]
assert es[1]["offset"] == "0x8" and es[1]["mean_rmt"] == "300" and es[1]["dcacheline"] == "", es[1]
assert [x["cl_idx"] for x in lines[0]["entries"]] == [0, 0, 0]
EOF

# One output format: two different ones are refused before anything is read or written.
for pair in "--json --csv" "--csv --json" "--stdio --json" "--csv --stdio"; do
	expect_rc 2 "$LINEUP" report $pair -i "$T/s.data" >"$T/out" 2>"$T/err"
	[ -s "$T/out" ] && fail "report $pair wrote to stdout"
	grep -q "exclude each other" "$T/err" || fail "report $pair: no message: $(cat "$T/err")"
done
"$LINEUP" report --csv --csv -i "$T/s.data" >/dev/null || fail "--csv twice refused"

# A full disk is an error naming the output, in every format, never exit 0.
if [ -w /dev/full ]; then
	for f in --stdio --json --csv "--stdio --stats"; do
		expect_rc 1 "$LINEUP" report $f -i "$T/s.data" >/dev/full 2>"$T/err"
		grep -q "writing standard output: No space left on device" "$T/err" ||
			fail "report $f into /dev/full: $(cat "$T/err")"
	done
fi

total() { sed -n 's/^  Total records *: *//p' "$T/out"; }
"$LINEUP" report --stdio --stats -i "$T/s.data" --tid 11 >"$T/out" || fail "--tid failed"
[ "$(total)" = 3 ] || fail "--tid 11: expected 3 records, got $(total)"
"$LINEUP" report --stdio --stats -i "$T/s.data" --pid 10 >"$T/out" || fail "--pid failed"
[ "$(total)" = 8 ] || fail "--pid 10: expected 8 records, got $(total)"
"$LINEUP" report --stdio --stats -i "$T/s.data" --cpu 0-1 >"$T/out" || fail "--cpu failed"
[ "$(total)" = 5 ] || fail "--cpu 0-1: expected 5 records, got $(total)"
"$LINEUP" report --stdio --stats -i "$T/s.data" --comm beta >"$T/out" || fail "--comm failed"
[ "$(total)" = 3 ] || fail "--comm beta: expected 3 records, got $(total)"
"$LINEUP" report --stdio --stats -i "$T/s.data" --time 1.5,3.5 >"$T/out" || fail "--time failed"
[ "$(total)" = 3 ] || fail "--time 1.5,3.5: expected 3 records, got $(total)"
"$LINEUP" report --stdio --stats -i "$T/s.data" --time ,1.5 >"$T/out" || fail "--time ,1.5 failed"
[ "$(total)" = 4 ] || fail "--time ,1.5: expected 4 records, got $(total)"

# --line-size and --double-cl change the lines: 0x..00 and 0x..40 merge at 128 bytes.
"$LINEUP" report --stdio -i "$T/s.data" --double-cl >"$T/out" || fail "--double-cl failed"
grep -q '^  Total Shared Cache Lines *: *1$' "$T/out" || fail "--double-cl did not merge lines"
"$LINEUP" report --stdio -i "$T/s.data" --line-size 128 >"$T/out2" || fail "--line-size failed"
cmp -s "$T/out" "$T/out2" || fail "--line-size 128 and --double-cl disagree"

# Pipe mode (perf c2c report has none): the header facts arrive as records, the c2c is made at
# the first sample.  perf inject writes the pipe with this machine's topology, so compare the
# statistics, which do not depend on it.
"$PERF" inject -i "$T/s.data" -o - >"$T/s.pipe" 2>/dev/null || fail "perf inject failed"
"$LINEUP" report --stdio --stats -i "$T/s.data" | sed '/c2c details/,$d' >"$T/file.stats"
"$LINEUP" report --stdio --stats -i - <"$T/s.pipe" | sed '/c2c details/,$d' >"$T/pipe.stats" ||
	fail "report of a pipe failed"
diff -u "$T/file.stats" "$T/pipe.stats" || fail "pipe and file statistics differ"

# Bad usage and bad input: exit 2 with a message, never a crash.
expect_rc 2 "$LINEUP" report -d nosuch -i "$T/s.data" 2>"$T/err"
grep -q "nosuch" "$T/err" || fail "bad -d not named"
expect_rc 2 "$LINEUP" report -c nosuch -i "$T/s.data" 2>/dev/null
expect_rc 2 "$LINEUP" report --line-size 100 -i "$T/s.data" 2>/dev/null
expect_rc 2 "$LINEUP" report --time abc -i "$T/s.data" 2>/dev/null
expect_rc 2 "$LINEUP" report --cpu 3-1 -i "$T/s.data" 2>/dev/null
expect_rc 2 "$LINEUP" report -i "$T/nosuch.data" 2>"$T/err"
grep -q "nosuch.data" "$T/err" || fail "missing file not named"

# Option values that cannot be meant: exit 2 before reading, nothing on stdout, a message naming
# the option and the problem.  usage PATTERN ARGS...: `lineup report ARGS -i s.data`, stderr
# must contain PATTERN (grep -F).
usage() {
	pat=$1
	shift
	expect_rc 2 "$LINEUP" report "$@" -i "$T/s.data" >"$T/out" 2>"$T/err"
	[ -s "$T/out" ] && fail "report $*: wrote to stdout on a usage error"
	grep -Fq -- "$pat" "$T/err" || fail "report $*: expected '$pat' on stderr, got: $(cat "$T/err")"
}
usage "--time: '5,1': START is after END" --time 5,1
usage "--time: '1e999,2' is not START,END in seconds" --time 1e999,2
usage "--time: 'nan,2' is not START,END" --time nan,2
usage "-c: no coalesce key given in ''" -c ''
usage "-c: no coalesce key given in ','" -c ,
usage "-c: coalesce key 'pid' given twice" -c pid,tid,pid
usage "-k: cannot use '/nonexistent': No such file or directory" -k /nonexistent
usage "-k: '$T' is not a regular file" -k "$T"
usage "--symfs: cannot use '/nonexistent': No such file or directory" --symfs /nonexistent
usage "--symfs: '$T/s.data' is not a directory" --symfs "$T/s.data"
# and the accepted forms still work
# (a filter that lets no sample through finds nothing: exit 1, said)
expect_rc 1 "$LINEUP" report --stdio --stats -i "$T/s.data" --time 5, >"$T/out" 2>"$T/err"
grep -q "no sample of $T/s.data passes --time: nothing found" "$T/err" ||
	fail "--time 5,: $(cat "$T/err")"
expect_rc 1 "$LINEUP" report --stdio -i "$T/s.data" --comm nosuch >"$T/out" 2>"$T/err"
grep -q "passes --comm: nothing found" "$T/err" || fail "--comm nosuch: $(cat "$T/err")"
"$LINEUP" report --stdio --stats -i "$T/s.data" --time 1,1 >"$T/out" || fail "--time 1,1 failed"
[ "$(total)" = 1 ] || fail "--time 1,1: expected 1 record, got $(total)"
"$LINEUP" report --stdio -i "$T/s.data" --symfs "$T" -k "$T/s.data" >/dev/null ||
	fail "an existing --symfs DIR / -k FILE was refused"
head -c 3000 "$T/s.data" >"$T/trunc.data"
must_fail "$LINEUP" report -i "$T/trunc.data" >/dev/null 2>"$T/err"
grep -q "trunc.data" "$T/err" || fail "truncated file not named"
exit 0
