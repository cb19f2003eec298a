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

# pair_prog [global]: $T/prog (gcc -O1 -g), whose reader() loads shared.a and writer() stores
# shared.b, and $T/p.data, a recording (mkperf) of the two from threads 100 and 101: one HITM
# line whose code addresses resolve in $T/prog.  Its data addresses are an anonymous page's,
# or with "global" shared's own (the variable's type then names them).
pair_prog() {
	local a=0x7f0000000000 b=0x7f0000000008
	[ "${1:-}" = global ] && a=shared b=shared+8
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
sample load tid=100 cpu=0 ip=reader addr=$a src=LCL_HITM weight=200 repeat=5
sample store tid=101 cpu=1 ip=writer addr=$b src=ST_L1HIT weight=10 repeat=5
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

# pahole_diff PAHOLE_TXT LINEUP_TXT: the two equal line for line (diff -u when not), but for
# pahole's own defect with qualified arrays.  gcc writes `volatile uint32_t x[4]` as volatile ->
# array -> volatile uint32_t, and pahole (dwarves_fprintf.c's type__fprintf) prints a qualifier
# over an array before the element's own ("const const char name[14];"), and after volatile
# drops the dimensions ("volatile volatile uint32_t x;", "volatile vint x;").  On such a line
# lineup's may spell each qualifier once, leave out those an element's typedef says, and give
# the dimensions: the same words and comment (offset and size) otherwise.  Prints what differs.
pahole_diff() {
	diff -u "$1" "$2" >"$T/pahole_diff" && return 0
	[ "$(wc -l <"$1")" -eq "$(wc -l <"$2")" ] || { cat "$T/pahole_diff"; return 1; }
	awk -v p="$1" -v l="$2" '
	# the words of @s but its qualifiers and dimensions; the qualifiers into Q, DUP when one
	# is repeated, the dimensions into DIMS ("[3][9]")
	function words(s, n, i, t, out, r) {
		delete Q
		DUP = 0
		DIMS = ""
		for (r = s; match(r, /\[[0-9]*\]/); r = substr(r, RSTART + RLENGTH))
			DIMS = DIMS substr(r, RSTART, RLENGTH)
		gsub(/\[[0-9]*\]/, "", s)
		n = split(s, t, /[ \t]+/)
		out = ""
		for (i = 1; i <= n; i++) {
			if (t[i] ~ /^(const|volatile|restrict|_Atomic)$/) {
				if (t[i] in Q)
					DUP = 1
				Q[t[i]] = 1
			} else if (t[i] != "") {
				out = out " " t[i]
			}
		}
		return out
	}
	# the trailing comment (offset and size), blanks squeezed; body: what is before it
	function comment(s, i) {
		i = match(s, /\/\*[^*]*\*\/[ \t]*$/)
		if (!i)
			return ""
		s = substr(s, i)
		gsub(/[ \t]+/, " ", s)
		return s
	}
	function body(s, i) {
		i = match(s, /\/\*[^*]*\*\/[ \t]*$/)
		return i ? substr(s, 1, i - 1) : s
	}
	BEGIN {
		bad = 0
		while ((getline a <p) > 0 && (getline b <l) > 0) {
			line++
			if (a == b)
				continue
			wa = words(body(a))
			da = DUP; dimsa = DIMS; split("", qa); for (k in Q) qa[k] = 1
			wb = words(body(b))
			ok = wa == wb && comment(a) == comment(b)
			for (k in Q)
				if (!(k in qa))
					ok = 0	# lineup adds no qualifier
			if (dimsa != "" && dimsa != DIMS)
				ok = 0	# dimensions pahole gives are the same
			defect = da || (dimsa == "" && DIMS != "" && (("volatile" in qa) ||
								     ("restrict" in qa)))
			if (ok && defect) {
				accepted++
				continue
			}
			printf "line %d:\n-%s\n+%s\n", line, a, b
			bad++
		}
		if (accepted)
			printf "# %d lines of pahole'"'"'s qualified arrays read as lineup spells them\n", accepted
		exit bad ? 1 : 0
	}'
}
