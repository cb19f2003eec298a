#!/bin/sh
# Tracepoint payloads decoded by lineup's libtraceevent decoder (sampling/tracepoint.c) from a
# real recording's own TRACING_DATA equal what `perf script` prints for the same file, for the
# kmem events lineup watch follows and a page-faults -d event in the same file.
. "$top_srcdir/tests/lib.sh"
need_root
[ -n "$PERF" ] || skip "perf is not installed"
TPDUMP=$top_builddir/tests/watch/tpdump
scratch

# perf needs tracefs mounted to find tracepoints; a fresh VM may have it unmounted.
if ! grep -q ' tracefs ' /proc/mounts; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || skip "cannot mount tracefs"
fi
[ -r /sys/kernel/tracing/events/kmem/kmem_cache_alloc/format ] || skip "no kmem tracepoints"

"$PERF" record -q -o "$T/kmem.data" -e kmem:kmem_cache_alloc -e kmem:kmem_cache_free \
	-e kmem:kmalloc -e kmem:kfree -e page-faults -d -- sh -c 'ls / >/dev/null; cat /proc/self/status >/dev/null' \
	2>"$T/rec.err" || skip "perf record of kmem tracepoints failed: $(cat "$T/rec.err")"

"$PERF" script -i "$T/kmem.data" -F trace:tid,cpu,time,event,trace -F sw:tid,time,event,addr,ip \
	2>/dev/null | sed 's/^ *//; s/  */ /g' | sort >"$T/perf.txt"
# perf script orders samples by time across CPUs, tpdump prints them in file order: compare the
# sorted lines.
"$TPDUMP" "$T/kmem.data" >"$T/lineup.unsorted" || fail "tpdump failed"
sort "$T/lineup.unsorted" >"$T/lineup.txt"

n=$(grep -c 'kmem:kmem_cache_alloc:' "$T/perf.txt")
[ "$n" -gt 10 ] || fail "too few kmem_cache_alloc samples recorded ($n)"
grep -q 'page-faults:' "$T/perf.txt" || fail "no page-faults samples recorded"
for ev in kmem_cache_free kmalloc kfree; do
	grep -q "kmem:$ev:" "$T/perf.txt" || fail "no kmem:$ev samples recorded"
done
diff -u "$T/perf.txt" "$T/lineup.txt" >"$T/diff" || { head -20 "$T/diff" >&2; fail "decoded tracepoints differ from perf script"; }

# Every field perf shows as name=value is a field lineup decoded, with the same value
# (numbers compared numerically through the raw field dump).
"$TPDUMP" -f "$T/kmem.data" | grep 'kmem:kmem_cache_alloc:' | head -1 >"$T/fields.txt"
for f in common_pid call_site ptr name bytes_req bytes_alloc gfp_flags node accounted; do
	grep -q " $f=\| kmem:kmem_cache_alloc: $f=" "$T/fields.txt" || fail "field $f not decoded: $(cat "$T/fields.txt")"
done
ptr=$(sed 's/.* ptr=\(0x[0-9a-f]*\).*/\1/' "$T/fields.txt")
# (tpdump -f prints in file order, perf.txt is sorted: look for it among all the allocations.)
grep 'kmem:kmem_cache_alloc:' "$T/perf.txt" | grep -q "ptr=$ptr " ||
	fail "ptr $ptr differs from perf script's"

# Truncated tracing data and payloads are refused with a message, never a crash.
"$TPDUMP" -t "$T/kmem.data" >"$T/trunc.txt" || fail "tpdump -t failed"
grep -q '^truncated tracing data refused: [1-9]' "$T/trunc.txt" || fail "$(cat "$T/trunc.txt")"
if grep -q 'accepted\|decoded a' "$T/trunc.txt"; then fail "$(cat "$T/trunc.txt")"; fi
echo "ok: $(wc -l <"$T/perf.txt") samples decoded as perf script shows them"
