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

# every source the module has (other tests add files to it): *.c, *.h and the Kbuild
for f in "$top_srcdir"/tests/kmod/*.c "$top_srcdir"/tests/kmod/*.h "$top_srcdir"/tests/kmod/Kbuild; do
	[ -f "$f" ] && cp "$f" "$T/"
done
# not make's jobserver of `make check`: kbuild runs its own
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$hdr" M="$T" modules >"$T/build.log" 2>&1 || {
	tail -20 "$T/build.log" >&2
	fail "the test module does not build against $hdr"
}
set -- "$T"/*.ko
[ -f "$1" ] || fail "no module after the build"
total=0
for ko in "$@"; do
	"$PAHOLE" "$ko" >"$T/pahole.txt" 2>/dev/null || fail "pahole failed on $ko"
	"$LINEUP" layout "$ko" >"$T/lineup.txt" || fail "lineup layout failed on $ko"
	n=$(grep -c '^struct ' "$T/pahole.txt")
	[ "$n" -ge 100 ] || fail "pahole shows only $n structs in $(basename "$ko")"
	pahole_diff "$T/pahole.txt" "$T/lineup.txt" >"$T/diff" || {
		head -60 "$T/diff" >&2
		fail "lineup layout differs from pahole on $(basename "$ko")'s $n structs"
	}
	"$PAHOLE" --expand_types "$ko" >"$T/pahole.txt" 2>/dev/null
	"$LINEUP" layout --expand "$ko" >"$T/lineup.txt" || fail "--expand failed on $ko"
	pahole_diff "$T/pahole.txt" "$T/lineup.txt" >"$T/diff" || {
		head -40 "$T/diff" >&2
		fail "--expand differs from pahole --expand_types on $(basename "$ko")"
	}
	total=$((total + n))
done

# The seed structs, by name, each alone.
ko=$T/lineup_kmod.ko
for s in file buffer_head block_device mb_cache_entry; do
	"$PAHOLE" -C $s "$ko" >"$T/p.txt" 2>/dev/null
	grep -q "^struct $s {" "$T/p.txt" || fail "pahole does not show struct $s"
	"$LINEUP" layout -C $s "$ko" >"$T/l.txt" || fail "lineup layout -C $s failed"
	pahole_diff "$T/p.txt" "$T/l.txt" || fail "struct $s differs from pahole"
done
echo "$total structs in $# modules identical to pahole"
exit 0
