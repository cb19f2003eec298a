# Shared by the tests/symbols/*.sh oracles; sourced after tests/lib.sh.

# The start of machine.sh and recordings.sh: skips without perf, gcc or objcopy; a scratch $T
# with its own $HOME; $MKPERF and $RESOLVE; a test program built as $T/prog (full debug info),
# $T/prog-nodebug (only symbols) and $T/prog-stripped (neither); $T/other; $LIBC, prog's libc.
symbols_setup() {
	[ -n "${PERF:-}" ] || skip "perf is not installed"
	need gcc
	need objcopy
	scratch
	MKPERF="$top_builddir/tests/tools/mkperf"
	RESOLVE="$top_builddir/tests/tools/resolve"
	export HOME="$T/home"	# no build-id cache of the tester's leaks in, for perf or lineup
	mkdir -p "$HOME"

	cat > "$T/prog.c" <<'SRC'
#include <stdlib.h>
struct counters { long hits, misses; } stats;
static int table[64];
static inline int sq(int x) { return x * x + table[x & 63]; }
static inline int twice(int x) { return sq(x) + sq(x + 1); }
__attribute__((noinline)) int work(int n)
{
	int t = 0;
	for (int i = 0; i < n; i++) {
		t += twice(i);
		if (t & 1)
			stats.hits++;
	}
	return t;
}
__attribute__((noinline)) void fill(int seed)
{
	for (int i = 0; i < 64; i++)
		table[i] = seed * i;
}
int main(int argc, char **argv) { fill(argc); return work(atoi(argv[1])); }
SRC
	cat > "$T/other.c" <<'SRC'
__attribute__((noinline)) int other_fn(int x) { return x * 7 + 1; }
int main(int argc, char **argv) { return other_fn(argc); }
SRC
	gcc -O2 -g -o "$T/prog" "$T/prog.c" || fail "gcc prog"
	gcc -O0 -g -o "$T/other" "$T/other.c" || fail "gcc other"
	cp "$T/prog" "$T/prog-nodebug" && objcopy --strip-debug "$T/prog-nodebug"
	cp "$T/prog" "$T/prog-stripped" && objcopy --strip-all "$T/prog-stripped"
	LIBC=$(ldd "$T/prog" | awk '/libc.so/ { print $3 }')
}

# cxx_src FILE LOOPS MAPLOOPS RESULT: writes the C++ program of addr2line.sh and recordings.sh
# (templates, operators, a lambda, an anonymous namespace, gcc clones, the STL) to FILE, its
# main loop run LOOPS times, its map filled MAPLOOPS times, main returning run(a) RESULT.
cxx_src() {
	cat > "$1" <<SRC
#include <vector>
#include <map>
#include <string>
namespace ns {
struct K { int v; __attribute__((noinline)) int get(int x) const { return v * x; }
  __attribute__((noinline)) bool operator<(const K &o) const { return v < o.v; }
  __attribute__((noinline)) int operator()(int a) { return a + v; } };
template <typename T> __attribute__((noinline)) T mx(T a, T b) { return a < b ? b : a; }
}
namespace { __attribute__((noinline)) int anon_fn(int x) { return x * 3; } }
static __attribute__((noinline)) int cl(int x, int y) { return x * y + 1; }
int glob[8];
__attribute__((noinline)) int run(std::vector<int> &a) {
  ns::K k{3}; int s = 0;
  auto lam = [&](int q) __attribute__((noinline)) { return q * s + 1; };
  for (int i = 0; i < $2; i++) {
    s += k.get(a[i & 7]); s += ns::mx<int>(s, i); s += anon_fn(i); s += k(i); s += lam(i) + cl(i, 3);
    s += (k < ns::K{i}) ? 1 : 0; glob[i & 7] += s; }
  std::map<int, std::string> m; for (int i = 0; i < $3; i++) m[i % 1000] = "x";
  return s + (int)m.size();
}
int main() { std::vector<int> a(8, 1); return run(a) $4; }
SRC
}
