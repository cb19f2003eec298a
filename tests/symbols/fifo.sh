#!/bin/sh
# A recording whose MMAP2 file name is a FIFO on the reading machine (the binary replaced
# since, or a name planted on purpose): report, fields and the symbolizer never open it (a
# plain open() of a FIFO waits for a writer forever); its samples stay unresolved.  Same for
# a directory and a device at that name.
. "$top_srcdir/tests/lib.sh"
need gcc
need mkfifo
scratch
MKPERF="$top_builddir/tests/tools/mkperf"
RESOLVE="$top_builddir/tests/tools/resolve"
export HOME="$T/home"
mkdir -p "$HOME"
cat >"$T/prog.c" <<'SRC'
struct pair { long a, b; } shared;
__attribute__((noinline)) void reader(void) { (void)*(volatile long *)&shared.a; }
__attribute__((noinline)) void writer(void) { shared.b++; }
int main(void) { reader(); writer(); return 0; }
SRC
gcc -O1 -g -o "$T/prog" "$T/prog.c" || fail "gcc prog"
cat >"$T/s" <<EOF2
event load
event store
comm 100 100 prog
fork 100 100 101 100
mmap 100 auto $T/prog
anon 100 0x7f0000000000 0x1000
sample load tid=100 cpu=0 ip=reader addr=0x7f0000000000 src=LCL_HITM weight=200 repeat=5
sample store tid=101 cpu=1 ip=writer addr=0x7f0000000008 src=ST_L1HIT weight=10 repeat=5
EOF2
"$MKPERF" -o "$T/p.data" "$T/s" || fail "mkperf"

# (a hang guard, not a timed assertion: 124 is timeout's status when the command hung)
run() {
	timeout 120 "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -ne 124 ] || fail "hung on $what at the binary's name: $*"
	[ $rc -lt 128 ] || fail "crashed ($rc) with $what at the binary's name: $*"
}
for what in fifo directory device; do
	rm -rf "$T/prog"
	case $what in
	fifo) mkfifo "$T/prog" ;;
	directory) mkdir "$T/prog" ;;
	device) ln -s /dev/zero "$T/prog" ;;
	esac
	run "$LINEUP" report -i "$T/p.data" --stdio
	[ $rc -eq 0 ] || fail "report exit $rc with a $what: $(cat "$T/err")"
	run "$LINEUP" report -i "$T/p.data" --stdio -d 0 --full-symbols
	run "$LINEUP" fields -i "$T/p.data"
	run "$LINEUP" info -i "$T/p.data"
	run "$RESOLVE" "$T/p.data"
	[ $rc -eq 0 ] || fail "resolve exit $rc with a $what: $(cat "$T/err")"
done
exit 0
