# Sourced by tests: fake_vmlinux OUT builds a stand-in x86-64 kernel image with DWARF at OUT,
# from fakek.c beside it: _text, kfunc_a/kfunc_b (with an inlined helper) in .text, kinit_a/kinit_b in .init.text,
# `counter` in .bss, linked at 0xffffffff81000000 with a build-id, as a vmlinux is.  Needs gcc
# and ld, and an x86-64 host (-mcmodel=kernel); the caller checks.
fake_vmlinux() {
	cat >"$(dirname "$1")/fakek.c" <<'SRC'
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
		-Wl,-Ttext=0xffffffff81000000 -Wl,-e,kentry -Wl,--build-id -o "$1" "$(dirname "$1")/fakek.c" ||
		fail "cannot link the stand-in kernel image (gcc/ld are here)"
}
