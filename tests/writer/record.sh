#!/bin/sh
# lineup record: the memory-event choice against fake sysfs trees (Intel, hybrid, AMD, Arm, a VM
# without a memory PMU), and the whole libperf path (open, ring, read, write perf.data) on this
# machine with a software event that carries data addresses: perf reads the file, and the
# sample count and the addresses agree with lineup's own reading and with the workload's truth.
. "$top_srcdir/tests/lib.sh"
need "${PERF:-perf}"
PERF=${PERF:-perf}
scratch

# ---- event choice from sysfs --------------------------------------------------------
mk() {	# mk TREE RELPATH TEXT
	mkdir -p "$(dirname "$T/$1/bus/event_source/devices/$2")"
	echo "$3" > "$T/$1/bus/event_source/devices/$2"
}
intel() {	# intel TREE PMU TYPE
	mk "$1" "$2/type" "$3"
	mk "$1" "$2/events/mem-loads" "event=0xcd,umask=0x1,ldlat=3"
	mk "$1" "$2/events/mem-stores" "event=0xd0,umask=0x82"
	mk "$1" "$2/format/event" "config:0-7"
	mk "$1" "$2/format/umask" "config:8-15"
	mk "$1" "$2/format/ldlat" "config1:0-15"
}
intel intel cpu 4
LINEUP_SYSFS=$T/intel "$LINEUP" record --list > "$T/got" 2>&1 || fail "record --list on Intel"
cat > "$T/expected" <<'EOF'
memory PMU: cpu (Intel)
  cpu/mem-loads,ldlat=30/P                 type=4 config=0x1cd config1=0x1e config2=0 loads
  cpu/mem-stores/P                         type=4 config=0x82d0 config1=0 config2=0 stores
EOF
diff -u "$T/expected" "$T/got" || fail "Intel events"

# Sapphire Rapids and later: mem-loads needs mem-loads-aux as its group leader
intel spr cpu 4
mk spr cpu/events/mem-loads-aux "event=0x03,umask=0x82"
LINEUP_SYSFS=$T/spr "$LINEUP" record --list > "$T/got" 2>&1 || fail "record --list on SPR"
cat > "$T/expected" <<'EOF'
memory PMU: cpu (Intel)
  cpu/mem-loads-aux/P                      type=4 config=0x8203 config1=0 config2=0 group-leader
  cpu/mem-loads,ldlat=30/P                 type=4 config=0x1cd config1=0x1e config2=0 loads
  cpu/mem-stores/P                         type=4 config=0x82d0 config1=0 config2=0 stores
EOF
diff -u "$T/expected" "$T/got" || fail "SPR events"

intel hybrid cpu_atom 10
intel hybrid cpu_core 8
LINEUP_SYSFS=$T/hybrid "$LINEUP" record --list > "$T/got" 2>&1 || fail "record --list on a hybrid"
grep -q '^  cpu_core/mem-loads,ldlat=30/P  *type=8 config=0x1cd' "$T/got" || {
	cat "$T/got" >&2
	fail "hybrid: the big cores' PMU"
}

mk amd cpu/type 4
mk amd ibs_op/type 11
LINEUP_SYSFS=$T/amd "$LINEUP" record --list > "$T/got" 2>&1 || fail "record --list on AMD"
cat > "$T/expected" <<'EOF'
memory PMU: ibs_op (AMD IBS)
  ibs_op//                                 type=11 config=0 config1=0 config2=0 loads stores
EOF
diff -u "$T/expected" "$T/got" || fail "AMD events"

mk arm arm_spe_0/type 9
mk arm arm_spe_0/format/ts_enable config:0
mk arm arm_spe_0/format/pa_enable config:1
mk arm arm_spe_0/format/load_filter config:33
mk arm arm_spe_0/format/store_filter config:34
mk arm arm_spe_0/format/min_latency config2:0-11
LINEUP_SYSFS=$T/arm "$LINEUP" record --list --ldlat 64 > "$T/got" 2>&1 || fail "record --list on Arm"
cat > "$T/expected" <<'EOF'
memory PMU: arm_spe_0 (Arm SPE)
  arm_spe_0/ts_enable=1,pa_enable=1,load_filter=1,store_filter=1,min_latency=64/ type=9 config=0x600000003 config1=0 config2=0x40 loads stores aux
EOF
diff -u "$T/expected" "$T/got" || fail "Arm SPE events"
LINEUP_SYSFS=$T/arm expect_rc 1 "$LINEUP" record -- true 2> "$T/err"
# Arm SPE is recorded now (tests/spe/record.sh): here type 9 is no SPE, so the open fails
grep -q "cannot open arm_spe_0/ts_enable=1,.*/: " "$T/err" || fail "Arm: no plain message: $(cat "$T/err")"

