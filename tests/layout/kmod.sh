#!/bin/sh
# Oracle on real kernel DWARF: build tests/kmod (struct file, buffer_head, block_device,
# mb_cache_entry) against the installed linux-headers, then every struct of its DWARF as lineup
# prints it must equal pahole's output.  The running kernel may differ from the headers: only
# the DWARF is used.
. "$top_srcdir/tests/lib.sh"
scratch
[ -n "${PAHOLE:-}" ] || skip "pahole (dwarves) is not installed"
hdr=
for d in /usr/src/linux-headers-*-amd64 /usr/src/linux-headers-*; do
	[ -f "$d/Makefile" ] && [ -d "$d/include" ] || [ -f "$d/Module.symvers" ] || continue
	hdr=$d
	break
done
[ -n "$hdr" ] || skip "no linux-headers installed (Debian: linux-headers-amd64)"
command -v make >/dev/null 2>&1 || skip "no make"

cp "$top_srcdir/tests/kmod/lineup_kmod.c" "$top_srcdir/tests/kmod/Kbuild" "$T/"
make -C "$hdr" M="$T" modules >"$T/build.log" 2>&1 || {
	tail -20 "$T/build.log" >&2
	fail "the test module does not build against $hdr"
}
ko=$T/lineup_kmod.ko
[ -f "$ko" ] || fail "no $ko after the build"

"$PAHOLE" "$ko" >"$T/pahole.txt" 2>/dev/null || fail "pahole failed on the module"
"$LINEUP" layout "$ko" >"$T/lineup.txt" || fail "lineup layout failed on the module"
n=$(grep -c '^struct ' "$T/pahole.txt")
[ "$n" -ge 100 ] || fail "pahole shows only $n structs in the module"
diff -u "$T/pahole.txt" "$T/lineup.txt" >"$T/diff" || {
	head -60 "$T/diff" >&2
	fail "lineup layout differs from pahole on the module's $n structs"
}

# The seed structs, by name, each alone.
for s in file buffer_head block_device mb_cache_entry; do
	"$PAHOLE" -C $s "$ko" >"$T/p.txt" 2>/dev/null
	grep -q "^struct $s {" "$T/p.txt" || fail "pahole does not show struct $s"
	"$LINEUP" layout -C $s "$ko" >"$T/l.txt" || fail "lineup layout -C $s failed"
	diff -u "$T/p.txt" "$T/l.txt" || fail "struct $s differs from pahole"
done
echo "$n structs identical to pahole"
exit 0
