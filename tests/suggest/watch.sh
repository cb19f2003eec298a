#!/bin/sh
# lineup suggest on a watch recording of a live kernel object: the running kernel's struct file
# (layout from its BTF, no source at hand) watched on f_ref, f_pos_lock, f_pos and f_op while
# two threads share an fd.  suggest separates the read-mostly f_op from the members both CPUs
# write, says the true sharing, and with --source-root naming Debian's linux-source-6.1 tree
# writes a patch of include/linux/fs.h that `git apply --check` accepts there, the members
# matched by name and those of one side only said (this kernel has f_ref, 6.1 has f_count).
. "$top_srcdir/tests/lib.sh"
scratch
need git	# the patch must apply with git apply --check
. "$top_srcdir/tests/watch/lib-watch.sh"
need python3
need_watch_kernel
build_workload sharedfd
[ "$(nproc)" -ge 2 ] || skip "needs two CPUs"

cd "$T" || exit 99
"$LINEUP" watch -q -o "$T/w.data" --alloc filp --comm lw-sharedfd \
	--fields f_ref,f_pos_lock,f_pos,f_op -- "$T/sharedfd" -n lw-sharedfd -p -d 300 -t 1 \
	>"$T/out" 2>"$T/err" || fail "lineup watch: $(cat "$T/err")"

"$LINEUP" suggest -i "$T/w.data" -C file --json >"$T/s.json" 2>"$T/s.err"
rc=$?
[ $rc -le 1 ] || fail "suggest on the watch recording: exit $rc: $(cat "$T/s.err")"
python3 - "$T/s.json" <<'PY' || fail "suggest on the watch recording (above)"
import json, sys
d = json.load(open(sys.argv[1]))["structs"][0]
# a member of an anonymous union goes by the union's names joined ("f_pos_lock|f_pipe")
m = {n: x for x in d["members"] for n in x["name"].split("|")}
ref = "f_ref" if "f_ref" in m else "f_count"
assert m["f_op"]["use"] == "read-mostly", m["f_op"]
assert m[ref]["use"] == "written" and len(m[ref]["writers"]) >= 1, m[ref]
if d["status"] == "ok":
    line = lambda n: m[n]["new_offset"] // d["line_size"]
    assert line("f_op") != line(ref) and line("f_op") != line("f_pos_lock"), d["order"]
    assert d["comment"], d
print("suggest on the live struct file:", d["status"], d.get("message"))
PY

tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)
[ -n "$tarball" ] || exit 0
grep -q '"status": "ok"' "$T/s.json" || exit 0
name=$(basename "$tarball" .tar.xz)
tar -C "$T" -xJf "$tarball" "$name/include/linux/fs.h" "$name/include/linux/cache.h" ||
	fail "could not unpack fs.h from $tarball"
"$LINEUP" suggest -i "$T/w.data" -C file --source-root "$T/$name" --patch "$T/fs.diff" \
	>/dev/null 2>"$T/p.err" || { cat "$T/p.err"; fail "suggest --patch on a BTF layout"; }
grep -q 'matched by name' "$T/p.err" || { cat "$T/p.err"; fail "the members' difference not said"; }
(cd "$T/$name" && git apply --check "$T/fs.diff") ||
	{ cat "$T/fs.diff"; fail "git apply --check refuses the patch of a BTF layout"; }
exit 0