# A VM: no memory PMU.  Plain message, what was looked for, the way out, exit 1.
mk vm cpu/type 4
mk vm software/type 1
LINEUP_SYSFS=$T/vm expect_rc 1 "$LINEUP" record -o "$T/none.data" -- true 2> "$T/err"
for want in "no memory-sampling PMU" "$T/vm/bus/event_source/devices/{cpu,cpu_core}/events/mem-loads" \
	"ibs_op (AMD IBS)" "arm_spe_\* (Arm SPE)" "lineup record --sim -- PROG ARGS"; do
	grep -q "$want" "$T/err" || fail "no-PMU message lacks '$want': $(cat "$T/err")"
done
[ ! -e "$T/none.data" ] || fail "a file was written although nothing could be recorded"
# --list there: what is missing, what there is instead, exit 0.
LINEUP_SYSFS=$T/vm "$LINEUP" record --list >"$T/got" 2>&1 || fail "record --list without a PMU"
for want in "memory PMU: none (looked for: $T/vm/bus/event_source" "software events (-e NAME" \
	" page-faults " "tracepoints (-e SYS:NAME" "record --sim -- PROG"; do
	grep -qF "$want" "$T/got" || fail "record --list without a PMU lacks '$want': $(cat "$T/got")"
done

# Bad usage.
expect_rc 2 "$LINEUP" record --sim -e page-faults -- true 2> "$T/err"
grep -q -- "--sim runs CMD under the software collector" "$T/err" || fail "--sim with -e accepted"
expect_rc 2 "$LINEUP" record -e no-such-event -- true 2> /dev/null
expect_rc 2 "$LINEUP" record -u -k -e page-faults -- true 2> /dev/null
expect_rc 2 "$LINEUP" record -e page-faults 2> /dev/null
expect_rc 2 "$LINEUP" record -C 4095 -e page-faults -- true 2> "$T/err"
grep -q "CPU 4095 of '4095' is not online" "$T/err" || fail "offline CPU not named: $(cat "$T/err")"
expect_rc 2 "$LINEUP" record -e page-faults -o "$T/x.data" -- "$T/no-such-program" 2> "$T/err"
grep -q "cannot run $T/no-such-program" "$T/err" || fail "exec failure not reported"

