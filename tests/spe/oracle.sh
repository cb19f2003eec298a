#!/bin/sh
# Arm SPE: lineup report --stdio against perf c2c report --stdio on perf.data files with an Arm
# SPE AUX trace (written by mkspe as perf c2c record writes them on arm64; perf decodes SPE on
# any host), byte for byte, for every display and coalesce mode: several threads and CPUs on
# two nodes, the Neoverse data sources (peer core/cluster, remote, system cache, DRAM, L1, L2),
# stores, TLB events, a record split across two AUX buffers, several buffers and rounds per
# CPU, a tid without COMM, a queue without CONTEXT packets, a kernel PC; the generic (non-
# Neoverse) encoding from the events; a recording without TIME; one without CONTEXT packets,
# whose threads come from context switches (CPU-wide or per-task records).  perf must really decode
# the trace (non-zero records) before equality counts.
. "$top_srcdir/tests/lib.sh"
scratch
need gcc
need readelf
need nm
[ -n "${PERF:-}" ] && [ -x "$PERF" ] || skip "perf is not installed"
MKSPE="$top_builddir/tests/tools/mkspe"
[ -x "$MKSPE" ] || fail "mkspe was not built"

# The program the PCs point into (its DWARF is real): gcc -g -O0 -no-pie -o prog prog.c
cat >"$T/prog.c" <<'EOF'
#include <pthread.h>
struct stats { long hits; long misses; long pad[6]; long flags; long refs; } shared_stats;
int reader(struct stats *s) { return s->hits + s->misses; }
void writer(struct stats *s) { s->hits++; s->flags |= 1; }
static void *worker(void *a)
{
	for (int i = 0; i < 100; i++) {
		writer(&shared_stats);
		reader(&shared_stats);
	}
	return a;
}
int main(void)
{
	pthread_t t;
	pthread_create(&t, 0, worker, 0);
	worker(0);
	pthread_join(t, 0);
	return 0;
}
EOF
(cd "$T" && gcc -g -O0 -no-pie -o prog prog.c -lpthread) || fail "cannot build the test program"
# the r-x segment: vaddr, file offset, size
set -- $(readelf -lW "$T/prog" | awk '$1 == "LOAD" && $7 == "R" && $8 == "E" { print $3, $2, $6 }')
[ $# -eq 3 ] || fail "no r-x LOAD segment in prog"
TEXT=$1 PGOFF=$2 TLEN=$3
sym() { printf '0x%x' $((0x$(nm "$T/prog" | awk -v s="$1" '$3 == s { print $1 }') + $2)); }
RD=$(sym reader 8) RD2=$(sym reader 12) WR=$(sym writer 10) WR2=$(sym writer 25)

cat >"$T/a.txt" <<EOF
cpus 4 sockets=2
timeconv 1 3 0
comm 100 100 prog time=1
fork 100 100 101 100 time=2
comm 100 101 prog-worker time=3
fork 100 100 102 100 time=4
comm 100 102 prog-w2 time=4
mmap 100 $TEXT $TLEN $PGOFF $T/prog time=5
anon 100 0x7f0000000000 0x21000 time=5
# line 0x100: peer-core loads, stores from two threads, a remote socket, DRAM, L1, L2
spe 0 ip=$RD ctx=100 op=ld va=0x7f0000000100 pa=0x1100 lat=200 src=0x9 ev=0x4 ts=1000 repeat=5 step=10
spe 1 ip=$WR ctx=102 op=st va=0x7f0000000100 pa=0x1100 lat=20 ev=0x4 ts=1001 repeat=3 step=20
spe 1 ip=$WR ctx=102 op=st va=0x7f0000000100 pa=0x1100 lat=20 ev=0x34 ts=1070
aux 0
aux 1
round
spe 2 ip=$RD ctx=101 op=ld va=0x7f0000000108 pa=0x80001108 lat=350 src=0xd ev=0x4 ts=1100 repeat=4 step=7
spe 2 ip=$RD2 ctx=101 op=ld va=0x7f0000000110 pa=0x80001110 lat=410 src=0xe ev=0x14 ts=1140
spe 2 ip=$RD2 ctx=101 op=ld va=0x7f0000000110 pa=0x80001110 lat=3 src=0x0 ev=0x4 ts=1141
spe 2 ip=$RD2 ctx=101 op=ld va=0x7f0000000118 pa=0x80001118 lat=11 src=0x8 ev=0x4 ts=1142
spe 0 ip=$RD ctx=100 op=ld va=0x7f0000000100 pa=0x1100 lat=150 src=0xc ev=0x4 ts=1150 repeat=2
# a record cut across two AUX buffers of CPU 0: PC, CONTEXT, OP | EVENTS, SOURCE, LAT, VA, PA, TS
raw 0 b0$(printf '%016x' $(($RD)) | sed 's/\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)/\8\7\6\5\4\3\2\1/')6566000000004900
aux 0
raw 0 5204004309980c01b208010000007f0000b3081100000000000071d204000000000000
spe 0 ip=$WR2 ctx=100 op=st va=0x7f0000000108 pa=0x1108 lat=30 ev=0x4 ts=1240
# line 0x140: a thread without COMM, a queue without CONTEXT packets, the system cache
spe 2 ip=$WR ctx=555 op=st va=0x7f0000000140 pa=0x80001140 lat=12 ev=0x4 ts=1200
spe 3 ip=$RD op=ld va=0x7f0000000140 pa=0x1140 lat=90 src=0xa ev=0x4 ts=1300 repeat=2
spe 1 ip=$RD ctx=102 op=ld va=0x7f0000000148 pa=0x1148 lat=60 src=0xb ev=0x4 ts=1310 repeat=3
spe 1 ip=$WR2 ctx=102 op=st va=0x7f0000000148 pa=0x1148 lat=8 ev=0x4 ts=1320
# a kernel PC, a branch and an "other" operation (no memory sample)
spe 0 ip=0xffff800008123456 ctx=100 op=ld va=0x7f0000000148 pa=0x80001148 lat=40 src=0xb ev=0x14 ts=1400
spe 0 ip=$RD ctx=100 op=branch ts=1401
spe 0 ip=$RD ctx=100 op=other ts=1402
EOF

# The generic encoding (a Cortex-A72 MIDR): levels from the events packet
cat >"$T/b.txt" <<EOF
cpus 2
cpuid 0x00000000410fd080
comm 100 100 prog time=1
fork 100 100 101 100 time=2
mmap 100 $TEXT $TLEN $PGOFF $T/prog time=5
anon 100 0x7f0000000000 0x21000 time=5
spe 0 ip=$RD ctx=100 op=ld va=0x7f0000000100 pa=0x1100 lat=20 ev=0x4 ts=100 repeat=3
spe 0 ip=$RD ctx=100 op=ld va=0x7f0000000100 pa=0x1100 lat=80 ev=0xc ts=110 repeat=2
spe 1 ip=$RD ctx=101 op=ld va=0x7f0000000108 pa=0x1108 lat=300 ev=0x10c ts=120 repeat=2
spe 1 ip=$RD2 ctx=101 op=ld va=0x7f0000000108 pa=0x1108 lat=500 ev=0x60c ts=130
spe 1 ip=$WR ctx=101 op=st va=0x7f0000000100 pa=0x1100 lat=9 ev=0x4 ts=140 repeat=2
spe 0 ip=$WR ctx=100 op=st va=0x7f0000000108 pa=0x1108 lat=9 ev=0xc ts=150
spe 0 ip=$WR2 ctx=100 op=st va=0x7f0000000108 pa=0x1108 lat=9 ev=0x30 ts=160
EOF

# No TIME anywhere: perf decodes "timeless", CONTEXT packets unused
cat >"$T/c.txt" <<EOF
cpus 2
notime
comm 100 100 prog
mmap 100 $TEXT $TLEN $PGOFF $T/prog
anon 100 0x7f0000000000 0x21000
spe 0 ip=$RD ctx=100 op=ld va=0x7f0000000100 pa=0x1100 lat=20 src=0x9 ev=0x4 ts=100 repeat=3
spe 1 ip=$WR ctx=100 op=st va=0x7f0000000100 pa=0x1100 lat=9 ev=0x4 ts=140 repeat=2
EOF

# No CONTEXT packets (an unprivileged recording): the tid is the task the CPU last switched to
# (SWITCH_CPU_WIDE out), a switch at the record's own tsc included, through TIME_CONV.
cat >"$T/d.txt" <<EOF
cpus 2
timeconv 1 3 0
comm 100 100 prog time=1000
fork 100 100 101 100 time=1001
comm 100 101 prog-worker time=1002
fork 200 1 200 1 time=1003
comm 200 200 other time=1003
mmap 100 $TEXT $TLEN $PGOFF $T/prog time=1005
anon 100 0x7f0000000000 0x21000 time=1005
mmap 200 $TEXT $TLEN $PGOFF $T/prog time=1005
anon 200 0x7f0000000000 0x21000 time=1005
spe 0 ip=$RD op=ld va=0x7f0000000100 pa=0x1100 lat=210 src=0x9 ev=0x4 ts=1000
switch 0 100 100 time=3000
switch 1 100 101 time=3000
spe 0 ip=$RD op=ld va=0x7f0000000100 pa=0x1100 lat=200 src=0x9 ev=0x4 ts=2100 repeat=5
spe 1 ip=$WR op=st va=0x7f0000000100 pa=0x1100 lat=20 ev=0x4 ts=2101 repeat=3 step=20
switch 0 200 200 time=3300
switch 1 0 0 time=3450
aux 0
aux 1
round
spe 0 ip=$RD op=ld va=0x7f0000000108 pa=0x1108 lat=350 src=0xc ev=0x4 ts=2200 repeat=4 step=7
spe 1 ip=$WR2 op=st va=0x7f0000000140 pa=0x1140 lat=12 ev=0x4 ts=2350
spe 1 ip=$RD op=ld va=0x7f0000000140 pa=0x1140 lat=90 src=0xa ev=0x4 ts=2400 repeat=2
switch 1 100 101 time=4050
spe 1 ip=$RD2 op=ld va=0x7f0000000148 pa=0x1148 lat=60 src=0x9 ev=0x4 ts=2700 repeat=3
EOF

# The same with per-task SWITCH out records, whose first word perf takes for next_prev: the
# sample_id's TID (here the task written there).
sed 's/^switch /switchout /' "$T/d.txt" >"$T/e.txt"

n=0
for s in a b c d e; do
	"$MKSPE" -o "$T/$s.data" "$T/$s.txt" || fail "mkspe $s.txt"
	"$PERF" c2c report --stdio -i "$T/$s.data" >"$T/$s.perf" 2>"$T/$s.perf.err" ||
		fail "perf c2c report failed on $s: $(cat "$T/$s.perf.err")"
	recs=$(awk '/Total records/ { print $4 }' "$T/$s.perf")
	[ -n "$recs" ] && [ "$recs" -gt 0 ] || fail "perf decoded no SPE records in $s"
	for opt in "" "-d tot" "-d lcl" "-d rmt" "-d peer" "-c tid" "-c pid,iaddr" "-c dso" \
		"-N" "-NN" "--show-all" "--stats" "--no-source"; do
		# shellcheck disable=SC2086
		"$PERF" c2c report --stdio -i "$T/$s.data" $opt >"$T/p.txt" 2>/dev/null ||
			fail "perf c2c report $opt on $s"
		# shellcheck disable=SC2086
		"$LINEUP" report --stdio -i "$T/$s.data" $opt >"$T/l.txt" ||
			fail "lineup report $opt on $s failed"
		diff -u "$T/p.txt" "$T/l.txt" >"$T/diff" ||
			fail "$s.txt, report $opt: lineup differs from perf c2c:
$(head -40 "$T/diff")"
		n=$((n + 1))
	done
	# the decoded-sample path (--json) counts the same records
	j=$("$LINEUP" report --json -i "$T/$s.data" | sed -n 's/.*"trace_event_information": {"nr_entries": \([0-9]*\).*/\1/p')
	[ "$j" = "$recs" ] || fail "$s: --json counts $j records, perf $recs"
done
# Pipe mode (perf c2c report cannot read one: "Failed setup nodes"): lineup reads the trace of
# `mkspe -o -` with perf's numbers for the same scenario in a file, event names included (the
# writer sends them in EVENT_UPDATE records, as perf record does, and perf reads them).  A file-mode perf.data through a pipe has its CPUID after the data:
# refused, not decoded with the wrong data source encoding.
grep -v '^aux\|^round' "$T/a.txt" >"$T/ap.txt"
"$MKSPE" -o "$T/ap.data" "$T/ap.txt" || fail "mkspe ap.txt"
"$MKSPE" -o - "$T/ap.txt" >"$T/ap.pipe" || fail "mkspe -o - ap.txt"
"$PERF" c2c report --stdio -i "$T/ap.data" 2>/dev/null >"$T/p.txt" ||
	fail "perf c2c report on ap.data"
grep -q '^  Events' "$T/p.txt" || fail "perf c2c report on ap.data: no Events line"
cat "$T/ap.pipe" | "$LINEUP" report --stdio -i - >"$T/l.txt" || fail "lineup report on a pipe"
diff -u "$T/p.txt" "$T/l.txt" >"$T/diff" ||
	fail "pipe mode differs from perf on the file: $(head -30 "$T/diff")"
"$PERF" report -D -i - <"$T/ap.pipe" 2>/dev/null | grep -A2 'PERF_RECORD_EVENT_UPDATE' |
	grep -q '\.\.\. name: *arm_spe_0/' || fail "perf reads no SPE event name from the pipe"
cat "$T/ap.data" | expect_rc 2 "$LINEUP" report --stdio -i - >/dev/null 2>"$T/err"
grep -q "<stdin>: at byte [0-9]* (0x[0-9a-f]*): an Arm SPE trace in a file-mode perf.data read through a pipe" \
	"$T/err" || fail "file mode through a pipe: $(cat "$T/err")"

# the scenario really covers what it says: the split record and the peer lines were decoded
grep -q "Total records *: *28$" "$T/a.perf" || fail "scenario a: $(grep 'Total records' "$T/a.perf")"
grep -q 'reader' "$T/a.perf" || fail "perf resolved no symbol in scenario a"
grep -q "Load HIT Remote Peer *: *[1-9]" "$T/a.perf" || fail "no remote peer loads in scenario a"
grep -q "Loads - Miss *: *[1-9]" "$T/b.perf" || fail "no LLC misses in scenario b"
"$PERF" c2c report --stdio -c tid -i "$T/d.data" 2>/dev/null >"$T/d.tid"
for t in 100:prog 101:prog-worker 200:other 0:swapper; do
	grep -q " $t " "$T/d.tid" || fail "scenario d: perf shows no $t: $(cat "$T/d.tid")"
done
echo "ok: $n outputs identical to perf c2c report"
