#!/bin/sh
# Oracle: the machine model (threads, fork, exec, mmap overlaps, anon maps, the kernel map) and
# the symbolizer resolve every sample of a perf.data exactly as perf does: lineup's
# tests/tools/resolve output equals `perf script -F ip,sym,dso,srcline` on the same file,
# written by mkperf with binaries that have full debug info, only symbols, or neither.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/symbols/lib-symbols.sh"
symbols_setup

# Samples at every function of prog at a few offsets, in each of its three builds.
addrs=
for f in $(nm "$T/prog" | awk '$2 ~ /^[tT]$/ { print $3 }'); do
	for off in 0 1 5 0x10 0x21; do addrs="$addrs $f+$off"; done
done
ksyms=$(awk '$2 ~ /^[tT]$/ && $3 !~ /\[/ { print $3 }' /proc/kallsyms 2>/dev/null | sed -n '100p;2000p;5000p')

{
	echo "cpus 2"
	echo "event load"
	echo "comm 100 100 prog"
	echo "mmap 100 auto $T/prog"
	echo "mmap 100 0x7f0000100000 $T/prog-nodebug"
	echo "mmap 100 0x7f0000200000 $T/prog-stripped"
	[ -n "$LIBC" ] && echo "mmap 100 0x7ffff7d80000 $LIBC"
	echo "anon 100 0x7f1000000000 0x21000"
	echo "anon 100 0x7f2000000000 0x1000 name=[heap]"
	for a in $addrs; do echo "sample load tid=100 cpu=0 ip=$a addr=0x7f1000000008 src=L1"; done
	for base in 0x7f0000100000 0x7f0000200000; do
		for off in 0x1000 0x1010 0x1066 0x1100 0x1234; do
			echo "sample load tid=100 cpu=0 ip=$(printf '0x%x' $((base + off))) addr=0x7f1000000008 src=L1"
		done
	done
	# libc (symbols from its /usr/lib/debug copy when installed): every exported function
	# at +1, and every .plt slot, where perf's symbol tree decides between overlapping symbols
	[ -n "$LIBC" ] && {
		nm -D --defined-only "$LIBC" | awk '$2 ~ /^[TtWi]$/ { print $1 }' | sort -u |
			while read -r a; do
				printf 'sample load tid=100 cpu=0 ip=0x%x addr=0x7f1000000008 src=L1\n' \
					$((0x7ffff7d80000 + 0x$a + 1))
			done
		readelf -SW "$LIBC" | awk '$2 == ".plt" { print $4, $6 }' | while read -r a sz; do
			i=0
			while [ $i -lt $((0x$sz)) ]; do
				printf 'sample load tid=100 cpu=0 ip=0x%x addr=0x7f1000000008 src=L1\n' \
					$((0x7ffff7d80000 + 0x$a + i + 4))
				i=$((i + 16))
			done
		done
	}
	# no map at all; [heap] (identity map).  Not an ip in //anon: perf runs addr2line on
	# "//anon", which exits at once, and perf then dies of SIGPIPE or not, by chance.
	echo "sample load tid=100 cpu=0 ip=0x12345 addr=0x7f1000000008 src=L1"
	echo "sample load tid=100 cpu=0 ip=0x7f2000000010 addr=0x7f1000000008 src=L1"
	# a thread shares its process's maps; a forked process gets a copy
	echo "fork 100 100 101 100"
	echo "sample load tid=101 cpu=1 ip=work+4 addr=0x7f1000000008 src=L1"
	echo "fork 200 100 200 100"
	# (mkperf names symbols only in the pid that mapped them: the address by hand, PIE base)
	fill=$(nm "$T/prog" | awk '$3 == "fill" { print $1 }')
	echo "sample load pid=200 tid=200 cpu=1 ip=$(printf '0x%x' $((0x555555554000 + 0x$fill + 2))) addr=0x7f1000000008 src=L1"
	# exec: the new image's maps replace the old ones where they overlap
	echo "comm 200 200 other exec=1"
	echo "mmap 200 auto $T/other"
	echo "sample load pid=200 tid=200 cpu=1 ip=other_fn+3 addr=0x7f1000000008 src=L1"
	echo "sample load pid=200 tid=200 cpu=1 ip=0x7f0000101066 addr=0x7f1000000008 src=L1"
	# the parent is unchanged by its child's exec
	echo "sample load tid=100 cpu=0 ip=work+4 addr=0x7f1000000008 src=L1"
	# an mmap over part of an older one splits it
	echo "mmap 100 0x7f0000101000 $T/other"
	echo "sample load tid=100 cpu=0 ip=0x7f0000100010 addr=0x7f1000000008 src=L1"
	echo "sample load tid=100 cpu=0 ip=0x7f0000101130 addr=0x7f1000000008 src=L1"
	# a thread first seen in a sample (no FORK, no COMM): it shares its process's maps
	w=$(nm "$T/prog" | awk '$3 == "work" { print $1 }')
	workip=$(printf '0x%x' $((0x555555554000 + 0x$w + 4)))
	echo "sample load pid=100 tid=150 cpu=1 ip=$workip addr=0x7f1000000008 src=L1"
	# a process that mapped something, exited, and a new process reusing its pid: the
	# FORK replaces the old thread and its maps (a copy of the parent's again)
	echo "fork 400 100 400 100"
	echo "mmap 400 0x7f3000000000 $T/other"
	echo "sample load pid=400 tid=400 cpu=1 ip=0x7f3000001130 addr=0x7f1000000008 src=L1"
	echo "exit 400 100 400 100"
	echo "sample load pid=400 tid=400 cpu=1 ip=0x7f3000001130 addr=0x7f1000000008 src=L1"
	echo "fork 400 100 400 100"
	echo "sample load pid=400 tid=400 cpu=1 ip=0x7f3000001130 addr=0x7f1000000008 src=L1"
	echo "sample load pid=400 tid=400 cpu=1 ip=$workip addr=0x7f1000000008 src=L1"
	# a thread of that new process: its leader's maps
	echo "fork 400 400 401 400"
	echo "sample load pid=400 tid=401 cpu=1 ip=$workip addr=0x7f1000000008 src=L1"
	for k in $ksyms; do
		echo "sample load tid=100 cpu=0 kernel=1 ip=0x$(awk -v s=$k '$3 == s { print $1; exit }' /proc/kallsyms) addr=0x7f1000000008 src=L1"
	done
} > "$T/scenario"
# (mkperf is the writer role's tool; its leaks are not what this test checks)
ASAN_OPTIONS=detect_leaks=0 "$MKPERF" -o "$T/perf.data" "$T/scenario" || fail "mkperf failed"

