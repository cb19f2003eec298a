#!/bin/sh
# perf c2c report accepts the writer's files, and each mkperf data_src class lands in the perf
# c2c counter that `mkperf --classes` says it does.  Also the Node and PA cnt columns, which
# need the NUMA and CPU topology, the memory topology and PHYS_ADDR.
. "$top_srcdir/tests/lib.sh"
need "${PERF:-perf}"
PERF=${PERF:-perf}
MKPERF=$top_builddir/tests/tools/mkperf
scratch

cat > "$T/prog.c" <<'EOF'
struct s { long a, b; } shared;
void writer(void) { shared.a++; }
void reader(void) { (void)*(volatile long *)&shared.b; }
int main(void) { writer(); reader(); return 0; }
EOF
${CC:-cc} -g -O1 -o "$T/prog" "$T/prog.c" || fail "cannot build the test program"

{
	echo "cpus 4 sockets=2"
	echo "event load"
	echo "event store"
	echo "comm 100 100 prog"
	echo "mmap 100 auto $T/prog"
	echo "anon 100 0x7f0000000000 0x100000"
	i=0
	for c in L1 LFB L2 LLC LCL_HITM RMT_HITM RMT_HIT LCL_DRAM LCL_DRAM_SHARED RMT_DRAM \
		RMT_DRAM_SHARED LCL_PEER LCL_PEER_LLC RMT_PEER LLC_MISS UNCACHED IO LOAD_NA \
		L1+LOCKED L1+BLK_DATA L1+BLK_ADDR L1+TLB_MISS; do
		i=$((i + 1))
		echo "sample load tid=100 cpu=0 ip=reader addr=$((0x7f0000000000 + i * 64)) src=$c weight=$((i * 10))"
	done
	for c in ST_L1HIT ST_L1MISS ST_NA ST_UNCACHED; do
		i=$((i + 1))
		echo "sample store tid=100 cpu=1 ip=writer addr=$((0x7f0000000000 + i * 64)) src=$c"
	done
	echo "sample load tid=100 ip=reader addr=0 src=L1"		# no address
	echo "sample store tid=100 ip=writer addr=0 src=ST_L1HIT"	# no address
	echo "sample load tid=100 ip=reader addr=0x7f0000000008 src=NOPARSE"
	echo "sample load tid=100 ip=reader addr=0x1000 src=L1"	# no map: rejected
} > "$T/cls.txt"
"$MKPERF" -o "$T/cls.data" "$T/cls.txt" || fail "mkperf"
"$PERF" c2c report -i "$T/cls.data" --stdio --stats > "$T/out" 2>&1 || fail "perf c2c report refused the file"
sed -n '/Total records/,/Unable to parse/p' "$T/out" > "$T/got"
cat > "$T/expected" <<'EOF'
  Total records                     :         30
  Locked Load/Store Operations      :          1
  Load Operations                   :         24
  Loads - uncacheable               :          1
  Loads - IO                        :          1
  Loads - Miss                      :          1
  Loads - no mapping                :          1
  Load Fill Buffer Hit              :          1
  Load L1D hit                      :          6
  Load L2D hit                      :          2
  Load LLC hit                      :          3
  Load Local HITM                   :          1
  Load Remote HITM                  :          1
  Load Remote HIT                   :          2
  Load Local DRAM                   :          2
  Load Remote DRAM                  :          2
  Load MESI State Exclusive         :          2
  Load MESI State Shared            :          2
  Load LLC Misses                   :          7
  Load access blocked by data       :          1
  Load access blocked by address    :          1
  Load HIT Local Peer               :          2
  Load HIT Remote Peer              :          1
  LLC Misses to Local DRAM          :       28.6%
  LLC Misses to Remote DRAM         :       28.6%
  LLC Misses to Remote cache (HIT)  :       28.6%
  LLC Misses to Remote cache (HITM) :       14.3%
  Store Operations                  :          5
  Store - uncacheable               :          1
  Store - no mapping                :          1
  Store L1D Hit                     :          1
  Store L1D Miss                    :          1
  Store No available memory level   :          1
  No Page Map Rejects               :          1
  Unable to parse data source       :          1
