#!/bin/sh
# lineup watch on a real kernel object (seed 003's struct file): two threads of one process
# share one fd and do pread + lseek; lineup follows kmem:kmem_cache_alloc to the workload's
# struct file and watches f_ref, f_pos_lock, f_pos and f_op.  Expected from the kernel's code:
# f_ref and f_pos_lock written (locked RMW) from both CPUs, with transfers, in fdget/fput and
# mutex_lock/unlock; f_op only read.  perf script must list the same hits.
. "$top_srcdir/tests/lib.sh"
scratch
. "$top_srcdir/tests/watch/lib-watch.sh"
need_watch_kernel
build_workload sharedfd
[ "$(nproc)" -ge 2 ] || skip "needs two CPUs"

before=$(tracefs_state)
cd "$T" || exit 99
"$LINEUP" watch -o "$T/w.data" --alloc filp --comm lw-sharedfd \
	--fields f_ref,f_pos_lock,f_pos,f_op -- "$T/sharedfd" -n lw-sharedfd -p -d 300 -t 1 \
	>"$T/out" 2>"$T/err"
rc=$?
if [ $rc -ne 0 ] && grep -q 'cannot open a hardware breakpoint\|no such event' "$T/err"; then
	skip "no hardware breakpoints: $(cat "$T/err")"
fi
[ $rc -eq 0 ] || fail "lineup watch exited $rc: $(cat "$T/err")"
cat "$T/out"

# The kernel's struct file on this kernel: f_ref (6.13+) or f_count.
grep -q '^# lineup watch: struct file at 0xffff' "$T/out" || fail "no struct file header"
grep -q 'access kinds: instruction decode' "$T/out" || fail "access kinds not decoded"
grep -q 'hits/s' "$T/out" || fail "no overhead figure"
grep -q '^# not watched: f_lock, f_mode' "$T/out" || fail "unwatched members not listed"

set -- $(member_row "$T/out" f_ref)
[ "${1:-0}" -gt 100 ] || fail "f_ref: too few hits ($*)"
[ "$5" -gt 0 ] || fail "f_ref: no locked RMW ($*)"
[ "$7" -gt 0 ] || fail "f_ref: no transfers ($*)"
[ "${8%%/*}" -ge 2 ] || fail "f_ref: written from fewer than 2 CPUs ($*)"
set -- $(member_row "$T/out" f_pos_lock)
[ "${1:-0}" -gt 100 ] || fail "f_pos_lock: too few hits ($*)"
[ "$5" -gt 0 ] && [ "$7" -gt 0 ] && [ "${8%%/*}" -ge 2 ] ||
	fail "f_pos_lock: not written by both CPUs with transfers ($*)"
set -- $(member_row "$T/out" f_op)
[ "${1:-0}" -gt 100 ] || fail "f_op: too few hits ($*)"
[ "$2" -eq "$1" ] || fail "f_op: not only loads ($*)"

# Code sites, by function, as the kernel's source says.
for f in 'locked-rmw fput+' 'locked-rmw fdget' 'locked-rmw mutex_lock+' 'locked-rmw mutex_unlock+' \
	'load       vfs_read+'; do
	grep -q "$f" "$T/out" || fail "no code site '$f'"
done

# The transfers are tied to the functions that made them (hits kind code transfers insn).
for f in fput mutex_lock; do
	awk -v f="$f+" '$2 == "locked-rmw" && index($3, f) == 1 && $4 > 0 { ok = 1 } END { exit !ok }' \
		"$T/out" || fail "no transfers at $f"
done

# perf reads the file and lists the same hits, per watched word.
total=$(awk '$1 ~ /^f_|^[a-z]/ && $2 ~ /^[0-9]+$/ && NF >= 13 { s += $6 } END { print s }' "$T/out")
"$PERF" script -i "$T/w.data" -F event 2>/dev/null | grep '^ *mem:0x' | sort | uniq -c >"$T/perf-events"
ptotal=$(awk '{ s += $1 } END { print s }' "$T/perf-events")
[ "$total" = "$ptotal" ] || fail "lineup counted $total hits, perf script lists $ptotal"
for name in f_ref f_pos_lock f_pos f_op; do
	want=$(member_row "$T/out" "$name" | cut -d' ' -f1)
	addr=$(sed -n "s/^$name (+[0-9]*, [0-9]* of [0-9]* bytes* watched at \(0x[0-9a-f]*\)):/\1/p" "$T/out")
	got=$(awk -v a="mem:$addr/8:rw:" '$2 == a { print $1 }' "$T/perf-events")
	[ "${got:-0}" = "$want" ] || fail "$name: lineup $want hits, perf script ${got:-0} on $addr"
