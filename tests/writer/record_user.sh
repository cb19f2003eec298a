#!/bin/sh
# lineup record as a user without perf_allow_kernel (perf_event_paranoid 2, no CAP_PERFMON):
# the kernel refuses PERF_SAMPLE_PHYS_ADDR to such a user, so lineup records without physical
# addresses and says so, instead of failing as it did; perf reads the file and counts the same
# samples.  As root the physical addresses are recorded and nothing is said.
. "$top_srcdir/tests/lib.sh"
need "${PERF:-perf}"
PERF=${PERF:-perf}
[ "$(id -u)" -eq 0 ] || skip "needs root, to run lineup as another user (nobody)"
id nobody >/dev/null 2>&1 || skip "no user 'nobody' to run as"
command -v setpriv >/dev/null 2>&1 || skip "no setpriv (util-linux) to run as another user"
[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ] ||
	skip "perf_event_paranoid < 2: a user may record physical addresses here"
scratch
chmod 755 "$T"
mkdir "$T/u" && chown nobody "$T/u"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }

# the workload: a shell that touches a few hundred pages
work='x=$(head -c 3000000 /dev/zero | tr "\0" a); echo ${#x} >/dev/null'
as_nobody "$LINEUP" record -u -e page-faults -o "$T/u/p.data" -- sh -c "$work" \
	>/dev/null 2>"$T/err" || fail "lineup record as nobody: $(cat "$T/err")"
grep -q "no physical addresses (they need perf_event_paranoid <= 1 or CAP_PERFMON)" "$T/err" ||
	fail "no word about the missing physical addresses: $(cat "$T/err")"
ours=$(sed -n 's/.*wrote \([0-9]*\) samples.*/\1/p' "$T/err")
[ "${ours:-0}" -gt 16 ] || fail "only '$ours' samples recorded as nobody"
"$PERF" script -f -i "$T/u/p.data" -F addr >"$T/addrs" 2>"$T/perr" || fail "perf script: $(cat "$T/perr")"
theirs=$(grep -c . "$T/addrs")
[ "$ours" -eq "$theirs" ] || fail "lineup wrote $ours samples, perf script reads $theirs"
"$PERF" evlist -f -v -i "$T/u/p.data" 2>/dev/null | grep -q 'PHYS_ADDR' &&
	fail "the user's recording claims PHYS_ADDR"

# Without -u: the kernel refuses kernel samples to the user (paranoid 2); lineup falls back to
# user-space samples as perf does, says so, and names the event page-faults:u as perf does.
as_nobody "$LINEUP" record -e page-faults -o "$T/u/k.data" -- sh -c "$work" \
	>/dev/null 2>"$T/err" || fail "lineup record (no -u) as nobody: $(cat "$T/err")"
grep -q "user-space samples only" "$T/err" || fail "no word about the user-only fallback: $(cat "$T/err")"
as_nobody "$PERF" record -q -e page-faults -o "$T/u/pk.data" -- sh -c "$work" >/dev/null 2>&1 ||
	fail "perf record as nobody"
"$PERF" report -f --stats -i "$T/u/pk.data" 2>/dev/null | grep ' stats:$' >"$T/perf.names"
"$PERF" report -f --stats -i "$T/u/k.data" 2>/dev/null | grep ' stats:$' >"$T/ours.names"
grep -qx 'page-faults:u stats:' "$T/perf.names" || fail "perf's fallback name: $(cat "$T/perf.names")"
diff -u "$T/perf.names" "$T/ours.names" || fail "the event is named otherwise than perf's fallback names it"

# root: physical addresses recorded, no such line
"$LINEUP" record -u -e page-faults -o "$T/r.data" -- sh -c "$work" >/dev/null 2>"$T/err" ||
	fail "lineup record as root: $(cat "$T/err")"
grep -q "no physical addresses" "$T/err" && fail "root's recording says it has no physical addresses"
grep -q "user-space samples only" "$T/err" && fail "root's recording fell back to user-space samples"
"$PERF" evlist -v -i "$T/r.data" 2>/dev/null | grep -q 'PHYS_ADDR' ||
	fail "root's recording has no PHYS_ADDR: $("$PERF" evlist -v -i "$T/r.data" 2>&1)"
exit 0
