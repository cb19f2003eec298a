#!/bin/sh
# Allocation records from the kernel's kmem tracepoints: a real `perf record -e
# kmem:kmem_cache_alloc` recording (its own tracing data, decoded with libtraceevent) is mixed
# by tests/fields/kmemmix with memory samples inside the struct file objects it saw allocated
# (cache "filp"), at kernel IPs lineup has no symbols for.  Only the allocation records can
# name the type: lineup fields must attribute every such sample to struct file's f_op and
# f_count by that evidence, with the type from the built-in cache table or --cache-type.
. "$top_srcdir/tests/lib.sh"
need_root
need python3
need make
[ -n "${PERF:-}" ] && [ -x "$PERF" ] || skip "perf is not installed"
KVER=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | head -n1)
[ -n "$KVER" ] && [ -f "$KVER/Makefile" ] ||
	skip "no linux-headers-*-amd64 (struct file's layout comes from the test module)"
scratch

if ! grep -q ' tracefs ' /proc/mounts; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || skip "cannot mount tracefs"
fi
[ -r /sys/kernel/tracing/events/kmem/kmem_cache_alloc/format ] || skip "no kmem tracepoints"
grep -q 'field:.*name' /sys/kernel/tracing/events/kmem/kmem_cache_alloc/format ||
	skip "kmem_cache_alloc has no cache name field on this kernel (before 6.0)"

"$PERF" record -q -o "$T/kmem.data" -e kmem:kmem_cache_alloc -- \
	sh -c 'for i in 1 2 3 4 5; do cat /proc/self/status >/dev/null; done' 2>"$T/rec.err" ||
	skip "perf record of kmem tracepoints failed: $(cat "$T/rec.err")"

build_test_module

n=$("$top_builddir/tests/fields/kmemmix" "$T/kmem.data" "$T/mix.data") || fail "kmemmix failed"
[ "$n" -ge 3 ] || skip "only $n struct file allocations recorded"

expect_rc 0 "$LINEUP" fields -i "$T/mix.data" --debug-file "$T/kmod/lineup_touch.ko" --json \
	>"$T/out.json" 2>"$T/err"
python3 - "$T/out.json" "$n" <<'PY' || fail "kmem allocation records did not type the samples"
import json, sys
d = json.load(open(sys.argv[1])); n = int(sys.argv[2])
a = d["attribution"]["all"]
assert a["total"] == 4 * n and a["by_evidence"]["allocation"] == 4 * n, a
s = [x for x in d["structs"] if x["type"] == "struct file"][0]
m = {r["member"]: r for r in s["members"]}
assert m["f_op"]["lcl_hitm"] == 2 * n and m["f_count"]["stores"] == 2 * n, (m["f_op"], m["f_count"])
assert 1 <= s["instances"] <= n, s["instances"]	# a freed object can come back
PY

# --cache-type overrides the built-in table: filp objects as another type.
"$LINEUP" fields -i "$T/mix.data" --debug-file "$T/kmod/lineup_touch.ko" \
	--cache-type filp='struct buffer_head' --json >"$T/bh.json" 2>/dev/null ||
	fail "--cache-type run failed"
grep -q '"type":"struct buffer_head"' "$T/bh.json" || fail "--cache-type not applied"
exit 0
