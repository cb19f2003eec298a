#!/bin/sh
# Qualified arrays (issue 20): const, volatile, restrict and _Atomic over arrays and typedefs of
# arrays, in both of the compilers' orders (tests/layout/qualarr.c), are arrays in `lineup
# layout`: their dimensions printed, their elements counted.  Against pahole byte for byte on
# clang's DWARF; on gcc's, where pahole prints its defect (tests/lib.sh's pahole_diff), against
# the text written here; _Atomic, which pahole 1.24 does not read, against the text written here
# for both (DWARF 5; DWARF 4 has no _Atomic, and pahole reads it).  The same for the BTF that pahole encodes from either.
. "$top_srcdir/tests/lib.sh"
scratch
[ -n "${PAHOLE:-}" ] || skip "pahole (dwarves) is not installed"
need python3
src=$top_srcdir/tests/layout/qualarr.c

# elements WHAT LAYOUT-ARGS...: every member's element count and size in `layout --json`
elements() {
	local what=$1
	shift
	"$LINEUP" layout --json "$@" >"$T/l.json" || fail "$what: layout --json $* failed"
	python3 - "$T/l.json" <<'PY' || fail "$what: the arrays' elements are wrong"
import json, sys
want = {"a": (8, 4), "b": (2, 8), "d": (2, 8), "e": (8, 4), "f": (8, 4), "g": (8, 4),
        "h": (4, 4), "i": (2, 4), "j": (8, 4), "k": (6, 4), "m": (2, 4), "o": (2, 8),
        "q": (16, 4), "p": (0, 4), "c": (3, 4), "l": (2, 8), "r": (2, 4), "s": (2, 4)}
seen = set()
for t in json.load(open(sys.argv[1])):
    for m in t["members"]:
        got = (m.get("elements", 1), m.get("element_size", m["size"]))
        if got != want[m["name"]]:
            print("%s.%s: %s elements of %s bytes, not %s" % (t["name"], m["name"], got[0],
                                                             got[1], want[m["name"]]))
            sys.exit(1)
        seen.add(m["name"])
if len(seen) < 14:
    print("only %s in the JSON" % sorted(seen))
    sys.exit(1)
PY
}

cat >"$T/gcc.expect" <<'EOT'
struct qual_arrays {
	volatile int               a[8];                 /*     0    32 */
	const long int             b[2];                 /*    32    16 */
	int * restrict             d[2];                 /*    48    16 */
	/* --- cacheline 1 boundary (64 bytes) --- */
	volatile int               e[8];                 /*    64    32 */
	const int                  f[8];                 /*    96    32 */
	/* --- cacheline 2 boundary (128 bytes) --- */
	const carr8                g;                    /*   128    32 */
	volatile varr              h;                    /*   160    16 */
	vint                       i[2];                 /*   176     8 */
	volatile const int         j[8];                 /*   184    32 */
	/* --- cacheline 3 boundary (192 bytes) was 24 bytes ago --- */
	volatile const int         k[2][3];              /*   216    24 */
	volatile struct            m[2];                 /*   240     8 */
	const const char  *        o[2];                 /*   248    16 */
	/* --- cacheline 4 boundary (256 bytes) was 8 bytes ago --- */
	volatile int               q[2][8];              /*   264    64 */
	/* --- cacheline 5 boundary (320 bytes) was 8 bytes ago --- */
	const int                  p[];                  /*   328     0 */

	/* size: 328, cachelines: 6, members: 14 */
	/* last cacheline: 8 bytes */
};
EOT
for long in "long int" long; do
	cat <<EOT
struct atomic_arrays {
	_Atomic int                c[3];                 /*     0    12 */

	/* XXX 4 bytes hole, try to pack */

	_Atomic $(printf '%-18s' "$long") l[2];                 /*    16    16 */
	aint                       r[2];                 /*    32     8 */
	volatile _Atomic int       s[2];                 /*    40     8 */

