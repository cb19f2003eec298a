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
