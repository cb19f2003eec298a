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

# measure REPS CMD...: prints "cpu_ms_per_run peak_kb".  CPU time (task-clock from perf stat
# when perf is there, else user+system from time(1)), not wall time: these build machines are
# shared, and waiting for a core is not the program's cost.
measure() {
	reps=$1
	shift
	/usr/bin/time -f "%U %S %M" -o "$T/mem" "$@" >/dev/null 2>&1
	peak=$(tail -1 "$T/mem" | awk '{ print $3 }')
	if command -v perf >/dev/null 2>&1 &&
	   perf stat -x, -e task-clock -r "$reps" -o "$T/stat" "$@" >/dev/null 2>&1; then
		ms=$(awk -F, '/task-clock/ { print $1; exit }' "$T/stat")
	else
		ms=$(tail -1 "$T/mem" | awk '{ print 1000 * ($1 + $2) }')
	fi
	echo "$ms $peak"
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
	awk -v l="$label" -v pt="$1" -v pm="$2" -v lt="$3" -v lm="$4" 'BEGIN {
		printf "%-38s %8.1f ms %8.1f ms %6.2fx   %7d KB %7d KB %6.2fx\n", l,
			pt, lt, (lt > 0 ? pt / lt : 0), pm, lm, (lm > 0 ? pm / lm : 0)
	}'
}

printf '%-38s %11s %11s %7s   %10s %10s %7s\n' "object / what (CPU ms per run)" "pahole" \
	"lineup" "speed" "pahole" "lineup" "memory"

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

# glibc's separate debuginfo (libc6-dbg), found by build-id, decompressed so that neither tool
# spends its time in zlib: a 10 MB DWARF object.
libc=$(ldd /bin/sh 2>/dev/null | awk '/libc.so/ { print $3 }')
id=$(readelf -n "$libc" 2>/dev/null | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p')
ldbg=/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
if [ -n "$id" ] && [ -f "$ldbg" ] && objcopy --decompress-debug-sections "$ldbg" "$T/libc.debug"; then
	first=$("$LINEUP" layout "$T/libc.debug" | awk '/^struct / { print $2; exit }')
	last=$("$LINEUP" layout "$T/libc.debug" | awk '/^struct / { n = $2 } END { print n }')
	row "libc debuginfo: -C $first (early)" 5 -- "$PAHOLE" -C "$first" "$T/libc.debug" -- \
		"$LINEUP" layout -C "$first" "$T/libc.debug"
	row "libc debuginfo: -C $last (late)" 5 -- "$PAHOLE" -C "$last" "$T/libc.debug" -- \
		"$LINEUP" layout -C "$last" "$T/libc.debug"
	row "libc debuginfo: full dump" 3 -- "$PAHOLE" "$T/libc.debug" -- \
		"$LINEUP" layout "$T/libc.debug"
else
	echo "libc debuginfo: not installed (apt-get install libc6-dbg)"
fi

# VMLINUX=path overrides; only the vmlinux of the package is needed:
#   apt-get download linux-image-$(uname -r)-dbg
#   dpkg-deb --fsys-tarfile linux-image-*-dbg_*.deb | tar -x --wildcards './usr/lib/debug/boot/vmlinux-*'
dbg=${VMLINUX:-$(ls /usr/lib/debug/boot/vmlinux-* 2>/dev/null | head -1)}
if [ -n "$dbg" ]; then
	row "vmlinux DWARF: -C task_struct (1st CU)" 1 -- "$PAHOLE" -C task_struct "$dbg" -- \
		"$LINEUP" layout -C task_struct "$dbg"
	row "vmlinux DWARF: -C hd_geometry (block/)" 1 -- "$PAHOLE" -C hd_geometry "$dbg" -- \
		"$LINEUP" layout -C hd_geometry "$dbg"
	last=$("$LINEUP" layout "$dbg" | awk '/^struct / { n = $2 } END { print n }')
	row "vmlinux DWARF: -C $last (last)" 1 -- "$PAHOLE" -C "$last" "$dbg" -- \
		"$LINEUP" layout -C "$last" "$dbg"
	row "vmlinux DWARF: full dump" 1 -- "$PAHOLE" "$dbg" -- "$LINEUP" layout "$dbg"
else
	echo "vmlinux DWARF: not installed (apt-get install linux-image-amd64-dbg, ~850 MB)"
fi
