#!/bin/sh
# Oracle for kernel samples: a module built against Debian's linux-headers, mapped as perf
# synthesizes module maps (MMAP2, cpumode kernel, the .ko's path, pid -1), plus the kernel map
# ([kernel.kallsyms]_text) and symbols from this machine's /proc/kallsyms: lineup's symbol and
# object for each sample equal `perf script -F ip,sym,dso`'s.  (Not the source lines: perf 6.1
# hangs asking addr2line about a .ko, whose "," sentinel answer is a real line there.)
. "$top_srcdir/tests/lib.sh"
[ -n "${PERF:-}" ] || skip "perf is not installed"
need make
need nm
KVER=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | head -n1)
[ -n "$KVER" ] && [ -f "$KVER/Makefile" ] || skip "no linux-headers-*-amd64 in /usr/src"
[ -r /proc/kallsyms ] || skip "no /proc/kallsyms"
KTEXT=$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms)
KETEXT=$(awk '$3 == "_etext" { print $1; exit }' /proc/kallsyms)
[ -n "$KTEXT" ] && [ "$KTEXT" != 0000000000000000 ] || skip "kallsyms addresses are hidden"
MKKERN="$top_builddir/tests/fields/mkkern"
[ -x "$MKKERN" ] || fail "tests/fields/mkkern is not built (a check_PROGRAM)"
RESOLVE="$top_builddir/tests/tools/resolve"
scratch
export HOME="$T/home"
mkdir -p "$HOME"

build_test_module
# (sh arithmetic is signed 64-bit: kernel addresses are built as strings, offsets added to
# their low digits only)
MOD=ffffffffc0000000
modaddr() { printf 'ffffffffc%07x' $(($1)); }

{
	echo "kernel $KTEXT $(printf '%x' $((0x${KETEXT#????????} - 0x${KTEXT#????????})))"
	echo "module $MOD 0x4000 $KO"
	# every .text function of the module at a few offsets, and past its .text
	for f in $(nm "$KO" | awk '$2 ~ /^[tT]$/ { print $1 }'); do
		for off in 0 1 3 7; do
			echo "load $(modaddr "0x$f + $off") ffff888000001000 0 10 10605800842 100"
		done
	done
	echo "load $(modaddr 0x3000) ffff888000001000 0 10 10605800842 100"
	# kernel text (inside the kernel MMAP: perf, as root on the recording machine, would
	# take /proc/kcore's maps instead, which reach further): a spread of kallsyms functions,
	# at their start and inside
	awk -v e="$KETEXT" '$2 ~ /^[tT]$/ && $4 == "" && $1 < e { n++; if (n % 4000 == 1) print $1 }' \
		/proc/kallsyms | while read -r a; do
			echo "load $a ffff888000001000 0 10 10605800842 100"
			echo "load ${a%?}2 ffff888000001000 0 10 10605800842 100"
		done
} > "$T/scenario"
"$MKKERN" "$T/perf.data" < "$T/scenario" || fail "mkkern failed"

"$PERF" script -i "$T/perf.data" -F ip,sym,dso 2>/dev/null > "$T/want" ||
	fail "perf script failed"
"$RESOLVE" --no-srcline "$T/perf.data" > "$T/got" || fail "resolve failed"
if ! cmp -s "$T/want" "$T/got"; then
	diff "$T/want" "$T/got" | head -30
	fail "kernel and module samples resolve differently from perf script"
fi
grep -q 'lineup_file_get (\[lineup_touch\])' "$T/got" || fail "module symbols not resolved"
echo "$(wc -l < "$T/got") kernel and module samples resolved like perf"
