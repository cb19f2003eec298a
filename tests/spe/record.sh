#!/bin/sh
# lineup record on an Arm machine with SPE, as far as a machine without SPE can go: a fake
# sysfs tree ($LINEUP_SYSFS) offers arm_spe_0.  lineup no longer refuses it: it opens the
# event per CPU on the workload and maps its AUX area.  (1) arm_spe_0's type is a PMU this
# kernel lacks: the open fails, naming the event.  (2) its type is the software PMU and its
# format bits land in config1/config2, so the event opens for real (cpu-clock) on every CPU:
# the ring maps, the AUX area is refused (a software event has none), naming the CPU.  The
# AUX ring copies themselves are unit-tested in tests/unit/aux_ring_test with a fake user page,
# and its recording (below) goes through perf c2c report.
. "$top_srcdir/tests/lib.sh"
scratch
need true

spe_tree() {
	d="$T/sys/bus/event_source/devices/arm_spe_0"
	rm -rf "$T/sys"
	mkdir -p "$d/format"
	echo "$1" >"$d/type"
	echo "$2:0" >"$d/format/ts_enable"
	echo "$2:1" >"$d/format/pa_enable"
	echo "$2:33" >"$d/format/load_filter"
	echo "$2:34" >"$d/format/store_filter"
	echo "config2:0-11" >"$d/format/min_latency"
}

spe_tree 4242 config
LINEUP_SYSFS="$T/sys" "$LINEUP" record --list >"$T/list" 2>&1 || fail "record --list: $(cat "$T/list")"
grep -q "Arm SPE" "$T/list" || fail "record --list does not name Arm SPE: $(cat "$T/list")"
grep -q "arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,min_latency=30/" "$T/list" ||
	fail "record --list: $(cat "$T/list")"
LINEUP_SYSFS="$T/sys" expect_rc 1 "$LINEUP" record -o "$T/a.data" -- true 2>"$T/err"
# (a user without perf_allow_cpu is refused the per-CPU open before the type is looked at)
grep -Eq "cannot open arm_spe_0/.*: (No such file or directory|Permission denied)" "$T/err" ||
	fail "(1): $(cat "$T/err")"
[ "$(id -u)" -ne 0 ] || grep -q "cannot open arm_spe_0/.*: No such file or directory" "$T/err" ||
	fail "(1) as root: $(cat "$T/err")"
grep -q "cannot decode" "$T/err" && fail "(1): still refused: $(cat "$T/err")"

spe_tree 1 config1
# An AUX-area event is opened per CPU for every task, which needs root (or paranoid <= 0).
if [ "$(id -u)" -eq 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0 ]; then
	LINEUP_SYSFS="$T/sys" expect_rc 1 "$LINEUP" record -o "$T/b.data" -- true 2>"$T/err"
	if grep -q "cannot open" "$T/err"; then
		skip "perf_event_open of a software event is refused here: $(cat "$T/err")"
	fi
	grep -q "cannot map the AUX area of arm_spe_0/.* on CPU [0-9]*: Operation not supported" \
		"$T/err" || fail "(2): $(cat "$T/err")"
else
	echo "note: not root and perf_event_paranoid > 0: the per-CPU open (2) is not tried" >&2
fi
# The recorder's AUX path past the kernel: SPE packets in fake AUX areas of two CPUs, drained
# (wrapping) into a perf.data by aux_ring__write as the recorder does: perf decodes it, and
# lineup reports the same.
"$top_builddir/tests/unit/aux_ring_test" "$T/ring.data" >/dev/null || fail "aux_ring_test"
if [ -n "${PERF:-}" ] && [ -x "$PERF" ]; then
	"$PERF" c2c report --stdio -i "$T/ring.data" >"$T/p.txt" 2>/dev/null || fail "perf on ring.data"
	grep -q "Total records *: *18$" "$T/p.txt" || fail "perf decoded: $(head -8 "$T/p.txt")"
	"$LINEUP" report --stdio -i "$T/ring.data" >"$T/l.txt" || fail "lineup report on ring.data"
	diff -u "$T/p.txt" "$T/l.txt" || fail "lineup differs from perf on the recorder's AUX output"
fi
echo ok
