#!/bin/sh
# lineup layout against pahole on the same objects, side by side: one struct (-C) and a full
# dump, wall time and peak memory, as ratios (pahole / lineup: above 1 means lineup is faster
# or smaller).  Not a test: nothing fails on a slow machine.
#   bench/layout.sh [LINEUP]       (default: ./lineup of the build dir you run it from)
# Objects: the test module built against the installed linux-headers, the running kernel's
# BTF, and Debian's vmlinux debug image when installed:
#   apt-get install linux-image-$(uname -r)-dbg   (or linux-image-amd64-dbg; ~850 MB)
# which puts it at /usr/lib/debug/boot/vmlinux-VERSION.
set -u
LINEUP=${1:-${LINEUP:-./lineup}}
PAHOLE=${PAHOLE:-pahole}
top=$(cd "$(dirname "$0")/.." && pwd)
command -v "$PAHOLE" >/dev/null 2>&1 || { echo "no pahole: apt-get install dwarves"; exit 0; }
[ -x "$LINEUP" ] || { echo "no lineup binary at $LINEUP"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/lineup-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT

# measure REPS CMD...: prints "seconds_total peak_kb" for REPS runs of CMD
measure() {
	reps=$1
	shift
	start=$(date +%s.%N)
	peak=0
	i=0
	while [ $i -lt "$reps" ]; do
		/usr/bin/time -f %M -o "$T/mem" "$@" >/dev/null 2>&1
		m=$(tail -1 "$T/mem")
		[ "$m" -gt "$peak" ] 2>/dev/null && peak=$m
		i=$((i + 1))
	done
	end=$(date +%s.%N)
	echo "$(echo "$end - $start" | bc) $peak"
}

row() {	# row LABEL REPS -- PAHOLE_CMD... -- LINEUP_CMD...
	label=$1 reps=$2
	shift 3
	p=""
	while [ "$1" != "--" ]; do p="$p '$1'"; shift; done
	shift
	pr=$(eval measure "$reps" $p)
	lr=$(measure "$reps" "$@")
	set -- $pr $lr
	awk -v l="$label" -v n="$reps" -v pt="$1" -v pm="$2" -v lt="$3" -v lm="$4" 'BEGIN {
		printf "%-34s %8.1f ms %8.1f ms %6.2fx   %7d KB %7d KB %6.2fx\n", l,
			1000 * pt / n, 1000 * lt / n, (lt > 0 ? pt / lt : 0), pm, lm, (lm > 0 ? pm / lm : 0)
	}'
}

printf '%-34s %11s %11s %7s   %10s %10s %7s\n' "object / what" "pahole" "lineup" "speed" \
	"pahole" "lineup" "memory"

hdr=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | head -1)
if [ -n "$hdr" ]; then
	for f in "$top"/tests/kmod/*.c "$top"/tests/kmod/*.h "$top"/tests/kmod/Kbuild; do
		[ -f "$f" ] && cp "$f" "$T/"
	done
	if env -u MAKEFLAGS -u MFLAGS make -C "$hdr" M="$T" modules >"$T/build.log" 2>&1; then
		ko=$T/lineup_kmod.ko
		row "test module: -C file" 20 -- "$PAHOLE" -C file "$ko" -- "$LINEUP" layout -C file "$ko"
		row "test module: full dump" 20 -- "$PAHOLE" "$ko" -- "$LINEUP" layout "$ko"
	else
		echo "test module: does not build against $hdr"
	fi
else
	echo "test module: no linux-headers installed"
fi

btf=/sys/kernel/btf/vmlinux
if [ -r "$btf" ]; then
	row "vmlinux BTF: -C task_struct" 10 -- "$PAHOLE" -F btf -C task_struct "$btf" -- \
		"$LINEUP" layout --btf -C task_struct
	row "vmlinux BTF: full dump" 5 -- "$PAHOLE" -F btf "$btf" -- "$LINEUP" layout --btf
fi

dbg=$(ls /usr/lib/debug/boot/vmlinux-* 2>/dev/null | head -1)
if [ -n "$dbg" ]; then
	row "vmlinux DWARF: -C task_struct" 1 -- "$PAHOLE" -C task_struct "$dbg" -- \
		"$LINEUP" layout -C task_struct "$dbg"
	row "vmlinux DWARF: full dump" 1 -- "$PAHOLE" "$dbg" -- "$LINEUP" layout "$dbg"
else
	echo "vmlinux DWARF: not installed (apt-get install linux-image-amd64-dbg, ~850 MB)"
fi
