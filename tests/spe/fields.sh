#!/bin/sh
# An Arm SPE trace through lineup fields: the synthesized samples are tied to the members of a
# real global struct (DWARF of a program built here), with the loads and stores of each.
. "$top_srcdir/tests/lib.sh"
scratch
need gcc
need objdump
need readelf
need nm
MKSPE="$top_builddir/tests/tools/mkspe"
[ -x "$MKSPE" ] || fail "mkspe was not built"

# gcc -g -O0 -no-pie -o prog prog.c
cat >"$T/prog.c" <<'EOF2'
struct stats { long hits; long misses; long pad[6]; long flags; long refs; } shared_stats;
int reader(struct stats *s) { return s->hits + s->misses; }
void writer(struct stats *s) { s->hits++; s->flags |= 1; }
int main(void) { writer(&shared_stats); return reader(&shared_stats); }
EOF2
(cd "$T" && gcc -g -O0 -no-pie -o prog prog.c) || fail "cannot build the test program"
# the instructions that touch the members: reader's two loads, writer's two stores
ins() {	# FUNCTION PATTERN: the address of the first instruction of FUNCTION matching PATTERN
	objdump -d --no-show-raw-insn "$T/prog" |
		awk -v f="<$1>:" -v p="$2" '$2 == f { on = 1; next } on && /^$/ { exit }
			on && index($0, p) { sub(":", "", $1); print "0x" $1; exit }'
}
LD_HITS=$(ins reader 'mov    (%rax),%rax') LD_MISSES=$(ins reader 'mov    0x8(%rax),%rax')
ST_HITS=$(ins writer 'mov    %rdx,(%rax)') ST_FLAGS=$(ins writer 'mov    %rdx,0x40(%rax)')
for v in "$LD_HITS" "$LD_MISSES" "$ST_HITS" "$ST_FLAGS"; do
	[ -n "$v" ] || fail "instruction not found in: $(objdump -d "$T/prog" | sed -n '/<reader>:/,/<main>:/p')"
done
OBJ=0x$(nm "$T/prog" | awk '$3 == "shared_stats" { print $1 }')
set -- $(readelf -lW "$T/prog" | awk '$1 == "LOAD" && $7 == "R" && $8 == "E" { print $3, $2, $6 }')
TEXT=$1 PGOFF=$2 TLEN=$3
set -- $(readelf -lW "$T/prog" | awk '$1 == "LOAD" && $7 == "RW" { print $3, $2, $6 }')
DSTART=$(($1 & ~4095)) DOFF=$(($2 & ~4095)) DLEN=$((($1 + $3 + 4095 - ($1 & ~4095)) & ~4095))

cat >"$T/f.txt" <<EOF2
cpus 2
comm 100 100 prog time=1
fork 100 100 101 100 time=2
comm 100 101 prog-worker time=3
mmap 100 $TEXT $TLEN $PGOFF $T/prog time=4
mmap 100 $DSTART $DLEN $DOFF $T/prog time=4 prot=3
spe 0 ip=$LD_HITS ctx=100 op=ld va=$OBJ pa=0x1040 lat=200 src=0x9 ev=0x4 ts=1000 repeat=5
spe 0 ip=$LD_MISSES ctx=100 op=ld va=$(($OBJ + 8)) pa=0x1048 lat=150 src=0x9 ev=0x4 ts=1010 repeat=2
spe 1 ip=$ST_HITS ctx=101 op=st va=$OBJ pa=0x1040 lat=20 ev=0x4 ts=1001 repeat=3
spe 1 ip=$ST_FLAGS ctx=101 op=st va=$(($OBJ + 64)) pa=0x1080 lat=20 ev=0x4 ts=1002 repeat=3
EOF2
"$MKSPE" -o "$T/f.data" "$T/f.txt" || fail "mkspe"
"$LINEUP" fields -i "$T/f.data" >"$T/out" 2>"$T/err" || fail "lineup fields: $(cat "$T/err")"
grep -q "all samples: 13, attributed 13 (100.0%)" "$T/out" || fail "attribution: $(cat "$T/out")"
grep -q "^struct stats (size 80" "$T/out" || fail "no struct stats: $(cat "$T/out")"
# member  use  loads  stores
for want in "hits read-write 5 3" "misses read-mostly 2 0" "flags write-only 0 3"; do
	set -- $want
	awk -v m="$1" -v u="$2" -v l="$3" -v s="$4" '$4 == m && $5 == u && $6 == l && $7 == s { ok = 1 }
		END { exit !ok }' "$T/out" || fail "member $1: expected $want in: $(cat "$T/out")"
done
# The peer loads (src 0x9: another core's L1/L2; SPE never says HITM) are the contention signal:
# counted with the HITMs, said so, and the line is named.  hits is written by CPU 1 and read by
# CPU 0 (true sharing); misses, only read, pays for it (a victim on the same line).
grep -q "of which 7 peer loads .*counted as HITMs" "$T/out" || fail "peer loads not counted: $(cat "$T/out")"
grep -q "^line 0x[0-9a-f]*: " "$T/out" || fail "no contended line on peer loads: $(cat "$T/out")"
grep -q "struct stats.misses @" "$T/out" || fail "misses not named on the contended line: $(cat "$T/out")"
"$LINEUP" fields --json -i "$T/f.data" >"$T/json" || fail "lineup fields --json"
grep -q '"peer_loads_as_hitm":7' "$T/json" || fail "json: no peer_loads_as_hitm 7: $(head -c 300 "$T/json")"
sed -n "/^# contended/,\$p" "$T/out"
echo ok
