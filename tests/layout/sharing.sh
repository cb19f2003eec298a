#!/bin/sh
# Anonymous types shared among members (issue 15, and what CI's ELF fuzzer timed out on): C
# lets `struct { ... } a, b;` and __typeof__ give many members one anonymous type, and hostile
# DWARF can do it at every level, so a 100 KB object can describe 18 million lines of layout.
# Function-pointer types can share a parameter type the same way, and then name themselves in
# 2^depth bytes (what CI's fuzzer timed out on next: 52 MB for one member's type).  A little
# sharing prints as pahole prints it; a type that expands beyond the builder's budget is
# refused with exit 2 and a message naming it, quickly, and the other structs of the file
# still print.
. "$top_srcdir/tests/lib.sh"
scratch
need python3

# depth 3, two members per level: 8 leaves, as real code shares
cat >"$T/small.c" <<'C'
struct small { struct { struct { struct { int x; } a, b; } c, d; } e, f; int tail; };
struct small v;
C
gcc -g -c "$T/small.c" -o "$T/small.o" || fail "gcc small.c"
"$LINEUP" layout -C small "$T/small.o" >"$T/l.txt" || fail "layout -C small: exit $?"
[ "$(grep -c ' x; ' "$T/l.txt")" -eq 8 ] || fail "8 expanded members expected: $(cat "$T/l.txt")"
if [ -n "${PAHOLE:-}" ]; then
	"$PAHOLE" -C small "$T/small.o" >"$T/p.txt"
	pahole_diff "$T/p.txt" "$T/l.txt" || fail "layout -C small differs from pahole"
fi

# 300 structs, each holding one 4-way, 8-level shared anonymous type (16,384 leaves, under the
# budget of one struct; 300 of them are over the file's), and one holding eight of them
python3 - "$T/dag.c" <<'PY'
import sys
s = "int x;"
for i in range(7):
    s = "struct { %s } a%d, b%d, c%d, d%d;" % (s, i, i, i, i)
s = "struct { %s } a7;" % s
out = "struct fine { int a; long b; };\nstruct fine f;\n"
out += "struct T0 { %s };\nstruct T0 v0;\n" % s
for j in range(1, 300):
    out += "struct T%d { __typeof__(v0.a7) m; };\nstruct T%d v%d;\n" % (j, j, j)
out += "struct W { __typeof__(v0.a7) m, n, o, p, q, r, s, t; };\nstruct W w;\n"
open(sys.argv[1], "w").write(out)
PY
gcc -g -c "$T/dag.c" -o "$T/dag.o" || fail "gcc dag.c"
# void (*p1)(void (*)(int), void (*)(int)), and so on 21 times: a name of 2^21 parameters
python3 - "$T/fn.c" <<'PY'
import sys
out = "void (*p0)(int);\n"
for i in range(1, 22):
    out += "void (*p%d)(__typeof__(p%d), __typeof__(p%d));\n" % (i, i - 1, i - 1)
out += "struct fnptrs { __typeof__(p21) f; int x; };\nstruct fnptrs s;\n"
out += "struct fine { int a; long b; };\nstruct fine g;\n"
open(sys.argv[1], "w").write(out)
PY
gcc -g -c "$T/fn.c" -o "$T/fn.o" || fail "gcc fn.c"
refused() {	# refused WHAT ARGS...: exit 2, the budget named, in well under a minute
	what=$1
	shift
	rc=0
	timeout 60 "$LINEUP" layout "$@" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -ne 124 ] || fail "$what: still printing after 60 s"
	[ "$rc" -eq 2 ] || fail "$what: exit $rc, expected 2: $(head -c 300 "$T/err")"
	grep -q ": [TWfnptrs0-9]*: its types expand beyond the builder's budget" "$T/err" ||
		fail "$what: $(cat "$T/err")"
}
refused "DWARF, every struct" "$T/dag.o"
refused "DWARF -C W" -C W "$T/dag.o"
refused "DWARF -C fnptrs" -C fnptrs "$T/fn.o"
refused "DWARF, every struct of fn.o" "$T/fn.o"
"$LINEUP" layout -C fine "$T/fn.o" >/dev/null || fail "struct fine of fn.o: exit $?"
"$LINEUP" layout -C T7 "$T/dag.o" >"$T/t7" || fail "DWARF -C T7 (under the budget): exit $?"
[ "$(grep -c ' x; ' "$T/t7")" -eq 16384 ] || fail "DWARF -C T7: $(grep -c ' x; ' "$T/t7") members"
"$LINEUP" layout -C fine "$T/dag.o" >/dev/null || fail "struct fine of the same file: exit $?"

[ -n "${PAHOLE:-}" ] || skip "pahole (dwarves) is not installed: DWARF cases only"
"$PAHOLE" -J "$T/dag.o" 2>/dev/null && objcopy --dump-section .BTF="$T/dag.btf" "$T/dag.o" \
	2>/dev/null || skip "pahole -J cannot encode BTF here: DWARF cases only"
refused "BTF, every struct" "$T/dag.btf"
refused "BTF -C W" -C W "$T/dag.btf"
"$PAHOLE" -J "$T/fn.o" 2>/dev/null && objcopy --dump-section .BTF="$T/fn.btf" "$T/fn.o" \
	2>/dev/null || fail "pahole -J encoded dag.o but not fn.o"
refused "BTF -C fnptrs" -C fnptrs "$T/fn.btf"
"$LINEUP" layout -C T7 "$T/dag.btf" >"$T/t7" || fail "BTF -C T7 (under the budget): exit $?"
[ "$(grep -c ' x; ' "$T/t7")" -eq 16384 ] || fail "BTF -C T7: $(grep -c ' x; ' "$T/t7") members"
"$LINEUP" layout -C fine "$T/dag.btf" >/dev/null || fail "BTF: struct fine: exit $?"
