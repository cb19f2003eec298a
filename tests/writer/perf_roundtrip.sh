#!/bin/sh
# Oracle test of the perf.data writer: files written by lineup's writer (through mkperf) are
# read back by perf 6.1 itself, and every value perf shows must be the one written: every
# sample_type field in kernel order, every record kind, the header features, build-ids.
. "$top_srcdir/tests/lib.sh"
need "${PERF:-perf}"
PERF=${PERF:-perf}
MKPERF=$top_builddir/tests/tools/mkperf
scratch

# A small program with real symbols (its build-id and addresses are checked below).
cat > "$T/prog.c" <<'EOF'
struct s { long a, b; } shared;
void writer(void) { shared.a++; }
void reader(void) { (void)*(volatile long *)&shared.b; }
int main(void) { writer(); reader(); return 0; }
EOF
${CC:-cc} -g -O1 -Wl,--build-id -o "$T/prog" "$T/prog.c" || fail "cannot build the test program"

# Compare $2 (file) with the expected text on stdin; print a diff on mismatch.
check_text() {
	cat > "$T/expected"
	diff -u "$T/expected" "$2" > "$T/diff" || { cat "$T/diff" >&2; fail "$1"; }
}

# ---- 1. every sample_type field ------------------------------------------------------
cat > "$T/all.txt" <<'EOF'
cpus 2
event everything type=1 config=9 sample_type=IDENTIFIER,IP,TID,TIME,ADDR,READ,CALLCHAIN,ID,CPU,PERIOD,STREAM_ID,RAW,BRANCH_STACK,REGS_USER,STACK_USER,WEIGHT_STRUCT,DATA_SRC,TRANSACTION,REGS_INTR,PHYS_ADDR,CGROUP,DATA_PAGE_SIZE,CODE_PAGE_SIZE read_format=TOTAL_TIME_ENABLED,TOTAL_TIME_RUNNING,ID branch_type=HW_INDEX regs_user=0x3 regs_intr=0x5 stack_user=16
comm 7 7 worker
sample everything tid=7 cpu=1 time=123456789 ip=0x401234 addr=0xdead000 period=77 stream_id=55 read=1000,2000,3000,1 callchain=0xfffffffffffffe00,0x401234,0x401000 raw=0102030405 branch=0x401000:0x401100:0,0x401200:0x401300:0 hw_idx=5 regs_user=2,11,12 regs_intr=2,21,22 stack=00112233445566778899aabbccddeeff dyn_size=8 weight=321 ins_lat=7 retire_lat=9 data_src=0x68100142 transaction=0x3 phys=0xabc000 cgroup=42 page=4096 code_page=2097152
EOF
"$MKPERF" -o "$T/all.data" "$T/all.txt" || fail "mkperf all.txt"
"$PERF" script -D -i "$T/all.data" > "$T/dump" 2>&1 || fail "perf script -D failed on the writer's file"
# The raw bytes perf read (kernel order: identifier, ip, pid/tid, time, addr, id, stream_id,
# cpu, period, read{value,enabled,running,id}, callchain, raw (size 12: 5 bytes padded to
# 8-byte alignment), branch stack with hw_idx, user regs, user stack + dyn size, weight
# struct {321, 7, 9}, data_src, transaction, intr regs, phys_addr, cgroup, page sizes), then
# perf's own decoding of each field.
sed -n '/raw event: size 360/,/^$/p' "$T/dump" | sed -n '2,$p' | sed '/^$/d' > "$T/got"
check_text "raw bytes of the all-fields sample" "$T/got" <<'EOF'
.  0000:  09 00 00 00 02 00 68 01 01 00 00 00 00 00 00 00  ......h.........
.  0010:  34 12 40 00 00 00 00 00 07 00 00 00 07 00 00 00  4.@.............
.  0020:  15 cd 5b 07 00 00 00 00 00 d0 ea 0d 00 00 00 00  ..[.............
.  0030:  01 00 00 00 00 00 00 00 37 00 00 00 00 00 00 00  ........7.......
.  0040:  01 00 00 00 00 00 00 00 4d 00 00 00 00 00 00 00  ........M.......
.  0050:  e8 03 00 00 00 00 00 00 d0 07 00 00 00 00 00 00  ................
.  0060:  b8 0b 00 00 00 00 00 00 01 00 00 00 00 00 00 00  ................
.  0070:  03 00 00 00 00 00 00 00 00 fe ff ff ff ff ff ff  ................
.  0080:  34 12 40 00 00 00 00 00 00 10 40 00 00 00 00 00  4.@.......@.....
.  0090:  0c 00 00 00 01 02 03 04 05 00 00 00 00 00 00 00  ................
.  00a0:  02 00 00 00 00 00 00 00 05 00 00 00 00 00 00 00  ................
.  00b0:  00 10 40 00 00 00 00 00 00 11 40 00 00 00 00 00  ..@.......@.....
.  00c0:  00 00 00 00 00 00 00 00 00 12 40 00 00 00 00 00  ..........@.....
.  00d0:  00 13 40 00 00 00 00 00 00 00 00 00 00 00 00 00  ..@.............
.  00e0:  02 00 00 00 00 00 00 00 0b 00 00 00 00 00 00 00  ................
.  00f0:  0c 00 00 00 00 00 00 00 10 00 00 00 00 00 00 00  ................
.  0100:  00 11 22 33 44 55 66 77 88 99 aa bb cc dd ee ff  .."3DUfw........
.  0110:  08 00 00 00 00 00 00 00 41 01 00 00 07 00 09 00  ........A.......
.  0120:  42 01 10 68 00 00 00 00 03 00 00 00 00 00 00 00  B..h............
.  0130:  02 00 00 00 00 00 00 00 15 00 00 00 00 00 00 00  ................
.  0140:  16 00 00 00 00 00 00 00 00 c0 ab 00 00 00 00 00  ................
.  0150:  2a 00 00 00 00 00 00 00 00 10 00 00 00 00 00 00  *...............
.  0160:  00 00 20 00 00 00 00 00                          .. .....        
EOF
sed -n '/PERF_RECORD_SAMPLE/,/value /p' "$T/dump" > "$T/got"
check_text "perf's decoding of the all-fields sample" "$T/got" <<'EOF'
1 123456789 0xb0 [0x168]: PERF_RECORD_SAMPLE(IP, 0x2): 7/7: 0x401234 period: 77 addr: 0xdead000
... FP chain: nr:3
.....  0: fffffffffffffe00
.....  1: 0000000000401234
.....  2: 0000000000401000
... branch stack: nr:2
.....  0: 0000000000401000 -> 0000000000401100 0 cycles      0 
.....  1: 0000000000401200 -> 0000000000401300 0 cycles      0 
... user regs: mask 0x3 ABI 64-bit
.... AX    0x000000000000000b
.... BX    0x000000000000000c
... intr regs: mask 0x5 ABI 64-bit
.... AX    0x0000000000000015
.... CX    0x0000000000000016
... ustack: size 8, offset 0xf8
... weight: 321,0x7,0x0
 . data_src: 0x68100142
 .. phys_addr: 0xabc000
 .. data page size: 4K
 .. code page size: 2M
... transaction: 3
... sample_read:
...... time enabled 00000000000007d0
...... time running 0000000000000bb8
..... id 0000000000000001, value 00000000000003e8
EOF
"$PERF" evlist -v -i "$T/all.data" > "$T/got" 2>&1 || fail "perf evlist -v"
check_text "perf evlist -v" "$T/got" <<'EOF'
everything: type: 1, size: 128, config: 0x9, { sample_period, sample_freq }: 1, sample_type: IP|TID|TIME|ADDR|READ|CALLCHAIN|ID|CPU|PERIOD|STREAM_ID|RAW|BRANCH_STACK|REGS_USER|STACK_USER|IDENTIFIER|REGS_INTR|DATA_SRC|PHYS_ADDR|CGROUP|DATA_PAGE_SIZE|CODE_PAGE_SIZE|WEIGHT_STRUCT, read_format: TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|ID, mmap: 1, comm: 1, task: 1, mmap_data: 1, sample_id_all: 1, mmap2: 1, comm_exec: 1, branch_sample_type: USER|HW_INDEX, sample_regs_user: 0x3, sample_stack_user: 16, sample_regs_intr: 0x5
EOF

# ---- 2. every record kind, with sample_id_all trailers ---------------------------------
cat > "$T/rec.txt" <<EOF
cpus 2
event page-faults sample_type=IP,TID,TIME,ADDR,CPU,PERIOD
comm 50 50 parent time=100
mmap 50 auto $T/prog time=110
fork 50 50 51 50 time=200
comm 50 51 child time=210 exec=1
anon 50 0x7f0000000000 0x10000 tid=51 time=230
sample page-faults tid=51 cpu=1 time=300 ip=writer addr=0x7f0000000010 period=3
sample page-faults tid=51 cpu=0 time=310 ip=reader+4 addr=0x7f0000000018 period=4
round
lost 5
exit 50 50 51 50 time=400
EOF
"$MKPERF" -o "$T/rec.data" "$T/rec.txt" || fail "mkperf rec.txt"
"$PERF" script -i "$T/rec.data" --show-task-events --show-mmap-events --show-lost-events \
	--show-round-events -F comm,tid,cpu,time,event,ip,sym,symoff,addr,period --ns \
	2>&1 | grep -v 'PERF_RECORD_MMAP2 50/50' > "$T/got"
reader=$(nm "$T/prog" | awk '$3 == "reader" { print $1 }' | sed 's/^0*//')
writer=$(nm "$T/prog" | awk '$3 == "writer" { print $1 }' | sed 's/^0*//')
# PIE mapped at 0x555555554000 by `mmap ... auto`
ip_w=$(printf '%x' $((0x555555554000 + 0x$writer)))
ip_r=$(printf '%x' $((0x555555554000 + 0x$reader + 4)))
check_text "perf script of every record kind" "$T/got" <<EOF
          parent    50 [000]     0.000000100: PERF_RECORD_COMM: parent:50/50
          parent    51 [000]     0.000000200: PERF_RECORD_FORK(50:51):(50:50)
           child    51 [000]     0.000000210: PERF_RECORD_COMM exec: child:50/51
           child    51 [000]     0.000000230: PERF_RECORD_MMAP2 50/51: [0x7f0000000000(0x10000) @ 0 00:00 0 0]: rw-p //anon
           child    51 [001]     0.000000300:          3 page-faults:     7f0000000010     $ip_w writer+0x0
           child    51 [000]     0.000000310:          4 page-faults:     7f0000000018     $ip_r reader+0x4
PERF_RECORD_FINISHED_ROUND
           child    51 [000]     0.000000311: PERF_RECORD_LOST lost 5
           child    51 [000]     0.000000400: PERF_RECORD_EXIT(50:51):(50:50)
EOF
# One MMAP2 per PT_LOAD segment, with the build-id of the file.
nload=$(readelf -lW "$T/prog" | grep -c '^ *LOAD')
nmmap=$("$PERF" script -i "$T/rec.data" --show-mmap-events 2>&1 | grep -c "PERF_RECORD_MMAP2 50/50:.*$T/prog")
[ "$nmmap" -eq "$nload" ] || fail "expected $nload MMAP2 records for the PT_LOAD segments, got $nmmap"
bid=$(readelf -n "$T/prog" | awk '/Build ID/ { print $3 }')
"$PERF" buildid-list -i "$T/rec.data" > "$T/got" 2>&1
check_text "perf buildid-list" "$T/got" <<EOF
$bid $T/prog
EOF
"$PERF" report -i "$T/rec.data" --stats 2>&1 | grep 'events:' > "$T/got"
check_text "perf report --stats" "$T/got" <<'EOF'
           TOTAL events:         13
            LOST events:          1  ( 7.7%)
            COMM events:          2  (15.4%)
            EXIT events:          1  ( 7.7%)
            FORK events:          1  ( 7.7%)
          SAMPLE events:          2  (15.4%)
           MMAP2 events:          5  (38.5%)
  FINISHED_ROUND events:          1  ( 7.7%)
          SAMPLE events:          2
EOF

# ---- 3. the header features perf c2c and lineup read --------------------------------
cat > "$T/hdr.txt" <<EOF
cpus 8 sockets=2 smt=2
node 0 0-3
node 1 4-7
cacheline 128
hostname box1
osrelease 6.1.0-test
cpudesc Test CPU @ 3.00GHz
cpuid GenuineIntel,6,106,6
cmdline perf c2c record -- ./prog
event load
event store
comm 100 100 prog
sample load tid=100 cpu=5 time=5000 ip=0x1000 addr=0x2000 src=L1 phys=0x90000000
sample store tid=100 cpu=6 time=9000 ip=0x1000 addr=0x2000 src=ST_L1HIT
EOF
"$MKPERF" -o "$T/hdr.data" "$T/hdr.txt" || fail "mkperf hdr.txt"
"$PERF" report -i "$T/hdr.data" --header-only -I 2>&1 |
	grep -v '^# captured on\|^# data offset\|^# data size\|^# feat offset\|^# event :' > "$T/got"
check_text "perf report --header-only -I" "$T/got" <<'EOF'
# ========
# header version : 1
# hostname : box1
# os release : 6.1.0-test
# perf version : 6.1
# arch : x86_64
# nrcpus online : 8
# nrcpus avail : 8
# cpudesc : Test CPU @ 3.00GHz
# cpuid : GenuineIntel,6,106,6
# total memory : 16777216 kB
# cmdline : perf c2c record -- ./prog 
# sibling sockets : 0-3
# sibling sockets : 4-7
# sibling dies    : 0-3
# sibling dies    : 4-7
# sibling threads : 0-1
# sibling threads : 2-3
# sibling threads : 4-5
# sibling threads : 6-7
# CPU 0: Core ID 0, Die ID 0, Socket ID 0
# CPU 1: Core ID 0, Die ID 0, Socket ID 0
# CPU 2: Core ID 1, Die ID 0, Socket ID 0
# CPU 3: Core ID 1, Die ID 0, Socket ID 0
# CPU 4: Core ID 0, Die ID 0, Socket ID 1
# CPU 5: Core ID 0, Die ID 0, Socket ID 1
# CPU 6: Core ID 1, Die ID 0, Socket ID 1
# CPU 7: Core ID 1, Die ID 0, Socket ID 1
# node0 meminfo  : total = 8388608 kB, free = 4194304 kB
# node0 cpu list : 0-3
# node1 meminfo  : total = 8388608 kB, free = 4194304 kB
# node1 cpu list : 4-7
# CPU cache info:
#  L1 Data                 48K [0-1]
#  L1 Instruction          32K [0-1]
#  L2 Unified            2048K [0-1]
#  L3 Unified              32M [0-3]
# time of first sample : 0.000005
# time of last sample : 0.000009
# sample duration :      0.004 ms
# memory nodes (nr 2, block size 0x8000000):
#    0 [2G]: 0-15
#    1 [2G]: 16-31
# missing features: TRACING_DATA BUILD_ID BRANCH_STACK PMU_MAPPINGS GROUP_DESC AUXTRACE STAT CLOCKID DIR_FORMAT BPF_PROG_INFO BPF_BTF COMPRESSED CPU_PMU_CAPS CLOCK_DATA HYBRID_TOPOLOGY PMU_CAPS 
# ========
#
EOF
"$PERF" report -i "$T/hdr.data" --header-only 2>&1 | grep '^# event :' > "$T/got"
check_text "EVENT_DESC: names, ids, attrs" "$T/got" <<'EOF'
# event : name = cpu/mem-loads,ldlat=30/P, , id = { 1 }, type = 4, size = 128, config = 0x1cd, { sample_period, sample_freq } = 1, sample_type = IP|TID|TIME|ADDR|CPU|PERIOD|IDENTIFIER|DATA_SRC|WEIGHT|PHYS_ADDR, mmap = 1, comm = 1, task = 1, precise_ip = 2, mmap_data = 1, sample_id_all = 1, mmap2 = 1, comm_exec = 1, { bp_addr, config1 } = 0x1e
# event : name = cpu/mem-stores/P, , id = { 2 }, type = 4, size = 128, config = 0x82d0, { sample_period, sample_freq } = 1, sample_type = IP|TID|TIME|ADDR|CPU|PERIOD|IDENTIFIER|DATA_SRC|WEIGHT|PHYS_ADDR, mmap = 1, comm = 1, task = 1, precise_ip = 2, mmap_data = 1, sample_id_all = 1, mmap2 = 1, comm_exec = 1
EOF
"$PERF" script -i "$T/hdr.data" -F event,tid,cpu,time,addr,phys_addr,data_src --ns > "$T/got" 2>&1
check_text "perf script of the c2c-style samples" "$T/got" <<'EOF'
  100 [005]     0.000005000: cpu/mem-loads,ldlat=30/P:             2000     10205100142 |OP LOAD|LVL L1 or L1 hit|SNP None|TLB N/A|LCK N/A|BLK  N/A        90000000
  100 [006]     0.000009000:         cpu/mem-stores/P:             2000     10205080144 |OP STORE|LVL L1 or L1 hit|SNP N/A|TLB N/A|LCK N/A|BLK  N/A               0
EOF

# ---- 4. pipe mode: the same scenarios written to a pipe read the same -------------------
for sc in all rec hdr; do
	"$MKPERF" -o - "$T/$sc.txt" > "$T/$sc.pipe" || fail "mkperf -o - $sc.txt"
done
args="--show-task-events --show-mmap-events --show-lost-events -F comm,tid,cpu,time,event,ip,sym,symoff,addr,period --ns"
# shellcheck disable=SC2086
"$PERF" script -i "$T/rec.data" $args 2>&1 | grep -v FINISHED_ROUND > "$T/file.out"
# shellcheck disable=SC2086
"$PERF" script -i - $args < "$T/rec.pipe" 2>&1 | grep -v FINISHED_ROUND > "$T/pipe.out"
grep -q page-faults "$T/pipe.out" || fail "perf script -i - read no sample from the pipe"
diff -u "$T/file.out" "$T/pipe.out" || fail "pipe mode reads differently from file mode"
"$PERF" script -i - -F event,tid,cpu,time,addr,phys_addr,data_src --ns < "$T/hdr.pipe" > "$T/got" 2>&1
"$PERF" script -i "$T/hdr.data" -F event,tid,cpu,time,addr,phys_addr,data_src --ns > "$T/expected" 2>&1
diff -u "$T/expected" "$T/got" || fail "pipe mode: event names (EVENT_DESC) or samples differ"
"$PERF" report -i - --header-only < "$T/hdr.pipe" 2>&1 |
	grep -E '^# (hostname|cmdline|nrcpus avail|event) ' > "$T/got"
grep -E '^# (hostname|cmdline|nrcpus avail|event) ' > "$T/expected" <<EOF
$("$PERF" report -i "$T/hdr.data" --header-only 2>&1)
EOF
diff -u "$T/expected" "$T/got" || fail "pipe mode: header features differ"
"$PERF" script -D -i - < "$T/all.pipe" 2>/dev/null | sed -n '/PERF_RECORD_SAMPLE/,/value /p' > "$T/got"
"$PERF" script -D -i "$T/all.data" 2>/dev/null | sed -n '/PERF_RECORD_SAMPLE/,/value /p' |
	sed 's/^1 123456789 0x[0-9a-f]* /1 123456789 OFF /' > "$T/expected"
sed -i 's/^1 123456789 0x[0-9a-f]* /1 123456789 OFF /' "$T/got"
diff -u "$T/expected" "$T/got" || fail "pipe mode: the all-fields sample decodes differently"

# ---- 5. bad scenarios: exit 2 and the line that is wrong --------------------------------
bad() {	# bad EXPECTED-MESSAGE SCENARIO-TEXT
	printf '%b' "$2" > "$T/bad.txt"
	expect_rc 2 "$MKPERF" -o "$T/bad.data" "$T/bad.txt" 2> "$T/err"
	grep -qF "$1" "$T/err" || fail "expected '$1', got: $(cat "$T/err")"
}
bad "bad.txt:2: unknown directive 'bogus'" 'cpus 4\nbogus 1\n'
bad "bad.txt:2: unknown data_src class 'NOPE'" 'event load\nsample load src=NOPE\n'
bad "bad.txt:2: ip: no symbol 'nosuchsym'" 'comm 1 1 x\nsample load ip=nosuchsym\n'
bad "bad.txt:1: addr: '12x' is not a number" 'sample load addr=12x\n'
bad "bad.txt:1: /etc/passwd is not an ELF file" 'mmap 1 auto /etc/passwd\n'
bad "bad.txt:3: event b: with several events each must carry its id at the same place" \
	'event a sample_type=IP,TID\nevent b sample_type=IP,TID\nsample a\n'
exit 0
