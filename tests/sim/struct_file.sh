#!/bin/sh
# (c) a struct-file-like object (seed 003) on the heap, used by 3 threads: the line holding
# f_count and f_lock is contended, and the read-mostly f_path/f_inode/f_op beside them are
# its victims (their loads find the line Modified); f_pos_lock and f_pos contend on the next
# line.  The allocation log ties the line to the aligned_alloc in setup(), and lineup report
# agrees with perf c2c report line by line and offset by offset.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/sim/sim-lib.sh"
scratch
need perf

sim_build struct_file gcc
sim_record_contended "$T/c.data" 50 "$T/struct_file-gcc" 30000 3
c2c_lines "$T/c.data" >"$T/lines"
c2c_pareto "$T/c.data" >"$T/pareto"

# The allocation: 96 bytes from setup(), and the contended lines inside it.
alloc_line=$(src_line struct_file.c "file = aligned_alloc(64, sizeof(*file));")
"$PERF" script -i "$T/c.data" -F event,addr,period,ip,srcline 2>/dev/null |
	awk '/lineup-sim\/alloc\// { a = $3; p = $1; getline; gsub(/ /, ""); print a, p, $0 }' \
		>"$T/allocs"
obj=$(awk -v s="$alloc_line" '$2 == 96 && $3 == s { print $1 }' "$T/allocs")
[ -n "$obj" ] || fail "no 96-byte allocation at $alloc_line: $(cat "$T/allocs")"
objdec=$(printf '%d' "0x$obj")
first=$(printf '0x%x' "$objdec")
second=$(printf '0x%x' $((objdec + 64)))
grep -q " $first " "$T/lines" || fail "the object's first line $first is not contended: $(cat "$T/lines")"
grep -q " $second " "$T/lines" || fail "the object's second line $second is not contended"
idx1=$(awk -v a="$first" '$2 == a { print $1 }' "$T/lines")
idx2=$(awk -v a="$second" '$2 == a { print $1 }' "$T/lines")

# Offsets: f_count 0x38 (HITM and invalidating stores, the refcount), f_lock 0x30 stores;
# f_path.dentry 0x18, f_inode 0x20 and f_op 0x28 only loaded, with HITMs: victims.
has() { # LINE OFFSET SOURCE-PATTERN COLUMN(2 hitm, 4 st-miss)
	awk -v i="$1" -v o="$2" -v s="$(src_line struct_file.c "$3")" -v c="$4" \
		'$1 == i && $5 == o && $6 == s && $c != "0.00%"' "$T/pareto" | grep -q . ||
		fail "line $1 offset $2: nothing in column $4 from $3: $(cat "$T/pareto")"
}
has "$idx1" 0x38 "atomic_fetch_add(&f->f_count, 1);" 2
has "$idx1" 0x38 "atomic_fetch_add(&f->f_count, 1);" 4
has "$idx1" 0x20 "sum += (long)f->f_inode" 2
has "$idx1" 0x18 "sum += (long)f->f_inode" 2
has "$idx1" 0x28 "f->f_pos = f->f_op->read(f->f_pos);" 2
has "$idx2" 0x8 "while (!atomic_compare_exchange_weak(&f->f_pos_lock, &free, me))" 4
has "$idx2" 0x10 "f->f_pos = f->f_op->read(f->f_pos);" 2
[ "$(c2c_stat "$T/c.data" "Locked Load/Store Operations")" -gt 0 ] || fail "no locked operations"

# lineup report reads the same hot lines and offsets.
same_as_perf "$T/c.data"
exit 0
