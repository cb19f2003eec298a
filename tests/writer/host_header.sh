#!/bin/sh
# perf_writer__fill_host reads the topology, NUMA, cache and memory-block facts from a sysfs
# tree (here a fake one: 4 CPUs, 2 packages, SMT pairs, 2 nodes, 64-byte lines) and perf shows
# exactly those facts in the header it reads back.
. "$top_srcdir/tests/lib.sh"
need "${PERF:-perf}"
PERF=${PERF:-perf}
MKPERF=$top_builddir/tests/tools/mkperf
scratch

S=$T/sys
for c in 0 1 2 3; do
	d=$S/devices/system/cpu/cpu$c
	mkdir -p "$d/topology"
	pkg=$((c / 2))
	echo "$((pkg * 2))-$((pkg * 2 + 1))" > "$d/topology/package_cpus_list"
	echo "$((pkg * 2))-$((pkg * 2 + 1))" > "$d/topology/die_cpus_list"
	echo "$c" > "$d/topology/core_cpus_list"
	echo "$((c % 2))" > "$d/topology/core_id"
	echo "$pkg" > "$d/topology/physical_package_id"
	echo 0 > "$d/topology/die_id"
	i=0
	for spec in "1 Data 48K $c" "1 Instruction 32K $c" "2 Unified 1280K $c" \
		"3 Unified 30M $((pkg * 2))-$((pkg * 2 + 1))"; do
		set -- $spec
		mkdir -p "$d/cache/index$i"
		echo "$1" > "$d/cache/index$i/level"
		echo "$2" > "$d/cache/index$i/type"
		echo "$3" > "$d/cache/index$i/size"
		echo "$4" > "$d/cache/index$i/shared_cpu_list"
		echo 64 > "$d/cache/index$i/coherency_line_size"
		echo 64 > "$d/cache/index$i/number_of_sets"
		echo 12 > "$d/cache/index$i/ways_of_associativity"
		i=$((i + 1))
	done
done
for n in 0 1; do
	d=$S/devices/system/node/node$n
	mkdir -p "$d"
	echo "$((n * 2))-$((n * 2 + 1))" > "$d/cpulist"
	printf 'Node %d MemTotal:       %d kB\nNode %d MemFree:        %d kB\n' \
		$n $((1000000 + n)) $n $((500000 + n)) > "$d/meminfo"
	for b in 0 1 2 3; do
		mkdir -p "$d/memory$((n * 4 + b))"
	done
done
mkdir -p "$S/devices/system/memory"
echo 8000000 > "$S/devices/system/memory/block_size_bytes"

printf 'host\nevent load\nsample load addr=0x1000 src=L1\n' > "$T/h.txt"
LINEUP_SYSFS=$S "$MKPERF" -o "$T/h.data" "$T/h.txt" || fail "mkperf with the fake sysfs"
"$PERF" report -i "$T/h.data" --header-only -I 2>&1 |
	sed -n '/nrcpus avail/p;/sibling/p;/^# CPU [0-9]/p;/^# node/p;/^#  L[0-9]/p;/memory nodes/,/^#    1/p' \
	> "$T/got"
cat > "$T/expected" <<'EOF'
# nrcpus avail : 4
# sibling sockets : 0-1
# sibling sockets : 2-3
# sibling dies    : 0-1
# sibling dies    : 2-3
# sibling threads : 0
# sibling threads : 1
# sibling threads : 2
# sibling threads : 3
# CPU 0: Core ID 0, Die ID 0, Socket ID 0
# CPU 1: Core ID 1, Die ID 0, Socket ID 0
# CPU 2: Core ID 0, Die ID 0, Socket ID 1
# CPU 3: Core ID 1, Die ID 0, Socket ID 1
# node0 meminfo  : total = 1000000 kB, free = 500000 kB
# node0 cpu list : 0-1
# node1 meminfo  : total = 1000001 kB, free = 500001 kB
# node1 cpu list : 2-3
#  L1 Data                 48K [0]
#  L1 Instruction          32K [0]
#  L1 Data                 48K [1]
#  L1 Instruction          32K [1]
#  L1 Data                 48K [2]
#  L1 Instruction          32K [2]
#  L1 Data                 48K [3]
#  L1 Instruction          32K [3]
#  L2 Unified            1280K [0]
#  L2 Unified            1280K [1]
#  L2 Unified            1280K [2]
#  L2 Unified            1280K [3]
#  L3 Unified              30M [0-1]
#  L3 Unified              30M [2-3]
# memory nodes (nr 2, block size 0x8000000):
#    0 [512M]: 0-3
#    1 [512M]: 4-7
EOF
diff -u "$T/expected" "$T/got" || fail "header facts from the fake sysfs"
# The host strings come from uname.
"$PERF" report -i "$T/h.data" --header-only 2>&1 | grep -qx "# os release : $(uname -r)" ||
	fail "OSRELEASE is not uname -r"
exit 0
