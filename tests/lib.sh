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
need_root() { [ "$(id -u)" -eq 0 ] || skip "needs root"; }
