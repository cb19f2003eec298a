#!/bin/sh
# suggest --verify, lineup verify and --patch on hostile debug info (issue 19, items 1, 4, 5):
# a binary whose comp_dir climbs out with "../" (gcc -fdebug-prefix-map) must not make lineup
# write, truncate or remove anything outside its private directory, with or without
# --source-root; the read outside the tree is said; the compiler runs in that directory with a
# clean environment; --patch refuses a link at once; a patch that lacks a struct says so.
. "$top_srcdir/tests/lib.sh"
scratch
need gcc
need python3

mkdir "$T/work" "$T/victim" "$T/victim/empty"
cat >"$T/work/prog.c" <<'SRC'
struct pair { long a, b; } shared;
__attribute__((noinline)) void reader(void) { (void)*(volatile long *)&shared.a; }
__attribute__((noinline)) void writer(void) { shared.b++; }
int main(void) { reader(); writer(); return 0; }
SRC
# the victim: what the debug info's path leads to, a copy of the source (so that a patch is made)
cp "$T/work/prog.c" "$T/victim/prog.c"
echo precious >"$T/victim/keep"
up=../../../../../../../../../../../../../../../..
(cd "$T/work" && gcc -O1 -g -fdebug-prefix-map="$T/work=$up$T/victim" -o prog prog.c) ||
	fail "gcc -fdebug-prefix-map"
cat >"$T/s" <<EOF2
event load
event store
comm 100 100 prog
fork 100 100 101 100
mmap 100 auto $T/work/prog
sample load tid=100 cpu=0 ip=reader addr=shared src=LCL_HITM weight=200 repeat=5
sample store tid=101 cpu=1 ip=writer addr=shared+8 src=ST_L1HIT weight=10 repeat=5
EOF2
"$top_builddir/tests/tools/mkperf" -o "$T/p.data" "$T/s" || fail "mkperf"

state() { (cd "$T/victim" && find . | sort && cat prog.c keep) | cksum; }
before=$(state)
untouched() {	# untouched WHAT: the victim tree as it was, no verify directory left
	[ "$(state)" = "$before" ] || { ls -laR "$T/victim"; fail "$1: the victim tree changed"; }
	[ -d "$T/victim/empty" ] || fail "$1: the empty victim directory was removed"
	ls -d "$T"/tmp/lineup-verify.* >/dev/null 2>&1 && fail "$1: a verify directory is left"
	return 0
}
mkdir "$T/tmp"
export TMPDIR=$T/tmp

# 1. suggest --verify: the copy stays in the private directory; the read outside is said
(cd "$T/work" && "$LINEUP" suggest -i "$T/p.data" --verify >"$T/out" 2>"$T/err")
rc=$?
[ $rc -eq 0 ] || { cat "$T/err" "$T/out"; fail "suggest --verify exits $rc"; }
untouched "suggest --verify"
grep -q "^verify: ok: " "$T/out" || { cat "$T/out"; fail "suggest --verify: not verified"; }
grep -q "warning: reading $T/victim/prog.c outside the current directory, from the binary's debug info" \
	"$T/err" || { cat "$T/err"; fail "the read outside the tree is not said"; }

# 2. with --source-root: the same
(cd "$T/work" && "$LINEUP" suggest -i "$T/p.data" --verify --source-root "$T/work" \
	--patch "$T/p.diff" >"$T/out" 2>"$T/err") || { cat "$T/err"; fail "--source-root --verify"; }
untouched "suggest --verify --source-root"
grep -q "outside --source-root ($T/work)" "$T/err" || { cat "$T/err"; fail "--source-root: not said"; }
# the patch names the file by its real path: no "..", so no patch tool can be led out
grep -q '^--- a/.*victim/prog.c$' "$T/p.diff" || { cat "$T/p.diff"; fail "the patch's name"; }
grep -q '\.\./' "$T/p.diff" && { cat "$T/p.diff"; fail "a '..' in the patch's names"; }

# 3. lineup verify -i DATA PATCH: the same
(cd "$T/work" && "$LINEUP" verify -i "$T/p.data" --source-root "$T/work" "$T/p.diff" \
	>"$T/out" 2>"$T/err") || { cat "$T/err" "$T/out"; fail "lineup verify"; }
untouched "lineup verify"

# 4. the compiler: in the private directory, with PATH, LC_ALL and TMPDIR only
cat >"$T/cc" <<EOF2
#!/bin/sh
pwd >"$T/cc.pwd"
env | sed 's/=.*//' | grep -v -x -e PWD -e SHLVL -e _ | sort >"$T/cc.env"
exec gcc "\$@"
EOF2
chmod +x "$T/cc"
(cd "$T/work" && LD_PRELOAD=/nonexistent/evil.so CPATH=/evil GCC_EXEC_PREFIX=/evil/ \
	COMPILER_PATH=/evil LD_LIBRARY_PATH=/evil "$LINEUP" suggest -i "$T/p.data" --verify \
	--cc "$T/cc" >"$T/out" 2>"$T/err") || { cat "$T/err" "$T/out"; fail "--verify --cc"; }
[ "$(tr '\n' ' ' <"$T/cc.env")" = "LC_ALL PATH TMPDIR " ] ||
	{ cat "$T/cc.env"; fail "the compiler's environment is not clean"; }
