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

. "$top_srcdir/tests/symbols/fakek.sh"
fake_vmlinux "$T/vmlinux"

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
