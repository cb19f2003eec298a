#!/bin/sh
# The layout constructor against the compilers (DESIGN: "a suggested struct compiled by gcc/clang
# must have exactly the offsets lineup predicted").  tests/tools/layout_check prints layouts that
# layout__build / layout__reorder computed as C; gcc and clang compile them; lineup's own DWARF
# loader reads them back; every member's offset, bit offset, size and width and every struct's
# size must be the constructor's:
#  - every shape from scratch: bit-fields across units, unnamed and :0 bit-fields, aligned(N)
#    members and types, packed (with aligned members and bit-fields), a nested union with an
#    anonymous struct, a nested anonymous struct of bit-fields, flexible arrays, arrays,
#    pointers, long double, unions with bit-fields;
#  - tests/layout/structs.c's structs, and the kernel's struct file, buffer_head, block_device
#    and mb_cache_entry of tests/kmod, each reordered several ways.
. "$top_srcdir/tests/lib.sh"
scratch
check=$top_builddir/tests/tools/layout_check
src=$top_srcdir/tests/layout
[ -x "$check" ] || fail "no $check"

compilers=
command -v gcc >/dev/null 2>&1 && compilers="gcc"
[ -n "${CLANG:-}" ] && compilers="$compilers $CLANG"
[ -n "$compilers" ] || skip "neither gcc nor clang"

"$check" shapes >"$T/shapes.c" || fail "layout_check shapes"
n=0
for cc in $compilers; do
	for v in 4 5; do
		obj=$T/shapes-$(basename "$cc")-$v.o
		"$cc" -g -gdwarf-$v -c "$T/shapes.c" -o "$obj" 2>"$T/cc.err" || {
			cat "$T/cc.err" >&2
			fail "$cc does not compile the constructor's shapes"
		}
		"$check" check-shapes "$obj" >"$T/out" || {
			cat "$T/out" >&2
			fail "$cc -gdwarf-$v: the constructor's layouts differ from the compiler's"
		}
		grep -q '^18 shapes, 0 difference' "$T/out" || fail "shapes: $(cat "$T/out")"
		n=$((n + 1))
	done
done

# check_reorders ORIG NEW WHO STRUCT...: each STRUCT of ORIG in each order, as layout__reorder
# computed it, equals STRUCT_ORDER as the compiler laid it out in NEW.
orders="reverse rot3 shuffle1 shuffle2 shuffle3"
check_reorders() {
	orig=$1 new=$2 who=$3
	shift 3
	for st in "$@"; do
		for o in $orders; do
			"$check" check-reorder "$orig" $st $o "$new" "${st}_$o" >"$T/out" || {
				cat "$T/out" >&2
				fail "$who: struct $st reordered $o differs from the compiler's"
			}
			n=$((n + 1))
		done
	done
}

# reorders OBJ STRUCT...: the C of each STRUCT of OBJ in each order, named STRUCT_ORDER.
reorders() {
	obj=$1
	shift
	for st in "$@"; do
		for o in $orders; do
			"$check" reorder "$obj" $st $o "${st}_$o" || fail "reorder $st $o"
		done
	done
}

# Reorderings of real structs, compiled in the same unit as the originals (their member types).
# (structs.c's `arrays` is left out: pahole's text for an array of function pointers is no C.)
ustructs="bits bits_span packed_one with_packed aligned_member aligned_struct anon flex_only
	hd_struct hd_struct_old"
for cc in $compilers; do
	obj=$T/structs-$(basename "$cc").o
	"$cc" -g -O2 -c "$src/structs.c" -I"$src" -o "$obj" || fail "$cc does not compile structs.c"
	{
		echo '#include "structs.c"'
		# shellcheck disable=SC2086
		reorders "$obj" $ustructs
	} >"$T/reordered.c"
	"$cc" -g -O2 -c -I"$src" "$T/reordered.c" -o "$T/reordered.o" 2>"$T/cc.err" || {
		cat "$T/cc.err" >&2
		fail "$cc does not compile the reordered structs"
	}
	# shellcheck disable=SC2086
	check_reorders "$obj" "$T/reordered.o" "$cc" $ustructs
done

# The kernel's structs: tests/kmod built against the linux-headers, then a module declaring
# their reorderings, built the same way (gcc, the kernel's flags).
KVER=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | head -n1)
if [ -z "$KVER" ] || ! command -v make >/dev/null 2>&1; then
	echo "no linux-headers: $n user-space checks only"
	exit 0
fi
kbuild() {	# kbuild DIR SOURCE: the module of SOURCE in DIR
	echo "obj-m := $(basename "$2" .c).o" >"$1/Kbuild"
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$KVER" M="$1" modules >"$1.log" 2>&1 ||
		{ tail -20 "$1.log" >&2; fail "$2 does not build against $KVER"; }
}
mkdir -p "$T/k1" "$T/k2"
cp "$top_srcdir/tests/kmod/lineup_kmod.c" "$T/k1/"
kbuild "$T/k1" lineup_kmod.c
ko=$T/k1/lineup_kmod.ko
kstructs="file buffer_head block_device mb_cache_entry"
{
	sed -n '/^#include/p' "$top_srcdir/tests/kmod/lineup_kmod.c"
	# shellcheck disable=SC2086
	reorders "$ko" $kstructs
	echo 'MODULE_LICENSE("GPL");'
} >"$T/k2/lineup_reordered.c"
kbuild "$T/k2" lineup_reordered.c
# shellcheck disable=SC2086
check_reorders "$ko" "$T/k2/lineup_reordered.ko" gcc $kstructs
echo "$n layouts equal to the compilers'"