case $(cat "$T/cc.pwd") in
"$T"/tmp/lineup-verify.*) ;;
*) fail "the compiler ran in $(cat "$T/cc.pwd"), not the private directory" ;;
esac
untouched "--verify --cc"
"$LINEUP" suggest --help 2>&1 | tr -s ' \n' '  ' | grep -q "with PATH, LC_ALL=C and TMPDIR" ||
	fail "suggest --help does not say what --verify runs"

# 5. --patch to a link: refused before any work, the link's target untouched
ln -s "$T/victim/keep" "$T/link.diff"
(cd "$T/work" && "$LINEUP" suggest -i "$T/p.data" --patch "$T/link.diff" >"$T/out" 2>"$T/err")
rc=$?
[ $rc -eq 2 ] || fail "--patch LINK exits $rc, not 2"
grep -q "link.diff: a symbolic link: not written through" "$T/err" || { cat "$T/err"; fail "--patch LINK"; }
[ -s "$T/out" ] && { cat "$T/out"; fail "--patch LINK: the work was done before the refusal"; }
untouched "--patch LINK"

# 6. a struct whose source is gone beside one that is found: the patch is written, says what it
# lacks, and the exit status is 1
mkdir "$T/two"
cat >"$T/two/a.c" <<'SRC'
struct pa { long a, b; } sa;
__attribute__((noinline)) void ra(void) { (void)*(volatile long *)&sa.a; }
__attribute__((noinline)) void wa(void) { sa.b++; }
SRC
cat >"$T/two/b.c" <<'SRC'
struct pb { long c, d; } sb;
__attribute__((noinline)) void rb(void) { (void)*(volatile long *)&sb.c; }
__attribute__((noinline)) void wb(void) { sb.d++; }
void ra(void); void wa(void);
int main(void) { ra(); wa(); rb(); wb(); return 0; }
SRC
(cd "$T/two" && gcc -O1 -g -o two a.c b.c) || fail "gcc two"
rm "$T/two/b.c"
cat >"$T/s2" <<EOF2
event load
event store
comm 100 100 two
fork 100 100 101 100
mmap 100 auto $T/two/two
sample load tid=100 cpu=0 ip=ra addr=sa src=LCL_HITM weight=200 repeat=5
sample store tid=101 cpu=1 ip=wa addr=sa+8 src=ST_L1HIT weight=10 repeat=5
sample load tid=100 cpu=0 ip=rb addr=sb src=LCL_HITM weight=200 repeat=5
sample store tid=101 cpu=1 ip=wb addr=sb+8 src=ST_L1HIT weight=10 repeat=5
EOF2
"$top_builddir/tests/tools/mkperf" -o "$T/two.data" "$T/s2" || fail "mkperf two"
(cd "$T/two" && "$LINEUP" suggest -i "$T/two.data" --patch "$T/two.diff" >"$T/out" 2>"$T/err")
rc=$?
[ $rc -eq 1 ] || { cat "$T/err" "$T/out"; fail "a patch lacking a struct exits $rc, not 1"; }
grep -q "^wrote $T/two.diff: incomplete, it lacks struct pb" "$T/out" ||
	{ cat "$T/out"; fail "the incomplete patch is not said"; }
grep -q "struct pb: no source file for the patch" "$T/err" || { cat "$T/err"; fail "pb's source"; }
grep -q '^+++ b/a.c$' "$T/two.diff" || { cat "$T/two.diff"; fail "the patch of a.c"; }
# --verify with nothing to compile: "not checked", exit 1
rm "$T/two/a.c"
(cd "$T/two" && "$LINEUP" suggest -i "$T/two.data" --verify >"$T/out" 2>"$T/err")
rc=$?
[ $rc -eq 1 ] || fail "--verify with no source exits $rc, not 1"
grep -q "^verify: not checked: there is no patch to check" "$T/out" || { cat "$T/out"; fail "not checked"; }

# 7. a .gnu_debuglink that is a path ("../victim/prog.debug", its CRC and build-id right) is not
# followed: debug info names no place to read
need objcopy
mkdir "$T/dl" "$T/dl/bin"
gcc -g -O1 -o "$T/dl/bin/prog" "$T/work/prog.c" || fail "gcc dl"
objcopy --only-keep-debug "$T/dl/bin/prog" "$T/victim/prog.debug" &&
	objcopy --strip-debug "$T/dl/bin/prog" "$T/dl/bin/stripped" || fail "objcopy"
python3 - "$T/victim/prog.debug" "$T/dl/link.sec" <<'PY' || fail "the debuglink section"
import sys, zlib
crc = zlib.crc32(open(sys.argv[1], "rb").read()) & 0xffffffff
name = b"../../victim/prog.debug\0"
name += b"\0" * ((4 - len(name) % 4) % 4)
open(sys.argv[2], "wb").write(name + crc.to_bytes(4, "little"))
PY
objcopy --add-section .gnu_debuglink="$T/dl/link.sec" "$T/dl/bin/stripped" "$T/dl/bin/crafted" ||
	fail "objcopy --add-section"
expect_rc 2 "$LINEUP" layout -C pair "$T/dl/bin/crafted" >"$T/out" 2>"$T/err"
grep -q "gnu_debuglink '../../victim/prog.debug': a path, not a file name: not followed" "$T/err" ||
	{ cat "$T/err" "$T/out"; fail "a debuglink path is followed"; }
echo "ok"
