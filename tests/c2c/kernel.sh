#!/bin/sh
# lineup report -k VMLINUX against perf c2c report -k VMLINUX on kernel samples (mkperf's
# kernel map, [kernel.kallsyms]_text loaded 0x2000000 above the image's link address): perf
# moves its kernel map onto the image's .text (an unresolved address there prints as its
# .text-relative al->addr), gives the image's other sections maps of their own (Object
# "[kernel.kallsyms].init.text", ".bss") and has no map at all past them (Object "[unknown]",
# "[k] 0xIP", "??:0").  lineup takes all three from the symbolizer (symbols_loc map_addr,
# object, no_map).  Byte for byte, with and without Source:Line.
. "$top_srcdir/tests/lib.sh"
[ -n "${PERF:-}" ] && [ -x "$PERF" ] || skip "perf is not installed"
need gcc
need ld
# the stand-in image is x86-64 kernel code (-mcmodel=kernel)
[ "$(uname -m)" = x86_64 ] || skip "the stand-in kernel image is x86-64 only"
MKPERF="$top_builddir/tests/tools/mkperf"
[ -x "$MKPERF" ] || fail "mkperf was not built"
scratch
export HOME="$T/home"
mkdir -p "$HOME"

. "$top_srcdir/tests/symbols/fakek.sh"
fake_vmlinux "$T/vmlinux"

{
	echo "cpus 4 sockets=2"
	echo "event load"
	echo "event store"
	echo "comm 10 10 kworker"
	echo "kernel 0xffffffff83000000 0x100000"
	i=0
	while [ $i -lt 160 ]; do
		echo "sample load tid=10 cpu=$((i % 4)) kernel=1 ip=$(printf '0xffffffff830000%02x' $i) addr=0xffff888000001000 src=LCL_HITM weight=$((100 + i))"
		i=$((i + 3))
	done
	# in .bss, unresolved (perf's "[kernel.kallsyms].bss" map), and past every section
	for a in 2004 2010; do
		echo "sample store tid=10 cpu=1 kernel=1 ip=0xffffffff8300$a addr=0xffff888000001008 src=ST_L1HIT weight=20"
	done
} >"$T/k.txt"
"$MKPERF" -o "$T/k.data" "$T/k.txt" || fail "mkperf failed"

for args in "" "--no-source"; do
	# shellcheck disable=SC2086
	"$PERF" c2c report --stdio -k "$T/vmlinux" -i "$T/k.data" $args >"$T/perf.out" \
		2>"$T/perf.err" || fail "perf c2c report -k $args failed: $(cat "$T/perf.err")"
	# shellcheck disable=SC2086
	"$LINEUP" report --stdio -k "$T/vmlinux" -i "$T/k.data" $args >"$T/lineup.out" \
		2>"$T/lineup.err" || fail "lineup report -k $args failed: $(cat "$T/lineup.err")"
	diff -u "$T/perf.out" "$T/lineup.out" >"$T/diff" ||
		fail "lineup report -k $args differs from perf c2c report:
$(head -40 "$T/diff")"
done
# what the test is about is in the output
grep -q 'kinit_b  *\[kernel.kallsyms\]\.init\.text' "$T/lineup.out" || fail "no .init.text object"
grep -q '\[k\] 0xffffffff83002010  *\[unknown\]' "$T/lineup.out" || fail "no address without a map"
grep -q '\[k\] 0x0000000000001003  *\[kernel.kallsyms\] ' "$T/lineup.out" ||
	fail "no unresolved .text address as perf's al->addr"
grep -q '\[k\] 0x0000000000003004  *\[kernel.kallsyms\]\.bss' "$T/lineup.out" ||
	fail "no unresolved .bss address"
echo "ok: -k vmlinux reports identical to perf's"

# Without -k both look for the image of the recording's kernel release (the OSRELEASE header,
# not this machine's): /boot/vmlinux-RELEASE among others.  Writing there needs root.
[ "$(id -u)" -eq 0 ] && [ -d /boot ] && [ -w /boot ] || {
	echo "not root: the OSRELEASE search is not checked"
	exit 0
}
REL="lineup-test-$$"
BOOTIMG="/boot/vmlinux-$REL"
[ -e "$BOOTIMG" ] && fail "$BOOTIMG exists"
trap 'rm -rf "$T" "$BOOTIMG"' EXIT
cp "$T/vmlinux" "$BOOTIMG" || fail "cannot write $BOOTIMG"
{ echo "osrelease $REL"; cat "$T/k.txt"; } >"$T/rel.txt"
"$MKPERF" -o "$T/rel.data" "$T/rel.txt" || fail "mkperf failed"
mkdir -p "$T/cwd"	# no ./vmlinux there
(cd "$T/cwd" && "$PERF" c2c report --stdio -i "$T/rel.data" >"$T/perf.out" 2>"$T/perf.err") ||
	fail "perf c2c report failed: $(cat "$T/perf.err")"
(cd "$T/cwd" && "$LINEUP" report --stdio -i "$T/rel.data" >"$T/lineup.out" 2>"$T/lineup.err") ||
	fail "lineup report failed: $(cat "$T/lineup.err")"
diff -u "$T/perf.out" "$T/lineup.out" >"$T/diff" ||
	fail "the image found by the recording's release: lineup differs from perf:
$(head -40 "$T/diff")"
grep -q 'kinit_b  *\[kernel.kallsyms\]\.init\.text' "$T/lineup.out" ||
	fail "$BOOTIMG (the recording's release) was not used"
echo "ok: the recording's release finds $BOOTIMG, as in perf"
