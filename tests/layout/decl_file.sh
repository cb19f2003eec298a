#!/bin/sh
# Where `lineup layout --json` says a struct and its members are declared, for a program built
# in its own directory with relative names (as a user builds), read from another directory:
# gcc and clang, DWARF 4 and 5.  clang's DWARF 5 names the main .c file as file 0 of the line
# table (DW_AT_decl_file 0, which libdw's dwarf_decl_file refuses); the header sits in an
# include directory given relatively (-Iinc), which only DW_AT_comp_dir makes absolute.
. "$top_srcdir/tests/lib.sh"
scratch
need python3
mkdir -p "$T/src/inc" "$T/elsewhere"
cat >"$T/src/inc/hdr.h" <<'SRC'
struct in_header {
	int a;
	long b;
};
SRC
cat >"$T/src/main.c" <<'SRC'
#include "hdr.h"

struct in_main {
	int x;
	long y;
};

typedef struct {
	int p;
	char q;
} pair_t;

struct in_main m;
struct in_header h;
pair_t t;

int main(void)
{
	return m.x + h.a + t.p;
}
SRC

compilers=gcc
[ -n "${CLANG:-}" ] && compilers="$compilers $CLANG"
n=0
for cc in $compilers; do
	for v in 4 5; do
		for o in 0 2; do
			bin=$T/p-$(basename "$cc")-$v-$o
			(cd "$T/src" && "$cc" -g -gdwarf-$v -O$o -Iinc main.c -o "$bin") ||
				fail "$cc -gdwarf-$v -O$o does not build main.c"
			(cd "$T/elsewhere" && "$LINEUP" layout --json -C in_main,pair_t,in_header \
				"$bin" >"$T/l.json") || fail "lineup layout --json on $bin"
			python3 - "$T/l.json" "$T/src" <<'PY' || fail "$(basename "$bin"): wrong declaration files"
import json, os, sys
d, src = json.load(open(sys.argv[1])), sys.argv[2]
want = {"in_main": ("main.c", 3), "pair_t": ("main.c", 8), "in_header": ("inc/hdr.h", 1)}
bad = []
for t in d:
    name = t["name"] or t["typedef"]
    f, line = want[name]
    f = os.path.join(src, f)
    got = t.get("decl_file")
    # the line table's own spelling ("/src/./inc/hdr.h" from clang) is kept, as addr2line's
    if not got or not os.path.isabs(got) or os.path.normpath(got) != f or t["decl_line"] != line:
        bad.append("%s: declared in %s:%s, not %s:%d" % (name, got, t.get("decl_line"), f, line))
    for i, m in enumerate(t["members"]):
        mf = m.get("decl_file")
        if not mf or os.path.normpath(mf) != f or m["decl_line"] != line + 1 + i:
            bad.append("%s.%s: declared in %s:%s" % (name, m["name"], mf, m.get("decl_line")))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
			n=$((n + 1))
		done
	done
done
echo "$n builds: every declaration file right"
exit 0
