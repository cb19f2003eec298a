#!/bin/sh
# Oracle on recordings made here by perf itself, one per way of recording that changes the
# bytes: zstd compression (-z), pipe mode (-o -), two events (ids, sample_id_all), callchains
# (-g), DWARF unwinding (REGS_USER + STACK_USER), data addresses and page sizes, a tracepoint
# with raw data (RAW + TRACING_DATA), context switches and namespaces, and the directory that
# perf record --threads writes (DIR/data + DIR/data.N).  For each, the record
# counts must equal `perf report --stats`, every sample's tid, time, ip and period must
# equal `perf script`'s, and the header must read as `perf report --header-only [-I]` prints it.
. "$top_srcdir/tests/lib.sh"
need "${PERF:-perf}"
PERF=${PERF:-perf}
scratch

work='i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done; ls / >/dev/null'

"$PERF" record -q -e cpu-clock -o "$T/probe" -- true >/dev/null 2>&1 ||
	skip "perf record cannot record here (perf_event_paranoid: $(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null))"

stats() {
	awk '/^Aggregated stats:/ { on = 1; next } on && / events: / { print $1, $3 }
	     on && / stats:$/ { print }' "$1"
}

n=0
try() {
	name=$1
	shift
	if [ "${name#pipe}" != "$name" ]; then
		"$PERF" record -q -o - "$@" -- sh -c "$work" >"$T/$name" 2>"$T/rec.err"
	else
		"$PERF" record -q -o "$T/$name" "$@" -- sh -c "$work" >/dev/null 2>"$T/rec.err"
	fi
	if [ $? -ne 0 ] || [ ! -s "$T/$name" ]; then
		echo "note: perf record $* is not possible here: $(head -1 "$T/rec.err")" >&2
		return 0
	fi
	f="$T/$name"
	"$PERF" report --stats -i "$f" >"$T/p.stats" 2>/dev/null || fail "$name: perf report failed"
	"$LINEUP" info --stats -i "$f" >"$T/l.stats" 2>"$T/l.err" ||
		fail "$name: lineup info failed: $(cat "$T/l.err")"
	stats "$T/p.stats" >"$T/p.agg"
	stats "$T/l.stats" >"$T/l.agg"
	grep -q '^SAMPLE [1-9]' "$T/p.agg" || fail "$name: perf counts no samples"
	diff -u "$T/p.agg" "$T/l.agg" || fail "$name: counts differ from perf report --stats"

	# Every sample: tid, time (ns), ip, period, sorted (perf script sorts by time).
	"$PERF" script -F tid,time,ip,period --ns -G -i "$f" 2>/dev/null |
		awk '{ t = $2; sub(/:$/, "", t); sub(/\./, "", t); sub(/^0+/, "", t);
		       printf "%s %s %s %s\n", $1, t, $4, $3 }' | sort >"$T/p.samples"
	"$LINEUP" info --samples -i "$f" |
		awk '{ ip = $6; sub(/^0x/, "", ip); printf "%s %s %s %s\n", $3, $5, ip, $7 }' |
		sort >"$T/l.samples"
	[ -s "$T/p.samples" ] || fail "$name: perf script printed no samples"
	diff -u "$T/p.samples" "$T/l.samples" >"$T/diff" ||
		fail "$name: samples differ from perf script: $(head -20 "$T/diff")"
	# The header, line for line, plain and with -I (lineup's extra lines say "# lineup:").
	for I in "" -I; do
		# BPF_PROG_INFO / BPF_BTF (programs loaded on this machine while recording) are
		# skipped by size: lineup does not print them
		"$PERF" report --header-only $I -i "$f" 2>/dev/null | grep -v '^# event :' |
			grep -Ev '^# (bpf_prog_info|btf info) ' >"$T/p.hdr"
		"$LINEUP" info --header-only $I -i "$f" | grep -v '^# event :' |
			grep -v '^# lineup:' >"$T/l.hdr"
		diff -u "$T/p.hdr" "$T/l.hdr" || fail "$name: header differs from perf's ($I)"
	done
	n=$((n + 1))
}

try plain -e cpu-clock -F 5000
try z -z -e cpu-clock -F 5000
try pipe -e cpu-clock -F 5000
# modifiers: a pipe renames the event with an EVENT_UPDATE ("cpu-clock:u"), which perf report
# --stats does not apply (its name stays the attr's, "cpu-clock:uH"); a file names it by its
# EVENT_DESC
try pipe-u -e cpu-clock:u -F 5000
try mods -e cpu-clock:u -F 5000
try two -e cpu-clock,task-clock -F 5000 --sample-cpu
try callchain -g -e cpu-clock -F 5000
try dwarf --call-graph dwarf,512 -e cpu-clock -F 2000
try addr -d --data-page-size --code-page-size --phys-data -e cpu-clock -F 5000
try regs --user-regs=ax,bx,sp -e cpu-clock -F 5000
try raw -R -e sched:sched_process_exec -e cpu-clock -F 5000
try switch --switch-events --namespaces -e cpu-clock -F 5000
try read -s -e cpu-clock -F 5000
try threads --threads -e cpu-clock -F 5000
# perf 6.1 cannot read its own zstd pipe ("Couldn't decompress data"); lineup can: its samples
# must be those of the same recording unpacked by `perf inject` (which fails alike), so check
# what can be checked: it reads, and counts the samples and COMPRESSED records it holds.
"$PERF" record -q -z -o - -e cpu-clock -F 5000 -- sh -c "$work" >"$T/pipe-z" 2>/dev/null
if [ -s "$T/pipe-z" ]; then
	"$LINEUP" info --stats -i - <"$T/pipe-z" >"$T/l.stats" 2>"$T/l.err" ||
		fail "zstd pipe: $(cat "$T/l.err")"
	grep -q '^      COMPRESSED events: *[1-9]' "$T/l.stats" || fail "zstd pipe: no COMPRESSED records"
	grep -q '^          SAMPLE events: *[1-9]' "$T/l.stats" || fail "zstd pipe: no samples"
fi
[ $n -ge 4 ] || fail "only $n recordings could be made and checked"
exit 0
