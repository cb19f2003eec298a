#!/bin/sh
# Kernel per-CPU variables by offset: a stand-in kernel image whose .data..percpu section is
# linked at 0 as the kernel's is (per-CPU symbols are then offsets), and for every variable in
# it (readelf's symbol table is the truth) its first, middle and last byte give that variable;
# bytes between variables give none.
. "$top_srcdir/tests/lib.sh"
need gcc
need ld
# the stand-in image is x86-64 kernel code (-mcmodel=kernel)
[ "$(uname -m)" = x86_64 ] || skip "the stand-in kernel image is x86-64 only"
need readelf
scratch
cat > "$T/k.c" <<'SRC'
asm(".text\n.globl _text\n.type _text,@function\n_text:\n\tnop\n.size _text,1\n");
struct rq { long nr_running; long clock; long pad[6]; };
__attribute__((section(".data..percpu"))) struct rq runqueues;
__attribute__((section(".data..percpu"))) int cpu_number;
__attribute__((section(".data..percpu"))) long counters[4];
__attribute__((section(".data..percpu"))) char flag;
__attribute__((noinline)) long kentry(void) { return runqueues.clock + cpu_number + counters[1] + flag; }
SRC
cat > "$T/k.lds" <<'LDS'
SECTIONS {
  . = 0xffffffff81000000;
  .text : { *(.text .text.*) }
  . = ALIGN(4096);
  __per_cpu_load = .;
  .data..percpu 0 : AT(__per_cpu_load - 0xffffffff80000000) { *(.data..percpu) }
  . = __per_cpu_load + SIZEOF(.data..percpu);
  .data : { *(.data .data.*) }
  .bss : { *(.bss .bss.*) }
}
LDS
gcc -O2 -g -fno-pie -mcmodel=kernel -ffreestanding -nostdlib -static -Wl,-T,"$T/k.lds" \
	-Wl,-e,kentry -o "$T/vmlinux" "$T/k.c" || fail "cannot link the stand-in kernel image (gcc/ld are here)"
sec=$(readelf -SW "$T/vmlinux" | sed -n 's/^ *\[ *\([0-9]*\)\] \.data\.\.percpu .*/\1/p')
[ -n "$sec" ] || fail "no .data..percpu section in the stand-in image"
readelf -sW "$T/vmlinux" | awk -v s="$sec" '$4 == "OBJECT" && $7 == s { print $8, $2, $3 }' \
	> "$T/vars"
[ "$(wc -l < "$T/vars")" -eq 4 ] || fail "expected 4 per-CPU variables: $(cat "$T/vars")"
: > "$T/want"
: > "$T/q"
while read -r name value size; do
	for off in 0 $((size / 2)) $((size - 1)); do
		a=$(printf '%x' $((0x$value + off)))
		echo "$a" >> "$T/q"
		printf '%s %s %x %s\n' "$a" "$name" $((0x$value)) "$size" >> "$T/want"
	done
done < "$T/vars"
# between variables (alignment padding) and past the section
for a in 8 44 a0 1000; do echo "$a" >> "$T/q"; echo "$a ?" >> "$T/want"; done
"$top_builddir/tests/unit/symbolize" -k "$T/vmlinux" --percpu $(cat "$T/q") > "$T/got" ||
	fail "symbolize --percpu failed"
if ! cmp -s "$T/want" "$T/got"; then
	diff "$T/want" "$T/got"
	fail "per-CPU variables by offset differ from the image's symbol table"
fi
echo "$(wc -l < "$T/got") per-CPU offsets named like the symbol table"
