#!/bin/sh
# Oracle: `lineup layout` prints exactly what pahole prints, on tests/layout/structs.c compiled
# by gcc and clang, DWARF 4 and 5, -O0 and -O2 (bitfields across units, packed and aligned(64)
# members, anonymous unions, nested and flexible arrays, Linux 5.10's hd_struct).
. "$top_srcdir/tests/lib.sh"
scratch
[ -n "${PAHOLE:-}" ] || skip "pahole (dwarves) is not installed"
src=$top_srcdir/tests/layout

compilers=
command -v gcc >/dev/null 2>&1 && compilers="gcc"
[ -n "${CLANG:-}" ] && compilers="$compilers $CLANG"
[ -n "$compilers" ] || skip "neither gcc nor clang"

n=0
for cc in $compilers; do
	for v in 4 5; do
		for o in 0 2; do
			obj=$T/s-$(basename "$cc")-$v-$o.o
			"$cc" -g -gdwarf-$v -O$o -c "$src/structs.c" -I"$src" -o "$obj" ||
				fail "$cc -gdwarf-$v -O$o does not compile structs.c"
			"$PAHOLE" "$obj" >"$T/pahole.txt" 2>"$T/pahole.err" || fail "pahole failed on $obj"
			"$LINEUP" layout "$obj" >"$T/lineup.txt" || fail "lineup layout failed on $obj"
			[ "$(grep -c '^struct ' "$T/pahole.txt")" -ge 10 ] ||
				fail "pahole shows too few structs in $obj"
			pahole_diff "$T/pahole.txt" "$T/lineup.txt" ||
				fail "$cc -gdwarf-$v -O$o: lineup layout differs from pahole"
			"$PAHOLE" --expand_types "$obj" >"$T/pahole.txt" 2>/dev/null
			"$LINEUP" layout --expand "$obj" >"$T/lineup.txt" || fail "--expand failed"
			pahole_diff "$T/pahole.txt" "$T/lineup.txt" ||
				fail "$cc -gdwarf-$v -O$o: --expand differs from pahole --expand_types"
			n=$((n + 1))
		done
	done
done

# Cache-line sizes: --line-size N is pahole's --cacheline_size=N, --double-cl is 2x64.
obj=$(ls "$T"/s-*-5-0.o | head -1)
for ls in 32 128; do
	"$PAHOLE" --cacheline_size=$ls "$obj" >"$T/p.txt"
	"$LINEUP" layout --line-size $ls "$obj" >"$T/l.txt"
	pahole_diff "$T/p.txt" "$T/l.txt" || fail "--line-size $ls differs from pahole"
done
"$PAHOLE" --cacheline_size=128 "$obj" >"$T/p.txt"
"$LINEUP" layout --double-cl "$obj" >"$T/l.txt"
pahole_diff "$T/p.txt" "$T/l.txt" || fail "--double-cl differs from pahole --cacheline_size=128"

# A typedef'd anonymous struct by its typedef's name, and an array before tail padding, from
# every compiler and DWARF version (clang's "Force padding" is the array's type, as pahole's).
for obj in "$T"/s-*-0.o; do
	for name in pair_t tail_array; do
		"$PAHOLE" -C $name "$obj" >"$T/p.txt"
		"$LINEUP" layout -C $name "$obj" >"$T/l.txt" || fail "-C $name failed on $obj"
		[ -s "$T/p.txt" ] || fail "pahole shows no $name in $obj"
		diff -u "$T/p.txt" "$T/l.txt" || fail "$(basename "$obj"): -C $name differs from pahole"
	done
done

# -C with several names, in the order asked.
"$PAHOLE" -C aligned_member "$obj" >"$T/p.txt"
"$PAHOLE" -C bits "$obj" >>"$T/p.txt"
"$LINEUP" layout -C aligned_member,bits "$obj" >"$T/l.txt"
pahole_diff "$T/p.txt" "$T/l.txt" || fail "-C aligned_member,bits differs from pahole"

# The expected text, written here: hd_struct as 5.10 had it (gcc, any -O: a type is a type).
obj=$T/s-gcc-5-0.o
if [ -f "$obj" ]; then
	cat >"$T/expect" <<'EOT'
struct hd_struct {
	sector_t                   start_sect;           /*     0     8 */
	sector_t                   nr_sects;             /*     8     8 */
	long unsigned int          stamp;                /*    16     8 */
	struct disk_stats *        dkstats;              /*    24     8 */
	struct percpu_ref          ref;                  /*    32    16 */
	struct device_5_10         __dev;                /*    48   744 */
	/* --- cacheline 12 boundary (768 bytes) was 24 bytes ago --- */
	struct kobject *           holder_dir;           /*   792     8 */
	int                        policy;               /*   800     4 */
	int                        partno;               /*   804     4 */
	struct partition_meta_info * info;               /*   808     8 */
	struct rcu_work            rcu_work;             /*   816    56 */

	/* size: 872, cachelines: 14, members: 11 */
	/* last cacheline: 40 bytes */
};
EOT
	"$LINEUP" layout -C hd_struct "$obj" >"$T/l.txt"
	diff -u "$T/expect" "$T/l.txt" || fail "hd_struct layout is not the expected one"

	# JSON carries the same numbers.
	"$LINEUP" layout --json -C hd_struct,aligned_member "$obj" >"$T/l.json" || fail "--json failed"
	python3 - "$T/l.json" <<'EOP' || fail "--json output is wrong"
import json, sys
d = json.load(open(sys.argv[1]))
hd, am = d
assert hd["name"] == "hd_struct" and hd["size"] == 872 and hd["cachelines"] == 14, hd
m = {x["name"]: x for x in hd["members"]}
assert m["ref"]["offset"] == 32 and m["ref"]["size"] == 16, m["ref"]
assert m["partno"]["offset"] == 804 and m["partno"]["cacheline"] == 12, m["partno"]
a = {x["name"]: x for x in am["members"]}
assert a["counter"]["offset"] == 64 and a["counter"]["align"] == 64, a["counter"]
assert a["flag"]["hole"] == 63 and am["padding"] == 55 and am["size"] == 128, am
EOP
fi
echo "$n objects identical to pahole"
exit 0
