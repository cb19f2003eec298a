#!/bin/sh
# lineup report against perf c2c report on kernel-module samples: a module built against
# Debian's linux-headers, mapped as perf synthesizes module maps (mkperf `module`).  perf moves
# a .ko's map to .text's file offset once it loads it, so an address past the module's
# functions prints as that al->addr ("[k] 0x00000000000030a0"), not as the map-relative one:
# lineup takes it from the symbolizer (symbols_loc.map_addr).  --no-source: perf 6.1 hangs
# asking addr2line about a .ko.
. "$top_srcdir/tests/lib.sh"
[ -n "${PERF:-}" ] && [ -x "$PERF" ] || skip "perf is not installed"
need make
need nm
KVER=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | head -n1)
[ -n "$KVER" ] && [ -f "$KVER/Makefile" ] || skip "no linux-headers-*-amd64 in /usr/src"
MKPERF="$top_builddir/tests/tools/mkperf"
[ -x "$MKPERF" ] || fail "mkperf was not built"
scratch
export HOME="$T/home"
mkdir -p "$HOME"

build_test_module

{
	echo "cpus 4 sockets=2"
	echo "event load"
	echo "event store"
	echo "comm 10 10 kworker"
	echo "module 0xffffffffc0000000 0x4000 $KO"
	# every .text function at a few offsets, and an address past the module's .text
	for f in $(nm "$KO" | awk '$2 ~ /^[tT]$/ { print $1 }'); do
		for off in 0 1 7; do
			echo "sample load tid=10 cpu=1 kernel=1 ip=$(printf '0xffffffffc%07x' $((0x$f + off))) addr=0xffff888000001000 src=LCL_HITM weight=$((100 + off))"
		done
	done
	echo "sample load tid=10 cpu=2 kernel=1 ip=0xffffffffc0003000 addr=0xffff888000001000 src=LCL_HITM weight=7"
} >"$T/m.txt"
"$MKPERF" -o "$T/m.data" "$T/m.txt" || fail "mkperf failed"

"$PERF" c2c report --stdio --no-source -i "$T/m.data" >"$T/perf.out" 2>"$T/perf.err" ||
	fail "perf c2c report failed: $(cat "$T/perf.err")"
"$LINEUP" report --stdio --no-source -i "$T/m.data" >"$T/lineup.out" 2>"$T/lineup.err" ||
	fail "lineup report failed: $(cat "$T/lineup.err")"
diff -u "$T/perf.out" "$T/lineup.out" >"$T/diff" ||
	fail "module samples: lineup report differs from perf c2c report:
$(head -40 "$T/diff")"
grep -q 'lineup_file_get  *\[lineup_touch\]' "$T/lineup.out" || fail "module symbols not resolved"
grep -Eq '\[k\] 0x00000000000030[0-9a-f]{2}  *\[lineup_touch\]' "$T/lineup.out" ||
	fail "the address past .text is not shown as perf's al->addr"
echo "ok: module samples identical to perf's"