# ---- the libperf path, for real -----------------------------------------------------
cat > "$T/pf.c" <<'EOF'
#include <stdio.h>
#include <sys/mman.h>
/* Touch 64 fresh pages, each at a different offset: 64 page faults at known addresses. */
int main(void)
{
	char *p = mmap(NULL, 64 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return 1;
	for (int i = 0; i < 64; i++)
		p[i * 4096 + 8 * i] = 1;
	printf("%p\n", (void *)p);
	return 0;
}
EOF
${CC:-cc} -O1 -o "$T/pf" "$T/pf.c" || fail "cannot build the workload"
# -u: user-space faults only, which perf_event_paranoid 2 allows without root too.
"$LINEUP" record -u -e page-faults -o "$T/pf.data" -- "$T/pf" > "$T/base" 2> "$T/err" ||
	fail "lineup record: $(cat "$T/err")"
base=$(cat "$T/base")
ours=$(sed -n 's/.*wrote \([0-9]*\) samples.*/\1/p' "$T/err")
"$PERF" script -i "$T/pf.data" -F addr > "$T/addrs" 2> "$T/perr" || fail "perf script: $(cat "$T/perr")"
theirs=$(wc -l < "$T/addrs")
[ "$ours" -gt 64 ] || fail "only $ours samples recorded"
[ "$ours" -eq "$theirs" ] || fail "lineup wrote $ours samples, perf script reads $theirs"
# lineup's own reader decodes the same samples: same threads, same addresses (perf script
# sorts by time, the reader gives file order: compare sorted)
"$top_builddir/tests/tools/samples" "$T/pf.data" 2> "$T/err" | sort > "$T/ours" ||
	fail "lineup's reader: $(cat "$T/err")"
[ -s "$T/ours" ] || fail "lineup's reader found no samples: $(cat "$T/err")"
"$PERF" script -i "$T/pf.data" -F tid,addr 2>/dev/null | awk '{ print $1, $2 }' | sort > "$T/theirs"
diff -u "$T/theirs" "$T/ours" > /dev/null ||
	fail "lineup's reader and perf script disagree on the samples' tid/addr"
# lineup's own reader counts the same
"$LINEUP" info -i "$T/pf.data" --stats > "$T/info" 2>&1 || fail "lineup info: $(cat "$T/info")"
grep -q "SAMPLE events: *$ours\$" "$T/info" || { cat "$T/info" >&2; fail "lineup info count"; }
"$PERF" report -i "$T/pf.data" --stats 2>/dev/null | grep -q "SAMPLE events: *$ours\$" ||
	fail "perf report --stats count"
# every page the workload touched, at the exact byte
i=0
while [ $i -lt 64 ]; do
	a=$(printf '%x' $((base + i * 4096 + 8 * i)))
	grep -q "^ *$a\$" "$T/addrs" || fail "fault at $a (page $i) missing from perf script"
	i=$((i + 1))
done
# the samples resolve to the workload's thread, its COMM came from the kernel at exec
"$PERF" script -i "$T/pf.data" -F comm 2>/dev/null | sort -u > "$T/comms"
grep -q '^ *pf *$' "$T/comms" || fail "no sample of comm pf: $(cat "$T/comms")"
# header: the command line, the build-id of the workload
"$PERF" report -i "$T/pf.data" --header-only 2>/dev/null |
	grep -q "^# cmdline : lineup record -u -e page-faults -o $T/pf.data -- $T/pf" ||
	fail "CMDLINE header"
bid=$(readelf -n "$T/pf" | awk '/Build ID/ { print $3 }')
if [ -n "$bid" ]; then
	"$PERF" buildid-list -i "$T/pf.data" 2>/dev/null | grep -qx "$bid $T/pf" ||
		fail "build-id of the workload missing"
fi
# as perf record does, BUILD_ID lists exactly the files that samples hit
"$PERF" buildid-list -i "$T/pf.data" 2>/dev/null | awk '{ print $2 }' | sed 's|.*/||' | sort > "$T/bids"
"$PERF" report -i "$T/pf.data" --sort dso --stdio 2>/dev/null | awk '/^ +[0-9.]+%/ { print $2 }' |
	grep -v '^\[' | sort > "$T/dsos"
diff -u "$T/dsos" "$T/bids" || fail "BUILD_ID entries differ from the DSOs with samples"

# kernel samples resolve through the synthesized [kernel.kallsyms]_text map (as perf's do)
text=$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms 2>/dev/null)
case $text in *[1-9a-f]*) ;; *) text= ;; esac	# all zeros: kptr_restrict hides it
if [ "$(id -u)" -eq 0 ] && [ -n "$text" ]; then
	"$LINEUP" record -e page-faults -o "$T/pk.data" -- "$T/pf" > /dev/null 2> "$T/err" ||
		fail "lineup record (kernel): $(cat "$T/err")"
	"$PERF" script -i "$T/pk.data" --show-mmap-events 2>/dev/null |
		grep -q "PERF_RECORD_MMAP -1/0: \[0x$text(0x[0-9a-f]*) @ 0x$text\]: x \[kernel.kallsyms\]_text" ||
		fail "no kernel text map like perf's"
	"$PERF" script -i "$T/pk.data" -F ip,sym,dso 2>/dev/null | grep '^ *ffffffff' > "$T/k" ||
		fail "no kernel samples"
	! grep -q '\[unknown\] (\[unknown\])' "$T/k" || fail "kernel IPs left unresolved: $(head -3 "$T/k")"
fi

# tracepoints: id from tracefs, RAW payload, TRACING_DATA built from tracefs so perf decodes it
if [ "$(id -u)" -eq 0 ] && [ -d /sys/kernel/tracing/events/sched/sched_process_exec ]; then
	"$LINEUP" record -e sched:sched_process_exec -e page-faults -o "$T/tp.data" -- "$T/pf" \
		> /dev/null 2> "$T/err" || fail "record a tracepoint: $(cat "$T/err")"
	"$PERF" script -i "$T/tp.data" -F comm,pid,event,trace 2>/dev/null |
		grep 'sched:sched_process_exec' > "$T/got" || fail "no sched_process_exec sample"
	pid=$(awk '{ print $2; exit }' "$T/got")
	grep -q "sched:sched_process_exec: filename=$T/pf pid=$pid old_pid=$pid" "$T/got" ||
		fail "tracepoint payload not decoded: $(cat "$T/got")"
fi
expect_rc 2 "$LINEUP" record -e nosuchsys:nosuchevent -- true 2> "$T/err"
grep -q "nosuchsys:nosuchevent" "$T/err" || fail "unknown tracepoint not named: $(cat "$T/err")"