"$PERF" script -i "$T/perf.data" -F ip,sym,dso,srcline 2>/dev/null |
	grep -v '^$' > "$T/want" || fail "perf script failed"
"$RESOLVE" "$T/perf.data" > "$T/got" || fail "resolve failed"
if ! cmp -s "$T/want" "$T/got"; then
	diff "$T/want" "$T/got" | head -30
	fail "lineup resolves samples differently from perf script"
fi
[ "$(grep -c ' work (' "$T/got")" -ge 5 ] || fail "too few resolved samples: $(cat "$T/got")"
[ -z "$LIBC" ] || [ "$(grep -c 'libc.so.6)' "$T/got")" -ge 1000 ] || fail "too few libc samples"
echo "$(grep -c '^ ' "$T/got") samples resolved like perf"

# perf c2c's own cells (Symbol, Shared Object, Source:Line): c2c passes the symbol to the
# srcline code, so where addr2line knows nothing it prints "SYM+OFF" where perf script does not.
# Every sample a HITM on one line, so every code address shows in the Pareto table.
grep -v 'kernel=1' "$T/scenario" | sed 's/src=L1/src=LCL_HITM weight=100/' > "$T/scenario2"
ASAN_OPTIONS=detect_leaks=0 "$MKPERF" -o "$T/c2c.data" "$T/scenario2" || fail "mkperf failed"
"$PERF" c2c report -i "$T/c2c.data" --stdio --full-symbols 2>/dev/null |
	sed -n '/Shared Cache Line Distribution Pareto/,$p' |
	awk '$9 ~ /^0x/ && NF >= 19 {
		print $9 "\t" $15 " " $16 "\t" $17 "\t" $18 }' | sort -u > "$T/want.all"
