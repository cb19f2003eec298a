# Shared helpers for shell tests (sourced).  Tests run from `make check`, which exports LINEUP,
# top_srcdir, top_builddir, PERF, PAHOLE, CLANG, CC and FIXTURES (the real recordings,
# tests/fixtures/perf-data).
set -u

: "${LINEUP:=$top_builddir/lineup}"
: "${FIXTURES:=$top_srcdir/tests/fixtures/perf-data}"

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }

# git's must_fail: the command must exit non-zero *without* crashing (a signal is a failure).
must_fail() {
	"$@"
	local rc=$?
	if [ $rc -eq 0 ]; then
		fail "expected failure: $*"
	elif [ $rc -gt 128 ]; then
		fail "crashed with signal $((rc - 128)): $*"
	fi
	return 0
}

# Expect exactly exit code $1 from the rest.
expect_rc() {
	local want=$1 rc
	shift
	"$@"
	rc=$?
	[ $rc -eq "$want" ] || fail "expected exit $want, got $rc: $*"
}

# A scratch directory removed on exit.
scratch() {
	T=$(mktemp -d "${TMPDIR:-/tmp}/lineup-test.XXXXXX") || exit 99
	trap 'rm -rf "$T"' EXIT
}

need() { command -v "$1" >/dev/null 2>&1 || skip "$1 is not installed"; }

# build_test_module: tests/kmod/lineup_touch.c built against the headers in $KVER into $T/kmod;
# sets KO.  The headers are there: a module that does not build is this project's failure, not
# a skip.  (Not make's jobserver of `make check`: kbuild runs its own.)
build_test_module() {
	mkdir -p "$T/kmod"
	cp "$top_srcdir/tests/kmod/lineup_touch.c" "$T/kmod/"
	echo 'obj-m := lineup_touch.o' >"$T/kmod/Kbuild"
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$KVER" M="$T/kmod" modules \
		>"$T/kbuild.log" 2>&1 ||
		{ tail -40 "$T/kbuild.log" >&2; fail "the test module does not build against $KVER"; }
	KO="$T/kmod/lineup_touch.ko"
	[ -f "$KO" ] || fail "no $KO after the build"
}
need_root() { [ "$(id -u)" -eq 0 ] || skip "needs root"; }

# pair_prog: $T/prog (gcc -O1 -g), whose reader() loads shared.a and writer() stores shared.b,
# and $T/p.data, a recording (mkperf) of the two from threads 100 and 101: one HITM line whose
# code addresses resolve in $T/prog.
pair_prog() {
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
	"$top_builddir/tests/tools/mkperf" -o "$T/p.data" "$T/s" || fail "mkperf"
}

# no_hang WHAT CMD...: CMD's output in $T/out and $T/err, its status in rc; a hang (timeout's
# 124: a hang guard, not a timed assertion) or a crash fails, saying it was with WHAT.
no_hang() {
	local what=$1
	shift
	timeout 120 "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -ne 124 ] || fail "hung with $what: $*"
	[ $rc -lt 128 ] || fail "crashed ($rc) with $what: $*"
}
