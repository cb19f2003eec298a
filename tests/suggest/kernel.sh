#!/bin/sh
# lineup suggest on the real kernel's struct file (seed 003) and hd_struct (seed 004): samples
# at the real IPs of tests/kmod's functions (tests/fields/kscenario.sh), the layout from the
# module's DWARF, the source from Debian's linux-source-6.1.  The patch of include/linux/fs.h
# must apply to that tree (git apply --check), the randstruct warning must be said, and the
# module built against a patched copy of the installed headers must have exactly the offsets
# suggest predicted.
. "$top_srcdir/tests/lib.sh"
scratch
need git	# the patch must apply with git apply --check
need objdump
need python3
need make
. "$top_srcdir/tests/fields/kscenario.sh"
KVER=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | head -n1)
[ -n "$KVER" ] && [ -f "$KVER/Makefile" ] || skip "no linux-headers-*-amd64 in /usr/src"
tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)
[ -n "$tarball" ] || skip "no /usr/src/linux-source-*.tar.xz (package linux-source)"
MKKERN="$top_builddir/tests/fields/mkkern"

kernel_scenario
cp "$KO" "$T/orig.ko"

# The kernel tree, as much of it as the patch and the style need.
name=$(basename "$tarball" .tar.xz)
tar -C "$T" -xJf "$tarball" "$name/include/linux/fs.h" "$name/include/linux/cache.h" ||
	fail "could not unpack fs.h from $tarball"
LINUX=$T/$name

"$LINEUP" suggest -i "$T/perf.data" --debug-file "$T/orig.ko" -C file --source-root "$LINUX" \
	--patch "$T/fs.diff" --json >"$T/s.json" 2>"$T/s.err" ||
	{ cat "$T/s.err" "$T/s.json"; fail "suggest -C file --patch"; }
grep -q "CONFIG_RANDSTRUCT off" "$T/s.err" || { cat "$T/s.err"; fail "no randstruct warning"; }
grep -q '^--- a/include/linux/fs.h' "$T/fs.diff" || { head "$T/fs.diff"; fail "diff paths"; }
(cd "$LINUX" && git apply --check "$T/fs.diff") ||
	{ cat "$T/fs.diff"; fail "git apply --check refuses the patch in $name"; }

python3 - "$T/s.json" <<'PY' || fail "wrong suggestion for struct file"
import json, sys
d = json.load(open(sys.argv[1]))["structs"][0]
assert d["status"] == "ok", d
m = {x["name"]: x for x in d["members"]}
line = lambda n: m[n]["new_offset"] // d["line_size"]
for ro in ("f_op", "f_inode", "f_path"):
    assert m[ro]["use"] == "read-mostly", (ro, m[ro])
    for w in ("f_count", "f_lock", "f_pos_lock"):
        assert line(ro) != line(w), (ro, w, line(ro))
assert any(f["kind"] == "true_sharing" and f["member"] == "f_count" for f in d["findings"]), d["findings"]
# the read-mostly members' HITMs go (their line has no writer left); f_count's stay
assert d["after"]["hitm_measured"] < d["before"]["hitm_measured"], (d["before"], d["after"])
ro = [l for l in d["after"]["lines"] if l["offset"] == line("f_op") * d["line_size"]][0]
assert ro["hitm_measured"] == 0 and ro["transfers"] == 0, ro
assert "f_op" in d["comment"] and "file_read_mostly" in d["comment"], d["comment"]
PY

# The compiler's word: the module built against a patched copy of the installed headers.
common=$(sed -n 's/^include \(.*\)\/Makefile$/\1/p' "$KVER/Makefile")
[ -d "$common" ] || fail "no common headers behind $KVER"
mkdir "$T/hdr"
cp -a "$KVER" "$common" "$T/hdr/" || fail "copy of the headers"
HK=$T/hdr/$(basename "$KVER")
HC=$T/hdr/$(basename "$common")
echo "include $HC/Makefile" >"$HK/Makefile"
# relative links (scripts -> ../../lib/linux-kbuild-*/scripts) point where they did
for l in $(cd "$T/hdr" && find . -type l); do
	ln -sfn "$(readlink -f "$(dirname "$KVER")/$l")" "$T/hdr/$l"
done
"$LINEUP" suggest -i "$T/perf.data" --debug-file "$T/orig.ko" -C file --source-root "$HC" \
	--patch "$T/hdr.diff" >/dev/null 2>"$T/h.err" || { cat "$T/h.err"; fail "suggest on the headers"; }
(cd "$HC" && patch -s -p1 <"$T/hdr.diff") || fail "the patch does not apply to the headers"
KVER=$HK
build_test_module
"$LINEUP" layout --json -C file "$KO" >"$T/built.json" || fail "lineup layout on the new module"
python3 - "$T/s.json" "$T/built.json" <<'PY' || fail "the compiled struct file differs from the prediction"
import json, sys
s = json.load(open(sys.argv[1]))["structs"][0]
b = json.load(open(sys.argv[2]))
b = b[0] if isinstance(b, list) else b
got = {m["name"]: m["offset"] for m in b["members"] if m.get("name")}
bad = [(m["name"], m["new_offset"], got.get(m["name"])) for m in s["members"]
       if m["name"] in got and got[m["name"]] != m["new_offset"]]
assert not bad, bad
assert b["size"] == s["size"]["after"], (b["size"], s["size"])
print("struct file: %d members at their predicted offsets, size %d" % (len(got), b["size"]))
PY

# Seed 004: the partition's in_flight counters are written from every CPU: true sharing,
# nothing a layout removes, per-CPU advice with the read side.
expect_rc 1 "$LINEUP" suggest -i "$T/perf.data" --debug-file "$T/orig.ko" -C lineup_hd_struct \
	>"$T/hd.txt" 2>&1
grep -q "per-CPU or sharded counter" "$T/hd.txt" || { cat "$T/hd.txt"; fail "hd_struct: no per-CPU advice"; }
exit 0
