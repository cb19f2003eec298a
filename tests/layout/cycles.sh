#!/bin/sh
# Type cycles in hand-edited debug info (issue 15): an array whose element type is itself, a
# typedef of itself, const <-> volatile, a struct containing itself.  Each one crashed lineup
# layout (unbounded recursion) or printed a wrapped-around size ("XXX 4294967260 bytes hole");
# now: exit 2, naming the DIE offset (DWARF) or the type id (BTF) where the cycle was seen.
# Structs not on a cycle are still shown.  Also: -C 'struct NAME' names the struct NAME.
. "$top_srcdir/tests/lib.sh"
scratch
patch=$top_builddir/tests/tools/dwarf_patch
need gcc
cp "$top_srcdir/tests/layout/cycles.c" "$T/cyc.c" || exit 99
# linked, so that .debug_info's string references are relocated in the file itself
gcc -g -shared -fPIC "$T/cyc.c" -o "$T/cyc.so" || fail "cannot build cyc.so"
"$LINEUP" layout "$T/cyc.so" >"$T/out" || fail "the unedited object: exit $?"
"$LINEUP" layout -C 'struct fine' "$T/cyc.so" >"$T/out" || fail "-C 'struct fine': exit $?"
grep -q '^struct fine {' "$T/out" || fail "-C 'struct fine': $(cat "$T/out")"
"$LINEUP" layout -C 'union fine' "$T/cyc.so" >/dev/null || fail "-C 'union fine': exit $?"

# check NAME WHAT FILE ARGS...: exit 2 (not a crash, not 0) and the message names WHAT
check() {
	name=$1 what=$2
	shift 2
	"$LINEUP" layout "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] || fail "$name: exit $rc, want 2: $(head -c 300 "$T/err") $(grep -m2 4294 "$T/out")"
	grep -q "$what: a type that refers back to itself" "$T/err" ||
		fail "$name: $(cat "$T/err")"
}

set -- "arr_self arr_self.arr>=." "td_self td_self.t>=." "cv_loop cv_loop.cv>>=cv_loop.cv>" \
	"self_member self_member.in=self_member"
for c in "$@"; do
	st=${c%% *} edit=${c#* }
	"$patch" "$T/cyc.so" "$T/e.so" "$edit" >"$T/patch" || fail "dwarf_patch $edit"
	# the DIE named is one end of the edited reference: the type on the cycle
	from=$(sed -n 's/.*: DIE \(0x[0-9a-f]*\) -> .*/\1/p' "$T/patch")
	to=$(sed -n 's/.*: DIE 0x[0-9a-f]* -> \(0x[0-9a-f]*\)$/\1/p' "$T/patch")
	check "DWARF $st -C" "DIE \($from\|$to\)" -C "$st" "$T/e.so"
	grep -q "cycle in the DWARF of $st" "$T/err" || fail "DWARF $st: $(cat "$T/err")"
	check "DWARF $st, every struct" "DIE \($from\|$to\)" "$T/e.so"
	"$LINEUP" layout -C fine "$T/e.so" >/dev/null || fail "DWARF $st: struct fine not shown"
done

# BTF: pahole encodes it, tests/tools/btf_patch.py edits it the same ways.
[ -n "${PAHOLE:-}" ] || skip "pahole (dwarves) is not installed: DWARF cases only"
need python3
gcc -g -c "$T/cyc.c" -o "$T/cyc.o" && "$PAHOLE" -J "$T/cyc.o" 2>/dev/null &&
	objcopy --dump-section .BTF="$T/cyc.btf" "$T/cyc.o" 2>/dev/null ||
	skip "pahole -J cannot encode BTF here: DWARF cases only"
"$LINEUP" layout "$T/cyc.btf" >/dev/null || fail "the unedited BTF: exit $?"
for c in "$@"; do
	st=${c%% *} edit=${c#* }
	python3 "$top_srcdir/tests/tools/btf_patch.py" "$T/cyc.btf" "$T/e.btf" "$edit" \
		>"$T/patch" || fail "btf_patch $edit"
	id=$(sed -n 's/.*: -> type \([0-9]*\)$/\1/p' "$T/patch")
	check "BTF $st -C" "BTF type $id" -C "$st" "$T/e.btf"
	grep -q "cycle in the BTF of $st" "$T/err" || fail "BTF $st: $(cat "$T/err")"
	check "BTF $st --btf=" "BTF type $id" --btf="$T/e.btf"
	"$LINEUP" layout -C fine "$T/e.btf" >/dev/null || fail "BTF $st: struct fine not shown"
done