# the workload's threads are followed (inherit): each thread's faults carry its own tid
cat > "$T/pt.c" <<'EOF'
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
/* Two threads, each touching 16 fresh pages of its own mapping. */
static char *base[2];
static long tids[2];
static void *run(void *arg)
{
	long k = (long)arg;

	tids[k] = syscall(SYS_gettid);
	for (int i = 0; i < 16; i++)
		base[k][i * 4096 + 16 * i] = 1;
	return NULL;
}
int main(void)
{
	pthread_t t[2];

	for (long k = 0; k < 2; k++) {
		base[k] = mmap(NULL, 16 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);
		if (base[k] == MAP_FAILED)
			return 1;
	}
	for (long k = 0; k < 2; k++)
		pthread_create(&t[k], NULL, run, (void *)k);
	for (long k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	for (long k = 0; k < 2; k++)
		printf("%ld %p\n", tids[k], (void *)base[k]);
	return 0;
}
EOF
${CC:-cc} -O1 -pthread -o "$T/pt" "$T/pt.c" || fail "cannot build the threaded workload"
"$LINEUP" record -u -e page-faults -o "$T/pt.data" -- "$T/pt" > "$T/pt.out" 2> "$T/err" ||
	fail "lineup record (threads): $(cat "$T/err")"
"$PERF" script -i "$T/pt.data" -F tid,addr > "$T/pt.got" 2>/dev/null || fail "perf script (threads)"
[ "$(wc -l < "$T/pt.out")" -eq 2 ] || fail "the threaded workload did not report its threads"
while read -r tid b; do
	i=0
	while [ $i -lt 16 ]; do
		a=$(printf '%x' $((b + i * 4096 + 16 * i)))
		grep -q "^ *$tid  *$a\$" "$T/pt.got" || fail "thread $tid: fault at $a missing"
		i=$((i + 1))
	done
done < "$T/pt.out"
"$PERF" report -i "$T/pt.data" --stats 2>/dev/null | grep -q "FORK events: *2 " ||
	fail "expected the kernel's 2 FORK records of the threads"

# System-wide recording needs root (or perf_event_paranoid <= 0), as perf record -a does.
syswide=yes
[ "$(id -u)" -eq 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0 ] ||
	{ syswide=; echo "note: not root and perf_event_paranoid > 0: the -a parts are skipped" >&2; }

# system-wide without a command: until SIGINT, then a complete file
if [ -n "$syswide" ] && command -v timeout > /dev/null; then
	timeout --preserve-status -s INT 1 "$LINEUP" record -a -u -e page-faults -o "$T/sw.data" \
		2> "$T/err" || fail "record -a stopped by SIGINT: $(cat "$T/err")"
	ours=$(sed -n 's/.*wrote \([0-9]*\) samples.*/\1/p' "$T/err")
	"$PERF" report -i "$T/sw.data" --stats > "$T/stats" 2>&1 || fail "perf report on record -a"
	[ "${ours:-0}" -eq 0 ] || grep -q "SAMPLE events: *$ours\$" "$T/stats" ||
		fail "record -a: perf does not read the $ours samples lineup wrote"
fi

# SAMPLE_TIME: the first and last sample times, as perf record writes them
"$PERF" script -i "$T/pf.data" -F time 2>/dev/null | tr -d ' :' > "$T/times"
first=$(sort -n "$T/times" | head -1)
last=$(sort -n "$T/times" | tail -1)
"$PERF" report -i "$T/pf.data" --header-only 2>/dev/null > "$T/hdr"
grep -q "^# time of first sample : $first\$" "$T/hdr" && grep -q "^# time of last sample : $last\$" "$T/hdr" ||
	fail "SAMPLE_TIME is not $first..$last: $(grep 'time of' "$T/hdr")"

# -o -: pipe mode on stdout, read by perf from a pipe; the workload's output goes to stderr
"$LINEUP" record -u -e page-faults -o - -- "$T/pf" 2> "$T/err" |
	"$PERF" report -i - --stats > "$T/stats" 2>&1 || fail "record -o - | perf report -i -"
ours=$(sed -n 's/.*wrote \([0-9]*\) samples.*/\1/p' "$T/err")
grep -q "SAMPLE events: *$ours\$" "$T/stats" || fail "pipe: perf reads other than the $ours samples"
grep -q '^0x[0-9a-f]*$' "$T/err" || fail "pipe: the workload's stdout did not go to stderr"

# a second recording keeps the first as .old, as perf record does
cp "$T/pf.data" "$T/first.data"
"$LINEUP" record -u -e page-faults -o "$T/pf.data" -- "$T/pf" > /dev/null 2>&1 || fail "second record"
cmp -s "$T/first.data" "$T/pf.data.old" || fail "the previous recording was not kept as .old"

# system-wide while a command runs
[ -n "$syswide" ] || exit 0
"$LINEUP" record -a -u -e page-faults -o "$T/pfa.data" -- "$T/pf" > "$T/base" 2> "$T/err" ||
	fail "lineup record -a: $(cat "$T/err")"
base=$(cat "$T/base")
"$PERF" script -i "$T/pfa.data" -F addr > "$T/addrs" 2>/dev/null || fail "perf script -a"
a=$(printf '%x' $((base + 63 * 4096 + 8 * 63)))
grep -q "^ *$a\$" "$T/addrs" || fail "-a: the workload's last fault is missing"
exit 0
