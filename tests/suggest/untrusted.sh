#!/bin/sh
# Files lineup reads as text from a tree from elsewhere (it runs as root there): a PATCH for
# `lineup verify` that is a link to /proc/self/pagemap (which says it is empty and is as large
# as the address space), a sparse 50 GB one, one with a NUL byte, and a source file the debug
# info names that is either: each refused with a message naming the file and what is wrong,
# exit 2 for the patch, never read until memory runs out (xalloc's abort, exit 134).
. "$top_srcdir/tests/lib.sh"
scratch

cat >"$T/prog.c" <<'SRC'
/* A counter one thread writes beside a limit another thread reads. */
struct stats {
	long hits;
	long limit;
};

struct stats st __attribute__((aligned(64)));

long reader(void)
{
	return st.limit;
}

void writer(void)
{
	st.hits++;
}

int main(void)
{
	writer();
	return (int)reader();
}
SRC
${CC:-cc} -g -O0 -o "$T/prog" "$T/prog.c" || fail "the test program does not build"
cat >"$T/s.txt" <<REC
event load
event store
comm 10 10 prog
fork 10 10 11 10
mmap 10 auto $T/prog
sample load tid=10 cpu=0 time=1000000000 ip=reader+4 addr=st+8 src=LCL_HITM weight=100 repeat=40
sample store tid=11 cpu=2 time=2000000000 ip=writer+4 addr=st src=ST_L1HIT weight=10 repeat=30
REC
"$top_builddir/tests/tools/mkperf" -o "$T/s.data" "$T/s.txt" || fail "mkperf"
cd "$T" || exit 99

# A regression reads until memory runs out: let that be a quick abort, not the machine's
# memory (not under ASan, whose shadow memory needs the address space).
ldd "$LINEUP" 2>/dev/null | grep -q libasan || ulimit -v 4194304

"$LINEUP" suggest -i s.data --patch fix.diff >/dev/null 2>&1 || fail "suggest --patch"
[ -s fix.diff ] || fail "suggest --patch wrote no patch"
expect_rc 0 "$LINEUP" verify -i s.data fix.diff >/dev/null 2>&1

# refused NAME MESSAGE_RE: verify NAME is exit 2 with "lineup: NAME: MESSAGE"
refused() {
	no_hang "$1" "$LINEUP" verify -i s.data "$1"
	[ $rc -eq 2 ] || { cat "$T/err"; fail "verify $1: exit $rc, not 2"; }
	grep -q "^lineup: $1: $2\$" "$T/err" || { cat "$T/err"; fail "verify $1: no '$2'"; }
}
ln -s /proc/self/pagemap pagemap.patch || fail "ln -s"
refused pagemap.patch "a NUL byte at offset [0-9]*: not a text file"
truncate -s 50G sparse.patch 2>/dev/null || truncate -s 65M sparse.patch ||
	fail "no sparse file"
refused sparse.patch "larger than 64 MiB, the most a patch may be"
printf -- '--- a/prog.c\n\000+++ b/prog.c\n' >nul.patch
refused nul.patch "a NUL byte at offset 13: not a text file"

# The source the debug info names: no patch from it, and the reason said.
mv prog.c prog.c.orig || exit 99
truncate -s 50G prog.c 2>/dev/null || truncate -s 17M prog.c || fail "no sparse file"
no_hang "a sparse source" "$LINEUP" suggest -i s.data --patch sparse.diff
grep -q "prog.c: larger than 16 MiB, the most a source file may be$" "$T/err" ||
	{ cat "$T/err"; fail "a sparse source file: no 'larger than 16 MiB'"; }
rm prog.c
ln -s /proc/self/pagemap prog.c || fail "ln -s"
no_hang "pagemap as the source" "$LINEUP" suggest -i s.data --patch pagemap.diff
grep -q "prog.c: a NUL byte at offset [0-9]*: not a text file$" "$T/err" ||
	{ cat "$T/err"; fail "pagemap as the source: no 'a NUL byte'"; }
exit 0