	/* size: 48, cachelines: 1, members: 4 */
	/* sum members: 44, holes: 1, sum holes: 4 */
	/* last cacheline: 48 bytes */
};
EOT
done >"$T/atomic.expect"
sed -n '1,/^};/p' "$T/atomic.expect" >"$T/gcc-atomic.expect"
sed '1,/^};/d' "$T/atomic.expect" >"$T/clang-atomic.expect"

n=0
for cc in gcc ${CLANG:-}; do
	command -v "$cc" >/dev/null 2>&1 || continue
	name=$(basename "$cc")
	case $name in clang*) kind=clang ;; *) kind=gcc ;; esac
	for v in 4 5; do
		obj=$T/q-$name-$v.o
		"$cc" -g -gdwarf-$v -c "$src" -o "$obj" || fail "$cc -gdwarf-$v does not compile qualarr.c"
		"$PAHOLE" -C qual_arrays "$obj" >"$T/p.txt" 2>/dev/null
		"$LINEUP" layout -C qual_arrays "$obj" >"$T/l.txt" || fail "$cc: layout failed"
		if [ $kind = clang ]; then
			diff -u "$T/p.txt" "$T/l.txt" ||
				fail "$cc -gdwarf-$v: qual_arrays differs from pahole"
			"$PAHOLE" --expand_types -C qual_arrays "$obj" >"$T/p.txt" 2>/dev/null
			"$LINEUP" layout --expand -C qual_arrays "$obj" >"$T/l.txt"
			diff -u "$T/p.txt" "$T/l.txt" ||
				fail "$cc -gdwarf-$v: --expand qual_arrays differs from pahole"
		else
			diff -u "$T/gcc.expect" "$T/l.txt" ||
				fail "$cc -gdwarf-$v: qual_arrays is not the expected one"
			pahole_diff "$T/p.txt" "$T/l.txt" ||
				fail "$cc -gdwarf-$v: qual_arrays differs from pahole beyond its defect"
		fi
		"$LINEUP" layout -C atomic_arrays "$obj" >"$T/l.txt" || fail "$cc: layout failed"
		if [ $v = 5 ]; then
			diff -u "$T/$kind-atomic.expect" "$T/l.txt" ||
				fail "$cc -gdwarf-$v: atomic_arrays is not the expected one"
		else
			# DWARF 4 has no DW_TAG_atomic_type: the compilers leave _Atomic out
			"$PAHOLE" -C atomic_arrays "$obj" >"$T/p.txt" 2>/dev/null
			pahole_diff "$T/p.txt" "$T/l.txt" ||
				fail "$cc -gdwarf-$v: atomic_arrays differs from pahole beyond its defect"
		fi
		elements "$cc -gdwarf-$v" -C qual_arrays,atomic_arrays "$obj"

		# BTF that pahole encodes from the same DWARF (it drops _Atomic's types)
		cp "$obj" "$T/btf.o"
		"$PAHOLE" -J "$T/btf.o" >/dev/null 2>&1 || fail "pahole -J failed on $obj"
		"$PAHOLE" -F btf -C qual_arrays "$T/btf.o" >"$T/p.txt" 2>/dev/null
		"$LINEUP" layout --btf="$T/btf.o" -C qual_arrays >"$T/l.txt" ||
			fail "$cc: layout --btf failed"
		pahole_diff "$T/p.txt" "$T/l.txt" ||
			fail "$cc -gdwarf-$v: qual_arrays from BTF differs from pahole beyond its defect"
		grep -q '^	volatile int               a\[8\];' "$T/l.txt" ||
			fail "$cc -gdwarf-$v: a volatile array from BTF: $(grep ' a' "$T/l.txt")"
		elements "$cc -gdwarf-$v BTF" --btf="$T/btf.o" -C qual_arrays
		n=$((n + 1))
	done
done
[ $n -gt 0 ] || skip "neither gcc nor clang"
echo "$n objects: qualified arrays as arrays"
exit 0
