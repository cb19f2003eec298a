#!/bin/sh
# Oracle on BTF: every struct and union of the running kernel's /sys/kernel/btf/vmlinux as
# `lineup layout --btf` prints it equals pahole's BTF rendering of the same file.
. "$top_srcdir/tests/lib.sh"
scratch
btf=/sys/kernel/btf/vmlinux
[ -r "$btf" ] || skip "$btf is absent (kernel without CONFIG_DEBUG_INFO_BTF)"
[ -n "${PAHOLE:-}" ] || skip "pahole (dwarves) is not installed"

"$PAHOLE" -F btf "$btf" >"$T/pahole.txt" 2>/dev/null || fail "pahole failed on $btf"
"$LINEUP" layout --btf >"$T/lineup.txt" || fail "lineup layout --btf failed"
n=$(grep -c '^struct ' "$T/pahole.txt")
[ "$n" -ge 1000 ] || fail "pahole shows only $n structs in $btf"
pahole_diff "$T/pahole.txt" "$T/lineup.txt" >"$T/diff" || {
	head -60 "$T/diff" >&2
	fail "lineup layout --btf differs from pahole on $(grep -c '^[-+][^-+]' "$T/diff") lines"
}
"$PAHOLE" -F btf -C task_struct "$btf" >"$T/p.txt" 2>/dev/null
"$PAHOLE" -F btf -C file "$btf" >>"$T/p.txt" 2>/dev/null
"$LINEUP" layout --btf="$btf" -C task_struct,file >"$T/l.txt" || fail "-C task_struct,file failed"
pahole_diff "$T/p.txt" "$T/l.txt" || fail "task_struct/file differ from pahole"
# a raw BTF file as FILE is recognized without --btf
"$LINEUP" layout -C task_struct,file "$btf" >"$T/l.txt" || fail "$btf as FILE failed"
diff -u "$T/p.txt" "$T/l.txt" || fail "$btf as FILE differs from --btf"
echo "$n structs identical to pahole"
exit 0
