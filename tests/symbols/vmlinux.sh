#!/bin/sh
# Oracle for -k VMLINUX: a small stand-in kernel image (an ET_EXEC linked at 0xffffffff81000000
# with _text, functions, an inlined helper, .init.text functions, a .bss variable and DWARF), a
# recording whose kernel MMAP says _text was loaded 0x2000000 higher (KASLR), samples across
# and past its sections: lineup's symbol, object and source line equal `perf script -k VMLINUX
# -F ip,sym,dso,srcline`'s (perf moves its kernel map onto the image's .text, gives every other
# section with symbols a map "[kernel.kallsyms]SECTION", takes the shift off for addr2line).
. "$top_srcdir/tests/lib.sh"
[ -n "${PERF:-}" ] || skip "perf is not installed"
need gcc
need ld
# the stand-in image is x86-64 kernel code (-mcmodel=kernel)
[ "$(uname -m)" = x86_64 ] || skip "the stand-in kernel image is x86-64 only"
MKKERN="$top_builddir/tests/fields/mkkern"
[ -x "$MKKERN" ] || fail "tests/fields/mkkern is not built (a check_PROGRAM)"
scratch
export HOME="$T/home"
mkdir -p "$HOME"

cat > "$T/fakek.c" <<'SRC'
asm(".text\n.globl _text\n.type _text,@function\n_text:\n\tnop\n.size _text,1\n");
int counter;
static inline int helper(int x) { return x * 3 + counter; }
__attribute__((noinline)) int kfunc_a(int x) { return helper(x) + 1; }
__attribute__((noinline)) int kfunc_b(int x) { for (int i = 0; i < x; i++) counter += helper(i); return counter; }
__attribute__((noinline, section(".init.text"))) int kinit_a(int x) { return x * 5 + counter; }
__attribute__((noinline, section(".init.text"))) int kinit_b(int x) { return x * 7 + kinit_a(x); }
__attribute__((noinline)) void kentry(void) { kfunc_a(1); kfunc_b(2); kinit_b(3); }
SRC
gcc -O2 -g -fno-pie -mcmodel=kernel -ffreestanding -nostdlib -static \
	-Wl,-Ttext=0xffffffff81000000 -Wl,-e,kentry -Wl,--build-id -o "$T/vmlinux" "$T/fakek.c" ||
	fail "cannot link the stand-in kernel image (gcc/ld are here)"

{
	echo "kernel ffffffff83000000 100000"
	i=0
	while [ $i -lt 160 ]; do
		echo "load $(printf 'ffffffff830000%02x' $i) ffff888000001000 0 10 10605800842 100"
		i=$((i + 3))
	done
	# .bss: perf's "[kernel.kallsyms].bss" map, its one symbol unstretched
	for a in 2000 2002 2004 2010; do
		echo "load ffffffff8300$a ffff888000001000 0 10 10605800842 100"
	done
} > "$T/scenario"
"$MKKERN" "$T/perf.data" < "$T/scenario" || fail "mkkern failed"
"$PERF" script -i "$T/perf.data" -k "$T/vmlinux" -F ip,sym,dso,srcline 2>/dev/null |
	grep -v '^$' > "$T/want" || fail "perf script -k failed"
"$top_builddir/tests/tools/resolve" -k "$T/vmlinux" "$T/perf.data" > "$T/got" ||
	fail "resolve -k failed"
if ! cmp -s "$T/want" "$T/got"; then
	diff "$T/want" "$T/got" | head -30
	fail "-k vmlinux: lineup resolves samples differently from perf script"
fi
grep -q 'kfunc_b (\[kernel.kallsyms\])' "$T/got" || fail "no vmlinux symbol resolved"
grep -q 'fakek.c:3' "$T/got" || fail "no source line from the vmlinux"
grep -q 'kinit_b (\[kernel.kallsyms\].init.text)' "$T/got" || fail "no .init.text map"
echo "$(grep -c '^ ' "$T/got") kernel samples resolved with -k like perf"

# Without -k: perf looks for an image itself ("vmlinux" in the current directory first, then
# /boot/vmlinux, /boot/vmlinux-REL, /usr/lib/debug/boot/vmlinux-REL ...); so does lineup.
cp "$T/vmlinux" "$T/cwd-vmlinux"
mkdir -p "$T/cwd" && mv "$T/cwd-vmlinux" "$T/cwd/vmlinux"
(cd "$T/cwd" && "$PERF" script -i "$T/perf.data" -F ip,sym,dso,srcline 2>/dev/null) |
	grep -v '^$' > "$T/want" || fail "perf script failed"
(cd "$T/cwd" && "$top_builddir/tests/tools/resolve" "$T/perf.data") > "$T/got" ||
	fail "resolve failed"
if ! cmp -s "$T/want" "$T/got"; then
	diff "$T/want" "$T/got" | head -30
	fail "./vmlinux found by search: lineup resolves samples differently from perf script"
fi
grep -q 'kfunc_b (\[kernel.kallsyms\])' "$T/got" || fail "./vmlinux not used"
echo "./vmlinux found like perf finds it"