done
"$PERF" script -i "$T/w.data" -F ip,sym 2>/dev/null | awk '{ print $2 }' | sort | uniq -c | sort -rn >"$T/perf-syms"
grep -q ' fput$' "$T/perf-syms" && grep -q ' mutex_lock$' "$T/perf-syms" ||
	fail "perf script does not name fput and mutex_lock: $(head "$T/perf-syms")"

# The object's allocation and free are in the file too, decoded by perf from the file's own
# tracing data.
obj=$(sed -n 's/^# lineup watch: struct file at \(0x[0-9a-f]*\).*/\1/p' "$T/out")
"$PERF" script -i "$T/w.data" 2>/dev/null | grep 'kmem:' >"$T/kmem"
grep -q "kmem:kmem_cache_alloc: call_site=alloc_empty_file.* ptr=$obj name=filp" "$T/kmem" ||
	fail "no allocation record of $obj: $(cat "$T/kmem")"
grep -q "kmem:kmem_cache_free: .* ptr=$obj name=filp" "$T/kmem" ||
	fail "no free record of $obj: $(cat "$T/kmem")"

# lineup fields reads the recording: every hit is tied to struct file through the allocation
# record (cache filp) and the running kernel's BTF; f_op only loads, f_ref's locked RMWs from
# both CPUs with HITMs (JSON: the text table's columns belong to lineup fields).
"$LINEUP" fields -i "$T/w.data" --json >"$T/fields.json" 2>"$T/fields.err" ||
	fail "lineup fields: $(cat "$T/fields.err")"
python3 - "$T/fields.json" <<'PY' || fail "lineup fields on the watch recording"
import json, sys
d = json.load(open(sys.argv[1]))
a = d["attribution"]["all"]
assert a["share"] == 1.0 and a["by_evidence"]["allocation"] == a["total"], a
m = {x["member"]: x for s in d["structs"] if s["type"] == "struct file" for x in s["members"]}
assert m["f_op"]["loads"] > 0 and m["f_op"]["stores"] == 0 and m["f_op"]["locked"] == 0, m["f_op"]
r = m["f_ref"]
assert r["locked"] > 0 and r["lcl_hitm"] > 0 and r["cpus_read"] == 2, r
# Issue 6 acceptance through lineup fields: f_ref and f_pos_lock written (locked RMW counts as
# a write) from both CPUs, with transfers (HITMs) and their functions; f_op only read.
assert r["cpus_write"] == 2 and "fput+" in r["code"], r
p = m["f_pos_lock"]
assert p["locked"] > 0 and p["lcl_hitm"] > 0 and p["cpus_write"] == 2, p
assert "mutex_lock+" in p["code"] or "mutex_unlock+" in p["code"], p
assert m["f_op"]["cpus_write"] == 0 and m["f_op"]["threads_write"] == 0, m["f_op"]
PY
# The same in the text table (Offset Size CL Member Use Loads Stores Locked LclHITM RmtHITM
# Cycles CPUr CPUw ...).
"$LINEUP" fields -i "$T/w.data" >"$T/fields.txt" 2>"$T/fields.err" ||
	fail "lineup fields: $(cat "$T/fields.err")"
for f in f_ref f_pos_lock; do
	awk -v f="$f" '$4 == f && $5 == "read-write" && $8 > 0 && $9 > 0 && $13 == 2 { ok = 1 }
		END { exit !ok }' "$T/fields.txt" ||
		fail "lineup fields: $f not written from both CPUs with HITMs: $(grep " $f " "$T/fields.txt")"
done
awk '$4 == "f_op" && $6 > 0 && $7 == 0 && $8 == 0 && $13 == 0 { ok = 1 } END { exit !ok }' \
	"$T/fields.txt" || fail "lineup fields: f_op not only read: $(grep ' f_op ' "$T/fields.txt")"

[ "$(tracefs_state)" = "$before" ] || fail "tracefs changed: $before -> $(tracefs_state)"
slots_free