EOF
diff -u "$T/expected" "$T/got" || fail "perf c2c counters of the mkperf classes"

# Two threads on two nodes hitting a global of the program and a heap line: the cache line
# table's Node and PA cnt come from PHYS_ADDR through the MEM_TOPOLOGY/NUMA features.
cat > "$T/sc.txt" <<EOF
cpus 4 sockets=2
event load
event store
comm 100 100 prog
fork 100 100 101 100
mmap 100 auto $T/prog
anon 100 0x7f0000000000 0x21000
sample load tid=100 cpu=0 ip=reader addr=shared+8 src=LCL_HITM weight=200 phys=0x1000
sample store tid=101 cpu=2 ip=writer addr=shared src=ST_L1HIT weight=10 phys=0x80000000
sample load tid=101 cpu=2 ip=reader addr=0x7f0000000040 src=RMT_HITM weight=300 phys=0x80001000 repeat=3
EOF
"$MKPERF" -o "$T/sc.data" "$T/sc.txt" || fail "mkperf"
"$PERF" c2c report -i "$T/sc.data" --stdio > "$T/out" 2>&1 || fail "perf c2c report"
shared=$(nm "$T/prog" | awk '$3 == "shared" { print $1 }')
line=$(printf '0x%x' $(((0x555555554000 + 0x$shared) & ~63)))
sed -n '/Shared Data Cache Line Table/,/Shared Cache Line Distribution/p' "$T/out" |
	grep '^ *[0-9]' | awk '{ print $1, $2, $3, $4, $5, $6, $7, $8 }' > "$T/got"
cat > "$T/expected" <<EOF
0 0x7f0000000040 1 1 75.00% 3 0 3
1 $line 0-1 2 25.00% 1 1 0
EOF
diff -u "$T/expected" "$T/got" || fail "perf c2c cache line table (Node, PA cnt, HITMs)"
grep -q '\[\.\] reader  prog  prog.c:3' "$T/out" || fail "perf c2c did not resolve reader to prog.c:3"

# The same recording with the writer's perf_writer__add_c2c_events (perf c2c record's events).
sed 's/^event load$/c2c_events 50/; /^event store$/d' "$T/sc.txt" > "$T/sc2.txt"
"$MKPERF" -o "$T/sc2.data" "$T/sc2.txt" || fail "mkperf c2c_events"
"$PERF" evlist -v -i "$T/sc2.data" > "$T/got" 2>&1
cat > "$T/expected" <<'EOF'
cpu/mem-loads,ldlat=50/P: type: 4, size: 128, config: 0x1cd, { sample_period, sample_freq }: 1, sample_type: IP|TID|TIME|ADDR|CPU|PERIOD|IDENTIFIER|DATA_SRC|WEIGHT|PHYS_ADDR, mmap: 1, comm: 1, task: 1, precise_ip: 2, mmap_data: 1, sample_id_all: 1, mmap2: 1, comm_exec: 1, { bp_addr, config1 }: 0x32
cpu/mem-stores/P: type: 4, size: 128, config: 0x82d0, { sample_period, sample_freq }: 1, sample_type: IP|TID|TIME|ADDR|CPU|PERIOD|IDENTIFIER|DATA_SRC|WEIGHT|PHYS_ADDR, precise_ip: 2, sample_id_all: 1
EOF
diff -u "$T/expected" "$T/got" || fail "perf_writer__add_c2c_events attrs"
"$PERF" c2c report -i "$T/sc2.data" --stdio > "$T/out" 2>&1 || fail "perf c2c report (c2c_events)"
sed -n '/Shared Data Cache Line Table/,/Shared Cache Line Distribution/p' "$T/out" |
	grep '^ *[0-9]' | awk '{ print $1, $2, $3, $4, $5, $6, $7, $8 }' > "$T/got"
cat > "$T/expected" <<EOF
0 0x7f0000000040 1 1 75.00% 3 0 3
1 $line 0-1 2 25.00% 1 1 0
EOF
diff -u "$T/expected" "$T/got" || fail "perf c2c cache line table (c2c_events)"
exit 0
