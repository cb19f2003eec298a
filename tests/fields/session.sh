#!/bin/sh
# The session (sampling/session.h) under lineup fields and lineup report:
#  - time order: program A is mapped at an address, its samples taken, then program B is
#    mapped at the same address (replacing A, as a new exec or dlopen would) and its samples
#    taken; each period's samples must resolve to its own program (fields: A's struct for the
#    first period, B's for the second; report: A's and B's Shared Object), not to what is
#    mapped at the end;
#  - the filters (--time, --pid, --tid, --cpu, --comm) on fields: each changes the counts as
#    the scenario says, and as report counts with the same filter.
. "$top_srcdir/tests/lib.sh"
scratch
need gcc
need nm
need python3
MKPERF="$top_builddir/tests/tools/mkperf"
[ -x "$MKPERF" ] || fail "mkperf was not built"

# gcc -g -O0 -fPIE -pie -o a a.c;  gcc -g -O0 -fPIE -pie -o b b.c
cat >"$T/a.c" <<'EOF'
struct alpha { long a0; long a1; } alpha_var = { 1, 2 };
void touch_a(void) { alpha_var.a1++; }
int main(void) { touch_a(); return 0; }
EOF
cat >"$T/b.c" <<'EOF'
struct beta { int b0; int b1; long b2; } beta_var = { 1, 2, 3 };
int unused_b(int x) { return x * 3 + beta_var.b0; }
void touch_b(void) { beta_var.b2++; }
int main(void) { touch_b(); return 0; }
EOF
(cd "$T" && gcc -g -O0 -fPIE -pie -o a a.c && gcc -g -O0 -fPIE -pie -o b b.c) ||
	fail "cannot build the test programs"

BASE=0x555555554000
# addr PROG SYMBOL: SYMBOL's run-time address, PROG mapped at BASE (a PIE links at 0)
addr() {
	v=$(nm "$T/$1" | awk -v s="$2" '$3 == s { print $1 }')
	[ -n "$v" ] || fail "no $2 in $1"
	printf '0x%x' $((BASE + 0x$v))
}
IPA=$(addr a touch_a)
IPB=$(addr b touch_b)
ALPHA=$(addr a alpha_var)
BETA=$(addr b beta_var)

# Period 1 (1000..1400 ns): A mapped in both processes; period 2 (6000..6300 ns): B replaces A
# in process 100.  Threads: 100 and 101 of "app", 200 of "other".
cat >"$T/scenario" <<EOF
cpus 4
event load
event store
comm 100 100 app time=1
fork 100 100 101 100 time=2
comm 100 101 app time=3
comm 200 200 other time=4
mmap 100 $BASE $T/a time=10
mmap 200 $BASE $T/a time=11
sample load tid=100 cpu=0 time=1000 ip=$IPA addr=$(printf 0x%x $((ALPHA + 8))) src=LCL_HITM weight=100 repeat=10 step=10
sample store tid=101 cpu=1 time=1200 ip=$IPA addr=$(printf 0x%x $((ALPHA + 8))) src=ST_L1HIT weight=10 repeat=5 step=10
sample load tid=200 cpu=3 time=1300 ip=$IPA addr=$ALPHA src=L1 weight=20 repeat=4 step=10
mmap 100 $BASE $T/b time=5000
sample load tid=100 cpu=0 time=6000 ip=$IPB addr=$(printf 0x%x $((BETA + 8))) src=LCL_HITM weight=100 repeat=7 step=10
sample store tid=101 cpu=2 time=6200 ip=$IPB addr=$(printf 0x%x $((BETA + 8))) src=ST_L1HIT weight=10 repeat=3 step=10
EOF
"$MKPERF" -o "$T/p.data" "$T/scenario" || fail "mkperf"

# fields_counts [FILTER...]: "samples struct:member:loads:stores ..." from fields --json
fields_counts() {
	"$LINEUP" fields -i "$T/p.data" --json "$@" >"$T/f.json" 2>"$T/f.err" ||
		fail "fields $*: $(cat "$T/f.err")"
	python3 - "$T/f.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
out = [str(d["samples"])]
for s in d["structs"]:
    for m in s["members"]:
        if m["loads"] or m["stores"]:
            out.append("%s:%s:%d:%d" % (s["type"], m["member"], m["loads"], m["stores"]))
print(" ".join([out[0]] + sorted(out[1:])))
PY
}

# report_total [FILTER...]: the samples report counts with the same filter
report_total() {
	"$LINEUP" report -i "$T/p.data" --json "$@" >"$T/r.json" 2>"$T/r.err" ||
		fail "report $*: $(cat "$T/r.err")"
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["trace_event_information"]["nr_entries"])' "$T/r.json"
}

# check WANT FILTER...: fields' counts are WANT, and report counts as many samples
check() {
	want=$1
	shift
	got=$(fields_counts "$@")
	[ "$got" = "$want" ] || fail "fields $*: got '$got', want '$want'"
	n=$(report_total "$@")
	[ "$n" = "${want%% *}" ] || fail "report $* counts $n samples, fields ${want%% *}"
}

# No filter: each period's samples resolve to the program mapped at their time.
check "29 struct alpha:a0:4:0 struct alpha:a1:10:5 struct beta:b2:7:3"
check "19 struct alpha:a0:4:0 struct alpha:a1:10:5" --time ,0.000004
check "10 struct beta:b2:7:3" --time 0.000005,
check "4 struct alpha:a0:4:0" --pid 200
check "25 struct alpha:a1:10:5 struct beta:b2:7:3" --pid 100
check "8 struct alpha:a1:0:5 struct beta:b2:0:3" --tid 101
check "17 struct alpha:a1:10:0 struct beta:b2:7:0" --cpu 0
check "8 struct alpha:a1:0:5 struct beta:b2:0:3" --cpu 1-2
check "4 struct alpha:a0:4:0" --comm other
check "12 struct alpha:a1:0:5 struct beta:b2:7:0" --tid 101,100 --cpu 1,0 --time 0.0000011,0.000007
expect_rc 1 "$LINEUP" fields -i "$T/p.data" --pid 999 2>"$T/err"
grep -q "that passes the filters" "$T/err" || fail "no word of the filters: $(cat "$T/err")"

# report: the Shared Object of each period's samples is its own program.
for p in "a ,0.000004" "b 0.000005,"; do
	set -- $p
	"$LINEUP" report -i "$T/p.data" --stdio --time "$2" --pid 100 >"$T/r.txt" 2>"$T/err" ||
		fail "report --time $2: $(cat "$T/err")"
	other=b
	[ "$1" = b ] && other=a
	grep -q " touch_$1 " "$T/r.txt" || fail "report --time $2: no touch_$1: $(grep touch "$T/r.txt")"
	grep -q " touch_$other " "$T/r.txt" && fail "report --time $2 resolves to touch_$other"
done
echo "fields and report: each period resolved to its own program; 10 filters counted right"