[ -s "$T/want.all" ] || fail "no Pareto rows from perf c2c report"
"$RESOLVE" --c2c "$T/c2c.data" | sort -u > "$T/got.all"
# A code address sampled in processes that map it differently is one c2c entry or several
# (perf's merging, not the symbolizer's business; perf script above checks every sample):
# compare the addresses that resolve one way only.
awk -F'\t' '{ n[$1]++ } END { for (a in n) if (n[a] > 1) print a }' "$T/got.all" > "$T/ambiguous"
awk -F'\t' 'NR == FNR { skip[$1] = 1; next } !($1 in skip)' "$T/ambiguous" "$T/got.all" > "$T/got"
awk -F'\t' 'NR == FNR { skip[$1] = 1; next } !($1 in skip)' "$T/ambiguous" "$T/want.all" > "$T/want"
if ! cmp -s "$T/want" "$T/got"; then
	diff "$T/want" "$T/got" | head -30
	fail "perf c2c's Symbol/Object/Source:Line cells differ from lineup's"
fi
echo "c2c cells: $(wc -l < "$T/got") code addresses like perf c2c"

# --symfs: the recording's binaries are found only under a directory (a copy of the target's
# root), as perf's --symfs finds them.
mkdir -p "$T/target"
cp "$T/prog" "$T/target/prog"
printf 'cpus 2\nevent load\ncomm 300 300 prog\nmmap 300 auto %s\nanon 300 0x7f1000000000 0x1000\n' \
	"$T/target/prog" > "$T/scenario3"
for f in $(nm "$T/prog" | awk '$2 ~ /^[tT]$/ { print $3 }'); do
	echo "sample load tid=300 cpu=0 ip=$f+1 addr=0x7f1000000008 src=L1" >> "$T/scenario3"
done
ASAN_OPTIONS=detect_leaks=0 "$MKPERF" -o "$T/symfs.data" "$T/scenario3" || fail "mkperf failed"
mkdir -p "$T/symfs$T/target"
mv "$T/target/prog" "$T/symfs$T/target/prog"
# (an empty build-id cache: perf record above cached prog by its build-id)
mkdir -p "$T/home2"
HOME="$T/home2" "$PERF" script -i "$T/symfs.data" --symfs "$T/symfs" -F ip,sym,dso,srcline \
	2>/dev/null | grep -v '^$' > "$T/want" || fail "perf script --symfs failed"
HOME="$T/home2" "$RESOLVE" --symfs "$T/symfs" "$T/symfs.data" > "$T/got" ||
	fail "resolve --symfs failed"
if ! cmp -s "$T/want" "$T/got"; then
	diff "$T/want" "$T/got" | head -30
	fail "--symfs: lineup resolves samples differently from perf script"
fi
grep -q ' work (' "$T/got" || fail "--symfs: nothing resolved"
echo "--symfs: $(grep -c '^ ' "$T/got") samples resolved like perf"

# A stripped binary whose symbols and DWARF are in a separate file named by .gnu_debuglink,
# in the .debug directory beside it (perf's debuglink places: the name itself, DIR/NAME,
# DIR/.debug/NAME, /usr/lib/debug/DIR/NAME).
mkdir -p "$T/dl/.debug"
cp "$T/prog" "$T/dl/progdl"
objcopy --only-keep-debug "$T/dl/progdl" "$T/dl/.debug/progdl.debug"
objcopy --strip-all --add-gnu-debuglink="$T/dl/.debug/progdl.debug" "$T/dl/progdl"
printf 'cpus 2\nevent load\ncomm 500 500 progdl\nmmap 500 auto %s\nanon 500 0x7f1000000000 0x1000\n' \
	"$T/dl/progdl" > "$T/scenario4"
for f in $(nm "$T/prog" | awk '$2 ~ /^[tT]$/ { print $1 }'); do
	printf 'sample load tid=500 cpu=0 ip=0x%x addr=0x7f1000000008 src=L1\n' \
		$((0x555555554000 + 0x$f + 2)) >> "$T/scenario4"
done
ASAN_OPTIONS=detect_leaks=0 "$MKPERF" -o "$T/dl.data" "$T/scenario4" || fail "mkperf failed"
mkdir -p "$T/home3"
HOME="$T/home3" "$PERF" script -i "$T/dl.data" -F ip,sym,dso,srcline 2>/dev/null |
	grep -v '^$' > "$T/want" || fail "perf script (debuglink) failed"
HOME="$T/home3" "$RESOLVE" "$T/dl.data" > "$T/got" || fail "resolve (debuglink) failed"
if ! cmp -s "$T/want" "$T/got"; then
	diff "$T/want" "$T/got" | head -30
	fail "debuglink: lineup resolves samples differently from perf script"
fi
grep -q ' work (' "$T/got" || fail "debuglink: symbols not found"
echo "debuglink: $(grep -c '^ ' "$T/got") samples resolved like perf"
