#!/bin/sh
# TRACING_DATA passes through the writer unchanged: the tracepoint formats of a real perf
# recording, copied into a file written by lineup's writer, let perf decode a tracepoint
# sample (RAW payload) that the writer wrote.
. "$top_srcdir/tests/lib.sh"
need "${PERF:-perf}"
PERF=${PERF:-perf}
MKPERF=$top_builddir/tests/tools/mkperf
scratch

"$PERF" record -q -e sched:sched_wakeup -o "$T/tw.data" -- true > /dev/null 2>&1 ||
	skip "perf cannot record sched:sched_wakeup here (tracefs or permissions)"
id=$("$PERF" evlist -v -i "$T/tw.data" 2>/dev/null | sed -n 's/.*config: \(0x[0-9a-f]*\).*/\1/p')
[ -n "$id" ] || fail "no tracepoint id in perf's recording"
# The payload below is laid out for sched_wakeup as Linux 4.x-6.x define it.
fmt=
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -r "$d/events/sched/sched_wakeup/format" ] && fmt=$d/events/sched/sched_wakeup/format
done
[ -n "$fmt" ] || skip "no sched_wakeup format file to check the layout against"
grep -q 'char comm\[16\];.offset:8;' "$fmt" && grep -q 'pid_t pid;.offset:24;' "$fmt" &&
	grep -q 'int prio;.offset:28;' "$fmt" && grep -q 'int target_cpu;.offset:32;' "$fmt" ||
	skip "sched_wakeup has another layout on this kernel"

le16() { printf '%04x' "$1" | sed 's/\(..\)\(..\)/\2\1/'; }
le32() { printf '%08x' "$1" | sed 's/\(..\)\(..\)\(..\)\(..\)/\4\3\2\1/'; }
# common_type, flags, preempt count, common_pid, comm[16] "hello", pid, prio, target_cpu
raw=$(le16 $((id)))0000$(le32 77)68656c6c6f0000000000000000000000$(le32 1234)$(le32 120)$(le32 1)
cat > "$T/trace.txt" <<EOF
cpus 2
event sched:sched_wakeup type=2 config=$id sample_type=IP,TID,TIME,CPU,PERIOD,RAW
tracing_data $T/tw.data
comm 77 77 waker
sample sched:sched_wakeup tid=77 cpu=1 time=5000 ip=0xffffffff81000000 kernel=1 raw=$raw
EOF
"$MKPERF" -o "$T/trace.data" "$T/trace.txt" || fail "mkperf"
"$PERF" script -i "$T/trace.data" -F comm,tid,cpu,event,trace > "$T/got" 2> "$T/err"
cat > "$T/expected" <<'EOF'
           waker    77 [001] sched:sched_wakeup: comm=hello pid=1234 prio=120 target_cpu=001
EOF
diff -u "$T/expected" "$T/got" || fail "perf could not decode the tracepoint sample"
# the same through a pipe (HEADER_TRACING_DATA record)
"$MKPERF" -o - "$T/trace.txt" | "$PERF" script -i - -F comm,tid,cpu,event,trace > "$T/got" 2> "$T/err"
diff -u "$T/expected" "$T/got" || fail "pipe mode: perf could not decode the tracepoint sample"
exit 0
